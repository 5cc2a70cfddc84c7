//! Rulebook answers: each part of a question matched to a ruling of the rulings bank (or, when
//! no ruling fits, to a law passage), then composed — the decision first, one paragraph per
//! part, the deciding article cited first. When nothing fits well, the answer says so and names
//! the closest rulings instead of reciting a random passage.

use std::sync::LazyLock;

use regex::Regex;
use rustc_hash::FxHashMap;

use crate::rulebook::{PageKind, Passage, RulingMeta, Setting, article_matches};
use crate::search::{Hit, MatchedBy, SearchMode};

use super::actors::FLAG_VERBS;
use super::frame::{Act, Frame, GAME_KIND_SETTINGS, QuestionKind};
use super::judged_decision::JudgementAsked;
use super::matcher::RankWeights;
use super::polarity::{Permission, bare_yes_or_no, said_in_words};
use super::result_by_material::ResultByMaterial;
use super::{Answer, Arbiter, Basis};

/// The weights of the match between a question and the rulebook. The defaults are what
/// `tests/real_questions.rs` was tuned with on its dev split; the struct is public so that the
/// evaluation can try alternatives without a rebuild (`MATCH_TUNE=…`).
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct MatchTuning {
    /// Below this, a match is not trusted and the answer says it is not sure.
    pub min_confidence: f32,
    /// How much a ruling's fit rests on the words it shares with the question (the rest on
    /// the search ranking).
    pub similarity: f32,
    /// A runner-up ruling on another article within this much of the best fit is answered
    /// too, after the best (0: never).
    pub second_gap: f32,
    /// … when the best fit is below this (a sure match stands alone).
    pub second_below: f32,
    /// … and when the runner-up is worded at least this much (times the best's similarity)
    /// like the question: a runner-up that shares only a few keywords, where the best shares
    /// the question's wording, is another question.
    pub second_wording: f32,
    /// A ruling that defines a term ("What is …?") when the question is the bare term.
    pub bare_term_definition: f32,
    /// Within that similarity, the share of the ruling's text (the rest: its phrasings).
    pub body: f32,
    /// A law passage's fit for its search rank (it has no phrasings to compare). 0.45 rather
    /// than 0.5 since 2026-12-06: on dev_folds fact +0.3, first +0.5, top 3 +0.4 points, and
    /// a ruling that decides a scenario no longer loses to the bare article the question names
    /// in passing ("3+2 blitz under B.3 … can I take his king?").
    pub law: f32,
    /// A guide passage's fit for its search rank.
    pub guide: f32,
    /// A search score under this (and no article named) means the rulebook hardly matched.
    pub min_search_score: f32,
    /// A ruling for a setting the question names (1: no lift over a ruling that holds
    /// everywhere, which must win on its words; 1.25 had put "in blitz … never pressed his
    /// clock" under the blitz illegal-move ruling).
    pub setting_named: f32,
    /// A rapid or blitz ruling when the question names no setting.
    pub rapid_blitz_unnamed: f32,
    /// An Armageddon, online, US Chess, Chess960 or unsupervised ruling when the question
    /// names no setting.
    pub special_unnamed: f32,
    /// A ruling for another setting than the one the question names.
    pub setting_other: f32,
    /// The share of meaning (word vectors) in a ruling's similarity.
    pub semantic: f32,
    /// A cosine of meanings at or below this counts as nothing.
    pub semantic_floor: f32,
    /// A ruling's fit is at least its similarity times this, so that a near-exact phrasing
    /// is not lost when the search ranking missed its ruling (0: the blend alone).
    pub similarity_alone: f32,
    /// A ruling decided by the flag rule when the question says nothing of time, a clock or a
    /// flag (a question about a knight moved like a bishop is not about knight against bishop
    /// on time).
    pub flag_unasked: f32,
    /// How much a ruling gains when other search hits (law passages or rulings) rest on its
    /// deciding article, or on an article within or above it: two readings agreeing.
    pub article_vote: f32,
    /// A ruling whose premise (`premise:`) the question does not state.
    pub premise_missing: f32,
    /// The search rank given to a ruling the search did not rank among its best hits, as a
    /// share of the last ranked hit's (0: none, the blend rests on its similarity alone).
    pub unranked: f32,
    /// A ruling that defines a term ("What is…?", "What counts as…?") when the question asks
    /// what happens or what the result is.
    pub definition_for_consequence: f32,
}

impl Default for MatchTuning {
    fn default() -> Self {
        MatchTuning {
            min_confidence: 0.30,
            similarity: 0.65,
            second_gap: 0.1,
            second_below: 0.7,
            second_wording: 0.8,
            bare_term_definition: 1.1,
            body: 0.2,
            law: 0.45,
            guide: 0.35,
            min_search_score: 4.0,
            setting_named: 1.0,
            rapid_blitz_unnamed: 0.75,
            special_unnamed: 0.5,
            setting_other: 0.55,
            semantic: 0.35,
            semantic_floor: 0.1,
            similarity_alone: 0.85,
            flag_unasked: 0.6,
            article_vote: 0.05,
            premise_missing: 0.6,
            unranked: 0.7,
            definition_for_consequence: 0.9,
        }
    }
}

impl MatchTuning {
    /// Sets weights from `name=value,name=value`.
    pub fn set(&mut self, assignments: &str) -> Result<(), String> {
        for pair in assignments.split(',').filter(|p| !p.trim().is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("'{pair}': expected name=value"))?;
            let v: f32 = value
                .trim()
                .parse()
                .map_err(|_| format!("'{value}' is not a number"))?;
            let field = match name.trim() {
                "min_confidence" => &mut self.min_confidence,
                "similarity" => &mut self.similarity,
                "second_gap" => &mut self.second_gap,
                "second_below" => &mut self.second_below,
                "second_wording" => &mut self.second_wording,
                "bare_term_definition" => &mut self.bare_term_definition,
                "body" => &mut self.body,
                "law" => &mut self.law,
                "guide" => &mut self.guide,
                "min_search_score" => &mut self.min_search_score,
                "setting_named" => &mut self.setting_named,
                "rapid_blitz_unnamed" => &mut self.rapid_blitz_unnamed,
                "special_unnamed" => &mut self.special_unnamed,
                "setting_other" => &mut self.setting_other,
                "semantic" => &mut self.semantic,
                "semantic_floor" => &mut self.semantic_floor,
                "similarity_alone" => &mut self.similarity_alone,
                "flag_unasked" => &mut self.flag_unasked,
                "article_vote" => &mut self.article_vote,
                "premise_missing" => &mut self.premise_missing,
                "unranked" => &mut self.unranked,
                "definition_for_consequence" => &mut self.definition_for_consequence,
                other => return Err(format!("unknown weight '{other}'")),
            };
            *field = v;
        }
        Ok(())
    }

    /// How well a ruling's settings fit the settings a question names.
    fn setting_fit(&self, ruling: &RulingMeta, asked: &[Setting]) -> f32 {
        if ruling.holds_everywhere()
            || ruling.settings.contains(&Setting::Standard) && asked.is_empty()
        {
            return 1.0;
        }
        if ruling.settings.iter().any(|s| asked.contains(s)) {
            return self.setting_named;
        }
        if !asked.is_empty() {
            return self.setting_other;
        }
        if ruling
            .settings
            .iter()
            .any(|s| matches!(s, Setting::Rapid | Setting::Blitz))
        {
            self.rapid_blitz_unnamed
        } else {
            self.special_unnamed
        }
    }
}

