//! Castling begun by touch: which of king and rook was touched first decides (4.4.1–4.4.3).
//! The rook first rules castling with it out and the rook must move; the king first commits
//! to castling on that side if it is legal here, else to another king move. Touch-move binds
//! only the player having the move, so the side ruled on is the side to move.

use shakmaty::{CastlingSide, Color, Position, Role, Square};

use super::castling::wing_words;
use super::{PositionAsk, PositionRuling, Ruled, first_touch, quoted_moves, side_name};
use crate::answer::claims::{ClaimSubject, Side, Wing, castling_status};
use crate::answer::intent::Topic;

pub struct TouchedToCastle;

/// Which of the two pieces the question says was touched first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FirstTouched {
    King,
    Rook,
}

impl PositionRuling for TouchedToCastle {
    fn topic(&self) -> &'static str {
        "touch-move"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::Castling && first_touched(&ask.lower).is_some()
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let side = ask.mover();
        match first_touched(&ask.lower) {
            Some(FirstTouched::Rook) => rook_first(ask, side),
            _ => king_first(ask, side),
        }
    }
}

/// The piece touched first, when the question tells of touching king or rook ("touched his
/// rook first", "touched the king and then the rook", "I touched my king").
fn first_touched(lower: &str) -> Option<FirstTouched> {
    if lower.contains("rook first") {
        return Some(FirstTouched::Rook);
    }
    if lower.contains("king first") {
        return Some(FirstTouched::King);
    }
    let from = first_touch(lower)?;
    let after = &lower[from..];
    match (after.find("rook"), after.find("king")) {
        (Some(r), Some(k)) if r < k => Some(FirstTouched::Rook),
        (Some(_), None) => Some(FirstTouched::Rook),
        (_, Some(_)) => Some(FirstTouched::King),
        (None, None) => None,
    }
}

/// The wings the question can be about: the one it names, else those the side may still
/// castle on (both when it has lost both rights, to say so).
fn wings(ask: &PositionAsk, side: Side) -> Vec<Wing> {
    if let Some(w) = ask.frame.intent.wing {
        return vec![w];
    }
    let kept: Vec<Wing> = [Wing::Kingside, Wing::Queenside]
        .into_iter()
        .filter(|w| castling_status(ask.report, side, *w).right)
        .collect();
    if kept.is_empty() {
        vec![Wing::Kingside, Wing::Queenside]
    } else {
        kept
    }
}

/// The rook touched first: no castling with it; the rook moves if it can.
fn rook_first(ask: &PositionAsk, side: Side) -> Ruled {
    let name = side_name(side);
    let mut ruled = Ruled::new(format!(
        "No: {name} touched the rook first, and a rook touched before the king rules out castling with that rook (4.4.2); the rook must be moved instead."
    ));
    ruled.deciding.extend(["4.4.2".into(), "4.3.1".into()]);
    let rooks: Vec<Square> = match named_rook(ask, side.color()) {
        Some(sq) => vec![sq],
        None => wings(ask, side)
            .into_iter()
            .filter_map(|w| rook_square(ask, side.color(), w.castling_side()))
            .collect(),
    };
    if let [rook] = rooks[..] {
        let moves = moves_from(ask, rook, &mut ruled);
        ruled.detail.push(if moves.is_empty() {
            ruled.deciding.push("4.5".into());
            format!("Here the rook on {rook} has no legal move, so {name} may play any legal move (4.5).")
        } else {
            ruled.marks.push(rook.to_string());
            format!("Here the rook on {rook} can move: {} (4.3.1).", moves.join(", "))
        });
    } else {
        ruled.detail.push(
            "If the rook touched has no legal move, any legal move may be played (4.5).".into(),
        );
    }
    ruled
}

