//! The deterministic rules checker.
//!
//! A [`Game`] is a start position (FEN, default the initial position) plus a legal history
//! given as SAN, UCI or PGN. [`check`] turns its current position into a [`Report`]: legal
//! moves, castling rights versus momentary prohibitions, en passant, promotion, check, mate,
//! stalemate, repetition, the fifty/seventy-five-move rules, dead positions and the flag —
//! every verdict with a reason and its FIDE article. shakmaty decides legality; chasolver
//! decides whether a side can still mate ([`winnability`]).
//!
//! `rules` knows nothing of search, answers, HTTP or LSP.

pub mod castling;
pub mod describe;
pub mod ending;
pub mod error;
pub mod game;
pub mod legality;
pub mod mate;
pub mod material;
pub mod notation;
pub mod pgn;
pub mod repetition;
pub mod report;
pub mod winnability;

pub use error::{ErrorBody, ErrorCode, RulesError};
pub use game::Game;
pub use report::{CheckOptions, Report, check};
pub use winnability::SolverBudget;

/// A standard-chess position from a FEN that is known to be good (for unit tests).
#[cfg(test)]
pub fn test_position(fen: &str) -> shakmaty::Chess {
    let setup: shakmaty::fen::Fen = fen.parse().expect("a FEN");
    setup
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("a legal position")
}
