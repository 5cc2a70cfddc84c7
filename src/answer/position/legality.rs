//! A move the question asks about ("Is Nxe5 legal?", "Can I play Ke2 here?"): legal, and what
//! it does, or illegal, and exactly why (3.1–3.10, 7.5).

use super::{PositionAsk, PositionRuling, Ruled};
use crate::answer::claims::ClaimSubject;
use crate::answer::intent::Topic;

pub struct Legality;

impl PositionRuling for Legality {
    fn topic(&self) -> &'static str {
        "move_legality"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.tested_move.is_some() && matches!(ask.topic, Topic::MoveLegality | Topic::General)
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let mv = ask.tested_move.clone().unwrap_or_default();
        legal_move(ask, &mv)
    }
}

/// Words that ask whether a move is wrong rather than whether it may be played ("Is Kd2
/// illegal?", "Is the program correct to refuse it?"): a bare "Yes" or "No" would answer the
/// opposite question, so the verdict is said in words.
const ASKED_THE_OTHER_WAY: &[&str] = &[
    "illegal",
    "not legal",
    "not allowed",
    "forbidden",
    "against the rules",
    "correct",
    "right",
    "wrong",
    "bug",
    "cheat",
];

/// The opening of the verdict on a move: "Yes." or "No." when the question asks whether the
/// move may be played, the verdict in words otherwise.
fn verdict_opening(ask: &PositionAsk, mv: &str, legal: bool) -> String {
    let other_way = ASKED_THE_OTHER_WAY.iter().any(|w| ask.lower.contains(w));
    match (other_way, legal) {
        (false, true) => "Yes.".to_string(),
        (false, false) => "No.".to_string(),
        (true, true) => format!("{mv} is legal here."),
        (true, false) => format!("{mv} is illegal here."),
    }
}

/// The checker's verdict on one move, with its claim.
pub fn legal_move(ask: &PositionAsk, mv: &str) -> Ruled {
    let mut ruled = match &ask.report.move_check {
        Some(mc) => {
            let mut r = Ruled::new(format!(
                "{} {}",
                verdict_opening(ask, mv, mc.legal),
                mc.reason
            ));
            r.cite(mc.articles.iter().cloned());
            r
        }
        None => Ruled::default(),
    };
    ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: mv.to_string() }));
    ruled
}
