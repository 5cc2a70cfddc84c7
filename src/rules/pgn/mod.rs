//! PGN as real files have it, read one way for every front end (the language server,
//! `check --pgn`, the API, `arbiter audit`).
//!
//! - [`decode`]: UTF-8 with or without a byte-order mark, else Windows-1252 (Latin-1).
//! - [`movetext`]: the span-tracking tokenizer — tags, comments, NAGs, variations, move
//!   numbers, moves, null moves, results — that never fails and never drops a word: what it
//!   cannot read becomes a move token, which the replay names with its ply as unreadable.
//! - [`split`]: files of any size, streamed one game at a time, numbered.
//! - [`start`]: the start position from `[Variant]` and `[FEN]`.
//! - [`clock`]: `%clk` and `%emt` comments.
//!
//! [`game_from_pgn`] replays the first game of a text into a [`Game`]; anything it cannot
//! read is an error naming the ply and the text.

pub mod clock;
pub mod decode;
pub mod movetext;
pub mod split;
pub mod start;

use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, FromSetup, Move, Position};

pub use decode::{Encoding, decode};
pub use movetext::{GameText, PgnText, is_null_move};
pub use split::{GameReader, ReadGame, Splitter};
pub use start::{Start, StartError, Variant, start_position, variant};

use super::error::RulesError;
use super::game::{Game, move_number};
use super::legality::{MoveRejection, RejectionKind};
use super::notation::resolve_move;

/// The legal move a main-line token denotes: strict SAN first (the common case, no
/// allocation), then the checker's lenient reading (`0-0`, UCI, a missing capture mark…),
/// whose rejection says exactly why there is no such move.
pub fn resolve(pos: &Chess, raw: &str, mode: CastlingMode) -> Result<Move, MoveRejection> {
    let body = raw.trim_end_matches(['+', '#']);
    if let Ok(san) = San::from_ascii(body.as_bytes())
        && let Ok(m) = san.to_move(pos)
    {
        return Ok(m);
    }
    resolve_move(pos, raw, mode)
}

/// A null move: the side to move passes. Impossible when that side is in check (the pass
/// would leave its king in check), and then nothing after it can be replayed.
pub fn pass(pos: &Chess) -> Result<Chess, String> {
    if pos.is_check() {
        return Err("the side that passes is in check".into());
    }
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    if pos.turn() == shakmaty::Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    setup.swap_turn();
    Chess::from_setup(setup, pos.castles().mode())
        .map_err(|_| "the position after the pass is not one a game can reach".to_string())
}

/// "12. Nf3" or "12...Nf6": a move as a scoresheet shows it.
pub fn label(pos: &Chess, raw: &str) -> String {
    let number = move_number(pos);
    if pos.turn() == shakmaty::Color::White {
        format!("{number} {raw}")
    } else {
        format!("{number}{raw}")
    }
}

/// "line 3": where a byte offset is, for messages about text.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Replays one game's main line into a [`Game`]. An unreadable, illegal or ambiguous move is
/// an error naming its ply and text; a null move is a warning, and the game goes on from the
/// position after the pass (as a new start, so repetitions before it are not counted).
pub fn replay(text: &str, game: &GameText) -> Result<Game, RulesError> {
    let start = start_position(
        game.tag("Variant").map(|t| t.value.as_str()),
        game.tag("FEN").map(|t| t.value.as_str()),
    )
    .map_err(|e| match e {
        StartError::NotStandard { variant } => RulesError::Pgn(format!(
            "the game is {variant}, not standard chess: the FIDE Laws (and this checker) cover standard chess and Chess960"
        )),
        StartError::Fen(e) => e,
    })?;
    let mut out = new_game(start.pos, start.mode);
    out.warnings.extend(start.warnings);
    let mut notes = Vec::new();
    for (k, tok) in game.moves.iter().enumerate() {
        let raw = &text[tok.span.clone()];
        let pos = out.current().clone();
        if is_null_move(raw) {
            let l = label(&pos, raw);
            let after = pass(&pos).map_err(|why| RulesError::IllegalMove {
                ply: k + 1,
                text: l.clone(),
                reason: format!(
                    "is a null move (a pass), which the Laws do not allow (1.2); {why}, so the rest of the game cannot be read"
                ),
                articles: vec!["1.2".into()],
                kind: None,
            })?;
            notes.append(&mut out.warnings);
            notes.push(format!(
                "ply {} ({l}) is a null move (a pass), which the Laws do not allow (1.2); the game was read on from the position after it, as a new start",
                k + 1
            ));
            out = new_game(after, start.mode);
            continue;
        }
        let m = resolve(&pos, raw, start.mode).map_err(|r| RulesError::IllegalMove {
            ply: k + 1,
            text: label(&pos, raw),
            reason: if r.kind == RejectionKind::Notation {
                format!("cannot be read: {}", r.reason)
            } else {
                r.reason
            },
            articles: r.articles,
            kind: Some(r.kind),
        })?;
        out.push(m);
    }
    notes.append(&mut out.warnings);
    out.warnings = notes;
    Ok(out)
}

