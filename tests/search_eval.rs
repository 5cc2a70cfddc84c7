//! Retrieval accuracy on tests/search_eval.toml: questions written the way people type them,
//! each with the article(s) that decide it. Prints top-1 and top-3 accuracy, the median and
//! 99th-percentile query latency, and every miss. The aim is 90% top-1 and 98% top-3; the test
//! enforces a floor a little below the level reached (90.5% top-1, 99% top-3) against regressions.
//! It is a regression set, not the target (the rulings bank, 719+ passages, now shares the index;
//! tests/real_questions.rs measures answers on questions nobody here wrote).
//!
//! An answer counts when its article equals an expected one or is its parent or child with
//! at least two levels (3.8.2 ~ 3.8.2.2, but 3 never matches everything in Article 3).
//!
//! Two ignored helpers read the rulebook and vocabulary from disk, so that editing
//! rulebook/vocabulary.toml needs no rebuild of the library:
//! - `TUNE='title=3,body=1;rulings=0.9' cargo test --release --test search_eval tune -- --ignored --nocapture`
//!   evaluates each `;`-separated set of ranking weights (see `Tuning`);
//! - `PROBE='query one|query two' cargo test --release --test search_eval probe -- --ignored --nocapture`
//!   prints the ten best passages of each query.

use std::time::{Duration, Instant};

use rules_arbiter::rulebook::Rulebook;
use rules_arbiter::rulebook::article_matches;
use rules_arbiter::search::{SearchIndex, SearchMode, Tuning, Vocabulary};
use serde::Deserialize;

#[derive(Deserialize)]
struct EvalSet {
    query: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    text: String,
    expect: Vec<String>,
}

fn eval_set() -> EvalSet {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/search_eval.toml"
    ))
    .unwrap();
    let set: EvalSet = toml::from_str(&text).unwrap();
    assert!(
        set.query.len() >= 150,
        "the evaluation set needs at least 150 questions"
    );
    set
}

struct Outcome {
    top1: f64,
    top3: f64,
    misses: Vec<String>,
    median: Duration,
    p99: Duration,
}

fn evaluate(index: &SearchIndex, book: &Rulebook, set: &EvalSet) -> Outcome {
    let (mut top1, mut top3) = (0usize, 0usize);
    let mut misses = Vec::new();
    let mut times = Vec::with_capacity(set.query.len());
    for case in &set.query {
        let start = Instant::now();
        let hits = index.search(book, &case.text, 3);
        times.push(start.elapsed());
        let arts: Vec<String> = hits
            .iter()
            .map(|h| h.article.clone().unwrap_or_else(|| format!("<{}>", h.page)))
            .collect();
        let ok = |a: &String| case.expect.iter().any(|w| article_matches(a, w));
        let first = arts.first().is_some_and(ok);
        let within3 = arts.iter().any(ok);
        top1 += first as usize;
        top3 += within3 as usize;
        if !first {
            let mut kind = hits
                .first()
                .map(|h| format!("{} {}", h.kind.as_str(), h.page))
                .unwrap_or_default();
            if let (Some(first), Some(right)) = (
                hits.first(),
                hits.iter().find(|h| h.article.as_ref().is_some_and(&ok)),
            ) {
                kind.push_str(&format!(" {:.2}", right.score / first.score));
            }
            misses.push(format!(
                "{} {:?}: expected {:?}, got {:?} ({kind})",
                if within3 { "top3" } else { "MISS" },
                case.text,
                case.expect,
                arts
            ));
        }
    }
    // Latency: a second, warm pass over the same questions.
    times.clear();
    for case in &set.query {
        let start = Instant::now();
        std::hint::black_box(index.search(book, &case.text, 3));
        times.push(start.elapsed());
    }
    times.sort();
    let n = set.query.len() as f64;
    Outcome {
        top1: top1 as f64 / n * 100.0,
        top3: top3 as f64 / n * 100.0,
        misses,
        median: times[times.len() / 2],
        p99: times[((times.len() as f64 * 0.99) as usize).min(times.len() - 1)],
    }
}

#[test]
fn top1_and_top3_accuracy() {
    let set = eval_set();
    let book = Rulebook::embedded().unwrap();
    let start = Instant::now();
    let index = SearchIndex::build_in_memory(&book, Vocabulary::embedded()).unwrap();
    let build = start.elapsed();
    let o = evaluate(&index, &book, &set);
    for m in &o.misses {
        println!("{m}");
    }
    println!(
        "search eval: {} questions, top-1 {:.1}%, top-3 {:.1}%; query latency median {:.0} µs, p99 {:.0} µs; index build {:.0} ms",
        set.query.len(),
        o.top1,
        o.top3,
        o.median.as_secs_f64() * 1e6,
        o.p99.as_secs_f64() * 1e6,
        build.as_secs_f64() * 1e3,
    );
    // The aim is 90% top-1 and 98% top-3 (the retrieval issue); this guards the level reached
    // (93.8% / 100% after the rulebook wording pass) against regressions.
    assert!(
        o.top1 >= 90.5 && o.top3 >= 99.0,
        "top-1 {:.1}% (floor 90.5; aim met at 90), top-3 {:.1}% (floor 99; aim met at 98)",
        o.top1,
        o.top3
    );
}

