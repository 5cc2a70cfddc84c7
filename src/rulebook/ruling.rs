//! Rulings: the rulebook's answer units. A ruling is one `##` section of a `rulings/` page — a
//! question as players put it, the other ways they put it (`asked:`), the deciding articles,
//! the settings it holds in and whether it depends on the position — followed by its text,
//! whose first sentence is the decision (see rulebook/README.md, "Rulings").

use std::collections::HashMap;

use serde::Serialize;

/// Where a ruling holds, or what setting a question names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Setting {
    /// Slow (standard) FIDE games.
    Standard,
    Rapid,
    Blitz,
    Armageddon,
    /// Games on an online server (not FIDE over-the-board rules).
    Online,
    /// US Chess rules (not FIDE).
    UsChess,
    Chess960,
    /// Games without an arbiter present.
    Unsupervised,
}

impl Setting {
    pub const ALL: [Setting; 8] = [
        Setting::Standard,
        Setting::Rapid,
        Setting::Blitz,
        Setting::Armageddon,
        Setting::Online,
        Setting::UsChess,
        Setting::Chess960,
        Setting::Unsupervised,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Setting::Standard => "standard",
            Setting::Rapid => "rapid",
            Setting::Blitz => "blitz",
            Setting::Armageddon => "armageddon",
            Setting::Online => "online",
            Setting::UsChess => "us-chess",
            Setting::Chess960 => "chess960",
            Setting::Unsupervised => "unsupervised",
        }
    }

    fn parse(word: &str) -> Option<Setting> {
        Setting::ALL.into_iter().find(|s| s.as_str() == word)
    }
}

/// What a ruling section says about itself, besides its text.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RulingMeta {
    /// Other ways players ask the same question (matched, never shown as the answer).
    pub asked: Vec<String>,
    /// The deciding article first, then the supporting ones.
    pub articles: Vec<String>,
    /// The settings the ruling names; empty means everywhere (`context: any`).
    pub settings: Vec<Setting>,
    /// `any` listed beside named settings (`context: online, any`): a ruling about those
    /// settings that holds everywhere too, such as how an online habit fares over the board.
    pub also_anywhere: bool,
    /// The decision depends on the actual position: the answer invites the asker to give it.
    pub needs_position: bool,
    /// What the question must say for the ruling's decision to fit it (`premise: bare king |
    /// lone king | only a king`): a ruling whose answer asserts a fact ("a lone king never
    /// mates") answers no question that does not state that fact. One group of phrases per
    /// `premise:` line: the question must say one phrase of every group. Empty: no premise.
    pub premises: Vec<Vec<String>>,
    /// What the question must not say for the decision to fit it (`unless: second illegal |
    /// two illegal`): a ruling about a first illegal move answers no question about a second.
    pub exceptions: Vec<String>,
    /// Decisions for a question that states the fact an "It depends" ruling turns on (`when:
    /// moves 10 or more => The game counts …`): the first that holds replaces the ruling's
    /// first sentence.
    pub decided_when: Vec<(Condition, String)>,
    /// How the ruling judges a decision that the question reports and asks about ("the TD put
    /// it back and gave him a minute. Was the TD right?"): `right-if: one minute | restor` and
    /// `wrong-if: lose | forfeit` list the words in which the reported decision agrees or
    /// disagrees with the ruling.
    pub judged: Vec<(Judgement, Vec<String>)>,
}

/// A ruling's judgement of a decision reported in the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Judgement {
    /// The decision agrees with the ruling.
    Right,
    /// The decision goes against the ruling.
    Wrong,
}

/// A fact of the asker's story that decides a ruling which otherwise depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Condition {
    /// At least this many moves played (`moves 10 or more`).
    MovesAtLeast(u32),
    /// Fewer moves played than this (`moves under 10`).
    MovesUnder(u32),
}

impl Condition {
    /// Reads `moves 10 or more` or `moves under 10`.
    fn parse(text: &str) -> Option<Condition> {
        let rest = text.trim().strip_prefix("moves ")?.trim();
        if let Some(n) = rest.strip_suffix("or more") {
            return n.trim().parse().ok().map(Condition::MovesAtLeast);
        }
        let n = rest.strip_prefix("under ")?;
        n.trim().parse().ok().map(Condition::MovesUnder)
    }

    /// Whether the condition holds for a story that says how many moves were played.
    pub fn holds(self, moves_played: Option<u32>) -> bool {
        match (self, moves_played) {
            (Condition::MovesAtLeast(n), Some(m)) => m >= n,
            (Condition::MovesUnder(n), Some(m)) => m < n,
            (_, None) => false,
        }
    }
}

impl RulingMeta {
    /// Whether the ruling holds in every setting.
    pub fn holds_everywhere(&self) -> bool {
        self.settings.is_empty() || self.also_anywhere
    }

    /// Whether a question (lower case, as the answer layer reads it) states the ruling's
    /// premise, if it has one, and none of its exceptions, tested one phrase at a time: the
    /// reference that [`super::PremiseTests`], which the answer layer uses, is checked against.
    #[cfg(test)]
    pub(crate) fn premise_met(&self, lower: &str) -> bool {
        self.premises
            .iter()
            .all(|group| group.iter().any(|p| says(lower, p)))
            && !self.exceptions.iter().any(|e| says(lower, e))
    }
}

