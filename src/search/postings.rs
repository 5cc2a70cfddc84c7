//! The index's postings held in memory, and a query's clauses summed over them exactly as
//! tantivy sums them.
//!
//! A rulebook question becomes a hundred or more boosted term clauses over six fields. For each
//! clause of each query tantivy looks the term up, builds its BM25 weight (with a fresh table of
//! 256 length norms), a postings reader and a scorer, and merges them all in a buffered union:
//! a third of the answer path's time. The index is small and never changes, so its postings
//! are read once at start-up — each with BM25's term-frequency factor computed then, as
//! tantivy computes it (the same operations in the same order; every posting's score is
//! compared bit for bit with tantivy's [`Bm25Weight`] as it is read) — and a query is summed
//! here into one score per passage in the union's order — clause by clause, each passage's
//! score starting at zero — so that every score is bit for bit the one tantivy's search gives, and the
//! best documents are taken as its top-k collector takes them (higher score first, then the
//! lower document). Where tantivy would not sum that way (a query of term clauses only, which
//! it runs with block-WAND, or an index of several segments), [`MemoryPostings::top`] says so
//! and the caller asks tantivy. A test compares both on the evaluation questions.

use std::collections::BinaryHeap;

use rustc_hash::FxHashMap as HashMap;
use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::Postings;
use tantivy::query::{Bm25StatisticsProvider, Bm25Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Searcher, SegmentReader, TERMINATED};

/// One clause of a search, all of them optional (`Should`) and summed.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Clause<'a> {
    /// A term in a text field, scored by BM25 times `boost`.
    Term {
        field: Field,
        term: &'a str,
        boost: f32,
    },
    /// Every passage of a page, at a constant score.
    Page { page: &'a str, score: f32 },
}

#[derive(Debug, Clone, Copy)]
struct Posting {
    doc: u32,
    /// BM25's term-frequency part for the document (tantivy's `tf_factor`: term frequency
    /// over itself plus the cached length component), computed once.
    factor: f32,
}

struct TermPostings {
    /// Tantivy's BM25 weight of the term before any boost (inverse document frequency times
    /// 1 + k1): a posting scores `weight × boost × factor`, multiplied in that order.
    weight: f32,
    postings: Vec<Posting>,
}

/// The fields that hold one term ([`MemoryPostings::fields_of`]).
pub(super) struct TermFields<'a>(&'a [(Field, TermPostings)]);

impl TermFields<'_> {
    pub(super) fn has(&self, field: Field) -> bool {
        self.0.iter().any(|(f, _)| *f == field)
    }
}

/// BM25's constants as tantivy has them (`query/bm25.rs`).
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Tantivy's `idf` times 1 + k1, the same operations in the same order.
fn bm25_weight(doc_freq: u64, total_docs: u64) -> f32 {
    let x = ((total_docs - doc_freq) as f32 + 0.5) / (doc_freq as f32 + 0.5);
    (1.0 + x).ln() * (1.0 + K1)
}

/// Tantivy's `tf_factor` with its cached length component, the same operations in order.
fn tf_factor(term_freq: u32, norm_id: u8, average: f32) -> f32 {
    let fieldnorm = FieldNormReader::id_to_fieldnorm(norm_id);
    let norm = K1 * (1.0 - B + B * fieldnorm as f32 / average);
    let term_freq = term_freq as f32;
    term_freq / (term_freq + norm)
}

/// Every term of the searched fields with its postings, and each page's passages (hashed
/// with FxHash: fixed keys from the rulebook, a hundred look-ups a query).
pub(super) struct MemoryPostings {
    /// Each term with its postings in each field that has it (one look-up a term, not one a
    /// field).
    terms: HashMap<String, Vec<(Field, TermPostings)>>,
    pages: HashMap<String, Vec<u32>>,
    max_doc: u32,
    /// The smallest term-frequency factor of any posting: a clause whose weight times it is
    /// above zero adds a positive score to every passage it matches.
    min_factor: f32,
}

