//! Where a PGN game starts: the `[Variant]` tag (standard chess and Chess960 are played under
//! the FIDE Laws; anything else is not standard chess), and the `[FEN]` tag, whose `KQkq` means
//! the outermost rooks in a Chess960 game (X-FEN).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, FromSetup, Setup};

use super::super::error::RulesError;
use super::super::game::parse_fen;

/// What the `[Variant]` tag says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Variant {
    Standard,
    Chess960,
    /// Crazyhouse, Antichess, Atomic…: not chess under the FIDE Laws.
    Other(String),
}

/// Reads a `[Variant]` value; no tag is standard chess.
pub fn variant(tag: Option<&str>) -> Variant {
    let Some(value) = tag else {
        return Variant::Standard;
    };
    let v = value.trim().to_ascii_lowercase();
    if matches!(
        v.as_str(),
        "" | "standard" | "chess" | "normal" | "from position" | "fromposition"
    ) {
        Variant::Standard
    } else if v.contains("960") || v.contains("fischer") || v == "frc" {
        Variant::Chess960
    } else {
        Variant::Other(value.trim().to_string())
    }
}

/// Why a game cannot be replayed from its tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// The game is a variant, not chess under the FIDE Laws.
    NotStandard { variant: String },
    /// The `[FEN]` tag cannot be used.
    Fen(RulesError),
}

/// The start of a game: its position, its castling rules, and notes about the FEN.
#[derive(Debug, Clone)]
pub struct Start {
    pub pos: Chess,
    pub mode: CastlingMode,
    /// Rights or an e.p. square the FEN gave and the position cannot have (dropped).
    pub warnings: Vec<String>,
}

/// The start position from the `[Variant]` and `[FEN]` tags (`[SetUp]` is not required: a FEN
/// tag is honoured on its own, as every reader does). Chess960 comes from the variant tag or
/// from X-FEN/Shredder castling letters in the FEN.
pub fn start_position(variant_tag: Option<&str>, fen: Option<&str>) -> Result<Start, StartError> {
    let chess960 = match variant(variant_tag) {
        Variant::Standard => false,
        Variant::Chess960 => true,
        Variant::Other(variant) => return Err(StartError::NotStandard { variant }),
    };
    let Some(fen) = fen.map(str::trim).filter(|f| !f.is_empty()) else {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let pos = Chess::from_setup(Setup::default(), mode).unwrap_or_default();
        return Ok(Start {
            pos,
            mode,
            warnings: Vec::new(),
        });
    };
    let (pos, mode, warnings) = parse_fen(fen).map_err(StartError::Fen)?;
    if chess960 && mode == CastlingMode::Standard {
        // KQkq in a Chess960 game means the outermost rooks (X-FEN): the rights the standard
        // reading dropped are valid here.
        if let Ok(parsed) = fen.parse::<Fen>() {
            let pos960 = match Chess::from_setup(parsed.into_setup(), CastlingMode::Chess960) {
                Ok(p) => Some((
                    p,
                    warnings
                        .iter()
                        .filter(|w| !w.contains("3.8.2.1"))
                        .cloned()
                        .collect(),
                )),
                Err(e) => e
                    .ignore_invalid_castling_rights()
                    .ok()
                    .map(|p| (p, warnings.clone())),
            };
            if let Some((pos, warnings)) = pos960 {
                return Ok(Start {
                    pos,
                    mode: CastlingMode::Chess960,
                    warnings,
                });
            }
        }
    }
    Ok(Start {
        pos,
        mode: if chess960 {
            CastlingMode::Chess960
        } else {
            mode
        },
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn variants() {
        assert_eq!(variant(None), Variant::Standard);
        assert_eq!(variant(Some("From Position")), Variant::Standard);
        assert_eq!(variant(Some("fischerandom")), Variant::Chess960);
        assert_eq!(variant(Some("Chess960")), Variant::Chess960);
        assert_eq!(
            variant(Some("Crazyhouse")),
            Variant::Other("Crazyhouse".into())
        );
    }

    #[test]
    fn chess960_fen_with_kqkq_keeps_its_rights() {
        let fen = "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1";
        let s = start_position(Some("fischerandom"), Some(fen)).unwrap();
        assert_eq!(s.mode, CastlingMode::Chess960);
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        assert_eq!(s.pos.castles().castling_rights().count(), 4);
        assert!(matches!(
            start_position(Some("Antichess"), None),
            Err(StartError::NotStandard { .. })
        ));
    }
}
