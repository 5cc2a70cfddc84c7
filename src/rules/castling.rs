//! Castling: the *right* (lost for good when the king or that rook moves, 3.8.2.1) kept apart
//! from the momentary *prohibitions* (check, an attacked square on the king's path, a piece in
//! between, 3.8.2.2). The rook being attacked, or b1/b8 being attacked, never stops castling.

use serde::Serialize;
use shakmaty::attacks;
use shakmaty::{Bitboard, CastlingSide, Chess, Color, Position, Square};

use super::describe::{capitalised, color_name, piece_on, pieces_on, side_words};

/// One reason castling is (or is not) possible, in words and as data.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CastlingReason {
    /// `right_lost`, `not_your_move`, `in_check`, `blocked`, `square_attacked`, `other`.
    pub code: &'static str,
    pub text: String,
    pub article: &'static str,
    /// Squares involved: blocking pieces, attacked squares.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub squares: Vec<String>,
    /// Squares of the attacking or blocking pieces.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<String>,
}

/// The state of one castling option in the report.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CastlingStatus {
    pub right: bool,
    pub legal: bool,
    pub reasons: Vec<CastlingReason>,
}

/// Works out the right and the legality of castling for `color` on `side`.
///
/// `lost_by` describes the move that removed the right, when the history knows it
/// ("the king moved on move 12, Kf1").
pub fn castling_status(
    pos: &Chess,
    color: Color,
    side: CastlingSide,
    lost_by: Option<&str>,
) -> CastlingStatus {
    let board = pos.board();
    let right = pos.castles().has(color, side);
    let mut reasons = Vec::new();
    if !right {
        let text = match lost_by {
            Some(how) => format!(
                "{} has lost the right to castle {} for good: {} (3.8.2.1)",
                capitalised(color),
                side_words(side),
                how
            ),
            None => format!(
                "{} has no right to castle {}: the position shows that the king or that rook \
                 has already moved, and the right never comes back (3.8.2.1)",
                capitalised(color),
                side_words(side)
            ),
        };
        reasons.push(CastlingReason {
            code: "right_lost",
            text,
            article: "3.8.2.1",
            squares: vec![],
            pieces: vec![],
        });
        return CastlingStatus {
            right,
            legal: false,
            reasons,
        };
    }

    let (Some(king), Some(rook)) = (board.king_of(color), pos.castles().rook(color, side)) else {
        return CastlingStatus {
            right,
            legal: false,
            reasons,
        };
    };
    let king_to = side.king_to(color);
    let rook_to = side.rook_to(color);
    let them = color.other();

    if pos.turn() != color {
        reasons.push(CastlingReason {
            code: "not_your_move",
            text: format!(
                "{} keeps the right, but it is {}'s move now (1.2)",
                capitalised(color),
                color_name(pos.turn())
            ),
            article: "1.2",
            squares: vec![],
            pieces: vec![],
        });
    }

    // Pieces standing between: every square the king or the rook passes or lands on must be
    // empty, apart from the king and that rook themselves.
    let must_be_empty = (attacks::between(king, king_to)
        | Bitboard::from(king_to)
        | attacks::between(rook, rook_to)
        | Bitboard::from(rook_to))
    .without(king)
    .without(rook);
    let blockers = must_be_empty & board.occupied();
    if blockers.any() {
        reasons.push(CastlingReason {
            code: "blocked",
            text: format!(
                "{} {} between the king and the rook; castling waits until the way is clear \
                 (3.8.2.2).",
                capitalise_first(&pieces_on(board, blockers)),
                if blockers.count() == 1 {
                    "stands"
                } else {
                    "stand"
                }
            ),
            article: "3.8.2.2",
            squares: blockers.into_iter().map(|s| s.to_string()).collect(),
            pieces: blockers.into_iter().map(|s| s.to_string()).collect(),
        });
    }

    // The king may not castle out of, through or into check. Only the king's squares count.
    let occupied_without_king = board.occupied().without(king);
    let checkers = board.attacks_to(king, them, board.occupied());
    if checkers.any() {
        reasons.push(CastlingReason {
            code: "in_check",
            text: format!(
                "the {} king is in check from {}: you cannot castle out of check (3.8.2.2). The \
                 right is not lost; it returns once the check is gone.",
                color_name(color),
                pieces_on(board, checkers)
            ),
            article: "3.8.2.2",
            squares: vec![king.to_string()],
            pieces: checkers.into_iter().map(|s| s.to_string()).collect(),
        });
    }
    let path: Vec<Square> = (attacks::between(king, king_to) | Bitboard::from(king_to))
        .without(king)
        .into_iter()
        .collect();
    for sq in path {
        // In Chess960 the castling rook may stand on the king's path; it moves away.
        let occupied = occupied_without_king.without(rook);
        let attackers = board.attacks_to(sq, them, occupied);
        if attackers.any() {
            let role = if sq == king_to {
                "lands on"
            } else {
                "must cross"
            };
            reasons.push(CastlingReason {
                code: "square_attacked",
                text: format!(
                    "{} {} {}, the square the king {} (3.8.2.2). The right to castle is intact; \
                     it can be used once {} is safe.",
                    capitalise_first(&pieces_on(board, attackers)),
                    if attackers.count() == 1 {
                        "attacks"
                    } else {
                        "attack"
                    },
                    sq,
                    role,
                    sq
                ),
                article: "3.8.2.2",
                squares: vec![sq.to_string()],
                pieces: attackers.into_iter().map(|s| s.to_string()).collect(),
            });
        }
    }

    let legal = pos.turn() == color && !pos.castling_moves(side).is_empty();
    if !legal && reasons.is_empty() {
        reasons.push(CastlingReason {
            code: "other",
            text: format!("castling is not possible here ({})", piece_on(board, king)),
            article: "3.8.2",
            squares: vec![],
            pieces: vec![],
        });
    }
    if legal {
        reasons.clear();
        let rook_attacked = board.attacks_to(rook, them, board.occupied());
        let note = if rook_attacked.any() {
            format!(
                "; the rook on {} is attacked by {}, which does not matter (3.8.2.2)",
                rook,
                pieces_on(board, rook_attacked)
            )
        } else {
            String::new()
        };
        reasons.push(CastlingReason {
            code: "allowed",
            text: format!(
                "{} may castle {} now: the right is intact, nothing stands between king and rook, \
                 and the king is not in check and crosses or lands on no attacked square{}",
                capitalised(color),
                side_words(side),
                note
            ),
            article: "3.8.2",
            squares: vec![],
            pieces: vec![],
        });
    }
    CastlingStatus {
        right,
        legal,
        reasons,
    }
}

pub fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
