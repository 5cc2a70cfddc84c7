//! Request bodies shared by the CLI, the HTTP API and the language server.

use std::sync::LazyLock;

use regex::Regex;
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

/// Splits "1. e4 e5 2. Nf3" into moves, dropping move numbers and results. A move number is
/// digits followed by dots ("12.", "4...Nf6"): castling written with zeros ("0-0", "0-0-0")
/// is a move, not a number.
pub fn split_moves(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter_map(|tok| {
            let tok = match tok.find(|c: char| !c.is_ascii_digit()) {
                Some(i) if tok[i..].starts_with('.') => tok[i..].trim_start_matches('.'),
                // Digits alone: a move number written without its dot.
                None => "",
                _ => tok,
            };
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

/// A FEN as players paste it into a question: the board, then as many of the other fields as
/// they copied (a board alone is read with White to move).
static FEN_IN_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?:^|[^A-Za-z0-9])",
        r"([pnbrqkPNBRQK1-8]{1,8}(?:/[pnbrqkPNBRQK1-8]{1,8}){7})",
        r"(?:[\s_]+([wb])",
        r"(?:[\s_]+(-|[KQkqA-Ha-h]{1,4})",
        r"(?:[\s_]+(-|[a-h][36])",
        r"(?:[\s_]+(\d{1,3})[\s_]+(\d{1,4}))?)?)?)?",
        r"(?:[^A-Za-z0-9/]|$)",
    ))
    .expect("FEN pattern")
});

/// A position written into the question's text: a FEN ("In this position: 8/8/3rk3/8/8/2K5/8/8
/// w - - 0 1 how can White mate?"), its missing fields filled in (White to move, no castling,
/// no en passant, clocks 0 and 1), with the moves written right after it; or, without a FEN, a
/// game's moves from the start ("1. e4 c5 2. d4 cxd4 … 13. Bxe5 O-O-O"). `None` when there is
/// neither, or when moves written after the FEN do not replay (the question is then answered
/// as prose); a FEN without moves is kept even when it is no position, for the answer to say
/// what is wrong with it. A move list alone is not replayed here: its last move may be the
/// one in dispute, which [`super::Arbiter::ask`] deals with.
pub fn position_in_question(question: &str) -> Option<InlinePosition> {
    let question = &crate::rules::notation::letters_for_figurines(question);
    match FEN_IN_TEXT.captures(question) {
        Some(found) => fen_and_moves(question, &found),
        // A Chess960 game's moves start from its own position, which a move list does not give
        // (the question's settings are read only once it has a move list).
        None => game_moves(question).filter(|_| !about_chess960(question)),
    }
}

/// Whether the question is about a Chess960 game, by the settings the frame reads.
fn about_chess960(question: &str) -> bool {
    use super::frame::{lowered, settings_in};
    settings_in(&lowered(question)).contains(&crate::rulebook::Setting::Chess960)
}

/// [`position_in_question`] for a FEN found in the text.
fn fen_and_moves(question: &str, found: &regex::Captures) -> Option<InlinePosition> {
    let field = |i: usize, default: &'static str| found.get(i).map_or(default, |m| m.as_str());
    let fen = format!(
        "{} {} {} {} {} {}",
        field(1, ""),
        field(2, "w"),
        field(3, "-"),
        field(4, "-"),
        field(5, "0"),
        field(6, "1"),
    );
    let start = found.get(1)?.start();
    let mut end = (1..=6)
        .filter_map(|i| found.get(i))
        .map(|m| m.end())
        .max()?;
    let (mut moves, moves_end) = moves_after(&question[end..]);
    end += moves_end;
    if moves.is_empty()
        && let Some(narrated) = narrated_move(&question[end..], &fen, found.get(2).is_none())
    {
        return Some(InlinePosition {
            fen: Some(narrated.fen),
            moves: vec![narrated.san],
            question: without(question, start, end + narrated.end),
        });
    }
    if moves.is_empty()
        && let Some(apart) = moves_apart(question, start..end, &fen)
    {
        return Some(apart);
    }
    // Without moves the FEN is kept even when it is no position, so that the answer can say
    // what is wrong with it; but a board field without a king ("1/2/3/4/5/6/7/8") is no attempt
    // at a position (and could never load).
    if moves.is_empty() {
        if !field(1, "").contains(['k', 'K']) {
            return None;
        }
    } else {
        moves.truncate(replayable_through(&fen, &moves)?);
    }
    Some(InlinePosition {
        fen: Some(fen),
        moves,
        question: without(question, start, end),
    })
}

