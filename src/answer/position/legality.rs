//! A move the question asks about ("Is Nxe5 legal?", "Can I play Ke2 here?"): legal, and what
//! it does, or illegal, and exactly why (3.1–3.10, 7.5).

use super::{PositionAsk, PositionRuling, Ruled};
use crate::answer::claims::ClaimSubject;
use crate::answer::intent::Topic;
use crate::answer::polarity::Permission;

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

/// The opening of the verdict on a move: "Yes." or "No." when the question asks whether the
/// move may be played ("Can I play Kd2?", "Is Kd2 legal?"), the verdict in words otherwise, where a
/// bare "Yes" could answer the opposite question ("Is Kd2 illegal?", "Is the program right to
/// refuse it?").
fn verdict_opening(ask: &PositionAsk, mv: &str, legal: bool) -> String {
    match (Permission::asked_in(&ask.lower), legal) {
        (Some(Permission::MayIt), true) => "Yes.".to_string(),
        (Some(Permission::MayIt), false) => "No.".to_string(),
        (_, true) => format!("{mv} is legal here."),
        (_, false) => format!("{mv} is illegal here."),
    }
}

/// The checker's verdict on one move, with its claim.
pub fn legal_move(ask: &PositionAsk, mv: &str) -> Ruled {
    let mut ruled = match &ask.report.move_check {
        Some(mc) => {
            // A legal move asked about otherwise than "may I…?" has its verdict in words, which
            // the reason already says: "Nxe5 is legal here." before "Nxe5 is legal: the knight
            // …" would say it twice.
            let in_words = Permission::asked_in(&ask.lower) != Some(Permission::MayIt);
            let decision = match &mc.san {
                Some(san) if mc.legal && in_words => mc.reason.replacen(
                    &format!("{san} is legal:"),
                    &format!("{san} is legal here:"),
                    1,
                ),
                _ => format!("{} {}", verdict_opening(ask, mv, mc.legal), mc.reason),
            };
            let mut r = Ruled::new(decision);
            r.cite(mc.articles.iter().cloned());
            r
        }
        None => Ruled::default(),
    };
    ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: mv.to_string() }));
    // An illegal promotion: the legal ones, claimed after the move asked about.
    if ask.report.move_check.as_ref().is_some_and(|mc| !mc.legal) && mv.contains('=') {
        let others = other_promotions(ask, mv);
        if !others.is_empty() {
            ruled.detail.insert(
                0,
                format!(
                    "A promotion is still possible another way: {}.",
                    others.join(" or ")
                ),
            );
        }
        for other in others {
            ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: other }));
        }
    }
    ruled
}

/// The promotions to a queen on another square that are legal when the one asked about is not
/// ("d8=Q is illegal … dxe8=Q is legal"); a piece that may not be chosen (a8=K) is the rule's
/// own answer.
fn other_promotions(ask: &PositionAsk, mv: &str) -> Vec<String> {
    let square = |s: &str| {
        s.split('=')
            .next()
            .map(|m| m[m.len().saturating_sub(2)..].to_string())
    };
    ask.report
        .legal_moves_san
        .iter()
        .filter(|s| s.contains("=Q") && square(s) != square(mv))
        .cloned()
        .collect()
}
