//! A flag falling (6.9): the result for the player whose flag falls — the one the question
//! names, or, when it says "I" or "he" without showing a colour, the player whose clock runs,
//! which is the side to move. When the question does not say whose flag, both results.

use super::actors::Resolved;
use super::{
    PositionAsk, PositionRuling, Ruled, answers_whether, lower_first, outcome_claims, result_words,
    side_name, yes_no,
};
use crate::answer::actors::{Actor, FLAG_VERBS, subject};
use crate::answer::claims::{ClaimSubject, Side};
use crate::answer::intent::Topic;
use crate::rules::report::Ruling;

pub struct Flag;

impl PositionRuling for Flag {
    fn topic(&self) -> &'static str {
        "flag"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::Flag
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let actor = subject(&ask.lower, FLAG_VERBS);
        let flagged = flagged_sides(ask, actor.as_ref());
        let mut ruled = match &ask.report.outcome {
            Some(o) => {
                let mut r = Ruled::new(format!(
                    "The game is already over: {}. A flag falling afterwards changes nothing (6.9).",
                    o.explanation
                ));
                r.deciding.push(o.article.into());
                outcome_claims(ask, &mut r);
                r.tells_outcome = true;
                r
            }
            None => verdicts(ask, actor.as_ref(), &flagged),
        };
        for s in &flagged.sides {
            ruled.claim(ask.claim(ClaimSubject::FlagResult { flagged: *s }));
        }
        ruled.deciding.insert(0, "6.9".into());
        ruled.deciding.push("A.5.3".into());
        ruled
    }
}

/// Whose flag fell.
fn flagged_sides(ask: &PositionAsk, actor: Option<&Actor>) -> Resolved {
    let mover = ask.mover();
    let clock = || {
        Some(format!(
            "{} is to move, so {}'s clock is the one running: that is the flag that falls.",
            side_name(mover),
            side_name(mover)
        ))
    };
    match actor {
        None => Resolved::both(Some(format!(
            "{} is to move, so only {}'s clock is running.",
            side_name(mover),
            side_name(mover)
        ))),
        Some(a) => match ask.actors.side_of(a) {
            Some(s) => Resolved::one(s, holder_note(a, s)),
            None if matches!(a, Actor::Asker | Actor::Opponent) => Resolved::one(mover, clock()),
            None => Resolved::both(Some(
                "The pieces named do not single out one side on this board, so here are both results."
                    .into(),
            )),
        },
    }
}

fn holder_note(actor: &Actor, side: Side) -> Option<String> {
    matches!(actor, Actor::Holding(_))
        .then(|| format!("The player with those pieces is {}.", side_name(side)))
}

fn ruling_for<'a>(ask: &PositionAsk<'a>, side: Side) -> &'a Ruling {
    match side {
        Side::White => &ask.report.flag_info.white,
        Side::Black => &ask.report.flag_info.black,
    }
}

fn verdicts(ask: &PositionAsk, actor: Option<&Actor>, flagged: &Resolved) -> Ruled {
    let mut ruled = Ruled::default();
    if let [side] = flagged.sides[..] {
        let ruling = ruling_for(ask, side);
        // Who the asker is, if the question says "I" or "he": the clock rule settles it.
        let asker = ask.actors.asker.map(|(s, _)| s).or(match actor {
            Some(Actor::Asker) => Some(side),
            Some(Actor::Opponent) => Some(side.other()),
            _ => None,
        });
        let result = ruling.result.as_deref().unwrap_or("");
        let sentence = format!(
            "If {}'s flag falls, {}: {}.",
            side_name(side),
            lower_first(result_words(ruling.result.as_deref())),
            why(ruling)
        );
        ruled.decision = yes_no(answers_whether(ask, result, asker), &sentence);
    } else {
        let mut sides = flagged.sides.clone();
        sides.sort_by_key(|s| *s != ask.mover());
        let parts: Vec<String> = sides
            .iter()
            .map(|s| {
                let r = ruling_for(ask, *s);
                format!(
                    "If {}'s flag falls: {}, {}.",
                    side_name(*s),
                    lower_first(result_words(r.result.as_deref())),
                    why(r)
                )
            })
            .collect();
        ruled.decision = parts.join(" ");
    }
    ruled.detail.extend(flagged.why.clone());
    ruled
}

/// The reason of a flag ruling without its opening clause ("if white's flag falls, black
/// wins: ").
fn why(r: &Ruling) -> &str {
    r.reason
        .split_once(": ")
        .map_or(r.reason.as_str(), |(_, why)| why)
}
