//! Every ruling's premise and exception phrases, tested against a question in one pass: an
//! Aho-Corasick automaton over all the phrases finds each one the question says (with the word
//! boundaries of `ruling::said_at`), and each ruling's test is then a few bit lookups.

use aho_corasick::AhoCorasick;
use rustc_hash::FxHashMap;

use super::Passage;
use super::ruling::{RulingMeta, said_at};

/// One ruling's premise groups and exceptions, as phrase numbers.
#[derive(Debug, Default)]
struct Compiled {
    premises: Vec<Vec<u32>>,
    exceptions: Vec<u32>,
}

/// The phrases a question says, by phrase number.
pub struct PhrasesSaid(Vec<bool>);

/// The premise tests of every ruling of a rulebook.
pub struct PremiseTests {
    /// `None` when no ruling has a premise or an exception.
    automaton: Option<AhoCorasick>,
    phrases: Vec<String>,
    /// By passage: the compiled test of a ruling (empty for passages without one).
    by_passage: Vec<Compiled>,
}

impl PremiseTests {
    pub fn new(passages: &[Passage]) -> PremiseTests {
        let mut numbers: FxHashMap<String, u32> = FxHashMap::default();
        let mut phrases: Vec<String> = Vec::new();
        let mut number = |p: &str| -> u32 {
            if let Some(&n) = numbers.get(p) {
                return n;
            }
            let n = phrases.len() as u32;
            phrases.push(p.to_string());
            numbers.insert(p.to_string(), n);
            n
        };
        let by_passage = passages
            .iter()
            .map(|p| match &p.ruling {
                Some(meta) => compile(meta, &mut number),
                None => Compiled::default(),
            })
            .collect();
        let automaton = (!phrases.is_empty()).then(|| {
            AhoCorasick::new(&phrases).expect("phrases of a loaded rulebook build an automaton")
        });
        PremiseTests {
            automaton,
            by_passage,
            phrases,
        }
    }

    /// Every phrase `lower` says (at the start of a word; a phrase ending in a one-letter word
    /// ends a word there too).
    pub fn said_in(&self, lower: &str) -> PhrasesSaid {
        let mut said = vec![false; self.phrases.len()];
        if let Some(automaton) = &self.automaton {
            for m in automaton.find_overlapping_iter(lower) {
                let id = m.pattern().as_usize();
                if !said[id] && said_at(lower, &self.phrases[id], m.start()) {
                    said[id] = true;
                }
            }
        }
        PhrasesSaid(said)
    }

    /// Whether the question states the premise of the ruling at `passage`, if it has one, and
    /// none of its exceptions, from the phrases it says.
    pub fn met(&self, passage: usize, said: &PhrasesSaid) -> bool {
        let Some(c) = self.by_passage.get(passage) else {
            return true;
        };
        let is_said = |id: &u32| said.0[*id as usize];
        c.premises.iter().all(|group| group.iter().any(is_said))
            && !c.exceptions.iter().any(is_said)
    }
}

fn compile(meta: &RulingMeta, number: &mut impl FnMut(&str) -> u32) -> Compiled {
    Compiled {
        premises: meta
            .premises
            .iter()
            .map(|group| group.iter().map(|p| number(p)).collect())
            .collect(),
        exceptions: meta.exceptions.iter().map(|p| number(p)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::Rulebook;

    /// The automaton agrees with [`RulingMeta::premise_met`], phrase by phrase, on questions
    /// that say each phrase as a word, inside a word, run on into another word, and on the
    /// rulings' own headings.
    #[test]
    fn the_automaton_agrees_with_testing_each_phrase() {
        let book = Rulebook::embedded().expect("the embedded rulebook loads");
        let tests = PremiseTests::new(&book.passages);
        let mut questions: Vec<String> = Vec::new();
        for p in &tests.phrases {
            questions.push(format!("so we had {p} here, and then?"));
            questions.push(format!("xy{p}"));
            questions.push(format!("{p}s and {p}"));
            questions.push(format!("{p}z"));
        }
        questions.extend(book.passages.iter().map(|p| p.title.to_lowercase()));
        let tested: Vec<(usize, &RulingMeta)> = book
            .passages
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.ruling.as_ref().map(|m| (i, m)))
            .filter(|(_, m)| !m.premises.is_empty() || !m.exceptions.is_empty())
            .collect();
        assert!(tested.len() > 100, "{} rulings with premises", tested.len());
        let mut met = 0;
        for q in &questions {
            let said = tests.said_in(q);
            for &(i, meta) in &tested {
                let expected = meta.premise_met(q);
                assert_eq!(
                    tests.met(i, &said),
                    expected,
                    "{:?} on {q:?}",
                    meta.premises
                );
                met += usize::from(expected);
            }
        }
        assert!(met > 1000, "only {met} premises met: the test tests little");
    }
}