impl MemoryPostings {
    /// Reads the postings of `fields` (text fields indexed with frequencies) and of `page` (a
    /// raw field); `None` for an index of more than one segment, or if a score computed here
    /// differs in any bit from tantivy's [`Bm25Weight`] for the same posting.
    pub(super) fn read(
        searcher: &Searcher,
        fields: &[Field],
        page: Field,
    ) -> tantivy::Result<Option<MemoryPostings>> {
        let [segment] = searcher.segment_readers() else {
            return Ok(None);
        };
        let mut out = MemoryPostings {
            terms: HashMap::default(),
            pages: HashMap::default(),
            max_doc: segment.max_doc(),
            min_factor: f32::INFINITY,
        };
        for &field in fields {
            let Some(terms) = Self::read_field(searcher, segment, field)? else {
                return Ok(None);
            };
            for (term, postings) in terms {
                for p in &postings.postings {
                    out.min_factor = out.min_factor.min(p.factor);
                }
                out.terms.entry(term).or_default().push((field, postings));
            }
        }
        let inverted = segment.inverted_index(page)?;
        let mut stream = inverted.terms().stream()?;
        while stream.advance() {
            let mut docs =
                inverted.read_postings_from_terminfo(stream.value(), IndexRecordOption::Basic)?;
            let mut list = Vec::new();
            while docs.doc() != TERMINATED {
                list.push(docs.doc());
                docs.advance();
            }
            let page = String::from_utf8_lossy(stream.key()).into_owned();
            out.pages.insert(page, list);
        }
        Ok(Some(out))
    }

    /// The terms of one text field with their postings; `None` if a score computed here is
    /// not bit for bit tantivy's.
    fn read_field(
        searcher: &Searcher,
        segment: &SegmentReader,
        field: Field,
    ) -> tantivy::Result<Option<Vec<(String, TermPostings)>>> {
        let total_docs = Bm25StatisticsProvider::total_num_docs(searcher)?;
        // As `Bm25Weight::for_terms` computes it.
        let average =
            Bm25StatisticsProvider::total_num_tokens(searcher, field)? as f32 / total_docs as f32;
        let norms = segment
            .fieldnorms_readers()
            .get_field(field)?
            .unwrap_or_else(|| FieldNormReader::constant(segment.max_doc(), 1));
        let inverted = segment.inverted_index(field)?;
        let mut stream = inverted.terms().stream()?;
        let mut terms = Vec::new();
        while stream.advance() {
            let info = stream.value();
            let doc_freq = u64::from(info.doc_freq);
            let tantivy = Bm25Weight::for_one_term_without_explain(doc_freq, total_docs, average);
            let weight = bm25_weight(doc_freq, total_docs);
            let mut docs =
                inverted.read_postings_from_terminfo(info, IndexRecordOption::WithFreqs)?;
            let mut postings = Vec::with_capacity(info.doc_freq as usize);
            while docs.doc() != TERMINATED {
                let (term_freq, norm) = (docs.term_freq(), norms.fieldnorm_id(docs.doc()));
                let factor = tf_factor(term_freq, norm, average);
                if (weight * factor).to_bits() != tantivy.score(norm, term_freq).to_bits() {
                    return Ok(None);
                }
                postings.push(Posting {
                    doc: docs.doc(),
                    factor,
                });
                docs.advance();
            }
            let term = String::from_utf8_lossy(stream.key()).into_owned();
            terms.push((term, TermPostings { weight, postings }));
        }
        Ok(Some(terms))
    }

    /// Whether `field` holds `term`.
    pub(super) fn has(&self, field: Field, term: &str) -> bool {
        self.postings(field, term).is_some()
    }

    /// The fields that hold `term`, looked up once for all of them.
    pub(super) fn fields_of(&self, term: &str) -> TermFields<'_> {
        TermFields(self.terms.get(term).map_or(&[], Vec::as_slice))
    }

    fn postings(&self, field: Field, term: &str) -> Option<&TermPostings> {
        let fields = self.terms.get(term)?;
        fields.iter().find(|(f, _)| *f == field).map(|(_, t)| t)
    }

    /// The best `limit` documents for `clauses` as (score, document), best first, as tantivy's
    /// `TopDocs` would return them; `None` when tantivy would sum the clauses in another order
    /// (terms only: block-WAND).
    pub(super) fn top(&self, clauses: &[Clause], limit: usize) -> Option<Vec<(f32, u32)>> {
        if !clauses.iter().any(|c| matches!(c, Clause::Page { .. })) {
            return None;
        }
        let mut scores = vec![0.0f32; self.max_doc as usize];
        if self.sum(clauses, &mut scores, |_| {}) {
            // Positive sums of positive scores: a passage is matched when its score is not 0.
            return Some(best_positive(&scores, limit));
        }
        scores.fill(0.0);
        let mut matched = vec![false; self.max_doc as usize];
        self.sum(clauses, &mut scores, |doc| matched[doc as usize] = true);
        Some(best(&scores, &matched, limit))
    }

    /// Sums `clauses` into `scores` in tantivy's order, telling `matched` each passage a
    /// clause reaches; whether every clause added a score above zero to every passage it
    /// reached (f32 products round monotonically, so a weight whose product with the smallest
    /// factor is above zero is above zero with every factor).
    fn sum(&self, clauses: &[Clause], scores: &mut [f32], mut matched: impl FnMut(u32)) -> bool {
        let mut positive = true;
        for clause in clauses {
            match clause {
                Clause::Term { field, term, boost } => {
                    let Some(t) = self.postings(*field, term) else {
                        continue;
                    };
                    // What tantivy's term scorer does with the boost its `BoostQuery` passes
                    // (`Bm25Weight::boost_by`, then `score`).
                    let weight = t.weight * *boost;
                    positive &= weight * self.min_factor > 0.0;
                    for p in &t.postings {
                        scores[p.doc as usize] += weight * p.factor;
                        matched(p.doc);
                    }
                }
                Clause::Page { page, score } => {
                    positive &= *score > 0.0;
                    for &doc in self.pages.get(*page).into_iter().flatten() {
                        scores[doc as usize] += *score;
                        matched(doc);
                    }
                }
            }
        }
        positive
    }
}

