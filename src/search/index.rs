//! The tantivy index over rulebook passages, and query execution.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, QueryParser, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::snippet::SnippetGenerator;
use tantivy::tokenizer::{Language, LowerCaser, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer};
use tantivy::{Index, IndexReader, TantivyDocument, Term, doc};

use super::vocabulary::Vocabulary;
use crate::rulebook::{Passage, Rulebook};

const ENGLISH: &str = "arbiter_en";
const RAW: &str = "arbiter_raw";

/// Words too common to help. Unlike tantivy's English list it keeps `no`, `not`, `if`,
/// `before`, `after`, which change what a rules question means.
const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "am", "of", "to", "in", "on", "at", "for", "with",
    "by", "and", "or", "it", "its", "this", "that", "these", "those", "do", "does", "did", "i", "my", "me", "you",
    "your", "he", "she", "his", "her", "we", "our", "they", "their", "what", "which", "who", "how", "there", "here",
    "as", "from", "so", "than", "then", "about", "any", "some", "just", "also", "s", "t", "please", "hi", "hello",
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
    /// the first article they cite.
    pub article: Option<String>,
    pub title: String,
    pub page: String,
    pub page_title: String,
    pub anchor: String,
    pub url: String,
    pub kind: &'static str,
    pub score: f32,
    /// Highlighted HTML snippet of the passage text.
    pub snippet: String,
    /// `article` when the query named this article, `search` otherwise.
    pub matched_by: &'static str,
}

#[derive(Clone, Copy)]
struct Fields {
    idx: Field,
    article: Field,
    page: Field,
    title: Field,
    question: Field,
    aliases: Field,
    path: Field,
    body: Field,
    raw: Field,
}

/// The searchable rulebook: an immutable index plus the rulebook and vocabulary it serves.
pub struct SearchIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    parser: QueryParser,
    vocabulary: Vocabulary,
    known_words: HashSet<String>,
    /// Where the index came from: `memory` or the directory opened.
    pub origin: String,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = |name: &str| {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default().set_tokenizer(name).set_index_option(IndexRecordOption::WithFreqsAndPositions),
        )
    };
    let fields = Fields {
        idx: b.add_u64_field("idx", STORED | tantivy::schema::INDEXED),
        article: b.add_text_field("article", STRING | STORED),
        page: b.add_text_field("page", STRING | STORED),
        title: b.add_text_field("title", text(ENGLISH)),
        question: b.add_text_field("question", text(ENGLISH)),
        aliases: b.add_text_field("aliases", text(ENGLISH)),
        path: b.add_text_field("path", text(ENGLISH)),
        body: b.add_text_field("body", text(ENGLISH)),
        raw: b.add_text_field("raw", text(RAW)),
    };
    (b.build(), fields)
}

fn register_tokenizers(index: &Index) {
    let english = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(LowerCaser)
        .filter(StopWordFilter::remove(STOP_WORDS.iter().map(|s| s.to_string()).collect::<Vec<_>>()))
        .filter(Stemmer::new(Language::English))
        .build();
    let raw = TextAnalyzer::builder(SimpleTokenizer::default()).filter(LowerCaser).build();
    index.tokenizers().register(ENGLISH, english);
    index.tokenizers().register(RAW, raw);
}

/// Rewrites chess notation the tokenizer would split, the same way in documents and queries.
fn normalise_notation(text: &str) -> String {
    text.replace("O-O-O", "castling queenside long")
        .replace("0-0-0", "castling queenside long")
        .replace("O-O", "castling kingside short")
        .replace("0-0", "castling kingside short")
        .replace("e.p.", "en passant")
        .replace("j'adoube", "jadoube j'adoube adjust")
}

fn article_query_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?:^|[\s(§])(?:(?:art(?:icle)?|rule|law|§)\.?\s*)?((?:III|II|I|[A-D])(?:\.\d{1,2})+|\d{1,2}(?:\.\d{1,2})+)\b").expect("valid regex")
    })
}

