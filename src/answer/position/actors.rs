//! Who a position question is about, as a colour: "I", "my opponent", "he"/"she", "White",
//! "the player with king, bishop and pawn" (matched against the material on the board), "the
//! side to move".
//!
//! The asker's colour comes from what the question shows, strongest first: a colour said
//! outright ("I'm Black"), material ("I have king and bishop", "his bare king"), a move the
//! asker or the opponent is said to have played. Each ruling then applies its own default when
//! nothing shows it — for a flag, the clock rule: the clock that runs is the side to move's.

use std::sync::OnceLock;

use regex::Regex;
use shakmaty::{Chess, Color, Position, Role};

use super::other;
use super::played::{Played, actor_word};
use crate::answer::claims::Side;
use crate::answer::frame::{Actor, PieceKind};

/// How the asker's colour was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// "I am White", "my opponent has the black pieces".
    Named,
    /// "I have king and bishop", "his bare king".
    Material,
    /// "I played Qb6", "he just pushed d5".
    PlayedMove,
}

/// The question's actors resolved against the position.
#[derive(Debug, Clone)]
pub struct Actors {
    /// The asker's colour, when the question shows it.
    pub asker: Option<(Side, Evidence)>,
    mover: Side,
    /// The kinds of piece (other than the king) each side has: White, Black.
    material: [Vec<PieceKind>; 2],
}

/// The side or sides a question is about, with a sentence saying how that was decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub sides: Vec<Side>,
    pub why: Option<String>,
}

impl Resolved {
    pub fn one(side: Side, why: Option<String>) -> Resolved {
        Resolved {
            sides: vec![side],
            why,
        }
    }

    pub fn both(why: Option<String>) -> Resolved {
        Resolved {
            sides: vec![Side::White, Side::Black],
            why,
        }
    }
}

fn index(s: Side) -> usize {
    match s {
        Side::White => 0,
        Side::Black => 1,
    }
}

fn kind_of(role: Role) -> PieceKind {
    match role {
        Role::King => PieceKind::King,
        Role::Queen => PieceKind::Queen,
        Role::Rook => PieceKind::Rook,
        Role::Bishop => PieceKind::Bishop,
        Role::Knight => PieceKind::Knight,
        Role::Pawn => PieceKind::Pawn,
    }
}

pub(crate) fn piece_word(word: &str) -> Option<PieceKind> {
    Some(match word.trim_end_matches("es").trim_end_matches('s') {
        "king" => PieceKind::King,
        "queen" => PieceKind::Queen,
        "rook" => PieceKind::Rook,
        "bishop" | "bishop'" => PieceKind::Bishop,
        "knight" => PieceKind::Knight,
        "pawn" => PieceKind::Pawn,
        _ => return None,
    })
}

/// The piece kinds named at the start of `text` ("king, bishop and pawn vs…"), with whether
/// the list reads as a whole army ("bare king", "only…", followed by "vs", "left", "alone").
fn piece_list(text: &str) -> Option<(Vec<PieceKind>, bool)> {
    const FILLER: &[&str] = &[
        "a", "an", "one", "two", "three", "the", "single", "and", "plus", "&", "+", "with", "his",
        "her", "my",
    ];
    let mut kinds = Vec::new();
    let mut whole = false;
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '+' || c == '&')) {
        if word.is_empty() || FILLER.contains(&word) {
            continue;
        }
        if matches!(word, "bare" | "lone" | "alone" | "naked")
            || kinds.is_empty() && matches!(word, "only" | "just")
        {
            whole = true;
            continue;
        }
        match piece_word(word) {
            Some(k) => {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            None => {
                whole |= matches!(word, "vs" | "v" | "versus" | "against" | "left" | "only");
                break;
            }
        }
    }
    (!kinds.is_empty()).then_some((kinds, whole))
}

fn explicit_colour() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?x)
            \b(?P<me>i(?:'m|\s+am|\s+was)\s+(?:playing\s+)?(?:as\s+|with\s+)?(?:the\s+)?
               | i\s+(?:play|played|have|had)\s+(?:as\s+|with\s+)?the\s+
               | (?:playing|play)\s+(?:as\s+|with\s+)?(?:the\s+)?
               | as\s+)
              (?P<mine>white|black)\b(?P<after>\s+\w+)?
          | \b(?:my\s+)?opponent\s+(?:is|was|has|had|plays|played)\s+(?:playing\s+)?(?:as\s+|with\s+)?(?:the\s+)?
              (?P<theirs>white|black)\b(?P<after2>\s+\w+)?",
        )
        .expect("valid regex")
    })
}

