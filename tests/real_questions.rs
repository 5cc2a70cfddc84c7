//! Answers to questions real players asked (tests/real_questions/*.toml: the asker's words and
//! the source, the correct ruling, the deciding articles, and "must" patterns for the key
//! fact). The set was split once into `dev` (tuned on) and `test` (never tuned on); this test
//! grades both and prints the grades:
//!
//! - **fact**: the answer matches every `must` pattern and no `must_not` pattern;
//! - **wrong**: the answer matches a `must_not` pattern (it contradicts the ruling);
//! - **off-topic**: no expected article among the citations and the fact not stated;
//! - **first / top-3**: the deciding article is the first citation / among the first three
//!   (parent and child numbers match, as in the golden suite).
//!
//! The floors enforced are a little below the level reached, against regressions; the targets
//! are 85% fact, under 5% off-topic, 90% first and 97% top-3 on the test split, and far off.
//! `SHOW=dev cargo test --release --test real_questions -- --nocapture` prints every miss of a
//! split (use it on dev only; reading test misses would tune on them).
//! `MATCH_TUNE='law=0.4;law=0.3,similarity=0.7' cargo test --release --test real_questions tune
//! -- --ignored --nocapture` grades the dev split under each `;`-separated set of match weights
//! (see `MatchTuning`), reading the rulebook from disk so that edited rulings need no rebuild;
//! `TUNE_SPLIT=/path/fresh.toml` grades another file instead of dev (a fresh set of real
//! questions, graded once before anything is fixed for it; `SHOW=/path/fresh.toml` prints its
//! misses).

use std::collections::HashSet;

use regex::RegexBuilder;
use rules_arbiter::answer::{Answer, Arbiter, AskRequest, MatchTuning};
use rules_arbiter::rulebook::article_matches;
use serde::Deserialize;

#[derive(Deserialize)]
struct Set {
    question: Vec<Question>,
}

#[derive(Deserialize)]
struct Question {
    id: String,
    question: String,
    #[allow(dead_code)]
    source: String,
    ruling: String,
    articles: Vec<String>,
    must: Vec<String>,
    #[serde(default)]
    must_not: Vec<String>,
}

fn matches_all(patterns: &[String], text: &str) -> bool {
    patterns.iter().all(|p| {
        RegexBuilder::new(p)
            .case_insensitive(true)
            .build()
            .unwrap_or_else(|e| panic!("pattern {p}: {e}"))
            .is_match(text)
    })
}

fn matches_any(patterns: &[String], text: &str) -> bool {
    patterns
        .iter()
        .any(|p| matches_all(std::slice::from_ref(p), text))
}

#[derive(Default, Debug)]
struct Grades {
    total: usize,
    fact: usize,
    wrong: usize,
    off_topic: usize,
    first: usize,
    top3: usize,
}

impl Grades {
    fn pct(&self, n: usize) -> f64 {
        100.0 * n as f64 / self.total.max(1) as f64
    }

    fn line(&self, split: &str) -> String {
        format!(
            "{split}: {} questions — fact {:.1}%, wrong {:.1}%, off-topic {:.1}%, deciding article first {:.1}%, in top 3 {:.1}%",
            self.total,
            self.pct(self.fact),
            self.pct(self.wrong),
            self.pct(self.off_topic),
            self.pct(self.first),
            self.pct(self.top3)
        )
    }
}

/// A split's file: `tests/real_questions/<split>.toml`, or `split` itself when it names a
/// `.toml` file (a fresh set being graded before anything is tuned on it).
fn split_path(split: &str) -> String {
    if split.ends_with(".toml") {
        split.to_string()
    } else {
        format!(
            "{}/tests/real_questions/{split}.toml",
            env!("CARGO_MANIFEST_DIR")
        )
    }
}