/// A move told right after a FEN, without a move number ("…/4b3 - White plays Qg8+ and then
/// Black's flag falls").
struct NarratedMove {
    /// The FEN it is played from: a FEN that gives no side to move takes the side the story
    /// names.
    fen: String,
    san: String,
    /// Where the move ends in the text read.
    end: usize,
}

/// The move `text` tells first, played from `fen`; `None` when no move is told there or it
/// cannot be played.
fn narrated_move(text: &str, fen: &str, side_unstated: bool) -> Option<NarratedMove> {
    static TOLD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(
            r"^[\s\-–—:,;]*(?i:(white|black))\s+(?i:plays|played|moves|moved|replies|replied|answers|answered|continues|continued)(?:\s+with)?\s+({MOVE})"
        ))
        .expect("narrated move pattern")
    });
    let told = TOLD.captures(text)?;
    let side = if told[1].eq_ignore_ascii_case("white") {
        "w"
    } else {
        "b"
    };
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if side_unstated {
        fields[1] = side;
    }
    let fen = fields.join(" ");
    let san = told[2].trim_end_matches(['?', '!']).to_string();
    (replayable_through(&fen, std::slice::from_ref(&san))? == 1).then(|| NarratedMove {
        fen,
        san,
        end: told.get(2).expect("the move").end(),
    })
}

/// Moves written apart from the FEN, after some prose ("… FEN: 4r1k1/… b - - After Black moves
/// 1..h5+, the en passant capture 2.gxh6 is not recognized") or before it: the first move list
/// after the FEN, else the first before it, from a move number, when all of it replays from
/// `fen` — the FEN is then taken out of the question, the moves left in it (it may ask about
/// one of them). `None` when there is no such list or it does not replay: the FEN is
/// then read alone.
fn moves_apart(
    question: &str,
    fen_at: std::ops::Range<usize>,
    fen: &str,
) -> Option<InlinePosition> {
    static MOVE_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^0-9A-Za-z.])\d{1,3}\.+\s*[a-hNBRQKO0]").expect("pattern")
    });
    let (fen_start, fen_end) = (fen_at.start, fen_at.end);
    // The first list after the FEN, else the first one before it ("After 1..h5+, is 2.gxh6
    // legal? FEN …").
    let replaying = |from: usize, to: usize| {
        let start = from + list_start(&question[from..to], &MOVE_NUMBER)?;
        let (moves, _) = moves_after(&question[start..to]);
        (!moves.is_empty() && replayable_through(fen, &moves)? == moves.len()).then_some(moves)
    };
    let moves = replaying(fen_end, question.len()).or_else(|| replaying(0, fen_start))?;
    Some(InlinePosition {
        fen: Some(fen.to_string()),
        moves,
        question: without(question, fen_start, fen_end),
    })
}

/// How many of `moves` to keep: all of them when they replay from `fen`; up to and including
/// the first one that breaks a rule of play when more moves follow it ("1. Re5+ Qc5+?
/// {illegal} 2. Rxc5#": the question is about that move, which is then the disputed one, not
/// about the moves after it). `None` when a move cannot be read in the position at all, or
/// the last one fails: the FEN was probably misread, and no position is better than the wrong
/// one.
fn replayable_through(fen: &str, moves: &[String]) -> Option<usize> {
    match Game::from_moves(Some(fen), moves) {
        Ok(_) => Some(moves.len()),
        Err(RulesError::IllegalMove {
            ply,
            kind: Some(kind),
            ..
        }) if kind.breaks_a_rule_of_play() && ply < moves.len() => Some(ply),
        Err(_) => None,
    }
}

