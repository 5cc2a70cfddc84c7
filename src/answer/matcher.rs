//! Matching a question against every ruling of the rulings bank by the words it shares with
//! the ruling's phrasings (its heading and `asked:` lines), each word weighted by how rare it is
//! among rulings — so "both players" does not tie a draw-agreement question to a late-arrival
//! ruling. The search index's ranking is the second opinion the answer layer combines this with.

use std::ops::Range;
use std::sync::LazyLock;

use rustc_hash::{FxHashMap, FxHashSet};
use tantivy::tokenizer::{Language, RawTokenizer, Stemmer, TextAnalyzer};

use crate::rulebook::Rulebook;
use crate::search::Vocabulary;

use super::semantic::WordVectors;

/// One ruling: its passage and where its phrasings sit in the matcher's phrasing tables.
struct RulingEntry {
    passage: usize,
    phrasings: Range<usize>,
}

/// For each word id, the texts (phrasings, or rulings' bodies) that use it, and each text's
/// norm: a question's overlap with every text is summed over the postings of the question's
/// own words, never by scanning every text.
struct Postings {
    lists: Vec<Vec<u32>>,
    norms: Vec<f32>,
}

impl Postings {
    /// `texts` as word ids, each id at most once per text.
    fn new(texts: &[Vec<u32>], idf: &[f32]) -> Postings {
        let mut lists = vec![Vec::new(); idf.len()];
        for (t, words) in texts.iter().enumerate() {
            for &w in words {
                lists[w as usize].push(t as u32);
            }
        }
        let norms = texts
            .iter()
            .map(|words| {
                words
                    .iter()
                    .map(|&i| idf[i as usize].powi(2))
                    .sum::<f32>()
                    .sqrt()
            })
            .collect();
        Postings { lists, norms }
    }

    /// Each text's overlap with the query (ids with their query weights), to be divided by the
    /// query's and the text's norms ([`Postings::cosine`]).
    fn shared(&self, query: &[(u32, f32)], idf: &[f32]) -> Vec<f32> {
        let mut shared = vec![0.0f32; self.norms.len()];
        for &(id, w) in query {
            let x = w * idf[id as usize];
            for &t in &self.lists[id as usize] {
                shared[t as usize] += x;
            }
        }
        shared
    }

    /// The best cosine with the query among each group's texts (0 when none shares a word;
    /// `owner` gives each text's group): [`Postings::shared`] and [`Postings::cosine`] taken
    /// only over the texts the query's words reach, most texts sharing none. The overlaps are
    /// summed in the same order, so each cosine is the same number, and the running maximum
    /// from 0 is the same whichever texts it skips (cosines are never negative nor NaN).
    fn best_by_group(
        &self,
        query: &[(u32, f32)],
        idf: &[f32],
        q_norm: f32,
        owner: &[u32],
        groups: usize,
    ) -> Vec<f32> {
        thread_local! {
            /// Overlaps (all 0 between calls) and room for every text reached.
            static SCRATCH: std::cell::RefCell<(Vec<f32>, Vec<u32>)> =
                const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
        }
        let mut best = vec![0.0f32; groups];
        SCRATCH.with_borrow_mut(|(shared, reached)| {
            if shared.len() < self.norms.len() {
                shared.resize(self.norms.len(), 0.0);
                // Each text is reached once at most; one more slot for the write past the end.
                reached.resize(self.norms.len() + 1, 0);
            }
            let mut count = 0;
            for &(id, w) in query {
                // Positive: a word's rarity is ln(1 + n / (d + 1)).
                let x = w * idf[id as usize];
                for &t in &self.lists[id as usize] {
                    let s = &mut shared[t as usize];
                    // Written always, kept when the text is new: no branch to mispredict.
                    reached[count] = t;
                    count += usize::from(*s == 0.0);
                    *s += x;
                }
            }
            for &t in &reached[..count] {
                let b = &mut best[owner[t as usize] as usize];
                *b = larger(*b, self.cosine(shared, t as usize, q_norm));
                shared[t as usize] = 0.0;
            }
        });
        best
    }

