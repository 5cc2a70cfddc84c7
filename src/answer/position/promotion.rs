//! Promotion (3.7.3.3, 3.7.3.4): which pawns can promote now and to what, a promotion move
//! tested ("is e8=N+ legal?"), and the piece asked about ("can I take a knight instead?").

use shakmaty::Role;

use super::legality::legal_move;
use super::{PositionAsk, PositionRuling, Ruled};
use crate::answer::claims::ClaimSubject;
use crate::answer::intent::Topic;

pub struct Promotion;

/// A move written as a promotion: "e8=N+", "e8Q", "exd1=R".
fn is_promotion(mv: &str) -> bool {
    let m = mv.trim_end_matches(['+', '#', '!', '?']);
    m.contains('=')
        || m.len() >= 3
            && m.ends_with(['Q', 'R', 'B', 'N', 'K'])
            && m[..m.len() - 1].ends_with(['1', '8'])
}

/// The piece a (lower-cased) question wants the pawn to become: the piece named within a few
/// words after the last of "promote", "become", "turn into"… that names one ("it is most often
/// turned into a queen, but I want it to become a knight" asks for the knight); "instead"
/// counts only when no other cue names a piece ("can I take a knight instead?").
pub(super) fn piece_named_to_promote(lower: &str) -> Option<Role> {
    const CUES: &[&str] = &[
        "promot", "becom", "turn", "into a", "choose", "make a", "make it", "get a",
    ];
    // "Promote on e8 even though his rook stands there": the opponent's piece is no choice.
    let named_after = |at: usize| {
        let words: Vec<&str> = lower[at..]
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .take(PIECE_WITHIN_WORDS)
            .collect();
        words.iter().enumerate().find_map(|(i, w)| {
            let theirs = i > 0 && OPPONENTS.contains(&words[i - 1]);
            match w.trim_end_matches('s') {
                _ if theirs => None,
                "knight" => Some(Role::Knight),
                "rook" => Some(Role::Rook),
                "bishop" => Some(Role::Bishop),
                "queen" => Some(Role::Queen),
                "king" => Some(Role::King),
                _ => None,
            }
        })
    };
    let last_named = |cues: &[&str]| {
        cues.iter()
            .flat_map(|cue| lower.match_indices(cue).map(|(at, _)| at))
            .filter_map(|at| Some((at, named_after(at)?)))
            .max_by_key(|&(at, _)| at)
            .map(|(_, piece)| piece)
    };
    last_named(CUES).or_else(|| last_named(&["instead"]))
}

/// Words that make the piece after them the opponent's.
const OPPONENTS: &[&str] = &[
    "his",
    "her",
    "their",
    "opponent's",
    "enemy",
    "black's",
    "white's",
];

/// How many words from a cue's own the piece must be named in ("become a knight", "promote my
/// pawn to a king", "turned into a queen").
const PIECE_WITHIN_WORDS: usize = 7;

const RULE: &str = "A pawn reaching the last rank must become a queen, rook, bishop or knight of its own colour, chosen freely even if such a piece is still on the board (3.7.3.3, 3.7.3.4).";

impl PositionRuling for Promotion {
    fn topic(&self) -> &'static str {
        "promotion"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        // "Is h8=B mate?" asks what the promotion does, for the mate ruling to answer.
        let asks_mate = matches!(
            ask.topic,
            Topic::Checkmate | Topic::Stalemate | Topic::Check
        );
        ask.topic == Topic::Promotion
            || !asks_mate && ask.tested_move.as_deref().is_some_and(is_promotion)
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let mut ruled = match ask.tested_move.as_deref() {
            Some(mv) => {
                let mut r = legal_move(ask, mv);
                r.detail.push(RULE.into());
                r
            }
            None => by_piece(ask),
        };
        ruled.cite(["3.7.3.3", "3.7.3.4"]);
        ruled
    }
}

/// No move named: the promotions available, for the piece asked about if one is.
fn by_piece(ask: &PositionAsk) -> Ruled {
    let promos = &ask.report.promotions;
    if promos.is_empty() {
        return Ruled::new(
            "No pawn can promote on this move: promotion happens when a pawn reaches the last rank (3.7.3.3).",
        );
    }
    // SAN of every legal promotion, e.g. "e8=N+".
    let sans: Vec<&String> = ask
        .report
        .legal_moves_san
        .iter()
        .filter(|s| s.contains('='))
        .collect();
    let mut ruled = match piece_named_to_promote(&ask.lower) {
        Some(Role::King) => {
            let p = &promos[0];
            let mv = if p.from[..1] == p.to[..1] {
                format!("{}=K", p.to)
            } else {
                format!("{}x{}=K", &p.from[..1], p.to)
            };
            let mut r = Ruled::new(format!(
                "No: {mv} is not allowed — a pawn can never become a king (or stay a pawn)."
            ));
            r.claim(ask.claim(ClaimSubject::LegalMove { mv }));
            r
        }
        Some(role) => {
            let chosen: Vec<&&String> = sans
                .iter()
                .filter(|s| s.contains(&format!("={}", role.upper_char())))
                .collect();
            let mut r = Ruled::new(format!(
                "Yes: {} {} legal now.",
                chosen
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(" or "),
                if chosen.len() == 1 { "is" } else { "are" }
            ));
            for s in chosen {
                r.claim(ask.claim(ClaimSubject::LegalMove { mv: (*s).clone() }));
            }
            r
        }
        None => {
            let opts: Vec<String> = promos
                .iter()
                .map(|p| format!("{}→{} as {}", p.from, p.to, p.choices.join("/")))
                .collect();
            let mut r = Ruled::new(format!("Yes, a pawn can promote now: {}.", opts.join("; ")));
            for s in sans.iter().take(8) {
                r.claim(ask.claim(ClaimSubject::LegalMove { mv: (*s).clone() }));
            }
            r
        }
    };
    ruled.detail.push(RULE.into());
    ruled
}