/// Where a game written from move 1 starts ("1. e4", "1.Nf3").
static FIRST_MOVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[^0-9A-Za-z.])1\.\s*[a-hNBRQKO]").expect("pattern"));

/// Two games written from move 1 in one question ("Is 1.d4 d5 2.Nf3 the same position as
/// 1.Nf3 d5 2.d4?"): each one's moves, as written. `None` unless there are two such lists.
pub fn two_games(question: &str) -> Option<(Vec<String>, Vec<String>)> {
    let question = crate::rules::notation::letters_for_figurines(question);
    let start = list_start(&question, &FIRST_MOVE)?;
    let (first, length) = moves_after(&question[start..]);
    let after = start + length;
    let second_start = after + list_start(&question[after..], &FIRST_MOVE)?;
    let (second, _) = moves_after(&question[second_start..]);
    (!first.is_empty() && !second.is_empty()).then_some((first, second))
}

/// [`position_in_question`] for a game's moves from the start, written from move 1 (or
/// without numbers right after "after").
fn game_moves(question: &str) -> Option<InlinePosition> {
    let Some(start) = list_start(question, &FIRST_MOVE) else {
        return unnumbered_after(question);
    };
    let (mut moves, length) = moves_after(&question[start..]);
    // One move is a reference to a move ("1. e4 is the best"), not a game, unless the
    // question asks about the position after it ("is en passant possible after 1. d4?").
    if moves.len() < 2 && !(moves.len() == 1 && follows_after(&question[..start])) {
        return None;
    }
    let mut rest = without(question, start, start + length);
    if let Some(last) = last_move_in_dispute(&question[start + length..], &rest, &mut moves) {
        rest = format!("{rest} {last}");
    }
    Some(InlinePosition {
        fen: None,
        moves,
        question: rest,
    })
}

/// A long algebraic move written with spaces ("e2 - e4"), to be closed up.
static LONG_SPACED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([a-h][1-8]) ?([-x:]) ?([a-h][1-8])").expect("long algebraic pattern")
});

/// A move as written in a question, with its check sign and any annotation glyphs ("Qc5+?!");
/// long algebraic first, spaces allowed around its sign ("e2 - e4", "d4 x c5").
const MOVE: &str = r"(?:O-O(?:-O)?|0-0(?:-0)?|o-o(?:-o)?|[KQRBN]?[a-h][1-8] ?[-x:] ?[a-h][1-8](?:=?[QRBN])?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[QRBN])?)[+#]?[?!]{0,2}";

/// Moves written without move numbers right after "after" ("after e4 e5 Nf3 Nc6 Bc4, can
/// Black castle?"), at least two of them: a game from the start. One move alone is not
/// enough here ("after Kf1 he castled" tells a story, it does not give the game).
fn unnumbered_after(question: &str) -> Option<InlinePosition> {
    static AFTER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(
            r"(?-u:\b)[Aa]fter\s+({MOVE}(?:,?\s+{MOVE})+)(?:[\s,.?!]|$)"
        ))
        .expect("unnumbered moves pattern")
    });
    // Most questions have no "after": the pattern is not run on them.
    if !(question.contains("after") || question.contains("After")) {
        return None;
    }
    let list = AFTER.captures(question)?.get(1)?;
    Some(InlinePosition {
        fen: None,
        moves: listed_moves(list.as_str()),
        question: without(question, list.start(), list.end()),
    })
}

