//! The tantivy index over rulebook passages, and query execution.
//!
//! Ranking, in order:
//! 1. article numbers named in the query go first;
//! 2. the query is rewritten by the vocabulary, tokenised like the documents (stop words,
//!    English stemming) and misspelt words are corrected to the nearest rulebook word;
//! 3. every term is looked up in the passage fields (heading title, FAQ question, enclosing
//!    headings, body twice: with and without BM25 length normalisation, so that a short law
//!    passage is not beaten by a long one merely for its length) and adjacent query words
//!    also as a bigram, which rewards passages that use the same phrase;
//! 4. a small second index of whole pages (title, summary, aliases, keywords) gives each
//!    page a prior: "what people call the topic" lifts every passage of the right page
//!    without each passage repeating the aliases;
//! 5. FAQ and guide passages stand for the article they cite first (the rulebook's
//!    convention: "cite the deciding article first"), and the hits are merged per article.

use std::collections::HashMap;

use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, ConstScoreQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::tokenizer::{
    Language, LowerCaser, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
    WhitespaceTokenizer,
};
use tantivy::{DocAddress, Index, IndexReader, TantivyDocument, Term, doc};

use super::disk;
use super::postings::{Clause, MemoryPostings};
use super::vocabulary::Vocabulary;
use crate::rulebook::{PageKind, Passage, Rulebook};

const ENGLISH: &str = "arbiter_en";
const BIGRAMS: &str = "arbiter_bigrams";

/// Bumped whenever the schema or what goes into the fields changes, so that an index on disk
/// built by an older binary is rebuilt rather than misread.
const SCHEMA_VERSION: &str = "4";

/// Words too common to help. Unlike tantivy's English list it keeps `no`, `not`, `if`,
/// `before`, `after`, which change what a rules question means.
const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "am", "of", "to", "in", "on", "at",
    "for", "with", "by", "and", "or", "it", "its", "this", "that", "these", "those", "do", "does",
    "did", "i", "my", "me", "you", "your", "he", "she", "his", "her", "we", "our", "they", "their",
    "what", "which", "who", "how", "there", "here", "as", "from", "so", "than", "then", "about",
    "any", "some", "just", "also", "s", "t", "please", "hi", "hello",
    // Dutch and French "and"/"in": alone it matched "en passant" in every Dutch question;
    // "passant" carries that term.
    "en",
    // "The FIDE Laws of Chess say …" says where the asker looks, not what about (the matcher
    // skips the same framing).
    "laws",
];

/// Why an index could not be built or opened.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("search index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("search index: {0}")]
    Io(#[from] std::io::Error),
    #[error("search index: {0}")]
    Other(String),
}

/// One ranked passage.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// Index into [`Rulebook::passages`].
    #[serde(skip)]
    pub passage: usize,
    /// The article this hit stands for: the heading's own number, or for guide/FAQ passages
    /// the article they cite first.
    pub article: Option<String>,
    pub title: String,
    pub page: String,
    pub page_title: String,
    pub anchor: String,
    pub url: String,
    /// The kind of page the passage is on (`law`, `guide`, `rulings`).
    pub kind: PageKind,
    pub score: f32,
    /// Highlighted HTML snippet of the passage text (empty when the `SearchMode` asks for none).
    pub snippet: String,
    /// `article` when the query named this article, `search` otherwise.
    pub matched_by: MatchedBy,
}

/// How a [`Hit`] was found; serialized in `lowercase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchedBy {
    /// The query named this article ("9.2", "article 9.2").
    Article,
    /// The full-text search ranked it.
    Search,
}

/// What a search returns besides the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchMode {
    /// One passage per article (a list of results); otherwise a FAQ entry and the law passage
    /// of the same article may both appear (what the answer layer chooses from).
    pub one_per_article: bool,
    /// A highlighted snippet per hit (costly; the answer layer writes its own).
    pub snippets: bool,
}

impl SearchMode {
    /// `arbiter search`, `/api/search`: one result per article, with snippets.
    pub const LISTING: SearchMode = SearchMode {
        one_per_article: true,
        snippets: true,
    };
    /// The answer layer: every passage, no snippets.
    pub const ANSWER: SearchMode = SearchMode {
        one_per_article: false,
        snippets: false,
    };
}

/// The ranking weights. The defaults are what `tests/search_eval.rs` was tuned with; the
/// struct is public so that the evaluation can try alternatives without a rebuild.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct Tuning {
    /// Field weights of a passage.
    pub title: f32,
    pub question: f32,
    pub parents: f32,
    pub body: f32,
    /// The body again without length normalisation.
    pub body_flat: f32,
    /// Adjacent query words found next to each other in the heading or body.
    pub bigram: f32,
    /// Weight of the page prior (the page index's score of the passage's page).
    pub page: f32,
    /// How many of the best pages get a prior.
    pub pages: usize,
    /// Field weights of the page index.
    pub page_title: f32,
    pub page_summary: f32,
    pub page_aliases: f32,
    pub page_keywords: f32,
    pub page_bigram: f32,
    /// Weight of words the vocabulary added and of spelling corrections, relative to the
    /// words typed.
    pub expansion: f32,
    pub correction: f32,
    /// Multipliers by kind of passage; `intro` is a page's text before its first heading.
    pub rulings: f32,
    pub guide: f32,
    pub intro: f32,
    /// FAQ/guide passages stand for the article they cite first (else the cited article
    /// whose own passage scored best).
    pub map_first: bool,
    /// Passages fetched from tantivy before merging per article.
    pub candidates: usize,
    /// What a law page's introduction stands for: 0 its first citation, 1 the page's first
    /// article, 2 the page's best-scoring article, 3 nothing (dropped).
    pub intro_map: u8,
    /// Scores are multiplied by coverage^this: the share (by inverse document frequency) of
    /// the words typed that the passage or its page contains. 0 turns it off.
    pub coverage: f32,
    /// Multiplier for passages on the law page of a setting the query names (rapid, blitz,
    /// Chess960…; see `[settings]` in the vocabulary), and for passages on such a page when
    /// the query names none of its settings.
    pub setting: f32,
    pub setting_other: f32,
    /// Look words the vocabulary added up in the heading and body only (faster).
    pub expansion_light: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            title: 3.0,
            question: 1.33,
            parents: 2.0,
            body: 1.33,
            body_flat: 0.5,
            bigram: 0.75,
            page: 1.0,
            pages: 5,
            page_title: 1.0,
            page_summary: 0.2,
            page_aliases: 1.0,
            page_keywords: 0.5,
            page_bigram: 0.5,
            expansion: 0.5,
            correction: 1.0,
            rulings: 0.8,
            guide: 0.8,
            intro: 1.0,
            map_first: true,
            candidates: 20,
            intro_map: 2,
            coverage: 0.4,
            setting: 1.4,
            setting_other: 0.9,
            expansion_light: true,
        }
    }
}

