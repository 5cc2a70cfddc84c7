//! "The TD put it back and gave him a minute. Was the TD right?" The asker wants a verdict on a
//! decision, not the rule alone. The question names whom it asks about; what that person is
//! reported to have done is read from the clauses that person opens; a ruling that lists the
//! words of right and wrong decisions (`right-if:` / `wrong-if:`) then judges it, and the answer
//! opens with the verdict ("The TD was right.").

use std::sync::LazyLock;

use regex::Regex;

use super::polarity::{NAMED_PERSON_IS_RIGHT, asks_whether_someone_is_right};
use crate::rulebook::{Judgement, RulingMeta, says};

/// Whom a question asks to be judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Judged {
    /// The arbiter, whatever the question calls him or her ("the TD", "the DOP").
    Arbiter(&'static str),
    He,
    She,
    They,
    /// The asker ("Was I correct?").
    Asker,
    /// "Is my opponent right?"
    Opponent,
}

/// The words by which a story refers to the arbiter, and how the answer names each.
const ARBITER_WORDS: &[(&str, &str)] = &[
    ("arbiter", "the arbiter"),
    ("arbitor", "the arbiter"),
    ("td", "the TD"),
    ("director", "the director"),
    ("dop", "the arbiter"),
    ("referee", "the referee"),
    ("organiser", "the organiser"),
    ("organizer", "the organizer"),
    ("captain", "the captain"),
];

/// Whether a question asks whether someone is right ("Was the arbiter right?", "Is that
/// true?"), and, when it names whom it asks about, the decision it reports: read once per
/// question, for every paragraph of the answer.
pub struct JudgementAsked {
    /// A ruling's bare "Yes"/"No" answers its own heading, and would read as a verdict on the
    /// decision: the answer says the ruling without it.
    pub about_a_decision: bool,
    pub judged: Option<JudgedDecision>,
}

impl JudgementAsked {
    pub fn read(lower: &str) -> JudgementAsked {
        let about_a_decision = asks_whether_someone_is_right(lower);
        JudgementAsked {
            about_a_decision,
            judged: about_a_decision
                .then(|| JudgedDecision::read(lower))
                .flatten(),
        }
    }
}

/// A decision the question reports and asks to be judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgedDecision {
    judged: Judged,
    /// Whether the question asks in the past ("was", "were").
    past: bool,
    /// The clauses of the story that the judged person opens, lower case.
    reported: String,
}

impl JudgedDecision {
    /// Reads "Was the arbiter right?", "Is the DOP correct in his decision?", "Was I correct?"
    /// from a lower-cased question; `None` when the question asks no such thing or names
    /// nobody ("Who is right?").
    pub fn read(lower: &str) -> Option<JudgedDecision> {
        JudgedDecision::named(lower).or_else(|| JudgedDecision::the_arbiters(lower))
    }

