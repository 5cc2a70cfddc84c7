//! The search vocabulary (rulebook/vocabulary.toml): slang, notation and misspellings mapped
//! to the rulebook's words. Data, not code, so that rulebook maintainers can edit it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::languages::Glossary;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    /// `expand`'s phrases by their first word, made on first use.
    #[serde(skip)]
    by_first_word: OnceLock<rustc_hash::FxHashMap<String, Vec<(String, String)>>>,
    #[serde(default)]
    pub correct: BTreeMap<String, String>,
    #[serde(default)]
    pub expand: BTreeMap<String, String>,
    /// Words naming a setting with rules of its own (rapid, blitz, Chess960, blind
    /// players, adjourned games) → the law pages that hold those rules.
    #[serde(default)]
    pub settings: BTreeMap<String, Vec<String>>,
    /// The chess terms of other languages (languages.toml beside this file).
    #[serde(skip)]
    pub languages: Glossary,
}

pub const EMBEDDED: &str = include_str!("../../rulebook/vocabulary.toml");

impl Vocabulary {
    /// The vocabulary in `text`, with `languages` as its glossary.
    fn parse(text: &str, languages: Glossary) -> Result<Vocabulary, String> {
        let mut vocabulary: Vocabulary =
            toml::from_str(text).map_err(|e| format!("vocabulary.toml: {e}"))?;
        vocabulary.languages = languages;
        Ok(vocabulary)
    }

    pub fn embedded() -> Vocabulary {
        Vocabulary::parse(EMBEDDED, Glossary::embedded())
            .expect("the embedded vocabulary parses (tested)")
    }

    /// The vocabulary of a rulebook on disk: `DIR/vocabulary.toml` and `DIR/languages.toml`,
    /// each the embedded one when the directory has none.
    pub fn beside(dir: &std::path::Path) -> Result<Vocabulary, String> {
        let read = |name: &str| -> Result<Option<String>, String> {
            let path = dir.join(name);
            if !path.exists() {
                return Ok(None);
            }
            std::fs::read_to_string(&path)
                .map(Some)
                .map_err(|e| format!("reading {}: {e}", path.display()))
        };
        // Each file read and parsed once, the embedded one standing in for a missing one.
        let words = read("vocabulary.toml")?;
        let mut vocabulary =
            Vocabulary::parse(words.as_deref().unwrap_or(EMBEDDED), Glossary::default())?;
        vocabulary.languages = match read("languages.toml")? {
            Some(text) => Glossary::parse(&text)?,
            None => Glossary::embedded(),
        };
        Ok(vocabulary)
    }

    /// Lower-cases, corrects known misspellings and appends the expansions of every phrase
    /// found on word boundaries.
    pub fn rewrite(&self, query: &str) -> String {
        let (typed, extra) = self.rewrite_parts(query);
        if extra.is_empty() {
            typed
        } else {
            format!(
                "{typed} {}",
                extra.iter().map(|(_, e)| *e).collect::<Vec<_>>().join(" ")
            )
        }
    }

    /// The query as typed (lower-cased, misspellings corrected, punctuation spaced out) and,
    /// apart, the phrases it contains that have expansions, with their expansions.
    pub fn rewrite_parts(&self, query: &str) -> (String, Vec<(&str, &str)>) {
        let lowered = query.to_lowercase().replace(['’', '‘'], "'");
        let words: Vec<String> = lowered
            .split_whitespace()
            .map(|w| {
                let bare = w.trim_matches(|c: char| {
                    !c.is_alphanumeric() && c != '\'' && c != '-' && c != '=' && c != '.'
                });
                let bare = bare.trim_end_matches(['.', '?', '!', ',']);
                match self.correct.get(bare) {
                    Some(fixed) => fixed.clone(),
                    None => w.to_string(),
                }
            })
            .collect();
        let text = format!(" {} ", words.join(" "));
        let padded = text
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || matches!(c, '\'' | '-' | '=' | '.') {
                    c
                } else {
                    ' '
                }
            })
            .collect::<String>()
            .split_whitespace()
            .map(|w| w.trim_end_matches('.').to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let index = self.by_first_word.get_or_init(|| {
            let mut index: rustc_hash::FxHashMap<String, Vec<(String, String)>> =
                rustc_hash::FxHashMap::default();
            for (phrase, expansion) in &self.expand {
                let first = phrase.split(' ').next().unwrap_or_default().to_string();
                index
                    .entry(first)
                    .or_default()
                    .push((format!(" {phrase} "), expansion.clone()));
            }
            index
        });
        let mut extra: Vec<(&str, &str)> = Vec::new();
        let spaced = format!(" {padded} ");
        let mut at = 0;
        for word in padded.split(' ') {
            if let Some(phrases) = index.get(word) {
                for (phrase, expansion) in phrases {
                    if spaced[at..].starts_with(phrase.as_str())
                        && !extra
                            .iter()
                            .any(|(p, _)| *p == &phrase[1..phrase.len() - 1])
                    {
                        extra.push((&phrase[1..phrase.len() - 1], expansion.as_str()));
                    }
                }
            }
            at += word.len() + 1;
        }
        (padded, extra)
    }
}

/// Whether `phrase` occurs in the space-separated `text` on word boundaries.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    let (t, p) = (text.as_bytes(), phrase.as_bytes());
    let mut from = 0;
    while let Some(i) = text[from..].find(phrase) {
        let start = from + i;
        let end = start + p.len();
        if (start == 0 || t[start - 1] == b' ') && (end == t.len() || t[end] == b' ') {
            return true;
        }
        from = start + 1;
        while from < t.len() && !text.is_char_boundary(from) {
            from += 1;
        }
        if from >= t.len() {
            break;
        }
    }
    false
}

impl Vocabulary {
    /// The law pages of the settings a rewritten query names, each with whether it is the
    /// first page named for one of them (the setting's own rules, not the ones it refers to).
    pub fn settings_in(&self, rewritten: &str) -> Vec<(&str, bool)> {
        let mut pages: Vec<(&str, bool)> = Vec::new();
        for (phrase, ids) in &self.settings {
            if contains_phrase(rewritten, phrase) {
                for (i, id) in ids.iter().enumerate() {
                    match pages.iter_mut().find(|(p, _)| p == id) {
                        Some((_, primary)) => *primary |= i == 0,
                        None => pages.push((id, i == 0)),
                    }
                }
            }
        }
        pages
    }

    /// Every page some setting points to.
    pub fn setting_pages(&self) -> Vec<&str> {
        let mut pages: Vec<&str> = self
            .settings
            .values()
            .flatten()
            .map(String::as_str)
            .collect();
        pages.sort_unstable();
        pages.dedup();
        pages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_parses_and_rewrites() {
        let v = Vocabulary::embedded();
        let q = v.rewrite("castle thru check??");
        assert!(q.contains("castling") && q.contains("through"), "{q}");
        assert!(v.rewrite("O-O-O b1 attacked").contains("queenside"));
        assert!(v.rewrite("stalmate in blitz").contains("stalemate"));
        assert!(v.rewrite("enpassant").contains("en passant"));
        assert!(v.rewrite("3fold").contains("threefold"));
    }
}
