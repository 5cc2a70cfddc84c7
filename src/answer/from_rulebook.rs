//! Rulebook answers: each part of a question matched to a ruling of the rulings bank (or, when
//! no ruling fits, to a law passage), then composed — the decision first, one paragraph per
//! part, the deciding article cited first. When nothing fits well, the answer says so and names
//! the closest rulings instead of reciting a random passage.

use crate::rulebook::{PageKind, Passage, RulingMeta, Setting};
use crate::search::{Hit, SearchMode};

use super::frame::{Frame, QuestionKind};
use super::{Answer, Arbiter, Basis, content_stems, first_sentences};

/// Below this, a match is not trusted and the answer says it is not sure.
const MIN_CONFIDENCE: f32 = 0.30;
/// A search score under this (and no article named) means the rulebook hardly matched.
const MIN_SEARCH_SCORE: f32 = 4.0;

/// The passage chosen to answer one part of a question.
#[derive(Debug, Clone)]
struct PartMatch {
    passage: usize,
    confidence: f32,
}

/// How well a ruling's settings fit the settings a question names.
fn setting_fit(ruling: &RulingMeta, asked: &[Setting]) -> f32 {
    if ruling.holds_everywhere() {
        return 1.0;
    }
    if ruling.settings.iter().any(|s| asked.contains(s)) {
        return 1.25;
    }
    if asked.is_empty() && ruling.settings.contains(&Setting::Standard) {
        return 1.0;
    }
    if asked.is_empty() {
        0.7
    } else {
        0.55
    }
}

/// The share of content words two texts have in common (Jaccard over crude stems).
fn similarity(a: &[String], b: &[String]) -> f32 {
    let shared = a.iter().filter(|w| b.contains(*w)).count() as f32;
    let union = (a.len() + b.len()) as f32 - shared;
    if union > 0.0 { shared / union } else { 0.0 }
}

impl Arbiter {
    /// The best passage for one part of a question, with how sure the match is.
    fn match_part(&self, part: &str, frame: &Frame, hits: &[Hit]) -> Option<PartMatch> {
        let top = hits.first()?;
        if top.matched_by == "article" {
            return Some(PartMatch {
                passage: top.passage,
                confidence: 1.0,
            });
        }
        if top.score < MIN_SEARCH_SCORE {
            return None;
        }
        let asked = content_stems(part);
        let mut best: Option<PartMatch> = None;
        for h in hits.iter().take(10) {
            let p = &self.book.passages[h.passage];
            let rank = h.score / top.score;
            let fit = match &p.ruling {
                Some(meta) => {
                    let sim = p
                        .phrasings()
                        .map(|q| similarity(&asked, &content_stems(q)))
                        .fold(0.0f32, f32::max);
                    rank * (0.4 + sim) * setting_fit(meta, &frame.settings)
                }
                None if p.kind == PageKind::Law && p.article.is_some() => rank * 0.6,
                None => rank * 0.45,
            };
            if best.as_ref().is_none_or(|b| fit > b.confidence) {
                best = Some(PartMatch {
                    passage: h.passage,
                    confidence: fit.min(1.0),
                });
            }
        }
        best.filter(|b| b.confidence >= MIN_CONFIDENCE)
    }

    /// One paragraph answering from a passage: a ruling's text, or a law passage's rule.
    fn paragraph(&self, p: &Passage, kind: QuestionKind) -> String {
        match &p.ruling {
            Some(meta) => {
                let mut text = fit_opening(&first_sentences(&p.text, 6), kind);
                if meta.needs_position {
                    text.push_str(" Whether it holds in your game depends on the position: give it as FEN or PGN (or the moves played) and I will check it with the rules checker.");
                }
                text
            }
            None => {
                let rule: Vec<&str> = sentences(&p.text)
                    .into_iter()
                    .filter(|s| !reads_like_contents(s))
                    .take(3)
                    .collect();
                let rule = rule.join(" ");
                match &p.article {
                    Some(a) => format!("{rule} ({a} — {})", p.title),
                    None => rule,
                }
            }
        }
    }