/// Whether `lower` says `phrase`: at the start of a word, as a stem ("captur" finds
/// "captured", while "hit" is not said by "white" nor "min" by "claiming"); a phrase ending in
/// a one-character word must end a word there too ("vs k", a bare king, is not said by "KN vs
/// KN").
pub fn says(lower: &str, phrase: &str) -> bool {
    // Every occurrence, overlapping ones too: "0-0" is said by "xy0-0-0" at its second one.
    lower
        .char_indices()
        .any(|(at, _)| lower[at..].starts_with(phrase) && said_at(lower, phrase, at))
}

/// Whether `phrase`, found in `lower` at byte `at`, is said there: it starts a word (when it
/// starts with a letter or digit: "captur" finds "captured", "hit" is not said by "white"), and
/// it ends one when its last word is a single character ("vs k" is not said by "KN vs KN").
pub(super) fn said_at(lower: &str, phrase: &str, at: usize) -> bool {
    let whole_last_word = phrase
        .rsplit(' ')
        .next()
        .is_some_and(|last| last.chars().count() == 1);
    let word_start = phrase.starts_with(char::is_alphanumeric);
    let starts = !word_start
        || !lower[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
    let ends = !whole_last_word
        || !lower[at + phrase.len()..]
            .chars()
            .next()
            .is_some_and(char::is_alphanumeric);
    starts && ends
}

/// Named groups of phrases (`rulebook/phrases.toml`: `bare-king = "lone king | bare king | …"`)
/// that a `premise:` or `unless:` line names as `@bare-king`, so that rulings sharing a premise
/// share one list.
#[derive(Debug, Default)]
pub struct PhraseGroups(HashMap<String, Vec<String>>);

impl PhraseGroups {
    pub fn parse(text: &str) -> Result<PhraseGroups, String> {
        let table: HashMap<String, String> = toml::from_str(text).map_err(|e| e.to_string())?;
        let groups = table
            .into_iter()
            .map(|(name, value)| {
                let phrases: Vec<String> = split_phrases(&value).collect();
                if phrases.iter().any(|p| p.starts_with('@')) {
                    return Err(format!(
                        "group '{name}' names another group: list its phrases"
                    ));
                }
                Ok((name, phrases))
            })
            .collect::<Result<_, _>>()?;
        Ok(PhraseGroups(groups))
    }

    /// The phrases of a `premise:` or `unless:` line, lower case, each `@group` replaced by its
    /// phrases.
    fn phrases(&self, value: &str) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for phrase in split_phrases(value) {
            match phrase.strip_prefix('@') {
                Some(name) => out.extend_from_slice(
                    self.0
                        .get(name)
                        .ok_or_else(|| format!("no phrase group '{name}' in phrases.toml"))?,
                ),
                None => out.push(phrase),
            }
        }
        Ok(out)
    }
}

/// The phrases of a `|`-separated list, lower case, empty ones left out.
fn split_phrases(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split('|')
        .map(|p| p.trim().to_lowercase())
        .filter(|p| !p.is_empty())
}

/// Splits a ruling section's text into its `key: value` lines and the ruling's own text.
/// Unknown keys, settings and phrase groups are errors, so a typo never silently drops a
/// paraphrase.
pub fn split_ruling(text: &str, groups: &PhraseGroups) -> Result<(RulingMeta, String), String> {
    let mut meta = RulingMeta::default();
    let mut body = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        let Some((key, value)) = meta_line(trimmed) else {
            body.push(line);
            continue;
        };
        let value = value.trim();
        match key {
            "asked" => meta.asked.push(value.to_string()),
            "articles" => meta.articles.extend(
                value
                    .split([',', '·', ';'])
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(str::to_string),
            ),
            "context" => {
                for word in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                    if word == "any" {
                        meta.also_anywhere = true;
                        continue;
                    }
                    let s = Setting::parse(word).ok_or_else(|| {
                        format!("unknown context '{word}' (use any, standard, rapid, blitz, armageddon, online, us-chess, chess960, unsupervised)")
                    })?;
                    if !meta.settings.contains(&s) {
                        meta.settings.push(s);
                    }
                }
            }
            "position" => meta.needs_position = matches!(value, "yes" | "true"),
            "premise" => meta.premises.push(groups.phrases(value)?),
            "unless" => meta.exceptions.extend(groups.phrases(value)?),
            "right-if" => meta.judged.push((Judgement::Right, groups.phrases(value)?)),
            "wrong-if" => meta.judged.push((Judgement::Wrong, groups.phrases(value)?)),
            "when" => {
                let (condition, decision) = value.split_once("=>").ok_or_else(|| {
                    format!("'when: {value}': expected 'when: <fact> => <decision>'")
                })?;
                let condition = Condition::parse(condition).ok_or_else(|| {
                    format!(
                        "'when: {value}': the fact must read 'moves N or more' or 'moves under N'"
                    )
                })?;
                meta.decided_when
                    .push((condition, decision.trim().to_string()));
            }
            _ => unreachable!("meta_line only returns known keys"),
        }
    }
    if meta.articles.is_empty() {
        return Err("a ruling needs an 'articles:' line with its deciding article".into());
    }
    Ok((meta, body.join("\n").trim().to_string()))
}

