//! `arbiter audit`: every game of a PGN database re-judged against the Laws — what the board
//! says about each game's end versus what the file records.
//!
//! - [`input`]: files, `.gz`/`.zst` (recognised by their first bytes) and stdin, with a byte
//!   count for the progress bar.
//! - [`judge`]: one game → [`Judged`] (its [`Finding`]s): illegal and unreadable moves, null
//!   moves, variants, moves after the end, results that contradict mate, stalemate, a dead
//!   position, fivefold or 75 moves, losses on time where the opponent could not mate (6.9)
//!   and those that stand (with a helpmate line as proof), missed draw claims.
//! - [`run`]: a stream of games judged on every core (rayon), in order, in flat memory: a
//!   reader thread hands batches of games to the judges; output follows the input order.
//! - [`output`]: the readable report with its summary, JSON lines, CSV.
//!
//! The audit reads PGN with [`crate::rules::pgn`], the reader of every other front end, and
//! its verdicts on a final position come from the checker's report.

pub mod input;
pub mod judge;
pub mod output;
pub mod run;

use serde::Serialize;

pub use judge::{Judged, Options, Timeout, judge};
pub use run::{Totals, audit_reader};

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The record contradicts the Laws: an illegal move, a wrong result.
    Error,
    /// Doubtful or incomplete: a null move, a result the final position makes unlikely.
    Warning,
    /// Worth knowing: a loss on time that stands, a missed claim, a variant.
    Info,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about one game: a line of `--json`, a row of `--csv`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Finding {
    /// The input the game came from (a path, or "-" for stdin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based index of the game in its input.
    pub game: usize,
    /// The ply (1-based half-move of the main line) the finding is about, when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// That move as a scoresheet shows it: "41...Z0".
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_text: Option<String>,
    /// `illegal_move`, `ambiguous`, `notation`, `null_move`, `after_end`, `result`,
    /// `result_tag`, `time_forfeit`, `time_forfeit_upheld`, `undecided`, `missed_claim`,
    /// `not_standard`, `fen`, `syntax`, `encoding`, `too_large`, `internal`.
    pub kind: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The deciding articles of the FIDE Laws.
    pub articles: Vec<String>,
    /// The result the file records, when the finding is about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<String>,
    /// The result the Laws give.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// A series of legal moves (SAN) ending in mate by the side the result favours: the proof
    /// that it could still mate.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub helpmate: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
}