/// The king touched first: castling on that side if it is legal now, else another king move.
fn king_first(ask: &PositionAsk, side: Side) -> Ruled {
    let name = side_name(side);
    let mut ruled = Ruled::default();
    let wings = wings(ask, side);
    for &wing in &wings {
        ruled.claim(ask.claim(ClaimSubject::CastlingLegal { color: side, wing }));
    }
    let legal: Vec<&str> = wings
        .iter()
        .filter(|w| castling_status(ask.report, side, **w).legal)
        .map(|w| wing_words(*w))
        .collect();
    ruled.deciding.extend(["4.4.1".into(), "4.4.3".into()]);
    if !legal.is_empty() {
        ruled.decision = format!(
            "Yes: castling {} is legal here, and touching the king first keeps it open; once the rook is touched too, {name} must castle on that side (4.4.1).",
            legal.join(" or ")
        );
        return ruled;
    }
    let why = wings
        .first()
        .map(|w| first_reason(castling_status(ask.report, side, *w)))
        .unwrap_or_default();
    ruled.decision = format!("No: castling is not legal here: {why}");
    let king = ask.game.current().board().king_of(side.color());
    let moves = king
        .map(|k| moves_from(ask, k, &mut ruled))
        .unwrap_or_default();
    ruled.detail.push(if moves.is_empty() {
        format!("Having touched the king, {name} would have to move it, but it has no legal move, so any legal move may be played (4.4.3, 4.5).")
    } else {
        format!(
            "Having touched the king, {name} must make another legal king move instead (4.4.3): {}.",
            moves.join(", ")
        )
    });
    ruled
}

/// The first reason castling is not legal, its first sentence ("the white king is in check
/// from the black queen on e2: you cannot castle out of check (3.8.2.2).").
fn first_reason(st: &crate::rules::castling::CastlingStatus) -> String {
    let text = st.reasons.first().map_or("", |r| r.text.as_str());
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    let mut sentence = text[..end].to_string();
    if let Some(c) = sentence.get(..1) {
        sentence.replace_range(..1, &c.to_lowercase());
    }
    sentence
}

/// The rook the question names by its square ("my h1 rook", "the rook on a8"), when it
/// names exactly one square holding a rook of this colour.
fn named_rook(ask: &PositionAsk, color: Color) -> Option<Square> {
    let board = ask.game.current().board();
    let mut named = ask
        .lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| w.parse::<Square>().ok())
        .filter(|sq| board.piece_at(*sq) == Some(Role::Rook.of(color)));
    let first = named.next()?;
    named.all(|sq| sq == first).then_some(first)
}

/// The rook that castles on this side: the one the castling right names, or the one on
/// the standard corner when the right is gone.
fn rook_square(ask: &PositionAsk, color: Color, side: CastlingSide) -> Option<Square> {
    let pos = ask.game.current();
    pos.castles().rook(color, side).or_else(|| {
        let corner = match side {
            CastlingSide::KingSide => Square::H1,
            CastlingSide::QueenSide => Square::A1,
        };
        let sq = if color == Color::White {
            corner
        } else {
            corner.flip_vertical()
        };
        (pos.board().piece_at(sq) == Some(Role::Rook.of(color))).then_some(sq)
    })
}

/// The legal moves of the piece on `from`.
fn moves_from(ask: &PositionAsk, from: Square, ruled: &mut Ruled) -> Vec<String> {
    quoted_moves(ask, ruled, usize::MAX, |m| m.from() == Some(from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_of_touching_is_read() {
        let r = Some(FirstTouched::Rook);
        let k = Some(FirstTouched::King);
        assert_eq!(
            first_touched(" i touched my rook first and then my king "),
            r
        );
        assert_eq!(first_touched(" he touched the king and then the rook "), k);
        assert_eq!(first_touched(" he picked up his rook, then his king "), r);
        assert_eq!(
            first_touched(" can i castle if my king was in check? "),
            None
        );
        assert_eq!(first_touched(" i touched my king. can i castle? "), k);
        assert_eq!(first_touched(" i touched my rook. can i still castle? "), r);
    }
}
