//! "Is a game of exactly 15 minutes rapid or blitz?", "does 10+5 count as blitz?": a time
//! control the question asks to classify, classified by the rule of A.1 and B.1 rather than
//! by the ruling whose example numbers happen to be nearest. "What does 5+2 mean?": a time
//! control the question asks to have explained, read out (6.3.1) and classified the same way.
//! The base time in minutes plus 60 times the increment in seconds (in minutes: base +
//! increment) decides: 10 or less is blitz, more than 10 and less than 60 rapid, 60 or more
//! standard.

use std::sync::LazyLock;

use regex::Regex;

use super::frame::{Frame, GameKind};
use super::{Answer, Arbiter};

/// A time control stated in a question, as classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControlVerdict {
    base_minutes: u32,
    increment_seconds: u32,
    kind: GameKind,
    asked: Asked,
}

/// What the question wants to know about its time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// Which kind of game it makes ("is 10+5 rapid?").
    Kind,
    /// What it means ("what does 5+2 mean?").
    Meaning,
}

/// Words that ask which kind of game something is.
const CLASSIFYING: &[&str] = &[
    "rapid or blitz",
    "blitz or rapid",
    "rapid or standard",
    "standard or rapid",
    "rapid or classical",
    "classical or rapid",
    "blitz or standard",
    "count as",
    "counts as",
    "counted as",
    "considered",
    "classif",
    "categor",
    "qualify as",
    "qualifies as",
    "fall under",
    "falls under",
    "what kind of game",
    "what type of game",
];

/// Words that name a kind of game (or ask for one).
const GAME_KINDS: &[&str] = &[
    "rapid",
    "blitz",
    "standard",
    "classical",
    "bullet",
    "kind of game",
    "type of game",
    "categor",
];

/// A category word asked about directly: "is 15+0 rapid?", "is G/45 a rapid game?".
static IS_CATEGORY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\bis\b[^?.]{0,50}\b(rapid|blitz|standard|classical)(\s+(game|chess|time control))?\s*\?",
    )
    .expect("valid regex")
});

/// What a classifying word may also say of a result, a move or a piece rather than of a time
/// control ("a draw counts as a win for Black", "is that considered an illegal move", "an
/// upside-down rook counts as a queen").
const NOT_A_CLASS: &[&str] = &[
    "a win",
    "a draw",
    "a loss",
    "win",
    "draw",
    "loss",
    "lost",
    "a half",
    "half",
    "an illegal",
    "illegal",
    "legal",
    "a move",
    "touch",
    "resign",
    "a resign",
    "check",
    "stalemate",
    "a queen",
    "queen",
    "a rook",
    "rook",
    "a knight",
    "a bishop",
    "a pawn",
    "a piece",
    "a promotion",
    "a capture",
    "a claim",
    "a warning",
    "a forfeit",
];

/// Whether a classifying word in `q` classifies (not "…counts as a win for Black").
fn classifies(q: &str) -> bool {
    CLASSIFYING.iter().any(|w| {
        q.match_indices(w).any(|(at, _)| {
            let after = q[at + w.len()..].trim_start();
            !NOT_A_CLASS.iter().any(|n| {
                after
                    .strip_prefix(n)
                    .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric))
            })
        })
    })
}

/// Words just before a time control that ask what it means ("what does 5+2…", "what is 3|2?").
const MEANING_BEFORE: &[&str] = &[
    "what does",
    "what do",
    "what is",
    "what's",
    "whats",
    "meaning of",
    "explain",
];

/// Words just after a time control that ask what it means ("5+2 mean?").
const MEANING_AFTER: &[&str] = &["mean", "stand for", "stands for", "signif"];

/// Words anywhere that say the asker cannot read a time control ("I don't know what the 2
/// seconds is").
const NOT_UNDERSTOOD: &[&str] = &[
    "don't know what",
    "do not know what",
    "dont know what",
    "don't understand what",
    "do not understand what",
];

/// A time control: "15+10", "15|10", "5' + 2\"", "15 minutes", "15 min plus 10 seconds", "G/45",
/// "G/30;+5".
static CONTROL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \b(?P<b1>\d{1,3})'?\s?[+|]\s?(?P<i1>\d{1,2})\b
        | \bg\s?/\s?(?P<b2>\d{1,3})\b(?:\s*[;,]?\s*(?:\+|inc(?:rement)?)\s*(?P<i2>\d{1,2})\b)?
        | \b(?P<b3>\d{1,3}|ten|fifteen|twenty|thirty|five|three|sixty|ninety)[\s-]?(?:min(?:ute)?s?|m)\b
          (?:[^.?!\d]{0,30}?(?:\+|plus|and|with|increment\ of)\s*(?:an?\ )?(?:increment\ of\ )?(?P<i3>\d{1,2})\s?(?:s|secs?|seconds?)\b)?",
    )
    .expect("valid regex")
});