    /// "Was the TD right?": the person is named.
    fn named(lower: &str) -> Option<JudgedDecision> {
        static ASKS: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(NAMED_PERSON_IS_RIGHT).expect("valid regex"));
        let asks = ASKS.captures(lower)?;
        let word = asks.name("who").or_else(|| asks.name("who2"))?.as_str();
        let verb = asks.name("verb").or_else(|| asks.name("verb2"))?.as_str();
        let story = &lower[..asks.get(0)?.start()];
        let judged = match word {
            // "TD Immelt denied the draw. Was he wrong?": "he" is the arbiter the sentence
            // before names.
            "he" | "she" => match arbiter_in_last_sentence(story) {
                Some(name) => Judged::Arbiter(name),
                None if word == "he" => Judged::He,
                None => Judged::She,
            },
            "they" => Judged::They,
            "i" => Judged::Asker,
            "my opponent" => Judged::Opponent,
            _ => Judged::Arbiter(ARBITER_WORDS.iter().find(|(w, _)| *w == word)?.1),
        };
        Some(JudgedDecision {
            judged,
            past: matches!(verb, "was" | "were"),
            reported: clauses_opened_by(story, judged),
        })
    }

    /// "… but the TD put it back and gave him a minute. Is that correct?", "Who is right?",
    /// "… and the TD made me move the bishop. Fair?":
    /// the decision judged is the arbiter's, when the story reports one.
    fn the_arbiters(lower: &str) -> Option<JudgedDecision> {
        static ASKS: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"\b(is|was)\s+(that|this|it)\s+(right|correct|fair)\b|\bwho(\s+is|'s|\s+was)\s+right\b|(^|[.!?;:]\s*)(fair|correct|right)\s*\?")
                .expect("valid regex")
        });
        let story = &lower[..ASKS.find(lower)?.start()];
        let (_, name) = ARBITER_WORDS
            .iter()
            .filter_map(|(w, name)| Some((last_whole_word(story, w)?, *name)))
            .max_by_key(|(at, _)| *at)?;
        let judged = Judged::Arbiter(name);
        Some(JudgedDecision {
            judged,
            past: true,
            reported: clauses_opened_by(story, judged),
        })
    }

    /// How `meta` judges the reported decision: `None` when the ruling lists no words of
    /// decisions, or the story says words of both kinds, or of neither.
    pub fn verdict(&self, meta: &RulingMeta) -> Option<Judgement> {
        let said = |kind: Judgement| {
            meta.judged
                .iter()
                .filter(|(k, _)| *k == kind)
                .any(|(_, phrases)| phrases.iter().any(|p| says(&self.reported, p)))
        };
        verdict_of(said(Judgement::Right), said(Judgement::Wrong))
    }

    /// How the result the Laws give judges the reported decision: a draw is right when the
    /// decision the story reports is a draw, and wrong when it is a win or a loss; a decisive
    /// result the other way round.
    pub fn verdict_on_result(&self, drawn: bool) -> Option<Judgement> {
        const DRAW: &[&str] = &[
            "draw",
            "drawn",
            "half a point",
            "split the point",
            "1/2-1/2",
            "½-½",
        ];
        const DECISIVE: &[&str] = &[
            "win", "won", "lose", "lost", "loss", "forfeit", "victory", "0-1", "1-0",
        ];
        let said = |words: &[&str]| words.iter().any(|w| says(&self.reported, w));
        let (right, wrong) = if drawn {
            (DRAW, DECISIVE)
        } else {
            (DECISIVE, DRAW)
        };
        verdict_of(said(right), said(wrong))
    }

    /// The verdict said as the answer's first sentence: "The TD was right.", "You were wrong."
    pub fn said(&self, verdict: Judgement) -> String {
        let (who, plural) = match self.judged {
            Judged::Arbiter(name) => (name, false),
            Judged::He => ("he", false),
            Judged::She => ("she", false),
            Judged::They => ("they", true),
            Judged::Asker => ("you", true),
            Judged::Opponent => ("your opponent", false),
        };
        let verb = match (self.past, plural) {
            (true, false) => "was",
            (true, true) => "were",
            (false, false) => "is",
            (false, true) => "are",
        };
        let judgement = match verdict {
            Judgement::Right => "right",
            Judgement::Wrong => "wrong",
        };
        crate::text::capitalise_first(&format!("{who} {verb} {judgement}."))
    }
}

/// Words of a right decision alone: right; of a wrong one alone: wrong; both or neither: no
/// verdict.
fn verdict_of(right: bool, wrong: bool) -> Option<Judgement> {
    match (right, wrong) {
        (true, false) => Some(Judgement::Right),
        (false, true) => Some(Judgement::Wrong),
        _ => None,
    }
}