/// The best `limit` matched documents as (score, document), best first: higher score, then
/// lower document. One pass keeps the best so far in a heap with the worst of them on top;
/// under a total order the best `limit` are the same however they are found. Documents come
/// in increasing order, so one is better than the worst kept exactly when its score is higher.
fn best(scores: &[f32], matched: &[bool], limit: usize) -> Vec<(f32, u32)> {
    let mut heap: BinaryHeap<Ranked> = BinaryHeap::with_capacity(limit + 1);
    for (doc, &score) in scores.iter().enumerate() {
        if !matched[doc] {
            continue;
        }
        if heap.len() < limit {
            heap.push(Ranked(score, doc as u32));
        } else if let Some(mut worst) = heap.peek_mut()
            && score.total_cmp(&worst.0).is_gt()
        {
            *worst = Ranked(score, doc as u32);
        }
    }
    sorted(heap, limit)
}

/// [`best`] when every matched document has a score above zero and no other does (scores
/// are then never NaN nor -0, so `>` is the total order): one comparison a document with
/// the bar a document must pass — above zero until `limit` are kept, then above the worst
/// kept.
fn best_positive(scores: &[f32], limit: usize) -> Vec<(f32, u32)> {
    let mut heap: BinaryHeap<Ranked> = BinaryHeap::with_capacity(limit + 1);
    if limit == 0 {
        return Vec::new();
    }
    let mut bar = 0.0f32;
    for (doc, &score) in scores.iter().enumerate() {
        if score > bar {
            let ranked = Ranked(score, doc as u32);
            if heap.len() < limit {
                heap.push(ranked);
            } else if let Some(mut worst) = heap.peek_mut() {
                *worst = ranked;
            }
            if heap.len() == limit {
                bar = heap.peek().map_or(bar, |worst| worst.0);
            }
        }
    }
    sorted(heap, limit)
}

/// The documents kept, best first.
fn sorted(heap: BinaryHeap<Ranked>, limit: usize) -> Vec<(f32, u32)> {
    let mut top = heap.into_sorted_vec();
    top.truncate(limit);
    top.into_iter().map(|Ranked(s, d)| (s, d)).collect()
}

/// A document with its score, ordered best first (a higher score, then a lower document):
/// the order of tantivy's top-k collector.
struct Ranked(f32, u32);

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.total_cmp(&self.0).then(self.1.cmp(&other.1))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Ranked {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores with ties, zeros (unmatched) and every order of arrival.
    fn sample_scores(seed: u64) -> Vec<f32> {
        let mut x = seed;
        (0..1_500)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match (x >> 33) % 7 {
                    0 | 1 => 0.0,
                    2 => 1.5,
                    _ => ((x >> 40) % 97) as f32 * 0.25,
                }
            })
            .collect()
    }

    #[test]
    fn positive_scores_are_ranked_as_with_flags() {
        for seed in 0..20 {
            let scores = sample_scores(seed);
            let matched: Vec<bool> = scores.iter().map(|&s| s > 0.0).collect();
            for limit in [0, 1, 5, 20, 2_000] {
                assert_eq!(
                    best_positive(&scores, limit),
                    best(&scores, &matched, limit),
                    "seed {seed}, top {limit}"
                );
            }
        }
    }
}