    /// Text `t`'s cosine with the query, from its overlap (`q_norm` counts the query's unknown
    /// words too).
    fn cosine(&self, shared: &[f32], t: usize, q_norm: f32) -> f32 {
        let (s, n) = (shared[t], self.norms[t]);
        // Most texts share no word with the query: 0 / x is 0, no division needed.
        if n == 0.0 || s == 0.0 {
            0.0
        } else {
            s / (q_norm * n)
        }
    }
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
    ids: FxHashMap<String, u32>,
    idf: Vec<f32>,
    rulings: Vec<RulingEntry>,
    /// Each phrasing's ruling (its number in `rulings`).
    phrasing_ruling: Vec<u32>,
    phrasings: Postings,
    bodies: Postings,
    /// Each phrasing's meaning (word vectors, rarer words weighing more) as a unit vector
    /// quantised to bytes (widened to `i16`, the width the dot products multiply in, as they
    /// are read), `dims` a
    /// phrasing (all zeros when no word of it has a vector), and each one's scale.
    meanings: Meanings,
    meaning_scales: Vec<f32>,
    /// The weight of a word no ruling uses.
    unknown_weight: f32,
    /// The stem of every word of the rulings, looked up instead of stemming a question's
    /// words again (most of them are the rulings' words).
    known_stems: FxHashMap<String, String>,
    /// Each heading and `asked:` line, as [`plain_words`] writes it, and its ruling's passage
    /// (the first ruling, should two share one).
    exact: FxHashMap<String, usize>,
}

const COLOUR_WEIGHT: f32 = 0.7;

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
    // Framing: "according to the laws", "officially", "per FIDE" say where the asker looks,
    // not what the question is about.
    "according",
    "accordance",
    "per",
    "official",
    "officially",
    "law",
    "laws",
    "fide",
    // Dutch and French "and"/"in", which matched "en passant" ("passant" carries it).
    "en",
];

/// The content words of a text, stop words removed, each reduced to its English stem
/// (Snowball, as the search index does: "checkmated" and "checkmate" meet, "check" stays apart).
pub fn stems(text: &str) -> Vec<String> {
    stems_with(text, &mut stem_word)
}

static STOP_SET: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| STOP.iter().copied().collect());

/// [`stems`], each word's stem given by `stem` (a look-up of the words already stemmed).
fn stems_with(text: &str, stem: &mut impl FnMut(&str) -> String) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let lower = text.to_lowercase();
    let words: Vec<&str> = crate::text::words(&lower)
        .map(|w| w.trim_matches('\''))
        .filter(|w| !w.is_empty())
        .collect();
    for &w in &words {
        if STOP_SET.contains(w) || (w.len() < 2 && !w.chars().all(|c| c.is_ascii_digit())) {
            continue;
        }
        let w = w.strip_suffix("'s").unwrap_or(w);
        // Squares (e5, d6) say where, not what is asked: a story's squares must not tie it to
        // a ruling whose example uses the same ones.
        if is_square(w) {
            continue;
        }
        let stem = stem(w);
        if !out.contains(&stem) {
            out.push(stem);
        }
    }
    for token in check_phrases(&words) {
        if !out.iter().any(|o| o == token) {
            out.push(token.to_string());
        }
    }
    out
}

/// What a text says about check, beyond the word: "in check" (or "out of check") is a state,
/// "into" / "through check" an attacked square, "give" / "with check" an action, "been in
/// check" / "was checked" / "after a check" the past. The prepositions that carry this are stop
/// words, so without these tokens "castle in check" and "castle with check" read alike.
fn check_phrases(words: &[&str]) -> Vec<&'static str> {
    const PAST: &[&str] = &[
        "been",
        "was",
        "were",
        "being",
        "had",
        "earlier",
        "previously",
    ];
    let mut out = Vec::new();
    for (i, &w) in words.iter().enumerate() {
        if !matches!(w, "check" | "checked" | "checks") {
            continue;
        }
        let back = |n: usize| if i >= n { words[i - n] } else { "" };
        let past = (1..=4).any(|n| back(n) == "after")
            || (w == "checked" && PAST.contains(&back(1)))
            || (back(1) == "in" && PAST.contains(&back(2)))
            || (w == "checked" && back(1) == "been");
        let token = if past {
            "checkpast"
        } else {
            match back(1) {
                "in" => "checkstate",
                "of" if back(2) == "out" => "checkstate",
                "into" => "checkinto",
                "through" | "thru" | "across" => "checkthrough",
                "give" | "gives" | "giving" | "gave" | "with" | "deliver" | "delivers" => {
                    "checkgive"
                }
                _ => continue,
            }
        };
        if !out.contains(&token) {
            out.push(token);
        }
    }
    out
}