impl Tuning {
    /// Sets one weight by name (`"title=3.5"`), for experiments.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (key, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("{assignment}: expected key=value"))?;
        let (key, value) = (key.trim(), value.trim());
        let num = || {
            value
                .parse::<f32>()
                .map_err(|e| format!("{assignment}: {e}"))
        };
        match key {
            "title" => self.title = num()?,
            "question" => self.question = num()?,
            "parents" => self.parents = num()?,
            "body" => self.body = num()?,
            "body_flat" => self.body_flat = num()?,
            "bigram" => self.bigram = num()?,
            "page" => self.page = num()?,
            "pages" => self.pages = num()? as usize,
            "page_title" => self.page_title = num()?,
            "page_summary" => self.page_summary = num()?,
            "page_aliases" => self.page_aliases = num()?,
            "page_keywords" => self.page_keywords = num()?,
            "page_bigram" => self.page_bigram = num()?,
            "expansion" => self.expansion = num()?,
            "correction" => self.correction = num()?,
            "rulings" => self.rulings = num()?,
            "guide" => self.guide = num()?,
            "intro" => self.intro = num()?,
            "map_first" => self.map_first = num()? != 0.0,
            "candidates" => self.candidates = num()? as usize,
            "intro_map" => self.intro_map = num()? as u8,
            "coverage" => self.coverage = num()?,
            "setting" => self.setting = num()?,
            "setting_other" => self.setting_other = num()?,
            "expansion_light" => self.expansion_light = num()? != 0.0,
            _ => return Err(format!("unknown tuning key {key}")),
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
struct Fields {
    idx: Field,
    article: Field,
    page: Field,
    title: Field,
    question: Field,
    parents: Field,
    body: Field,
    body_flat: Field,
    bigrams: Field,
}

/// One field of the page prior, scored with BM25 by hand: there are only a few dozen pages.
#[derive(Default)]
struct PageField {
    /// Term → (page, term frequency).
    postings: FxHashMap<String, Vec<(usize, u32)>>,
    /// Length of the field, in terms, by page.
    lengths: Vec<u32>,
    average: f32,
}

impl PageField {
    const K1: f32 = 1.2;
    const B: f32 = 0.75;

    fn new(texts: Vec<Vec<String>>) -> PageField {
        let mut field = PageField {
            lengths: texts.iter().map(|t| t.len() as u32).collect(),
            ..PageField::default()
        };
        field.average =
            (field.lengths.iter().sum::<u32>() as f32 / texts.len().max(1) as f32).max(1.0);
        for (page, terms) in texts.into_iter().enumerate() {
            for term in terms {
                let list = field.postings.entry(term).or_default();
                match list.last_mut() {
                    Some((p, tf)) if *p == page => *tf += 1,
                    _ => list.push((page, 1)),
                }
            }
        }
        field
    }

    /// Adds `weight` × the BM25 score of `term` to each page's score.
    fn add_scores(&self, term: &str, weight: f32, scores: &mut [f32]) {
        let Some(list) = self.postings.get(term) else {
            return;
        };
        let n = self.lengths.len() as f32;
        let idf = (1.0 + (n - list.len() as f32 + 0.5) / (list.len() as f32 + 0.5)).ln();
        for &(page, tf) in list {
            let tf = tf as f32;
            let norm =
                Self::K1 * (1.0 - Self::B + Self::B * self.lengths[page] as f32 / self.average);
            scores[page] += weight * idf * (1.0 + Self::K1) * tf / (tf + norm);
        }
    }
}

/// The page prior's fields: title, summary, aliases, keywords and their bigrams.
struct PageStats {
    ids: Vec<String>,
    fields: Vec<PageField>,
}

impl PageStats {
    fn new(book: &Rulebook, analyzer: &mut TextAnalyzer) -> PageStats {
        let mut fields: Vec<Vec<Vec<String>>> = vec![Vec::new(); 5];
        for page in &book.pages {
            fields[0].push(stems(analyzer, &normalise_notation(&page.title)));
            fields[1].push(stems(analyzer, &normalise_notation(&page.summary)));
            fields[2].push(stems(
                analyzer,
                &normalise_notation(&page.aliases.join(" ; ")),
            ));
            fields[3].push(stems(
                analyzer,
                &normalise_notation(&page.keywords.join(" ; ")),
            ));
            let mut bigrams = String::new();
            for phrase in page
                .aliases
                .iter()
                .chain(&page.keywords)
                .chain(std::iter::once(&page.title))
            {
                bigrams.push_str(&bigram_text(analyzer, &normalise_notation(phrase)));
            }
            fields[4].push(bigrams.split_whitespace().map(str::to_string).collect());
        }
        PageStats {
            ids: book.pages.iter().map(|p| p.id.clone()).collect(),
            fields: fields.into_iter().map(PageField::new).collect(),
        }
    }
}

/// The searchable rulebook: an immutable index plus the rulebook and vocabulary it serves.
pub struct SearchIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    page_stats: PageStats,
    analyzer: TextAnalyzer,
    vocabulary: Vocabulary,
    /// Every word of the rulebook and vocabulary with its number of occurrences, for
    /// spelling correction.
    known_words: FxHashMap<String, u32>,
    /// The stem of every known word (`None` for a stop word): the analyzer's result for a
    /// single word, which is what it yields word by word for a text.
    word_stems: FxHashMap<String, Option<String>>,
    /// Known words by first letter, each with its length in characters, for spelling
    /// correction.
    by_initial: FxHashMap<char, Vec<(String, usize)>>,
    tuning: Tuning,
    /// Every stem of the rulebook, numbered.
    stem_ids: FxHashMap<String, u32>,
    /// Inverse document frequency over passages, by stem number.
    idf: Vec<f32>,
    /// Per passage: the numbers of the stems of everything it says (heading, body, enclosing
    /// headings, and its page's title, summary, aliases and keywords), sorted.
    passage_stems: Vec<Vec<u32>>,
    /// Per passage: its body's tokens as (stem number, start, end) in `Passage::text`.
    passage_tokens: Vec<Vec<(u32, usize, usize)>>,
    /// Every page a setting of the vocabulary points to.
    setting_pages: FxHashSet<String>,
    /// Passage index of each document, by segment and document id: read once, so that
    /// ranking never touches the document store.
    doc_passage: Vec<Vec<usize>>,
    /// The postings of the searched fields in memory (`None` for an index of several
    /// segments), scored as tantivy scores them: see `postings.rs`. Also which terms each field
    /// holds, so that a query never asks for a term a field lacks (such a clause matches
    /// nothing; leaving it out changes no score).
    postings: Option<MemoryPostings>,
    /// Where the index came from: `memory` or the directory opened.
    pub origin: String,
}

fn text_options(tokenizer: &str, norms: bool, positions: bool) -> TextOptions {
    let record = if positions {
        IndexRecordOption::WithFreqsAndPositions
    } else {
        IndexRecordOption::WithFreqs
    };
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(tokenizer)
            .set_index_option(record)
            .set_fieldnorms(norms),
    )
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let fields = Fields {
        idx: b.add_u64_field("idx", STORED | tantivy::schema::INDEXED),
        article: b.add_text_field("article", STRING | STORED),
        page: b.add_text_field("page", STRING | STORED),
        title: b.add_text_field("title", text_options(ENGLISH, true, false)),
        question: b.add_text_field("question", text_options(ENGLISH, true, false)),
        parents: b.add_text_field("parents", text_options(ENGLISH, true, false)),
        body: b.add_text_field("body", text_options(ENGLISH, true, false)),
        body_flat: b.add_text_field("body_flat", text_options(ENGLISH, false, false)),
        bigrams: b.add_text_field("bigrams", text_options(BIGRAMS, false, false)),
    };
    (b.build(), fields)
}

fn english_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(LowerCaser)
        .filter(StopWordFilter::remove(
            STOP_WORDS.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        ))
        .filter(Stemmer::new(Language::English))
        .build()
}

fn register_tokenizers(index: &Index) {
    index.tokenizers().register(ENGLISH, english_analyzer());
    // Bigrams are made by `bigrams()` and stored space-separated.
    index.tokenizers().register(
        BIGRAMS,
        TextAnalyzer::builder(WhitespaceTokenizer::default()).build(),
    );
}

/// The stemmed tokens of a text, stop words removed.
fn stems(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stream = analyzer.token_stream(text);
    while stream.advance() {
        out.push(stream.token().text.clone());
    }
    out
}

/// Adjacent stem pairs (`touch_piec`), stop words skipped, space-separated. A phrase split
/// across lines or punctuation still pairs up; that is noise BM25 tolerates.
fn bigram_text(analyzer: &mut TextAnalyzer, text: &str) -> String {
    let s = stems(analyzer, text);
    let mut out = String::new();
    for w in s.windows(2) {
        if w[0] != w[1] {
            out.push_str(&w[0]);
            out.push('_');
            out.push_str(&w[1]);
            out.push(' ');
        }
    }
    out
}

/// Rewrites chess notation the tokenizer would split, and small numbers written as digits,
/// the same way in documents and queries.
fn normalise_notation(text: &str) -> String {
    // Every pattern below holds a '-', a '.' or a '\'': without them there is nothing to
    // replace (most questions), and six passes that copy the text are saved.
    if !text.contains(['-', '.', '\'']) {
        return spell_small_numbers(text);
    }
    let text = text
        .replace("O-O-O", "castling queenside long")
        .replace("0-0-0", "castling queenside long")
        .replace("O-O", "castling kingside short")
        .replace("0-0", "castling kingside short")
        .replace("e.p.", "en passant")
        .replace("j'adoube", "jadoube j'adoube adjust");
    spell_small_numbers(&text)
}

/// "2 minutes" → "two minutes", so that digits and words meet; article numbers (7.5.5),
/// times (90+30) and larger numbers are left alone.
fn spell_small_numbers(text: &str) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let before = if start == 0 { b' ' } else { bytes[start - 1] };
            let after = bytes.get(i).copied().unwrap_or(b' ');
            let after2 = bytes.get(i + 1).copied().unwrap_or(b' ');
            let joined = |b: u8| {
                b.is_ascii_alphanumeric()
                    || matches!(b, b'.' | b'+' | b'/' | b'-' | b'=' | b':' | b'_')
            };
            let ends_sentence = after == b'.' && !after2.is_ascii_alphanumeric();
            let n: usize = text[start..i].parse().unwrap_or(usize::MAX);
            if n < WORDS.len() && !joined(before) && (!joined(after) || ends_sentence) {
                out.push_str(WORDS[n]);
            } else {
                out.push_str(&text[start..i]);
            }
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn article_query_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?:^|[\s(§])(?:(?:art(?:icle)?|rule|law|§)\.?\s*)?((?:III|II|I|[A-D])(?:\.\d{1,2})+|\d{1,2}(?:\.\d{1,2})+)\b").expect("valid regex")
    })
}

/// Whether a text can hold a match of [`article_query_re`]: every match has a '.' followed by
/// a digit (`\d`, a Unicode decimal digit, is numeric). The regex's own search cannot use its
/// lazy DFA on a text with a non-ASCII byte (its Unicode `\b`), and falls back to an engine
/// that costs many times more; most questions name no article number at all.
fn may_name_articles(text: &str) -> bool {
    text.split('.')
        .skip(1)
        .any(|after| after.chars().next().is_some_and(char::is_numeric))
}