/// Whether the text before a move list ends with "after" (or "following"): the question is
/// about the position the moves lead to.
fn follows_after(before: &str) -> bool {
    let last = before
        .trim_end_matches(|c: char| c.is_whitespace() || "(\"'`[".contains(c))
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    last.eq_ignore_ascii_case("after") || last.eq_ignore_ascii_case("following")
}

/// The last move of a game that ends the question, when the question disputes a move of its
/// kind ("Wrong castling move: 1. e4 c5 … 13. Bxe5 O-O-O"): it is taken off the moves, to be
/// judged in the position before it, rather than played and the question answered about the
/// position after it.
fn last_move_in_dispute(after: &str, prose: &str, moves: &mut Vec<String>) -> Option<String> {
    const DISPUTED: &[&str] = &[
        "wrong",
        "illegal",
        "bug",
        "should not",
        "shouldn't",
        "should be",
        "legal",
        "allowed",
        "incorrect",
        "valid",
        "not possible",
    ];
    let ends_the_question = after
        .chars()
        .all(|c| c.is_whitespace() || "`'\")].?!".contains(c));
    let lower = prose.to_lowercase();
    let last = moves.last()?;
    let castles = last.trim_start_matches(['O', '0', '-']).is_empty() || last.starts_with("O-O");
    let of_its_kind =
        (castles && lower.contains("castl")) || (last.contains('=') && lower.contains("promot"));
    let disputed = DISPUTED.iter().any(|w| lower.contains(w));
    (ends_the_question && of_its_kind && disputed).then(|| moves.pop())?
}

/// Where the first move list `number` finds in `text` starts: at its move number's first digit
/// (the pattern also takes in the character before it).
fn list_start(text: &str, number: &Regex) -> Option<usize> {
    let at = number.find(text)?.start();
    Some(at + text[at..].find(|c: char| c.is_ascii_digit())?)
}

