//! Who a position question is about, as a colour: "I", "my opponent", "he"/"she", "White",
//! "the player with king, bishop and pawn" (matched against the material on the board), "the
//! side to move".
//!
//! The asker's colour comes from what the question shows, strongest first: a colour said
//! outright ("I'm Black"), material ("I have king and bishop", "his bare king"), a move the
//! asker or the opponent is said to have played. Each ruling then applies its own default when
//! nothing shows it — for a flag, the clock rule: the clock that runs is the side to move's.
//! The words are read by [`crate::answer::actors`]; this module resolves them against the board.

use std::sync::LazyLock;

use regex::Regex;
use shakmaty::{Chess, Color, Position, Role};

use super::played::Played;
use crate::answer::actors::{Actor, PieceKind, holdings, named_asker};
use crate::answer::claims::Side;

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

/// A parent's question about a child's game ("My son (White) wants to castle — can he?", "my
/// daughter is playing black, can she take en passant?") read as the child's own: the child is
/// the asker's side, so "he"/"she" and "his"/"her" are the child, not the opponent, and "the
/// other boy" is the opponent. Other questions are left as they are.
pub fn as_the_childs_side(lower: &str) -> std::borrow::Cow<'_, str> {
    const CHILD: &str = r"\bmy (?:son|daughter|kid|child|boy|girl)";
    static MENTIONED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!(r"{CHILD}\b")).expect("valid regex"));
    static REWRITES: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
        [
            (format!(r"{CHILD} is\b"), "i am"),
            (format!(r"{CHILD} was\b"), "i was"),
            (format!(r"{CHILD}'s\b"), "my"),
            (format!(r"{CHILD}\b"), "i"),
            (
                r"\bthe other (?:boy|girl|kid|child|player)\b".to_string(),
                "my opponent",
            ),
            (r"\b(?:he|she)\b".to_string(), "i"),
            (r"\bhim\b".to_string(), "me"),
            (r"\bhers\b".to_string(), "mine"),
            (r"\b(?:his|her)\b".to_string(), "my"),
        ]
        .into_iter()
        .map(|(re, to)| (Regex::new(&re).expect("valid regex"), to))
        .collect()
    });
    if !MENTIONED.is_match(lower) {
        return std::borrow::Cow::Borrowed(lower);
    }
    let mut text = lower.to_string();
    for (re, to) in REWRITES.iter() {
        text = re.replace_all(&text, *to).into_owned();
    }
    std::borrow::Cow::Owned(text)
}

fn index(s: Side) -> usize {
    match s {
        Side::White => 0,
        Side::Black => 1,
    }
}

impl Actors {
    /// Resolves the asker's colour from the question, the position and the moves it says were
    /// played.
    pub fn read(lower: &str, pos: &Chess, played: &Played) -> Actors {
        let material = [Color::White, Color::Black].map(|c| {
            let mut kinds: Vec<PieceKind> = Vec::new();
            for sq in pos.board().by_color(c) {
                let k = PieceKind::from(pos.board().role_at(sq).unwrap_or(Role::King));
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
                holder.other()
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
            Actor::Opponent => self.asker.map(|(s, _)| s.other()),
            Actor::Holding(kinds) => self.holder_of(kinds, true),
        }
    }

    /// The side an actor names, the asker being the side to move when nothing shows otherwise
    /// (the usual reading of "can I castle?", "can I claim?").
    pub fn side_or_mover(&self, actor: Option<&Actor>) -> Side {
        match actor {
            Some(Actor::Opponent) if self.asker.is_none() => self.mover.other(),
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
            Actor::Opponent => Some((color.other(), Evidence::PlayedMove)),
            _ => None,
        }
    })
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
    fn a_parents_child_is_read_as_the_asker() {
        assert_eq!(
            as_the_childs_side("my son (white) wants to castle. can he?"),
            "i (white) wants to castle. can i?"
        );
        assert_eq!(
            as_the_childs_side("my daughter is playing black, can the other girl take?"),
            "i am playing black, can my opponent take?"
        );
        assert_eq!(as_the_childs_side("can he castle?"), "can he castle?");
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
