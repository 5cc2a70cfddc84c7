//! The fifty-move rule: a claim now (9.3.2) or by writing a move on the scoresheet that
//! completes the fifty moves (9.3.1), and the automatic draw at seventy-five (9.6.2).

use shakmaty::Position;

use super::{PositionAsk, PositionRuling, Ruled, ended_by_mate_or_stalemate, side_name};
use crate::answer::actors::subject;
use crate::answer::claims::ClaimSubject;
use crate::answer::intent::Topic;
use crate::rules::describe::capitalised;
use crate::text::capitalise_first;

pub struct FiftyMoves;

impl PositionRuling for FiftyMoves {
    fn topic(&self) -> &'static str {
        "fifty_moves"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::FiftyMoves
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        if let Some(r) = ended_by_mate_or_stalemate(
            ask,
            "any move-count rule is applied; a mate stands even when it comes on the seventy-fifth move (9.6.2)",
            ClaimSubject::SeventyFive,
        ) {
            return r;
        }
        let f = &ask.report.fifty_moves;
        let turn = capitalised(ask.game.current().turn());
        let seventy_five_asked = ask.mentions(&["seventy", "75"]);
        let mut ruled = Ruled::new(if f.seventy_five && ask.asks_to_play_on() {
            format!("No, the game is over: {}", f.reason)
        } else if f.seventy_five {
            format!("Yes, the game is already drawn: {}", f.reason)
        } else if seventy_five_asked {
            format!(
                "No, not yet: after {} half-moves without a capture or pawn move the game ends by itself only at 150 (seventy-five moves each, 9.6.2). {}",
                f.halfmove_clock,
                capitalise_first(&f.reason)
            )
        } else if f.claim_now {
            format!("Yes, {turn} can claim a draw now: {}", f.reason)
        } else if !f.claim_by_move.is_empty() {
            format!(
                "Yes, {turn} can claim a draw by writing the next move on the scoresheet: {}",
                f.reason
            )
        } else {
            format!("No fifty-move claim is available now: {}", f.reason)
        });
        ruled.tells_outcome = f.seventy_five;
        ruled.claim(ask.claim(ClaimSubject::FiftyMoveClaim));
        ruled.claim(ask.claim(ClaimSubject::SeventyFive));
        ruled.cite(f.articles.iter().copied());
        let asked = subject(&ask.lower, &["claim", "fifty", "50"])
            .map(|a| ask.actors.side_or_mover(Some(&a)));
        if !f.seventy_five
            && let Some(mate) = ask.report.legal_moves_san.iter().find(|m| m.ends_with('#'))
        {
            // The claim is a right, not an end: a mate on the board is worth more to the mover.
            ruled.detail.push(format!(
                "Nothing ends the game until someone claims: {turn} can instead play {mate}, which is checkmate and wins at once (5.1.1)."
            ));
            ruled.cite(["5.1.1"]);
        }
        if asked.is_some_and(|s| s != ask.mover()) && !f.seventy_five {
            ruled.detail.push(format!(
                "Only the player whose turn it is can claim (9.3); here that is {}.",
                side_name(ask.mover())
            ));
        }
        ruled
    }
}
