//! One of one's own pieces touched ("I touched my knight, what must I do?"), or two in turn ("he
//! touched his bishop and then moved his knight"): the first piece touched that can legally move
//! must be moved (4.3.1), checked on the board for the side to move — touch-move binds only the
//! player having the move.
//! Castling (king and rook) is [`super::touched_to_castle`]'s.

use shakmaty::Role;

use super::{PositionAsk, PositionRuling, Ruled, first_touch, quoted_moves, side_name};
use crate::answer::actors::{PieceKind, piece_word};
use crate::answer::intent::Topic;

pub struct TouchOrder;

/// Words that make the second piece the opponent's or the story a capture (4.3.2, 4.3.3).
const OTHER_CASES: &[&str] = &[
    "capture",
    "take ",
    "took ",
    "opponent's piece",
    "his piece",
    "my piece",
    // Contact that does not bind (4.2.1, 4.2.2).
    "accident",
    "by mistake",
    "brushed",
    "adjust",
    "j'adoube",
];

impl PositionRuling for TouchOrder {
    fn topic(&self) -> &'static str {
        "touch-move"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.tested_move.is_none()
            && ask.topic == Topic::General
            && !ask.mentions(OTHER_CASES)
            && touched_in_turn(&ask.lower).is_some()
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let mut ruled = Ruled::default();
        if let Some((first, second)) = touched_in_turn(&ask.lower) {
            decide(ask, first, second, &mut ruled);
        }
        ruled.detail.push("The opponent must claim before deliberately touching a piece himself; after that the breach can no longer be claimed (4.8).".into());
        ruled
    }
}

/// The piece that must move, checked on the board.
fn decide(ask: &PositionAsk, first: PieceKind, second: Option<PieceKind>, ruled: &mut Ruled) {
    let name = side_name(ask.mover());
    ruled.deciding.extend(["4.3.1".into(), "4.8".into()]);
    let first_moves = moves_of(ask, first.role(), ruled);
    let first_name = kind_name(first);
    ruled.decision = match (second, first_moves.is_empty()) {
        (None, false) => format!(
            "{name} must move the {first_name}: a piece of one's own deliberately touched must be moved if it can legally move (4.3.1), and here it can: {}.",
            first_moves.join(", ")
        ),
        (None, true) => {
            ruled.deciding.push("4.5".into());
            format!(
                "{name} may play any legal move: a deliberately touched piece must be moved only if it can be (4.3.1), and here {name}'s {first_name} has no legal move (4.5)."
            )
        }
        (Some(_), false) => format!(
            "{name} must move the {first_name}: of several of one's own pieces touched, the first one touched that can legally move must be moved (4.3.1), and here {name}'s {first_name} can: {}.",
            first_moves.join(", ")
        ),
        (Some(second), true) => second_in_turn(ask, name, first_name, second, ruled),
    };
}

/// The decision when the first piece touched has no legal move: the second must move if it
/// can, else any legal move is free.
fn second_in_turn(
    ask: &PositionAsk,
    name: &str,
    first_name: &str,
    second: PieceKind,
    ruled: &mut Ruled,
) -> String {
    let second_name = kind_name(second);
    let second_moves = moves_of(ask, second.role(), ruled);
    if second_moves.is_empty() {
        ruled.deciding.push("4.5".into());
        format!(
            "{name} may play any legal move: here neither the {first_name} nor the {second_name} can legally move, so touching them binds to nothing (4.5)."
        )
    } else {
        format!(
            "{name} must move the {second_name}: the {first_name}, touched first, has no legal move here, so the duty passes to the next piece touched that can move (4.3.1): {}.",
            second_moves.join(", ")
        )
    }
}

/// The first kind of piece named after a touching verb, and the next different kind if any, in
/// that order.
fn touched_in_turn(lower: &str) -> Option<(PieceKind, Option<PieceKind>)> {
    let from = first_touch(lower)?;
    let mut kinds = lower[from..]
        .split(|c: char| !c.is_ascii_alphabetic() && c != '\'')
        .filter_map(piece_word);
    let first = kinds.next()?;
    let second = kinds.find(|k| *k != first);
    Some((first, second))
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "king",
        PieceKind::Queen => "queen",
        PieceKind::Rook => "rook",
        PieceKind::Bishop => "bishop",
        PieceKind::Knight => "knight",
        PieceKind::Pawn => "pawn",
    }
}

/// The legal moves of the side to move's pieces of this kind (at most six quoted).
fn moves_of(ask: &PositionAsk, role: Role, ruled: &mut Ruled) -> Vec<String> {
    quoted_moves(ask, ruled, 6, |m| m.role() == role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_read_in_the_order_touched() {
        assert_eq!(
            touched_in_turn(" my opponent touched his bishop and then moved his knight "),
            Some((PieceKind::Bishop, Some(PieceKind::Knight)))
        );
        assert_eq!(
            touched_in_turn(" he touched the knight, then the bishop, then the knight again "),
            Some((PieceKind::Knight, Some(PieceKind::Bishop)))
        );
        assert_eq!(
            touched_in_turn(" he touched his bishop. is that touch-move? "),
            Some((PieceKind::Bishop, None))
        );
        assert_eq!(touched_in_turn(" my knight and bishop are pinned "), None);
    }
}