/// The query with the article numbers it names blanked out (the search looks them up
/// itself, [`articles_in_query`]).
fn without_article_numbers(query: &str) -> std::borrow::Cow<'_, str> {
    if may_name_articles(query) {
        article_query_re().replace_all(query, " ")
    } else {
        std::borrow::Cow::Borrowed(query)
    }
}

fn whole_article_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:art(?:icle)?\.?\s*(\d{1,2})\b|appendix\s+([a-d])\b|guidelines?\s+(iii|ii|i)\b)").expect("valid regex")
    })
}

/// Whether a number that looks like an article is a time of day or an amount instead: "9.00
/// AM", "10.30", "1.5 seconds". No article number has a part with a leading zero ("0.1" is
/// the preface's own) or above 13 (C.13, 11.13), nor is followed by a unit.
fn reads_as_quantity(number: &str, after: &str) -> bool {
    let no_article_part = number.split('.').skip(1).any(|part| {
        part.len() > 1 && part.starts_with('0') || part.parse::<u32>().is_ok_and(|n| n > 13)
    });
    const UNITS: &[&str] = &[
        "am", "a.m", "pm", "p.m", "h", "hr", "hrs", "hour", "hours", "min", "mins", "minute",
        "minutes", "sec", "secs", "second", "seconds", "o'clock", "points", "pts",
    ];
    let next: String = after
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '.' || *c == '\'')
        .collect::<String>()
        .to_ascii_lowercase();
    let next = next.trim_end_matches('.');
    no_article_part || UNITS.contains(&next)
}

/// Today's number for an article a question names by its number in an older edition of the
/// Laws, when the question's words are those of the old article: the quickplay finish was
/// 10.1 and its draw claim 10.2 until 2017 (today III.1 and III.5); today's 10.2 is about
/// points, so "claimed a draw under 10.2 with a minute left" means III.5.
fn former_article(number: &str, query: &str) -> Option<&'static str> {
    const QUICKPLAY_WORDS: &[&str] = &[
        "claim",
        "reklam",
        "réclam",
        "quickplay",
        "quick play",
        "rapidplay",
        "two minutes",
        "2 minutes",
        "normal means",
        "on time",
        "increment",
        "flag",
        "time control",
        "uhr",
        "pendule",
        "zeit",
        "sekunden",
        "seconds",
    ];
    let now = match number {
        "10.2" => "III.5",
        "10.1" => "III.1",
        _ => return None,
    };
    let lower = query.to_lowercase();
    QUICKPLAY_WORDS
        .iter()
        .any(|w| lower.contains(w))
        .then_some(now)
}

