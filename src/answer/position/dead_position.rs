//! Dead positions (5.2.2): can either side still checkmate by any series of legal moves? A
//! dead position ends the game as a draw at once, so "do we have to keep playing?" is answered
//! no — and nothing after that says otherwise.

use super::{PositionAsk, PositionRuling, Ruled, side_name};
use crate::answer::actors::subject;
use crate::answer::claims::{ClaimSubject, Side};
use crate::answer::intent::Topic;

pub struct DeadPosition;

const DEAD: &str = "neither side can checkmate by any series of legal moves, so the position is dead and the game is drawn at once (5.2.2).";

/// "Can he still mate?", "is mate possible?": a yes means the position is alive.
const CAN_MATE: &[&str] = &[
    "can anyone mate",
    "can anybody mate",
    "can either side mate",
    "can either player",
    "mate possible",
    "possible to mate",
    "still mate",
    "still checkmate",
    "still win",
    "can he win",
    "can she win",
    "can i win",
    "can he mate",
    "can she mate",
    "can i mate",
    "can white",
    "can black",
];

impl PositionRuling for DeadPosition {
    fn topic(&self) -> &'static str {
        "dead_position"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        let r = ask.report;
        let dead = r.dead_position == Some(true);
        ask.topic == Topic::DeadPosition
            || ask.topic == Topic::General
                && !ask.reads_off_the_board()
                && !ask.tells_of_a_draw_agreement()
                && (ask.asks_to_play_on() || ask.asks_result() && (dead || ask.mentions(&["draw"])))
                && !r.checkmate
                && !r.stalemate
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let info = &ask.report.dead_position_info;
        let can_mate = ask.mentions(CAN_MATE) || ask.mentions(crate::answer::intent::WHO_CAN_MATE);
        let mut ruled = match ask.report.dead_position {
            Some(true) => Ruled::new(if ask.asks_to_play_on() {
                format!("No, you do not have to play on: {DEAD}")
            } else if can_mate {
                format!("No: {DEAD}")
            } else if ask.asks_result() {
                format!("It is a draw: {DEAD}")
            } else {
                format!("Yes: {DEAD}")
            }),
            Some(false) => alive(ask, can_mate),
            None => Ruled::new(format!(
                "I cannot tell within the time budget: {}",
                info.reason
            )),
        };
        ruled.tells_outcome = ask.report.dead_position == Some(true);
        ruled.claim(ask.claim(ClaimSubject::DeadPosition));
        ruled.cite(["5.2.2", "1.5"]);
        ruled
    }
}

/// The position is not dead: say who can still mate, with a line that shows it.
fn alive(ask: &PositionAsk, can_mate: bool) -> Ruled {
    let info = &ask.report.dead_position_info;
    // "Can he still win?": answer for the side asked about when the question names one.
    let asked = subject(&ask.lower, &["mate", "win"]).and_then(|a| ask.actors.side_of(&a));
    let can = |s: Side| match s {
        Side::White => info.white_can_mate,
        Side::Black => info.black_can_mate,
    };
    let mut ruled = match asked {
        Some(s) if can_mate && can(s) == Some(false) => {
            let mut r = Ruled::new(format!(
                "No: {} cannot checkmate by any series of legal moves, but {} still can, so the position is not dead and play goes on (5.2.2).",
                side_name(s),
                side_name(s.other())
            ));
            // "He cannot mate" is what decides a flag: the claim that re-checks it.
            r.claim(ask.claim(ClaimSubject::FlagResult { flagged: s.other() }));
            r
        }
        _ if ask.asks_to_play_on() => {
            Ruled::new(format!("Yes, play goes on: it is {}", info.reason))
        }
        _ if can_mate => Ruled::new(format!("Yes: it is {}", info.reason)),
        _ => Ruled::new(format!("No, it is {}", info.reason)),
    };
    // The shorter of the two sides' mating lines proves it best ("Black mates after Ng3#").
    let white = (info.white_can_mate == Some(true) && !info.white_helpmate.is_empty())
        .then_some(("White", &info.white_helpmate));
    let black = (info.black_can_mate == Some(true) && !info.black_helpmate.is_empty())
        .then_some(("Black", &info.black_helpmate));
    let proof = match (white, black) {
        (Some(w), Some(b)) if b.1.len() < w.1.len() => Some(b),
        (w, b) => w.or(b),
    };
    if let Some((who, line)) = proof {
        ruled
            .detail
            .push(format!("For example, {who} mates after {}.", line.short()));
    }
    ruled
}