/// The kinds of game whose rules a law page holds: Appendix A's rapid rules also govern blitz
/// that is not fully supervised (B.3); Guidelines III never apply to blitz (III.2.2); every
/// other page holds for all.
fn kinds_of_law_page(page: &str) -> &'static [Setting] {
    match page {
        "appendix-a" => &[Setting::Rapid, Setting::Blitz],
        "appendix-b" => &[Setting::Blitz],
        "guidelines-iii" => &[Setting::Standard, Setting::Rapid],
        _ => &[],
    }
}

/// A law passage's fit for the kind of game asked about: the rapid or blitz appendix, for a
/// question whose time control or words make it another kind ("90 min + 30 s … the illegal
/// move stands like in blitz"), fits as a ruling on another setting does.
fn law_setting_fit(page: &str, asked: &[Setting], t: &MatchTuning) -> f32 {
    let kinds = kinds_of_law_page(page);
    let names_a_kind = asked.iter().any(|s| GAME_KIND_SETTINGS.contains(s));
    if kinds.is_empty() || !names_a_kind || asked.iter().any(|s| kinds.contains(s)) {
        1.0
    } else {
        t.setting_other
    }
}

/// Whether the asker numbered the questions ("(1) … (2) …", "1. … 2. …", "a) … b) …").
fn numbered(question: &str) -> bool {
    [("1)", "2)"), ("1.", "2."), ("a)", "b)")]
        .iter()
        .any(|(first, second)| {
            question
                .find(first)
                .is_some_and(|at| question[at..].contains(second))
        })
}

/// A part that names its own kind of game ("(1) in a 5-minute blitz game …? (2) in our
/// 45-minute rapid …?") is matched in that setting, not in all the question names.
fn own_settings(frame: &Frame, part: &str) -> Option<Frame> {
    let settings = super::frame::settings_in(&super::frame::lowered(part));
    (!settings.is_empty() && settings != frame.settings).then(|| Frame {
        settings,
        ..frame.clone()
    })
}

/// How much surer a later part's match must be than the first part's to answer first (0.05
/// to 0.3 all did as well on dev; 0.1 lost no question there).
const LEAD_MARGIN: f32 = 0.1;

/// How many search hits a question (or a part) is matched against.
const MATCH_HITS: usize = 15;

/// Puts the surest part's match first when it is much surer than the first part's: "How does
/// claiming work? Can they claim any time between the 50th and 75th move?" is decided by
/// its second part, the first being a preamble.
fn lead_with_the_surest(chosen: &mut [PartMatch]) {
    let Some(first) = chosen.first().map(|m| m.confidence) else {
        return;
    };
    let best = (0..chosen.len()).max_by(|&a, &b| {
        chosen[a]
            .confidence
            .total_cmp(&chosen[b].confidence)
            .then(b.cmp(&a))
    });
    if let Some(best) = best
        && chosen[best].confidence >= first + LEAD_MARGIN
    {
        chosen[..=best].rotate_right(1);
    }
}

/// Whether the first part tells the story and the later ones are short questions with none of
/// their own ("… I thought you can't castle after being checked?? Should I have called the
/// arbiter for an illegal move?"): they lean on the story, so its answer comes first however
/// sure theirs is.
fn follow_ups_of_a_story(parts: &[String]) -> bool {
    const STORY_WORDS: usize = 25;
    const FOLLOW_UP_WORDS: usize = 12;
    let Some((story, later)) = parts.split_first() else {
        return false;
    };
    story.split_whitespace().count() >= STORY_WORDS
        && !later.is_empty()
        && later.iter().all(|part| {
            part.split_whitespace().count() <= FOLLOW_UP_WORDS
                && crate::text::last_sentence_end(part.trim(), &['.', '!', '?']).is_none()
        })
}

/// Whether a later part is marked as a question of its own ("And a separate thing: …", "Another
/// question: …", "Unrelated, but …", "By the way, …"): then the first is not a preamble, and the
/// asker's order stands.
fn marked_separate(parts: &[String]) -> bool {
    const CUES: &[&str] = &[
        "separate",
        "another question",
        "another thing",
        "one more",
        "second question",
        "different question",
        "unrelated",
        "on another note",
        "by the way",
        "btw",
        "p.s",
        "ps:",
    ];
    parts.iter().skip(1).any(|part| {
        let lower = part.trim_start().to_lowercase();
        let opening = lower
            .strip_prefix("and ")
            .or_else(|| lower.strip_prefix("also "))
            .unwrap_or(&lower);
        let opening = opening.strip_prefix("a ").unwrap_or(opening);
        CUES.iter().any(|c| opening.starts_with(c))
    })
}

/// What a ruling that depends on the position adds when none was given.
const ASK_FOR_THE_POSITION: &str = " Whether it holds in your game depends on the position: give it as FEN or PGN (or the moves played) and I will check it with the rules checker.";

/// What an answer that cannot help suggests asking instead.
pub(super) const ASK_ABOUT_A_RULE: &str = "Ask about a rule (castling, en passant, the clock, draws, touch-move…), describe what happened at the board, or give a position as FEN or PGN.";

/// How sure a match to a ruling on another rule must be for it to answer before the verdict on
/// the flag and the material ("…he kept moving without pressing the clock properly and his
/// flag fell; the arbiter said draw because I couldn't mate him. Correct?" had led with a
/// clock-press ruling matched at 0.46).
const VERDICT_YIELDS_TO: f32 = 0.6;

/// The articles of the flag rule: what a ruling decided by them would say is already said by
/// the verdict on the material.
const FLAG_RULE: &[&str] = &["6.9", "A.5.3", "6.8"];