/// Article numbers named in a query, in order ("art. 6.9", "9.6.2", "A.5.3").
pub fn articles_in_query(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if !may_name_articles(query) {
        return out;
    }
    for c in article_query_re().captures_iter(query) {
        let number = &c[1];
        if reads_as_quantity(number, &query[c.get(1).map_or(0, |m| m.end())..]) {
            continue;
        }
        let n = number.to_string();
        let n = match n.split_once('.') {
            Some((head, tail)) if head.chars().all(|c| c.is_ascii_alphabetic()) => {
                format!("{}.{tail}", head.to_ascii_uppercase())
            }
            _ => n,
        };
        let n = former_article(&n, query).map_or(n, String::from);
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

fn piece_name(letter: char) -> &'static str {
    match letter {
        'K' => "king",
        'Q' => "queen",
        'R' => "rook",
        'B' => "bishop",
        'N' => "knight",
        _ => "pawn",
    }
}

/// Words for the chess notation in a query, which the tokenizer cannot read: `Nbd7` is a
/// knight move written with a disambiguation, `Ng1f3` long algebraic, `P-K4` descriptive,
/// `e8=Q` a promotion, `K+B vs K` a material balance.
fn notation_words(query: &str) -> Vec<String> {
    static SAN: OnceLock<Regex> = OnceLock::new();
    static PAWN: OnceLock<Regex> = OnceLock::new();
    static DESCRIPTIVE: OnceLock<Regex> = OnceLock::new();
    static MATERIAL: OnceLock<Regex> = OnceLock::new();
    let san = SAN.get_or_init(|| {
        Regex::new(r"\b([KQRBN])([a-h]?[1-8]?)x?[a-h][1-8](?:=?[QRBN])?[+#]?").expect("valid regex")
    });
    let pawn = PAWN.get_or_init(|| {
        Regex::new(r"\b[a-h](?:x[a-h])?[18]=?([QRBN])\b|\b[a-h]x[a-h][1-8]\b").expect("valid regex")
    });
    let descriptive = DESCRIPTIVE
        .get_or_init(|| Regex::new(r"\b[PNBRQK]x?-?[QK]?[RNB]?[1-8]\b").expect("valid regex"));
    let material = MATERIAL.get_or_init(|| {
        Regex::new(r"(?:^|[\s(])(K(?:\s?\+\s?[QRBNP]{1,2})*)(?:$|[\s,.?!)])").expect("valid regex")
    });
    let mut out = Vec::new();
    for c in san.captures_iter(query) {
        let piece = c[1].chars().next().unwrap_or('P');
        out.push(format!("{} move", piece_name(piece)));
        match c[2].len() {
            0 => {}
            1 => out.push("notation two pieces same square ambiguous".into()),
            _ => out.push("long algebraic notation departure square".into()),
        }
    }
    for c in pawn.captures_iter(query) {
        match c.get(1) {
            Some(p) => out.push(format!(
                "pawn promotion {}",
                piece_name(p.as_str().chars().next().unwrap_or('Q'))
            )),
            None => out.push("pawn capture".into()),
        }
    }
    if descriptive.is_match(query) && !san.is_match(query) {
        out.push("descriptive notation algebraic".into());
    }
    for c in material.captures_iter(query) {
        let names: Vec<&str> = c[1]
            .chars()
            .filter(|ch| ch.is_ascii_uppercase())
            .map(piece_name)
            .collect();
        out.push(names.join(" "));
    }
    out
}

/// The words of a text, lower-cased, punctuation dropped (for the spelling corrector, and for
/// the answer layer's exact match of a question with a ruling's phrasing).
pub(crate) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// An ASCII word's letters as counts, for [`Letters::bag_distance`].
struct Letters {
    counts: [u8; 128],
    len: usize,
}

impl Letters {
    /// `None` for a word that is not ASCII (or too long to count in bytes).
    fn of(word: &str) -> Option<Letters> {
        if !word.is_ascii() || word.len() > 255 {
            return None;
        }
        let mut counts = [0u8; 128];
        for b in word.bytes() {
            counts[b as usize] += 1;
        }
        Some(Letters {
            counts,
            len: word.len(),
        })
    }

    /// The bag distance to `other`: the larger of the number of this word's letters that
    /// `other` lacks and the number of `other`'s that this word lacks (each counted with
    /// its multiplicity). An insertion, deletion or substitution changes each number by at
    /// most one and a transposition neither, so it never exceeds the Damerau-Levenshtein
    /// distance. 0 for a word that is not ASCII (no bound).
    fn bag_distance(&self, other: &str) -> usize {
        if !other.is_ascii() {
            return 0;
        }
        let mut counts = self.counts;
        let mut shared = 0;
        for b in other.bytes() {
            let c = &mut counts[b as usize];
            if *c > 0 {
                *c -= 1;
                shared += 1;
            }
        }
        (self.len - shared).max(other.len() - shared)
    }
}

/// A weighted term of the query.
struct QueryTerms {
    /// Stem → weight.
    stems: Vec<(String, f32)>,
    /// Bigram → weight.
    bigrams: Vec<(String, f32)>,
    /// The words typed, each as the numbers of the stems that count as matching it (its
    /// own, its spelling correction's, its vocabulary expansion's) and its weight (the
    /// highest inverse document frequency among them); stop words and words the rulebook
    /// does not contain are left out.
    typed: Vec<(Vec<u32>, f32)>,
    /// Law pages of the settings the query names, and whether each is a setting's own page.
    settings: Vec<(String, bool)>,
}

impl QueryTerms {
    fn add(list: &mut Vec<(String, f32)>, term: String, weight: f32) {
        match list.iter_mut().find(|(t, _)| *t == term) {
            Some((_, w)) => *w = w.max(weight),
            None => list.push((term, weight)),
        }
    }

    /// A run of stems as terms, and each pair of neighbouring (different) stems as a bigram.
    fn add_run(&mut self, stems: &[String], weight: f32) {
        for s in stems {
            QueryTerms::add(&mut self.stems, s.clone(), weight);
        }
        for w in stems.windows(2) {
            if w[0] != w[1] {
                QueryTerms::add(&mut self.bigrams, format!("{}_{}", w[0], w[1]), weight);
            }
        }
    }
}

impl SearchIndex {
    /// Builds an index in memory (the default at start-up: tens of milliseconds).
    pub fn build_in_memory(
        book: &Rulebook,
        vocabulary: Vocabulary,
    ) -> Result<SearchIndex, IndexError> {
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        Self::fill(&index, fields, book)?;
        Self::from_index(index, fields, book, vocabulary, "memory".into())
    }

    fn fill(index: &Index, f: Fields, book: &Rulebook) -> Result<(), IndexError> {
        register_tokenizers(index);
        let mut analyzer = english_analyzer();
        let mut writer = index.writer_with_num_threads(1, 32_000_000)?;
        for (i, p) in book.passages.iter().enumerate() {
            let title = normalise_notation(&p.title);
            let body = normalise_notation(&p.text);
            // The enclosing headings, without the page title (that is the page's business)
            // and without this heading (that is `title`).
            let parents = if p.heading_path.len() > 2 {
                p.heading_path[1..p.heading_path.len() - 1].join(" / ")
            } else {
                String::new()
            };
            let mut d = doc!(
                f.idx => i as u64,
                f.page => p.page.clone(),
                f.title => title.clone(),
                f.parents => normalise_notation(&parents),
                f.body => body.clone(),
                f.body_flat => body.clone(),
                f.bigrams => format!("{} {}", bigram_text(&mut analyzer, &title), bigram_text(&mut analyzer, &body)),
            );
            if let Some(a) = &p.article {
                d.add_text(f.article, a);
            }
            for q in p.phrasings() {
                d.add_text(f.question, normalise_notation(q));
            }
            writer.add_document(d)?;
        }
        writer.commit()?;
        Ok(())
    }

    fn from_index(
        index: Index,
        fields: Fields,
        book: &Rulebook,
        vocabulary: Vocabulary,
        origin: String,
    ) -> Result<SearchIndex, IndexError> {
        register_tokenizers(&index);
        let reader = index.reader()?;
        let known_words = known_words(book, &vocabulary);
        let by_initial = words_by_initial(&known_words);
        let mut analyzer = english_analyzer();
        let page_stats = PageStats::new(book, &mut analyzer);
        let StemTables {
            stem_ids,
            idf,
            passage_stems,
            passage_tokens,
        } = StemTables::new(book, &mut analyzer);
        let setting_pages = vocabulary
            .setting_pages()
            .into_iter()
            .map(str::to_string)
            .collect();
        let doc_passage = Self::stored_column(&reader, |d| {
            d.get_first(fields.idx)
                .and_then(|v| v.as_u64())
                .map_or(usize::MAX, |v| v as usize)
        })?;
        let postings = MemoryPostings::read(
            &reader.searcher(),
            &[
                fields.title,
                fields.question,
                fields.parents,
                fields.body,
                fields.body_flat,
                fields.bigrams,
            ],
            fields.page,
        )?;
        let word_stems = known_words
            .keys()
            .map(|w| (w.clone(), stems(&mut analyzer, w).into_iter().next()))
            .collect();
        Ok(SearchIndex {
            postings,
            word_stems,
            passage_tokens,
            doc_passage,
            setting_pages,
            stem_ids,
            idf,
            passage_stems,
            index,
            reader,
            fields,
            page_stats,
            analyzer: english_analyzer(),
            vocabulary,
            known_words,
            by_initial,
            tuning: Tuning::default(),
            origin,
        })
    }

    /// One value per document, read from the document store, by segment and document id.
    fn stored_column<T>(
        reader: &IndexReader,
        value: impl Fn(&TantivyDocument) -> T,
    ) -> Result<Vec<Vec<T>>, IndexError> {
        let searcher = reader.searcher();
        let mut out = Vec::new();
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            let mut column = Vec::with_capacity(segment.max_doc() as usize);
            for doc in 0..segment.max_doc() {
                let d: TantivyDocument = searcher.doc(tantivy::DocAddress::new(ord as u32, doc))?;
                column.push(value(&d));
            }
            out.push(column);
        }
        Ok(out)
    }

    /// Whether `field` holds `term` (for the fields searched by words; always true when the
    /// postings are not in memory).
    fn has_term(&self, field: Field, term: &str) -> bool {
        self.postings.as_ref().is_none_or(|p| p.has(field, term))
    }

    /// Replaces the ranking weights (for experiments; the defaults are tuned).
    #[doc(hidden)]
    pub fn set_tuning(&mut self, tuning: Tuning) {
        self.tuning = tuning;
    }

    #[doc(hidden)]
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    fn stamp(book: &Rulebook) -> String {
        format!("{} schema {SCHEMA_VERSION}", book.hash)
    }

    /// Builds the index in a new directory under `out` and then points `out/CURRENT` at it
    /// with an atomic rename, so a reader never sees a half-built index and the build in use
    /// is never touched; older builds are deleted after the swap (see `disk.rs`). What killed
    /// builds left behind is cleared first.
    pub fn build_on_disk(book: &Rulebook, out: &Path) -> Result<PathBuf, IndexError> {
        std::fs::create_dir_all(out)?;
        let _lock = disk::lock(out)?;
        disk::step("locked");
        let cleared = disk::clear_leftovers(out);
        if !cleared.is_empty() {
            tracing::info!(?cleared, "removed what earlier builds left behind");
        }
        let name = disk::build_name(&book.hash[..16], SCHEMA_VERSION);
        let staging = disk::staging_dir(out, &name);
        std::fs::create_dir_all(&staging)?;
        disk::step("staging-created");
        let (schema, fields) = schema();
        let index = Index::create_in_dir(&staging, schema)?;
        Self::fill(&index, fields, book)?;
        drop(index);
        disk::step("index-written");
        {
            use std::io::Write;
            let mut f = std::fs::File::create(staging.join("rulebook.hash"))?;
            f.write_all(Self::stamp(book).as_bytes())?;
            f.sync_all()?;
        }
        disk::step("stamp-written");
        let target = disk::publish(out, &staging, &name)?;
        disk::remove_old_builds(out, &name)?;
        disk::step("done");
        Ok(target)
    }

    /// Opens `dir` when it holds an index of exactly this rulebook; otherwise builds one in
    /// memory. Returns the index and, when the on-disk copy was not used, why.
    pub fn open_or_build(
        book: &Rulebook,
        vocabulary: Vocabulary,
        dir: Option<&Path>,
    ) -> Result<(SearchIndex, Option<String>), IndexError> {
        let mut why = None;
        if let Some(dir) = dir {
            match Self::try_open(book, &vocabulary, dir) {
                Ok(index) => return Ok((index, None)),
                Err(reason) => why = Some(reason),
            }
        }
        Ok((Self::build_in_memory(book, vocabulary)?, why))
    }

    fn try_open(
        book: &Rulebook,
        vocabulary: &Vocabulary,
        dir: &Path,
    ) -> Result<SearchIndex, String> {
        let current = disk::current(dir).ok_or_else(|| format!("no index in {}", dir.display()))?;
        let path = dir.join(current);
        let hash = std::fs::read_to_string(path.join("rulebook.hash"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if hash.trim() != Self::stamp(book) {
            return Err(format!(
                "the index in {} was built from another version of the rulebook or of this program",
                path.display()
            ));
        }
        let index = Index::open_in_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (_, fields) = schema();
        let opened = Self::from_index(
            index,
            fields,
            book,
            vocabulary.clone(),
            path.display().to_string(),
        )
        .map_err(|e| e.to_string())?;
        // A build swapped in is complete, but a folder damaged by hand must not be served
        // as an index that finds nothing.
        if opened.num_docs() != book.passages.len() as u64 {
            return Err(format!(
                "the index in {} holds {} passages, the rulebook {}",
                path.display(),
                opened.num_docs(),
                book.passages.len()
            ));
        }
        Ok(opened)
    }

    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocabulary
    }

    /// The closest rulebook word to a word the rulebook does not know: same first letter,
    /// within one edit (two for longer words), the most frequent on ties.
    fn correct_spelling(&self, word: &str) -> Option<&str> {
        let n = word.chars().count();
        let max = if n <= 5 { 1 } else { 2 };
        let initial = word.chars().next()?;
        let letters = Letters::of(word);
        let mut best: Option<(usize, u32, &str)> = None;
        for (cand, m) in self.by_initial.get(&initial)? {
            if m.abs_diff(n) > max {
                continue;
            }
            // A lower bound of the distance, in a pass over the candidate's letters, rules
            // out most candidates before the full distance is computed.
            if letters.as_ref().is_some_and(|l| l.bag_distance(cand) > max) {
                continue;
            }
            let d = strsim::damerau_levenshtein(word, cand);
            if d == 0 || d > max {
                continue;
            }
            let freq = self.known_words.get(cand.as_str()).copied().unwrap_or(0);
            if best.is_none_or(|(bd, bf, _)| d < bd || (d == bd && freq > bf)) {
                best = Some((d, freq, cand.as_str()));
            }
        }
        best.map(|(_, _, w)| w)
    }

    /// `stems` of a query text: the stem of a word the rulebook uses is looked up, not
    /// computed again (stemming was a tenth of a query's time).
    fn query_stems(&self, analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for w in words(text) {
            match self.word_stems.get(&w) {
                Some(Some(stem)) => out.push(stem.clone()),
                Some(None) => {}
                None => out.extend(stems(analyzer, &w)),
            }
        }
        out
    }

    /// The weighted stems and bigrams of a free-text query.
    fn query_terms(&self, query: &str) -> QueryTerms {
        let t = &self.tuning;
        let mut analyzer = self.analyzer.clone();
        let (typed, phrases) = self.vocabulary.rewrite_parts(query);
        let mut expansions: Vec<&str> = phrases.iter().map(|(_, e)| *e).collect();
        let notation = notation_words(query);
        expansions.extend(notation.iter().map(String::as_str));
        let typed = normalise_notation(&typed);
        let settings = self
            .vocabulary
            .settings_in(&format!("{typed} {}", expansions.join(" ")))
            .into_iter()
            .map(|(p, primary)| (p.to_string(), primary))
            .collect();
        let mut terms = QueryTerms {
            stems: Vec::new(),
            bigrams: Vec::new(),
            typed: Vec::new(),
            settings,
        };
        let mut corrections = Vec::new();
        for w in words(&typed) {
            if let Some(word) = self.typed_word(&mut analyzer, &w, &phrases, &mut corrections)
                && !terms.typed.iter().any(|(t, _)| *t == word.0)
            {
                terms.typed.push(word);
            }
        }
        let typed_stems = self.query_stems(&mut analyzer, &typed);
        terms.add_run(&typed_stems, 1.0);
        for c in &corrections {
            for s in self.query_stems(&mut analyzer, c) {
                QueryTerms::add(&mut terms.stems, s, t.correction);
            }
        }
        for e in &expansions {
            let es = self.query_stems(&mut analyzer, &normalise_notation(e));
            terms.add_run(&es, t.expansion);
        }
        terms
    }

    /// A typed word as the numbers of the stems that count as matching it (its own, its
    /// spelling correction's, recorded in `corrections`, and its vocabulary expansion's) and
    /// its weight, the highest inverse document frequency among them; `None` for a stop word
    /// or a word the rulebook does not contain.
    fn typed_word(
        &self,
        analyzer: &mut TextAnalyzer,
        w: &str,
        phrases: &[(&str, &str)],
        corrections: &mut Vec<String>,
    ) -> Option<(Vec<u32>, f32)> {
        let mut alternatives = self.query_stems(analyzer, w);
        if alternatives.is_empty() {
            return None;
        }
        if w.chars().count() >= 4
            && w.chars().all(char::is_alphabetic)
            && !self.known_words.contains_key(w)
            && let Some(c) = self.correct_spelling(w)
        {
            alternatives.extend(self.query_stems(analyzer, c));
            corrections.push(c.to_string());
        }
        // A word the vocabulary expands is matched by its expansion too.
        for (phrase, expansion) in phrases {
            if phrase.split_whitespace().any(|p| p == w) {
                alternatives.extend(self.query_stems(analyzer, &normalise_notation(expansion)));
            }
        }
        let mut ids: Vec<u32> = alternatives
            .iter()
            .filter_map(|s| self.stem_ids.get(s).copied())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let weight = ids
            .iter()
            .map(|&i| self.idf[i as usize])
            .fold(0.0f32, f32::max);
        (weight > 0.0).then_some((ids, weight))
    }

    /// The page prior: each of the best-matching pages with its score.
    fn page_scores(&self, terms: &QueryTerms) -> Vec<(&str, f32)> {
        let t = &self.tuning;
        if t.page <= 0.0 || t.pages == 0 {
            return Vec::new();
        }
        let mut scores = vec![0.0f32; self.page_stats.ids.len()];
        let weights = [
            t.page_title,
            t.page_summary,
            t.page_aliases,
            t.page_keywords,
        ];
        for (stem, w) in &terms.stems {
            for (field, fw) in self.page_stats.fields[..4].iter().zip(weights) {
                if fw > 0.0 {
                    field.add_scores(stem, fw * w, &mut scores);
                }
            }
        }
        if t.page_bigram > 0.0 {
            for (bigram, w) in &terms.bigrams {
                self.page_stats.fields[4].add_scores(bigram, t.page_bigram * w, &mut scores);
            }
        }
        let mut ranked: Vec<(usize, f32)> = scores
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked.truncate(t.pages);
        ranked
            .into_iter()
            .map(|(i, s)| (self.page_stats.ids[i].as_str(), s))
            .collect()
    }

    /// The clauses of a free-text query: every term in every passage field, bigrams, the page
    /// prior and pages named as a whole ("article 9"); terms a field lacks are left out.
    fn clauses<'a>(
        &'a self,
        book: &'a Rulebook,
        query: &str,
        terms: &'a QueryTerms,
    ) -> Vec<Clause<'a>> {
        let t = &self.tuning;
        let f = self.fields;
        let mut clauses: Vec<Clause> = Vec::new();
        for (stem, w) in &terms.stems {
            // One look-up of the stem for its five fields (none without the postings in
            // memory: then every field counts as holding it).
            let held = self.postings.as_ref().map(|p| p.fields_of(stem));
            for (field, fw) in [
                (f.title, t.title),
                (f.question, t.question),
                (f.parents, t.parents),
                (f.body, t.body),
                (f.body_flat, t.body_flat),
            ] {
                // Words the vocabulary added are looked up in the heading and body only.
                let light = *w < 1.0 && t.expansion_light && !(field == f.title || field == f.body);
                if fw > 0.0 && !light && held.as_ref().is_none_or(|h| h.has(field)) {
                    clauses.push(Clause::Term {
                        field,
                        term: stem,
                        boost: fw * w,
                    });
                }
            }
        }
        if t.bigram > 0.0 {
            for (bigram, w) in &terms.bigrams {
                if self.has_term(f.bigrams, bigram) {
                    clauses.push(Clause::Term {
                        field: f.bigrams,
                        term: bigram,
                        boost: t.bigram * w,
                    });
                }
            }
        }
        for (page, score) in self.page_scores(terms) {
            clauses.push(Clause::Page {
                page,
                score: t.page * score,
            });
        }
        for c in whole_article_re().captures_iter(query) {
            let top = c
                .get(1)
                .or(c.get(2))
                .or(c.get(3))
                .map(|m| m.as_str().to_ascii_uppercase());
            if let Some(page) = top.and_then(|t| book.law_page_for(&t)) {
                clauses.push(Clause::Page {
                    page: &page.id,
                    score: 4.0,
                });
            }
        }
        clauses
    }

    /// The clauses as a tantivy query; `None` when there are none.
    fn boolean_query(&self, clauses: &[Clause]) -> Option<BooleanQuery> {
        if clauses.is_empty() {
            return None;
        }
        let page_field = self.fields.page;
        let clauses = clauses
            .iter()
            .map(|c| -> (Occur, Box<dyn Query>) {
                let q: Box<dyn Query> = match c {
                    Clause::Term { field, term, boost } => {
                        let q = TermQuery::new(
                            Term::from_field_text(*field, term),
                            IndexRecordOption::WithFreqs,
                        );
                        Box::new(BoostQuery::new(Box::new(q), *boost))
                    }
                    Clause::Page { page, score } => {
                        let q = TermQuery::new(
                            Term::from_field_text(page_field, page),
                            IndexRecordOption::Basic,
                        );
                        Box::new(ConstScoreQuery::new(Box::new(q), *score))
                    }
                };
                (Occur::Should, q)
            })
            .collect();
        Some(BooleanQuery::new(clauses))
    }

    /// The best `limit` documents for the clauses, best first, with their scores: summed in
    /// memory when that gives tantivy's scores (see `postings.rs`), else by tantivy.
    fn top_docs(&self, clauses: &[Clause], limit: usize) -> Option<Vec<(f32, DocAddress)>> {
        if let Some(top) = self.postings.as_ref().and_then(|p| p.top(clauses, limit)) {
            return Some(
                top.into_iter()
                    .map(|(score, doc)| (score, DocAddress::new(0, doc)))
                    .collect(),
            );
        }
        let query = self.boolean_query(clauses)?;
        self.reader
            .searcher()
            .search(&query, &TopDocs::with_limit(limit).order_by_score())
            .ok()
    }

    /// How tantivy scored one passage for a query (for tuning).
    #[doc(hidden)]
    pub fn explain(&self, book: &Rulebook, query: &str, passage: usize) -> String {
        let stripped = without_article_numbers(query);
        let terms = self.query_terms(&stripped);
        let Some(q) = self.boolean_query(&self.clauses(book, query, &terms)) else {
            return "no query".into();
        };
        let searcher = self.reader.searcher();
        let find = TermQuery::new(
            Term::from_field_u64(self.fields.idx, passage as u64),
            IndexRecordOption::Basic,
        );
        let Ok(found) = searcher.search(&find, &TopDocs::with_limit(1).order_by_score()) else {
            return "not found".into();
        };
        let Some((_, addr)) = found.first() else {
            return "not found".into();
        };
        let coverage = self.coverage(&terms, passage);
        match q.explain(&searcher, *addr) {
            Ok(e) => format!("coverage {coverage:.2}\n{}", e.to_pretty_json()),
            Err(e) => e.to_string(),
        }
    }

    /// Ranked passages for a free-text query, one per article.
    pub fn search(&self, book: &Rulebook, query: &str, limit: usize) -> Vec<Hit> {
        self.search_with(book, query, limit, SearchMode::LISTING)
    }

    /// Ranked passages, as `mode` asks: one per article or not, with or without snippets.
    /// Articles the query names come first; then the search's hits, each standing for the
    /// article it is about and weighed by the settings the query names.
    pub fn search_with(
        &self,
        book: &Rulebook,
        query: &str,
        limit: usize,
        mode: SearchMode,
    ) -> Vec<Hit> {
        let limit = limit.clamp(1, 50);
        // The first 1,000 characters.
        let query = match query.char_indices().nth(1000) {
            Some((end, _)) => &query[..end],
            None => query,
        };
        let (mut hits, mut seen) = self.named_article_hits(book, query, mode);
        let stripped = without_article_numbers(query);
        let terms = self.query_terms(&stripped);
        let Some(ranked) = self.scored_passages(book, query, &terms, limit) else {
            return hits;
        };
        let ranked = self.weigh_settings(book, ranked, &terms);
        let candidates = if mode.one_per_article {
            best_per_article(ranked)
        } else {
            ranked
        };
        for (score, idx, article) in candidates {
            if hits.len() >= limit {
                break;
            }
            if !seen.insert(idx)
                || (mode.one_per_article
                    && article.is_some()
                    && hits.iter().any(|h| h.article == article))
            {
                continue;
            }
            let snippet = mode.snippets.then(|| self.snippet(book, idx, &terms));
            let mut hit = self.hit(book, idx, score, snippet.as_deref(), MatchedBy::Search);
            if article.is_some() {
                hit.article = article;
            }
            hits.push(hit);
        }
        hits
    }

    /// Hits for the article numbers a query names, in the order named; when it names several,
    /// the law passage that cites them all (the rule that relates them) goes first. Also the
    /// passages taken, so that the search does not list them again.
    fn named_article_hits(
        &self,
        book: &Rulebook,
        query: &str,
        mode: SearchMode,
    ) -> (Vec<Hit>, FxHashSet<usize>) {
        let snippet = mode.snippets.then_some("");
        let mut hits: Vec<Hit> = Vec::new();
        let mut seen = FxHashSet::default();
        let named = articles_in_query(query);
        if named.len() >= 2 {
            // Of the law passages citing them all, the one that is most about them (the
            // smallest share of other citations).
            let relating = book
                .passages
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    p.kind == PageKind::Law
                        && p.article.as_ref().is_some_and(|a| !named.contains(a))
                        && named.iter().all(|n| p.cites.contains(n))
                })
                .min_by_key(|(i, p)| (p.cites.len(), *i))
                .map(|(i, _)| i);
            if let Some(idx) = relating {
                seen.insert(idx);
                hits.push(self.hit(book, idx, 1000.0, snippet, MatchedBy::Article));
            }
        }
        for number in named {
            if let Some(idx) = book.article_index(&number).or_else(|| {
                book.resolve_article(&number)
                    .and_then(|p| book.passages.iter().position(|q| std::ptr::eq(q, p)))
            }) && seen.insert(idx)
            {
                hits.push(self.hit(book, idx, 1000.0, snippet, MatchedBy::Article));
            }
        }
        (hits, seen)
    }

    /// The search's passages for the query, best first, each score weighed by the kind of
    /// page and by how much of the typed words the passage covers; `None` when the query has
    /// nothing to search for or the search fails.
    fn scored_passages(
        &self,
        book: &Rulebook,
        query: &str,
        terms: &QueryTerms,
        limit: usize,
    ) -> Option<Vec<(f32, usize)>> {
        let t = &self.tuning;
        let clauses = self.clauses(book, query, terms);
        if clauses.is_empty() {
            return None;
        }
        let top = self.top_docs(&clauses, t.candidates.max(limit))?;
        let mut ranked: Vec<(f32, usize)> = Vec::with_capacity(top.len());
        for (score, addr) in top {
            let Some(&idx) = self
                .doc_passage
                .get(addr.segment_ord as usize)
                .and_then(|c| c.get(addr.doc_id as usize))
            else {
                continue;
            };
            let Some(p) = book.passages.get(idx) else {
                continue;
            };
            if t.intro_map == 3 && p.kind == PageKind::Law && p.article.is_none() {
                continue;
            }
            let weight = match p.kind {
                PageKind::Law if p.article.is_none() => t.intro,
                PageKind::Law => 1.0,
                PageKind::Rulings => t.rulings,
                PageKind::Guide => t.guide,
            };
            let mut score = score * weight;
            if t.coverage > 0.0 && !terms.typed.is_empty() {
                score *= self.coverage(terms, idx).powf(t.coverage);
            }
            ranked.push((score, idx));
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        Some(ranked)
    }

    /// Each ranked passage with the article it stands for, its score weighed by the settings
    /// the query names: rules for a named setting (rapid, Chess960…) are preferred, rules
    /// for settings it does not name a little less likely. Best first.
    fn weigh_settings(
        &self,
        book: &Rulebook,
        ranked: Vec<(f32, usize)>,
        terms: &QueryTerms,
    ) -> Vec<(f32, usize, Option<String>)> {
        let t = &self.tuning;
        // The best score of each article's own passage (`ranked` is best first).
        let law_scores: FxHashMap<&str, f32> = ranked
            .iter()
            .rev()
            .filter_map(|(s, i)| book.passages[*i].article.as_deref().map(|a| (a, *s)))
            .collect();
        let mut weighed: Vec<(f32, usize, Option<String>)> = ranked
            .iter()
            .map(|&(mut score, idx)| {
                let article = self.stands_for(book, idx, &law_scores);
                let page = match &article {
                    Some(a) => book
                        .article(a)
                        .map_or(book.passages[idx].page.as_str(), |p| p.page.as_str()),
                    None => book.passages[idx].page.as_str(),
                };
                if let Some((_, primary)) = terms.settings.iter().find(|(s, _)| s == page) {
                    // A setting's own page gets the full weight; pages it refers to (blitz →
                    // Appendix B, then A) a little less.
                    score *= if *primary {
                        t.setting
                    } else {
                        t.setting.sqrt()
                    };
                } else if self.setting_pages.contains(page) {
                    score *= t.setting_other;
                }
                (score, idx, article)
            })
            .collect();
        weighed.sort_by(|a, b| b.0.total_cmp(&a.0));
        weighed
    }

    /// The article a passage stands for: a ruling's deciding article, a law passage's own; a
    /// law page's introduction, its best-scoring article (as `intro_map` says); a guide
    /// passage, the cited article that scored best (or its first), or failing any citation
    /// its page's first.
    fn stands_for(
        &self,
        book: &Rulebook,
        idx: usize,
        law_scores: &FxHashMap<&str, f32>,
    ) -> Option<String> {
        let t = &self.tuning;
        let p = &book.passages[idx];
        if let Some(ruling) = &p.ruling {
            return ruling.articles.first().cloned();
        }
        if p.article.is_some() {
            return p.article.clone();
        }
        if p.kind == PageKind::Law && t.intro_map > 0 {
            return self.introduction_stands_for(book, p, law_scores);
        }
        let mut cited = p
            .cites
            .iter()
            .filter(|c| book.article(c).is_some())
            .peekable();
        if cited.peek().is_none() {
            // A guide or FAQ introduction that cites nothing: its page's first citation.
            let page = book.page(&p.page)?;
            return page
                .passages
                .iter()
                .flat_map(|&i| &book.passages[i].cites)
                .find(|c| book.article(c).is_some())
                .cloned();
        }
        if t.map_first {
            return cited.next().cloned();
        }
        let mut first = None;
        let mut best: Option<(&String, f32)> = None;
        for c in cited {
            first.get_or_insert(c);
            if let Some(&s) = law_scores.get(c.as_str())
                && best.is_none_or(|(_, b)| s > b)
            {
                best = Some((c, s));
            }
        }
        best.map(|(c, _)| c).or(first).cloned()
    }

    /// The article a law page's introduction stands for: its page's first article
    /// (`intro_map` 1) or the one that scored best (2).
    fn introduction_stands_for(
        &self,
        book: &Rulebook,
        p: &Passage,
        law_scores: &FxHashMap<&str, f32>,
    ) -> Option<String> {
        let page = book.page(&p.page)?;
        let mut articles = page
            .passages
            .iter()
            .filter_map(|&i| book.passages[i].article.as_deref());
        match self.tuning.intro_map {
            1 => articles.next().map(str::to_string),
            2 => {
                let first = articles.clone().next();
                articles
                    .filter_map(|a| law_scores.get(a).map(|&s| (a, s)))
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|(a, _)| a)
                    .or(first)
                    .map(str::to_string)
            }
            _ => None,
        }
    }

    /// The share, by inverse document frequency, of the typed words that a passage (with its
    /// page) contains.
    fn coverage(&self, terms: &QueryTerms, idx: usize) -> f32 {
        let have = &self.passage_stems[idx];
        let (mut got, mut total) = (0.0, 0.0);
        for (alternatives, weight) in &terms.typed {
            total += weight;
            if alternatives.iter().any(|s| have.binary_search(s).is_ok()) {
                got += weight;
            }
        }
        if total > 0.0 { got / total } else { 1.0 }
    }

    /// About 200 characters of a passage around the query's words, those words in `<b>`, as
    /// HTML; empty when none of them occurs.
    fn snippet(&self, book: &Rulebook, idx: usize, terms: &QueryTerms) -> String {
        const WIDTH: usize = 200;
        let text = &book.passages[idx].text;
        let tokens = &self.passage_tokens[idx];
        let wanted: Vec<(u32, f32)> = terms
            .stems
            .iter()
            .filter_map(|(s, _)| self.stem_ids.get(s).map(|&i| (i, self.idf[i as usize])))
            .collect();
        let weight = |id: u32| wanted.iter().find(|(w, _)| *w == id).map(|(_, f)| *f);
        let matched: Vec<usize> = (0..tokens.len())
            .filter(|&i| weight(tokens[i].0).is_some())
            .collect();
        if matched.is_empty() {
            return String::new();
        }
        // The window starting at a matched token that holds the most weight of distinct words.
        let mut best = (0.0f32, 0usize);
        for &start in &matched {
            let from = tokens[start].1;
            let mut seen: Vec<u32> = Vec::new();
            let mut total = 0.0;
            for &i in matched
                .iter()
                .filter(|&&i| i >= start && tokens[i].2 <= from + WIDTH)
            {
                if !seen.contains(&tokens[i].0) {
                    seen.push(tokens[i].0);
                    total += weight(tokens[i].0).unwrap_or(0.0);
                }
            }
            if total > best.0 {
                best = (total, start);
            }
        }
        // Start at the beginning of the sentence when it is close, else a little before.
        let anchor = tokens[best.1].1;
        let sentence = text[..anchor]
            .rfind(['.', '!', '?', '\n'])
            .map_or(0, |i| i + 1);
        let mut from = if anchor - sentence <= 60 {
            sentence
        } else {
            anchor.saturating_sub(30)
        };
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        from += text[from..].len() - text[from..].trim_start().len();
        let mut to = (from + WIDTH).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        if to < text.len() {
            to = text[..to].rfind(' ').filter(|&i| i > from).unwrap_or(to);
        }
        let mut html = String::with_capacity(WIDTH + 64);
        if from > 0 {
            html.push('…');
        }
        let mut at = from;
        for &(id, start, end) in tokens.iter().filter(|t| t.1 >= from && t.2 <= to) {
            if weight(id).is_some() {
                html.push_str(&html_escape::encode_text(&text[at..start]));
                html.push_str("<b>");
                html.push_str(&html_escape::encode_text(&text[start..end]));
                html.push_str("</b>");
                at = end;
            }
        }
        html.push_str(&html_escape::encode_text(&text[at..to]));
        if to < text.len() {
            html.push('…');
        }
        html
    }

    /// The hit for a passage; `snippet` is `None` when the mode asks for none, empty for the
    /// passage's beginning.
    fn hit(
        &self,
        book: &Rulebook,
        idx: usize,
        score: f32,
        snippet: Option<&str>,
        matched_by: MatchedBy,
    ) -> Hit {
        let p: &Passage = &book.passages[idx];
        let page_title = book
            .page(&p.page)
            .map(|pg| pg.title.clone())
            .unwrap_or_default();
        let article = p
            .article
            .clone()
            .or_else(|| p.cites.iter().find(|c| book.article(c).is_some()).cloned());
        // No snippet when the mode asks for none; the passage's beginning when none was found.
        let snippet = match snippet {
            None => String::new(),
            Some("") => {
                html_escape::encode_text(&p.text.chars().take(200).collect::<String>()).into_owned()
            }
            Some(s) => s.to_string(),
        };
        Hit {
            passage: idx,
            article,
            title: p.title.clone(),
            page: p.page.clone(),
            page_title,
            anchor: p.anchor.clone(),
            url: p.url(),
            kind: p.kind,
            score,
            snippet,
            matched_by,
        }
    }

    /// Number of indexed passages.
    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    #[doc(hidden)]
    pub fn tantivy_index(&self) -> &Index {
        &self.index
    }
}

