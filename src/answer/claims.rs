//! Machine-checkable claims about a position. Both `ask` (which states them) and `verify`
//! (which re-checks them) evaluate a claim the same way, from the checker's report, so an
//! answer can never state a position fact the checker did not establish.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use shakmaty::{Color, Position};
use strum::IntoEnumIterator;

use crate::rules::castling::CastlingStatus;
use crate::rules::notation::{resolve_move, san_plus};
use crate::rules::{Game, Report};

/// What a claim is about (the `kind` and its parameters). Its kinds alone, as the `kind` key
/// names them, are [`ClaimKind`].
#[derive(
    Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema, strum::EnumDiscriminants,
)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[strum_discriminants(
    name(ClaimKind),
    derive(strum::IntoStaticStr, strum::EnumIter, strum::EnumString),
    strum(serialize_all = "snake_case")
)]
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

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Wing {
    Kingside,
    Queenside,
}

impl Wing {
    /// shakmaty's name for the wing.
    pub fn castling_side(self) -> shakmaty::CastlingSide {
        match self {
            Wing::Kingside => shakmaty::CastlingSide::KingSide,
            Wing::Queenside => shakmaty::CastlingSide::QueenSide,
        }
    }
}

/// A claim: its subject, the value it asserts, and the article that governs it.
///
/// Read strictly (it is what `verify` is given): the keys of its kind and nothing else, and a
/// `value` of the right type — true or false, or for `flag_result` a result ("1-0", "0-1",
/// "1/2-1/2") or null.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Claim {
    #[serde(flatten)]
    pub subject: ClaimSubject,
    #[schema(value_type = Object)]
    pub value: Value,
    #[serde(default)]
    pub article: String,
}

impl ClaimKind {
    /// The kind a `kind` value names, or an error listing the kinds.
    pub fn parse(name: &str) -> Result<ClaimKind, String> {
        name.parse().map_err(|_| {
            let names: Vec<&str> = ClaimKind::iter().map(ClaimKind::name).collect();
            format!(
                "unknown claim kind {name:?}; the kinds are {}",
                names.join(", ")
            )
        })
    }

    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The parameters the kind takes, besides `kind`, `value` and `article`, as
    /// [`ClaimSubject`] reads them.
    pub fn params(self) -> &'static [&'static str] {
        match self {
            ClaimKind::LegalMove | ClaimKind::EnPassant => &["move"],
            ClaimKind::CastlingRight | ClaimKind::CastlingLegal => &["color", "wing"],
            ClaimKind::FlagResult => &["flagged"],
            ClaimKind::InCheck
            | ClaimKind::Checkmate
            | ClaimKind::Stalemate
            | ClaimKind::DeadPosition
            | ClaimKind::ThreefoldClaim
            | ClaimKind::Fivefold
            | ClaimKind::FiftyMoveClaim
            | ClaimKind::SeventyFive => &[],
        }
    }
}

impl std::fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl ClaimSubject {
    pub fn kind(&self) -> ClaimKind {
        ClaimKind::from(self)
    }
}

/// The results a `flag_result` claim may state.
pub const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2"];

impl Claim {
    /// Reads a claim from its JSON object, naming what is wrong.
    pub fn from_json(mut map: serde_json::Map<String, Value>) -> Result<Claim, String> {
        let kind = match map.get("kind") {
            Some(Value::String(k)) => ClaimKind::parse(k)?,
            Some(other) => return Err(format!("the claim's kind must be a string, not {other}")),
            None => return Err("a claim needs a kind".into()),
        };
        let params = kind.params();
        if let Some(key) = map.keys().find(|k| {
            !matches!(k.as_str(), "kind" | "value" | "article") && !params.contains(&k.as_str())
        }) {
            let takes = if params.is_empty() {
                "no parameters".to_string()
            } else {
                params.join(", ")
            };
            return Err(format!(
                "unknown key {key:?} in a {kind} claim (it takes {takes}, value and article)"
            ));
        }
        let value = map
            .remove("value")
            .ok_or_else(|| format!("a {kind} claim needs a value"))?;
        let value_ok = match (kind, &value) {
            (ClaimKind::FlagResult, Value::String(r)) => RESULTS.contains(&r.as_str()),
            (ClaimKind::FlagResult, Value::Null) => true,
            (ClaimKind::FlagResult, _) => false,
            (_, v) => v.is_boolean(),
        };
        if !value_ok {
            let expected = if kind == ClaimKind::FlagResult {
                "\"1-0\", \"0-1\", \"1/2-1/2\" or null"
            } else {
                "true or false"
            };
            return Err(format!(
                "the value of a {kind} claim is {expected}, not {value}"
            ));
        }
        let article = match map.remove("article") {
            None => String::new(),
            Some(Value::String(a)) => a,
            Some(other) => return Err(format!("a claim's article is a string, not {other}")),
        };
        let subject: ClaimSubject = serde_json::from_value(Value::Object(map))
            .map_err(|e| format!("a {kind} claim: {e}"))?;
        Ok(Claim {
            subject,
            value,
            article,
        })
    }
}

