//! Request bodies shared by the CLI, the HTTP API and the language server.

use serde::{Deserialize, Serialize};

use super::{AnswerError, MAX_MOVES, MAX_PGN_BYTES};
use crate::rules::{self, Game, RulesError};

/// A line of `check --batch`, also the body of `POST /api/check`.
#[derive(Debug, Default, Clone, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves as a list, or as one string separated by spaces.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub moves: Option<MovesField>,
    #[serde(default)]
    pub pgn: Option<String>,
    #[serde(default, rename = "move")]
    pub move_text: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, Clone)]
#[serde(untagged)]
pub enum MovesField {
    List(Vec<String>),
    Text(String),
}

impl MovesField {
    pub fn to_list(&self) -> Vec<String> {
        match self {
            MovesField::List(v) => v.clone(),
            MovesField::Text(s) => split_moves(s),
        }
    }
}

/// Splits "1. e4 e5 2. Nf3" into moves, dropping move numbers and results.
pub fn split_moves(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter_map(|tok| {
            let tok = tok
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches('.');
            let tok = tok.trim();
            if tok.is_empty() || matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½") {
                None
            } else {
                Some(tok.to_string())
            }
        })
        .collect()
}

impl CheckRequest {
    /// The API's size limits: at most [`MAX_MOVES`] moves and [`MAX_PGN_BYTES`] of PGN.
    pub fn within_limits(&self) -> Result<(), AnswerError> {
        if let Some(p) = &self.pgn
            && p.len() > MAX_PGN_BYTES
        {
            return Err(AnswerError::PgnTooLarge(p.len()));
        }
        let moves = match &self.moves {
            Some(MovesField::List(list)) => list.len(),
            Some(MovesField::Text(text)) => split_moves(text).len(),
            None => 0,
        };
        if moves > MAX_MOVES {
            return Err(AnswerError::TooManyMoves(moves));
        }
        Ok(())
    }

    /// Builds the game this request describes: a PGN, or a FEN plus moves.
    pub fn game(&self) -> Result<Game, RulesError> {
        if let Some(pgn) = self.pgn.as_deref().filter(|p| !p.trim().is_empty()) {
            if self.moves.is_some() {
                return Err(RulesError::Pgn(
                    "give either a PGN or moves, not both".into(),
                ));
            }
            let mut game = rules::pgn::game_from_pgn(pgn)?;
            if self.fen.is_some() {
                game.warnings
                    .push("the fen field was ignored: the PGN sets the start position".into());
            }
            return Ok(game);
        }
        let moves = self.moves.as_ref().map(|m| m.to_list()).unwrap_or_default();
        Game::from_moves(self.fen.as_deref(), &moves)
    }
}

/// The body of `POST /api/ask`, a line of `ask --batch`, the params of `arbiter/ask`.
#[derive(Debug, Default, Clone, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AskRequest {
    pub question: String,
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub moves: Option<MovesField>,
    #[serde(default)]
    pub pgn: Option<String>,
}

impl AskRequest {
    /// A question without a position.
    pub fn question(text: &str) -> AskRequest {
        AskRequest {
            question: text.to_string(),
            ..AskRequest::default()
        }
    }

    pub fn has_position(&self) -> bool {
        self.fen.as_deref().is_some_and(|f| !f.trim().is_empty())
            || self.moves.as_ref().is_some_and(|m| !m.to_list().is_empty())
            || self.pgn.as_deref().is_some_and(|p| !p.trim().is_empty())
    }

    pub fn position_request(&self) -> CheckRequest {
        CheckRequest {
            fen: self.fen.clone(),
            moves: self.moves.clone(),
            pgn: self.pgn.clone(),
            move_text: None,
        }
    }
}
