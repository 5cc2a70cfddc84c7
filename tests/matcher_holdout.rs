//! A held-out check of the rulings matcher on hundreds of phrasings at once: one `asked:` line
//! of every ruling that has at least four is taken out of the rulebook, and the arbiter, built
//! without those lines, must answer each of them from its own ruling. Two rounds: each
//! ruling's longest line (the stories, nearest to how players ask) and its second line (a
//! short paraphrase).
//!
//! Our own paraphrases are not players' questions, so this is a proxy for matching alone
//! (frame, search and matcher, not the composer), with numbers large enough to tell two
//! matcher designs apart; `tests/real_questions.rs` stays the measure of answers. Run:
//! `cargo test --release --test matcher_holdout -- --ignored --nocapture`
//! (`SHOW=1` prints every miss; `MATCH_TUNE='body=0.3;semantic=0.5'` grades each `;`-separated
//! set of match weights after the defaults, as in `tests/real_questions.rs`).

use rules_arbiter::answer::{Arbiter, MatchTuning};
use rules_arbiter::rulebook::Rulebook;
use rules_arbiter::search::Vocabulary;

/// Which `asked:` line of a ruling a round holds out.
#[derive(Debug, Clone, Copy)]
enum HeldOut {
    Longest,
    Second,
}

impl HeldOut {
    fn pick(self, asked: &[String]) -> usize {
        match self {
            HeldOut::Longest => (0..asked.len())
                .max_by_key(|&i| (asked[i].len(), std::cmp::Reverse(i)))
                .unwrap_or(0),
            HeldOut::Second => 1,
        }
    }
}

/// The rulebook from disk with one line of every ruling that has four or more taken out:
/// the book, and (passage, held-out line) pairs.
fn book_without(round: HeldOut) -> (Rulebook, Vec<(usize, String)>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook");
    let mut book = Rulebook::from_dir(&dir).unwrap();
    let mut held = Vec::new();
    for (i, p) in book.passages.iter_mut().enumerate() {
        let Some(meta) = p.ruling.as_mut() else {
            continue;
        };
        if meta.asked.len() < 4 {
            continue;
        }
        let at = round.pick(&meta.asked);
        held.push((i, meta.asked.remove(at)));
    }
    (book, held)
}

fn arbiter_for(book: Rulebook) -> Arbiter {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook");
    Arbiter::in_memory(book, Vocabulary::beside(&dir).unwrap()).unwrap()
}

#[test]
#[ignore = "an evaluation of the matcher, run by hand"]
fn held_out_phrasings_find_their_rulings() {
    let sets = std::env::var("MATCH_TUNE").unwrap_or_default();
    for round in [HeldOut::Longest, HeldOut::Second] {
        let (book, held) = book_without(round);
        let mut arbiter = arbiter_for(book);
        for set in std::iter::once("").chain(sets.split(';').filter(|s| !s.is_empty())) {
            let mut tuning = MatchTuning::default();
            tuning.set(set).unwrap();
            arbiter.set_match_tuning(tuning);
            println!("{}  [{set}]", grade(&arbiter, &held, round));
        }
    }
}

/// How many held-out lines find their own ruling, or one with the same deciding article.
fn grade(arbiter: &Arbiter, held: &[(usize, String)], round: HeldOut) -> String {
    let show = std::env::var("SHOW").is_ok();
    let (mut same, mut same_article, mut unsure) = (0, 0, 0);
    for (passage, line) in held {
        let want = &arbiter.book.passages[*passage];
        let got = arbiter.matched_passage(line);
        let got_p = got.map(|g| &arbiter.book.passages[g]);
        same += (got == Some(*passage)) as usize;
        same_article +=
            got_p.is_some_and(|g| g.deciding_article() == want.deciding_article()) as usize;
        unsure += got.is_none() as usize;
        if show && got != Some(*passage) {
            println!(
                "MISS {line}\n  want [{}] {}\n  got  [{}] {}",
                want.deciding_article().unwrap_or("-"),
                want.title,
                got_p.and_then(|g| g.deciding_article()).unwrap_or("-"),
                got_p.map_or("(not sure)", |g| g.title.as_str())
            );
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / held.len().max(1) as f64;
    format!(
        "held out {round:?}: {} lines — own ruling {:.1}%, same deciding article {:.1}%, not sure {:.1}%",
        held.len(),
        pct(same),
        pct(same_article),
        pct(unsure)
    )
}