/// One entry per article: its best passage (`ranked` is best first); passages that stand for
/// no article all stay.
fn best_per_article(
    ranked: Vec<(f32, usize, Option<String>)>,
) -> Vec<(f32, usize, Option<String>)> {
    let mut taken: FxHashSet<String> = FxHashSet::default();
    ranked
        .into_iter()
        .filter(|(_, _, article)| article.as_ref().is_none_or(|a| taken.insert(a.clone())))
        .collect()
}

/// Every word of the rulebook and the vocabulary, with how often it occurs: what spelling
/// correction may correct towards.
fn known_words(book: &Rulebook, vocabulary: &Vocabulary) -> FxHashMap<String, u32> {
    let mut known: FxHashMap<String, u32> = FxHashMap::default();
    let mut add = |s: &str| {
        for w in words(s) {
            *known.entry(w).or_insert(0) += 1;
        }
    };
    for p in &book.passages {
        add(&p.title);
        add(&p.text);
        for q in p.phrasings().skip(1) {
            add(q);
        }
    }
    for page in &book.pages {
        add(&page.title);
        add(&page.summary);
        page.aliases
            .iter()
            .chain(&page.keywords)
            .for_each(|s| add(s));
    }
    for (k, v) in vocabulary.expand.iter().chain(vocabulary.correct.iter()) {
        add(k);
        add(v);
    }
    known
}