fn side_word(w: &str) -> Side {
    if w == "white" {
        Side::White
    } else {
        Side::Black
    }
}

/// A colour said outright for the asker.
pub(crate) fn named_asker(lower: &str) -> Option<Side> {
    for c in explicit_colour().captures_iter(lower) {
        let after = c
            .name("after")
            .or(c.name("after2"))
            .map(|m| m.as_str().trim());
        // "I have the black bishop" names a piece, not the asker's colour.
        if after.is_some_and(|w| piece_word(w).is_some()) {
            continue;
        }
        if let Some(m) = c.name("mine") {
            return Some(side_word(m.as_str()));
        }
        if let Some(m) = c.name("theirs") {
            return Some(other(side_word(m.as_str())));
        }
    }
    None
}

/// Where material is described, and for whom.
pub(crate) const ASKER_HOLDS: &[&str] = &[
    "i have ",
    "i had ",
    "i've got ",
    "i have got ",
    "i still have ",
    "i only have ",
    "i only had ",
    "i am left with ",
    "i'm left with ",
    "i was left with ",
    "i've only got ",
    "with my ",
    "only my ",
    "my ",
];
pub(crate) const OPPONENT_HOLDS: &[&str] = &[
    "he has ",
    "she has ",
    "he had ",
    "she had ",
    "he's got ",
    "she's got ",
    "he only has ",
    "she only has ",
    "he only had ",
    "she only had ",
    "he still has ",
    "opponent has ",
    "opponent had ",
    "opponent only has ",
    "opponent still has ",
    "only his ",
    "only her ",
    "his ",
    "her ",
    "opponent's ",
];

/// Material said to belong to the asker or the opponent ("I have king and bishop", "vs his
/// bare king"); a possessive counts only when it reads as a whole army ("my king and bishop vs",
/// "his lone king"), not as one piece ("his king can't move").
fn holdings(lower: &str) -> Vec<(Actor, Vec<PieceKind>, bool)> {
    let mut out = Vec::new();
    for (actor, anchors) in [
        (Actor::Asker, ASKER_HOLDS),
        (Actor::Opponent, OPPONENT_HOLDS),
    ] {
        for anchor in anchors {
            let possessive = matches!(
                *anchor,
                "my " | "his " | "her " | "opponent's " | "with my "
            );
            for (i, _) in lower.match_indices(anchor) {
                if i > 0 && lower.as_bytes()[i - 1].is_ascii_alphabetic() {
                    continue;
                }
                let only_before = lower[..i].trim_end().ends_with("only");
                if let Some((kinds, whole)) = piece_list(&lower[i + anchor.len()..])
                    && (!possessive || whole || only_before)
                {
                    out.push((actor.clone(), kinds, whole || only_before));
                }
            }
        }
    }
    out
}

/// The pieces named after "the player with" / "the side with".
fn holding_subject(text: &str) -> Option<Vec<PieceKind>> {
    [
        "player with ",
        "side with ",
        "one with ",
        "player who has ",
        "side that has ",
    ]
    .iter()
    .find_map(|a| text.find(a).map(|i| i + a.len()))
    .and_then(|i| piece_list(&text[i..]))
    .map(|(k, _)| k)
}

