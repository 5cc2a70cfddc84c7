//! "Whose move is it?", "is it my turn?" asked with a game or a position: the side to move, and
//! the last move given that made it so (1.2, 1.3). Players who lost track of their scoresheets
//! ask this; the answer comes from the moves as replayed, not from the rulebook.

use super::{PositionAsk, PositionRuling, Ruled, side_name, yes_no};
use crate::answer::actors::Actor;

pub struct Turn;

/// Ways of asking whose turn it is.
const ASKS_WHOSE_TURN: &[&str] = &[
    "whose move",
    "whose turn",
    "whose go",
    "is it my move",
    "is it my turn",
    "is it his move",
    "is it her move",
    "is it his turn",
    "is it her turn",
    "who is to move",
    "who's to move",
    "who is on move",
    "who has the move",
    "who moves now",
    "who moves next",
    "who should move",
];

impl PositionRuling for Turn {
    fn topic(&self) -> &'static str {
        "turn"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.tested_move.is_none() && ask.mentions(ASKS_WHOSE_TURN)
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let mover = ask.mover();
        let last = ask.game.plies.last().map_or(String::new(), |p| {
            format!(": the last move given is {}{}", p.number, p.san)
        });
        let sentence = format!(
            "It is {}'s move{last}, and the players move in turn (1.2, 1.3).",
            side_name(mover)
        );
        let asked_about = if ask.mentions(&["my move", "my turn", "mine"]) {
            Some(Actor::Asker)
        } else if ask.mentions(&["his move", "her move", "his turn", "her turn", "hers?"]) {
            Some(Actor::Opponent)
        } else {
            None
        };
        let answer = asked_about
            .and_then(|a| ask.actors.side_of(&a))
            .map(|s| s == mover);
        let mut ruled = Ruled::new(yes_no(answer, &sentence));
        ruled
            .deciding
            .extend(["1.2".to_string(), "1.3".to_string()]);
        ruled
    }
}
