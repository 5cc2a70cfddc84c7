//! Answers: a question (and optionally a position) in, an arbiter's answer out — the ruling
//! first, the reason, ordered citations, and for position questions the claims the checker
//! established.
//!
//! [`Arbiter`] holds the rulebook, the search index and the solver budget; it is cheap to
//! share (`Arc`) and never changes once built. `answer` knows nothing of HTTP or LSP.

pub mod actors;
pub mod claims;
pub mod frame;
mod from_rulebook;
mod judged_decision;
mod move_orders;
mod result_by_material;
mod time_control;
#[doc(hidden)]
pub use from_rulebook::{MatchTuning, SECOND_READING};
pub mod intent;
pub mod matcher;
mod not_the_rules;
pub mod polarity;
pub mod position;
pub mod request;
pub mod semantic;
mod unseen_board;

use serde::{Deserialize, Serialize};

use crate::rulebook::Rulebook;
use crate::rules::{
    self, CheckOptions, ErrorBody, ErrorCode, Game, Report, RulesError, SolverBudget,
};
use crate::search::{Hit, MatchedBy, SearchIndex, SearchMode};
use claims::{Claim, ClaimCheck, verify_claim};
use frame::Frame;
use intent::Topic;
use position::PositionAsk;
pub use request::{AskRequest, CheckRequest, MovesField};

/// Longest question we read (characters).
pub const MAX_QUESTION_CHARS: usize = 2_000;
/// Longest PGN we replay (bytes).
pub const MAX_PGN_BYTES: usize = 512 * 1024;
/// Most moves in a history.
pub const MAX_MOVES: usize = 2_000;
/// Solver work for the second look at a position whose mating chances the question turns on
/// and the first look left open (per side; counted in nodes, so the verdict is the same on any
/// machine).
pub const SECOND_LOOK: std::time::Duration = std::time::Duration::from_millis(250);

/// A citation: an article and where to read it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Citation {
    pub article: String,
    pub title: String,
    pub page: String,
    pub anchor: String,
    pub url: String,
    pub snippet: String,
}

/// The answer to a question.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Answer {
    /// Short direct answer first, then the reasoning.
    pub answer: String,
    /// Most relevant first; the deciding article leads.
    pub citations: Vec<Citation>,
    pub claims: Vec<Claim>,
    /// The checker's report when a position was supplied.
    #[schema(value_type = Option<Object>)]
    pub position: Option<Report>,
    /// What the question was understood to be about.
    pub topic: String,
    /// What the answer rests on.
    pub basis: Basis,
    /// Squares worth marking on a board diagram (attacked squares, the e.p. target…).
    pub marks: Vec<String>,
    /// How sure the match between question and ruling is, from 0 to 1 (1 for position
    /// verdicts, which come from the checker).
    pub confidence: f32,
    /// Moves the question says were played that the history given did not hold yet (SAN, in
    /// order): the answer is about the position after them, and its claims hold there — to
    /// verify them, append these to the moves.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub played: Vec<String>,
    /// The last move of the history given when it was illegal and the question is about it
    /// ("Did I lose? I castled…"): the answer, its report and its claims are about the position
    /// before that move — to verify them, leave it out of the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disputed: Option<String>,
    /// The FEN read from the question's own text, when the request gave no position but the
    /// question did ("In this position: 8/8/… w - - 0 1, …"): the answer is about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen_from_question: Option<String>,
    /// The moves read from the question's own text (after its FEN, or from the starting
    /// position), in order: with `fen_from_question`, the game the answer is about.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves_from_question: Vec<String>,
}

impl Answer {
    /// An answer without a position: text, citations, the topic read and how sure it is.
    fn without_position(
        answer: String,
        citations: Vec<Citation>,
        frame: &Frame,
        basis: Basis,
        confidence: f32,
    ) -> Answer {
        Answer {
            answer,
            citations,
            claims: vec![],
            position: None,
            topic: frame.intent.topic.name().into(),
            basis,
            marks: vec![],
            confidence,
            played: Vec::new(),
            disputed: None,
            fen_from_question: None,
            moves_from_question: Vec::new(),
        }
    }
}

/// What an answer rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// The checker's verdict on the position given.
    Position,
    /// A ruling or law passage of the rulebook.
    Rulebook,
    /// Nothing matched well enough to answer.
    Unknown,
}