/// The clauses of `story` that open with a word for the judged person: from each such word to
/// the end of its clause.
fn clauses_opened_by(story: &str, judged: Judged) -> String {
    let words: Vec<&str> = match judged {
        Judged::Arbiter(_) => ARBITER_WORDS.iter().map(|(w, _)| *w).collect(),
        Judged::He => vec!["he"],
        Judged::She => vec!["she"],
        Judged::They => vec!["they"],
        Judged::Asker => vec!["i"],
        Judged::Opponent => vec!["my opponent", "he", "she"],
    };
    let mut clauses = String::new();
    for (at, _) in story.char_indices() {
        let Some(word) = words
            .iter()
            .find(|w| story[at..].starts_with(*w) && whole_word(story, at, w.len()))
        else {
            continue;
        };
        let rest = &story[at + word.len()..];
        // "… called the arbiter, who said …": the object opens a clause of its own.
        let relative = rest.trim_start_matches([',', ' ']).starts_with("who ");
        if is_object(&story[..at]) && !relative {
            continue;
        }
        let end = rest.find(['.', '!', '?', ';']).unwrap_or(rest.len());
        clauses.push_str(&rest[..end]);
        clauses.push_str(" | ");
    }
    clauses
}

/// Whether the word after `before` is the object of a verb or preposition ("I told the
/// arbiter it must be a draw", "we called the TD"): what follows is not the person's decision.
fn is_object(before: &str) -> bool {
    const GOVERNING: &[&str] = &[
        "told",
        "tell",
        "asked",
        "ask",
        "called",
        "call",
        "fetched",
        "summoned",
        "informed",
        "showed",
        "to",
        "for",
        "with",
        "by",
        "convinced",
        "persuaded",
    ];
    let mut words = before.split_whitespace().rev();
    let previous = match words.next() {
        Some("the" | "a" | "an") => words.next(),
        other => other,
    };
    previous.is_some_and(|w| GOVERNING.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())))
}

/// How the answer names the arbiter that the last sentence of `story` names, if it names one.
fn arbiter_in_last_sentence(story: &str) -> Option<&'static str> {
    let trimmed = story.trim_end_matches(|c: char| c.is_whitespace() || ".!?;".contains(c));
    let start = trimmed.rfind(['.', '!', '?', ';']).map_or(0, |i| i + 1);
    let last = &trimmed[start..];
    ARBITER_WORDS
        .iter()
        .find(|(w, _)| last_whole_word(last, w).is_some())
        .map(|(_, name)| *name)
}

/// Where `word` last stands in `story` as a whole word.
fn last_whole_word(story: &str, word: &str) -> Option<usize> {
    story
        .rmatch_indices(word)
        .map(|(at, _)| at)
        .find(|&at| whole_word(story, at, word.len()))
}