/// The present form of an irregular past tense or participle ("ran", "fell", "drawn"), which
/// Snowball leaves alone: "my time ran out" and "runs out of time" should meet.
fn irregular_base(w: &str) -> Option<&'static str> {
    Some(match w {
        "ran" => "run",
        "fell" | "fallen" => "fall",
        "took" | "taken" => "take",
        "made" => "make",
        "gave" | "given" => "give",
        "lost" => "lose",
        "won" => "win",
        "went" | "gone" => "go",
        "wrote" | "written" => "write",
        "saw" | "seen" => "see",
        "forgot" | "forgotten" => "forget",
        "came" => "come",
        "held" => "hold",
        "kept" => "keep",
        "stood" => "stand",
        "began" | "begun" => "begin",
        "chose" | "chosen" => "choose",
        "drew" | "drawn" => "draw",
        "threw" | "thrown" => "throw",
        "broke" | "broken" => "break",
        "spoke" | "spoken" => "speak",
        "struck" => "strike",
        "caught" => "catch",
        "rang" | "rung" => "ring",
        "meant" => "mean",
        "sent" => "send",
        "spent" => "spend",
        "knocked" => "knock",
        _ => return None,
    })
}

/// The stem of one word: Snowball's, after irregular verb forms are brought to their present
/// form, with "checkmate" and "mate" as one word (they are, in the Laws).
fn stem_word(w: &str) -> String {
    let stem = snowball(irregular_base(w).unwrap_or(w));
    if stem.starts_with("checkmat") {
        "mate".to_string()
    } else {
        stem
    }
}

/// The Snowball stem of one word.
fn snowball(w: &str) -> String {
    thread_local! {
        static STEMMER: std::cell::RefCell<TextAnalyzer> = std::cell::RefCell::new(
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(Stemmer::new(Language::English))
                .build(),
        );
    }
    STEMMER.with(|s| {
        let mut analyzer = s.borrow_mut();
        let mut stream = analyzer.token_stream(w);
        let mut stem = w.to_string();
        while stream.advance() {
            stem = stream.token().text.clone();
        }
        stem
    })
}

fn is_square(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
}

impl RulingMatcher {
    pub fn new(book: &Rulebook) -> RulingMatcher {
        let mut ids: FxHashMap<String, u32> = FxHashMap::default();
        let mut df: Vec<u32> = Vec::new();
        let mut intern = |s: String, df: &mut Vec<u32>| -> u32 {
            let next = ids.len() as u32;
            let id = *ids.entry(s).or_insert(next);
            if id as usize == df.len() {
                df.push(0);
            }
            id
        };
        let mut known_stems: FxHashMap<String, String> = FxHashMap::default();
        let mut stem = |w: &str| {
            let s = stem_word(w);
            known_stems.insert(w.to_string(), s.clone());
            s
        };
        let mut rulings = Vec::new();
        let mut exact: FxHashMap<String, usize> = FxHashMap::default();
        let mut phrasings: Vec<Vec<u32>> = Vec::new();
        let mut bodies: Vec<Vec<u32>> = Vec::new();
        for (i, p) in book.passages.iter().enumerate() {
            if p.ruling.is_none() {
                continue;
            }
            for q in p.phrasings() {
                exact.entry(plain_words(q)).or_insert(i);
            }
            let first = phrasings.len();
            phrasings.extend(p.phrasings().map(|q| {
                stems_with(q, &mut stem)
                    .into_iter()
                    .map(|s| intern(s, &mut df))
                    .collect()
            }));
            bodies.push(
                stems_with(&p.text, &mut stem)
                    .into_iter()
                    .map(|s| intern(s, &mut df))
                    .collect(),
            );
            let mut all: Vec<u32> = phrasings[first..].iter().flatten().copied().collect();
            all.sort_unstable();
            all.dedup();
            for &id in &all {
                df[id as usize] += 1;
            }
            rulings.push(RulingEntry {
                passage: i,
                phrasings: first..phrasings.len(),
            });
        }
        let n = rulings.len().max(1) as f32;
        let idf: Vec<f32> = df
            .iter()
            .map(|&d| (1.0 + n / (d as f32 + 1.0)).ln())
            .collect();
        let mut matcher = RulingMatcher {
            vectors: WordVectors::embedded(),
            phrasings: Postings::new(&phrasings, &idf),
            bodies: Postings::new(&bodies, &idf),
            ids,
            idf,
            rulings: Vec::new(),
            phrasing_ruling: Vec::new(),
            meanings: Meanings::new(Vec::new(), 0),
            meaning_scales: Vec::new(),
            unknown_weight: (1.0 + n).ln() * 0.5,
            known_stems,
            exact,
        };
        matcher.phrasing_ruling = rulings
            .iter()
            .enumerate()
            .flat_map(|(r, entry)| entry.phrasings.clone().map(move |_| r as u32))
            .collect();
        matcher.rulings = rulings;
        matcher.store_meanings(book);
        matcher
    }