/// Why a question could not be answered at all.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("the question is empty: ask something about the rules")]
    EmptyQuestion,
    #[error("the question is too long ({0} characters; the limit is {MAX_QUESTION_CHARS})")]
    QuestionTooLong(usize),
    #[error("the PGN is too large ({0} bytes; the limit is {MAX_PGN_BYTES})")]
    PgnTooLarge(usize),
    #[error("too many moves ({0}; the limit is {MAX_MOVES})")]
    TooManyMoves(usize),
    #[error(transparent)]
    Rules(#[from] RulesError),
}

impl AnswerError {
    pub fn to_json(&self) -> ErrorBody {
        match self {
            AnswerError::Rules(e) => e.to_json(),
            other => ErrorBody {
                code: match other {
                    AnswerError::EmptyQuestion => ErrorCode::EmptyQuestion,
                    AnswerError::QuestionTooLong(_) => ErrorCode::QuestionTooLong,
                    AnswerError::PgnTooLarge(_) => ErrorCode::PgnTooLarge,
                    _ => ErrorCode::TooManyMoves,
                },
                message: other.to_string(),
                ply: None,
                text: None,
                articles: vec![],
            },
        }
    }

    /// Whether the request was well-formed but not processable (422) rather than bad (400).
    pub fn is_unprocessable(&self) -> bool {
        matches!(self, AnswerError::Rules(_))
    }
}

/// The body of `POST /api/verify`.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub moves: Option<MovesField>,
    #[serde(default)]
    pub pgn: Option<String>,
    pub claims: Vec<Claim>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct VerifyResponse {
    pub all_hold: bool,
    pub results: Vec<ClaimCheck>,
}

/// The service core shared by every front end.
pub struct Arbiter {
    pub book: Rulebook,
    pub index: SearchIndex,
    pub budget: SolverBudget,
    /// Words that mark a question as being about chess rules: heading titles, page aliases
    /// and keywords, and the search vocabulary. A question with none of them gets "I don't know".
    domain_words: rustc_hash::FxHashSet<String>,
    /// Every ruling's phrasings, for matching questions to rulings.
    matcher: matcher::RulingMatcher,
    /// Every ruling's premises and exceptions, tested on a question in one pass.
    premise_tests: crate::rulebook::PremiseTests,
    match_tuning: from_rulebook::MatchTuning,
}

const NOT_DOMAIN: &[&str] = &[
    "the", "a", "an", "of", "to", "in", "on", "is", "are", "and", "or", "for", "with", "what",
    "how", "can", "do", "does", "i", "my", "you", "it", "be", "by", "at", "as", "if", "no", "not",
    "when", "who", "which", "this", "that", "from", "game", "games", "rules", "rule", "player",
    "players", "time", "way", "make", "made", "have", "has", "get", "new", "same", "other", "one",
    "two", "first", "last", "all", "any", "some", "only", "after", "before", "capital", "letter",
    "letters", "name", "where", "why", "there", "good", "bad", "long", "short", "back", "up",
    "out", "off", "over", "take", "put", "play", "played", "playing", "still", "tell", "me", "say",
    "know", "want", "like", "think", "please", "help", "give", "see", "look", "go", "come", "ever",
    "best", "about", "joke", "hello", "hi", "thanks", "thank",
];

fn words_of(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 2)
        .map(|w| w.to_lowercase())
}

impl Arbiter {
    pub fn new(book: Rulebook, index: SearchIndex) -> Arbiter {
        let mut domain_words = rustc_hash::FxHashSet::default();
        for p in &book.passages {
            domain_words.extend(words_of(&p.title));
        }
        for page in &book.pages {
            for a in page.aliases.iter().chain(&page.keywords) {
                domain_words.extend(words_of(a));
            }
        }
        let vocab = index.vocabulary();
        for (k, v) in vocab.expand.iter().chain(vocab.correct.iter()) {
            domain_words.extend(words_of(k));
            domain_words.extend(words_of(v));
        }
        for w in NOT_DOMAIN {
            domain_words.remove(*w);
        }
        let matcher = matcher::RulingMatcher::new(&book);
        let premise_tests = crate::rulebook::PremiseTests::new(&book.passages);
        Arbiter {
            premise_tests,
            book,
            index,
            budget: SolverBudget::default(),
            domain_words,
            matcher,
            match_tuning: from_rulebook::MatchTuning::default(),
        }
    }

