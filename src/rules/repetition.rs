//! Positions counted along a game, move by move, for the rules that depend on what happened
//! before: the fivefold repetition that ends a game (9.6.1) and the draw claims of 9.2 and 9.3
//! a player has on the board or by declaring a move. The audit and the language server walk
//! games with it; both then word what it finds in their own way.

use rustc_hash::FxHashMap;
use shakmaty::{Chess, Move, MoveList, Position};

use super::game::position_identity;

/// How often each position (by its FIDE identity, 9.2.3) has occurred since the last capture,
/// pawn move or pass: no position before one of those can occur again.
#[derive(Debug, Clone)]
pub struct PositionTally {
    counts: FxHashMap<u64, u32>,
    /// How many positions occurred twice: without one, no move can repeat a position a third
    /// time, so the look at every move is skipped.
    repeated: usize,
}

impl PositionTally {
    /// A tally standing at the start position, its first occurrence.
    pub fn starting_at(pos: &Chess) -> PositionTally {
        let mut counts = FxHashMap::default();
        counts.insert(position_identity(pos), 1);
        PositionTally {
            counts,
            repeated: 0,
        }
    }

    /// After a capture, a pawn move or a pass: positions are counted afresh.
    pub fn forget(&mut self) {
        self.counts.clear();
        self.repeated = 0;
    }

    /// Counts one more occurrence of `pos` and returns how often it has occurred.
    pub fn count(&mut self, pos: &Chess) -> u32 {
        let c = self.counts.entry(position_identity(pos)).or_insert(0);
        *c += 1;
        if *c == 2 {
            self.repeated += 1;
        }
        *c
    }

    /// The legal moves of `pos` that would make a position occur for the third time: a player
    /// may claim a draw by writing one down and declaring it instead of playing it (9.2.1).
    /// Captures and pawn moves cannot repeat anything.
    pub fn repeating_moves<'a>(
        &'a self,
        pos: &'a Chess,
        legal: &'a MoveList,
    ) -> impl Iterator<Item = Move> + 'a {
        let any = self.repeated > 0;
        declarable_moves(pos, legal, move |after| {
            any && self
                .counts
                .get(&position_identity(after))
                .is_some_and(|&c| c >= 2)
        })
    }
}

/// The legal moves of `pos` that would complete fifty moves by each player without a capture
/// or a pawn move, so that a player may claim a draw by declaring one (9.3.1): only when the
/// clock stands at 99 half-moves, and not a move that mates or stalemates, which would end the
/// game instead.
pub fn fifty_completing_moves<'a>(
    pos: &'a Chess,
    legal: &'a MoveList,
) -> impl Iterator<Item = Move> + 'a {
    let due = pos.halfmoves() == 99;
    declarable_moves(pos, legal, move |after| {
        due && !after.legal_moves().is_empty()
    })
}

/// The legal moves without a capture or a pawn move after which `test` holds.
fn declarable_moves<'a>(
    pos: &'a Chess,
    legal: &'a MoveList,
    test: impl Fn(&Chess) -> bool + 'a,
) -> impl Iterator<Item = Move> + 'a {
    legal
        .iter()
        .filter(|m| !m.is_zeroing())
        .filter(move |m| {
            let mut after = pos.clone();
            after.play_unchecked(**m);
            test(&after)
        })
        .copied()
}

/// One way two positions differ for repetition (9.2.3): they are the same only when none does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// Some square holds another piece, or none.
    Pieces {
        squares: Vec<shakmaty::Square>,
    },
    SideToMove,
    /// A castling right held in one position and lost in the other (9.2.3.2).
    CastlingRight {
        color: shakmaty::Color,
        side: shakmaty::CastlingSide,
        in_first: bool,
    },
    /// The en passant captures differ (9.2.3.1): the square one can be made on in each
    /// position, if any (a square passed over that no pawn can take on does not count).
    EnPassant {
        first: Option<shakmaty::Square>,
        second: Option<shakmaty::Square>,
    },
}

impl Difference {
    /// The article that makes this a difference.
    pub fn article(&self) -> &'static str {
        match self {
            Difference::CastlingRight { .. } => "9.2.3.2",
            Difference::EnPassant { .. } => "9.2.3.1",
            _ => "9.2.3",
        }
    }
}