    /// The ruling (its passage) one of whose phrasings the question is, word for word.
    pub fn phrased_exactly(&self, question: &str) -> Option<usize> {
        self.exact.get(&plain_words(question)).copied()
    }

    /// Every phrasing's meaning, quantised, in the order of the phrasing tables.
    fn store_meanings(&mut self, book: &Rulebook) {
        let dims = self.vectors.dims();
        let count = self.phrasing_ruling.len();
        let mut meanings = Vec::with_capacity(count * dims);
        let mut scales = Vec::with_capacity(count);
        for r in &self.rulings {
            for q in book.passages[r.passage].phrasings() {
                let (m, scale) = quantise(&self.meaning(q).unwrap_or_else(|| vec![0.0; dims]));
                meanings.extend(m);
                scales.push(scale);
            }
        }
        self.meanings = Meanings::new(meanings, dims);
        self.meaning_scales = scales;
    }

    /// [`stems`], with the rulings' words looked up.
    fn stems(&self, text: &str) -> Vec<String> {
        stems_with(text, &mut |w| {
            self.known_stems
                .get(w)
                .cloned()
                .unwrap_or_else(|| stem_word(w))
        })
    }

    /// A text's meaning: the mean of its word vectors, each word weighted by its rarity, scaled
    /// to unit length (so that a dot product is the cosine).
    fn meaning(&self, text: &str) -> Option<Vec<f32>> {
        let mut m = self
            .vectors
            .sentence_with(text, |word| self.word_weight(word))?;
        let norm = m.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm == 0.0 {
            return None;
        }
        m.iter_mut().for_each(|x| *x /= norm);
        Some(m)
    }

    /// A word's rarity as [`RulingMatcher::meaning`] weighs it: the weight of its stem (as
    /// [`stems`] gives it), or of an unknown word. The word is one as the word vectors key
    /// it (ASCII letters and digits, lower case), so it is its own and only candidate stem.
    fn word_weight(&self, w: &str) -> f32 {
        if STOP_SET.contains(w)
            || (w.len() < 2 && !w.chars().all(|c| c.is_ascii_digit()))
            || is_square(w)
        {
            return self.unknown_weight;
        }
        let stem = match self.known_stems.get(w) {
            Some(s) => self.ids.get(s),
            None => self.ids.get(&stem_word(w)),
        };
        stem.map_or(self.unknown_weight, |&i| self.idf[i as usize])
    }

    /// The old way of [`RulingMatcher::word_weight`], for its test.
    #[cfg(test)]
    fn word_weight_by_stems(&self, word: &str) -> f32 {
        self.stems(word)
            .first()
            .and_then(|s| self.ids.get(s))
            .map_or(self.unknown_weight, |&i| self.idf[i as usize])
    }

    /// The question's words as (id, weight): words typed weigh their rarity, words the
    /// vocabulary adds (synonyms, expansions) half of it; with the norm of all of them,
    /// words no ruling uses included.
    fn query(&self, question: &str, vocabulary: &Vocabulary) -> (Vec<(u32, f32)>, f32) {
        let typed = self.stems(question);
        let expanded = self.stems(&vocabulary.rewrite(question));
        let mut query = Vec::new();
        let mut norm = 0.0f32;
        for s in &expanded {
            let typed_word = typed.contains(s);
            let id = self.ids.get(s).copied();
            let weight = match id {
                Some(i) => self.idf[i as usize],
                None if typed_word => self.unknown_weight,
                None => continue,
            } * if typed_word { 1.0 } else { 0.5 }
                * colour_factor(s);
            norm += weight * weight;
            if let Some(i) = id {
                query.push((i, weight));
            }
        }
        (query, norm.sqrt())
    }

