//! How a move is written in a position ("it registers as Nd2, it should be Nbd2", "Rxd8+
//! should have a plus", "is b8Q old style?"): the checker reads each move the question writes
//! and says whether it names exactly one legal move here, which one, and how it is written
//! (Appendix C): the departure file or rank when two like pieces can reach the square (C.10),
//! the new piece's letter after a promotion (C.11), the optional signs (C.13).

use std::sync::LazyLock;

use regex::Regex;
use shakmaty::san::{San, SanError};
use shakmaty::{Chess, Move, Position, Role, Square};

use super::{PositionAsk, PositionRuling, Ruled};
use crate::answer::claims::ClaimSubject;
use crate::rules::describe::{join_and, join_or};
use crate::rules::notation::{normalise_san, resolve_move, san_plus};

pub struct Notation;

/// Words that put the way a move is written in question.
const NOTATION_WORDS: &[&str] = &[
    "notation",
    " san ",
    " san,",
    " san.",
    "pgn",
    "register",
    "recorded as",
    "written",
    "write ",
    "writes",
    "writing",
    "notate",
    "symbol",
    "suffix",
    "disambig",
    "ambigu",
    "algebraic",
    "generated as",
    "printed",
    "displayed",
    "shown as",
    "shows as",
    "should be \"",
    "should be '",
    "should be **",
];

/// Moves as people write them with a piece letter, a capture, a promotion or castling (a bare
/// pawn move such as "e4" is left out: it is also how a square is named).
static WRITTEN_MOVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h]x[a-h][1-8](?:=?[QRBN])?|[a-h][18]=?[QRBN]|O-O(?:-O)?|0-0(?:-0)?)[+#]*$",
    )
    .expect("a valid pattern")
});

/// The moves the question writes, in order, each once (at most four).
fn written_moves(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in question.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '/')) {
        let token = word.trim_matches(|c: char| {
            !(c.is_ascii_alphanumeric() || matches!(c, '+' | '#' | '=' | '-'))
        });
        let token = token.trim_end_matches('-');
        if WRITTEN_MOVE.is_match(token) && !out.iter().any(|t| t == token) {
            out.push(token.to_string());
        }
        if out.len() == 4 {
            break;
        }
    }
    out
}

impl PositionRuling for Notation {
    fn topic(&self) -> &'static str {
        "notation"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.played.added.is_empty()
            && ask.mentions(NOTATION_WORDS)
            && !written_moves(ask.question).is_empty()
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let pos = ask.game.current();
        let mut ruled = Ruled::default();
        let mut sentences: Vec<String> = Vec::new();
        for written in written_moves(ask.question) {
            // A form already named as one of an ambiguous move's candidates needs no sentence.
            let stated = ruled.claims.iter().any(|c| {
                matches!(&c.subject, ClaimSubject::LegalMove { mv } if *mv == written)
                    && c.value == serde_json::Value::Bool(true)
            });
            if stated {
                continue;
            }
            let (sentence, articles) = read_written(pos, ask, &written, &mut ruled);
            sentences.push(sentence);
            ruled.cite(articles);
        }
        let mut sentences = sentences.into_iter();
        ruled.decision = sentences.next().unwrap_or_default();
        ruled.detail.extend(sentences);
        ruled.deciding.dedup();
        ruled
    }
}

/// One written move read in `pos`: a sentence about it, its articles, and its claims.
fn read_written(
    pos: &Chess,
    ask: &PositionAsk,
    written: &str,
    ruled: &mut Ruled,
) -> (String, Vec<&'static str>) {
    match resolve_move(pos, written, ask.game.mode) {
        Ok(m) => {
            let san = san_plus(pos, m);
            ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: san.clone() }));
            ruled.marks.extend(squares_of(m));
            how_it_is_written(written, &san)
        }
        Err(_) => match ambiguous_candidates(pos, written) {
            Some(candidates) => {
                ruled.claim(ask.claim(ClaimSubject::LegalMove {
                    mv: written.to_string(),
                }));
                for c in &candidates {
                    ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: c.san.clone() }));
                    ruled.marks.extend(squares_of(c.mv));
                }
                ambiguity(written, &candidates)
            }
            None => {
                ruled.claim(ask.claim(ClaimSubject::LegalMove {
                    mv: written.to_string(),
                }));
                (
                    format!("{written} is not a legal move in this position."),
                    vec!["3.10.2"],
                )
            }
        },
    }
}

/// A legal move among those a written move could mean.
struct Candidate {
    mv: Move,
    san: String,
}

/// The legal moves an ambiguous written move could mean, if it is ambiguous.
fn ambiguous_candidates(pos: &Chess, written: &str) -> Option<Vec<Candidate>> {
    let tidy = normalise_san(written)?;
    let san = San::from_ascii(tidy.as_bytes()).ok()?;
    if san.to_move(pos) != Err(SanError::AmbiguousSan) {
        return None;
    }
    let candidates: Vec<Candidate> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| san.matches(*m))
        .map(|m| Candidate {
            mv: m,
            san: san_plus(pos, m),
        })
        .collect();
    (candidates.len() >= 2).then_some(candidates)
}