/// The articles that decide who wins when a flag falls.
/// The dead-position rule: no series of legal moves can end in mate.
const DEAD_POSITION_RULE: &[&str] = &["5.2.2", "1.5"];

const FLAG_TEST: &[&str] = &["6.9", "A.5.3"];

/// Whether a question speaks of time, a clock or a flag at all.
fn mentions_time(lower: &str) -> bool {
    const TIME_WORDS: &[&str] = &["time", "clock", "ran out", "runs out", "zero", "flagg"];
    TIME_WORDS
        .iter()
        .chain(FLAG_VERBS)
        .any(|w| lower.contains(w))
}

/// How strongly other hits vote for an article: the best relative score of a hit (not the
/// passage itself) whose deciding article is the same, or contains or is contained in it.
fn agreement_with(article: &str, passage: usize, votes: &[(&str, usize, f32)]) -> f32 {
    votes
        .iter()
        .filter(|(a, p, _)| *p != passage && article_matches(article, a))
        .map(|(_, _, score)| *score)
        .fold(0.0, f32::max)
}

/// The passage chosen to answer one part of a question.
#[derive(Debug, Clone)]
struct PartMatch {
    passage: usize,
    confidence: f32,
    /// How closely the chosen passage is worded like the question (0 for a law passage).
    similarity: f32,
    /// The best candidate that rests on another article, if any: its deciding article is
    /// cited after the chosen one's, and it may be given as a second reading.
    runner_up: Option<Candidate>,
}

/// How the paragraph of a second reading opens (the chat page and the evaluation find it by
/// this).
pub const SECOND_READING: &str = "If your question is rather";

/// How many of the search's best hits a part's candidates take in (each scored by the matcher
/// too, and each casting its article vote).
const HITS_WEIGHED: usize = 15;

/// A question naming an article is asked about its story rather than the article from this
/// many words on ([`Arbiter::story_beyond_the_article`]) …
const STORY_WORDS: usize = 40;

/// … when a ruling fits the story at least this well.
const STORY_FIT: f32 = 0.5;
/// How well a ruling on a named article must fit a decision question to answer it instead of
/// the article's text.
const NAMED_ARTICLE_FIT: f32 = 0.5;

/// How many of the matcher's own best rulings a part's candidates take in.
const MATCHER_BEST: usize = 15;

/// A passage in the running to answer a part of a question.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    passage: usize,
    /// Word overlap with a ruling's phrasings (0 for law passages).
    similarity: f32,
    /// Search score relative to the best hit (0 when not among the hits).
    rank: f32,
    fit: f32,
}

/// What a ruling's fit weighs beside its similarity and search rank ([`Arbiter::ruling_fit`]).
struct FitTerms {
    /// The other search hits' vote for its deciding article.
    agreement: f32,
    /// How its settings meet the question's ([`MatchTuning::setting_fit`]).
    setting: f32,
    /// Decided by the flag rule, for a question that says nothing of time.
    off_flag: bool,
    /// Its premise is not stated by the question.
    premise_unmet: bool,
    /// It defines a term the question names bare.
    bare_term_definition: bool,
    /// It defines a term, for a question on what happens.
    definition_for_consequence: bool,
}

/// What a question (or one part of it) says, as the fit of each ruling reads it.
struct AskedFor<'a> {
    /// Nothing about time, a clock or a flag.
    time_unasked: bool,
    said: crate::rulebook::PhrasesSaid,
    bare_term: bool,
    /// The question asks what happens or what the result is ("What happens if…?").
    consequence: bool,
    settings: &'a [Setting],
    /// Each of the best search hits' deciding article, its passage and relative score.
    votes: &'a [(&'a str, usize, f32)],
}

impl Arbiter {
    /// Every passage in the running for one part of a question, with its fit: rulings by the
    /// words they share with the question and by the search ranking, law passages by the
    /// search ranking alone (so they answer only when no ruling fits).
    fn candidates(&self, part: &str, frame: &Frame, hits: &[Hit]) -> Vec<Candidate> {
        let top_score = hits.first().map_or(0.0, |h| h.score);
        // Looked up by passage only: the candidates are sorted by a total order below.
        let mut found: FxHashMap<usize, (f32, f32)> = FxHashMap::default();
        let t = &self.match_tuning;
        let vocabulary = self.index.vocabulary();
        let weights = RankWeights {
            body: t.body,
            semantic: t.semantic,
            semantic_floor: t.semantic_floor,
        };
        let hit_passages: Vec<usize> = hits.iter().take(HITS_WEIGHED).map(|h| h.passage).collect();
        for (passage, sim) in
            self.matcher
                .rank(part, vocabulary, weights, MATCHER_BEST, &hit_passages)
        {
            found.entry(passage).or_default().0 = sim;
        }
        // Each of the best hits' deciding article, for the article vote.
        let mut votes: Vec<(&str, usize, f32)> = Vec::new();
        let mut last_ranked = 0.0f32;
        if top_score >= t.min_search_score {
            for h in hits.iter().take(HITS_WEIGHED) {
                let relative = h.score / top_score;
                last_ranked = relative;
                let rank = &mut found.entry(h.passage).or_default().1;
                *rank = rank.max(relative);
                if let Some(article) = self.book.passages[h.passage].deciding_article() {
                    votes.push((article, h.passage, relative));
                }
            }
        }
        // A question that is one of a ruling's own phrasings, word for word, is what the
        // rulebook's maintainers mapped to it: it ranks as the search's best hit.
        if let Some(passage) = self.matcher.phrased_exactly(part) {
            found.entry(passage).or_default().1 = 1.0;
        }
        let asked = AskedFor {
            time_unasked: !mentions_time(&frame.lower),
            said: self.premise_tests.said_in(&frame.lower),
            // A bare term ("3fold", "en passant?") asks what it is: a ruling that defines it fits.
            bare_term: part.split_whitespace().count() <= 3
                || frame.kind == QuestionKind::Definition
                || super::frame::embedded_definition(&part.to_lowercase()).is_some(),
            consequence: matches!(
                frame.kind,
                QuestionKind::Ruling | QuestionKind::Result | QuestionKind::ResultYesNo
            ),
            settings: &frame.settings,
            votes: &votes,
        };
        let unranked = t.unranked * last_ranked;
        let mut out: Vec<Candidate> = found
            .into_iter()
            .map(|(passage, (similarity, rank))| {
                let rank = if rank == 0.0 { unranked } else { rank };
                let p = &self.book.passages[passage];
                let fit = match &p.ruling {
                    Some(meta) => self.ruling_fit(passage, meta, similarity, rank, &asked),
                    None if p.kind == PageKind::Law && p.article.is_some() => {
                        t.law * rank * law_setting_fit(&p.page, &frame.settings, t)
                    }
                    None => t.guide * rank,
                };
                Candidate {
                    passage,
                    similarity,
                    rank,
                    fit: fit.min(1.0),
                }
            })
            .collect();
        out.sort_by(|a, b| b.fit.total_cmp(&a.fit).then(a.passage.cmp(&b.passage)));
        out
    }

