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
    pub fn code(&self) -> ErrorCode {
        match self {
            RulesError::InvalidFen { .. } => ErrorCode::InvalidFen,
            RulesError::IllegalPosition { .. } => ErrorCode::IllegalPosition,
            RulesError::IllegalMove { .. } => ErrorCode::IllegalMove,
            RulesError::Notation { .. } => ErrorCode::BadNotation,
            RulesError::Pgn(_) => ErrorCode::BadPgn,
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
            code: self.code(),
            message: self.to_string(),
            ply,
            text,
            articles,
        }
    }
}

/// The machine-readable code of every JSON error, in every interface: the HTTP API, the CLI's
/// JSON and batch lines, and the language server's error data. Written in snake case
/// (`invalid_fen`); a client may rely on these and on nothing in the message.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ErrorCode {
    // The position or game (422 in the API).
    /// The FEN does not parse; the message names the field.
    InvalidFen,
    /// The FEN parses but no legal game reaches it (3.10.3).
    IllegalPosition,
    /// A move of the history is illegal or unreadable; `ply` and `text` say which.
    IllegalMove,
    /// A move given alone is not notation we can read.
    BadNotation,
    /// The PGN cannot be read.
    BadPgn,
    // The question (400 or 422).
    EmptyQuestion,
    QuestionTooLong,
    PgnTooLarge,
    TooManyMoves,
    // The request.
    /// A body that is not the JSON expected (a syntax error, a wrong type).
    BadJson,
    /// A body the server could not read as a request.
    BadBody,
    EmptyBody,
    /// A field of the request is missing, unknown or of the wrong type.
    InvalidField,
    /// Language server: a request without the parameters it needs.
    EmptyParams,
    EmptyQuery,
    QueryTooLong,
    /// CLI batch mode: a line longer than the API's body limit.
    LineTooLong,
    BodyTooLarge,
    BodyTimeout,
    UriTooLong,
    HeadersTooLarge,
    UnsupportedMediaType,
    MethodNotAllowed,
    NotFound,
    /// Any other 400 (hyper's own answers to a request it cannot parse).
    BadRequest,
    /// Any other 422.
    Unprocessable,
    // The server.
    /// Too much work queued: try again (`Retry-After`).
    Busy,
    /// Not answered within the time limit.
    Timeout,
    TooManyConnections,
    ShuttingDown,
    /// Any other 503.
    Unavailable,
    /// A failure inside the server, logged.
    Internal,
    /// An error status with no code of its own.
    Error,
}

impl ErrorCode {
    /// The code as written in JSON.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The body of `{"error": …}` in every JSON interface.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub articles: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_written_as_serde_writes_them() {
        use strum::IntoEnumIterator;
        for code in ErrorCode::iter() {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
        }
        assert!(ErrorCode::iter().count() > 30);
    }
}