    /// Every ruling's similarity to the question (0 to 1), best first, the best `limit`;
    /// then, in any order, that of each ruling among `also` (passages, such as the search's
    /// hits) that is not among the best.
    pub fn rank(
        &self,
        question: &str,
        vocabulary: &Vocabulary,
        weights: RankWeights,
        limit: usize,
        also: &[usize],
    ) -> Vec<(usize, f32)> {
        let (query, q_norm) = self.query(question, vocabulary);
        if q_norm == 0.0 {
            return Vec::new();
        }
        let phrasing = self.phrasings.best_by_group(
            &query,
            &self.idf,
            q_norm,
            &self.phrasing_ruling,
            self.rulings.len(),
        );
        let body = self.bodies.shared(&query, &self.idf);
        let alike = self.alike(question, weights);
        // The best `limit` in the order a stable sort by score would give them (rulings are in
        // passage order), kept as they come: a ruling no better than the worst kept is passed
        // over after one comparison. The order is total and passages are distinct, so these
        // are the same `limit` in the same order however they are found.
        let order = |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        let mut top: Vec<(usize, f32)> = Vec::with_capacity(limit + 1);
        let mut asked_for: Vec<(usize, f32)> = Vec::new();
        for (r, entry) in self.rulings.iter().enumerate() {
            let best = phrasing[r];
            let body = self.bodies.cosine(&body, r, q_norm);
            let words = (1.0 - weights.body) * best + weights.body * body;
            let meant = alike.as_ref().map_or(0.0, |a| {
                ((a[r] - weights.semantic_floor) / (1.0 - weights.semantic_floor)).max(0.0)
            });
            let scored = (
                entry.passage,
                (1.0 - weights.semantic) * words + weights.semantic * meant,
            );
            if also.contains(&entry.passage) {
                asked_for.push(scored);
            }
            if top.len() == limit && top.last().is_none_or(|worst| order(&scored, worst).is_ge()) {
                continue;
            }
            let at = top.partition_point(|kept| order(kept, &scored).is_lt());
            top.insert(at, scored);
            top.truncate(limit);
        }
        asked_for.retain(|a| !top.contains(a));
        top.extend(asked_for);
        top
    }

    /// Each ruling's best cosine of the question's meaning with its phrasings' (0 at least), or
    /// `None` when meaning does not count or no word of the question has a vector.
    fn alike(&self, question: &str, weights: RankWeights) -> Option<Vec<f32>> {
        if weights.semantic <= 0.0 {
            return None;
        }
        let (q, q_scale) = quantise(&self.meaning(question)?);
        let q: Vec<i16> = q.into_iter().map(i16::from).collect();
        // Each phrasing's cosine, in one pass the compiler vectorises (the same conversion and
        // the same two products, in the same order, as one phrasing at a time).
        let cosines: Vec<f32> = self
            .meanings
            .dots(&q)
            .iter()
            .zip(&self.meaning_scales)
            .map(|(&d, &scale)| d as f32 * scale * q_scale)
            .collect();
        Some(
            self.rulings
                .iter()
                .map(|r| {
                    cosines[r.phrasings.clone()]
                        .iter()
                        .fold(0.0f32, |best, &c| larger(best, c))
                })
                .collect(),
        )
    }
}

/// The share of its rarity a stem weighs in a question: "white" and "black" name the players
/// of nearly every scenario, so they say little about which ruling is asked for.
fn colour_factor(stem: &str) -> f32 {
    if stem == "white" || stem == "black" {
        COLOUR_WEIGHT
    } else {
        1.0
    }
}

/// The larger of two numbers, as `f32::max` gives it for the cosines compared here (never
/// NaN, never -0), without its NaN handling: a running maximum over every phrasing is then
/// one compare a value instead of three dependent instructions.
#[inline(always)]
fn larger(a: f32, b: f32) -> f32 {
    if b > a { b } else { a }
}

/// A unit vector as bytes and the scale that turns them back into floats: the phrasings'
/// meanings take a quarter of the memory, so that comparing a question with all of them
/// stays in the processor's cache.
fn quantise(v: &[f32]) -> (Vec<i8>, f32) {
    let max = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return (vec![0; v.len()], 0.0);
    }
    let scale = max / 127.0;
    (v.iter().map(|x| (x / scale).round() as i8).collect(), scale)
}

/// The dot product of `q` with each `q.len()`-long vector of `all` (bytes, widened as they are
/// read). Integer sums are exact in
/// any order, so the AVX2 build of the same loop (chosen at run time: about 3x faster than
/// the baseline x86-64 one, which has no 16-bit multiply-add of whole registers) and the AVX-512
/// VNNI one (a byte multiply-add, chosen first where the processor has it) give the same
/// results as the portable one.
fn dots(all: &[i8], q: &[i16]) -> Vec<i32> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { dots_avx2(all, q) };
    }
    dots_portable(all, q)
}