/// The known words of three letters or more, grouped by their first letter and sorted, each
/// with its length in characters (counted once here, not for every typed word): the
/// candidates spelling correction compares a typed word with.
fn words_by_initial(known: &FxHashMap<String, u32>) -> FxHashMap<char, Vec<(String, usize)>> {
    let mut by_initial: FxHashMap<char, Vec<(String, usize)>> = FxHashMap::default();
    for w in known.keys() {
        let length = w.chars().count();
        if length >= 3 && w.chars().all(char::is_alphabetic) {
            by_initial
                .entry(w.chars().next().unwrap_or(' '))
                .or_default()
                .push((w.clone(), length));
        }
    }
    for list in by_initial.values_mut() {
        list.sort();
    }
    by_initial
}

/// The stems of every passage (its own, its page's front matter's) as numbers, with each
/// stem's inverse document frequency, and the body's tokens with their place in the text
/// (for snippets).
struct StemTables {
    stem_ids: FxHashMap<String, u32>,
    idf: Vec<f32>,
    passage_stems: Vec<Vec<u32>>,
    passage_tokens: Vec<Vec<(u32, usize, usize)>>,
}

impl StemTables {
    fn new(book: &Rulebook, analyzer: &mut TextAnalyzer) -> StemTables {
        let page_stems = page_stems(book, analyzer);
        let mut tables = StemTables {
            stem_ids: FxHashMap::default(),
            idf: Vec::new(),
            passage_stems: Vec::with_capacity(book.passages.len()),
            passage_tokens: Vec::with_capacity(book.passages.len()),
        };
        let mut df: Vec<u32> = Vec::new();
        for p in &book.passages {
            let tokens = tables.body_tokens(analyzer, &p.text, &mut df);
            // A ruling is found by every way players put its question.
            let asked = p.phrasings().skip(1).collect::<Vec<_>>().join(" ");
            let text = format!(
                "{} {} {}",
                p.heading_path.join(" "),
                normalise_notation(&asked),
                normalise_notation(&p.text)
            );
            let mut own: Vec<u32> = stems(analyzer, &text)
                .into_iter()
                .map(|s| tables.id_of(s, &mut df))
                .collect();
            own.extend(tokens.iter().map(|t| t.0));
            tables.passage_tokens.push(tokens);
            own.sort_unstable();
            own.dedup();
            for &id in &own {
                df[id as usize] += 1;
            }
            // The page's words count for the passage but not for how rare a word is.
            for s in page_stems.get(p.page.as_str()).into_iter().flatten() {
                let id = tables.id_of(s.clone(), &mut df);
                own.push(id);
            }
            own.sort_unstable();
            own.dedup();
            tables.passage_stems.push(own);
        }
        let n = book.passages.len() as f32;
        tables.idf = df
            .iter()
            .map(|&d| (1.0 + (n - d as f32 + 0.5) / (d as f32 + 0.5)).ln())
            .collect();
        tables
    }