    /// A ruling's fit: its words and meaning (`similarity`) blended with the search's ranking
    /// (`rank`) and the other hits' vote for its deciding article, then scaled by how its
    /// settings, premises and kind of question meet what was asked.
    fn ruling_fit(
        &self,
        passage: usize,
        meta: &RulingMeta,
        similarity: f32,
        rank: f32,
        asked: &AskedFor,
    ) -> f32 {
        let t = &self.match_tuning;
        let f = self.fit_terms(passage, meta, asked);
        let factor = |holds: bool, weight: f32| if holds { weight } else { 1.0 };
        let blend =
            t.similarity * similarity + (1.0 - t.similarity) * rank + t.article_vote * f.agreement;
        blend.max(t.similarity_alone * similarity)
            * f.setting
            * factor(f.off_flag, t.flag_unasked)
            * factor(f.premise_unmet, t.premise_missing)
            * factor(f.bare_term_definition, t.bare_term_definition)
            * factor(f.definition_for_consequence, t.definition_for_consequence)
    }

    /// What a ruling's fit weighs beside its similarity and search rank.
    fn fit_terms(&self, passage: usize, meta: &RulingMeta, asked: &AskedFor) -> FitTerms {
        let p = &self.book.passages[passage];
        let deciding = p.deciding_article();
        let defining = defines(&p.title);
        FitTerms {
            agreement: deciding.map_or(0.0, |a| agreement_with(a, passage, asked.votes)),
            setting: self.match_tuning.setting_fit(meta, asked.settings),
            off_flag: asked.time_unasked && deciding.is_some_and(|a| FLAG_TEST.contains(&a)),
            premise_unmet: !self.premise_tests.met(passage, &asked.said),
            bare_term_definition: asked.bare_term && defining,
            definition_for_consequence: asked.consequence && defining,
        }
    }

    /// The best passage for one part of a question, if the match can be trusted.
    fn match_part(&self, part: &str, frame: &Frame, hits: &[Hit]) -> Option<PartMatch> {
        if let Some(top) = hits.first().filter(|h| h.matched_by == MatchedBy::Article) {
            if let Some(ruling) = self
                .story_beyond_the_article(part, frame, hits)
                .or_else(|| self.ruling_on_the_named_article(part, frame, hits, top))
            {
                return Some(ruling);
            }
            return Some(PartMatch {
                passage: top.passage,
                confidence: 1.0,
                similarity: 0.0,
                runner_up: None,
            });
        }
        let candidates = self.candidates(part, frame, hits);
        let best = candidates
            .first()
            .filter(|c| c.fit >= self.match_tuning.min_confidence)?;
        let deciding = self.book.passages[best.passage].deciding_article();
        let runner = candidates
            .iter()
            .skip(1)
            .take(3)
            .find(|c| self.book.passages[c.passage].deciding_article() != deciding);
        Some(PartMatch {
            passage: best.passage,
            confidence: best.fit,
            similarity: best.similarity,
            runner_up: runner.copied(),
        })
    }

    /// A long question that names an article in passing ("the rules (FIDE 3.1) say a pinned
    /// piece still attacks… so why can't the king go there?") is asked about its story, not
    /// about the article: a ruling that fits the story well, judged on the search's other hits
    /// (an article named scores far above them and would flatten their ranks), answers it.
    fn story_beyond_the_article(
        &self,
        part: &str,
        frame: &Frame,
        hits: &[Hit],
    ) -> Option<PartMatch> {
        if part.split_whitespace().count() < STORY_WORDS {
            return None;
        }
        let best = self
            .candidates_beside_the_article(part, frame, hits)
            .into_iter()
            .next()
            .filter(|c| c.fit >= STORY_FIT)?;
        self.book.passages[best.passage].ruling.as_ref()?;
        Some(PartMatch {
            passage: best.passage,
            confidence: best.fit,
            similarity: 0.0,
            runner_up: None,
        })
    }

    /// The candidates judged on the search's hits other than the article the question names
    /// (which scores far above them and would flatten their ranks).
    fn candidates_beside_the_article(
        &self,
        part: &str,
        frame: &Frame,
        hits: &[Hit],
    ) -> Vec<Candidate> {
        let searched: Vec<Hit> = hits
            .iter()
            .filter(|h| h.matched_by != MatchedBy::Article)
            .cloned()
            .collect();
        self.candidates(part, frame, &searched)
    }

    /// A question that names an article and asks for a decision ("Can I claim a draw under
    /// III.5 in a blitz game?", "Is a claim under 9.2 possible in blitz without a scoresheet?") is asked
    /// about a case of that article, not for its text: a ruling that decides on the named
    /// article (or one within or above it) and fits the question well answers it.
    fn ruling_on_the_named_article(
        &self,
        part: &str,
        frame: &Frame,
        hits: &[Hit],
        named: &Hit,
    ) -> Option<PartMatch> {
        if !matches!(
            frame.kind,
            QuestionKind::YesNo
                | QuestionKind::Ruling
                | QuestionKind::Result
                | QuestionKind::ResultYesNo
                | QuestionKind::Other
        ) {
            return None;
        }
        let article = self.book.passages[named.passage].article.as_deref()?;
        let best = self
            .candidates_beside_the_article(part, frame, hits)
            .into_iter()
            .filter(|c| c.fit >= NAMED_ARTICLE_FIT)
            .find(|c| {
                let p = &self.book.passages[c.passage];
                p.ruling
                    .as_ref()
                    .is_some_and(|meta| meta.articles.iter().any(|a| article_matches(a, article)))
            })?;
        Some(PartMatch {
            passage: best.passage,
            confidence: best.fit,
            similarity: best.similarity,
            runner_up: None,
        })
    }