/// [`dots`] with AVX2 for vectors of 16 × `N` values: 16 products a multiply-add
/// (`vpmaddwd`, pairs summed into 32 bits: exact, the values are bytes widened), and the
/// horizontal sums of four vectors at once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dots_avx2(all: &[i8], q: &[i16]) -> Vec<i32> {
    match q.len() {
        64 => dots_avx2_of::<4>(all, q),
        32 => dots_avx2_of::<2>(all, q),
        _ => dots_portable(all, q),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dots_avx2_of<const N: usize>(all: &[i8], q: &[i16]) -> Vec<i32> {
    use std::arch::x86_64::*;
    assert_eq!(q.len(), 16 * N);
    let size = 16 * N;
    let count = all.len() / size;
    // SAFETY (every load below): `p` is the start of one of the `count` whole vectors of
    // `all`, so `p + i * 16 .. p + (i + 1) * 16` for `i < N` lies inside `all`; `q` holds
    // exactly `N` × 16 values (asserted).
    let q: [__m256i; N] =
        std::array::from_fn(|i| unsafe { _mm256_loadu_si256(q.as_ptr().add(i * 16).cast()) });
    // One vector's products, in eight 32-bit lanes: sixteen bytes at a time widened to 16
    // bits and multiplied-and-added in pairs.
    let lanes = |p: *const i8| {
        let widen =
            |i: usize| _mm256_cvtepi8_epi16(unsafe { _mm_loadu_si128(p.add(i * 16).cast()) });
        let mut acc = _mm256_madd_epi16(widen(0), q[0]);
        for (i, &qv) in q.iter().enumerate().skip(1) {
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(widen(i), qv));
        }
        acc
    };
    let mut out: Vec<i32> = Vec::with_capacity(count);
    let base = all.as_ptr();
    let dst = out.as_mut_ptr();
    let quads = count / 4;
    for k in 0..quads {
        // SAFETY: vectors 4k .. 4k + 3 are among the `count` of `all`.
        let p = unsafe { base.add(k * 4 * size) };
        let (p1, p2, p3) = unsafe { (p.add(size), p.add(2 * size), p.add(3 * size)) };
        let a = _mm256_hadd_epi32(lanes(p), lanes(p1));
        let b = _mm256_hadd_epi32(lanes(p2), lanes(p3));
        let h = _mm256_hadd_epi32(a, b);
        let sums = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256::<1>(h));
        // SAFETY: slots 4k .. 4k + 3 of the `count` reserved.
        unsafe { _mm_storeu_si128(dst.add(4 * k).cast(), sums) };
    }
    for k in 4 * quads..count {
        // SAFETY: vector k is among the `count` of `all`.
        let acc = lanes(unsafe { base.add(k * size) });
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        // SAFETY: slot k of the `count` reserved.
        unsafe { dst.add(k).write(_mm_cvtsi128_si32(s)) };
    }
    // SAFETY: every one of the `count` slots was written above.
    unsafe { out.set_len(count) };
    out
}

/// Whether the processor has what [`dots_vnni_64`] needs.
fn has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The phrasings' meanings (64-byte vectors) as [`dots_vnni_64`] reads them: in blocks of 16
/// vectors, each block holding, for every 4 dimensions in turn, those 4 bytes of each of its
/// 16 vectors; each byte made unsigned by flipping its sign bit (which adds 128). The last
/// block is padded with zero vectors.
fn interleave(all: &[i8]) -> Vec<u8> {
    let count = all.len() / 64;
    let mut out = vec![0x80u8; count.div_ceil(16) * 16 * 64];
    for (v, vector) in all.chunks_exact(64).enumerate() {
        let (block, lane) = (v / 16, v % 16);
        for (d, &x) in vector.iter().enumerate() {
            out[block * 1024 + (d / 4) * 64 + lane * 4 + d % 4] = x.to_ne_bytes()[0] ^ 0x80;
        }
    }
    out
}

