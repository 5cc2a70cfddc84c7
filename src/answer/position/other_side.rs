//! A move asked about on a bare position that only the side *not* to move could make ("Is this
//! mate after Ra8?" under a FEN that says Black is to move): the side to move written in the FEN
//! is often a slip. The verdict stays the checker's on the position as given; this says, as a
//! further sentence, what the move would be with the other side to move.

use shakmaty::Position;

use crate::rules::legality::with_side_to_move;
use crate::rules::notation::{resolve_move, san_plus};
use crate::rules::{Game, Report};

/// The sentence on the move with the other side to move, when the position was given without
/// moves (a history fixes whose turn it is), the move was refused only because it is not that
/// side's turn, and with the turn swapped it is legal.
pub fn sentence(game: &Game, report: &Report, tested: Option<&str>) -> Option<String> {
    let tested = tested?;
    if !report.move_refused_as_out_of_turn() || !game.plies.is_empty() {
        return None;
    }
    let pos = game.current();
    let other = pos.turn().other();
    let swapped = with_side_to_move(pos, other, game.mode)?;
    let m = resolve_move(&swapped, tested, game.mode).ok()?;
    let san = san_plus(&swapped, m);
    let mut after = swapped;
    after.play_unchecked(m);
    let side = if other.is_white() { "White" } else { "Black" };
    let what = if after.is_checkmate() {
        "legal and checkmate"
    } else if after.is_stalemate() {
        "legal and stalemate"
    } else if after.is_check() {
        "legal and gives check"
    } else {
        "legal"
    };
    Some(format!(
        "If the side to move in the position given is a slip and it is in fact {side}'s move, {san} is {what}."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::report::{CheckOptions, check};

    fn said(fen: &str, mv: &str) -> Option<String> {
        let game = Game::new(Some(fen)).unwrap();
        let report = check(&game, Some(mv), CheckOptions::default());
        sentence(&game, &report, Some(mv))
    }

    #[test]
    fn the_move_is_judged_with_the_turn_swapped() {
        assert_eq!(
            said("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", "Ra8").as_deref(),
            Some(
                "If the side to move in the position given is a slip and it is in fact White's move, Ra8# is legal and checkmate."
            )
        );
        // Black's own move: nothing to add.
        assert_eq!(said("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", "Kf8"), None);
        // Illegal for either side.
        assert_eq!(said("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", "Rb2b8"), None);
    }
}