impl Actors {
    /// Resolves the asker's colour from the question, the position and the moves it says were
    /// played.
    pub fn read(lower: &str, pos: &Chess, played: &Played) -> Actors {
        let material = [Color::White, Color::Black].map(|c| {
            let mut kinds: Vec<PieceKind> = Vec::new();
            for sq in pos.board().by_color(c) {
                let k = kind_of(pos.board().role_at(sq).unwrap_or(Role::King));
                if k != PieceKind::King && !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            kinds
        });
        let mut actors = Actors {
            asker: None,
            mover: Side::of(pos.turn()),
            material,
        };
        actors.asker = named_asker(lower)
            .map(|s| (s, Evidence::Named))
            .or_else(|| actors.asker_by_material(lower))
            .or_else(|| asker_by_played(played));
        actors
    }

    fn asker_by_material(&self, lower: &str) -> Option<(Side, Evidence)> {
        let mut found: Option<Side> = None;
        for (actor, kinds, whole) in holdings(lower) {
            let Some(holder) = self.holder_of(&kinds, whole) else {
                continue;
            };
            let asker = if actor == Actor::Asker {
                holder
            } else {
                other(holder)
            };
            match found {
                Some(f) if f != asker => return None, // contradictory: trust neither
                _ => found = Some(asker),
            }
        }
        found.map(|s| (s, Evidence::Material))
    }

    /// The side whose material the pieces describe. A whole army ("the player with king,
    /// bishop and pawn", "his bare king") is the side with exactly those kinds of piece (the
    /// king aside); otherwise, or when both or neither match, the only side that has them all.
    pub fn holder_of(&self, kinds: &[PieceKind], whole: bool) -> Option<Side> {
        let named: Vec<PieceKind> = kinds
            .iter()
            .copied()
            .filter(|k| *k != PieceKind::King)
            .collect();
        let sides = [Side::White, Side::Black];
        if whole {
            let exact: Vec<Side> = sides
                .into_iter()
                .filter(|s| {
                    let have = &self.material[index(*s)];
                    have.len() == named.len() && named.iter().all(|k| have.contains(k))
                })
                .collect();
            if exact.len() == 1 {
                return Some(exact[0]);
            }
        }
        if named.is_empty() {
            return None;
        }
        let covering: Vec<Side> = sides
            .into_iter()
            .filter(|s| named.iter().all(|k| self.material[index(*s)].contains(k)))
            .collect();
        (covering.len() == 1).then(|| covering[0])
    }

    /// The colour of an actor, when the question and the position decide it.
    pub fn side_of(&self, actor: &Actor) -> Option<Side> {
        match actor {
            Actor::White => Some(Side::White),
            Actor::Black => Some(Side::Black),
            Actor::ToMove => Some(self.mover),
            Actor::Asker => self.asker.map(|(s, _)| s),
            Actor::Opponent => self.asker.map(|(s, _)| other(s)),
            Actor::Holding(kinds) => self.holder_of(kinds, true),
        }
    }

    /// The side an actor names, the asker being the side to move when nothing shows otherwise
    /// (the usual reading of "can I castle?", "can I claim?").
    pub fn side_or_mover(&self, actor: Option<&Actor>) -> Side {
        match actor {
            Some(Actor::Opponent) if self.asker.is_none() => other(self.mover),
            Some(a) => self.side_of(a).unwrap_or(self.mover),
            None => self.mover,
        }
    }
}

fn asker_by_played(played: &Played) -> Option<(Side, Evidence)> {
    played.moves.iter().find_map(|m| {
        let color = m.color?;
        match m.by.as_ref()? {
            Actor::Asker => Some((color, Evidence::PlayedMove)),
            Actor::Opponent => Some((other(color), Evidence::PlayedMove)),
            _ => None,
        }
    })
}

/// The actor the verb of the question has: the last actor named before the first of `verbs`
/// in its sentence ("if **his** flag falls", "can **Black** castle", "the **player with king
/// and bishop** flagged"), or one named right after it ("castling for **Black**").
pub fn subject(lower: &str, verbs: &[&str]) -> Option<Actor> {
    // The verb of the question sentence, if one has it ("White castled. Can Black castle?").
    let mut found: Vec<usize> = verbs
        .iter()
        .flat_map(|v| lower.match_indices(v).map(|(i, _)| i))
        .collect();
    found.sort_unstable();
    let in_question = |i: &usize| {
        lower[*i..]
            .find(['.', '?', '!', ';', '\n'])
            .is_some_and(|end| lower[*i + end..].starts_with('?'))
    };
    let at = found
        .iter()
        .copied()
        .find(in_question)
        .or(found.first().copied())?;
    let start = lower[..at]
        .rfind(['.', '?', '!', ';', '\n'])
        .map_or(0, |i| i + 1);
    let before = &lower[start..at];
    if let Some(a) = last_actor(before) {
        return Some(a);
    }
    let end = lower[at..]
        .find(['.', '?', '!', ';', '\n'])
        .map_or(lower.len(), |i| at + i);
    let after = &lower[at..end];
    [" for ", " by ", " of "].iter().find_map(|p| {
        let i = after.find(p)? + p.len();
        first_word_actor(&after[i..])
    })
}

fn first_word_actor(text: &str) -> Option<Actor> {
    let mut ws = text.split_whitespace();
    let mut w = ws.next()?;
    if matches!(w, "the" | "my") {
        if w == "my" && ws.clone().next().is_some_and(|n| n.starts_with("opponent")) {
            return Some(Actor::Opponent);
        }
        w = ws.next()?;
    }
    actor_word(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        .filter(|_| ws.next().is_none_or(|n| piece_word(n).is_none()))
}

/// The last actor named in a stretch of text.
fn last_actor(text: &str) -> Option<Actor> {
    let mut best: Option<(usize, Actor)> = None;
    let mut consider = |at: usize, a: Actor| {
        if best.as_ref().is_none_or(|(b, _)| at >= *b) {
            best = Some((at, a));
        }
    };
    for phrase in crate::answer::frame::SIDE_TO_MOVE_PHRASES {
        if let Some(i) = text.rfind(phrase) {
            consider(i, Actor::ToMove);
        }
    }
    if let Some(kinds) = holding_subject(text) {
        let at = [
            "player with",
            "side with",
            "one with",
            "player who",
            "side that",
        ]
        .iter()
        .filter_map(|p| text.rfind(p))
        .max()
        .unwrap_or(0);
        consider(at, Actor::Holding(kinds));
    }
    let words: Vec<(usize, &str)> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .scan(0usize, |pos, w| {
            let at = *pos;
            *pos += w.len() + 1;
            Some((at, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    for (i, (at, w)) in words.iter().enumerate() {
        let Some(a) = actor_word(w) else { continue };
        // "the black bishop" names a piece's colour, not who acts.
        let piece_follows = words
            .get(i + 1)
            .is_some_and(|(_, n)| piece_word(n).is_some());
        if matches!(a, Actor::White | Actor::Black) && piece_follows && !w.ends_with("'s") {
            continue;
        }
        consider(*at, a);
    }
    best.map(|(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actors(q: &str, fen: &str) -> Actors {
        let pos = crate::rules::Game::new(Some(fen))
            .unwrap()
            .current()
            .clone();
        Actors::read(&q.to_lowercase(), &pos, &Played::default())
    }

    #[test]
    fn subjects() {
        assert_eq!(
            subject(" i ran out of time ", &["out of time"]),
            Some(Actor::Asker)
        );
        assert_eq!(subject(" his flag fell ", &["flag"]), Some(Actor::Opponent));
        assert_eq!(
            subject(" can black castle? ", &["castl"]),
            Some(Actor::Black)
        );
        assert_eq!(
            subject(" the black bishop covers f1. can i castle? ", &["castl"]),
            Some(Actor::Asker)
        );
        assert_eq!(
            subject(" is castling allowed for white here? ", &["castl"]),
            Some(Actor::White)
        );
        assert_eq!(
            subject(" the player with king, bishop and pawn flagged ", &["flag"]),
            Some(Actor::Holding(vec![
                PieceKind::King,
                PieceKind::Bishop,
                PieceKind::Pawn
            ]))
        );
        assert_eq!(subject(" who wins when the flag falls? ", &["flag"]), None);
        assert_eq!(
            subject(" white castled. can black castle now? ", &["castl"]),
            Some(Actor::Black)
        );
        assert_eq!(
            subject(" the side to move flagged ", &["flag"]),
            Some(Actor::ToMove)
        );
    }

    #[test]
    fn the_asker_from_names_and_material() {
        let fen = "8/8/4k3/8/8/3BK3/8/8 w - - 0 1";
        let a = actors(
            "Only king and bishop left vs his bare king. Must we play on?",
            fen,
        );
        assert_eq!(a.asker, Some((Side::White, Evidence::Material)));
        let a = actors("I have a bishop and he has a bare king", fen);
        assert_eq!(a.asker, Some((Side::White, Evidence::Material)));
        let a = actors("I'm black. His flag fell.", fen);
        assert_eq!(a.asker, Some((Side::Black, Evidence::Named)));
        let a = actors("I have the black bishop. His king can't move.", fen);
        assert_eq!(a.asker, None);
        let a = actors("My opponent is playing white and flagged", fen);
        assert_eq!(a.asker, Some((Side::Black, Evidence::Named)));
    }

    #[test]
    fn holders_by_material() {
        let a = actors("", "8/8/4k3/8/8/3BK3/4P3/8 w - - 0 1");
        let kb_p = [PieceKind::King, PieceKind::Bishop, PieceKind::Pawn];
        assert_eq!(a.holder_of(&kb_p, true), Some(Side::White));
        assert_eq!(a.holder_of(&[PieceKind::King], true), Some(Side::Black));
        assert_eq!(a.holder_of(&[PieceKind::King], false), None);
        assert_eq!(a.holder_of(&[PieceKind::Knight], true), None);
        assert_eq!(a.holder_of(&[PieceKind::Bishop], false), Some(Side::White));
    }
}