fn whole_article_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:art(?:icle)?\.?\s*(\d{1,2})\b|appendix\s+([a-d])\b|guidelines?\s+(iii|ii|i)\b)").expect("valid regex")
    })
}

/// Article numbers named in a query, in order ("art. 6.9", "9.6.2", "A.5.3").
pub fn articles_in_query(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in article_query_re().captures_iter(query) {
        let n = c[1].to_string();
        let n = match n.split_once('.') {
            Some((head, tail)) if head.chars().all(|c| c.is_ascii_alphabetic()) => format!("{}.{tail}", head.to_ascii_uppercase()),
            _ => n,
        };
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

impl SearchIndex {
    /// Builds an index in memory (the default at start-up: tens of milliseconds).
    pub fn build_in_memory(book: &Rulebook, vocabulary: Vocabulary) -> Result<SearchIndex, IndexError> {
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        Self::fill(&index, fields, book)?;
        Self::from_index(index, fields, book, vocabulary, "memory".into())
    }

    fn fill(index: &Index, f: Fields, book: &Rulebook) -> Result<(), IndexError> {
        register_tokenizers(index);
        let mut writer = index.writer_with_num_threads(1, 32_000_000)?;
        for (i, p) in book.passages.iter().enumerate() {
            let page = book.page(&p.page).ok_or_else(|| IndexError::Other(format!("passage of unknown page {}", p.page)))?;
            let is_intro = p.level == 1;
            let aliases = format!("{} {}", page.aliases.join(" ; "), page.keywords.join(" ; "));
            let title = normalise_notation(&p.title);
            let body = normalise_notation(&p.text);
            // The page title joins the heading path so that "Article 9" words weigh in.
            let path = normalise_notation(&p.heading_path.join(" / "));
            let mut d = doc!(
                f.idx => i as u64,
                f.page => p.page.clone(),
                f.title => if is_intro { format!("{title} {}", page.summary) } else { title.clone() },
                f.path => path,
                f.body => body.clone(),
                f.aliases => normalise_notation(&aliases),
                f.raw => format!("{title} {body} {}", normalise_notation(&aliases)),
            );
            if let Some(a) = &p.article {
                d.add_text(f.article, a);
            }
            if let Some(q) = p.question() {
                d.add_text(f.question, normalise_notation(q));
            }
            writer.add_document(d)?;
        }
        writer.commit()?;
        Ok(())
    }

    fn from_index(index: Index, fields: Fields, book: &Rulebook, vocabulary: Vocabulary, origin: String) -> Result<SearchIndex, IndexError> {
        register_tokenizers(&index);
        let reader = index.reader()?;
        let mut parser = QueryParser::for_index(&index, vec![fields.title, fields.question, fields.aliases, fields.path, fields.body]);
        parser.set_field_boost(fields.title, 3.0);
        parser.set_field_boost(fields.question, 2.5);
        parser.set_field_boost(fields.aliases, 0.6);
        parser.set_field_boost(fields.path, 1.0);
        parser.set_field_boost(fields.body, 1.0);
        let mut known_words = HashSet::new();
        let mut add_words = |s: &str| {
            for w in s.split(|c: char| !c.is_alphanumeric()) {
                if !w.is_empty() {
                    known_words.insert(w.to_lowercase());
                }
            }
        };
        for p in &book.passages {
            add_words(&p.title);
            add_words(&p.text);
        }
        for page in &book.pages {
            page.aliases.iter().chain(&page.keywords).for_each(|s| add_words(s));
        }
        for (k, v) in vocabulary.expand.iter().chain(vocabulary.correct.iter()) {
            add_words(k);
            add_words(v);
        }
        Ok(SearchIndex { index, reader, fields, parser, vocabulary, known_words, origin })
    }

    /// Builds the index under `out/rulebook-<hash>/` and then points `out/CURRENT` at it with an
    /// atomic rename, so a reader never sees a half-built index. Older builds are removed.
    pub fn build_on_disk(book: &Rulebook, out: &Path) -> Result<PathBuf, IndexError> {
        std::fs::create_dir_all(out)?;
        let name = format!("rulebook-{}", &book.hash[..16]);
        let staging = out.join(format!(".{name}.tmp-{}", std::process::id()));
        if staging.exists() {
            std::fs::remove_dir_all(&staging)?;
        }
        std::fs::create_dir_all(&staging)?;
        let (schema, fields) = schema();
        let index = Index::create_in_dir(&staging, schema)?;
        Self::fill(&index, fields, book)?;
        drop(index);
        std::fs::write(staging.join("rulebook.hash"), &book.hash)?;
        let target = out.join(&name);
        if target.exists() {
            std::fs::remove_dir_all(&target)?;
        }
        std::fs::rename(&staging, &target)?;
        let current_tmp = out.join(".CURRENT.tmp");
        std::fs::write(&current_tmp, &name)?;
        std::fs::rename(&current_tmp, out.join("CURRENT"))?;
        for entry in std::fs::read_dir(out)? {
            let entry = entry?;
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if file_name.starts_with("rulebook-") && file_name != name {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        Ok(target)
    }

    /// Opens `dir` when it holds an index of exactly this rulebook; otherwise builds one in
    /// memory. Returns the index and, when the on-disk copy was not used, why.
    pub fn open_or_build(book: &Rulebook, vocabulary: Vocabulary, dir: Option<&Path>) -> Result<(SearchIndex, Option<String>), IndexError> {
        let mut why = None;
        if let Some(dir) = dir {
            match Self::try_open(book, &vocabulary, dir) {
                Ok(index) => return Ok((index, None)),
                Err(reason) => why = Some(reason),
            }
        }
        Ok((Self::build_in_memory(book, vocabulary)?, why))
    }

    fn try_open(book: &Rulebook, vocabulary: &Vocabulary, dir: &Path) -> Result<SearchIndex, String> {
        let current = std::fs::read_to_string(dir.join("CURRENT")).map_err(|_| format!("no index in {}", dir.display()))?;
        let path = dir.join(current.trim());
        let hash = std::fs::read_to_string(path.join("rulebook.hash")).map_err(|e| format!("{}: {e}", path.display()))?;
        if hash.trim() != book.hash {
            return Err(format!("the index in {} was built from another version of the rulebook", path.display()));
        }
        let index = Index::open_in_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (_, fields) = schema();
        Self::from_index(index, fields, book, vocabulary.clone(), path.display().to_string()).map_err(|e| e.to_string())
    }

    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocabulary
    }

    /// Ranked passages for a free-text query, one per article.
    pub fn search(&self, book: &Rulebook, query: &str, limit: usize) -> Vec<Hit> {
        self.search_with(book, query, limit, true)
    }

    /// Ranked passages; with `dedupe_articles` false, a FAQ entry and the law passage of the
    /// same article may both appear.
    pub fn search_with(&self, book: &Rulebook, query: &str, limit: usize, dedupe_articles: bool) -> Vec<Hit> {
        let limit = limit.clamp(1, 50);
        let query = &query.chars().take(1000).collect::<String>();
        let mut hits: Vec<Hit> = Vec::new();
        let mut seen = HashSet::new();
        // Article numbers named in the query go first, in the order named.
        for number in articles_in_query(query) {
            if let Some(idx) = book.article_index(&number).or_else(|| {
                book.resolve_article(&number).and_then(|p| book.passages.iter().position(|q| std::ptr::eq(q, p)))
            }) {
                if seen.insert(idx) {
                    hits.push(self.hit(book, idx, 1000.0, "", "article"));
                }
            }
        }
        let stripped = article_query_re().replace_all(query, " ");
        let rewritten = normalise_notation(&self.vocabulary.rewrite(&stripped));
        let cleaned: String = rewritten
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        if !cleaned.trim().is_empty() {
            let (parsed, _errors) = self.parser.parse_query_lenient(&cleaned);
            clauses.push((Occur::Should, parsed));
            for word in cleaned.split_whitespace() {
                if word.len() >= 4 && word.chars().all(|c| c.is_alphabetic()) && !self.known_words.contains(word) {
                    let distance = if word.chars().count() <= 5 { 1 } else { 2 };
                    let fuzzy = FuzzyTermQuery::new(Term::from_field_text(self.fields.raw, word), distance, true);
                    clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(fuzzy), 2.0))));
                }
            }
        }
        for c in whole_article_re().captures_iter(query) {
            let top = c.get(1).or(c.get(2)).or(c.get(3)).map(|m| m.as_str().to_ascii_uppercase());
            if let Some(page) = top.and_then(|t| book.law_page_for(&t)) {
                let term = Term::from_field_text(self.fields.page, &page.id);
                clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(TermQuery::new(term, IndexRecordOption::Basic)), 4.0))));
            }
        }
        if clauses.is_empty() {
            return hits;
        }
        let query_obj = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let Ok(top) = searcher.search(&query_obj, &TopDocs::with_limit(40).order_by_score()) else {
            return hits;
        };
        // Decide which article a guide or FAQ passage stands for: among the articles it cites,
        // the one whose own heading scored best for this query (else its first citation).
        let mut ranked: Vec<(f32, usize)> = Vec::new();
        for (score, addr) in top {
            let Ok(doc) = searcher.doc::<TantivyDocument>(addr) else { continue };
            let Some(idx) = doc.get_first(self.fields.idx).and_then(|v| v.as_u64()).map(|v| v as usize) else { continue };
            if idx < book.passages.len() {
                let weight = match book.passages[idx].kind {
                    crate::rulebook::PageKind::Law => 1.0,
                    crate::rulebook::PageKind::Faq => 0.95,
                    crate::rulebook::PageKind::Guide => 0.8,
                };
                ranked.push((score * weight, idx));
            }
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let law_scores: std::collections::HashMap<&str, f32> = ranked
            .iter()
            .filter_map(|(s, i)| book.passages[*i].article.as_deref().map(|a| (a, *s)))
            .rev()
            .collect();
        let snippets = SnippetGenerator::create(&searcher, &query_obj, self.fields.body).ok();
        for (score, idx) in ranked {
            if !seen.insert(idx) {
                continue;
            }
            let snippet = snippets
                .as_ref()
                .map(|g| g.snippet(&normalise_notation(&book.passages[idx].text)).to_html())
                .unwrap_or_default();
            let mut hit = self.hit(book, idx, score, &snippet, "search");
            let p = &book.passages[idx];
            if p.article.is_none() {
                let best = p
                    .cites
                    .iter()
                    .filter_map(|c| law_scores.get(c.as_str()).map(|s| (c, *s)))
                    .max_by(|a, b| a.1.total_cmp(&b.1));
                if let Some((c, _)) = best {
                    hit.article = Some(c.clone());
                }
            }
            hits.push(hit);
            if hits.len() >= limit * 4 {
                break;
            }
        }
        if dedupe_articles {
            let mut arts = HashSet::new();
            hits.retain(|h| match &h.article {
                Some(a) => arts.insert(a.clone()),
                None => true,
            });
        }
        hits.truncate(limit);
        hits
    }

    fn hit(&self, book: &Rulebook, idx: usize, score: f32, snippet: &str, matched_by: &'static str) -> Hit {
        let p: &Passage = &book.passages[idx];
        let page_title = book.page(&p.page).map(|pg| pg.title.clone()).unwrap_or_default();
        let article = p.article.clone().or_else(|| p.cites.iter().find(|c| book.article(c).is_some()).cloned());
        let snippet = if snippet.is_empty() {
            html_escape::encode_text(&p.text.chars().take(200).collect::<String>()).into_owned()
        } else {
            snippet.to_string()
        };
        Hit {
            passage: idx,
            article,
            title: p.title.clone(),
            page: p.page.clone(),
            page_title,
            anchor: p.anchor.clone(),
            url: p.url(),
            kind: p.kind.as_str(),
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