    /// How many words of the question are chess-rules words.
    pub fn domain_word_count(&self, question: &str) -> usize {
        words_of(question)
            .filter(|w| self.domain_words.contains(w))
            .count()
    }

    /// Replaces the match weights (for tuning).
    #[doc(hidden)]
    pub fn set_match_tuning(&mut self, tuning: MatchTuning) {
        self.match_tuning = tuning;
    }

    /// The embedded rulebook with an in-memory index.
    pub fn embedded() -> anyhow::Result<Arbiter> {
        Arbiter::in_memory(Rulebook::embedded()?, crate::search::Vocabulary::embedded())
    }

    /// A rulebook (from disk, or altered for an evaluation) with its index built in memory.
    pub fn in_memory(
        book: Rulebook,
        vocabulary: crate::search::Vocabulary,
    ) -> anyhow::Result<Arbiter> {
        let index = SearchIndex::build_in_memory(&book, vocabulary)?;
        Ok(Arbiter::new(book, index))
    }

    fn options(&self) -> CheckOptions {
        CheckOptions {
            budget: self.budget,
            skip_solver: false,
        }
    }

    fn game(&self, req: &CheckRequest) -> Result<Game, AnswerError> {
        if let Some(p) = &req.pgn
            && p.len() > MAX_PGN_BYTES
        {
            return Err(AnswerError::PgnTooLarge(p.len()));
        }
        if let Some(m) = &req.moves {
            let n = m.to_list().len();
            if n > MAX_MOVES {
                return Err(AnswerError::TooManyMoves(n));
            }
        }
        Ok(req.game()?)
    }

    /// The game a question comes with, and the move in dispute: a history of moves whose last
    /// move breaks a rule of play is not refused but stops before that move, which the
    /// question is then taken to be about ("Did I lose? I castled and he said it was illegal").
    /// A move that cannot be read, or that fits no piece on the board, or a question that is
    /// not about a dispute ("Can I castle?"), still gets the error.
    fn asked_game(&self, req: &AskRequest) -> Result<(Game, Option<String>), AnswerError> {
        let request = req.position_request();
        let err = match self.game(&request) {
            Ok(game) => return Ok((game, None)),
            Err(e) => e,
        };
        let mut moves = request
            .moves
            .as_ref()
            .map(|m| m.to_list())
            .unwrap_or_default();
        // The refusal says which ply failed and what kind of refusal it was.
        let last_breaks_a_rule = matches!(
            &err,
            AnswerError::Rules(RulesError::IllegalMove { ply, kind: Some(kind), .. })
                if *ply == moves.len() && kind.breaks_a_rule_of_play()
        );
        let no_pgn = request.pgn.as_deref().is_none_or(|p| p.trim().is_empty());
        let disputed = position::disputed_move::asks_about_a_dispute(&req.question);
        let (true, true, true, Some(last)) = (last_breaks_a_rule, no_pgn, disputed, moves.pop())
        else {
            return Err(err);
        };
        let before = self.game(&CheckRequest {
            moves: Some(MovesField::List(moves)),
            ..request
        })?;
        Ok((before, Some(last)))
    }

    /// The report a position question is answered from. A question that turns on whether mate
    /// is still possible (a flag, a dead position, a resignation) is waiting for that very
    /// verdict: if the solver's budget left it open, the position gets a second look with
    /// [`SECOND_LOOK`] of solver work, as a hover in the language server does.
    fn position_report(&self, game: &Game, tested_move: Option<&str>, topic: Topic) -> Report {
        let report = rules::check(game, tested_move, self.options());
        let turns_on_mate = matches!(
            topic,
            Topic::Flag | Topic::DeadPosition | Topic::Resignation
        );
        let left_open = report.dead_position.is_none()
            || report.flag.white.is_none()
            || report.flag.black.is_none();
        if !(turns_on_mate && left_open) || self.budget.0.is_none_or(|b| b >= SECOND_LOOK) {
            return report;
        }
        let opts = CheckOptions {
            budget: SolverBudget(Some(SECOND_LOOK)),
            skip_solver: false,
        };
        rules::check(game, tested_move, opts)
    }