fn meta_line(line: &str) -> Option<(&'static str, &str)> {
    for key in [
        "asked", "articles", "context", "position", "premise", "unless", "when", "right-if",
        "wrong-if",
    ] {
        if let Some(rest) = line.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            return Some((key, rest));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Result<(RulingMeta, String), String> {
        split_ruling(text, &PhraseGroups::default())
    }

    #[test]
    fn decisions_for_a_stated_fact_are_read() {
        let (meta, text) = split(
            "articles: 7.3\nwhen: moves 10 or more => The game continues (7.3).\nwhen: moves under 10 => A new game (7.3).\nIt depends (7.3).",
        )
        .unwrap();
        assert_eq!(text, "It depends (7.3).");
        assert_eq!(
            meta.decided_when,
            [
                (
                    Condition::MovesAtLeast(10),
                    "The game continues (7.3).".to_string()
                ),
                (Condition::MovesUnder(10), "A new game (7.3).".to_string()),
            ]
        );
        assert!(Condition::MovesAtLeast(10).holds(Some(10)));
        assert!(!Condition::MovesAtLeast(10).holds(Some(9)));
        assert!(!Condition::MovesUnder(10).holds(None));
        for bad in [
            "articles: 7.3\nwhen: moves 10 or more\nText.",
            "articles: 7.3\nwhen: minutes 10 or more => X\nText.",
        ] {
            assert!(split(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn meta_lines_and_text_are_separated() {
        let text = "asked: castle out of check?\nasked: can I castle when checked\narticles: 3.8.2.2, 3.8.2.1\ncontext: rapid, blitz\nNo: not while in check (3.8.2.2).\nThe right stays.";
        let (meta, body) = split(text).unwrap();
        assert_eq!(meta.asked.len(), 2);
        assert_eq!(meta.articles, ["3.8.2.2", "3.8.2.1"]);
        assert_eq!(meta.settings, [Setting::Rapid, Setting::Blitz]);
        assert!(!meta.needs_position);
        assert!(body.starts_with("No: not while in check"));
    }

    #[test]
    fn unknown_context_and_missing_articles_are_errors() {
        assert!(split("articles: 1.1\ncontext: bullet\nYes.").is_err());
        let (meta, _) =
            split("articles: 6.9\npremise: Bare king | lone king\nIt is a draw.").unwrap();
        assert_eq!(meta.premises, [["bare king", "lone king"]]);
        assert!(meta.premise_met("he flagged and i had a lone king"));
        assert!(!meta.premise_met("he flagged and i had a rook"));
        let (meta, _) =
            split("articles: 6.9\npremise: knight\npremise: bare king | lone king\nYes.").unwrap();
        assert!(meta.premise_met("two knights against a bare king"));
        assert!(!meta.premise_met("two knights against king and pawn"));
        assert!(!meta.premise_met("a rook against a bare king"));
        assert!(split("asked: x\nYes.").is_err());
    }

    #[test]
    fn a_phrase_group_is_named_with_an_at_sign() {
        let groups = PhraseGroups::parse("bare-king = \"Lone king | bare king\"").unwrap();
        let (meta, _) = split_ruling(
            "articles: 6.9\npremise: @bare-king | nothing left\nA draw.",
            &groups,
        )
        .unwrap();
        assert_eq!(meta.premises, [["lone king", "bare king", "nothing left"]]);
        let unknown = split_ruling("articles: 6.9\nunless: @bare-kings\nA draw.", &groups);
        assert!(
            unknown
                .unwrap_err()
                .contains("no phrase group 'bare-kings'")
        );
        assert!(PhraseGroups::parse("a = \"@b\"\nb = \"x\"").is_err());
    }

    #[test]
    fn an_exception_named_in_the_question_unfits_the_ruling() {
        let (meta, _) = split("articles: 7.5.5\nunless: second illegal | 2 illegal\nNo: a first illegal move costs time.")
        .unwrap();
        assert_eq!(meta.exceptions, ["second illegal", "2 illegal"]);
        assert!(meta.premise_met("he made an illegal move, do i win?"));
        assert!(!meta.premise_met("he made 2 illegal moves, do i win?"));
    }

    #[test]
    fn phrases_start_a_word_and_a_one_letter_last_word_ends_one() {
        let (meta, _) = split("articles: 6.9\npremise: vs k | captur\nA draw.").unwrap();
        assert!(meta.premise_met("he flagged in kr vs k"));
        assert!(meta.premise_met("kr vs k, who wins?"));
        assert!(!meta.premise_met("black flagged in kn vs kn"));
        assert!(meta.premise_met("my knight was captured"));
        let (meta, _) = split("articles: 7.5.2\npremise: hit | press\nYes.").unwrap();
        assert!(!meta.premise_met("white pushed the pawn to e8"));
        assert!(meta.premise_met("white pushed to e8 and hit the clock"));
    }
}
