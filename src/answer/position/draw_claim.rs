//! "Can I claim a draw?" without saying on what grounds: both claims a player makes to the
//! arbiter are looked at — threefold repetition (9.2) and fifty moves (9.3), each now or by
//! declaring the next move — and a move the question names ("if I play Ke8") is checked as the
//! move to declare. A game already drawn by rule (fivefold, seventy-five moves, dead position)
//! needs no claim.

use shakmaty::Position;

use super::{PositionAsk, PositionRuling, Ruled, ended_by_mate_or_stalemate, side_name};
use crate::answer::actors::subject;
use crate::answer::claims::{ClaimSubject, Side};
use crate::answer::intent::Topic;
use crate::rules::describe::capitalised;
use crate::rules::notation::{resolve_move, uci};
use crate::text::capitalise_first;

pub struct DrawClaim;

impl PositionRuling for DrawClaim {
    fn topic(&self) -> &'static str {
        "draw_claim"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::DrawClaim
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        if let Some(r) = ended_by_mate_or_stalemate(
            ask,
            "any draw can be claimed (9.6.2)",
            ClaimSubject::ThreefoldClaim,
        ) {
            return r;
        }
        // Only the player on move claims: a question about the other one is answered for him.
        let asked = subject(&ask.lower, &["claim"]).and_then(|a| ask.actors.side_of(&a));
        let mut ruled = match asked.filter(|s| *s != ask.mover()) {
            Some(other) => not_on_move(ask, other),
            None => already_drawn(ask).unwrap_or_else(|| claimable(ask)),
        };
        for s in [
            ClaimSubject::ThreefoldClaim,
            ClaimSubject::FiftyMoveClaim,
            ClaimSubject::Fivefold,
            ClaimSubject::SeventyFive,
        ] {
            ruled.claim(ask.claim(s));
        }
        // "This position is on the board for the 3rd time": why the count differs.
        if ask.mentions(COUNTS_A_REPETITION)
            && let Some(note) = super::repetition::near_miss(ask)
        {
            ruled
                .detail
                .push(format!("{note} {}", super::repetition::SAME_POSITION));
            ruled.deciding.push("9.2.3".into());
        }
        ruled
    }
}

/// Words that count a repetition in the question.
const COUNTS_A_REPETITION: &[&str] = &[
    "third time",
    "3rd time",
    "three times",
    "3 times",
    "threefold",
    "3fold",
    "3-fold",
    "repet",
];

/// A claim asked for the side not on move.
fn not_on_move(ask: &PositionAsk, asked: Side) -> Ruled {
    let (r, f) = (&ask.report.repetition, &ask.report.fifty_moves);
    let mover = capitalise_first(side_name(ask.mover()));
    let mover_can = if r.threefold_now || f.claim_now {
        format!(" {mover} can claim now.")
    } else if has_declarable(ask) {
        format!(" {mover} can claim by writing the move that completes it on the scoresheet.")
    } else {
        String::new()
    };
    let mut ruled = Ruled::new(format!(
        "No: only the player whose turn it is can claim a draw (9.2.1, 9.3), and here that is {}, not {}.{mover_can}",
        side_name(ask.mover()),
        side_name(asked),
    ));
    ruled.deciding.push("9.2.1".into());
    ruled
}

/// A game the rules have already drawn: nothing is left to claim.
fn already_drawn(ask: &PositionAsk) -> Option<Ruled> {
    let (r, f, d) = (
        &ask.report.repetition,
        &ask.report.fifty_moves,
        &ask.report.dead_position_info,
    );
    let (reason, article) = if r.fivefold {
        (r.reason.as_str(), "9.6.1")
    } else if f.seventy_five {
        (f.reason.as_str(), "9.6.2")
    } else if ask.report.dead_position == Some(true) {
        (d.reason.as_str(), "5.2.2")
    } else {
        return None;
    };
    let mut ruled = Ruled::new(format!(
        "No claim is needed: the game is already drawn. {}",
        capitalise_first(reason)
    ));
    ruled.deciding.push(article.into());
    ruled.tells_outcome = true;
    if article == "5.2.2" {
        ruled.claim(ask.claim(ClaimSubject::DeadPosition));
    }
    Some(ruled)
}

/// The claims open to the side to move, the move named in the question checked first.
fn claimable(ask: &PositionAsk) -> Ruled {
    let (r, f) = (&ask.report.repetition, &ask.report.fifty_moves);
    let turn = capitalised(ask.game.current().turn());
    let named = ask.tested_move.as_deref();
    let named_uci = named.and_then(|m| named_uci(ask, m));
    let declares = |ucis: &[String]| named_uci.as_ref().is_some_and(|m| ucis.contains(m));
    let mut ruled = if r.threefold_now {
        Ruled::new(format!("Yes, {turn} can claim a draw now: {}", r.reason))
    } else if f.claim_now {
        Ruled::new(format!("Yes, {turn} can claim a draw now: {}", f.reason))
    } else if declares(&r.threefold_by_move) || (named.is_none() && !r.threefold_by_move.is_empty())
    {
        Ruled::new(format!("Yes, {turn} can claim a draw: {}", r.reason))
    } else if declares(&f.claim_by_move) || (named.is_none() && !f.claim_by_move.is_empty()) {
        Ruled::new(format!(
            "Yes, {turn} can claim a draw by writing the next move on the scoresheet: {}",
            f.reason
        ))
    } else if let Some(m) = named.filter(|_| has_declarable(ask)) {
        Ruled::new(format!(
            "Not with {m}: it would complete neither a threefold repetition nor fifty moves. {}",
            sentence(&other_claims(ask))
        ))
    } else {
        Ruled::new(format!(
            "No: {turn} has no draw to claim here. {} {}",
            sentence(&r.reason),
            sentence(&f.reason)
        ))
    };
    ruled.cite(r.articles.iter().copied());
    ruled.cite(f.articles.iter().copied());
    if ruled.deciding.is_empty() {
        ruled
            .deciding
            .push(if r.threefold_now || !r.threefold_by_move.is_empty() {
                "9.2".into()
            } else {
                "9.3".into()
            });
    }
    ruled
}

/// Whether some other move could be declared for a claim.
fn has_declarable(ask: &PositionAsk) -> bool {
    !ask.report.repetition.threefold_by_move.is_empty()
        || !ask.report.fifty_moves.claim_by_move.is_empty()
}

/// The moves that could be declared instead, in words.
fn other_claims(ask: &PositionAsk) -> String {
    let (r, f) = (&ask.report.repetition, &ask.report.fifty_moves);
    if !r.threefold_by_move.is_empty() {
        capitalise_first(&r.reason)
    } else {
        capitalise_first(&f.reason)
    }
}

/// A reason as a sentence of its own: capitalised, with a full stop.
fn sentence(reason: &str) -> String {
    let s = capitalise_first(reason);
    if s.ends_with(['.', '!', '?']) {
        s
    } else {
        format!("{s}.")
    }
}

/// The move a question names, in UCI as the report lists declarable moves; `None` when it is
/// not a legal move here.
fn named_uci(ask: &PositionAsk, text: &str) -> Option<String> {
    let game = &ask.game;
    let m = resolve_move(game.current(), text, game.mode).ok()?;
    Some(uci(m, game.mode))
}