/// The base minutes, increment seconds and kind of game of a [`CONTROL`] match.
fn control_of(q: &str, c: &regex::Captures) -> Option<(u32, u32, GameKind)> {
    let group = |names: [&str; 3]| names.iter().find_map(|n| c.name(n));
    let base = crate::text::number(group(["b1", "b2", "b3"])?.as_str())?;
    let increment = match group(["i1", "i2", "i3"]) {
        Some(_) if time_left(q, c) => 0,
        Some(m) => crate::text::number(m.as_str())?,
        None => 0,
    };
    Some((base, increment, GameKind::of_minutes(base + increment)?))
}

/// Seconds written after minutes that are time on a clock, not an increment ("5 minutes, no
/// increment; a player with 40 seconds left"): "no increment" between them, or "left" after.
fn time_left(q: &str, c: &regex::Captures) -> bool {
    let (Some(whole), Some(seconds)) = (c.get(0), c.name("i3")) else {
        return false;
    };
    let between = &q[whole.start()..seconds.start()];
    let after = q[whole.end()..].trim_start();
    [
        "no increment",
        "without increment",
        "without an increment",
        "no delay",
    ]
    .iter()
    .any(|w| between.contains(w))
        || [
            "left",
            "remaining",
            "to go",
            "on the clock",
            "on his clock",
            "on her clock",
            "on my clock",
        ]
        .iter()
        .any(|w| after.starts_with(w))
}

impl TimeControlVerdict {
    /// The verdict when a one-part question asks to classify, or to explain, a time control
    /// it states.
    pub fn read(frame: &Frame) -> Option<TimeControlVerdict> {
        let q = frame.lower.as_str();
        // "Is a two-handed move considered illegal? …2 minutes…" classifies a move, not a
        // time control: a classifying word counts only beside a kind of game.
        let names_a_kind = GAME_KINDS.iter().any(|w| q.contains(w));
        let asks_kind = names_a_kind && classifies(q) || IS_CATEGORY.is_match(q);
        // A second question joined on ("…rapid, and do we have to write the moves?") is left
        // to the rulings, which answer both.
        const JOINED: &[&str] = &[
            ", and ",
            " and do ",
            " and can ",
            " and must ",
            " and is ",
            " also ",
        ];
        if frame.parts.len() != 1 || JOINED.iter().any(|j| q.contains(j)) {
            return None;
        }
        let c = CONTROL.captures(q)?;
        let asked = if asks_kind {
            Asked::Kind
        } else if asks_meaning(q, c.get(0)?.range()) {
            Asked::Meaning
        } else {
            return None;
        };
        let (base, increment, kind) = control_of(q, &c)?;
        Some(TimeControlVerdict {
            base_minutes: base,
            increment_seconds: increment,
            kind,
            asked,
        })
    }

    /// The article that defines the kind of game found.
    fn deciding_article(&self) -> &'static str {
        match self.kind {
            GameKind::Blitz => "B.1",
            GameKind::Rapid | GameKind::Standard => "A.1",
        }
    }

    /// The answer: what the time control means when that was asked, then its kind and the
    /// sum behind it.
    pub fn paragraph(&self) -> String {
        match self.asked {
            Asked::Kind => self.kind_paragraph(),
            Asked::Meaning => format!("{} {}", self.meaning(), self.kind_paragraph()),
        }
    }

    /// What the two numbers give each player (6.3.1).
    fn meaning(&self) -> String {
        let (b, i) = (self.base_minutes, self.increment_seconds);
        if i == 0 {
            format!(
                "It means {b} minutes for each player for the whole game, with no time added per move: whoever runs out of time first loses, unless the opponent could not mate at all (6.3.1, 6.9)."
            )
        } else {
            format!(
                "It means {b} minutes for each player for the whole game, plus an increment: {i} seconds are added to a player's clock for every move he or she makes, from move one, and time saved stays on the clock (6.3.1)."
            )
        }
    }

    /// The kind of game and the sum behind it.
    fn kind_paragraph(&self) -> String {
        let total = self.base_minutes + self.increment_seconds;
        let sum = if self.increment_seconds == 0 {
            format!("{} minutes per player with no increment", self.base_minutes)
        } else {
            format!(
                "{} minutes plus {} seconds a move counts as {} + {} = {total} minutes per player (the increment is counted over 60 moves)",
                self.base_minutes,
                self.increment_seconds,
                self.base_minutes,
                self.increment_seconds
            )
        };
        match self.kind {
            GameKind::Blitz => format!(
                "Blitz: {sum}, and a game of 10 minutes or less per player is blitz (B.1); rapid starts only above 10 minutes (A.1)."
            ),
            GameKind::Rapid => format!(
                "Rapid: {sum}, which is more than 10 and less than 60 minutes, the rapid band (A.1); blitz is 10 minutes or less (B.1)."
            ),
            GameKind::Standard => format!(
                "Standard: {sum}, which is 60 minutes or more, beyond the rapid band of more than 10 and less than 60 minutes (A.1), so the game is played under the standard rules."
            ),
        }
    }
}