fn grade(arbiter: &Arbiter, split: &str) -> Grades {
    let path = split_path(split);
    let set: Set = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let show = std::env::var("SHOW").is_ok_and(|s| s == split);
    let mut g = Grades::default();
    let mut ids = HashSet::new();
    for q in &set.question {
        assert!(ids.insert(q.id.clone()), "duplicate id {}", q.id);
        let answer: Answer = arbiter
            .ask(&AskRequest::question(&q.question))
            .unwrap_or_else(|e| panic!("{}: {e}", q.id));
        let cited: Vec<&str> = answer
            .citations
            .iter()
            .map(|c| c.article.as_str())
            .collect();
        let deciding = &q.articles[0];
        let fact =
            matches_all(&q.must, &answer.answer) && !matches_any(&q.must_not, &answer.answer);
        let wrong = matches_any(&q.must_not, &answer.answer);
        let any_article = cited
            .iter()
            .any(|c| q.articles.iter().any(|a| article_matches(c, a)));
        let first = cited.first().is_some_and(|c| article_matches(c, deciding));
        let top3 = cited.iter().take(3).any(|c| article_matches(c, deciding));
        g.total += 1;
        g.fact += fact as usize;
        g.wrong += wrong as usize;
        g.off_topic += (!any_article && !fact) as usize;
        g.first += first as usize;
        g.top3 += top3 as usize;
        if show && !(fact && first) {
            println!(
                "--- {} {}{}{}\nQ: {}\nWANT [{}] {} / must {:?}\nGOT  [{}] {}\n",
                q.id,
                if wrong { "WRONG " } else { "" },
                if fact { "" } else { "FACT " },
                if first { "" } else { "FIRST" },
                q.question,
                q.articles.join(", "),
                q.ruling,
                q.must,
                cited.join(", "),
                answer.answer
            );
        }
    }
    g
}

#[test]
fn real_questions_are_answered() {
    let arbiter = Arbiter::embedded().unwrap();
    let dev = grade(&arbiter, "dev");
    let test = grade(&arbiter, "test");
    println!("{}", dev.line("dev"));
    println!("{}", test.line("test"));
    assert!(dev.total + test.total >= 300, "the set needs 300 questions");
    for (split, g) in [("dev", &dev), ("test", &test)] {
        assert!(g.pct(g.fact) >= FLOOR_FACT, "{}", g.line(split));
        assert!(g.pct(g.first) >= FLOOR_FIRST, "{}", g.line(split));
        assert!(g.pct(g.top3) >= FLOOR_TOP3, "{}", g.line(split));
        assert!(g.pct(g.off_topic) <= CEILING_OFF_TOPIC, "{}", g.line(split));
    }
}

// Floors a little below the level reached (2026-12-04, after fresh6 joined dev: dev 60.1 /
// first 57.1 / top-3 77.8 / off-topic 5.4; test 50.3 / 47.1 / 69.3 / 8.5): regression guards,
// far from the targets. New
// rulings can take questions by incidental words, so the first-article floor keeps a margin of
// about four points on the test split.
const FLOOR_FACT: f64 = 45.0;
const FLOOR_FIRST: f64 = 44.0;
const FLOOR_TOP3: f64 = 65.0;
const CEILING_OFF_TOPIC: f64 = 12.0;

#[test]
#[ignore = "a tuning helper: grades dev under MATCH_TUNE's weight sets"]
fn tune() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook");
    let book = rules_arbiter::rulebook::Rulebook::from_dir(&dir).unwrap();
    let vocabulary = rules_arbiter::search::Vocabulary::parse(
        &std::fs::read_to_string(dir.join("vocabulary.toml")).unwrap(),
    )
    .unwrap();
    let index = rules_arbiter::search::SearchIndex::build_in_memory(&book, vocabulary).unwrap();
    let mut arbiter = Arbiter::new(book, index);
    let sets = std::env::var("MATCH_TUNE").unwrap_or_default();
    let split = std::env::var("TUNE_SPLIT").unwrap_or_else(|_| "dev".into());
    for set in std::iter::once("").chain(sets.split(';')) {
        let mut tuning = MatchTuning::default();
        tuning.set(set).unwrap();
        arbiter.set_match_tuning(tuning);
        println!("{}  [{set}]", grade(&arbiter, &split).line(&split));
    }
}