/// How two positions differ for repetition, in the order 9.2.3 lists them (empty: the same
/// position).
pub fn differences(first: &Chess, second: &Chess) -> Vec<Difference> {
    use shakmaty::{CastlingSide, Color, EnPassantMode};
    let mut out = Vec::new();
    let squares: Vec<shakmaty::Square> = shakmaty::Square::ALL
        .into_iter()
        .filter(|&sq| first.board().piece_at(sq) != second.board().piece_at(sq))
        .collect();
    if !squares.is_empty() {
        out.push(Difference::Pieces { squares });
    }
    if first.turn() != second.turn() {
        out.push(Difference::SideToMove);
    }
    for color in Color::ALL {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let (a, b) = (
                first.castles().has(color, side),
                second.castles().has(color, side),
            );
            if a != b {
                out.push(Difference::CastlingRight {
                    color,
                    side,
                    in_first: a,
                });
            }
        }
    }
    let (a, b) = (
        first.ep_square(EnPassantMode::Legal),
        second.ep_square(EnPassantMode::Legal),
    );
    if a != b {
        out.push(Difference::EnPassant {
            first: a,
            second: b,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;

    fn play(pos: &mut Chess, tally: &mut PositionTally, san: &str) -> u32 {
        let m = san.parse::<San>().unwrap().to_move(pos).unwrap();
        pos.play_unchecked(m);
        if m.is_zeroing() {
            tally.forget();
        }
        tally.count(pos)
    }

    fn sans(pos: &Chess, moves: impl Iterator<Item = Move>) -> Vec<String> {
        moves.map(|m| San::from_move(pos, m).to_string()).collect()
    }

    #[test]
    fn knights_out_and_back_repeat_the_start() {
        let mut pos = Chess::default();
        let mut tally = PositionTally::starting_at(&pos);
        for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
            play(&mut pos, &mut tally, san);
        }
        // Black may declare Ng8: the start position would occur a third time.
        let legal = pos.legal_moves();
        assert_eq!(sans(&pos, tally.repeating_moves(&pos, &legal)), ["Ng8"]);
        assert_eq!(play(&mut pos, &mut tally, "Ng8"), 3);
        assert_eq!(play(&mut pos, &mut tally, "e4"), 1, "a pawn move forgets");
        let legal = pos.legal_moves();
        assert_eq!(tally.repeating_moves(&pos, &legal).count(), 0);
    }

    #[test]
    fn fifty_moves_are_completed_by_quiet_moves_that_do_not_end_the_game() {
        let pos = |fen: &str| -> Chess {
            let fen: Fen = fen.parse().unwrap();
            fen.into_position(CastlingMode::Standard).unwrap()
        };
        let due = pos("7k/8/6K1/8/8/8/8/R7 w - - 99 120");
        let legal = due.legal_moves();
        let moves = sans(&due, fifty_completing_moves(&due, &legal));
        assert!(!moves.contains(&"Ra8".to_string()), "Ra8 mates: {moves:?}");
        assert!(moves.contains(&"Ra7".to_string()), "{moves:?}");
        let earlier = pos("7k/8/6K1/8/8/8/8/R7 w - - 98 120");
        let legal = earlier.legal_moves();
        assert_eq!(fifty_completing_moves(&earlier, &legal).count(), 0);
    }

    fn end(moves: &[&str]) -> shakmaty::Chess {
        crate::rules::Game::from_moves(None, moves)
            .unwrap()
            .current()
            .clone()
    }

    #[test]
    fn a_transposition_is_the_same_position() {
        let a = end(&["d4", "d5", "Nf3"]);
        let b = end(&["Nf3", "d5", "d4"]);
        assert!(differences(&a, &b).is_empty());
    }

    #[test]
    fn rights_and_en_passant_make_positions_differ() {
        // The king went out and back: the same squares, castling rights gone.
        let a = end(&["e4", "e5", "Nf3", "Nc6"]);
        let b = end(&["e4", "e5", "Ke2", "Nc6", "Ke1", "Nb8", "Nf3", "Nc6"]);
        let found = differences(&a, &b);
        assert!(
            found
                .iter()
                .all(|d| matches!(d, Difference::CastlingRight { in_first: true, .. }))
        );
        assert_eq!(found.len(), 2);
        // 1.e4 d5 2.e5 f5: exf6 e.p. is possible; after knight moves there and back it is not.
        let a = end(&["e4", "d5", "e5", "f5"]);
        let b = end(&["e4", "d5", "e5", "f5", "Nf3", "Nf6", "Ng1", "Ng8"]);
        assert_eq!(
            differences(&a, &b),
            [Difference::EnPassant {
                first: Some(shakmaty::Square::F6),
                second: None
            }]
        );
        assert_eq!(differences(&end(&["e4"]), &end(&["d4"])).len(), 1);
    }

    #[test]
    fn en_passant_on_another_square_makes_positions_differ() {
        // The same pawns, White to move; a capture on d6 in one, on f6 in the other.
        let a = end(&["e4", "f5", "e5", "Nf6", "Nf3", "Ng8", "Ng1", "d5"]);
        let b = end(&["e4", "d5", "e5", "Nf6", "Nf3", "Ng8", "Ng1", "f5"]);
        assert_eq!(
            differences(&a, &b),
            [Difference::EnPassant {
                first: Some(shakmaty::Square::D6),
                second: Some(shakmaty::Square::F6)
            }]
        );
        assert_ne!(
            crate::rules::game::position_identity(&a),
            crate::rules::game::position_identity(&b)
        );
    }
}
