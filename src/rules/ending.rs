//! How a game ends on the board without any claim — checkmate, stalemate, the fifth
//! occurrence of a position, 75 moves, a dead position — phrased for a report about a game
//! (`arbiter audit`, the language server's diagnostics).

use shakmaty::{CastlingMode, Chess, Color, MoveList, Position};

use super::describe::capitalised;
use super::winnability::{SolverBudget, is_dead};

/// How a game ended by rule, on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    pub result: &'static str,
    pub article: &'static str,
    /// "White is checkmated after 2...Qh4#".
    pub explanation: String,
}

/// "after 12. Qxf7#", or "in the start position" when no move led there.
pub fn at_phrase(label: Option<&str>) -> String {
    match label {
        Some(l) => format!("after {l}"),
        None => "in the start position".into(),
    }
}

/// The ending by rule in `pos`, if any, from cheap tests only (no solver): `occurrences` is how
/// often the position has occurred, `last` labels the move that led to it (asked only when
/// the game has ended there).
pub fn ending_by_rule(
    pos: &Chess,
    legal: &MoveList,
    occurrences: u32,
    last: impl FnOnce() -> Option<String>,
) -> Option<Ending> {
    let (result, article, what): (_, _, fn(Color, &str) -> String) = if legal.is_empty() {
        if pos.is_check() {
            let winner = if pos.turn() == Color::White {
                "0-1"
            } else {
                "1-0"
            };
            (winner, "5.1.1", |turn, at| {
                format!("{} is checkmated {at}", capitalised(turn))
            })
        } else {
            ("1/2-1/2", "5.2.1", |turn, at| {
                format!("{} is stalemated {at}", capitalised(turn))
            })
        }
    } else if occurrences >= 5 {
        ("1/2-1/2", "9.6.1", |_, at| {
            format!("the position {at} has occurred five times")
        })
    } else if pos.halfmoves() >= 150 {
        ("1/2-1/2", "9.6.2", |_, at| {
            format!("{at}, 75 moves by each player have been made without a capture or a pawn move")
        })
    } else if pos.is_insufficient_material() {
        ("1/2-1/2", "5.2.2", |_, at| {
            format!("{at} neither side has the material to checkmate: the position is dead")
        })
    } else {
        return None;
    };
    Some(Ending {
        result,
        article,
        explanation: what(pos.turn(), &at_phrase(last().as_deref())),
    })
}

/// The index of the first dead position of a history whose last position is dead, found by
/// bisection (a dead position stays dead whatever is played).
pub fn first_dead(history: &[Chess], mode: CastlingMode, budget: SolverBudget) -> usize {
    let (mut lo, mut hi) = (0usize, history.len().saturating_sub(1));
    while lo < hi {
        let mid = (lo + hi) / 2;
        if is_dead(&history[mid], mode, budget) {
            hi = mid
        } else {
            lo = mid + 1
        }
    }
    lo
}

/// The ending at a dead position, `label` naming the move that led to it.
pub fn dead_position(label: Option<&str>) -> Ending {
    Ending {
        result: "1/2-1/2",
        article: "5.2.2",
        explanation: format!(
            "{} neither side can checkmate by any series of legal moves: the position is dead",
            at_phrase(label)
        ),
    }
}
