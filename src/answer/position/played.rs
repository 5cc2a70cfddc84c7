//! Moves the question says were already played ("I played Qb6", "after he pushed d5", "he
//! just played exd5"): they are history, not moves to test. Each is matched against the game's
//! history; one the history does not hold yet is played, and the answer rules on the position
//! after it (and says so).

use std::sync::OnceLock;

use regex::Regex;
use shakmaty::Position;

use crate::answer::actors::{Actor, actor_word};
use crate::answer::claims::Side;
use crate::rules::Game;
use crate::rules::notation::resolve_move;

/// A move the question reports as played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    /// As written in the question.
    pub text: String,
    /// Who the question says played it ("I played", "he pushed", "White played").
    pub by: Option<Actor>,
    /// The colour that played it, once matched against the history or played.
    pub color: Option<Side>,
    /// Its index in the game's history (0 = the first move), once matched or played.
    pub ply: Option<usize>,
    /// It comes right after "played", "pushed"…, so even a bare square ("played d5") is a move
    /// (after "went to f1" it is only a square).
    pub direct: bool,
    /// The question asks about this move itself ("I just played exd6, is that legal?"): one
    /// the history lacks is the move tested, in the position before it, not one to play.
    pub questioned: bool,
}

/// What the question says was played, and what that did to the game.
#[derive(Debug, Clone, Default)]
pub struct Played {
    pub moves: Vec<PlayedMove>,
    /// Moves added to the history given (SAN, in order): the answer is about the position after
    /// them, and its claims hold there.
    pub added: Vec<String>,
    /// Sentences for the answer about what was added or could not be matched.
    pub notes: Vec<String>,
}

impl Played {
    /// Whether `text` is one of the moves reported as played.
    pub fn includes(&self, text: &str) -> bool {
        let t = bare(text);
        self.moves.iter().any(|m| bare(&m.text) == t)
    }
}

fn bare(text: &str) -> String {
    text.trim()
        .trim_end_matches(['+', '#', '!', '?'])
        .replace('-', "")
        .replace('0', "O")
}

