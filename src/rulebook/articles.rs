//! Article numbers: recognising them in headings and text, and their anchors.

use std::sync::OnceLock;

use regex::Regex;

/// `9`, `9.6.2`, `A.5.3`, `II.3.2`, `III.5`, `0.1` — the shapes article numbers take.
fn number_pattern() -> &'static str {
    r"(?:(?:III|II|I|[A-D])(?:\.\d{1,2})+|\d{1,2}(?:\.\d{1,2})+)"
}

fn heading_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(&format!(r"^({})\s+(.*)$", number_pattern())).expect("valid regex")
    })
}

fn text_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(&format!(r"\b{}\b", number_pattern())).expect("valid regex"))
}

/// Splits a heading into its article number and its title: `9.6.2 Seventy-five moves` →
/// (`9.6.2`, `Seventy-five moves`).
pub fn article_of_heading(heading: &str) -> Option<(String, String)> {
    let caps = heading_re().captures(heading.trim())?;
    Some((caps[1].to_string(), caps[2].trim().to_string()))
}

/// Whether `s` has the shape of an article number.
pub fn is_article_number(s: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(&format!(r"^{}$", number_pattern())).expect("valid regex"))
        .is_match(s)
}

/// `9.6.2` → `art-9-6-2`; `A.5.3` → `art-a-5-3`.
pub fn anchor_for_article(number: &str) -> String {
    format!("art-{}", number.to_ascii_lowercase().replace('.', "-"))
}

/// Every article-shaped number in `text`, with its byte range, in order.
pub fn find_article_refs(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    // The whole match is the number (a trailing dot belongs to the sentence: "see 9.2.");
    // `find_iter` needs no capture slots, so the fast engines run.
    text_re()
        .find_iter(text)
        .map(|m| (m.range(), m.as_str().to_string()))
        .collect()
}

/// A slug for unnumbered headings: lower case, words joined by dashes.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.extend(c.to_lowercase());
        } else {
            dash = true;
        }
    }
    if out.is_empty() {
        "section".into()
    } else {
        out
    }
}

/// Whether an expected article number is satisfied by a cited one: equal, or one is the other's
/// parent, provided the shorter has at least two parts ("3.8.2" ~ "3.8.2.1", "3" !~ "3.8").
pub fn article_matches(expected: &str, cited: &str) -> bool {
    if expected == cited {
        return true;
    }
    let (short, long) = if expected.len() < cited.len() {
        (expected, cited)
    } else {
        (cited, expected)
    };
    // The cheap tests first: most pairs differ in their first bytes. "At least two parts" is
    // "has a dot".
    long.starts_with(short) && long[short.len()..].starts_with('.') && short.contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_and_child_articles_match() {
        assert!(article_matches("3.8.2", "3.8.2.1"));
        assert!(article_matches("3.8.2.1", "3.8.2"));
        assert!(article_matches("A.5", "A.5.3"));
        assert!(article_matches("9.6.2", "9.6.2"));
        assert!(!article_matches("3", "3.8"));
        assert!(!article_matches("3.8", "3"));
        assert!(!article_matches("3.8.2", "3.8.21"));
        assert!(!article_matches("3.8.2.1", "3.8.2.2"));
        assert!(!article_matches("I.1", "II.1"));
    }

    #[test]
    fn headings_and_anchors() {
        assert_eq!(
            article_of_heading("9.6.2 Seventy-five moves"),
            Some(("9.6.2".into(), "Seventy-five moves".into()))
        );
        assert_eq!(
            article_of_heading("A.5.3 Flags"),
            Some(("A.5.3".into(), "Flags".into()))
        );
        assert_eq!(
            article_of_heading("III.5 Claims"),
            Some(("III.5".into(), "Claims".into()))
        );
        assert_eq!(article_of_heading("Castling out of check"), None);
        assert_eq!(anchor_for_article("II.3.2"), "art-ii-3-2");
        assert_eq!(
            slug("Can I castle out of check?"),
            "can-i-castle-out-of-check"
        );
    }

    #[test]
    fn finds_references() {
        let refs: Vec<String> = find_article_refs("see 9.2.3, A.5.3 and III.5 (3.8.2.1).")
            .into_iter()
            .map(|r| r.1)
            .collect();
        assert_eq!(refs, vec!["9.2.3", "A.5.3", "III.5", "3.8.2.1"]);
    }
}