/// [`dots`] for 64-value vectors, read from their [`interleave`]d bytes (`count` of them), and
/// a query of bytes, with AVX-512 VNNI: sixteen vectors at a time, one unsigned-by-signed byte
/// multiply-add (`vpdpbusd`, four products summed into each 32-bit lane, one lane a vector)
/// for each 4 dimensions, so no horizontal sums. The 128 added to each vector byte adds 128 ×
/// the query's sum, taken off again: integer sums, exact (at most 64 × 255 × 128 in
/// magnitude), the same results as the other builds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vnni")]
fn dots_vnni_64(blocked: &[u8], count: usize, q: &[i16]) -> Vec<i32> {
    use std::arch::x86_64::*;
    assert!(q.len() == 64 && blocked.len() >= count.div_ceil(16) * 1024);
    let q: [i8; 64] = std::array::from_fn(|i| q[i] as i8);
    let offset = _mm512_set1_epi32(128 * q.iter().map(|&x| i32::from(x)).sum::<i32>());
    let groups: [__m512i; 16] = std::array::from_fn(|g| {
        let bytes = [q[4 * g], q[4 * g + 1], q[4 * g + 2], q[4 * g + 3]];
        _mm512_set1_epi32(i32::from_ne_bytes(bytes.map(|b| b.to_ne_bytes()[0])))
    });
    let blocks = count.div_ceil(16);
    let mut out = vec![0i32; blocks * 16];
    for (block, dst) in out.chunks_exact_mut(16).enumerate() {
        let mut acc = _mm512_setzero_si512();
        for (g, &qg) in groups.iter().enumerate() {
            // SAFETY: block < blocks, so these 64 bytes lie inside `blocked` (asserted).
            let v =
                unsafe { _mm512_loadu_si512(blocked.as_ptr().add(block * 1024 + g * 64).cast()) };
            acc = _mm512_dpbusd_epi32(acc, v, qg);
        }
        // SAFETY: `dst` holds 16 values.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), _mm512_sub_epi32(acc, offset)) };
    }
    out.truncate(count);
    out
}

/// The phrasings' meanings, quantised, and the same [`interleave`]d where the processor can
/// compare them that way (empty otherwise).
struct Meanings {
    bytes: Vec<i8>,
    blocked: Vec<u8>,
}

impl Meanings {
    fn new(bytes: Vec<i8>, dims: usize) -> Meanings {
        let blocked = if dims == 64 && has_vnni() {
            interleave(&bytes)
        } else {
            Vec::new()
        };
        Meanings { bytes, blocked }
    }

    /// [`dots`] of `q` with every meaning.
    fn dots(&self, q: &[i16]) -> Vec<i32> {
        #[cfg(target_arch = "x86_64")]
        if !self.blocked.is_empty() && q.len() == 64 && q.iter().all(|&x| i8::try_from(x).is_ok()) {
            // SAFETY: `blocked` is only filled where the processor has the features.
            return unsafe { dots_vnni_64(&self.blocked, self.bytes.len() / 64, q) };
        }
        dots(&self.bytes, q)
    }
}

/// The loop of [`dots`], inlined into each build of it (an iterator's `collect` would be a
/// separate function, compiled without the caller's target features).
#[inline(always)]
fn dots_portable(all: &[i8], q: &[i16]) -> Vec<i32> {
    let mut out = Vec::with_capacity(all.len() / q.len().max(1));
    for p in all.chunks_exact(q.len().max(1)) {
        let mut sum = 0i32;
        for (&x, &y) in p.iter().zip(q) {
            sum += i32::from(x) * i32::from(y);
        }
        out.push(sum);
    }
    out
}

