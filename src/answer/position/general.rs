//! Everything else asked with a position (touch-move, clocks, conduct…): the state of the
//! position in one sentence — the outcome first when the game is over — then the rulebook's
//! answer; or an honest "I don't know what you are asking" when the question has no rules
//! words at all.

use super::{PositionAsk, PositionRuling, Ruled, outcome_claims};
use crate::answer::claims::ClaimSubject;
use crate::text::capitalise_first;

pub struct General;

impl PositionRuling for General {
    fn topic(&self) -> &'static str {
        "general"
    }

    fn applies(&self, _ask: &PositionAsk) -> bool {
        true
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let r = ask.report;
        let mut ruled = Ruled::default();
        let state = match &r.outcome {
            Some(o) => {
                ruled.deciding.push(o.article.into());
                outcome_claims(ask, &mut ruled);
                ruled.tells_outcome = true;
                format!("The game is already over: {}.", o.explanation)
            }
            None => format!(
                "In this position {} is to move: {}; {} legal moves.",
                capitalise_first(r.turn),
                r.check.reason,
                r.legal_moves.len()
            ),
        };
        ruled.decision = if asks_for_the_best_play(ask) {
            format!(
                "I rule on what the Laws allow, not on which move is best or who stands better. {state} Ask whether a move is legal, or about castling, en passant, check, mate, a draw or the flag."
            )
        } else if ask.domain_words == 0 {
            format!(
                "I don't know what you are asking about this position. {state} Ask about castling, en passant, check, mate, a draw, the flag or a move's legality."
            )
        } else if r.outcome.is_some() {
            // Nothing a rulebook passage adds may read as if the game went on.
            state
        } else if let Some(reading) = ask.reading.get() {
            // The ruling decides; the position's state follows, for the record.
            ruled.deciding.extend(reading.articles.iter().cloned());
            format!("{} {state}", reading.text)
        } else {
            format!(
                "I am not sure what you are asking about this position. {state} Ask about castling, en passant, check, mate, a draw, the flag or a move's legality, or describe what happened at the board."
            )
        };
        for s in [
            ClaimSubject::InCheck,
            ClaimSubject::Checkmate,
            ClaimSubject::Stalemate,
        ] {
            ruled.claim(ask.claim(s));
        }
        ruled
    }
}

/// "What is the best move?", "what should I play?": a question about chess, not its rules.
pub(super) fn asks_for_the_best_play(ask: &PositionAsk) -> bool {
    ask.mentions(super::super::not_the_rules::ABOUT_THE_PLAY_ON_THE_BOARD)
        || ask.mentions(&[
            "what should i play",
            "what move should",
            "good move",
            "strongest move",
            "who is better",
            "who's better",
            "am i winning",
            "is white winning",
            "is black winning",
            "is this winning",
            "evaluate",
            "evaluation",
            "mate in how many",
            "how do i mate",
            "how can i mate",
        ])
}
