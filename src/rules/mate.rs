//! Why a checkmated king cannot escape: each square it could step to, and the enemy pieces
//! covering it — a pinned piece included, since a pinned piece still attacks (3.1.3).

use shakmaty::{Bitboard, Board, Chess, Color, Position, Square, attacks};

use super::describe::{color_name, join_and, piece_on};

/// For a king in check with no legal move, every square it could step to and what covers
/// it, in words ("Every square the white king on g1 could step to is covered: f1 by the black
/// pawn on g2; f2 by the black knight on g4, which is pinned but still attacks it; … (3.1.3)").
/// `None` when the side to move is not checkmated or its king has no square to step to (own
/// pieces all round).
pub fn flight_squares_covered(pos: &Chess) -> Option<String> {
    if !pos.is_checkmate() {
        return None;
    }
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(us)?;
    // Sliders see through the king's own square once it has stepped off it.
    let through_king = board.occupied().without(king);
    let mut any_pinned = false;
    let covered: Vec<String> = (attacks::king_attacks(king) & !board.by_color(us))
        .into_iter()
        .filter_map(|sq| {
            let by = board.attacks_to(sq, !us, through_king);
            by.any().then(|| {
                let (words, pinned) = square_covered(board, sq, by);
                any_pinned |= pinned;
                words
            })
        })
        .collect();
    if covered.is_empty() {
        return None;
    }
    Some(format!(
        "Every square the {} king on {king} could step to is covered: {}{}",
        color_name(us),
        covered.join("; "),
        if any_pinned { " (3.1.3)" } else { "" }
    ))
}

/// "f2 by the black knight on g4, which is pinned but still attacks it", and whether a pinned
/// piece is among those covering it.
fn square_covered(board: &Board, sq: Square, by: Bitboard) -> (String, bool) {
    let mut any_pinned = false;
    let names: Vec<String> = by
        .into_iter()
        .map(|from| {
            let name = piece_on(board, from);
            if is_pinned(board, from) {
                any_pinned = true;
                format!("{name}, which is pinned but still attacks it")
            } else {
                name
            }
        })
        .collect();
    (format!("{sq} by {}", join_and(&names)), any_pinned)
}

/// Whether the piece on `sq` is pinned to its own king by an enemy rook, bishop or queen.
pub(crate) fn is_pinned(board: &Board, sq: Square) -> bool {
    let Some(piece) = board.piece_at(sq) else {
        return false;
    };
    let Some(king) = board.king_of(piece.color) else {
        return false;
    };
    let enemy: Color = !piece.color;
    let line_pinners = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    (line_pinners & board.by_color(enemy))
        .into_iter()
        .any(|pinner| {
            let between = attacks::between(pinner, king) & board.occupied();
            between == Bitboard::from(sq)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::test_position as pos;

    #[test]
    fn a_pinned_defender_still_covers_the_kings_square() {
        let p = pos("B2N4/8/3p2p1/Q2P4/4R1nk/7b/PPP2bpP/1R4K1 w - - 0 1");
        let text = flight_squares_covered(&p).unwrap();
        assert!(text.starts_with("Every square the white king on g1 could step to is covered:"));
        assert!(
            text.contains("f2 by the black knight on g4, which is pinned but still attacks it"),
            "{text}"
        );
        assert!(text.ends_with("(3.1.3)"), "{text}");
    }

    #[test]
    fn only_a_mate_is_explained() {
        assert!(flight_squares_covered(&Chess::default()).is_none());
        // Back-rank mate: the king's squares are its own pawns, except those the rook covers.
        let p = pos("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        let text = flight_squares_covered(&p).unwrap();
        assert!(text.contains("f8 by the white rook on d8"), "{text}");
        assert!(!text.contains("pinned"), "{text}");
    }
}
