//! A chess helpmate solver and unwinnability detector.
//!
//! Given a position and an intended winner, determines whether a helpmate is
//! achievable (a sequence of legal moves ending in checkmate by the intended
//! winner) or proves that none exists.
//!
//! Note that in a helpmate both players cooperate toward that goal: the
//! intended winner delivers checkmate, but not necessarily by force.
//!
//! See the [README](https://github.com/miguel-ambrona/chasolver#readme) for
//! the background motivating this crate, and for usage examples.

// Not part of the public API; keeps the README's usage example under test
// without rendering the whole README as a docs.rs page.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod budget;
mod deduction;
mod search;
mod utils;
mod winnability;

pub use budget::Limits;
use chess::{Board, ChessMove, Color};
use winnability::{fast, full};

/// Result of a [`winnability`] analysis for the intended winner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Winnability {
    /// Helpmate is achievable for the intended winner; `helpmate` is a
    /// possible sequence of moves leading to checkmate.
    Winnable { helpmate: Vec<ChessMove> },

    /// Helpmate is provably impossible for the intended winner.
    Unwinnable,
}

/// Full helpmate search for `intended_winner`.
///
/// Returns `Some` result if the analysis is successful:
/// - [`Winnability::Winnable`] if the position is winnable for the intended
///   winner, together with a supporting helpmate sequence.
///
/// - [`Winnability::Unwinnable`] if no helpmate exists.
///
/// Returns `None` if winnability could not be decided on this position.
pub fn winnability(board: &Board, intended_winner: Color) -> Option<Winnability> {
    match intended_winner {
        Color::White => full::analysis(board),
        Color::Black => {
            let flipped_board = utils::mirror_board(board);
            let result = full::analysis(&flipped_board);
            result.map(utils::mirror_moves)
        }
    }
}

/// Fast but incomplete check for unwinnability; cheaper than [`winnability`]
/// when a mating line isn't needed.
///
/// Returns `true` if the position is provably unwinnable for `intended_winner`,
/// `false` if the analysis is inconclusive (the position may still be
/// unwinnable).
pub fn is_unwinnable_fast(board: &Board, intended_winner: Color) -> bool {
    match intended_winner {
        Color::White => fast::is_unwinnable(board),
        Color::Black => fast::is_unwinnable(&utils::mirror_board(board)),
    }
}

/// [`winnability`] that gives up when `limits` say so (a deadline passes or a flag is set).
///
/// Returns `None` when the analysis is undecided, including when it was stopped. A verdict
/// is only ever one the analysis proved: stopping makes the searches inconclusive, never
/// wrong.
pub fn winnability_within(
    board: &Board,
    intended_winner: Color,
    limits: &Limits,
) -> Option<Winnability> {
    budget::run(limits, || winnability(board, intended_winner)).0
}

/// [`is_unwinnable_fast`] that gives up when `limits` say so; `false` (inconclusive) then.
pub fn is_unwinnable_fast_within(board: &Board, intended_winner: Color, limits: &Limits) -> bool {
    budget::run(limits, || is_unwinnable_fast(board, intended_winner)).0
}

/// The verdict of [`is_unwinnable_fast`] and, when that is inconclusive, [`winnability`] —
/// the same verdict and helpmate line as calling the two in turn, for less work: the first two
/// phases of [`winnability`] (forced moves, then a depth-1 search whose heuristics extend
/// promising lines), which decide most real positions, run first; the fast check runs only when
/// they do not decide, and the rest of [`winnability`] then goes on from where they stopped. A
/// Black query mirrors the board once. Gives up when `limits` say so (`None`, as
/// [`winnability_within`]); the flag says whether they did (`None` without it: the analysis
/// gave up by its own limits).
///
/// Added for Rules Arbiter (see VENDORED.md).
pub fn winnability_with_fast_check_within(
    board: &Board,
    intended_winner: Color,
    limits: &Limits,
) -> (Option<Winnability>, bool) {
    budget::run(limits, || match intended_winner {
        Color::White => full::analysis_with_fast_check(board),
        Color::Black => {
            full::analysis_with_fast_check(&utils::mirror_board(board)).map(utils::mirror_moves)
        }
    })
}
