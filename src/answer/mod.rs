//! Answers: a question (and optionally a position) in, an arbiter's answer out — the ruling
//! first, the reason, ordered citations, and for position questions the claims the checker
//! established.
//!
//! [`Arbiter`] holds the rulebook, the search index and the solver budget; it is cheap to
//! share (`Arc`) and never changes once built. `answer` knows nothing of HTTP or LSP.

pub mod claims;
pub mod frame;
mod from_rulebook;
#[doc(hidden)]
pub use from_rulebook::MatchTuning;
pub mod intent;
pub mod matcher;
pub mod request;
pub mod semantic;

use serde::{Deserialize, Serialize};

use crate::rulebook::Rulebook;
use crate::rules::castling::capitalise_first;
use crate::rules::{self, CheckOptions, ErrorBody, Game, Report, RulesError, SolverBudget};
use crate::search::{Hit, SearchIndex, SearchMode};
use claims::{
    Claim, ClaimCheck, ClaimSubject, Side, Wing, castling_status, claim, side_to_move, verify_claim,
};
use frame::Frame;
use intent::{Intent, Topic};
pub use request::{AskRequest, CheckRequest, MovesField};

/// Longest question we read (characters).
pub const MAX_QUESTION_CHARS: usize = 2_000;
/// Longest PGN we replay (bytes).
pub const MAX_PGN_BYTES: usize = 512 * 1024;
/// Most moves in a history.
pub const MAX_MOVES: usize = 2_000;

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
                    AnswerError::EmptyQuestion => "empty_question",
                    AnswerError::QuestionTooLong(_) => "question_too_long",
                    AnswerError::PgnTooLarge(_) => "pgn_too_large",
                    _ => "too_many_moves",
                }
                .into(),
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
    domain_words: std::collections::HashSet<String>,
    /// Every ruling's phrasings, for matching questions to rulings.
    matcher: matcher::RulingMatcher,
    match_tuning: from_rulebook::MatchTuning,
}

const NOT_DOMAIN: &[&str] = &[
    "the", "a", "an", "of", "to", "in", "on", "is", "are", "and", "or", "for", "with", "what",
    "how", "can", "do", "does", "i", "my", "you", "it", "be", "by", "at", "as", "if", "no", "not",
    "when", "who", "which", "this", "that", "from", "game", "games", "rules", "rule", "player",
    "players", "time", "way", "make", "made", "have", "has", "get", "new", "same", "other", "one",
    "two", "first", "last", "all", "any", "some", "only", "after", "before", "capital", "letter",
    "letters", "name", "where", "why", "there", "good", "bad", "long", "short", "back", "up",
    "out", "off", "over", "take", "put", "play", "played", "playing", "still",
];

fn words_of(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 2)
        .map(|w| w.to_lowercase())
}