fn disk_index() -> (Rulebook, SearchIndex) {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/rulebook"));
    let book = Rulebook::from_dir(root).unwrap();
    let vocabulary = Vocabulary::beside(root).unwrap();
    let index = SearchIndex::build_in_memory(&book, vocabulary).unwrap();
    (book, index)
}

#[test]
#[ignore = "a tuning helper: TUNE='key=value,...;...'"]
fn tune() {
    let set = eval_set();
    let (book, mut index) = disk_index();
    let configs = std::env::var("TUNE").unwrap_or_default();
    let verbose = std::env::var("VERBOSE").is_ok();
    for config in std::iter::once("").chain(configs.split(';')) {
        let mut tuning = Tuning::default();
        for kv in config.split(',').filter(|s| !s.trim().is_empty()) {
            tuning.set(kv).unwrap();
        }
        index.set_tuning(tuning);
        let o = evaluate(&index, &book, &set);
        if verbose {
            for m in &o.misses {
                println!("  {m}");
            }
        }
        println!(
            "{:>6.1} {:>6.1}  {:>4.0}µs  [{}]",
            o.top1,
            o.top3,
            o.median.as_secs_f64() * 1e6,
            if config.is_empty() { "default" } else { config }
        );
    }
}

/// Coordinate ascent over the ranking weights from `TUNE`'s first set: each weight in turn is
/// tried at a few multiples, keeping a change when top-1 + top-3/2 improves. Results are a
/// guide for a person to judge, not to be copied blindly (they can fit the evaluation set).
#[test]
#[ignore = "a tuning helper: ASCENT over TUNE"]
fn ascent() {
    let set = eval_set();
    let (book, mut index) = disk_index();
    let mut best = Tuning::default();
    for kv in std::env::var("TUNE")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.trim().is_empty())
    {
        best.set(kv).unwrap();
    }
    let keys: Vec<String> = std::env::var("KEYS")
        .unwrap_or_else(|_| "title,question,parents,body,body_flat,bigram,page,page_title,page_summary,page_aliases,page_keywords,page_bigram,expansion,correction,rulings,guide,intro,support,coverage,dismax".into())
        .split(',')
        .map(str::to_string)
        .collect();
    let objective = |o: &Outcome| o.top1 + o.top3 / 2.0;
    index.set_tuning(best.clone());
    let mut best_score = objective(&evaluate(&index, &book, &set));
    println!("start {best_score:.2} {best:?}");
    for round in 0..3 {
        let mut improved = false;
        for key in &keys {
            let current = format!("{best:?}");
            let value: f32 = current
                .split(&format!("{key}: "))
                .nth(1)
                .and_then(|r| r.split([',', ' ', '}']).next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0.0);
            let candidates: Vec<f32> = if value == 0.0 {
                vec![0.25, 0.5, 1.0]
            } else {
                vec![0.0, value * 0.5, value * 0.75, value * 1.33, value * 2.0]
            };
            for c in candidates {
                let mut t = best.clone();
                if t.set(&format!("{key}={c}")).is_err() {
                    continue;
                }
                index.set_tuning(t.clone());
                let score = objective(&evaluate(&index, &book, &set));
                if score > best_score + 0.01 {
                    best_score = score;
                    best = t;
                    improved = true;
                    println!("round {round} {key}={c}: {score:.2}");
                }
            }
        }
        if !improved {
            break;
        }
    }
    index.set_tuning(best.clone());
    let o = evaluate(&index, &book, &set);
    println!("best: top-1 {:.1} top-3 {:.1} {best:?}", o.top1, o.top3);
}

#[test]
#[ignore = "a debugging helper: PROBE='query|query'"]
fn probe() {
    let (book, mut index) = disk_index();
    let mut tuning = Tuning::default();
    for kv in std::env::var("TUNE")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.trim().is_empty())
    {
        tuning.set(kv).unwrap();
    }
    index.set_tuning(tuning);
    for q in std::env::var("PROBE")
        .unwrap_or_default()
        .split('|')
        .filter(|s| !s.trim().is_empty())
    {
        println!("== {q}\n   {}", index.vocabulary().rewrite(q));
        let mode = SearchMode {
            one_per_article: false,
            snippets: true,
        };
        let hits = index.search_with(&book, q, 10, mode);
        for h in &hits {
            println!(
                "  {:7.2} {:>10} {:5} {:<28} {}",
                h.score,
                h.article.clone().unwrap_or_default(),
                h.kind.as_str(),
                h.page,
                h.title
            );
        }
        // EXPLAIN=1 explains the first two passages; EXPLAIN=9.2.1 that article's passage.
        if let Ok(which) = std::env::var("EXPLAIN") {
            let passages: Vec<usize> = match book.article_index(&which) {
                Some(i) => vec![i],
                None => hits.iter().take(2).map(|h| h.passage).collect(),
            };
            for p in passages {
                println!(
                    "-- {} {}\n{}",
                    book.passages[p].article.clone().unwrap_or_default(),
                    book.passages[p].title,
                    index.explain(&book, q, p)
                );
            }
        }
    }
}