    /// The number of a stem, a new one (with a document count of 0) if unseen.
    fn id_of(&mut self, stem: String, df: &mut Vec<u32>) -> u32 {
        let next = self.stem_ids.len() as u32;
        let id = *self.stem_ids.entry(stem).or_insert(next);
        if id as usize == df.len() {
            df.push(0);
        }
        id
    }

    /// A passage body's stems with their byte offsets.
    fn body_tokens(
        &mut self,
        analyzer: &mut TextAnalyzer,
        text: &str,
        df: &mut Vec<u32>,
    ) -> Vec<(u32, usize, usize)> {
        let mut found: Vec<(String, usize, usize)> = Vec::new();
        let mut stream = analyzer.token_stream(text);
        while stream.advance() {
            let tok = stream.token();
            found.push((tok.text.clone(), tok.offset_from, tok.offset_to));
        }
        drop(stream);
        found
            .into_iter()
            .map(|(stem, from, to)| (self.id_of(stem, df), from, to))
            .collect()
    }
}

/// Each page's stems from its front matter (title, summary, aliases, keywords).
fn page_stems<'a>(
    book: &'a Rulebook,
    analyzer: &mut TextAnalyzer,
) -> HashMap<&'a str, Vec<String>> {
    book.pages
        .iter()
        .map(|page| {
            let text = format!(
                "{} {} {} {}",
                page.title,
                page.summary,
                page.aliases.join(" "),
                page.keywords.join(" ")
            );
            (
                page.id.as_str(),
                stems(analyzer, &normalise_notation(&text)),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_amounts_are_not_articles() {
        assert_eq!(
            articles_in_query("see art. 6.9 and A.5.3"),
            ["6.9", "A.5.3"]
        );
        assert_eq!(articles_in_query("is 9.6.2 automatic?"), ["9.6.2"]);
        assert!(articles_in_query("the round started at 9.00 AM").is_empty());
        assert!(articles_in_query("we began at 10.30, I was late").is_empty());
        assert!(articles_in_query("he had 1.5 seconds left").is_empty());
        assert!(articles_in_query("from 7.15 p.m. on").is_empty());
        assert_eq!(articles_in_query("rule 9.2 at 9.05"), ["9.2"]);
        assert_eq!(
            articles_in_query("he claimed a draw under 10.2 with a minute left"),
            ["III.5"]
        );
        assert_eq!(
            articles_in_query("how many points does 10.2 allow?"),
            ["10.2"]
        );
    }

    #[test]
    fn misspellings_are_corrected_to_rulebook_words() {
        let book = Rulebook::embedded().unwrap();
        let index = SearchIndex::build_in_memory(&book, Vocabulary::embedded()).unwrap();
        assert_eq!(index.correct_spelling("promotoin"), Some("promotion"));
        assert_eq!(index.correct_spelling("arbitr"), Some("arbiter"));
    }

    #[test]
    fn spelling_is_corrected_as_without_the_bound() {
        let book = Rulebook::embedded().unwrap();
        let index = SearchIndex::build_in_memory(&book, Vocabulary::embedded()).unwrap();
        // The corrector as it was, every candidate's distance computed.
        let unbounded = |word: &str| -> Option<&str> {
            let n = word.chars().count();
            let max = if n <= 5 { 1 } else { 2 };
            let mut best: Option<(usize, u32, &str)> = None;
            for (cand, _) in index.by_initial.get(&word.chars().next()?)? {
                if cand.chars().count().abs_diff(n) > max {
                    continue;
                }
                let d = strsim::damerau_levenshtein(word, cand);
                if d == 0 || d > max {
                    continue;
                }
                let freq = index.known_words.get(cand.as_str()).copied().unwrap_or(0);
                if best.is_none_or(|(bd, bf, _)| d < bd || (d == bd && freq > bf)) {
                    best = Some((d, freq, cand.as_str()));
                }
            }
            best.map(|(_, _, w)| w)
        };
        let mut words: Vec<String> = evaluation_questions()
            .iter()
            .flat_map(|q| words(q).collect::<Vec<_>>())
            .collect();
        // Misspellings made from rulebook words: a letter dropped, doubled, swapped, changed.
        let known: Vec<&String> = index.known_words.keys().step_by(7).collect();
        for w in known {
            let b: Vec<char> = w.chars().collect();
            for i in 0..b.len() {
                let mut dropped = b.clone();
                dropped.remove(i);
                let mut doubled = b.clone();
                doubled.insert(i, b[i]);
                let mut changed = b.clone();
                changed[i] = if b[i] == 'e' { 'a' } else { 'e' };
                let mut swapped = b.clone();
                swapped.swap(i, (i + 2).min(b.len() - 1));
                for v in [dropped, doubled, changed, swapped] {
                    words.push(v.into_iter().collect());
                }
            }
        }
        words.extend(["ünter", "kastle", "enpasant", "stalmate"].map(String::from));
        for w in &words {
            assert_eq!(index.correct_spelling(w), unbounded(w), "{w}");
        }
    }

    #[test]
    fn looked_up_stems_are_the_analyzers() {
        let book = Rulebook::embedded().unwrap();
        let index = SearchIndex::build_in_memory(&book, Vocabulary::embedded()).unwrap();
        let mut analyzer = english_analyzer();
        let mut texts: Vec<String> = [
            "Can I castle OUT of check?!",
            "j'adoube — Ünter den Königen, e.p. 0-0-0 Nbd7 3fold",
            "the and of a stalmate flagged zzzq",
        ]
        .map(String::from)
        .to_vec();
        texts.extend(book.passages.iter().take(200).map(|p| p.text.clone()));
        for text in &texts {
            assert_eq!(
                index.query_stems(&mut analyzer, text),
                stems(&mut analyzer, text),
                "{text}"
            );
        }
    }

    #[test]
    fn field_terms_are_the_dictionarys() {
        let book = Rulebook::embedded().unwrap();
        let index = SearchIndex::build_in_memory(&book, Vocabulary::embedded()).unwrap();
        let f = index.fields;
        assert!(index.has_term(f.body, "castl"));
        assert!(index.has_term(f.body_flat, "castl"));
        assert!(index.has_term(f.bigrams, "touch_piec"));
        assert!(!index.has_term(f.body, "zzzq"));
        assert!(
            !index.has_term(f.page, "article-3"),
            "only the word fields are listed"
        );
    }

    #[test]
    fn article_numbers_are_looked_for_only_where_one_can_be() {
        let book = Rulebook::embedded().unwrap();
        let mut texts = evaluation_questions();
        texts.extend(book.passages.iter().map(|p| p.text.clone()));
        texts.extend(
            [
                "see art. 6.9 and A.5.3",
                "is 9.6.2 automatic? — café",
                "Art.٩.٢ says",
                "end.",
                "1. e4",
            ]
            .map(String::from),
        );
        let mut named = 0;
        for q in &texts {
            let matched = article_query_re().is_match(q);
            assert!(may_name_articles(q) || !matched, "{q}");
            assert_eq!(
                without_article_numbers(q),
                article_query_re().replace_all(q, " "),
                "{q}"
            );
            named += usize::from(matched);
        }
        assert!(named >= 10, "{named}");
    }

    /// The questions of the retrieval and real-question evaluation sets.
    fn evaluation_questions() -> Vec<String> {
        let mut out = Vec::new();
        for (file, table, key) in [
            ("tests/search_eval.toml", "query", "text"),
            ("tests/real_questions/dev.toml", "question", "question"),
            ("tests/real_questions/test.toml", "question", "question"),
        ] {
            let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).unwrap();
            let value: toml::Value = toml::from_str(&text).unwrap();
            for item in value[table].as_array().unwrap() {
                out.push(item[key].as_str().unwrap().to_string());
            }
        }
        out
    }

    #[test]
    fn memory_postings_score_exactly_as_tantivy() {
        let book = Rulebook::embedded().unwrap();
        let index = SearchIndex::build_in_memory(&book, Vocabulary::embedded()).unwrap();
        let postings = index.postings.as_ref().expect("an index of one segment");
        let searcher = index.reader.searcher();
        let mut questions = evaluation_questions();
        questions.push("what does article 9 say about draws".into());
        let (mut compared, mut terms_only) = (0, 0);
        for q in &questions {
            let stripped = article_query_re().replace_all(q, " ");
            let terms = index.query_terms(&stripped);
            let clauses = index.clauses(&book, q, &terms);
            // 20 is what the search asks for; 5,000 compares every matching passage.
            for limit in [1, 20, 5_000] {
                let Some(fast) = postings.top(&clauses, limit) else {
                    terms_only += 1;
                    continue;
                };
                let query = index.boolean_query(&clauses).unwrap();
                let collector = TopDocs::with_limit(limit).order_by_score();
                let tantivy: Vec<(u32, u32)> = searcher
                    .search(&query, &collector)
                    .unwrap()
                    .iter()
                    .map(|(score, address)| (score.to_bits(), address.doc_id))
                    .collect();
                let fast: Vec<(u32, u32)> = fast.iter().map(|(s, d)| (s.to_bits(), *d)).collect();
                assert_eq!(fast, tantivy, "{q} (top {limit})");
                compared += 1;
            }
        }
        assert!(
            compared > 1_500,
            "{compared} compared, {terms_only} left to tantivy"
        );
    }

    #[test]
    fn notation_is_read() {
        let words = notation_words("Nbd7 or N8d7 which one");
        assert!(words.iter().any(|w| w.contains("ambiguous")), "{words:?}");
        assert!(
            notation_words("long algebraic Ng1f3 ok?")
                .iter()
                .any(|w| w.contains("long algebraic"))
        );
        assert!(
            notation_words("descriptive notation P-K4")
                .iter()
                .any(|w| w.contains("descriptive"))
        );
        assert_eq!(
            notation_words("K+N vs K+P flag fall"),
            vec!["king knight", "king pawn"]
        );
        assert!(
            notation_words("e8=Q ok?")
                .iter()
                .any(|w| w.contains("promotion queen"))
        );
        assert!(notation_words("Is it a draw?").is_empty());
    }

    #[test]
    fn small_numbers_are_spelt_out() {
        assert_eq!(
            spell_small_numbers("2 minutes, or 1."),
            "two minutes, or one."
        );
        assert_eq!(
            spell_small_numbers("see 7.5.5 and 90+30, 40 moves, d4 2-minute"),
            "see 7.5.5 and 90+30, 40 moves, d4 2-minute"
        );
    }

    #[test]
    fn bigrams_skip_stop_words() {
        let mut a = english_analyzer();
        assert_eq!(bigram_text(&mut a, "touch the piece"), "touch_piec ");
    }
}