/// "Nd2 is ambiguous here: …, so write Nbd2 or Nfd2".
fn ambiguity(written: &str, candidates: &[Candidate]) -> (String, Vec<&'static str>) {
    let froms: Vec<Square> = candidates.iter().filter_map(|c| c.mv.from()).collect();
    let same_rank = froms.windows(2).all(|w| w[0].rank() == w[1].rank());
    let same_file = froms.windows(2).all(|w| w[0].file() == w[1].file());
    let (how, article) = if same_rank {
        (
            "they stand on the same rank, so the departure file is added",
            "C.10.1",
        )
    } else if same_file {
        (
            "they stand on the same file, so the departure rank is added",
            "C.10.2",
        )
    } else {
        ("the departure file is added", "C.10.3")
    };
    let from_squares: Vec<String> = froms.iter().map(|s| s.to_string()).collect();
    let sans: Vec<String> = candidates.iter().map(|c| c.san.clone()).collect();
    let pieces = match candidates.first().map(|c| c.mv.role()) {
        Some(Role::Knight) => "knights",
        Some(Role::Bishop) => "bishops",
        Some(Role::Rook) => "rooks",
        Some(Role::Queen) => "queens",
        _ => "pieces",
    };
    let all = if candidates.len() == 2 { "both" } else { "all" };
    (
        format!(
            "{written} is ambiguous here: the {pieces} on {} can {all} make that move, so it must say which one moves; {how}: {} ({article}).",
            join_and(&from_squares),
            join_or(&sans)
        ),
        vec![article, "C.10"],
    )
}

/// What a legal written move's form gets right or leaves out, against its SAN.
fn how_it_is_written(written: &str, san: &str) -> (String, Vec<&'static str>) {
    let bare = |s: &str| {
        s.trim_end_matches(['+', '#'])
            .replace('0', "O")
            .replace('=', "")
    };
    let sign = &san[san.trim_end_matches(['+', '#']).len()..];
    let mut notes: Vec<String> = Vec::new();
    let mut articles: Vec<&'static str> = Vec::new();
    if bare(written) != bare(san) {
        notes.push(format!("the usual short form is {san} (Appendix C)"));
        articles.push("C.10");
    }
    if san.contains('=') || written.contains('=') {
        notes.push(
            "FIDE's notation writes a promotion with the new piece's letter straight after the move (e8Q), the PGN standard with \"=\" (e8=Q); both name the same move (C.11)"
                .into(),
        );
        articles.push("C.11");
    }
    let written_sign = &written[written.trim_end_matches(['+', '#']).len()..];
    if sign != written_sign || !sign.is_empty() {
        let (what, article) = match sign {
            "#" => ("it gives checkmate, marked # or ++", "C.13.5"),
            "+" => ("it gives check, marked +", "C.13.4"),
            _ => ("it gives no check, so it takes no + or #", "C.13.4"),
        };
        notes.push(format!(
            "{what}; in FIDE's notation these signs are optional, while PGN and SAN software always write them"
        ));
        articles.push(article);
    }
    let first = format!("{written} is a legal move here, written {san} in SAN");
    let text = if notes.is_empty() {
        format!("{first}, exactly as given.")
    } else {
        format!("{first}: {}.", notes.join("; "))
    };
    (text, articles)
}

fn squares_of(m: Move) -> Vec<String> {
    m.from()
        .into_iter()
        .chain([m.to()])
        .map(|s| s.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_moves_are_read_from_prose_and_markup() {
        assert_eq!(
            written_moves("it registers it as move : **Nd2**, should be Nbd2 or `Nfd2`."),
            ["Nd2", "Nbd2", "Nfd2"]
        );
        assert_eq!(
            written_moves("the move 38. b8Q is weird; I guess it should be b8=Q"),
            ["b8Q", "b8=Q"]
        );
        assert_eq!(
            written_moves("[InlineData(\"2rr2k1/8 w - - 2 18\", \"Rxd8+\")]"),
            ["Rxd8+"]
        );
        assert!(written_moves("my pawn on e4 and the square d5").is_empty());
    }

    use crate::rules::test_position as pos;

    #[test]
    fn ambiguity_names_every_candidate_and_the_article() {
        // Knights on b1 and f3 can both reach d2 (python-chess: Nbd2, Nfd2).
        let p = pos("r1b1kbnr/p2q1p2/2n1p2p/R1pp2p1/1PPP3P/5N2/4PPP1/RNBQKB2 w kq - 4 12");
        let candidates = ambiguous_candidates(&p, "Nd2").expect("ambiguous");
        let (text, articles) = ambiguity("Nd2", &candidates);
        assert!(text.contains("Nbd2 or Nfd2"), "{text}");
        assert_eq!(articles[0], "C.10.3");
        // Rooks on a1 and a5 share the a-file (python-chess: R1a3, R5a3).
        let p = pos("rnbqkbnr/p1p2p2/3p2p1/R3p2p/7P/8/1PPPPPP1/RNBQKBN1 w kq - 0 8");
        let candidates = ambiguous_candidates(&p, "Ra3").expect("ambiguous");
        let (text, articles) = ambiguity("Ra3", &candidates);
        assert!(text.contains("R1a3 or R5a3"), "{text}");
        assert_eq!(articles[0], "C.10.2");
    }

    #[test]
    fn a_legal_move_is_compared_with_its_san() {
        let (text, _) = how_it_is_written("Rxd8", "Rxd8+");
        assert!(text.contains("gives check"), "{text}");
        let (text, articles) = how_it_is_written("b8Q", "b8=Q");
        assert!(
            text.contains("C.11") || articles.contains(&"C.11"),
            "{text}"
        );
        let (text, _) = how_it_is_written("Nf3", "Nf3");
        assert!(text.ends_with("exactly as given."), "{text}");
    }
}
