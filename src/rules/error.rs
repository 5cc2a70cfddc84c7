//! Errors of the rules layer: each says what was wrong and where (the FEN field, the ply and
//! the move text), so that every front end can show it as it is.

use serde::Serialize;

/// Why a game or a position could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The FEN does not parse; `field` names the part (board, turn, castling, …).
    #[error("invalid FEN: the {field} field {detail}")]
    InvalidFen { field: &'static str, detail: String },
    /// The FEN parses but no legal game could reach it (3.10.3).
    #[error("illegal position (3.10.3): {}", .problems.join("; "))]
    IllegalPosition { problems: Vec<String> },
    /// A move of the history is illegal or unreadable; `ply` counts from 1.
    #[error("move {ply} ({text}) {reason}")]
    IllegalMove {
        ply: usize,
        text: String,
        reason: String,
        articles: Vec<String>,
        /// What kind of refusal it was (`None`: a null move, which no rule of play covers).
        kind: Option<super::legality::RejectionKind>,
    },
    /// A move given on its own (`--move`) is not notation we can read.
    #[error("cannot read the move {text:?}: {reason}")]
    Notation { text: String, reason: String },
    /// The PGN could not be read.
    #[error("PGN: {0}")]
    Pgn(String),
}

impl RulesError {
    /// A stable machine-readable code for the JSON error envelope.
    pub fn code(&self) -> &'static str {
        match self {
            RulesError::InvalidFen { .. } => "invalid_fen",
            RulesError::IllegalPosition { .. } => "illegal_position",
            RulesError::IllegalMove { .. } => "illegal_move",
            RulesError::Notation { .. } => "bad_notation",
            RulesError::Pgn(_) => "bad_pgn",
        }
    }

    /// The JSON form `{"code", "message", …details}` used by the CLI batch mode and the API.
    pub fn to_json(&self) -> ErrorBody {
        let (ply, text, articles) = match self {
            RulesError::IllegalMove {
                ply,
                text,
                articles,
                ..
            } => (Some(*ply), Some(text.clone()), articles.clone()),
            RulesError::IllegalPosition { .. } => (None, None, vec!["3.10.3".to_string()]),
            RulesError::Notation { text, .. } => {
                (None, Some(text.clone()), vec!["C.1".to_string()])
            }
            _ => (None, None, vec![]),
        };
        ErrorBody {
            code: self.code().to_string(),
            message: self.to_string(),
            ply,
            text,
            articles,
        }
    }
}

/// The body of `{"error": …}` in every JSON interface.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct ErrorBody {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub articles: Vec<String>,
}
