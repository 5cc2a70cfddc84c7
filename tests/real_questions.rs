//! Answers to questions real players asked (tests/real_questions/*.toml: the asker's words and
//! the source, the correct ruling, the deciding articles, and "must" patterns for the key
//! fact). The set was split once into `dev` (tuned on) and `test` (never tuned on); this test
//! grades both and prints the grades:
//!
//! - **fact**: the answer matches every `must` pattern and no `must_not` pattern; also shown
//!   for the answer before any second reading ("If your question is rather …"), the part an
//!   asker reads as the answer to the question understood;
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
//! `RULEBOOK_DIR=/path/rulebook` makes `tune` and `dev_folds` read another copy of the rulebook.
//! `cargo test --release --test real_questions dev_folds -- --ignored --nocapture` grades dev as
//! if its questions were new (five folds, each answered without the `asked:` lines that share
//! 30% of their words with one of the fold's questions): plain dev partly recalls phrasings
//! written from its own questions, so this is the grade to tune mechanisms on. `ORACLE=1` adds,
//! for the misses, where a ruling stating the fact stood among the candidates; `ORACLE=show`
//! prints the misses whose ruling was second or third, `ORACLE=absent` those with none; `SHOW=dev_folds` prints every miss.

use std::collections::HashSet;

use regex::RegexBuilder;
use rules_arbiter::answer::{Answer, Arbiter, AskRequest, MatchTuning, SECOND_READING};
use rules_arbiter::rulebook::{Rulebook, article_matches};
use serde::Deserialize;

#[derive(Deserialize)]
struct Set {
    question: Vec<Question>,
}

#[derive(Deserialize, Clone)]
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
    /// The fact stated before any second reading ("If your question is rather …"), which
    /// answers another question than the one first understood.
    fact_first_reading: usize,
    wrong: usize,
    off_topic: usize,
    first: usize,
    top3: usize,
}

impl Grades {
    fn add(&mut self, other: &Grades) {
        self.total += other.total;
        self.fact += other.fact;
        self.fact_first_reading += other.fact_first_reading;
        self.wrong += other.wrong;
        self.off_topic += other.off_topic;
        self.first += other.first;
        self.top3 += other.top3;
    }

    fn pct(&self, n: usize) -> f64 {
        100.0 * n as f64 / self.total.max(1) as f64
    }