fn move_token() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?x)^(
            [KQRBN][a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?[+\#]?
          | [a-h]x[a-h][1-8](?:=?[QRBN])?[+\#]?
          | [a-h][1-8]-?[a-h][1-8][qrbn]?
          | [a-h][18]=?[QRBN][+\#]?
          | [Oo0]-[Oo0](?:-[Oo0])?[+\#]?
          | [a-h][1-8][+\#]?
        )$",
        )
        .expect("valid regex")
    })
}

/// Words that say a move was made; an actor word just before names who made it.
const PLAYED_VERBS: &[&str] = &[
    "played",
    "moved",
    "pushed",
    "made",
    "went",
    "took",
    "captured",
    "after",
    "just",
    "answered",
    "replied",
    "responded",
    "advanced",
];
/// Played verbs whose object is a move, so that a bare square right after them is a pawn move.
const PLAYING: &[&str] = &[
    "played",
    "pushed",
    "advanced",
    "answered",
    "replied",
    "responded",
];
/// Words that end the stretch of text a played verb governs (a question begins).
const STOPS: &[&str] = &[
    "can", "cannot", "can't", "could", "couldn't", "may", "might", "is", "are", "am", "should",
    "must", "would", "will", "do", "does", "did", "legal", "allowed", "if", "when", "or", "play",
    "what", "who", "how", "but",
];
/// Words skipped when looking back from a verb for who made the move.
const SKIP_BACK: &[&str] = &[
    "just", "then", "also", "already", "had", "has", "have", "finally", "simply", "now", "and",
];

/// A word of the question with its byte offset.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let sep = c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"');
        match (sep, start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// The moves a question reports as played, as written, with who played them.
pub fn reported(question: &str) -> Vec<PlayedMove> {
    let ws = words(question);
    let mut out = Vec::new();
    let mut active: Option<Option<Actor>> = None;
    // The index of the last word that names playing a move ("played d5").
    let mut playing_verb_at: Option<usize> = None;
    for (i, &(at, raw)) in ws.iter().enumerate() {
        if raw.chars().all(|c| c.is_ascii_digit() || c == '.') {
            continue; // a move number, "12." or "12..."
        }
        let lower = raw.to_lowercase().replace(['’', '‘'], "'");
        let word = lower.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
        let token = raw
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
            .trim_end_matches(['.', '?', '!', ':', '\'']);
        if PLAYED_VERBS.contains(&word) {
            let by = ws[..i]
                .iter()
                .rev()
                .map(|(_, w)| w.to_lowercase())
                .find(|w| !SKIP_BACK.contains(&w.as_str()))
                .and_then(|w| actor_word(&w));
            // "he just played": the actor found at "just" carries over.
            active = Some(by.or_else(|| active.clone().flatten()));
            playing_verb_at = PLAYING.contains(&word).then_some(i);
        } else if active.is_some() && move_token().is_match(token) {
            out.push(PlayedMove {
                text: token.to_string(),
                by: active.clone().flatten(),
                color: None,
                ply: None,
                direct: playing_verb_at.is_some_and(|v| v + 1 == i),
                questioned: questioned_after(&question[at + raw.len()..]),
            });
        } else if STOPS.contains(&word) {
            active = None;
        }
        // "After Black played h5+, the capture gxh6…": a comma after a reported move ends the
        // clause the verb governs.
        let ends_a_move = active.is_some() && out.last().is_some_and(|m| raw.contains(&m.text));
        let comma_after = question[at + raw.len()..].starts_with(',');
        if raw.ends_with(['.', '?', '!']) || (comma_after && ends_a_move) {
            active = None;
        }
    }
    out
}

/// Asks whether the move just reported was allowed ("I just played exd6, is that legal?"):
/// the move is then the one tested, in the position before it, not history to rule after.
const QUESTIONED: &[&str] = &[
    "is that legal",
    "was that legal",
    "is it legal",
    "was it legal",
    "is this legal",
    "was this legal",
    "is that allowed",
    "was that allowed",
    "is it allowed",
    "was it allowed",
    "is that a legal",
    "was that a legal",
    "is that valid",
    "was that valid",
    "is that possible",
    "was that possible",
    "is that ok",
    "was that ok",
    "is that okay",
    "was that okay",
    "is that really en passant",
    "is that en passant",
    "was that en passant",
    "was that really",
    "is that really",
];

/// Whether the words right after a reported move ask about that move itself.
fn questioned_after(rest: &str) -> bool {
    let next: String = rest
        .trim_start_matches([',', '.', ' ', '!', '-', '–', '—', ';'])
        .chars()
        .take(40)
        .collect::<String>()
        .to_lowercase()
        .replace(['’', '‘'], "'");
    let next = next.strip_prefix("and ").unwrap_or(&next);
    QUESTIONED.iter().any(|q| next.starts_with(q))
}

/// Whether a token uses explicit move notation (a piece letter, a capture, castling, UCI),
/// rather than being a bare square that may mean something else ("my king went to f1").
fn explicit(text: &str) -> bool {
    text.len() > 3 || text.starts_with(['K', 'Q', 'R', 'B', 'N', 'O', 'o', '0'])
}

/// Reads the moves a question reports as played and brings `game` up to date: a move found
/// in the history stays there; one the history lacks but the position allows is played.
pub fn apply(question: &str, game: &mut Game) -> Played {
    let mut played = Played::default();
    for mut pm in reported(question) {
        // `resolve_move` reads every notation written here, long algebraic ("d7-d5") included.
        if let Some((ply, color)) = find_in_history(game, &pm.text) {
            pm.color = Some(color);
            pm.ply = Some(ply);
        } else if !pm.direct && !explicit(&pm.text) {
            // "his bishop went to c4": a square, not a pawn move to add.
            continue;
        } else {
            let pos = game.current().clone();
            match resolve_move(&pos, &pm.text, game.mode) {
                // "I just played exd6, is that legal?" with exd6 still to come: the move is
                // tested where it was chosen. (With a bare FEN of the position after it, it
                // cannot be played again and is taken as played, below.)
                Ok(_) if pm.questioned => continue,
                Ok(m) => {
                    pm.color = Some(Side::of(pos.turn()));
                    pm.ply = Some(game.plies.len());
                    let san = game.push(m).san.clone();
                    played.notes.push(format!(
                        "This is about the position after {san}, which the moves given did not include yet."
                    ));
                    played.added.push(san);
                }
                Err(_) if explicit(&pm.text) && !game.plies.is_empty() => {
                    played.notes.push(format!(
                        "{} is not among the moves given and cannot be played in this position, so the position is taken as given.",
                        pm.text
                    ))
                }
                // With a bare FEN the position is taken to be the one after the move: a move
                // right after "played" is still one the question reports, not one it asks about.
                Err(_) if pm.direct => {}
                Err(_) => continue,
            }
        }
        played.moves.push(pm);
    }
    named_from_the_history(question, game, &mut played);
    played
}

/// Whether the question writes out the game from its first move ("After 1. e4 e5 2. Nf3 …"):
/// its moves then say where the game stands, not which move is asked about.
pub fn quotes_the_game(question: &str) -> bool {
    static FIRST_MOVE: OnceLock<Regex> = OnceLock::new();
    FIRST_MOVE
        .get_or_init(|| Regex::new(r"\b1\.\s*[a-hKQRBNO]").expect("valid regex"))
        .is_match(question)
}

/// Moves the question names without a verb of playing ("my last move was Qxf7+, is that
/// mate?", "was my 11...exd3 legal?") that the history holds and the side to move could not
/// play now: they are history too, not moves to test.
fn named_from_the_history(question: &str, game: &Game, played: &mut Played) {
    if game.plies.is_empty() || quotes_the_game(question) {
        return;
    }
    let mut named = Vec::new();
    for (_, raw) in words(question) {
        let token = raw
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
            .trim_end_matches(['.', '?', '!', ':', '\'', ',']);
        if !move_token().is_match(token) || !explicit(token) || played.includes(token) {
            continue;
        }
        let playable_now = resolve_move(game.current(), token, game.mode).is_ok();
        if let (false, Some((ply, color))) = (playable_now, find_in_history(game, token)) {
            named.push(PlayedMove {
                text: token.to_string(),
                by: None,
                color: Some(color),
                ply: Some(ply),
                direct: false,
                // Named without a verb, it is the move asked about.
                questioned: true,
            });
        }
    }
    // A stretch of the game quoted from a later move ("after 12. Nf3 Nc6 13. Bb5 …") names many
    // moves of the history too, and like a game quoted from move 1 asks about none of them.
    if named.len() <= 2 {
        played.moves.extend(named);
    }
}

/// A piece move written without a played verb ("Qg7+ and I think that's mate. Is it?") under a
/// bare position in which the side to move cannot make it but the other side's piece of that
/// kind already stands on its square: the position given is the one after it, so it is history,
/// not a move to test.
pub fn already_on_the_board(game: &Game, text: &str) -> bool {
    let Ok(shakmaty::san::SanPlus {
        san: shakmaty::san::San::Normal { role, to, .. },
        ..
    }) = text.trim().parse::<shakmaty::san::SanPlus>()
    else {
        return false;
    };
    let pos = game.current();
    game.plies.is_empty()
        && role != shakmaty::Role::Pawn
        && resolve_move(pos, text, game.mode).is_err()
        && pos.board().piece_at(to)
            == Some(shakmaty::Piece {
                color: pos.turn().other(),
                role,
            })
}

/// Where `text` was played in the history, and by whom, searching from the last move back.
fn find_in_history(game: &Game, text: &str) -> Option<(usize, Side)> {
    let before: Vec<&shakmaty::Chess> = game.positions().collect();
    game.plies.iter().enumerate().rev().find_map(|(i, ply)| {
        let pos = before[i];
        resolve_move(pos, text, game.mode)
            .ok()
            .filter(|m| *m == ply.m)
            .map(|_| (i, Side::of(ply.color)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_moves_and_who_played_them() {
        let r = reported("I played Qb6 and his king can't move. Do I win?");
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].text.as_str(), &r[0].by), ("Qb6", &Some(Actor::Asker)));
        let r = reported("He just played d7-d5. Can I take en passant?");
        assert_eq!(
            (r[0].text.as_str(), &r[0].by),
            ("d7-d5", &Some(Actor::Opponent))
        );
        assert!(reported("Is Qb6 legal?").is_empty());
        assert!(reported("If I play Qb6, is it mate?").is_empty());
        let r = reported("After 12...d5, can I take e.p.?");
        assert_eq!(r[0].text, "d5");
        assert!(reported("Black played d5 just now.")[0].direct);
        assert!(!reported("His bishop went to c4. Can I castle?")[0].direct);
        let r = reported("I played Kf1 and then Ke1. Can I castle?");
        assert_eq!(r.len(), 2);
        // A reported move the question asks about is the move tested, not history.
        assert!(reported("I just played exd6, is that legal en passant?")[0].questioned);
        assert!(reported("He played Nxe5. Was that allowed?")[0].questioned);
        assert!(!reported("He played Qh5. Is it check?")[0].questioned);
    }

    #[test]
    fn a_piece_move_already_made_on_a_bare_board_is_history() {
        let g = Game::new(Some("6k1/5pQp/6p1/8/8/8/5PPP/6K1 b - - 0 27")).unwrap();
        assert!(already_on_the_board(&g, "Qg7+"));
        assert!(!already_on_the_board(&g, "Kxg7"));
        // The rook still has to go to a8: a slip in the side to move, not a move made.
        let g = Game::new(Some("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")).unwrap();
        assert!(!already_on_the_board(&g, "Ra8"));
    }

    #[test]
    fn a_move_in_the_history_stays_one_missing_is_played() {
        let mut g = Game::from_moves(Some("k7/8/8/1Q6/8/8/8/6K1 w - - 0 1"), &["Qb6"]).unwrap();
        let p = apply("I played Qb6 and his king can't move. Do I win?", &mut g);
        assert_eq!((g.plies.len(), p.added.len()), (1, 0));
        assert_eq!(p.moves[0].color, Some(Side::White));
        let mut g = Game::new(Some("k7/8/8/1Q6/8/8/8/6K1 w - - 0 1")).unwrap();
        let p = apply("I played Qb6. Is it checkmate?", &mut g);
        assert_eq!(
            (g.plies.len(), p.added.as_slice()),
            (1, &["Qb6".to_string()][..])
        );
        let mut g = Game::from_moves(None, &["e4", "e5"]).unwrap();
        let p = apply("Can I castle after his bishop went to c4?", &mut g);
        assert_eq!((g.plies.len(), p.moves.len()), (2, 0));
        let mut g = Game::from_moves(None, &["e4"]).unwrap();
        let p = apply("He played Qh5. Is it check?", &mut g);
        assert_eq!((g.plies.len(), p.notes.len()), (1, 1));
        // Asked about and not in the history: tested where it was played, so not added.
        let mut g = Game::from_moves(None, &["e4", "Nf6", "e5", "d5"]).unwrap();
        let p = apply("I just played exd6, is that legal en passant?", &mut g);
        assert_eq!((g.plies.len(), p.moves.len()), (4, 0));
        // A FEN of the position after the move: it cannot be played again, so it was played.
        let mut g = Game::new(Some("k7/8/1Q6/8/8/8/8/6K1 b - - 1 1")).unwrap();
        let p = apply("I played Qb6, is that legal?", &mut g);
        assert_eq!((g.plies.len(), p.moves.len()), (0, 1));
    }
}