    /// The candidates for a question, best first, one per line (for tuning: `arbiter ask
    /// --explain`).
    pub fn explain_match(&self, question: &str) -> String {
        let question = super::frame::without_quiz_label(question.trim());
        // As `ask` reads it: a question in another language through its chess terms.
        let foreign = self.english_reading(question);
        let mut out = foreign.as_ref().map_or_else(String::new, |f| {
            format!("read as {}: {}\n", f.language.name(), f.text)
        });
        let question = foreign.as_ref().map_or(question, |f| f.text.as_str());
        let question = super::frame::chat_speak_written_out(question);
        let question = super::frame::spell_out_pieces(&question);
        let frame = Frame::read(&question);
        out.push_str(&format!(
            "kind {:?}, settings {:?}, parts {:?}\n",
            frame.kind, frame.settings, frame.parts
        ));
        for part in &frame.parts {
            let hits = self
                .index
                .search_with(&self.book, part, MATCH_HITS, SearchMode::ANSWER);
            out.push_str(&format!("part: {part}\n"));
            // As `matched_parts` matches it: a part that names its own kind of game, in that.
            let own = own_settings(&frame, part);
            for c in self
                .candidates(part, own.as_ref().unwrap_or(&frame), &hits)
                .iter()
                .take(8)
            {
                let p = &self.book.passages[c.passage];
                out.push_str(&format!(
                    "  fit {:.3}  sim {:.3}  rank {:.3}  {} [{}] {}\n",
                    c.fit,
                    c.similarity,
                    c.rank,
                    p.kind.as_str(),
                    p.deciding_article().unwrap_or("-"),
                    p.title
                ));
            }
        }
        out
    }

    /// The passage a question without a position is answered from first, if any (the same
    /// reading as [`Arbiter::ask`]; for evaluation tools that grade the matching alone).
    pub fn matched_passage(&self, question: &str) -> Option<usize> {
        let question = super::frame::spell_out_pieces(question);
        let frame = Frame::read(&question);
        let (hits, meaningful) = self.whole_question_hits(&question);
        self.matched_parts(&question, &frame, &hits, meaningful)
            .first()
            .map(|m| m.passage)
    }

    /// The search hits for a whole question, and whether it means anything to the rulebook
    /// (a domain word, or an article named).
    fn whole_question_hits(&self, question: &str) -> (Vec<Hit>, bool) {
        let hits = self
            .index
            .search_with(&self.book, question, MATCH_HITS, SearchMode::ANSWER);
        let meaningful = self.domain_word_count(question) > 0
            || hits
                .first()
                .is_some_and(|h| h.matched_by == MatchedBy::Article);
        (hits, meaningful)
    }

    /// One paragraph answering from a passage: a ruling's text, or a law passage's rule.
    /// `position_given`: the question came with a position, so a ruling that depends on one
    /// does not ask for it.
    pub(super) fn paragraph(
        &self,
        p: &Passage,
        kind: QuestionKind,
        position_given: bool,
    ) -> String {
        match &p.ruling {
            Some(meta) => ruling_paragraph(&p.text, p, meta, kind, position_given),
            None => {
                let rule: Vec<&str> = sentences(&p.text)
                    .into_iter()
                    .filter(|s| !reads_like_contents(s))
                    .take(3)
                    .collect();
                let rule = rule.join(" ");
                match &p.article {
                    Some(a) => format!("{rule} ({a} — {})", p.title),
                    None => rule,
                }
            }
        }
    }