impl Arbiter {
    pub fn new(book: Rulebook, index: SearchIndex) -> Arbiter {
        let mut domain_words = std::collections::HashSet::new();
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
        Arbiter {
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
        let book = Rulebook::embedded()?;
        let index = SearchIndex::build_in_memory(&book, crate::search::Vocabulary::embedded())?;
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
        let snippet: String = p.text.chars().take(220).collect();
        Some(Citation {
            article: p.article.clone().unwrap_or_else(|| article.to_string()),
            title: p.title.clone(),
            page: p.page.clone(),
            anchor: p.anchor.clone(),
            url: p.url(),
            snippet: if p.text.chars().count() > 220 {
                format!("{snippet}…")
            } else {
                snippet
            },
        })
    }

    /// `POST /api/ask`.
    pub fn ask(&self, req: &AskRequest) -> Result<Answer, AnswerError> {
        let question = req.question.trim();
        if question.is_empty() {
            return Err(AnswerError::EmptyQuestion);
        }
        let chars = question.chars().count();
        if chars > MAX_QUESTION_CHARS {
            return Err(AnswerError::QuestionTooLong(chars));
        }
        let frame = Frame::read(question);
        if req.has_position() {
            let hits = self
                .index
                .search_with(&self.book, question, 8, SearchMode::ANSWER);
            let game = self.game(&req.position_request())?;
            let intent = &frame.intent;
            let report = rules::check(&game, intent.mv.as_deref(), self.options());
            Ok(self.position_answer(question, intent, &game, report, &hits))
        } else {
            let spelt = frame::spell_out_pieces(question);
            Ok(self.rulebook_answer(&spelt, &Frame::read(&spelt)))
        }
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
        let mut push = |c: Option<Citation>| {
            if let Some(c) = c
                && !out.iter().any(|o| o.article == c.article)
                && out.len() < 5
            {
                out.push(c);
            }
        };
        for a in deciding {
            push(self.citation(a.as_ref()));
        }
        for (_, number) in crate::rulebook::find_article_refs(answer) {
            if self.book.article(&number).is_some() {
                push(self.citation(&number));
            }
        }
        // Search hits support the deciding articles only when they are nearly as relevant as the best.
        let top = hits
            .iter()
            .filter(|h| h.matched_by == "search")
            .map(|h| h.score)
            .fold(0.0f32, f32::max);
        for h in hits {
            if h.matched_by == "search" && h.score < top * 0.5 {
                continue;
            }
            if let Some(a) = &h.article {
                push(self.citation(a));
            }
        }
        out
    }

    fn position_answer(
        &self,
        question: &str,
        intent: &Intent,
        game: &Game,
        report: Report,
        hits: &[Hit],
    ) -> Answer {
        let mover = side_to_move(game);
        let asked_side = intent
            .side
            .unwrap_or(if intent.opponent { other(mover) } else { mover });
        let mut claims_out: Vec<Claim> = Vec::new();
        let mut deciding: Vec<String> = Vec::new();
        let mut marks: Vec<String> = Vec::new();
        let mut lead = String::new();
        let mut detail: Vec<String> = Vec::new();
        let side_name = |s: Side| if s == Side::White { "White" } else { "Black" };

        if let Some(o) = &report.outcome
            && !matches!(
                intent.topic,
                Topic::Checkmate
                    | Topic::Stalemate
                    | Topic::DeadPosition
                    | Topic::Repetition
                    | Topic::FiftyMoves
                    | Topic::Flag
                    | Topic::Resignation
            )
        {
            detail.push(format!(
                "Note: the game is already over — {}.",
                o.explanation
            ));
        }

        match intent.topic {
            Topic::Castling => {
                let wings: Vec<Wing> = match intent.wing {
                    Some(w) => vec![w],
                    None => vec![Wing::Kingside, Wing::Queenside],
                };
                let mut parts = Vec::new();
                for wing in wings {
                    let st = castling_status(&report, asked_side, wing);
                    let wing_words = if wing == Wing::Kingside {
                        "short (O-O)"
                    } else {
                        "long (O-O-O)"
                    };
                    let reason = st
                        .reasons
                        .iter()
                        .map(|r| r.text.clone())
                        .collect::<Vec<_>>()
                        .join(" ");
                    let sentence = if st.legal {
                        format!(
                            "Yes: {} may castle {} now. {}",
                            side_name(asked_side),
                            wing_words,
                            reason
                        )
                    } else if !st.right {
                        format!(
                            "No: {} can no longer castle {}. {}",
                            side_name(asked_side),
                            wing_words,
                            reason
                        )
                    } else {
                        format!(
                            "Not right now: {} keeps the right to castle {}, but {}",
                            side_name(asked_side),
                            wing_words,
                            lower_first(&reason)
                        )
                    };
                    parts.push(sentence);
                    for r in &st.reasons {
                        marks.extend(r.squares.iter().cloned());
                        marks.extend(r.pieces.iter().cloned());
                        deciding.push(r.article.into());
                    }
                    if !st.right {
                        deciding.insert(0, "3.8.2.1".into());
                    } else if !st.legal {
                        deciding.insert(0, "3.8.2.2".into());
                    }
                    claims_out.push(claim(
                        ClaimSubject::CastlingRight {
                            color: asked_side,
                            wing,
                        },
                        game,
                        &report,
                    ));
                    if asked_side == mover {
                        claims_out.push(claim(
                            ClaimSubject::CastlingLegal {
                                color: asked_side,
                                wing,
                            },
                            game,
                            &report,
                        ));
                    }
                }
                lead = parts.join(" ");
            }
            Topic::EnPassant => {
                let info = &report.en_passant_info;
                if let Some(mv) = &intent.mv {
                    let c = claim(ClaimSubject::EnPassant { mv: mv.clone() }, game, &report);
                    let yes = c.value == serde_json::Value::Bool(true);
                    lead = if yes {
                        format!(
                            "Yes: {mv} is a legal en passant capture now. {}",
                            info.reason
                        )
                    } else {
                        format!(
                            "No: {mv} is not a legal en passant capture here: {}",
                            info.reason
                        )
                    };
                    claims_out.push(c);
                } else if report.en_passant.is_empty() {
                    lead = format!("No en passant capture is possible now: {}", info.reason);
                } else {
                    lead = format!("Yes: {}", info.reason);
                }
                for san in &info.captures_san {
                    claims_out.push(claim(
                        ClaimSubject::EnPassant { mv: san.clone() },
                        game,
                        &report,
                    ));
                }
                marks.extend(info.target.iter().cloned());
                deciding.extend(["3.7.3.1", "3.7.3.2"].map(String::from));
            }
            Topic::MoveLegality | Topic::Promotion if intent.mv.is_some() => {
                let mc = report.move_check.clone();
                if let Some(mc) = mc {
                    lead = if mc.legal {
                        format!("Yes. {}", mc.reason)
                    } else {
                        format!("No. {}", mc.reason)
                    };
                    for a in &mc.articles {
                        deciding.push(a.clone());
                    }
                    claims_out.push(claim(
                        ClaimSubject::LegalMove {
                            mv: intent.mv.clone().unwrap_or_default(),
                        },
                        game,
                        &report,
                    ));
                }
            }
            Topic::Promotion => {
                if report.promotions.is_empty() {
                    lead = "No pawn can promote on this move: promotion happens when a pawn reaches the last rank (3.7.3.3).".into();
                } else {
                    let opts: Vec<String> = report
                        .promotions
                        .iter()
                        .map(|p| format!("{}→{} as {}", p.from, p.to, p.choices.join("/")))
                        .collect();
                    lead = format!(
                        "A pawn can promote now: {}. It must become a queen, rook, bishop or knight of its own colour, chosen freely even if such a piece is still on the board (3.7.3.3, 3.7.3.4).",
                        opts.join("; ")
                    );
                }
                deciding.extend(["3.7.3.3", "3.7.3.4"].map(String::from));
            }
            Topic::Checkmate | Topic::Stalemate | Topic::Check => {
                lead = if report.checkmate {
                    format!("Yes, it is checkmate: {}", report.check.reason)
                } else if report.stalemate {
                    format!("It is stalemate, a draw: {}", report.check.reason)
                } else if report.in_check {
                    format!(
                        "Not checkmate: {}; there are legal moves ({}).",
                        report.check.reason,
                        report
                            .legal_moves_san
                            .iter()
                            .take(6)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                } else {
                    format!(
                        "Neither check, checkmate nor stalemate: {}, with {} legal moves.",
                        report.check.reason,
                        report.legal_moves.len()
                    )
                };
                claims_out.push(claim(ClaimSubject::InCheck, game, &report));
                claims_out.push(claim(ClaimSubject::Checkmate, game, &report));
                claims_out.push(claim(ClaimSubject::Stalemate, game, &report));
                marks.extend(report.check.checkers.iter().cloned());
                deciding.push(
                    if report.stalemate || intent.topic == Topic::Stalemate {
                        "5.2.1"
                    } else if report.checkmate || intent.topic == Topic::Checkmate {
                        "5.1.1"
                    } else {
                        "3.9.1"
                    }
                    .into(),
                );
            }
            Topic::DeadPosition => {
                lead = match report.dead_position {
                    Some(true) => format!(
                        "Yes, the position is dead and the game is drawn at once: {}",
                        report.dead_position_info.reason
                    ),
                    Some(false) => format!(
                        "No, it is not a dead position: {}",
                        report.dead_position_info.reason
                    ),
                    None => format!(
                        "I cannot tell within the time budget: {}",
                        report.dead_position_info.reason
                    ),
                };
                let proof = if report.dead_position_info.white_can_mate == Some(true)
                    && !report.dead_position_info.white_helpmate.is_empty()
                {
                    Some(("White", &report.dead_position_info.white_helpmate))
                } else if report.dead_position_info.black_can_mate == Some(true)
                    && !report.dead_position_info.black_helpmate.is_empty()
                {
                    Some(("Black", &report.dead_position_info.black_helpmate))
                } else {
                    None
                };
                if let Some((who, line)) = proof {
                    detail.push(format!(
                        "For example, {who} mates after {}.",
                        crate::rules::report::short_line(line)
                    ));
                }
                claims_out.push(claim(ClaimSubject::DeadPosition, game, &report));
                deciding.extend(["5.2.2", "1.5"].map(String::from));
            }
            Topic::Flag | Topic::Resignation => {
                let sides: Vec<Side> = if intent.side.is_some()
                    || intent.opponent
                    || intent.topic == Topic::Resignation
                {
                    vec![asked_side]
                } else {
                    vec![Side::White, Side::Black]
                };
                let mut parts = Vec::new();
                for s in &sides {
                    let ruling = if intent.topic == Topic::Flag {
                        if *s == Side::White {
                            &report.flag_info.white
                        } else {
                            &report.flag_info.black
                        }
                    } else if *s == Side::White {
                        &report.resignation.white
                    } else {
                        &report.resignation.black
                    };
                    let verdict = match ruling.result.as_deref() {
                        Some("1/2-1/2") => "Draw".to_string(),
                        Some("1-0") => "White wins (1-0)".to_string(),
                        Some("0-1") => "Black wins (0-1)".to_string(),
                        _ => "Undetermined".to_string(),
                    };
                    parts.push(format!("{verdict}: {}.", ruling.reason));
                    if intent.topic == Topic::Flag {
                        claims_out.push(claim(
                            ClaimSubject::FlagResult { flagged: *s },
                            game,
                            &report,
                        ));
                    }
                }
                lead = match &report.outcome {
                    // One sentence, not one per side: after the end of the game neither a flag
                    // nor a resignation changes the result.
                    Some(o) => format!(
                        "The game is already over: {}. {} afterwards changes nothing ({}).",
                        o.explanation,
                        if intent.topic == Topic::Flag {
                            "A flag falling"
                        } else {
                            "Resigning"
                        },
                        if intent.topic == Topic::Flag {
                            "6.9"
                        } else {
                            "5.1.2"
                        },
                    ),
                    None => parts.join(" "),
                };
                deciding.push(
                    if intent.topic == Topic::Flag {
                        "6.9"
                    } else {
                        "5.1.2"
                    }
                    .into(),
                );
                if intent.topic == Topic::Flag {
                    deciding.push("A.5.3".into());
                }
                if let Some(o) = &report.outcome {
                    deciding.push(o.article.into());
                    let ended_by = match o.article {
                        "5.1.1" => Some(ClaimSubject::Checkmate),
                        "5.2.1" => Some(ClaimSubject::Stalemate),
                        "5.2.2" => Some(ClaimSubject::DeadPosition),
                        "9.6.1" => Some(ClaimSubject::Fivefold),
                        "9.6.2" => Some(ClaimSubject::SeventyFive),
                        _ => None,
                    };
                    claims_out.extend(ended_by.map(|subject| claim(subject, game, &report)));
                }
            }
            Topic::Repetition | Topic::FiftyMoves
                if report
                    .outcome
                    .as_ref()
                    .is_some_and(|o| matches!(o.article, "5.1.1" | "5.2.1")) =>
            {
                let o = report.outcome.as_ref().expect("checked above");
                lead = format!(
                    "The game is already over: {}. A checkmate or stalemate ends the game at once, before any repetition or move-count rule is applied; a mate stands even when it comes on the seventy-fifth move (9.6.2).",
                    o.explanation
                );
                claims_out.push(claim(ClaimSubject::Checkmate, game, &report));
                claims_out.push(claim(ClaimSubject::Stalemate, game, &report));
                if intent.topic == Topic::FiftyMoves {
                    claims_out.push(claim(ClaimSubject::SeventyFive, game, &report));
                } else {
                    claims_out.push(claim(ClaimSubject::Fivefold, game, &report));
                }
                deciding.extend([o.article, "9.6.2"].map(String::from));
            }
            Topic::Repetition
                if question.to_lowercase().contains("fivefold")
                    || question.to_lowercase().contains("five times")
                    || question.contains("5fold") =>
            {
                let r = &report.repetition;
                lead = if r.fivefold {
                    format!("Yes: {}", r.reason)
                } else {
                    format!(
                        "No: the position has occurred {} time{} so far; the game ends by itself only when the same position appears for the fifth time (9.6.1). {}",
                        r.count,
                        if r.count == 1 { "" } else { "s" },
                        capitalise_first(&r.reason)
                    )
                };
                claims_out.push(claim(ClaimSubject::Fivefold, game, &report));
                claims_out.push(claim(ClaimSubject::ThreefoldClaim, game, &report));
                deciding.push("9.6.1".into());
                deciding.extend(r.articles.iter().map(|a| a.to_string()));
            }
            Topic::Repetition => {
                let r = &report.repetition;
                let can = r.threefold_now || !r.threefold_by_move.is_empty();
                lead = if r.fivefold {
                    format!("The game is already drawn: {}", r.reason)
                } else if can {
                    format!("Yes, {} can claim a draw: {}", report.turn, r.reason)
                } else {
                    format!("No threefold claim is available now: {}", r.reason)
                };
                claims_out.push(claim(ClaimSubject::ThreefoldClaim, game, &report));
                claims_out.push(claim(ClaimSubject::Fivefold, game, &report));
                deciding.extend(r.articles.iter().map(|a| a.to_string()));
            }
            Topic::FiftyMoves => {
                let f = &report.fifty_moves;
                let can = f.claim_now || !f.claim_by_move.is_empty();
                lead = if f.seventy_five {
                    format!("The game is already drawn: {}", f.reason)
                } else if can {
                    format!("Yes, {} can claim a draw: {}", report.turn, f.reason)
                } else {
                    format!("No fifty-move claim is available now: {}", f.reason)
                };
                claims_out.push(claim(ClaimSubject::FiftyMoveClaim, game, &report));
                claims_out.push(claim(ClaimSubject::SeventyFive, game, &report));
                deciding.extend(f.articles.iter().map(|a| a.to_string()));
            }
            Topic::MoveLegality | Topic::General => {
                // No specific position topic: summarise the state and answer from the rulebook.
                let state = match &report.outcome {
                    Some(o) => format!("In this position the game is over: {}.", o.explanation),
                    None => format!(
                        "In this position {} is to move: {}; {} legal moves.",
                        report.turn,
                        report.check.reason,
                        report.legal_moves.len()
                    ),
                };
                lead = if self.domain_word_count(question) == 0 {
                    format!(
                        "I don't know what you are asking about this position. {state} Ask about castling, en passant, check, mate, a draw, the flag or a move's legality."
                    )
                } else {
                    let from_book = hits
                        .first()
                        .map(|h| first_sentences(&self.book.passages[h.passage].text, 2))
                        .unwrap_or_default();
                    format!("{state} {from_book}")
                };
                claims_out.push(claim(ClaimSubject::InCheck, game, &report));
                claims_out.push(claim(ClaimSubject::Checkmate, game, &report));
                claims_out.push(claim(ClaimSubject::Stalemate, game, &report));
                if let Some(o) = &report.outcome {
                    deciding.push(o.article.into());
                }
            }
        }
        let mut answer = lead.trim().to_string();
        for d in detail {
            answer.push(' ');
            answer.push_str(&d);
        }
        if !report.warnings.is_empty() {
            answer.push_str(&format!(" (Input note: {}.)", report.warnings.join("; ")));
        }
        let citations = self.citations(&deciding, &answer, hits);
        marks.sort();
        marks.dedup();
        Answer {
            answer,
            citations,
            claims: claims_out,
            position: Some(report),
            topic: intent.topic.name().into(),
            basis: Basis::Position,
            marks,
            confidence: 1.0,
        }
    }
}

fn other(s: Side) -> Side {
    if s == Side::White {
        Side::Black
    } else {
        Side::White
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if !s.starts_with("the ") => f.to_lowercase().collect::<String>() + c.as_str(),
        Some(f) => f.to_string() + c.as_str(),
        None => String::new(),
    }
}

/// The first `n` sentences of a text.
pub fn first_sentences(text: &str, n: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let mut count = 0;
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        out.push(*c);
        if matches!(c, '.' | '?' | '!') && chars.get(i + 1).is_none_or(|n| *n == ' ') {
            // Not a sentence end inside "e.p." or an article number.
            let prev = if i > 0 { chars[i - 1] } else { ' ' };
            if *c == '.'
                && (prev.is_ascii_digit() && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit())
                    || out.ends_with("e.p.")
                    || out.ends_with("e.g.")
                    || out.ends_with("i.e."))
            {
                continue;
            }
            count += 1;
            if count >= n {
                break;
            }
        }
    }
    out.trim().to_string()
}
