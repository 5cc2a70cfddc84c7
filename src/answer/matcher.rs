//! Matching a question against every ruling of the rulings bank by the words it shares with
//! the ruling's phrasings (its heading and `asked:` lines), each word weighted by how rare it is
//! among rulings — so "both players" does not tie a draw-agreement question to a late-arrival
//! ruling. The search index's ranking is the second opinion the answer layer combines this with.

use std::collections::HashMap;

use tantivy::tokenizer::{Language, RawTokenizer, Stemmer, TextAnalyzer};

use crate::rulebook::Rulebook;
use crate::search::Vocabulary;

use super::semantic::{WordVectors, cosine};

/// One ruling's phrasings as word ids.
struct RulingWords {
    passage: usize,
    phrasings: Vec<Vec<u32>>,
    body: Vec<u32>,
    /// Each phrasing's meaning as a mean of word vectors (rarer words weigh more).
    meanings: Vec<Vec<f32>>,
}

/// How a question is compared with rulings.
#[derive(Debug, Clone, Copy)]
pub struct RankWeights {
    /// The share of a ruling's text in its word overlap (the rest: its best phrasing).
    pub body: f32,
    /// The share of meaning (word vectors) in the similarity (the rest: word overlap).
    pub semantic: f32,
    /// A cosine of meanings at or below this counts as nothing (chess sentences are all
    /// somewhat alike).
    pub semantic_floor: f32,
}

/// Every ruling's words, and how rare each word is.
pub struct RulingMatcher {
    vectors: &'static WordVectors,
    ids: HashMap<String, u32>,
    idf: Vec<f32>,
    rulings: Vec<RulingWords>,
    /// The weight of a word no ruling uses.
    unknown_weight: f32,
}

const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "is",
    "are",
    "am",
    "can",
    "i",
    "my",
    "me",
    "you",
    "your",
    "do",
    "does",
    "did",
    "if",
    "it",
    "its",
    "to",
    "of",
    "in",
    "on",
    "at",
    "and",
    "or",
    "what",
    "how",
    "when",
    "who",
    "which",
    "this",
    "that",
    "be",
    "for",
    "with",
    "have",
    "has",
    "had",
    "will",
    "would",
    "should",
    "must",
    "may",
    "there",
    "his",
    "her",
    "he",
    "she",
    "they",
    "their",
    "them",
    "so",
    "then",
    "still",
    "just",
    "get",
    "gets",
    "by",
    "was",
    "were",
    "we",
    "our",
    "not",
    "no",
    "yes",
    "but",
    "as",
    "from",
    "than",
    "any",
    "some",
    "all",
    "about",
    "into",
    "out",
    "up",
    "one",
    "only",
    "also",
    "there",
    "here",
    "now",
    "ok",
    "okay",
    "really",
    "like",
    "im",
    "i'm",
    "dont",
    "don't",
    "isn't",
    "it's",
    "game",
    "chess",
    "question",
    "rule",
    "rules",
    "happen",
    "happens",
    "allowed",
    "exactly",
    "actually",
    "really",
    "possibly",
    "simply",
    "basically",
    "please",
    "anyone",
    "someone",
    "somebody",
    "know",
    "tell",
    "thanks",
    "thank",
    "hi",
    "hello",
    "wondering",
    "wonder",
    "situation",
    "happened",
    "been",
    "being",
    "does",
    "doing",
    "done",
    "there's",
    "something",
    "anything",
    "thing",
    "things",
    "ever",
    "even",
    "guys",
    "lol",
    "very",
    "much",
    "too",
    "these",
    "those",
    "else",
    "because",
    "while",
    "where",
    "why",
    "whether",
    "could",
    "might",
    "shall",
    "want",
    "wanted",
    "need",
    "needs",
    "said",
    "says",
    "say",
    "think",
];

/// The content words of a text, stop words removed, each reduced to its English stem
/// (Snowball, as the search index does: "checkmated" and "checkmate" meet, "check" stays apart).
pub fn stems(text: &str) -> Vec<String> {
    thread_local! {
        static STEMMER: std::cell::RefCell<TextAnalyzer> = std::cell::RefCell::new(
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(Stemmer::new(Language::English))
                .build(),
        );
    }
    let mut out: Vec<String> = Vec::new();
    for w in text
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
    {
        let w = w.trim_matches('\'');
        if w.is_empty()
            || STOP.contains(&w)
            || (w.len() < 2 && !w.chars().all(|c| c.is_ascii_digit()))
        {
            continue;
        }
        let w = w.strip_suffix("'s").unwrap_or(w);
        // Squares (e5, d6) say where, not what is asked: a story's squares must not tie it to
        // a ruling whose example uses the same ones.
        if is_square(w) {
            continue;
        }
        let stem = STEMMER.with(|s| {
            let mut analyzer = s.borrow_mut();
            let mut stream = analyzer.token_stream(w);
            let mut stem = w.to_string();
            while stream.advance() {
                stem = stream.token().text.clone();
            }
            stem
        });
        if !out.contains(&stem) {
            out.push(stem);
        }
    }
    out
}