/// Whether `story[at..at + len]` is a whole word.
fn whole_word(story: &str, at: usize, len: usize) -> bool {
    let alnum_before = story[..at]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric);
    let alnum_after = story[at + len..]
        .chars()
        .next()
        .is_some_and(char::is_alphanumeric);
    !alnum_before && !alnum_after
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(right: &[&str], wrong: &[&str]) -> RulingMeta {
        let list = |ps: &[&str]| ps.iter().map(|p| p.to_string()).collect();
        RulingMeta {
            judged: vec![
                (Judgement::Right, list(right)),
                (Judgement::Wrong, list(wrong)),
            ],
            ..RulingMeta::default()
        }
    }

    #[test]
    fn the_decision_of_the_person_asked_about_is_judged() {
        let rapid = meta(&["one minute", "a minute"], &["lose", "lost", "forfeit"]);
        let asked = JudgedDecision::read(
            " my club says an illegal move in rapid loses, but the td just put it back and gave him a minute. was the td correct? ",
        )
        .unwrap();
        assert_eq!(asked.verdict(&rapid), Some(Judgement::Right));
        assert_eq!(asked.said(Judgement::Right), "The TD was right.");
        let asked = JudgedDecision::read(
            " in rapid the arbiter, behind me, said \"game lost\" after my illegal move. was the arbiter right? ",
        )
        .unwrap();
        assert_eq!(asked.verdict(&rapid), Some(Judgement::Wrong));
        assert_eq!(asked.said(Judgement::Wrong), "The arbiter was wrong.");
        // What another person said is not the judged decision.
        let asked = JudgedDecision::read(
            " my opponent said i lose. the arbiter gave him a minute. is the arbiter right? ",
        )
        .unwrap();
        assert_eq!(asked.verdict(&rapid), Some(Judgement::Right));
        assert_eq!(asked.said(Judgement::Right), "The arbiter is right.");
        let asked = JudgedDecision::read(
            " he objected and the arbiter agreed that touch-move applied. is the decision of the arbiter correct? ",
        )
        .unwrap();
        assert_eq!(asked.said(Judgement::Right), "The arbiter is right.");
        let draw_after_flag = meta(&["denied"], &["accepted the draw"]);
        let asked = JudgedDecision::read(
            " he had lost on time, she offered him a draw anyway. td immelt denied the draw. was he wrong?? ",
        )
        .unwrap();
        assert_eq!(asked.verdict(&draw_after_flag), Some(Judgement::Right));
        assert_eq!(asked.said(Judgement::Right), "The TD was right.");
        let asked = JudgedDecision::read(" i insisted that he take it. was i correct? ").unwrap();
        assert_eq!(asked.said(Judgement::Wrong), "You were wrong.");
    }

    #[test]
    fn a_result_judges_the_reported_result_and_what_was_told_to_the_arbiter_is_not_a_decision() {
        let asked = JudgedDecision::read(
            " i told the arbiter it must be a draw. the arbiter gave my opponent the win. was that correct? ",
        )
        .unwrap();
        assert_eq!(asked.verdict_on_result(false), Some(Judgement::Right));
        assert_eq!(asked.verdict_on_result(true), Some(Judgement::Wrong));
        let asked =
            JudgedDecision::read(" we called the td and he declared a draw. was the td right? ")
                .unwrap();
        assert_eq!(asked.verdict_on_result(true), None);
        let asked = JudgedDecision::read(
            " he only spotted it later and called the arbiter, who declared a draw. was that right? ",
        )
        .unwrap();
        assert_eq!(asked.verdict_on_result(true), Some(Judgement::Right));
        let asked = JudgedDecision::read(" the td declared a draw. was the td right? ").unwrap();
        assert_eq!(asked.verdict_on_result(true), Some(Judgement::Right));
        // A result written as a score.
        let asked = JudgedDecision::read(
            " the td said it was his 2nd illegal move and gave it 0-1. was the td right? ",
        )
        .unwrap();
        assert_eq!(asked.verdict_on_result(true), Some(Judgement::Wrong));
    }

    #[test]
    fn that_and_who_judge_the_arbiters_reported_decision() {
        let rapid = meta(&["a minute"], &["lose"]);
        let asked = JudgedDecision::read(
            " my club says an illegal move in rapid = you lose, but the td just put it back and gave him a minute. is that correct?? ",
        )
        .unwrap();
        assert_eq!(asked.verdict(&rapid), Some(Judgement::Right));
        assert_eq!(asked.said(Judgement::Right), "The TD was right.");
        assert_eq!(
            JudgedDecision::read(" he says draw, i say win. who's right? ")
                .and_then(|j| j.verdict(&rapid)),
            None
        );
    }

    #[test]
    fn nothing_is_judged_without_a_named_person_or_a_clear_decision() {
        assert_eq!(
            JudgedDecision::read(" he says draw, i say win. who's right? "),
            None
        );
        assert_eq!(JudgedDecision::read(" can i castle out of check? "), None);
        let rapid = meta(&["a minute"], &["lose"]);
        let both = JudgedDecision::read(
            " the td said i lose but then gave him a minute. was the td right? ",
        )
        .unwrap();
        assert_eq!(both.verdict(&rapid), None);
        let neither =
            JudgedDecision::read(" the td thought about it for a while. was the td right? ")
                .unwrap();
        assert_eq!(neither.verdict(&rapid), None);
    }
}