    /// One paragraph for each matched part, in order ([`Arbiter::paragraph`]). "Was the
    /// arbiter right?": a ruling's bare "Yes"/"No" is left out, and when the question names
    /// whom it asks about, a ruling that lists the words of right and wrong decisions opens with
    /// the verdict on that person's decision (`judging`).
    fn paragraphs(
        &self,
        chosen: &[PartMatch],
        frame: &Frame,
        judging: &JudgementAsked,
        position_given: bool,
    ) -> Vec<String> {
        let asked = Permission::asked_in(&frame.lower);
        chosen
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let p = &self.book.passages[m.passage];
                let text = match (&p.ruling, decided_by_the_story(p, frame)) {
                    (Some(meta), Some(decided)) => {
                        ruling_paragraph(&decided, p, meta, frame.kind, position_given)
                    }
                    _ => self.paragraph(p, frame.kind, position_given),
                };
                let verdict = judging
                    .judged
                    .as_ref()
                    .filter(|_| i == 0)
                    .zip(p.ruling.as_ref())
                    .and_then(|(j, meta)| Some((j, j.verdict(meta)?)));
                match (asked, Permission::of_heading(&p.title.to_lowercase())) {
                    _ if judging.about_a_decision => {
                        let text = super::polarity::without_bare_yes_or_no(&text);
                        match verdict {
                            Some((j, v)) => format!("{} {text}", j.said(v)),
                            None => text,
                        }
                    }
                    (Some(asked), Some(written)) if asked != written => {
                        said_in_words(&text, written)
                    }
                    _ => text,
                }
            })
            .collect()
    }

    /// The rulebook's answer to a question asked with a position, for the position layer's
    /// general ruling (touch-move, clocks, conduct…): the matched rulings' paragraphs (without
    /// a request for the position, which was given) and their deciding articles first; `None`
    /// when nothing fits well.
    pub(super) fn rulebook_reading(&self, question: &str) -> Option<super::position::Reading> {
        let spelt = super::frame::spell_out_pieces(question);
        let frame = Frame::read(&spelt);
        let (hits, meaningful) = self.whole_question_hits(&spelt);
        let chosen = self.matched_parts(&spelt, &frame, &hits, meaningful);
        if chosen.is_empty() {
            return None;
        }
        let judging = JudgementAsked::read(&frame.lower);
        let text = self.paragraphs(&chosen, &frame, &judging, true).join(" ");
        let articles = self.ordered_articles(&chosen, None, false);
        Some(super::position::Reading {
            text,
            articles: articles.into_iter().map(String::from).collect(),
        })
    }

    /// The answer to a question without a position.
    pub(super) fn rulebook_answer(&self, question: &str, frame: &Frame) -> Answer {
        // "Sure would be nice to know what en passant is" asks what en passant is: the words
        // around the term would only pull the search and the match elsewhere.
        let defined = frame.defined.as_ref().map(|t| format!("What is {t}?"));
        let question = defined.as_deref().unwrap_or(question);
        let (whole_hits, meaningful) = self.whole_question_hits(question);
        let mut chosen = self.matched_parts(question, frame, &whole_hits, meaningful);
        // A flag fall with the armies described is decided by their mating chances; rulings
        // on the flag rule or the dead-position rule would only repeat it in general terms, or
        // for other material. The verdict leads unless the best match is a ruling that put the
        // question's weight on another rule (a law passage is only the search's best guess).
        let by_material = ResultByMaterial::read(frame);
        let is_flag_rule = |m: &PartMatch| {
            self.book.passages[m.passage]
                .deciding_article()
                .is_some_and(|a| FLAG_RULE.contains(&a))
        };
        // A dead-position ruling asks the same thing of the same material: whether a mate is
        // possible; and a verdict on a resignation or a second illegal move speaks for the
        // rulings on its own article too.
        let verdict_article = by_material.as_ref().map(|v| v.ending().article());
        let about_mating_chances = |m: &PartMatch| {
            let deciding = self.book.passages[m.passage].deciding_article();
            is_flag_rule(m)
                || deciding.is_some_and(|a| DEAD_POSITION_RULE.contains(&a))
                || (deciding.is_some() && deciding == verdict_article)
        };
        let is_ruling = |m: &PartMatch| self.book.passages[m.passage].ruling.is_some();
        let sure = |m: &PartMatch| m.confidence >= VERDICT_YIELDS_TO;
        let verdict_leads = chosen
            .first()
            .is_none_or(|m| about_mating_chances(m) || !is_ruling(m) || !sure(m));
        if by_material.is_some() {
            // Beside the verdict, a law passage the search guessed at is noise.
            chosen.retain(|m| !about_mating_chances(m) && is_ruling(m));
        }
        if chosen.is_empty() && by_material.is_none() {
            return self.not_sure(frame, &whole_hits, meaningful);
        }
        let judging = JudgementAsked::read(&frame.lower);
        let mut paragraphs = self.paragraphs(&chosen, frame, &judging, false);
        if let Some(verdict) = &by_material {
            let at = if verdict_leads { 0 } else { paragraphs.len() };
            paragraphs.insert(at, judged_material_verdict(verdict, &judging));
        }
        paragraphs.extend(self.time_control_note(&chosen, frame));
        // The articles the first reading names are cited before the search's other hits; the
        // second reading's deciding article is among the runner-ups already.
        let first_reading = paragraphs.join("\n\n");
        if let Some(other) = self.close_second_reading(&chosen) {
            let p = &self.book.passages[other];
            paragraphs.push(format!(
                "{SECOND_READING} “{}” — {}",
                p.title,
                self.paragraph(p, frame.kind, false)
            ));
        }
        let answer = paragraphs.join("\n\n");
        let flag_fell = frame.acts.contains(&Act::Flagged);
        let ordered = self.ordered_articles(
            &chosen,
            by_material
                .as_ref()
                .map(|v| (v.ending().article(), verdict_leads)),
            flag_fell,
        );
        let citations = self.citations(&ordered, &first_reading, &whole_hits);
        Answer::without_position(
            answer,
            citations,
            frame,
            Basis::Rulebook,
            chosen.iter().map(|m| m.confidence).fold(1.0f32, f32::min),
        )
    }

    /// The note on the kind of game the question's time control makes, when it names another
    /// kind ([`super::time_control::misnamed_kind`]), unless a ruling on the kinds of game
    /// answers already.
    fn time_control_note(&self, chosen: &[PartMatch], frame: &Frame) -> Option<String> {
        let classifies = chosen.iter().any(|m| {
            self.book.passages[m.passage]
                .deciding_article()
                .is_some_and(|a| matches!(a, "A.1" | "B.1"))
        });
        super::time_control::misnamed_kind(frame).filter(|_| !classifies)
    }

    /// For a question read one way only, a ruling on another article that fits it nearly as
    /// well (within `second_gap`): the asker may mean that case, and the answer gives it after
    /// the first, under its own heading.
    fn close_second_reading(&self, chosen: &[PartMatch]) -> Option<usize> {
        let [only] = chosen else { return None };
        let other = only.runner_up?;
        let t = &self.match_tuning;
        (self.book.passages[other.passage].ruling.is_some()
            && only.confidence < t.second_below
            && other.similarity >= t.second_wording * only.similarity
            && only.confidence - other.fit < t.second_gap)
            .then_some(other.passage)
    }

    /// The passage for each part of a multi-part question (when at least two parts find
    /// different ones), else the passage for the question as a whole.
    fn matched_parts(
        &self,
        question: &str,
        frame: &Frame,
        whole_hits: &[Hit],
        meaningful: bool,
    ) -> Vec<PartMatch> {
        let mut chosen: Vec<PartMatch> = Vec::new();
        if meaningful && frame.parts.len() > 1 {
            for part in &frame.parts {
                let hits = self
                    .index
                    .search_with(&self.book, part, MATCH_HITS, SearchMode::ANSWER);
                let own = own_settings(frame, part);
                if let Some(m) = self.match_part(part, own.as_ref().unwrap_or(frame), &hits)
                    && !chosen.iter().any(|c| c.passage == m.passage)
                {
                    chosen.push(m);
                }
            }
        }
        // Numbered questions, and parts the asker marks as separate, are answered in their
        // order; otherwise a preamble may give way.
        if !numbered(question)
            && !marked_separate(&frame.parts)
            && !follow_ups_of_a_story(&frame.parts)
        {
            lead_with_the_surest(&mut chosen);
        }
        if chosen.len() < 2 {
            chosen.clear();
            if let Some(m) = meaningful
                .then(|| self.match_part(question, frame, whole_hits))
                .flatten()
            {
                chosen.push(m);
            }
        }
        chosen
    }

    /// The articles to cite, in order: the deciding article of every part (the verdict's own
    /// article, `verdict`, first or last as the verdict on the material leads or follows), then
    /// the nearest other reading's, then the supporting ones. When a flag fell and the ruling
    /// that answers is one on mating chances (a dead position), the flag rule decides, if the
    /// ruling cites it.
    fn ordered_articles(
        &self,
        chosen: &[PartMatch],
        verdict: Option<(&'static str, bool)>,
        flag_fell: bool,
    ) -> Vec<&str> {
        let passage = |m: &PartMatch| &self.book.passages[m.passage];
        let mut ordered: Vec<&str> = chosen
            .iter()
            .filter_map(|m| passage(m).deciding_article())
            .collect();
        let decided_by_the_flag = |m: &PartMatch| {
            let p = passage(m);
            let deciding = p.deciding_article();
            let on_mating_chances = deciding.is_some_and(|a| DEAD_POSITION_RULE.contains(&a));
            // A ruling on when a flag counts whose decision is the result on time.
            let result_on_time =
                deciding == Some(FLAG_RULE[2]) && decides_a_result_on_time(&p.text);
            (on_mating_chances || result_on_time)
                && p.ruling
                    .as_ref()
                    .is_some_and(|r| r.articles.iter().any(|a| a == FLAG_RULE[0]))
        };
        // Without a verdict on the material, the flag rule leads when it decides the ruling.
        let rule_leads = verdict.or_else(|| {
            (flag_fell && chosen.first().is_some_and(decided_by_the_flag))
                .then_some((FLAG_RULE[0], true))
        });
        if let Some((article, leads)) = rule_leads {
            ordered.insert(if leads { 0 } else { ordered.len() }, article);
        }
        // When the question is ambiguous, the asker finds the other rule one click away.
        ordered.extend(
            chosen
                .iter()
                .filter_map(|m| m.runner_up.map(|c| c.passage))
                .filter_map(|p| self.book.passages[p].deciding_article()),
        );
        for m in chosen {
            let p = passage(m);
            ordered.extend(p.deciding_article());
            ordered.extend(
                p.ruling
                    .iter()
                    .flat_map(|r| r.articles.iter().skip(1).map(String::as_str)),
            );
        }
        ordered
    }

    /// An honest answer when nothing in the rulebook fits well: the closest rulings.
    fn not_sure(&self, frame: &Frame, hits: &[Hit], meaningful: bool) -> Answer {
        let closest: Vec<String> = hits
            .iter()
            .filter(|h| self.book.passages[h.passage].ruling.is_some())
            .take(3)
            .map(|h| format!("“{}” ({})", h.title, h.url))
            .collect();
        let answer = if !meaningful || closest.is_empty() {
            format!(
                "I don't know: this does not look like a question about the rules of chess. {ASK_ABOUT_A_RULE}"
            )
        } else {
            format!(
                "I am not sure what you are asking. The closest rulings are: {}. Describe what happened at the board (who did what, in which time control), or give the position as FEN or PGN.",
                closest.join("; ")
            )
        };
        Answer::without_position(answer, vec![], frame, Basis::Unknown, 0.0)
    }
}

