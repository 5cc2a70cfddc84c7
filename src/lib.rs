//! Rules Arbiter: answers chess-rules questions the way an arbiter does at the board.
//!
//! Layers, lowest first (see ARCHITECTURE.md):
//! - [`rules`]: the deterministic checker on shakmaty and chasolver.
//! - [`rulebook`]: the Markdown rulebook, loaded into pages and passages.
//! - [`search`]: tantivy retrieval over the rulebook's passages.
//! - [`answer`]: questions in, answers with citations and checkable claims out.
//! - [`audit`]: every game of PGN databases re-judged against the Laws (on [`rules`]).
//! - front ends: [`cli`], [`server`], [`lsp`], [`regress`].

pub mod answer;
pub mod audit;
pub mod cli;
pub mod lsp;
pub mod regress;
pub mod rulebook;
pub mod rules;
pub mod search;
pub mod server;
pub mod text;
