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

/// The checker's verdict on one move, with its claim.
pub fn legal_move(ask: &PositionAsk, mv: &str) -> Ruled {
    let mut ruled = match &ask.report.move_check {
        Some(mc) => {
            let mut r = Ruled::new(if mc.legal {
                format!("Yes. {}", mc.reason)
            } else {
                format!("No. {}", mc.reason)
            });
            r.cite(mc.articles.iter().cloned());
            r
        }
        None => Ruled::default(),
    };
    ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: mv.to_string() }));
    ruled
}