    /// The answer to a question without a position.
    pub(super) fn rulebook_answer(&self, question: &str, frame: &Frame) -> Answer {
        let whole_hits = self
            .index
            .search_with(&self.book, question, 10, SearchMode::ANSWER);
        let meaningful = self.domain_word_count(question) > 0
            || whole_hits.first().is_some_and(|h| h.matched_by == "article");
        let mut chosen: Vec<PartMatch> = Vec::new();
        if meaningful && frame.parts.len() > 1 {
            for part in &frame.parts {
                let hits = self
                    .index
                    .search_with(&self.book, part, 10, SearchMode::ANSWER);
                if let Some(m) = self.match_part(part, frame, &hits) {
                    if !chosen.iter().any(|c| c.passage == m.passage) {
                        chosen.push(m);
                    }
                }
            }
        }
        if chosen.len() < 2 {
            chosen.clear();
            if let Some(m) = meaningful
                .then(|| self.match_part(question, frame, &whole_hits))
                .flatten()
            {
                chosen.push(m);
            }
        }
        if chosen.is_empty() {
            return self.not_sure(frame, &whole_hits, meaningful);
        }
        let paragraphs: Vec<String> = chosen
            .iter()
            .map(|m| self.paragraph(&self.book.passages[m.passage], frame.kind))
            .collect();
        let answer = paragraphs.join("\n\n");
        let deciding: Vec<&str> = chosen
            .iter()
            .flat_map(|m| {
                let p = &self.book.passages[m.passage];
                p.deciding_article().into_iter().chain(
                    p.ruling
                        .iter()
                        .flat_map(|r| r.articles.iter().skip(1).map(String::as_str)),
                )
            })
            .collect();
        // The deciding article of every part leads, then the supporting ones.
        let mut ordered: Vec<&str> = chosen
            .iter()
            .filter_map(|m| self.book.passages[m.passage].deciding_article())
            .collect();
        ordered.extend(deciding);
        let citations = self.citations(&ordered, &answer, &whole_hits);
        Answer {
            answer,
            citations,
            claims: vec![],
            position: None,
            topic: frame.intent.topic.name().into(),
            basis: Basis::Rulebook,
            marks: vec![],
            confidence: chosen.iter().map(|m| m.confidence).fold(1.0f32, f32::min),
            played: Vec::new(),
        }
    }

    /// An honest answer when nothing in the rulebook fits well: the closest rulings.
    fn not_sure(&self, frame: &Frame, hits: &[Hit], meaningful: bool) -> Answer {
        let closest: Vec<String> = hits
            .iter()
            .filter(|h| self.book.passages[h.passage].ruling.is_some())
            .take(3)
            .map(|h| format!("“{}” ({})", h.title, h.url))
            .collect();
        let answer = if !meaningful || closest.is_empty() {
            "I don't know: this does not look like a question about the rules of chess. Ask about a rule (castling, en passant, the clock, draws, touch-move…), describe what happened at the board, or give a position as FEN or PGN.".to_string()
        } else {
            format!(
                "I am not sure what you are asking. The closest rulings are: {}. Describe what happened at the board (who did what, in which time control), or give the position as FEN or PGN.",
                closest.join("; ")
            )
        };
        Answer {
            answer,
            citations: vec![],
            claims: vec![],
            position: None,
            topic: frame.intent.topic.name().into(),
            basis: Basis::Unknown,
            marks: vec![],
            confidence: 0.0,
            played: Vec::new(),
        }
    }
}

/// A ruling written for a yes/no question ("Yes: the owner of the phone loses…") asked as
/// "who loses?" or "what happens?": the bare "Yes" goes, the decision stays.
fn fit_opening(text: &str, kind: QuestionKind) -> String {
    if matches!(kind, QuestionKind::YesNo | QuestionKind::Other | QuestionKind::Advice) {
        return text.to_string();
    }
    for opening in ["Yes: ", "Yes, ", "Yes. "] {
        if let Some(rest) = text.strip_prefix(opening) {
            let mut chars = rest.chars();
            return match chars.next() {
                Some(c) => c.to_uppercase().chain(chars).collect(),
                None => text.to_string(),
            };
        }
    }
    text.to_string()
}

/// The sentences of a text (article numbers and "e.p." do not end a sentence).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        if !matches!(c, '.' | '?' | '!') {
            continue;
        }
        let next = bytes.get(i + 1).copied();
        if next.is_some_and(|n| n != b' ' && n != b'\n') {
            continue;
        }
        let so_far = &text[start..=i];
        if so_far.ends_with("e.p.") || so_far.ends_with("e.g.") || so_far.ends_with("i.e.") {
            continue;
        }
        out.push(so_far.trim());
        start = i + 1;
    }
    if start < text.len() && !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

/// A sentence that describes the rulebook instead of stating a rule ("Article 9 deals with…").
fn reads_like_contents(sentence: &str) -> bool {
    let s = sentence.to_lowercase();
    ["deals with", "this section", "this article", "explains", "covers the", "describes", "are set out", "is set out", "see below", "as follows"]
        .iter()
        .any(|w| s.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_sentences_are_recognised() {
        assert!(reads_like_contents("Article 9 deals with the drawn game."));
        assert!(!reads_like_contents("A draw offer is made after your move (9.1.2.1)."));
    }

    #[test]
    fn sentences_keep_article_numbers_and_ep() {
        let s = sentences("Capture e.p. at once (3.7.3.2). Later it is gone.");
        assert_eq!(s, ["Capture e.p. at once (3.7.3.2).", "Later it is gone."]);
    }
}