/// A note for a question that names a kind of game its own time control is not ("our \"10+5
/// blitz\" night"): under the Laws the time decides (A.1, B.1), and rapid and blitz rules differ,
/// so the answer says which kind the game was. `None` when the kinds agree, when none is named
/// or no time control is stated.
pub fn misnamed_kind(frame: &Frame) -> Option<String> {
    let q = frame.lower.as_str();
    // Only a written time control ("10+5", "G/45", "15 min + 10 s"): "a penalty of 2 minutes"
    // or "40 moves in 90 minutes" is no statement of the game's kind.
    let c = CONTROL
        .captures_iter(q)
        .find(|c| c.name("b1").is_some() || c.name("b2").is_some() || c.name("i3").is_some())?;
    let (base, increment, kind) = control_of(q, &c)?;
    // Named as the game's kind: not "blitzing out moves", "like in blitz", "not a rapid game".
    let named: Vec<GameKind> = super::frame::without_false_setting_cues(q)
        .split(|ch: char| !ch.is_alphabetic())
        .filter_map(|w| match w {
            "blitz" => Some(GameKind::Blitz),
            "rapid" => Some(GameKind::Rapid),
            "standard" | "classical" => Some(GameKind::Standard),
            _ => None,
        })
        .collect();
    if named.is_empty() || named.contains(&kind) {
        return None;
    }
    let verdict = TimeControlVerdict {
        base_minutes: base,
        increment_seconds: increment,
        kind,
        asked: Asked::Kind,
    };
    Some(format!(
        "About the time control: under the Laws the time decides the kind of game. {}",
        verdict.kind_paragraph()
    ))
}

/// Whether the question asks what the time control at `at` means: a word of asking just before
/// it ("what does 5+2…"), of meaning just after it ("…5+2 mean?"), or the asker saying he
/// cannot read it.
fn asks_meaning(q: &str, at: std::ops::Range<usize>) -> bool {
    let before = &q[q.floor_char_boundary(at.start.saturating_sub(16))..at.start];
    let after = &q[at.end..q.ceil_char_boundary((at.end + 16).min(q.len()))];
    MEANING_BEFORE.iter().any(|w| before.contains(w))
        || MEANING_AFTER.iter().any(|w| after.contains(w))
        || NOT_UNDERSTOOD.iter().any(|w| q.contains(w))
}

