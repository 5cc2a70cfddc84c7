//! Resignation (5.1.2): the result if the player the question names resigns now — a loss,
//! unless the opponent could not checkmate by any series of legal moves.

use super::{
    PositionAsk, PositionRuling, Ruled, answers_whether, lower_first, outcome_claims, result_words,
    side_name, yes_no,
};
use crate::answer::actors::{Actor, subject};
use crate::answer::claims::Side;
use crate::answer::intent::Topic;
use crate::rules::report::Ruling;

pub struct Resignation;

impl PositionRuling for Resignation {
    fn topic(&self) -> &'static str {
        "resignation"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::Resignation
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let mut ruled = match &ask.report.outcome {
            Some(o) => {
                let mut r = Ruled::new(format!(
                    "The game is already over: {}. Resigning afterwards changes nothing (5.1.2).",
                    o.explanation
                ));
                r.deciding.push(o.article.into());
                outcome_claims(ask, &mut r);
                r.tells_outcome = true;
                r
            }
            None => verdicts(ask),
        };
        ruled.deciding.insert(0, "5.1.2".into());
        ruled
    }
}

fn ruling_for<'a>(ask: &PositionAsk<'a>, side: Side) -> &'a Ruling {
    match side {
        Side::White => &ask.report.resignation.white,
        Side::Black => &ask.report.resignation.black,
    }
}

fn verdicts(ask: &PositionAsk) -> Ruled {
    let actor = subject(&ask.lower, &["resign"]);
    let side = actor.as_ref().and_then(|a| ask.actors.side_of(a));
    let sides = match side {
        Some(s) => vec![s],
        None => {
            let mut v = vec![ask.mover(), ask.mover().other()];
            v.dedup();
            v
        }
    };
    let asker = ask.actors.asker.map(|(s, _)| s);
    let parts: Vec<String> = sides
        .iter()
        .map(|s| {
            let r = ruling_for(ask, *s);
            let verdict = lower_first(result_words(r.result.as_deref()));
            let sentence = match r.reason.split_once(": ") {
                Some((_, why)) => format!("If {} resigns, {verdict}: {why}.", side_name(*s)),
                None => format!("If {} resigns, {verdict} (5.1.2).", side_name(*s)),
            };
            match (&actor, sides.len()) {
                (Some(Actor::Asker | Actor::Opponent), 1) => yes_no(
                    answers_whether(ask, r.result.as_deref().unwrap_or(""), asker),
                    &sentence,
                ),
                _ => sentence,
            }
        })
        .collect();
    Ruled::new(parts.join(" "))
}
