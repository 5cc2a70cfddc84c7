//! "Was that legal?" about a move already played: the last move of the history, or the one the
//! question names. Every move given is checked as it is replayed (an illegal one is refused,
//! naming its ply), so a move in the history was legal; the answer says what it did and which
//! rule governs it.

use super::{PositionAsk, PositionRuling, Ruled};
use crate::answer::intent::Topic;
use crate::rules::report::{article_for_move, describe_legal_move};

pub struct LastMove;

/// Questions about a move in the past tense.
const WAS_IT_LEGAL: &[&str] = &[
    "was that legal",
    "was it legal",
    "was this legal",
    "was the move legal",
    "was his move legal",
    "was her move legal",
    "was my move legal",
    "was that allowed",
    "was it allowed",
    "was this allowed",
    "is that allowed?",
    "was that a legal move",
    "was it a legal move",
    "was that ok",
    "was that okay",
    "was that fine",
    "is that legal?",
    "is this legal?",
    "just castle legally",
    "did he castle legally",
    "did she castle legally",
    "did white castle legally",
    "did black castle legally",
    "castled legally",
    "was the castling legal",
    "was castling legal",
    "was his castling legal",
    "was my castling legal",
];

/// The same question asked the other way round: the answer is then "No".
const WAS_IT_ILLEGAL: &[&str] = &[
    "was that illegal",
    "was it illegal",
    "was this illegal",
    "was illegal, was it",
    "was the move illegal",
    "was his move illegal",
    "was my move illegal",
    "isn't that illegal",
    "isn't it illegal",
    "isn't this illegal",
    "wasn't that illegal",
    "wasn't it illegal",
    "is that not illegal",
    "was that not illegal",
    "move was illegal",
    "move is illegal",
];

/// The history index of the move asked about: one the question names, else the last.
fn asked_ply(ask: &PositionAsk) -> Option<usize> {
    ask.played
        .moves
        .iter()
        .rev()
        .find_map(|m| m.ply)
        .or_else(|| ask.game.plies.len().checked_sub(1))
}

impl PositionRuling for LastMove {
    fn topic(&self) -> &'static str {
        "move_legality"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        // "Was that legal?", or "I played e8=N+. Is it legal?" about a move of the history.
        let named_played = ask.played.moves.iter().any(|m| m.ply.is_some())
            && match ask.topic {
                Topic::General | Topic::Promotion => true,
                // "Was my en passant capture 11...exd3 legal?": a move the question names, not
                // a game it quotes from move 1.
                Topic::EnPassant | Topic::MoveLegality | Topic::Castling => ask
                    .played
                    .moves
                    .iter()
                    .any(|m| m.ply.is_some() && m.questioned),
                _ => false,
            }
            && ask.mentions(&["legal", "allowed"]);
        ask.tested_move.is_none()
            && !ask.game.plies.is_empty()
            && (ask.mentions(WAS_IT_LEGAL) || ask.mentions(WAS_IT_ILLEGAL) || named_played)
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let Some(i) = asked_ply(ask) else {
            return Ruled::default();
        };
        let ply = &ask.game.plies[i];
        let before = ask
            .game
            .positions()
            .nth(i)
            .expect("a position before every ply");
        let yes = if ask.mentions(WAS_IT_ILLEGAL) && !ask.mentions(WAS_IT_LEGAL) {
            "No"
        } else {
            "Yes"
        };
        let mut ruled = Ruled::new(format!(
            "{yes}: {} {} was a legal move — {}.",
            ply.number,
            ply.san,
            describe_legal_move(before, ply.m)
        ));
        ruled.detail.push(
            "Every move given is checked as it is replayed, and an illegal one would have been refused with its reason (7.5)."
                .into(),
        );
        ruled.deciding.push(article_for_move(ply.m).into());
        ruled.marks.push(ply.m.to().to_string());
        ruled
    }
}
