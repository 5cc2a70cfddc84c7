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

/// What an audit [`Finding`] is about; serialized in `snake_case` (the `kind` of `--json`
/// and `--csv`).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// An illegal move: the game cannot be judged past it.
    IllegalMove,
    /// An ambiguous move: more than one piece could make it (C.10).
    Ambiguous,
    /// A word in the movetext that is not a move.
    Notation,
    /// A null move (a pass); the Laws allow none (1.2).
    NullMove,
    /// A move played after the game had ended.
    AfterEnd,
    /// A recorded result the final position contradicts.
    Result,
    /// A `[Result]` tag that disagrees with the movetext.
    ResultTag,
    /// A result on time the Laws decide otherwise (6.9).
    TimeForfeit,
    /// A loss on time that stands: the opponent could still mate (6.9).
    TimeForfeitUpheld,
    /// A loss on time the solver could not decide (6.9).
    Undecided,
    /// A draw claim the loser could have made.
    MissedClaim,
    /// A game in a variant, not standard chess: not judged.
    NotStandard,
    /// A `[FEN]` tag that cannot be used as given.
    Fen,
    /// A PGN syntax problem.
    Syntax,
    /// An input read as Windows-1252, not UTF-8.
    Encoding,
    /// A game too large to read.
    TooLarge,
    /// The arbiter failed while judging the game.
    Internal,
}

impl FindingKind {
    /// The kind as `--json` writes it: `illegal_move`, `time_forfeit_upheld`, ….
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::IllegalMove => "illegal_move",
            FindingKind::Ambiguous => "ambiguous",
            FindingKind::Notation => "notation",
            FindingKind::NullMove => "null_move",
            FindingKind::AfterEnd => "after_end",
            FindingKind::Result => "result",
            FindingKind::ResultTag => "result_tag",
            FindingKind::TimeForfeit => "time_forfeit",
            FindingKind::TimeForfeitUpheld => "time_forfeit_upheld",
            FindingKind::Undecided => "undecided",
            FindingKind::MissedClaim => "missed_claim",
            FindingKind::NotStandard => "not_standard",
            FindingKind::Fen => "fen",
            FindingKind::Syntax => "syntax",
            FindingKind::Encoding => "encoding",
            FindingKind::TooLarge => "too_large",
            FindingKind::Internal => "internal",
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
    pub kind: FindingKind,
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