fn new_game(pos: Chess, mode: CastlingMode) -> Game {
    let mut game = Game::new(None).expect("the initial position is valid");
    game.start = pos;
    game.mode = mode;
    game
}

/// The first game of a PGN text, replayed (see [`replay`]). No game at all is an error;
/// syntax problems and further games become warnings.
pub fn game_from_pgn(text: &str) -> Result<Game, RulesError> {
    let read = movetext::read(text);
    let Some(first) = read.games.first() else {
        return Err(RulesError::Pgn(
            "no game found: the text holds no tag pair, move or result".into(),
        ));
    };
    let mut game = replay(text, first)?;
    for p in read
        .problems
        .iter()
        .filter(|p| p.span.start <= first.span.end)
    {
        game.warnings.push(format!(
            "PGN line {}: {}",
            line_of(text, p.span.start),
            p.message
        ));
    }
    if read.games.len() > 1 {
        game.warnings.push(format!(
            "the PGN holds {} games; this is about the first (arbiter audit judges them all)",
            read.games.len()
        ));
    }
    Ok(game)
}

/// Every game of a PGN text (tokenized, not replayed).
pub fn read_games(text: &str) -> PgnText {
    movetext::read(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (usize, String, String) {
        match game_from_pgn(text) {
            Err(RulesError::IllegalMove {
                ply, text, reason, ..
            }) => (ply, text, reason),
            other => panic!("expected an illegal move, got {other:?}"),
        }
    }

    #[test]
    fn issue_17_unreadable_moves_are_errors_at_their_ply() {
        let (ply, text, reason) = error("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. i4 *");
        assert_eq!((ply, text.as_str()), (9, "5. i4"));
        assert!(reason.starts_with("cannot be read"), "{reason}");
        let (ply, text, _) = error("hello world");
        assert_eq!((ply, text.as_str()), (1, "1. hello"));
        let (ply, text, _) = error("1. e4 e5 2. Kxx9 Nf6 *");
        assert_eq!((ply, text.as_str()), (3, "2. Kxx9"));
        let (ply, text, _) = error("2. Kxx9 Nf6");
        assert_eq!((ply, text.as_str()), (1, "1. Kxx9"));
        for empty in ["", "  \n\n", "{just a comment}"] {
            assert!(
                matches!(game_from_pgn(empty), Err(RulesError::Pgn(_))),
                "{empty:?}"
            );
        }
        let e = game_from_pgn("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. i4 *").unwrap_err();
        assert_eq!(
            e.to_string(),
            "move 9 (5. i4) cannot be read: this is neither algebraic notation (like Nf3, exd5, O-O, e8=Q; see Appendix C) nor UCI (like g1f3)"
        );
    }

    #[test]
    fn null_moves_are_noted_and_the_game_goes_on() {
        let g = game_from_pgn("1. e4 -- 2. d4 Z0 3. c4 e5 *").unwrap();
        assert_eq!(g.plies.len(), 2, "{:?}", g.warnings);
        assert_eq!(g.warnings.len(), 2);
        assert!(
            g.warnings[1].contains("ply 4 (2...Z0) is a null move"),
            "{:?}",
            g.warnings
        );
        assert_eq!(
            g.current().board().to_string(),
            "rnbqkbnr/pppp1ppp/8/4p3/2PPP3/8/PP3PPP/RNBQKBNR"
        );
    }

    #[test]
    fn variants_fen_and_more_games() {
        let e = game_from_pgn("[Variant \"Crazyhouse\"]\n1. e4 e5 2. N@f3 *").unwrap_err();
        assert!(e.to_string().contains("not standard chess"), "{e}");
        let g = game_from_pgn(
            "[Variant \"Chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n1. Nb3 Nb6 2. d4 *\n\n1. e4 *",
        )
        .unwrap();
        assert_eq!(g.mode, CastlingMode::Chess960);
        assert_eq!(g.plies.len(), 3);
        assert!(
            g.warnings.iter().any(|w| w.contains("holds 2 games")),
            "{:?}",
            g.warnings
        );
    }
}