    /// `POST /api/check`.
    pub fn check(&self, req: &CheckRequest) -> Result<Report, AnswerError> {
        let game = self.game(req)?;
        Ok(rules::check(
            &game,
            req.move_text.as_deref(),
            self.options(),
        ))
    }

    /// `POST /api/verify`: which claims hold in the position.
    pub fn verify(&self, req: &VerifyRequest) -> Result<VerifyResponse, AnswerError> {
        let game = self.game(&CheckRequest {
            fen: req.fen.clone(),
            moves: req.moves.clone(),
            pgn: req.pgn.clone(),
            move_text: None,
        })?;
        // Verification may take longer than an answer: give the solver more room.
        let opts = CheckOptions {
            budget: SolverBudget(Some(std::time::Duration::from_secs(2))),
            skip_solver: false,
        };
        let report = rules::check(&game, None, opts);
        let results: Vec<ClaimCheck> = req
            .claims
            .iter()
            .map(|c| verify_claim(c, &game, &report))
            .collect();
        Ok(VerifyResponse {
            all_hold: results.iter().all(|r| r.holds == Some(true)),
            results,
        })
    }

    /// `GET /api/search`.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        self.index.search(&self.book, query, limit)
    }

    /// A citation for an article number (or its nearest parent that has a heading).
    pub fn citation(&self, article: &str) -> Option<Citation> {
        let p = self.book.resolve_article(article)?;
        Some(Self::citation_of(
            p,
            p.article.as_deref().unwrap_or(article),
        ))
    }

    /// The citation of passage `p` as `article`.
    fn citation_of(p: &crate::rulebook::Passage, article: &str) -> Citation {
        // The first 220 characters, "…" when there are more.
        let snippet = match p.text.char_indices().nth(220) {
            Some((end, _)) => format!("{}…", &p.text[..end]),
            None => p.text.clone(),
        };
        Citation {
            article: article.to_string(),
            title: p.title.clone(),
            page: p.page.clone(),
            anchor: p.anchor.clone(),
            url: p.url(),
            snippet,
        }
    }

    /// `POST /api/ask`.
    pub fn ask(&self, req: &AskRequest) -> Result<Answer, AnswerError> {
        let question = frame::without_quiz_label(req.question.trim());
        if question.is_empty() {
            return Err(AnswerError::EmptyQuestion);
        }
        let chars = question.chars().count();
        if chars > MAX_QUESTION_CHARS {
            return Err(AnswerError::QuestionTooLong(chars));
        }
        // A question in another language is answered on the English of its chess terms, and
        // says so at the end.
        let foreign = self.english_reading(question);
        let question = foreign.as_ref().map_or(question, |f| f.text.as_str());
        let mut answer = self.answer_in_english(req, question)?;
        if let Some(f) = &foreign {
            answer.answer.push_str(&format!(
                "\n\n(Your question is in {}: I read it through its chess terms ({}) and answer in English.)",
                f.language.name(),
                f.terms(12).join(", ")
            ));
        }
        Ok(answer)
    }

    /// The English reading of a question in another language (its chess terms), if the
    /// glossary reads it as one and finds any.
    fn english_reading(&self, question: &str) -> Option<crate::search::languages::InEnglish> {
        self.index
            .vocabulary()
            .languages
            .in_english(question)
            .filter(|f| !f.text.is_empty())
    }

    /// The answer to a question in English (or read in English), with its position if any.
    fn answer_in_english(&self, req: &AskRequest, question: &str) -> Result<Answer, AnswerError> {
        let question = &frame::chat_speak_written_out(question);
        if req.has_position() {
            let question = &frame::calques_as_chess_terms(question);
            let frame = Frame::read(question);
            let hits = self
                .index
                .search_with(&self.book, question, 8, SearchMode::ANSWER);
            let (game, disputed) = match self.asked_game(req) {
                Ok(asked) => asked,
                // "Is this position even possible?" about one no game can reach: that is the
                // answer, not a refusal of the input.
                Err(AnswerError::Rules(e @ RulesError::IllegalPosition { .. }))
                    if asks_whether_possible(&frame.lower) =>
                {
                    return self
                        .unreadable_position_answer(question, &e)
                        .ok_or(AnswerError::Rules(e));
                }
                Err(e) => return Err(e),
            };
            Ok(self.position_answer(question, &frame, game, disputed, &hits))
        } else if let Some(answer) = self.ask_with_position_in_text(question) {
            Ok(answer)
        } else {
            Ok(self.prose_answer(question))
        }
    }

    /// The answer to a question read as prose: no position, or none that could be used.
    fn prose_answer(&self, question: &str) -> Answer {
        let spelt = frame::spell_out_pieces(question);
        let frame = Frame::read(&spelt);
        if not_the_rules::about_play_not_rules(&frame) {
            return self.not_the_rules_answer(&frame);
        }
        let computed = unseen_board::points_at_unseen_board(&frame)
            .then(|| self.unseen_board_answer(&frame))
            .flatten()
            .or_else(|| self.time_control_answer(&frame));
        computed.unwrap_or_else(|| self.rulebook_answer(&frame::without_asides(&spelt), &frame))
    }

    /// A question whose game cannot be played through (a move that no piece can make, in the
    /// middle of the list): answered as prose, after a sentence that says which move stopped
    /// the replay, so that the asker knows the answer is not about that game.
    fn answer_without_the_game(&self, question: &str, e: &RulesError) -> Answer {
        let mut answer = self.prose_answer(question);
        answer.answer = format!(
            "The moves in your question could not be played through, so this answer does not use them: {e}.\n\n{}",
            answer.answer
        );
        answer
    }

    /// The answer about a position the question writes out itself (a FEN, a game's moves), if
    /// it has one that can be played out; else the question is prose.
    fn ask_with_position_in_text(&self, question: &str) -> Option<Answer> {
        if let Some(answer) = self.compared_move_orders(question) {
            return Some(answer);
        }
        let found = request::position_in_question(question)?;
        let inline = AskRequest {
            question: found.question,
            fen: found.fen.clone(),
            moves: Some(request::MovesField::List(found.moves.clone())),
            pgn: None,
        };
        let mut answer = match self.ask(&inline) {
            Ok(answer) => answer,
            Err(AnswerError::Rules(e)) if found.moves.is_empty() => {
                self.unreadable_position_answer(question, &e)?
            }
            Err(AnswerError::Rules(e @ RulesError::IllegalMove { .. })) if found.fen.is_none() => {
                return Some(self.answer_without_the_game(question, &e));
            }
            Err(_) => return None,
        };
        answer.fen_from_question = found.fen;
        answer.moves_from_question = found.moves;
        Some(answer)
    }

    /// Two games written from move 1 and asked whether they meet ("Is 1.d4 d5 2.Nf3 the same
    /// position as 1.Nf3 d5 2.d4?"): both played out and their final positions compared for
    /// repetition (9.2.3). The answer's position is the first game's.
    fn compared_move_orders(&self, question: &str) -> Option<Answer> {
        // Two games first: most questions have none, and lower-casing them is then wasted.
        let (first_moves, second_moves) = request::two_games(question)?;
        if !move_orders::asks_about_sameness(&question.to_lowercase()) {
            return None;
        }
        let first = Game::from_moves(None, &first_moves).ok()?;
        let second = Game::from_moves(None, &second_moves).ok()?;
        let (text, articles) = move_orders::compared(&first, &second);
        let citations = self.citations(&articles, &text, &[]);
        Some(Answer {
            answer: text,
            citations,
            claims: Vec::new(),
            position: Some(self.position_report(&first, None, Topic::Repetition)),
            topic: Topic::Repetition.name().into(),
            basis: Basis::Position,
            marks: Vec::new(),
            confidence: 1.0,
            played: Vec::new(),
            disputed: None,
            fen_from_question: None,
            moves_from_question: first_moves,
        })
    }

    /// The answer to a question whose FEN cannot be a position: what is wrong with it, rather
    /// than an answer to the question's prose about some other position. `None` for an error
    /// that is not about the FEN itself.
    fn unreadable_position_answer(&self, question: &str, e: &RulesError) -> Option<Answer> {
        let (answer, articles): (String, &[&str]) = match e {
            RulesError::InvalidFen { .. } => (
                format!(
                    "The position in your question cannot be read, so I cannot judge it: {e}. A FEN \
                     gives the eight ranks from the 8th down to the 1st, each of exactly eight \
                     squares (a digit counts empty squares), then the side to move; please check it \
                     and ask again."
                ),
                &[],
            ),
            RulesError::IllegalPosition { problems } => (
                format!(
                    "That position cannot arise in a game, so no ruling applies to it: {}. Only \
                     positions that some series of legal moves could reach are positions of chess \
                     (3.10.3).",
                    problems.join("; ")
                ),
                &["3.10.3"],
            ),
            _ => return None,
        };
        let frame = Frame::read(question);
        let citations = self.citations(articles, &answer, &[]);
        Some(Answer::without_position(
            answer,
            citations,
            &frame,
            Basis::Unknown,
            0.0,
        ))
    }

    /// An answer the rules settle without matching a ruling (a time control classified, a
    /// board asked for): full confidence, the given articles cited first.
    fn settled_answer(&self, answer: String, articles: &[&str], frame: &Frame) -> Answer {
        let citations = self.citations(articles, &answer, &[]);
        Answer::without_position(answer, citations, frame, Basis::Rulebook, 1.0)
    }

    /// Ordered citations: the deciding articles, then every article the answer text mentions,
    /// then search hits nearly as relevant as the best; at most five, one per article.
    fn citations<S: AsRef<str>>(
        &self,
        deciding: &[S],
        answer: &str,
        hits: &[Hit],
    ) -> Vec<Citation> {
        let mut out: Vec<Citation> = Vec::new();
        // A citation is written out only when it is kept (at most five, each article once).
        let mut push = |article: &str| {
            if out.len() >= 5 {
                return;
            }
            let Some(p) = self.book.resolve_article(article) else {
                return;
            };
            let article = p.article.as_deref().unwrap_or(article);
            if !out.iter().any(|o| o.article == article) {
                out.push(Self::citation_of(p, article));
            }
        };
        for a in deciding {
            push(a.as_ref());
        }
        for (_, number) in crate::rulebook::find_article_refs(answer) {
            if self.book.article(&number).is_some() {
                push(&number);
            }
        }
        // Search hits support the deciding articles only when they are nearly as relevant as the best.
        let top = hits
            .iter()
            .filter(|h| h.matched_by == MatchedBy::Search)
            .map(|h| h.score)
            .fold(0.0f32, f32::max);
        for h in hits {
            if h.matched_by == MatchedBy::Search && h.score < top * 0.5 {
                continue;
            }
            if let Some(a) = &h.article {
                push(a);
            }
        }
        out
    }

    /// A question with a position: the moves it says were played brought into the game, the
    /// checker's report, the first position ruling that applies, composed decision first.
    fn position_answer(
        &self,
        question: &str,
        frame: &Frame,
        mut game: Game,
        disputed: Option<String>,
        hits: &[Hit],
    ) -> Answer {
        // With a move in dispute, the question's story is about that move: nothing is added.
        let played = match disputed {
            Some(_) => position::played::Played::default(),
            None => position::played::apply(question, &mut game),
        };
        let (tested_move, topic) = tested_move_and_topic(frame, &game, &played, &disputed);
        let mut report = self.position_report(&game, tested_move.as_deref(), topic);
        // A move of the side that has just moved ("5. Ne2 … movegen still generates c3e2") is
        // an alternative to the last move: judged where that move was chosen.
        let mut instead_of = None;
        if disputed.is_none()
            && let Some(earlier) = alternative_to_last_move(&game, &report, tested_move.as_deref())
        {
            instead_of = game.plies.last().map(|p| format!("{}{}", p.number, p.san));
            game = earlier;
            report = self.position_report(&game, tested_move.as_deref(), topic);
        }
        let lower = position::actors::as_the_childs_side(&frame.lower).into_owned();
        let actors = position::actors::Actors::read(&lower, game.current(), &played);
        let read_rulebook = || self.rulebook_reading(question);
        let ask = PositionAsk {
            question,
            lower,
            frame,
            topic,
            tested_move,
            disputed,
            game: &game,
            report: &report,
            actors,
            played: &played,
            book: &self.book,
            reading: position::LazyReading::new(&read_rulebook),
            domain_words: self.domain_word_count(question),
        };
        let ruling = position::ruling_for(&ask);
        let mut ruled = ruling.rule(&ask);
        if let Some(last) = &instead_of {
            let decision = ruled.decision.replacen(" here.", ".", 1);
            ruled.decision = format!(
                "In the position before {last}: {}",
                position::lower_first(&decision)
            );
        }
        ruled.detail.extend(position::other_side::sentence(
            &game,
            &report,
            ask.tested_move.as_deref(),
        ));
        position::lead_with_the_end(&ask, &mut ruled);
        let answer = position::compose(&ask, &ruled);
        let citations = self.citations(&ruled.deciding, &answer, hits);
        let disputed = ask.disputed.clone();
        position_answer_of(
            answer,
            citations,
            ruled,
            report,
            ruling.topic(),
            played,
            disputed,
        )
    }
}

