//! Retrieval speed: one query at a time over the 304 questions of tests/search_eval.toml
//! (each iteration runs the next question, so the median and slowest times are over the
//! question set), a whole rulebook answer per question (frame, ruling match, composition), the
//! whole set in one go, and building the in-memory index from the embedded rulebook.
//!
//! Run: `cargo bench --bench search`.

use std::cell::Cell;
use std::sync::LazyLock;

use divan::Bencher;
use rules_arbiter::answer::{Arbiter, AskRequest};
use rules_arbiter::rulebook::Rulebook;
use rules_arbiter::search::{SearchIndex, SearchMode, Vocabulary};

struct Fixture {
    book: Rulebook,
    index: SearchIndex,
    arbiter: Arbiter,
    questions: Vec<String>,
}

static FIXTURE: LazyLock<Fixture> = LazyLock::new(|| {
    #[derive(serde::Deserialize)]
    struct Set {
        query: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        text: String,
    }
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/search_eval.toml"
    ))
    .expect("the evaluation set");
    let set: Set = toml::from_str(&text).expect("the evaluation set parses");
    let book = Rulebook::embedded().expect("the embedded rulebook loads");
    let index =
        SearchIndex::build_in_memory(&book, Vocabulary::embedded()).expect("the index builds");
    Fixture {
        arbiter: Arbiter::embedded().expect("the arbiter builds"),
        book,
        index,
        questions: set.query.into_iter().map(|c| c.text).collect(),
    }
});

/// The allocator of the `arbiter` binary, so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// Runs `search` on one question per iteration, cycling through the evaluation set (so the
/// median and slowest times are over the question set).
fn each_question<T>(bencher: Bencher, search: impl Fn(&Fixture, &str) -> T) {
    let f = &*FIXTURE;
    let next = Cell::new(0usize);
    bencher.bench_local(|| {
        let i = next.get();
        next.set((i + 1) % f.questions.len());
        search(f, &f.questions[i])
    });
}

/// Top 3 with snippets, as `/api/search` asks.
#[divan::bench(sample_count = 3040, sample_size = 1)]
fn query(bencher: Bencher) {
    each_question(bencher, |f, q| f.index.search(&f.book, q, 3));
}

/// The answer layer's call: eight passages, ruling and law passages of one article both kept,
/// no snippets.
#[divan::bench(sample_count = 3040, sample_size = 1)]
fn query_passages(bencher: Bencher) {
    each_question(bencher, |f, q| {
        f.index.search_with(&f.book, q, 8, SearchMode::ANSWER)
    });
}

/// A whole answer to a rulebook question, as `arbiter ask` and `/api/ask` (without the answer
/// cache) compute it: the frame, the search of each part, the ruling match and the composition.
#[divan::bench(sample_count = 3040, sample_size = 1)]
fn ask(bencher: Bencher) {
    each_question(bencher, |f, q| {
        f.arbiter.ask(&AskRequest::question(q)).expect("an answer")
    });
}

/// The same with a counter word appended to every question, as the load script's "every
/// question new" mode sends them (`benches/load.sh … asknew`).
#[divan::bench(sample_count = 3040, sample_size = 1)]
fn ask_new(bencher: Bencher) {
    let counter = Cell::new(0usize);
    each_question(bencher, |f, q| {
        counter.set(counter.get() + 1);
        let question = format!("{q} (q0-{})", counter.get());
        f.arbiter
            .ask(&AskRequest::question(&question))
            .expect("an answer")
    });
}

/// All 304 questions.
#[divan::bench(sample_count = 10)]
fn query_all(bencher: Bencher) {
    let f = &*FIXTURE;
    bencher.bench_local(|| {
        f.questions
            .iter()
            .map(|q| f.index.search(&f.book, q, 3).len())
            .sum::<usize>()
    });
}

/// Building the in-memory index (tantivy passages, page prior, spelling and snippet tables)
/// from the already loaded rulebook, as at start-up.
#[divan::bench(sample_count = 10)]
fn build_index(bencher: Bencher) {
    let book = &FIXTURE.book;
    bencher.bench_local(|| {
        SearchIndex::build_in_memory(book, Vocabulary::embedded()).expect("the index builds")
    });
}

/// Loading the embedded rulebook and building the index: the whole start-up cost of search.
#[divan::bench(sample_count = 10)]
fn load_and_build(bencher: Bencher) {
    bencher.bench_local(|| {
        let book = Rulebook::embedded().expect("the embedded rulebook loads");
        SearchIndex::build_in_memory(&book, Vocabulary::embedded()).expect("the index builds")
    });
}