impl<'de> Deserialize<'de> for Claim {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Claim, D::Error> {
        let map = serde_json::Map::<String, Value>::deserialize(d)?;
        Claim::from_json(map).map_err(serde::de::Error::custom)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Claim, String> {
        serde_json::from_value::<Claim>(v).map_err(|e| e.to_string())
    }

    /// The table of kinds says what serde reads: each subject's `kind` is its kind's name and
    /// its other keys are its kind's parameters.
    #[test]
    fn kinds_agree_with_the_subjects() {
        let (mv, color, wing, flagged) =
            ("e4".to_string(), Side::White, Wing::Kingside, Side::Black);
        let subjects = [
            ClaimSubject::LegalMove { mv: mv.clone() },
            ClaimSubject::CastlingRight { color, wing },
            ClaimSubject::CastlingLegal { color, wing },
            ClaimSubject::EnPassant { mv },
            ClaimSubject::InCheck,
            ClaimSubject::Checkmate,
            ClaimSubject::Stalemate,
            ClaimSubject::DeadPosition,
            ClaimSubject::ThreefoldClaim,
            ClaimSubject::Fivefold,
            ClaimSubject::FiftyMoveClaim,
            ClaimSubject::SeventyFive,
            ClaimSubject::FlagResult { flagged },
        ];
        assert_eq!(subjects.len(), ClaimKind::iter().count());
        for subject in subjects {
            let kind = subject.kind();
            let Value::Object(map) = serde_json::to_value(&subject).unwrap() else {
                panic!("{subject:?} is not an object");
            };
            assert_eq!(map["kind"], kind.name());
            assert_eq!(ClaimKind::parse(kind.name()), Ok(kind));
            let mut keys: Vec<&str> = map
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "kind")
                .collect();
            let mut params = kind.params().to_vec();
            keys.sort_unstable();
            params.sort_unstable();
            assert_eq!(keys, params, "{kind}");
        }
        assert!(
            ClaimKind::parse("checkmates")
                .unwrap_err()
                .contains("the kinds are legal_move")
        );
    }

    #[test]
    fn claims_of_the_right_shape_are_read() {
        let c = read(
            json!({"kind": "castling_right", "color": "white", "wing": "kingside", "value": false}),
        )
        .unwrap();
        assert_eq!(c.value, Value::Bool(false));
        let c = read(json!({"kind": "flag_result", "flagged": "black", "value": "1/2-1/2", "article": "6.9"}))
            .unwrap();
        assert_eq!(c.article, "6.9");
        assert!(read(json!({"kind": "flag_result", "flagged": "white", "value": null})).is_ok());
        assert!(read(json!({"kind": "in_check", "value": true})).is_ok());
    }

    #[test]
    fn wrong_types_and_unknown_keys_are_refused() {
        for (claim, says) in [
            (json!({"kind": "in_check", "value": "yes"}), "true or false"),
            (json!({"kind": "in_check", "value": 1}), "true or false"),
            (json!({"kind": "in_check"}), "needs a value"),
            (
                json!({"kind": "in_check", "value": true, "colour": "white"}),
                "unknown key \"colour\"",
            ),
            (
                json!({"kind": "legal_move", "move": "e4", "value": true, "extra": 1}),
                "unknown key",
            ),
            (
                json!({"kind": "legal_move", "move": 5, "value": true}),
                "legal_move claim",
            ),
            (
                json!({"kind": "flag_result", "flagged": "white", "value": true}),
                "1-0",
            ),
            (
                json!({"kind": "flag_result", "flagged": "white", "value": "2-0"}),
                "1-0",
            ),
            (
                json!({"kind": "castling_right", "color": "white", "value": true}),
                "wing",
            ),
            (
                json!({"kind": "no_such", "value": true}),
                "unknown claim kind",
            ),
            (json!({"kind": 3, "value": true}), "must be a string"),
            (
                json!({"kind": "checkmate", "value": false, "article": 5}),
                "article is a string",
            ),
        ] {
            let err = read(claim.clone()).expect_err(&claim.to_string());
            assert!(err.contains(says), "{claim}: {err}");
        }
    }

    #[test]
    fn claims_read_back_what_answers_write() {
        let c = Claim {
            subject: ClaimSubject::LegalMove { mv: "O-O".into() },
            value: Value::Bool(true),
            article: "3.8.2".into(),
        };
        let back: Claim = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }
}
