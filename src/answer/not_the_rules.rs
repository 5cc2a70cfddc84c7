//! "What's the best opening?", "is the Sicilian a good defence?", "who is the best player?":
//! questions about chess that are not about its rules. No ruling answers them, and a ruling
//! found by an incidental word ("queen", "best") would be nonsense, so the answer says what the
//! arbiter rules on instead.

use super::frame::Frame;
use super::from_rulebook::ASK_ABOUT_A_RULE;
use super::{Answer, Arbiter, Basis};

/// Words of a question about openings, strategy, improving or players.
const ABOUT_PLAY: &[&str] = &[
    "best opening",
    "good opening",
    "which opening",
    "what opening",
    "opening for beginners",
    "openings for beginners",
    "learn openings",
    "best first move",
    "good defence",
    "good defense",
    "best defence",
    "best defense",
    "real gambit",
    "sicilian",
    "queen's gambit",
    "ruy lopez",
    "king's indian",
    "french defence",
    "french defense",
    "caro-kann",
    "london system",
    "best player",
    "best chess player",
    "greatest player",
    "greatest chess player",
    "get better at chess",
    "improve at chess",
    "improve my chess",
    "how to win at chess",
    "study chess",
    "best continuation",
];

/// Words asking how the game on the board stands or should be played ("best move", "who is
/// winning?", "fastest mate"): about play with a position given (the position layer's general
/// ruling declines them) and without one.
pub(super) const ABOUT_THE_PLAY_ON_THE_BOARD: &[&str] = &[
    "best move",
    "winning move",
    "who is winning",
    "who's winning",
    "who stands better",
    "who has the advantage",
    "fastest mate",
    "quickest mate",
    "shortest mate",
    "find the mate",
];

/// Words that make a question about the rules after all ("is it legal to play the Sicilian
/// with the clock on the left?").
const ABOUT_RULES: &[&str] = &[
    "legal",
    "allowed",
    "rule",
    "law",
    "arbiter",
    "claim",
    "flag",
    "clock",
    "touch",
    "castl",
    "passant",
    "promot",
    "stalemate",
    "checkmate",
    "penalt",
    "draw",
    "resign",
    "forfeit",
    "illegal",
    "permitted",
    "fide",
    "notation",
    "can't happen",
    "cannot happen",
    "impossible",
];

/// Whether a question is about playing chess well rather than about its rules.
pub fn about_play_not_rules(frame: &Frame) -> bool {
    let lower = &frame.lower;
    let says_any = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    (says_any(ABOUT_PLAY) || says_any(ABOUT_THE_PLAY_ON_THE_BOARD)) && !says_any(ABOUT_RULES)
}

impl Arbiter {
    /// The answer to a question about openings, strategy or players: what is ruled on here.
    pub(super) fn not_the_rules_answer(&self, frame: &Frame) -> Answer {
        let answer = format!(
            "I rule on the Laws of Chess, not on openings, strategy or players, so I cannot answer that. {ASK_ABOUT_A_RULE}"
        );
        Answer::without_position(answer, vec![], frame, Basis::Unknown, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about_play(q: &str) -> bool {
        about_play_not_rules(&Frame::read(q))
    }

    #[test]
    fn questions_about_play_are_told_apart_from_rules_questions() {
        assert!(about_play("What's the best opening for beginners?"));
        assert!(about_play("Is the Sicilian a good defence?"));
        assert!(about_play("is the Queen's Gambit a real gambit?"));
        assert!(about_play("Who is the best chess player of all time?"));
        assert!(about_play("who is winning in this position?"));
        assert!(about_play("what's the fastest mate here?"));
        assert!(!about_play(
            "Is it legal to offer a draw in the Sicilian after move 3?"
        ));
        assert!(!about_play("Can I castle out of check?"));
        assert!(!about_play("What is the best way to claim a draw?"));
    }
}