    fn line(&self, split: &str) -> String {
        format!(
            "{split}: {} questions — fact {:.1}% (before a second reading {:.1}%), wrong {:.1}%, off-topic {:.1}%, deciding article first {:.1}%, in top 3 {:.1}%",
            self.total,
            self.pct(self.fact),
            self.pct(self.fact_first_reading),
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

fn load(split: &str) -> Vec<Question> {
    let path = split_path(split);
    let set: Set = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    set.question
}

fn grade(arbiter: &Arbiter, split: &str) -> Grades {
    let show = std::env::var("SHOW").is_ok_and(|s| s == split);
    grade_questions(arbiter, &load(split), show)
}

fn grade_questions(arbiter: &Arbiter, questions: &[Question], show: bool) -> Grades {
    let mut g = Grades::default();
    let mut ids = HashSet::new();
    for q in questions {
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
        let states_the_fact =
            |text: &str| matches_all(&q.must, text) && !matches_any(&q.must_not, text);
        let fact = states_the_fact(&answer.answer);
        let first_reading = answer
            .answer
            .split(SECOND_READING)
            .next()
            .unwrap_or_default();
        let fact_first_reading = states_the_fact(first_reading);
        let wrong = matches_any(&q.must_not, &answer.answer);
        let any_article = cited
            .iter()
            .any(|c| q.articles.iter().any(|a| article_matches(c, a)));
        let first = cited.first().is_some_and(|c| article_matches(c, deciding));
        let top3 = cited.iter().take(3).any(|c| article_matches(c, deciding));
        g.total += 1;
        g.fact += fact as usize;
        g.fact_first_reading += fact_first_reading as usize;
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

// Floors a little below the level reached (2026-12-08: dev 79.0 / first 66.8 / top-3 83.9 /
// off-topic 2.9; test 62.7 / 53.6 / 69.9 / 6.5): regression guards, far from the targets. New
// rulings can take questions by incidental words, so the floors keep a margin of about four
// points on the test split (one test question is 0.65 points).
const FLOOR_FACT: f64 = 58.0;
const FLOOR_FIRST: f64 = 49.0;
const FLOOR_TOP3: f64 = 65.0;
const CEILING_OFF_TOPIC: f64 = 10.0;

fn book_from_disk() -> Rulebook {
    Rulebook::from_dir(&rulebook_dir()).unwrap()
}

/// The rulebook the tuning helpers read: `RULEBOOK_DIR` (a frozen copy, so that two builds
/// compared one after the other read the same rulings while the working tree is being edited),
/// else the repository's.
fn rulebook_dir() -> std::path::PathBuf {
    std::env::var_os("RULEBOOK_DIR").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook"),
        std::path::PathBuf::from,
    )
}

fn arbiter_for(book: Rulebook) -> Arbiter {
    let vocabulary = rules_arbiter::search::Vocabulary::beside(&rulebook_dir()).unwrap();
    Arbiter::in_memory(book, vocabulary).unwrap()
}

/// The defaults, then each `;`-separated set of `MATCH_TUNE`, with its assignments as named.
fn weight_sets() -> Vec<(String, MatchTuning)> {
    let sets = std::env::var("MATCH_TUNE").unwrap_or_default();
    std::iter::once("")
        .chain(sets.split(';').filter(|s| !s.is_empty()))
        .map(|set| {
            let mut tuning = MatchTuning::default();
            tuning.set(set).unwrap();
            (set.to_string(), tuning)
        })
        .collect()
}

#[test]
#[ignore = "a tuning helper: grades dev under MATCH_TUNE's weight sets"]
fn tune() {
    let mut arbiter = arbiter_for(book_from_disk());
    let split = std::env::var("TUNE_SPLIT").unwrap_or_else(|_| "dev".into());
    for (set, tuning) in weight_sets() {
        arbiter.set_match_tuning(tuning);
        println!("{}  [{set}]", grade(&arbiter, &split).line(&split));
    }
}

/// The words of a text, for telling a question from a ruling's phrasing of it.
fn word_set(text: &str) -> HashSet<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Dev graded as if its questions were new: dev is split into five folds, and each fold is
/// answered by a rulebook whose `asked:` lines sharing at least `FOLD_OVERLAP` (0.3) of their
/// words (Jaccard) with one of the fold's questions are taken out. Many asked lines were
/// written from dev questions, so plain dev grades partly recall them; this grade is nearer to
/// what unseen questions get, on a set large enough to tell two designs apart, and may be tuned
/// on (it is dev). `MATCH_TUNE` as in [`tune`].
/// `cargo test --release --test real_questions dev_folds -- --ignored --nocapture`
#[test]
#[ignore = "a tuning helper: grades dev without the asked lines written from its questions"]
fn dev_folds() {
    const FOLDS: usize = 5;
    let overlap: f64 = std::env::var("FOLD_OVERLAP").map_or(0.3, |v| v.parse().unwrap());
    let show = std::env::var("SHOW").is_ok_and(|s| s == "dev_folds");
    let questions = load("dev");
    let full = book_from_disk();
    let settings = weight_sets();
    let mut totals: Vec<Grades> = settings.iter().map(|_| Grades::default()).collect();
    let mut removed = 0;
    let mut places = std::collections::BTreeMap::new();
    for fold in 0..FOLDS {
        let fold_qs: Vec<Question> = questions
            .iter()
            .enumerate()
            .filter(|(i, _)| i % FOLDS == fold)
            .map(|(_, q)| q.clone())
            .collect();
        let fold_words: Vec<HashSet<String>> =
            fold_qs.iter().map(|q| word_set(&q.question)).collect();
        let mut book = full.clone();
        for meta in book.passages.iter_mut().filter_map(|p| p.ruling.as_mut()) {
            let before = meta.asked.len();
            meta.asked.retain(|line| {
                let w = word_set(line);
                fold_words.iter().all(|q| jaccard(q, &w) < overlap)
            });
            removed += before - meta.asked.len();
        }
        let mut arbiter = arbiter_for(book);
        for ((set, tuning), total) in settings.iter().zip(totals.iter_mut()) {
            arbiter.set_match_tuning(tuning.clone());
            total.add(&grade_questions(&arbiter, &fold_qs, show && set.is_empty()));
        }
        if std::env::var("ORACLE").is_ok() {
            arbiter.set_match_tuning(MatchTuning::default());
            oracle(&arbiter, &fold_qs, &mut places);
        }
    }
    println!("asked lines taken out, over the {FOLDS} folds: {removed}");
    if !places.is_empty() {
        println!(
            "where a ruling that states the fact stands among the candidates of a miss: {places:?}"
        );
    }
    for ((set, _), total) in settings.iter().zip(&totals) {
        println!("{}  [{set}]", total.line("dev_folds"));
    }
}

/// For each question whose answer misses the fact: the place, among the matcher's first eight
/// candidates, of the first ruling whose own text meets the must patterns (`absent` if none):
/// is a miss one of coverage (no such ruling) or of ranking?
fn oracle(
    arbiter: &Arbiter,
    questions: &[Question],
    places: &mut std::collections::BTreeMap<String, usize>,
) {
    for q in questions {
        let answer = arbiter.ask(&AskRequest::question(&q.question)).unwrap();
        if matches_all(&q.must, &answer.answer) && !matches_any(&q.must_not, &answer.answer) {
            continue;
        }
        let explained = arbiter.explain_match(&q.question);
        let titles: Vec<&str> = explained
            .lines()
            .filter(|l| l.starts_with("  fit"))
            .filter_map(|l| l.split_once("] ").map(|(_, t)| t))
            .collect();
        let place = titles.iter().position(|t| {
            arbiter.book.passages.iter().any(|p| {
                p.ruling.is_some()
                    && p.title == *t
                    && matches_all(&q.must, &p.text)
                    && !matches_any(&q.must_not, &p.text)
            })
        });
        let key = place.map_or("absent".to_string(), |i| format!("place {}", i + 1));
        let shown = match std::env::var("ORACLE").as_deref() {
            Ok("show") => place.is_some_and(|i| (1..3).contains(&i)),
            Ok("absent") => place.is_none(),
            _ => false,
        };
        if shown {
            println!("=== {} {key}\nQ: {}\n{}", q.id, q.question, explained);
        }
        *places.entry(key).or_default() += 1;
    }
}