fn is_square(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
}

impl RulingMatcher {
    pub fn new(book: &Rulebook) -> RulingMatcher {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut df: Vec<u32> = Vec::new();
        let mut intern = |s: String, df: &mut Vec<u32>| -> u32 {
            let next = ids.len() as u32;
            let id = *ids.entry(s).or_insert(next);
            if id as usize == df.len() {
                df.push(0);
            }
            id
        };
        let mut rulings = Vec::new();
        for (i, p) in book.passages.iter().enumerate() {
            if p.ruling.is_none() {
                continue;
            }
            let phrasings: Vec<Vec<u32>> = p
                .phrasings()
                .map(|q| stems(q).into_iter().map(|s| intern(s, &mut df)).collect())
                .collect();
            let body: Vec<u32> = stems(&p.text)
                .into_iter()
                .map(|s| intern(s, &mut df))
                .collect();
            let mut all: Vec<u32> = phrasings.iter().flatten().copied().collect();
            all.sort_unstable();
            all.dedup();
            for &id in &all {
                df[id as usize] += 1;
            }
            rulings.push(RulingWords {
                passage: i,
                phrasings,
                body,
                meanings: Vec::new(),
            });
        }
        let n = rulings.len().max(1) as f32;
        let idf: Vec<f32> = df
            .iter()
            .map(|&d| (1.0 + n / (d as f32 + 1.0)).ln())
            .collect();
        let mut matcher = RulingMatcher {
            vectors: WordVectors::embedded(),
            ids,
            idf,
            rulings: Vec::new(),
            unknown_weight: (1.0 + n).ln() * 0.5,
        };
        for r in &mut rulings {
            r.meanings = book.passages[r.passage]
                .phrasings()
                .filter_map(|q| matcher.meaning(q))
                .collect();
        }
        matcher.rulings = rulings;
        matcher
    }

    /// A text's meaning: the mean of its word vectors, each word weighted by its rarity.
    fn meaning(&self, text: &str) -> Option<Vec<f32>> {
        self.vectors.sentence_with(text, |word| {
            stems(word)
                .first()
                .and_then(|s| self.ids.get(s))
                .map_or(self.unknown_weight, |&i| self.idf[i as usize])
        })
    }

    /// Every ruling's similarity to the question (0 to 1), best first, the best `limit`.
    /// Every ruling's similarity to the question (0 to 1), best first, the best `limit`.
    pub fn rank(
        &self,
        question: &str,
        vocabulary: &Vocabulary,
        weights: RankWeights,
        limit: usize,
    ) -> Vec<(usize, f32)> {
        let typed = stems(question);
        let expanded = stems(&vocabulary.rewrite(question));
        let mut query: Vec<(Option<u32>, f32)> = Vec::new();
        for s in &expanded {
            let typed_word = typed.contains(s);
            let id = self.ids.get(s).copied();
            let weight = match id {
                Some(i) => self.idf[i as usize],
                None if typed_word => self.unknown_weight,
                None => continue,
            } * if typed_word { 1.0 } else { 0.5 };
            query.push((id, weight));
        }
        let q_norm: f32 = query.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
        if q_norm == 0.0 {
            return Vec::new();
        }
        let meaning = (weights.semantic > 0.0)
            .then(|| self.meaning(question))
            .flatten();
        let mut scored: Vec<(usize, f32)> = self
            .rulings
            .iter()
            .map(|r| {
                let best = r
                    .phrasings
                    .iter()
                    .map(|p| self.cosine(&query, q_norm, p))
                    .fold(0.0f32, f32::max);
                let body = self.cosine(&query, q_norm, &r.body);
                let words = (1.0 - weights.body) * best + weights.body * body;
                let alike = meaning.as_ref().map_or(0.0, |m| {
                    let c = r
                        .meanings
                        .iter()
                        .map(|p| cosine(m, p))
                        .fold(0.0f32, f32::max);
                    ((c - weights.semantic_floor) / (1.0 - weights.semantic_floor)).max(0.0)
                });
                (
                    r.passage,
                    (1.0 - weights.semantic) * words + weights.semantic * alike,
                )
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.truncate(limit);
        scored
    }

    fn cosine(&self, query: &[(Option<u32>, f32)], q_norm: f32, words: &[u32]) -> f32 {
        let shared: f32 = query
            .iter()
            .filter_map(|(id, w)| {
                id.filter(|i| words.contains(i))
                    .map(|i| w * self.idf[i as usize])
            })
            .sum();
        let w_norm: f32 = words
            .iter()
            .map(|&i| self.idf[i as usize].powi(2))
            .sum::<f32>()
            .sqrt();
        if w_norm == 0.0 {
            0.0
        } else {
            shared / (q_norm * w_norm)
        }
    }
}