/// The question with `start..end` taken out, its spaces tidied.
fn without(question: &str, start: usize, end: usize) -> String {
    let rest = format!("{} {}", &question[..start], &question[end..]);
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A position found in a question's text, and the question without it.
#[derive(Debug, Clone, PartialEq)]
pub struct InlinePosition {
    /// `None`: the moves are from the standard starting position.
    pub fen: Option<String>,
    /// Moves written right after the FEN ("… w - - 0 1 1. Ka6 Rd8 2. Ka7"), or the game's
    /// moves, in order.
    pub moves: Vec<String>,
    pub question: String,
}

/// A move list at the start of `text` ("1. Ka6 Rd8 2. Ka7 Ra8+"), as moves, and where it ends.
/// It must open with a move number, so that prose after a FEN is never read as moves.
fn moves_after(text: &str) -> (Vec<String>, usize) {
    static MOVE_LIST: LazyLock<Regex> = LazyLock::new(|| {
        let number = r"\d{1,3}\.+";
        let san = MOVE;
        // A short comment in braces between moves ("{illegal}").
        let comment = r"(?:\s*\{[^{}]{0,80}\})?";
        Regex::new(&format!(
            r#"^[\s"'`\])]*(?:(?:followed by|and then|then|moves?:?|with)[\s"'`(\[]*)?{number}\s*{san}{comment}(?:,?\s+(?:{number}\s*)?{san}{comment})*"#
        ))
        .expect("move list pattern")
    });
    match MOVE_LIST.find(text) {
        Some(m) => {
            let list = text[..m.end()].trim_start_matches(|c: char| !c.is_ascii_digit());
            (listed_moves(list), m.end())
        }
        None => (Vec::new(), 0),
    }
}

/// The moves of a list as the numbered or the unnumbered pattern finds it: comments, commas
/// and move numbers dropped, spaced long algebraic closed up ("e2 - e4" is "e2-e4"),
/// annotation glyphs taken off.
fn listed_moves(list: &str) -> Vec<String> {
    static COMMENT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\{[^{}]*\}").expect("comment pattern"));
    let list = COMMENT
        .replace_all(list, " ")
        .replace('.', ". ")
        .replace(',', " ");
    let list = LONG_SPACED.replace_all(&list, "$1$2$3");
    split_moves(&list)
        .into_iter()
        .map(|m| m.trim_end_matches(['?', '!']).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{InlinePosition, position_in_question};

    fn fen_in_question(text: &str) -> Option<(String, String)> {
        position_in_question(text).and_then(|p| Some((p.fen?, p.question)))
    }

    #[test]
    fn a_fen_in_the_text_is_read_and_taken_out() {
        let (fen, rest) = fen_in_question(
            "And in this position: 8/8/3rk3/8/8/2K5/8/8 w - - 0 1 how can the white king mate?",
        )
        .unwrap();
        assert_eq!(fen, "8/8/3rk3/8/8/2K5/8/8 w - - 0 1");
        assert_eq!(rest, "And in this position: how can the white king mate?");
    }

    #[test]
    fn missing_fields_are_filled_in() {
        let (fen, _) =
            fen_in_question("[d]5rkr/8/8/8/8/8/8/RKR5 w - - is queenside castling allowed?")
                .unwrap();
        assert_eq!(fen, "5rkr/8/8/8/8/8/8/RKR5 w - - 0 1");
        let (fen, rest) = fen_in_question("Is 8/8/8/4k3/4p3/4N3/4K3/8 a draw?").unwrap();
        assert_eq!(fen, "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1");
        assert_eq!(rest, "Is a draw?");
    }

    #[test]
    fn a_lichess_link_is_a_position() {
        let (fen, rest) = fen_in_question(
            "Dead? (https://lichess.org/analysis/standard/3k4/8/8/p2p2p1/P2P2P1/8/3p4/3K4_w_-_-)",
        )
        .unwrap();
        assert_eq!(fen, "3k4/8/8/p2p2p1/P2P2P1/8/3p4/3K4 w - - 0 1");
        assert_eq!(rest, "Dead? (https://lichess.org/analysis/standard/ )");
    }

    #[test]
    fn a_chess960_game_is_not_replayed_from_the_standard_start() {
        assert!(position_in_question("Chess960: after 1.g3 e6 2.Bg2 can White castle?").is_none());
        assert!(position_in_question("After 1.g3 e6 2.Bg2 can White castle?").is_some());
    }

    #[test]
    fn moves_after_a_connecting_word_are_played() {
        let found = position_in_question(
            "FEN `6k1/pp3ppp/4bq2/2p5/2n1P3/1PP2P2/P3rQ1P/2K2B1R w - - 0 27` followed by `1. Bxe2`. Why?",
        )
        .expect("a position");
        assert_eq!(found.moves, ["Bxe2"]);
    }

    #[test]
    fn a_move_told_after_the_fen_is_played_by_the_side_named() {
        let found = position_in_question(
            "Example: 1k6/ppp5/8/KP6/P7/8/Q2r4/4b3 - White plays Qg8+ and then Black's flag falls.",
        )
        .expect("a position");
        assert_eq!(found.moves, ["Qg8+"]);
        assert_eq!(
            found.fen.as_deref(),
            Some("1k6/ppp5/8/KP6/P7/8/Q2r4/4b3 w - - 0 1")
        );
        assert_eq!(found.question, "Example: and then Black's flag falls.");
        // No side to move in the FEN: the story's side plays.
        let black = position_in_question("4k3/8/8/8/8/8/4P3/4K3 Black plays Kd7. Is it a draw?")
            .expect("a position");
        assert_eq!(
            black.fen.as_deref(),
            Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")
        );
        // A move that cannot be played there is not taken: the FEN stands alone.
        let alone = position_in_question("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 White plays Qd8.")
            .expect("a position");
        assert!(alone.moves.is_empty());
    }

    #[test]
    fn one_move_is_a_game_only_after_after() {
        let found = position_in_question("Is en passant possible after 1. d4?").expect("a game");
        assert_eq!(found.moves, ["d4"]);
        assert_eq!(found.question, "Is en passant possible after");
        assert!(position_in_question("Is 1. e4 the best first move?").is_none());
        assert!(position_in_question("After 1.e4, can Black castle at once?").is_some());
    }

    #[test]
    fn castling_with_zeros_and_spaced_long_algebraic_are_moves() {
        assert_eq!(
            super::split_moves("1.e4 e5 2. Nf3 Nc6 3.Bc4 Bc5 4. 0-0 0-0-0 4...Nf6 12 d4 1-0"),
            [
                "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0", "0-0-0", "Nf6", "d4"
            ]
        );
        let found = position_in_question(
            "King castles into check: 1. e2 - e4 e7 - e5 2. Bf1 - c4 f7 - f5 3. Ng1 - f3 Bf8 - b4 4. 0-0 Ng8 - e7 5. d4 x e5 0-0 — legal?",
        )
        .expect("a game");
        assert_eq!(
            found.moves,
            [
                "e2-e4", "e7-e5", "Bf1-c4", "f7-f5", "Ng1-f3", "Bf8-b4", "0-0", "Ng8-e7", "d4xe5",
                "0-0"
            ]
        );
    }

    #[test]
    fn figurines_and_commas_between_moves_are_read() {
        let found =
            position_in_question("After 1.e4 e5 2.♘f3 ♞c6 3.♙d4 d6 4.o-o, can Black castle?")
                .expect("a game");
        assert_eq!(found.moves, ["e4", "e5", "Nf3", "Nc6", "d4", "d6", "o-o"]);
        let found =
            position_in_question("After 1. e4, e5 2. Nf3, Nc6 3. Bc4, Bc5 can White castle?")
                .expect("a game");
        assert_eq!(found.moves, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
    }

    #[test]
    fn two_games_from_move_one_are_both_read() {
        let (a, b) = super::two_games("Is 1.d4 d5 2.Nf3 the same position as 1.Nf3 d5 2.d4?")
            .expect("two games");
        assert_eq!(a, ["d4", "d5", "Nf3"]);
        assert_eq!(b, ["Nf3", "d5", "d4"]);
        assert!(super::two_games("After 1.e4 e5 2.Nf3 can Black castle?").is_none());
    }

    #[test]
    fn unnumbered_moves_after_after_are_a_game() {
        let found =
            position_in_question("After e4 e5 Nf3 Nc6 Bc4, can Black castle?").expect("a game");
        assert_eq!(found.moves, ["e4", "e5", "Nf3", "Nc6", "Bc4"]);
        assert_eq!(found.question, "After , can Black castle?");
        // One move is a story, not a game.
        assert!(position_in_question("After Kf1 my opponent castled. Was that legal?").is_none());
        assert!(position_in_question("after the game we shook hands").is_none());
    }

    #[test]
    fn moves_after_the_fen_are_played() {
        let found = position_in_question(
            "A draw? [FEN \"8/2kr4/8/K7/8/8/8/8 w - - 0 1\"] 1. Ka6 Rd8 2. Ka7 Ra8+ and White flags",
        );
        let expected = InlinePosition {
            fen: Some("8/2kr4/8/K7/8/8/8/8 w - - 0 1".into()),
            moves: vec!["Ka6".into(), "Rd8".into(), "Ka7".into(), "Ra8+".into()],
            question: "A draw? [FEN \" and White flags".into(),
        };
        assert_eq!(found, Some(expected));
        // Moves that cannot be played from the FEN: no position at all.
        assert!(position_in_question("8/2kr4/8/K7/8/8/8/8 w - - 0 1 1. Kh8").is_none());
    }

    #[test]
    fn moves_written_after_some_prose_are_played_from_the_fen() {
        let found = position_in_question(
            "For example in the position given by the following FEN: 4r1k1/7p/p3pQp1/3p2P1/1p1P1RK1/2P5/7q/8 b - - After Black moves 1..h5+, the en passant capture 2.gxh6 is not recognized.",
        )
        .expect("a position");
        assert_eq!(found.moves, ["h5+"]);
        assert_eq!(
            found.question,
            "For example in the position given by the following FEN: After Black moves 1..h5+, the en passant capture 2.gxh6 is not recognized."
        );
        let found = position_in_question(
            "fen should be 4k2r/8/8/6R1/6r1/2K5/8/8 b k - 0 1 (…) 1... Rg2 2. Rg8+ Rgxg8 3. Kd3 Rg5 4. Ke3",
        )
        .expect("a position");
        assert_eq!(found.moves.len(), 6);
        // Moves written before the FEN.
        let found = position_in_question(
            "After Black moves 1..h5+, is the en passant capture 2.gxh6 legal? FEN 4r1k1/7p/p3pQp1/3p2P1/1p1P1RK1/2P5/7q/8 b - - 0 1",
        )
        .expect("a position");
        assert_eq!(found.moves, ["h5+"]);
        // A list that does not replay from the FEN leaves the FEN alone.
        let found = position_in_question("8/2kr4/8/K7/8/8/8/8 w - - 0 1 and later 1. Kh8 Rd8")
            .expect("the FEN");
        assert!(found.moves.is_empty());
    }

    #[test]
    fn annotated_moves_stop_at_the_first_illegal_one() {
        let found = position_in_question(
            "In rapid: [fen \"5K2/8/1q6/1N1k4/8/8/8/2R1R3 w - - 1 1\"] 1. Re5+? Qc5+?! {illegal} 2. Rxc5# Who wins?",
        )
        .unwrap();
        // 1...Qc5+ leaves Black's king in check: the question is about it, not 2.Rxc5#.
        assert_eq!(found.moves, ["Re5+", "Qc5+"]);
        assert_eq!(found.question, "In rapid: [fen \" Who wins?");
        let found = position_in_question(
            "A draw? [FEN \"8/2kr4/8/K7/8/8/8/8 w - - 0 1\"] 1. Ka6! Rd8?! 2. Ka7 {forced} Ra8+",
        )
        .unwrap();
        assert_eq!(found.moves, ["Ka6", "Rd8", "Ka7", "Ra8+"]);
    }

    #[test]
    fn a_game_from_move_one_is_a_position() {
        let found = position_in_question(
            "Wrong castling move: 1. e4 c5 2.d4 cxd4 3. Qxd4 Nc6 4...Qb6 and here?",
        )
        .unwrap();
        assert_eq!(found.fen, None);
        assert_eq!(
            found.moves,
            ["e4", "c5", "d4", "cxd4", "Qxd4", "Nc6", "Qb6"]
        );
        assert_eq!(found.question, "Wrong castling move: and here?");
        // A disputed castling that ends the question is the move asked about.
        let found = position_in_question(
            "Wrong castling move: 1. e4 c5 2.d4 cxd4 3. Nf3 Nc6 4. Bc4 e6 5. O-O",
        )
        .unwrap();
        assert_eq!(found.moves.len(), 8);
        assert_eq!(found.question, "Wrong castling move: O-O");
        assert!(position_in_question("Is 1. e4 the best first move?").is_none());
        assert!(position_in_question("Rule 1.4 says so").is_none());
    }

    #[test]
    fn a_board_without_pieces_is_no_fen() {
        assert!(fen_in_question("Can I castle out of check?").is_none());
        // Two white kings: not a position, but meant as one, so it is kept for the answer to
        // say what is wrong with it.
        assert!(fen_in_question("what about K7/8/8/8/8/8/8/K6k w - - 0 1").is_some());
        // No piece letter: not meant as a position.
        assert!(fen_in_question("a date 1/2/3/4/5/6/7/8 is not a board").is_none());
    }
}