/// A text's words, lower-cased and joined by single spaces, punctuation dropped: how a question
/// is compared with a ruling's phrasings for an exact match.
fn plain_words(text: &str) -> String {
    crate::search::words(text).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looked_up_stems_are_the_stemmers() {
        let book = Rulebook::embedded().unwrap();
        let matcher = RulingMatcher::new(&book);
        let mut texts: Vec<&str> = vec![
            "Can I castle OUT of check?! The king's rook, e4 and 3fold",
            "j'adoube — Ünter den Königen, zzzq checkmated unknownwords",
        ];
        texts.extend(book.passages.iter().take(300).map(|p| p.text.as_str()));
        for text in texts {
            assert_eq!(matcher.stems(text), stems(text), "{text}");
        }
    }

    #[test]
    fn word_weights_are_the_stems_weights() {
        let book = Rulebook::embedded().unwrap();
        let matcher = RulingMatcher::new(&book);
        let mut texts: Vec<&str> = vec!["a b 1 22 e4 h9 zzzq the can't checkmated unknownwords"];
        texts.extend(book.passages.iter().map(|p| p.text.as_str()));
        for text in texts {
            for w in crate::answer::semantic::words(text) {
                assert_eq!(
                    matcher.word_weight(&w).to_bits(),
                    matcher.word_weight_by_stems(&w).to_bits(),
                    "{w}"
                );
            }
        }
    }

    #[test]
    fn irregular_verbs_and_checkmate_meet_their_other_forms() {
        assert_eq!(stems("my time ran out"), stems("my time runs out"));
        assert_eq!(stems("the flag fell"), stems("the flag falls"));
        assert_eq!(stems("the game is drawn"), stems("the game is a draw"));
        assert_eq!(stems("I checkmated him"), stems("I mated him"));
        assert_ne!(stems("stalemate"), stems("mate"));
    }

    #[test]
    fn check_phrases_tell_state_action_and_past_apart() {
        let has = |text: &str, token: &str| stems(text).iter().any(|s| s == token);
        assert!(has("Can you castle in check?", "checkstate"));
        assert!(has("castle out of check", "checkstate"));
        assert!(has("castle with check", "checkgive"));
        assert!(!has("Can castling give check?", "checkstate"));
        assert!(has("can I castle through check", "checkthrough"));
        assert!(has(
            "Can you castle after you've been in check?",
            "checkpast"
        ));
        assert!(!has(
            "Can you castle after you've been in check?",
            "checkstate"
        ));
        assert!(has("I was checked earlier", "checkpast"));
        assert!(!has("I checkmated him", "checkstate"));
    }

    #[test]
    fn best_overlaps_are_the_dense_ones() {
        let book = Rulebook::embedded().unwrap();
        let matcher = RulingMatcher::new(&book);
        let vocabulary = Vocabulary::embedded();
        let mut texts: Vec<&str> = vec!["Can I castle out of check?", "zzzq unknownwords", ""];
        texts.extend(book.passages.iter().map(|p| p.title.as_str()));
        texts.extend(book.passages.iter().take(200).map(|p| p.text.as_str()));
        for text in texts {
            let (query, q_norm) = matcher.query(text, &vocabulary);
            if q_norm == 0.0 {
                continue;
            }
            let shared = matcher.phrasings.shared(&query, &matcher.idf);
            let dense: Vec<u32> = matcher
                .rulings
                .iter()
                .map(|entry| {
                    entry
                        .phrasings
                        .clone()
                        .fold(0.0f32, |a, t| {
                            larger(a, matcher.phrasings.cosine(&shared, t, q_norm))
                        })
                        .to_bits()
                })
                .collect();
            let sparse: Vec<u32> = matcher
                .phrasings
                .best_by_group(
                    &query,
                    &matcher.idf,
                    q_norm,
                    &matcher.phrasing_ruling,
                    matcher.rulings.len(),
                )
                .into_iter()
                .map(f32::to_bits)
                .collect();
            assert_eq!(dense, sparse, "{text}");
        }
    }

    #[test]
    fn dot_products_are_exact_on_every_path() {
        let all: Vec<i8> = (0..64 * 9).map(|i| ((i * 37) % 255 - 127) as i8).collect();
        let q: Vec<i16> = (0..64).map(|i| ((i * 53) % 256 - 128) as i16).collect();
        let naive: Vec<i32> = all
            .chunks_exact(64)
            .map(|p| p.iter().zip(&q).map(|(&x, &y)| x as i32 * y as i32).sum())
            .collect();
        assert_eq!(dots(&all, &q), naive);
        assert_eq!(dots_portable(&all, &q), naive);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            assert_eq!(unsafe { dots_avx2(&all, &q) }, naive);
        }
        // Every count of vectors around the sixteen of a block, through the meanings' own
        // layout.
        for count in 0..40 {
            let all: Vec<i8> = (0..64 * count)
                .map(|i| ((i * 29) % 255 - 127) as i8)
                .collect();
            let naive: Vec<i32> = all
                .chunks_exact(64)
                .map(|p| p.iter().zip(&q).map(|(&x, &y)| x as i32 * y as i32).sum())
                .collect();
            assert_eq!(Meanings::new(all, 64).dots(&q), naive, "{count} vectors");
        }
        // The extremes of bytes and query.
        for (x, y) in [
            (i8::MIN, -128i16),
            (i8::MIN, 127),
            (i8::MAX, -128),
            (i8::MAX, 127),
        ] {
            let all = vec![x; 64 * 5];
            let q = vec![y; 64];
            let expected = vec![64 * i32::from(x) * i32::from(y); 5];
            assert_eq!(dots(&all, &q), expected);
            assert_eq!(Meanings::new(all, 64).dots(&q), expected);
        }
        // Every count of vectors around the four summed at once, and the other widths.
        for width in [16, 32, 48, 64] {
            for count in 0..10 {
                let all = &all[..width * count];
                let q = &q[..width];
                let naive: Vec<i32> = all
                    .chunks_exact(width)
                    .map(|p| p.iter().zip(q).map(|(&x, &y)| x as i32 * y as i32).sum())
                    .collect();
                assert_eq!(dots(all, q), naive, "{width} × {count}");
            }
        }
    }
}
