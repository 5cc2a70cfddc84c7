//! Machine-checkable claims about a position. Both `ask` (which states them) and `verify`
//! (which re-checks them) evaluate a claim the same way, from the checker's report, so an
//! answer can never state a position fact the checker did not establish.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use shakmaty::{Color, Position};

use crate::rules::castling::CastlingStatus;
use crate::rules::notation::{resolve_move, san_plus};
use crate::rules::{Game, Report};

/// What a claim is about (the `kind` and its parameters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClaimSubject {
    LegalMove {
        #[serde(rename = "move")]
        mv: String,
    },
    CastlingRight {
        color: Side,
        wing: Wing,
    },
    CastlingLegal {
        color: Side,
        wing: Wing,
    },
    EnPassant {
        #[serde(rename = "move")]
        mv: String,
    },
    InCheck,
    Checkmate,
    Stalemate,
    DeadPosition,
    ThreefoldClaim,
    Fivefold,
    FiftyMoveClaim,
    SeventyFive,
    FlagResult {
        flagged: Side,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }

    pub fn of(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Wing {
    Kingside,
    Queenside,
}

/// A claim: its subject, the value it asserts, and the article that governs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Claim {
    #[serde(flatten)]
    pub subject: ClaimSubject,
    #[schema(value_type = Object)]
    pub value: Value,
    #[serde(default)]
    pub article: String,
}

/// The report's castling verdict for one side and wing.
pub fn castling_status(report: &Report, side: Side, wing: Wing) -> &CastlingStatus {
    let wings = match side {
        Side::White => &report.castling.white,
        Side::Black => &report.castling.black,
    };
    match wing {
        Wing::Kingside => &wings.kingside,
        Wing::Queenside => &wings.queenside,
    }
}

/// The checker's value for a subject in this game's current position, and its article.
/// Moves are given back in SAN.
pub fn evaluate(
    subject: &ClaimSubject,
    game: &Game,
    report: &Report,
) -> (ClaimSubject, Value, String) {
    let (value, article) = match subject {
        ClaimSubject::LegalMove { mv } => return legal_move(subject, mv, game),
        ClaimSubject::EnPassant { mv } => return en_passant(subject, mv, game),
        ClaimSubject::CastlingRight { color, wing } => {
            let st = castling_status(report, *color, *wing);
            (Value::Bool(st.right), "3.8.2.1")
        }
        ClaimSubject::CastlingLegal { color, wing } => {
            let st = castling_status(report, *color, *wing);
            let article = if st.legal {
                "3.8.2"
            } else {
                st.reasons.first().map(|r| r.article).unwrap_or("3.8.2.2")
            };
            (Value::Bool(st.legal), article)
        }
        ClaimSubject::InCheck => (Value::Bool(report.in_check), "3.9.1"),
        ClaimSubject::Checkmate => (Value::Bool(report.checkmate), "5.1.1"),
        ClaimSubject::Stalemate => (Value::Bool(report.stalemate), "5.2.1"),
        ClaimSubject::DeadPosition => (
            report.dead_position.map(Value::Bool).unwrap_or(Value::Null),
            "5.2.2",
        ),
        ClaimSubject::ThreefoldClaim => {
            let r = &report.repetition;
            let by_move = !r.threefold_by_move.is_empty();
            let article = if r.threefold_now {
                "9.2.2"
            } else if by_move {
                "9.2.1"
            } else {
                "9.2"
            };
            (Value::Bool(r.threefold_now || by_move), article)
        }
        ClaimSubject::Fivefold => (Value::Bool(report.repetition.fivefold), "9.6.1"),
        ClaimSubject::FiftyMoveClaim => {
            let f = &report.fifty_moves;
            let by_move = !f.claim_by_move.is_empty();
            let article = if f.claim_now {
                "9.3.2"
            } else if by_move {
                "9.3.1"
            } else {
                "9.3"
            };
            (Value::Bool(f.claim_now || by_move), article)
        }
        ClaimSubject::SeventyFive => (Value::Bool(report.fifty_moves.seventy_five), "9.6.2"),
        ClaimSubject::FlagResult { flagged } => {
            let v = match flagged {
                Side::White => report.flag.white.clone(),
                Side::Black => report.flag.black.clone(),
            };
            (v.map(Value::String).unwrap_or(Value::Null), "6.9")
        }
    };
    (subject.clone(), value, article.into())
}

/// Whether a move is legal here: its SAN when it is, the article that forbids it when not.
fn legal_move(subject: &ClaimSubject, mv: &str, game: &Game) -> (ClaimSubject, Value, String) {
    let pos = game.current();
    match resolve_move(pos, mv, game.mode) {
        Ok(m) => (
            ClaimSubject::LegalMove {
                mv: san_plus(pos, m),
            },
            Value::Bool(true),
            crate::rules::report::article_for_move(m).into(),
        ),
        Err(r) => (
            subject.clone(),
            Value::Bool(false),
            r.articles
                .first()
                .cloned()
                .unwrap_or_else(|| "3.10.2".into()),
        ),
    }
}

/// Whether a move is a legal en passant capture here.
fn en_passant(subject: &ClaimSubject, mv: &str, game: &Game) -> (ClaimSubject, Value, String) {
    let pos = game.current();
    match resolve_move(pos, mv, game.mode) {
        Ok(m) if m.is_en_passant() => (
            ClaimSubject::EnPassant {
                mv: san_plus(pos, m),
            },
            Value::Bool(true),
            "3.7.3.1".into(),
        ),
        _ => (subject.clone(), Value::Bool(false), "3.7.3.2".into()),
    }
}

/// A claim as the checker sees it.
pub fn claim(subject: ClaimSubject, game: &Game, report: &Report) -> Claim {
    let (subject, value, article) = evaluate(&subject, game, report);
    Claim {
        subject,
        value,
        article,
    }
}

/// The outcome of re-checking one claim.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ClaimCheck {
    pub claim: Claim,
    /// true / false, or null when the checker could not decide (solver budget).
    pub holds: Option<bool>,
    #[schema(value_type = Object)]
    pub actual: Value,
    pub article: String,
}

pub fn verify_claim(claim: &Claim, game: &Game, report: &Report) -> ClaimCheck {
    let (_, actual, article) = evaluate(&claim.subject, game, report);
    let holds = if actual.is_null() {
        None
    } else {
        Some(actual == claim.value)
    };
    ClaimCheck {
        claim: claim.clone(),
        holds,
        actual,
        article,
    }
}

/// The side to move, as a claim side.
pub fn side_to_move(game: &Game) -> Side {
    Side::of(game.current().turn())
}
