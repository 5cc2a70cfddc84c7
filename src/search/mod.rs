//! Retrieval: the rulebook's passages indexed with tantivy.
//!
//! A query is first *understood*: article numbers ("9.6.2", "art. 6.9", "A.5.3") go straight
//! to their heading; slang, notation and misspellings are rewritten by the editable
//! [`Vocabulary`] (and a question in another language is read through its chess terms,
//! [`languages`]); unknown words get a fuzzy match. Then BM25 over boosted fields (title,
//! FAQ question, aliases, heading path, body) ranks the passages.
//!
//! `search` knows the rulebook, nothing of rules, answers or HTTP.

pub mod disk;
mod index;
pub mod languages;
mod postings;
mod vocabulary;

pub(crate) use index::words;
pub use index::{Hit, IndexError, MatchedBy, SearchIndex, SearchMode, Tuning};
pub use vocabulary::Vocabulary;
