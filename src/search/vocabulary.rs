//! The search vocabulary (rulebook/vocabulary.toml): slang, notation and misspellings mapped
//! to the rulebook's words. Data, not code, so that rulebook maintainers can edit it.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    #[serde(default)]
    pub correct: BTreeMap<String, String>,
    #[serde(default)]
    pub expand: BTreeMap<String, String>,
}

pub const EMBEDDED: &str = include_str!("../../rulebook/vocabulary.toml");

impl Vocabulary {
    pub fn parse(text: &str) -> Result<Vocabulary, String> {
        toml::from_str(text).map_err(|e| format!("vocabulary.toml: {e}"))
    }

    pub fn embedded() -> Vocabulary {
        Vocabulary::parse(EMBEDDED).expect("the embedded vocabulary parses (tested)")
    }

    /// Lower-cases, corrects known misspellings and appends the expansions of every phrase
    /// found on word boundaries.
    pub fn rewrite(&self, query: &str) -> String {
        let lowered = query.to_lowercase().replace(['’', '‘'], "'");
        let words: Vec<String> = lowered
            .split_whitespace()
            .map(|w| {
                let bare = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-' && c != '=' && c != '.');
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
            .map(|c| if c.is_alphanumeric() || matches!(c, '\'' | '-' | '=' | '.') { c } else { ' ' })
            .collect::<String>()
            .split_whitespace()
            .map(|w| w.trim_end_matches('.').to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let haystack = format!(" {padded} ");
        let mut extra = Vec::new();
        for (phrase, expansion) in &self.expand {
            if haystack.contains(&format!(" {phrase} ")) {
                extra.push(expansion.as_str());
            }
        }
        if extra.is_empty() { padded } else { format!("{padded} {}", extra.join(" ")) }
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