/// The move a position question tests and its topic: the move in dispute, else the move the
/// question names (unless it says that move was played), else a move described in words ("can
/// I take his queen with my king?", "if I promote the pawn to a bishop, is it mate?"); a
/// described move makes the question one of legality, and a question naming no move may still
/// ask for en passant.
fn tested_move_and_topic(
    frame: &Frame,
    game: &Game,
    played: &position::played::Played,
    disputed: &Option<String>,
) -> (Option<String>, Topic) {
    let described = match frame.intent.topic {
        _ if frame.intent.mv.is_some() => None,
        Topic::General | Topic::MoveLegality | Topic::Check => {
            position::described::move_in_words(&frame.lower, game.current())
                .or_else(|| position::described::promotion_in_words(&frame.lower, game.current()))
        }
        Topic::Checkmate | Topic::Stalemate => {
            position::described::promotion_in_words(&frame.lower, game.current())
        }
        Topic::Promotion => position::described::pawn_to_square(&frame.lower, game.current())
            .or_else(|| position::described::promotion_in_words(&frame.lower, game.current())),
        _ => None,
    };
    let tested_move =
        disputed
            .clone()
            .or_else(|| {
                frame.intent.mv.clone().filter(|m| {
                    !played.includes(m) && !position::played::already_on_the_board(game, m)
                })
            })
            .or(described.clone());
    let topic = match frame.intent.topic {
        t @ (Topic::Checkmate | Topic::Stalemate) => t,
        _ if described.is_some() && disputed.is_none() => Topic::MoveLegality,
        Topic::MoveLegality if tested_move.is_none() => Topic::General,
        Topic::General
            if tested_move.is_none()
                && position::described::asks_for_en_passant(&frame.lower, game.current()) =>
        {
            Topic::EnPassant
        }
        t => t,
    };
    (tested_move, topic)
}

