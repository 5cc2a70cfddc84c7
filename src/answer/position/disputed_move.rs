//! "Did I lose? I castled and he said it was illegal": the question comes with a history whose
//! last move is illegal. Instead of refusing the history, the game is ruled on in the position
//! before that move: the move is named illegal with the checker's reason, and the answer says
//! what follows at the board — the position restored, the penalty, and that only a second
//! completed illegal move loses (7.5.1, 7.5.5, A.3, A.5.2).

use super::{PositionAsk, PositionRuling, Ruled, sentence};
use crate::answer::claims::ClaimSubject;
use crate::rulebook::Setting;
use crate::text::capitalise_first;

pub struct DisputedMove;

/// Words of a question about a disputed move ("was it illegal?", "do I win?", "what does the
/// arbiter do?"). Without them ("Can I castle?"), a history ending in an illegal move is more
/// likely a slip in typing it, and is refused with its reason.
const DISPUTE_WORDS: &[&str] = &[
    "illegal",
    "legal",
    "allowed",
    "claim",
    "penalt",
    "lose",
    "lost",
    "win",
    "won",
    "arbiter",
    " td",
    "director",
    "what now",
    "what happens",
    "take back",
    "takeback",
    "valid",
    "correct",
    "right?",
    "ok?",
    "okay?",
    "fair",
];

/// Whether the question is about a move in dispute.
pub fn asks_about_a_dispute(question: &str) -> bool {
    let lower = question.to_lowercase();
    DISPUTE_WORDS.iter().any(|w| lower.contains(w))
}

impl PositionRuling for DisputedMove {
    fn topic(&self) -> &'static str {
        "illegal_move"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.disputed.is_some()
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let mv = ask.disputed.clone().unwrap_or_default();
        // The checker's reason names the move: "O-O is not allowed: White has no right …".
        let verdict = match &ask.report.move_check {
            Some(mc) if !mc.legal => mc.reason.clone(),
            _ => format!("{mv} is not a legal move in this position"),
        };
        if ask.report.checkmate || ask.report.stalemate {
            return after_the_end(ask, &mv, &verdict);
        }
        let mut ruled = if ask.asks_result() {
            let mut r = Ruled::new("A first illegal move does not lose the game.");
            r.detail.push(sentence(&verdict));
            r
        } else {
            Ruled::new(sentence(&verdict))
        };
        ruled.detail.push(capitalise_first(&consequence(ask)));
        ruled.detail.push(claim_deadline(ask).into());
        if let Some(mc) = &ask.report.move_check {
            ruled.cite(mc.articles.iter().cloned());
        }
        ruled.cite(["7.5.1", "7.5.5"]);
        ruled.claim(ask.claim(ClaimSubject::LegalMove { mv }));
        ruled
    }
}

/// A move disputed after a checkmate or stalemate: the game had already ended, so the move
/// does not count (and is illegal anyway).
fn after_the_end(ask: &PositionAsk, mv: &str, verdict: &str) -> Ruled {
    let (article, subject) = if ask.report.checkmate {
        ("5.1.1", ClaimSubject::Checkmate)
    } else {
        ("5.2.1", ClaimSubject::Stalemate)
    };
    let mut ruled = Ruled::new(format!(
        "The game was already over before {mv}: {}. Nothing played after the end of the game counts, and {mv} was illegal anyway",
        ask.report.check.reason
    ));
    ruled.detail.push(sentence(verdict));
    ruled.tells_outcome = true;
    if let Some(mc) = &ask.report.move_check {
        ruled.cite(mc.articles.iter().cloned());
    }
    ruled.deciding.insert(0, article.to_string());
    ruled.claim(ask.claim(subject));
    ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: mv.to_string() }));
    ruled
}

/// What follows an illegal move completed by pressing the clock, in the question's setting.
fn consequence(ask: &PositionAsk) -> String {
    let quick = quick_play(ask);
    let minutes = if quick {
        "one extra minute (A.3)"
    } else {
        "two extra minutes (one in rapid and blitz, A.3)"
    };
    format!(
        "once it is completed by pressing the clock, the position before it is restored and the player must make a legal move instead, touch-move applying to the piece moved (7.5.1, 4.3); the opponent gets {minutes}, and only a second completed illegal move by the same player loses the game, unless the opponent could not mate by any series of legal moves (7.5.5)."
    )
}

/// When the illegal move can still be put right.
fn claim_deadline(ask: &PositionAsk) -> &'static str {
    if quick_play(ask) {
        "In rapid and blitz without full supervision, it must be claimed before the opponent makes his or her next move; after that it stands (A.5.2)."
    } else {
        "In a standard game it is corrected whenever it is found during the game (7.5.1); in rapid and blitz without full supervision, only if claimed before the opponent's next move (A.5.2)."
    }
}

fn quick_play(ask: &PositionAsk) -> bool {
    ask.frame
        .settings
        .iter()
        .any(|s| matches!(s, Setting::Rapid | Setting::Blitz))
}