impl Arbiter {
    /// The answer to a question that asks which kind of game a time control makes, or what it
    /// means.
    pub(super) fn time_control_answer(&self, frame: &Frame) -> Option<Answer> {
        let verdict = TimeControlVerdict::read(frame)?;
        let articles: &[&str] = match verdict.asked {
            Asked::Kind => &[verdict.deciding_article(), "A.1", "B.1"],
            Asked::Meaning => &["6.3.1", verdict.deciding_article(), "A.1", "B.1"],
        };
        Some(self.settled_answer(verdict.paragraph(), articles, frame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(q: &str) -> Option<(u32, u32, GameKind)> {
        TimeControlVerdict::read(&Frame::read(q))
            .map(|v| (v.base_minutes, v.increment_seconds, v.kind))
    }

    #[test]
    fn seconds_left_on_a_clock_are_no_increment() {
        let note = |q: &str| misnamed_kind(&Frame::read(q));
        assert_eq!(
            note(
                "In the blitz section (5 minutes, no increment) a player with 40 seconds left claims a draw."
            ),
            None
        );
        assert_eq!(
            kind("Is 5 minutes with 3 seconds increment blitz or rapid?"),
            Some((5, 3, GameKind::Blitz))
        );
    }

    #[test]
    fn a_result_that_counts_as_a_win_classifies_no_time_control() {
        assert_eq!(
            kind(
                "Armageddon blitz game: White 5 minutes, Black 4 minutes, a draw counts as a win for Black. Black's flag fell against a bare king. Who won?"
            ),
            None
        );
        assert_eq!(
            kind("Does 5 minutes count as blitz?"),
            Some((5, 0, GameKind::Blitz))
        );
        assert_eq!(
            kind(
                "Rapid game, 15+5: she put an upside-down rook on b1, said 'queen' and pressed the clock; at her club it counts as a queen. Is that right?"
            ),
            None
        );
    }

    #[test]
    fn a_kind_of_game_the_time_control_is_not_is_pointed_out() {
        let note = |q: &str| misnamed_kind(&Frame::read(q));
        let n = note("Our club runs a 10+5 blitz night. My opponent made an illegal move and the TD gave me the win. What should the penalty have been?").unwrap();
        assert!(n.contains("Rapid: 10 minutes plus 5 seconds"), "{n}");
        assert_eq!(
            note("In a 3+2 blitz game my opponent made an illegal move."),
            None
        );
        assert_eq!(note("In blitz my opponent made an illegal move."), None);
        assert_eq!(note("90+30 game, he was blitzing out moves."), None);
        assert_eq!(
            note("90+30 game. He said the illegal move stands like in blitz."),
            None
        );
        assert_eq!(
            note("Rapid chess: the arbiter added 1 minute to Black."),
            None
        );
    }

    #[test]
    fn time_controls_asked_about_are_classified() {
        use GameKind::*;
        assert_eq!(
            kind("is a game of precisely 15 minutes considered as rapid or blitz?"),
            Some((15, 0, Rapid))
        );
        assert_eq!(kind("Is 10+0 blitz or rapid?"), Some((10, 0, Blitz)));
        assert_eq!(
            kind(
                "Not sure using two hands is considered illegal move. Penalty could be adding 2 minutes to opponents clock."
            ),
            None
        );
        assert_eq!(kind("does 10+5 count as blitz?"), Some((10, 5, Rapid)));
        assert_eq!(kind("is 3|2 blitz?"), Some((3, 2, Blitz)));
        assert_eq!(kind("Is G/45 a rapid game?"), Some((45, 0, Rapid)));
        assert_eq!(
            kind("is 30 minutes plus 30 seconds increment rapid?"),
            Some((30, 30, Standard))
        );
        assert_eq!(
            kind("is ten minutes no increment blitz or rapid?"),
            Some((10, 0, Blitz))
        );
        assert_eq!(
            kind("Is 60 minutes each rapid or standard?"),
            Some((60, 0, Standard))
        );
    }

    #[test]
    fn time_controls_asked_to_be_explained_are_read_out() {
        for (q, expected) in [
            ("what does 5+2 mean in chess?", (5, 2)),
            ("what is 3+2?", (3, 2)),
            (
                "Like this example (5' + 2\"), I understand minutes and seconds but I don't know what the 2 seconds is.",
                (5, 2),
            ),
            ("What does G/45 stand for?", (45, 0)),
        ] {
            let v = TimeControlVerdict::read(&Frame::read(q)).expect(q);
            assert_eq!(
                (v.base_minutes, v.increment_seconds, v.asked),
                (expected.0, expected.1, Asked::Meaning),
                "{q}"
            );
            assert!(v.paragraph().starts_with("It means"), "{q}");
        }
        assert_eq!(
            kind("what is the penalty if my flag falls in a 5+0 game?"),
            None
        );
    }

    #[test]
    fn time_controls_merely_mentioned_are_not() {
        for q in [
            "In a 10+5 game I repeated the position and my opponent claimed a draw. Who is right?",
            "I had 15 minutes left and my opponent offered a draw. Can I think about it?",
            "what counts as rapid?",
            "is 15+10 rapid, and do I have to keep score?",
            "We play 25 minutes each. Does that count as rapid and do we have to write the moves?",
        ] {
            assert_eq!(kind(q), None, "{q}");
        }
    }
}