/// Whether a question (lower-cased) asks if its position could happen at all ("is this
/// position legal?", "can this even arise?").
fn asks_whether_possible(lower: &str) -> bool {
    [
        "legal",
        "possible",
        "valid",
        "arise",
        "reach",
        "exist",
        "real position",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// The answer a position ruling composed, with its report and what it rests on.
fn position_answer_of(
    answer: String,
    citations: Vec<Citation>,
    ruled: position::Ruled,
    report: Report,
    topic: &str,
    played: position::played::Played,
    disputed: Option<String>,
) -> Answer {
    let mut marks = ruled.marks;
    marks.sort();
    marks.dedup();
    Answer {
        answer,
        citations,
        claims: ruled.claims,
        position: Some(report),
        topic: topic.into(),
        basis: Basis::Position,
        marks,
        confidence: 1.0,
        played: played.added,
        disputed,
        fen_from_question: None,
        moves_from_question: Vec::new(),
    }
}

/// The game before its last move, when the move asked about is one of the side that has
/// just moved (rejected now as not its turn) to the square the last move went to: another
/// way the last move could have been made.
fn alternative_to_last_move(game: &Game, report: &Report, tested: Option<&str>) -> Option<Game> {
    let last = game.plies.last()?;
    let destination = tested?
        .as_bytes()
        .windows(2)
        .rev()
        .find(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))?;
    if last.uci.get(2..4)?.as_bytes() != destination {
        return None;
    }
    report
        .move_refused_as_out_of_turn()
        .then(|| game.before_last())
        .flatten()
}