/// Whether the first sentence of a ruling's text decides a result on time ("You have lost on
/// time, as long as …", "You win on time, provided …").
fn decides_a_result_on_time(text: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^[^.:]*\b(lost|lose|loses|win|wins|won)\s+on\s+time\b")
            .expect("valid regex")
    });
    RE.is_match(text)
}

/// The verdict by the material (a flag, a resignation, a second illegal move), opened with the
/// verdict on the decision the question reports, when it asks whether someone was right ("The
/// arbiter gave my opponent the win. Was that correct?" → "The arbiter was right.").
fn judged_material_verdict(verdict: &ResultByMaterial, judging: &JudgementAsked) -> String {
    let paragraph = verdict.paragraph();
    let judged = judging.judged.as_ref().and_then(|j| {
        let v = j.verdict_on_result(verdict.drawn()?)?;
        Some(j.said(v))
    });
    match judged {
        Some(said) => format!("{said} {paragraph}"),
        None => paragraph,
    }
}

/// A ruling's first sentences, its diagram (the first ```fen block, which an answer cannot
/// show) given in words: after the sentence that introduces it ("For example:"), or after the
/// text when a sentence points at it ("Below, …", "Here White …"); without a diagram, a
/// sentence introducing one is left out.
fn with_position_in_words(text: &str, fens: &[String]) -> String {
    let mut position = fens
        .first()
        .and_then(|fen| crate::rules::describe::position_in_words(fen));
    let mut out: Vec<String> = Vec::new();
    for s in sentences(text).into_iter().take(6) {
        match s.strip_suffix(':') {
            Some(intro) => {
                if let Some(words) = position.take() {
                    out.push(format!("{intro}: {words}."));
                }
            }
            None => out.push(s.to_string()),
        }
    }
    let points_at_it = out
        .iter()
        .any(|s| s.starts_with("Below") || s.starts_with("Here "));
    if let Some(words) = position.filter(|_| points_at_it) {
        out.push(format!("The position: {words}."));
    }
    out.join(" ")
}

/// A ruling written for a yes/no question ("Yes: the owner of the phone loses…") asked as
/// "who loses?" or "what happens?": the bare "Yes" (or "No:") goes, the decision stays. A
/// ruling written for a "why" question ("Because what must occur…") keeps its "Because" only
/// for an open question.
fn fit_opening(text: &str, kind: QuestionKind) -> String {
    if kind != QuestionKind::Open
        && let Some(rest) = text.strip_prefix("Because ")
    {
        return crate::text::capitalise_first(rest);
    }
    if matches!(
        kind,
        QuestionKind::YesNo
            | QuestionKind::ResultYesNo
            | QuestionKind::Other
            | QuestionKind::Advice
    ) {
        return text.to_string();
    }
    match bare_yes_or_no(text) {
        Some((_, _, rest)) if !rest.is_empty() => crate::text::capitalise_first(rest),
        _ => text.to_string(),
    }
}

/// A ruling's `text` (its own, or a decision for the story in its place) as an answer's
/// paragraph: the ruling's positions in words, the opening fitted to the question's kind, and
/// a request for the position when the ruling depends on one that was not given.
fn ruling_paragraph(
    text: &str,
    p: &Passage,
    meta: &RulingMeta,
    kind: QuestionKind,
    position_given: bool,
) -> String {
    let text = with_position_in_words(text, &p.fens)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut text = fit_opening(&text, kind);
    // Asked for once: a ruling that already asks for the game says so itself.
    if meta.needs_position && !position_given && !text.contains("FEN") && !text.contains("PGN") {
        text.push_str(ASK_FOR_THE_POSITION);
    }
    text
}

