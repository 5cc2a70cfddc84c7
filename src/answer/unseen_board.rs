//! "Is this mate?", "can I castle here?", "was that move legal?" asked without a position: the
//! question points at a board the asker has not given, so no ruling can decide it. The answer
//! says so first, asks for the position, and states the rule the checker would apply.

use super::frame::Frame;
use super::intent::Topic;
use super::{Answer, Arbiter};

/// Words that point at a board in front of the asker.
const POINTING: &[&str] = &[
    " this?",
    " this ",
    " here",
    " that move?",
    " that move ",
    " that move.",
    " that move,",
    " that legal",
    " this position",
    " it mate",
    " it stalemate",
    " it checkmate",
];

/// Words of a story: someone did something, and the question is what follows from it.
const TELLING: &[&str] = &[
    " he ",
    " she ",
    " they ",
    "opponent",
    "what now",
    "what happens",
    " did ",
    "ed here",
];

/// Words that state the case asked about ("is it stalemate if I can only move my pawn?"):
/// the question is about a rule, not about a board in front of the asker.
const CONDITION: &[&str] = &[" if ", " when ", " whenever ", " unless "];

/// Longest question read as pointing at a board (in words): a longer one tells a story the
/// rulings answer ("he castled through check here, what now?").
const MAX_WORDS: usize = 10;

/// Whether a question asked without a position is about the position on the asker's board.
pub fn points_at_unseen_board(frame: &Frame) -> bool {
    defining_article(frame.intent.topic).is_some()
        && frame.lower.split_whitespace().count() <= MAX_WORDS
        && (POINTING.iter().any(|w| frame.lower.contains(w)) || names_a_move(frame))
        && !TELLING.iter().any(|w| frame.lower.contains(w))
        && !CONDITION.iter().any(|w| frame.lower.contains(w))
}

/// A move written in notation with a piece letter or a capture ("Is Bb5 legal?", "Is Qxf7
/// mate?"), asked about its legality, a check or a mate: only the board it is played on can
/// decide it.
fn names_a_move(frame: &Frame) -> bool {
    // Notation asked about, or a position the question names ("at the start"), is no board
    // left unseen; a promotion's choice is a rule of its own (a8=K is never legal).
    const NOT_A_BOARD: &[&str] = &[
        "write",
        "written",
        "notation",
        "algebraic",
        "start",
        "disambig",
    ];
    matches!(
        frame.intent.topic,
        Topic::MoveLegality | Topic::Checkmate | Topic::Check | Topic::EnPassant
    ) && !NOT_A_BOARD.iter().any(|w| frame.lower.contains(w))
        && frame.intent.mv.as_deref().is_some_and(|m| {
            !m.contains('=') && (m.starts_with(['K', 'Q', 'R', 'B', 'N']) || m.contains('x'))
        })
}

/// The article that states what the checker would test for a topic.
fn defining_article(topic: Topic) -> Option<&'static str> {
    Some(match topic {
        Topic::Castling => "3.8.2",
        Topic::EnPassant => "3.7.3.1",
        Topic::Promotion => "3.7.3.3",
        Topic::MoveLegality => "3.10.1",
        Topic::Checkmate => "1.4.1",
        Topic::Stalemate => "5.2.1",
        Topic::Check => "3.9.1",
        Topic::DeadPosition => "5.2.2",
        Topic::Repetition => "9.2.2",
        Topic::FiftyMoves => "9.3",
        Topic::DrawClaim => "9.2.2",
        Topic::Flag | Topic::Resignation | Topic::General => return None,
    })
}

impl Arbiter {
    /// The answer to a question about a board that was not given.
    pub(super) fn unseen_board_answer(&self, frame: &Frame) -> Option<Answer> {
        let article = defining_article(frame.intent.topic)?;
        let passage = self.book.article(article)?;
        let rule = self.paragraph(passage, frame.kind, false);
        let answer = format!(
            "That depends on the position, which I cannot see: give it as FEN or PGN, or the moves played, and the rules checker will decide it.\n\nThe rule it applies: {rule}"
        );
        Some(self.settled_answer(answer, &[article], frame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_questions_about_the_board_in_front_of_the_asker() {
        for q in [
            "Is this mate?",
            "can I castle here?",
            "is this stalemate",
            "En passant here?",
            "Is Bb5 legal?",
            "Is Qxf7 mate?",
            "Can I take exd6 en passant?",
        ] {
            assert!(points_at_unseen_board(&Frame::read(q)), "{q}");
        }
        for q in [
            "he castled through check here, what now?",
            "Is it checkmate if the king cannot move but is not in check?",
            "My opponent says this is stalemate. Is he right?",
            "Can I castle if my rook is attacked?",
            "is it stalemate if I can only move my pawn",
            "can you en passant a pawn that moved one square",
            "can you castle with the rook that moved back",
            // Notation, a promotion's choice and a named position are no unseen board.
            "e8=Q how do i write promotion",
            "Is a8=K a legal move?",
            "Is Nf3 legal in the starting position?",
        ] {
            assert!(!points_at_unseen_board(&Frame::read(q)), "{q}");
        }
    }
}