/// A ruling that depends on a fact the story states ("It depends on how far the game has
/// gone…" for a story told "about 8 moves in"): its text with the first sentence replaced by
/// the decision for that fact (the ruling's `when:` lines), to be rendered as its own text is.
/// `None` when the ruling has no such decisions or the story does not state the fact.
fn decided_by_the_story(p: &Passage, frame: &Frame) -> Option<String> {
    let meta = p.ruling.as_ref()?;
    if meta.decided_when.is_empty() {
        return None;
    }
    let moves = super::frame::moves_told(&frame.lower);
    let (_, decision) = meta.decided_when.iter().find(|(c, _)| c.holds(moves))?;
    let rest = sentences(&p.text).into_iter().skip(1);
    Some(
        std::iter::once(decision.as_str())
            .chain(rest)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The sentences of a text (article numbers and "e.p." do not end a sentence).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        if !matches!(c, '.' | '?' | '!') {
            continue;
        }
        let next = bytes.get(i + 1).copied();
        if next.is_some_and(|n| n != b' ' && n != b'\n') {
            continue;
        }
        let so_far = &text[start..=i];
        if so_far.ends_with("e.p.") || so_far.ends_with("e.g.") || so_far.ends_with("i.e.") {
            continue;
        }
        out.push(so_far.trim());
        start = i + 1;
    }
    if start < text.len() && !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

/// A sentence that describes the rulebook instead of stating a rule ("Article 9 deals with…").
fn reads_like_contents(sentence: &str) -> bool {
    let s = sentence.to_lowercase();
    [
        "deals with",
        "this section",
        "this article",
        "explains",
        "covers the",
        "describes",
        "are set out",
        "is set out",
        "see below",
        "as follows",
    ]
    .iter()
    .any(|w| s.contains(w))
}

/// Whether a ruling's heading asks what something is ("What is threefold repetition?", "What
/// does j'adoube mean?").
fn defines(title: &str) -> bool {
    [
        "What is ",
        "What are ",
        "What does ",
        "What exactly is ",
        "What's ",
        "What counts as ",
    ]
    .iter()
    .any(|w| title.starts_with(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_law_page_fits_the_kinds_of_game_it_governs() {
        let t = MatchTuning::default();
        // Guidelines III never apply to blitz (III.2.2).
        assert_eq!(
            law_setting_fit("guidelines-iii", &[Setting::Blitz], &t),
            t.setting_other
        );
        assert_eq!(
            law_setting_fit("guidelines-iii", &[Setting::Rapid], &t),
            1.0
        );
        assert_eq!(law_setting_fit("guidelines-iii", &[], &t), 1.0);
        assert_eq!(
            law_setting_fit("appendix-b", &[Setting::Standard], &t),
            t.setting_other
        );
        assert_eq!(law_setting_fit("article-9", &[Setting::Blitz], &t), 1.0);
    }

    #[test]
    fn numbered_questions_are_recognised() {
        assert!(numbered(
            "Two things: (1) can I claim? (2) can I ask for an increment?"
        ));
        assert!(numbered("1. Is it mate? 2. Who wins?"));
        assert!(!numbered(
            "How does claiming work? Can they claim at move 51?"
        ));
    }

    #[test]
    fn a_part_with_its_own_kind_of_game_is_matched_in_it() {
        let frame = Frame::read(
            "(1) In a 5-minute blitz game can I claim? (2) In our 45-minute rapid can I ask for an increment?",
        );
        let own = own_settings(
            &frame,
            "(2) In our 45-minute rapid can I ask for an increment?",
        )
        .expect("own setting");
        assert_eq!(own.settings, [Setting::Rapid]);
    }

    #[test]
    fn a_much_surer_later_part_answers_first() {
        let part = |passage, confidence| PartMatch {
            passage,
            confidence,
            similarity: 0.0,
            runner_up: None,
        };
        let order = |chosen: &[PartMatch]| chosen.iter().map(|m| m.passage).collect::<Vec<_>>();
        let mut chosen = [part(1, 0.6), part(2, 0.65), part(3, 0.85)];
        lead_with_the_surest(&mut chosen);
        assert_eq!(order(&chosen), [3, 1, 2]);
        // Not surer by the margin: the asker's order stays.
        let mut chosen = [part(1, 0.6), part(2, 0.65)];
        lead_with_the_surest(&mut chosen);
        assert_eq!(order(&chosen), [1, 2]);
    }

    #[test]
    fn a_result_on_time_is_read_from_the_first_sentence_only() {
        assert!(decides_a_result_on_time(
            "You have lost on time, as long as your opponent could mate you."
        ));
        assert!(decides_a_result_on_time(
            "You win on time, provided you could mate."
        ));
        assert!(!decides_a_result_on_time(
            "You may play on: the flag counts only when claimed. If he claims, you lose on time."
        ));
    }

    #[test]
    fn parts_marked_separate_keep_their_order() {
        let parts = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(marked_separate(&parts(&[
            "What do I do about my opponent's noise?",
            "And a separate thing: can I castle out of check?"
        ])));
        assert!(marked_separate(&parts(&[
            "Can I resign?",
            "By the way, is 10+5 rapid?"
        ])));
        assert!(!marked_separate(&parts(&[
            "How does claiming work?",
            "Can they claim any time between the 50th and 75th move?"
        ])));
    }

    #[test]
    fn articles_agree_with_their_parents_and_children_only() {
        let votes = [
            ("9.2.3", 1, 0.8),
            ("9.3", 2, 0.9),
            ("9.2", 7, 1.0),
            ("9.20", 3, 0.95),
        ];
        // The passage's own hit does not vote; 9.3 and 9.20 are other articles.
        assert_eq!(agreement_with("9.2", 7, &votes), 0.8);
        assert_eq!(agreement_with("9.2.3.1", 5, &votes), 1.0);
        assert_eq!(agreement_with("11.3", 5, &votes), 0.0);
    }

    #[test]
    fn contents_sentences_are_recognised() {
        assert!(reads_like_contents("Article 9 deals with the drawn game."));
        assert!(!reads_like_contents(
            "A draw offer is made after your move (9.1.2.1)."
        ));
    }

    #[test]
    fn a_diagram_is_given_in_words() {
        let fens = ["8/8/8/8/8/8/p1N5/k1K5 b - - 0 1".to_string()];
        let words = "White Kc1, Nc2; Black Ka1, pawn a2; Black to move";
        assert_eq!(
            with_position_in_words("You win (6.9). For example:", &fens),
            format!("You win (6.9). For example: {words}.")
        );
        assert_eq!(
            with_position_in_words("It is legal. Below, the knight mates.", &fens),
            format!("It is legal. Below, the knight mates. The position: {words}.")
        );
        assert_eq!(
            with_position_in_words("You win (6.9).", &fens),
            "You win (6.9)."
        );
        assert_eq!(
            with_position_in_words("You win (6.9). For example:", &[]),
            "You win (6.9)."
        );
    }

    #[test]
    fn sentences_keep_article_numbers_and_ep() {
        let s = sentences("Capture e.p. at once (3.7.3.2). Later it is gone.");
        assert_eq!(s, ["Capture e.p. at once (3.7.3.2).", "Later it is gone."]);
    }

    #[test]
    fn a_what_question_loses_the_bare_yes_or_no() {
        let ruling = QuestionKind::Ruling;
        assert_eq!(
            fit_opening("No: the king is never captured (1.4.1).", ruling),
            "The king is never captured (1.4.1)."
        );
        assert_eq!(fit_opening("Yes: he loses.", ruling), "He loses.");
        assert_eq!(
            fit_opening("No: not yet.", QuestionKind::YesNo),
            "No: not yet."
        );
    }

    #[test]
    fn only_a_why_question_keeps_because() {
        let why = "Because the whole position must recur.";
        assert_eq!(fit_opening(why, QuestionKind::Open), why);
        assert_eq!(
            fit_opening(why, QuestionKind::YesNo),
            "The whole position must recur."
        );
    }
}
