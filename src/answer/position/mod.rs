//! Position rulings: a question about a position, read against the checker's report, becomes a
//! decision, the sentences behind it, the claims it rests on, the deciding articles and the
//! squares worth marking.
//!
//! [`PositionAsk`] is everything a ruling may look at: the question and its frame, who the
//! question is about (resolved to colours by [`actors`]), the moves it says were already played
//! ([`played`]), the game after them and its report. Each kind of ruling is one module behind
//! the [`PositionRuling`] trait; [`RULINGS`] lists them in the order they are tried, the general
//! one last. A new kind of question is a new module and a line in that list.
//!
//! A ruling states no position fact without its claim: every claim comes from
//! [`claims::claim`](super::claims::claim), the function `verify` re-checks with.

pub mod actors;
mod castling;
mod check_mate_stalemate;
mod dead_position;
pub mod described;
pub mod disputed_move;
mod draw_claim;
mod en_passant;
mod fifty_moves;
pub(crate) mod flag;
mod general;
mod last_move;
mod legality;
mod notation;
pub mod other_side;
pub mod played;
mod promotion;
mod repetition;
mod resignation;
mod touch_order;
mod touched_to_castle;
mod turn;

use crate::rulebook::Rulebook;
use crate::rules::{Game, Report};

use super::claims::{Claim, ClaimSubject, Side, claim, side_to_move};
use super::frame::Frame;
use super::intent::Topic;
use actors::Actors;
use played::Played;

/// A question about a position, with everything a ruling needs to answer it.
pub struct PositionAsk<'a> {
    pub question: &'a str,
    /// The question in lower case with straight apostrophes, padded with a space each side.
    pub lower: String,
    pub frame: &'a Frame,
    /// The topic, once a move the question reports as played no longer counts as tested.
    pub topic: Topic,
    /// The move the question asks about ("is Nxe5 legal?"), not one it says was played.
    pub tested_move: Option<String>,
    /// The history's last move when it was illegal: the game stops before it, and the
    /// question is taken to be about it.
    pub disputed: Option<String>,
    /// The game ruled on: the history given plus any move the question says was played.
    pub game: &'a Game,
    pub report: &'a Report,
    pub actors: Actors,
    pub played: &'a Played,
    pub book: &'a Rulebook,
    /// The rulebook's answer to the question as prose, for the general ruling.
    pub reading: LazyReading<'a>,
    /// How many words of the question are chess-rules words.
    pub domain_words: usize,
}

impl PositionAsk<'_> {
    /// The side to move in the position ruled on.
    pub fn mover(&self) -> Side {
        side_to_move(self.game)
    }

    /// The checker's claim about this position.
    pub fn claim(&self, subject: ClaimSubject) -> Claim {
        claim(subject, self.game, self.report)
    }

    /// Whether the question contains any of these (lower-case) phrases.
    pub fn mentions(&self, phrases: &[&str]) -> bool {
        phrases.iter().any(|p| self.lower.contains(p))
    }

    /// Whether the rulebook reads the question as about conduct, the clock or the arbiter
    /// rather than the board ("My phone rang. Do I lose?"): a ruling outside Articles 1, 2, 3,
    /// 5 and 9 decides it, so the board's state must not answer "do I lose?". A game over on
    /// the board, or a move the question names, keeps the board deciding.
    pub fn reads_off_the_board(&self) -> bool {
        const BOARD: &[&str] = &["1.", "2.", "3.", "5.", "9."];
        let board_named = self.report.outcome.is_some()
            || self.tested_move.is_some()
            || !self.played.moves.is_empty();
        !board_named
            && self
                .reading
                .get()
                .and_then(|r| r.articles.first())
                .is_some_and(|a| !BOARD.iter().any(|b| a.starts_with(b)))
    }

    /// Whether the story tells of a draw the players agreed or offered ("1.e4 e5 2.Nf3 - draw
    /// agreed. Can arbiters allow such a quick draw?"): the question is about the agreement,
    /// which the rulebook decides, not about what the position allows.
    pub fn tells_of_a_draw_agreement(&self) -> bool {
        self.mentions(&[
            "draw agreed",
            "agreed a draw",
            "agreed to a draw",
            "agreed the draw",
            "agreed draw",
            "agree a draw",
            "agree to a draw",
            "draw was agreed",
            "draw offer",
            "offered a draw",
            "offer a draw",
            "offers a draw",
            "accepted a draw",
            "accepted the draw",
            "quick draw",
            "short draw",
        ])
    }

    /// Whether the question asks for the result or whether play goes on ("do I win?", "who
    /// wins?", "is it a draw?", "do we have to keep playing?").
    pub fn asks_result(&self) -> bool {
        matches!(
            self.frame.kind,
            super::frame::QuestionKind::Result | super::frame::QuestionKind::ResultYesNo
        ) || self.mentions(RESULT_WORDS)
            || self.asks_to_play_on()
    }

    /// "Do we have to keep playing?", "must the game go on?".
    pub fn asks_to_play_on(&self) -> bool {
        self.mentions(&[
            "keep playing",
            "play on",
            "continue",
            "carry on",
            "go on",
            "still play",
            "stop playing",
            "still on",
            "still going",
        ])
    }
}

/// Words that say a piece was touched, for the touch-move rulings ("touch-move" itself is not
/// one: it names the rule, not a touch).
const TOUCH_WORDS: &[&str] = &[
    "touched",
    "touches",
    "touching",
    "i touch ",
    "picked up",
    "pick up",
    "grabbed",
    "took hold",
];

/// Where the question first says a piece was touched.
fn first_touch(lower: &str) -> Option<usize> {
    TOUCH_WORDS.iter().filter_map(|w| lower.find(w)).min()
}

const RESULT_WORDS: &[&str] = &[
    "who wins",
    "who won",
    "do i win",
    "did i win",
    "do i lose",
    "did i lose",
    "does he win",
    "does she win",
    "did he win",
    "is it a draw",
    "is this a draw",
    "is that a draw",
    "draw?",
    "drawn?",
    " won?",
    " win?",
    " lost?",
    " lose?",
    "the result",
    "can't move",
    "cannot move",
    "can not move",
    "has no move",
    "no moves",
    "no legal move",
    "is it over",
    "game over",
];

/// The rulebook's answer to a question, read as if it came without a position.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The matched rulings' paragraphs.
    pub text: String,
    /// Their deciding articles, the first leading.
    pub articles: Vec<String>,
}

/// A [`Reading`] made only when a ruling asks for it (a ruling match costs about 150 µs, and
/// most position questions are decided by the checker alone), and then only once.
pub struct LazyReading<'a> {
    read: &'a dyn Fn() -> Option<Reading>,
    done: std::cell::OnceCell<Option<Reading>>,
}

impl<'a> LazyReading<'a> {
    pub fn new(read: &'a dyn Fn() -> Option<Reading>) -> LazyReading<'a> {
        LazyReading {
            read,
            done: std::cell::OnceCell::new(),
        }
    }

    /// The reading, made on the first call.
    pub fn get(&self) -> Option<&Reading> {
        self.done.get_or_init(|| (self.read)()).as_ref()
    }
}

/// What a ruling decides: the decision sentence first, then the detail, with the claims the
/// text rests on, the deciding articles (the first leads the citations) and squares to mark.
#[derive(Debug, Default, Clone)]
pub struct Ruled {
    pub decision: String,
    pub detail: Vec<String>,
    pub claims: Vec<Claim>,
    pub deciding: Vec<String>,
    pub marks: Vec<String>,
    /// The text already says how the game ended, so no "the game is already over" note is due.
    pub tells_outcome: bool,
}

impl Ruled {
    /// A ruling with its decision sentence.
    pub fn new(decision: impl Into<String>) -> Ruled {
        Ruled {
            decision: decision.into(),
            ..Ruled::default()
        }
    }

    /// Adds a claim once (the first of equal subjects stays). A value the checker left open
    /// (`null`: the solver ran out of time) states nothing, so it is not a claim.
    pub fn claim(&mut self, c: Claim) {
        if c.value.is_null() {
            return;
        }
        if !self.claims.iter().any(|x| x.subject == c.subject) {
            self.claims.push(c);
        }
    }

    pub fn cite<S: Into<String>>(&mut self, articles: impl IntoIterator<Item = S>) {
        self.deciding.extend(articles.into_iter().map(Into::into));
    }
}

/// One kind of position ruling.
pub trait PositionRuling: Sync {
    /// The topic an answer from this ruling reports (`Answer::topic`).
    fn topic(&self) -> &'static str;
    /// Whether this ruling answers the question.
    fn applies(&self, ask: &PositionAsk) -> bool;
    /// The ruling.
    fn rule(&self, ask: &PositionAsk) -> Ruled;
}

/// The rulings in the order they are tried; the general one applies to everything.
pub static RULINGS: &[&dyn PositionRuling] = &[
    &disputed_move::DisputedMove,
    &last_move::LastMove,
    &turn::Turn,
    &flag::Flag,
    &resignation::Resignation,
    &repetition::Repetition,
    &fifty_moves::FiftyMoves,
    &draw_claim::DrawClaim,
    &notation::Notation,
    &touched_to_castle::TouchedToCastle,
    &castling::Castling,
    &en_passant::EnPassant,
    &promotion::Promotion,
    &dead_position::DeadPosition,
    &check_mate_stalemate::CheckMateStalemate,
    &legality::Legality,
    &touch_order::TouchOrder,
    &general::General,
];

/// The side to move's legal moves that `keep` selects (castling left out), at most `limit`,
/// in SAN, each stated with its claim: the moves a touch-move ruling quotes.
pub fn quoted_moves(
    ask: &PositionAsk,
    ruled: &mut Ruled,
    limit: usize,
    keep: impl Fn(&shakmaty::Move) -> bool,
) -> Vec<String> {
    use shakmaty::Position;
    let pos = ask.game.current();
    let moves: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| !m.is_castle() && keep(m))
        .take(limit)
        .map(|m| crate::rules::notation::san_plus(pos, m))
        .collect();
    for mv in &moves {
        ruled.claim(ask.claim(ClaimSubject::LegalMove { mv: mv.clone() }));
    }
    moves
}

/// A clause as a sentence: capitalised, one full stop at the end.
pub fn sentence(text: &str) -> String {
    crate::text::capitalise_first(text.trim_end_matches('.')) + "."
}

/// The first ruling that applies.
pub fn ruling_for(ask: &PositionAsk) -> &'static dyn PositionRuling {
    RULINGS
        .iter()
        .copied()
        .find(|r| r.applies(ask))
        .unwrap_or(&general::General)
}

/// A draw claim asked about a game that has already ended (mate, stalemate, a dead
/// position) is moot: the end leads the answer and its article the citations ("After Kxd2
/// the position is dead, yet lichess makes us play on to a repetition or fifty moves"). A
/// decision that play goes on, in a game another rule has ended (seventy-five moves,
/// fivefold), gives way to that end.
pub fn lead_with_the_end(ask: &PositionAsk, ruled: &mut Ruled) {
    let claims_a_draw = matches!(
        ask.topic,
        Topic::Repetition | Topic::FiftyMoves | Topic::DrawClaim
    );
    let says_play_goes_on = PLAY_GOES_ON.iter().any(|p| ruled.decision.contains(p));
    let Some(end) = ask
        .report
        .outcome
        .as_ref()
        .filter(|_| claims_a_draw || says_play_goes_on)
    else {
        return;
    };
    if ruled.tells_outcome {
        return;
    }
    let moot = if says_play_goes_on {
        ruled.detail.clear();
        String::new()
    } else {
        format!(" {}", ruled.decision)
    };
    ruled.decision = format!(
        "The game is already over — {}.{moot}",
        end.explanation.trim_end_matches('.'),
    );
    ruled.deciding.insert(0, end.article.to_string());
    ruled.tells_outcome = true;
}

/// How a ruling's decision says that the game is not over.
const PLAY_GOES_ON: &[&str] = &["play goes on", "the game goes on", "the game continues"];

/// The answer text: the decision, its detail, then notes (a move the question reported that
/// was played here, a game already over, remarks on the input).
pub fn compose(ask: &PositionAsk, ruled: &Ruled) -> String {
    let mut text = open_question_opening(ask, ruled.decision.trim());
    for d in &ruled.detail {
        push_sentence(&mut text, d);
    }
    for n in &ask.played.notes {
        push_sentence(&mut text, n);
    }
    if ask.report.checkmate
        && asks_why_it_is_mate(ask)
        && let Some(why) = crate::rules::mate::flight_squares_covered(ask.game.current())
    {
        push_sentence(&mut text, &why);
    }
    if let Some(o) = &ask.report.outcome
        && !ruled.tells_outcome
    {
        push_sentence(
            &mut text,
            &format!("Note: the game is already over — {}.", o.explanation),
        );
    }
    if !text.ends_with(['.', '!', '?']) {
        text.push('.');
    }
    if !ask.report.warnings.is_empty() {
        push_sentence(
            &mut text,
            &format!("(Input note: {}.)", ask.report.warnings.join("; ")),
        );
    }
    text
}

/// A question that opens with "why" is not answered "Yes, …" or "No: …": the decision after
/// the bare word stays ("Why was this a draw?" — "White can claim a draw now: …"), unless it
/// opens with a move, whose letters are not a sentence's to capitalise ("gxf8=N+ is legal").
fn open_question_opening(ask: &PositionAsk, decision: &str) -> String {
    let asks_why = ask.lower.trim_start().starts_with("why ");
    match crate::answer::polarity::bare_yes_or_no(decision) {
        Some((_, _, rest)) if asks_why && opens_with_a_word(rest) => {
            crate::text::capitalise_first(rest)
        }
        _ => decision.to_string(),
    }
}

/// Whether a text opens with an ordinary word (two letters or more), not a move or a square.
fn opens_with_a_word(text: &str) -> bool {
    let first = text.split([' ', ':', ',']).next().unwrap_or_default();
    first.len() >= 2 && first.chars().all(|c| c.is_alphabetic() || c == '\'')
}

/// Whether a question about a mate asks why the king cannot get away ("why is this mate?",
/// "doesn't the pinned knight …", "can't the king take it?").
fn asks_why_it_is_mate(ask: &PositionAsk) -> bool {
    ask.mentions(&[
        "why",
        "how is",
        "how come",
        "pinned",
        "protect",
        "defend",
        "guard",
        "explain",
        "don't get",
        "dont get",
        "don't understand",
        "escape",
        "get away",
    ])
}

fn push_sentence(text: &mut String, sentence: &str) {
    let s = sentence.trim();
    if s.is_empty() {
        return;
    }
    if !text.is_empty() {
        if !text.ends_with(['.', '!', '?']) && !text.ends_with(".)") {
            text.push('.');
        }
        text.push(' ');
    }
    text.push_str(s);
}

/// "White" / "Black".
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// "White wins (1-0)", "It is a draw (½-½)"… for a result string.
pub fn result_words(result: Option<&str>) -> &'static str {
    match result {
        Some("1-0") => "White wins (1-0)",
        Some("0-1") => "Black wins (0-1)",
        Some("1/2-1/2") => "It is a draw",
        _ => "The result is undetermined",
    }
}

/// The winner a result string names, if any.
pub fn winner_of(result: &str) -> Option<Side> {
    match result {
        "1-0" => Some(Side::White),
        "0-1" => Some(Side::Black),
        _ => None,
    }
}

pub use crate::text::lower_first;

/// The claims that say how a finished game ended (mate, stalemate, dead position, fivefold,
/// seventy-five moves), for rulings that state the outcome.
/// When mate or stalemate has already ended the game, a repetition or move-count question is
/// answered by that: `rules` names the rules it comes before ("any repetition or move-count
/// rule"), `automatic` is the automatic draw the question is about (fivefold, 75 moves).
pub fn ended_by_mate_or_stalemate(
    ask: &PositionAsk,
    rules: &str,
    automatic: ClaimSubject,
) -> Option<Ruled> {
    let o = ask
        .report
        .outcome
        .as_ref()
        .filter(|o| matches!(o.article, "5.1.1" | "5.2.1"))?;
    let mut r = Ruled::new(format!(
        "The game is already over: {}. A checkmate or stalemate ends the game at once, before {rules}.",
        o.explanation
    ));
    for s in [ClaimSubject::Checkmate, ClaimSubject::Stalemate, automatic] {
        r.claim(ask.claim(s));
    }
    r.cite([o.article, "9.6.2"]);
    r.tells_outcome = true;
    Some(r)
}

pub fn outcome_claims(ask: &PositionAsk, ruled: &mut Ruled) {
    let Some(o) = &ask.report.outcome else {
        return;
    };
    let subject = match o.article {
        "5.1.1" => ClaimSubject::Checkmate,
        "5.2.1" => ClaimSubject::Stalemate,
        "5.2.2" => ClaimSubject::DeadPosition,
        "9.6.1" => ClaimSubject::Fivefold,
        "9.6.2" => ClaimSubject::SeventyFive,
        _ => return,
    };
    ruled.claim(ask.claim(subject));
}

/// Whether the result answers the question with a yes or a no: "is it a draw?", "do I win?",
/// "does he win?" (the asker's colour given), or `None` when the question is not of that form,
/// or offers alternatives ("do I win, or is it a draw?"), which the result answers by itself.
pub fn answers_whether(ask: &PositionAsk, result: &str, asker: Option<Side>) -> Option<bool> {
    let draw_asked = ask.mentions(&[
        "is it a draw",
        "is this a draw",
        "is that a draw",
        "a draw?",
        "drawn?",
    ]);
    let win_asked = ask.mentions(&[
        "do i win",
        "did i win",
        "can i win",
        "i win?",
        "i won?",
        "have i won",
    ]);
    let lose_asked = ask.mentions(&[
        "do i lose",
        "did i lose",
        "i lose?",
        "i lost?",
        "have i lost",
        "does he win",
        "does she win",
        "did he win",
        "did she win",
        "does my opponent win",
        "he win?",
        "she win?",
    ]);
    let alternatives = [draw_asked, win_asked, lose_asked]
        .iter()
        .filter(|&&asked| asked)
        .count()
        > 1
        || ask.mentions(&[
            "win or",
            "or a draw",
            "or draw",
            "or is it a draw",
            "or lose",
        ]);
    if alternatives {
        return None;
    }
    if draw_asked {
        return Some(result == "1/2-1/2");
    }
    let winner = winner_of(result);
    let asker = asker?;
    if win_asked {
        Some(winner == Some(asker))
    } else if lose_asked {
        Some(winner == Some(asker.other()))
    } else {
        None
    }
}

/// "Yes: " / "No: " before a sentence, when the question asked yes or no.
pub fn yes_no(answer: Option<bool>, sentence: &str) -> String {
    match answer {
        Some(true) => format!("Yes: {}", lower_first(sentence)),
        Some(false) => format!("No: {}", lower_first(sentence)),
        None => sentence.to_string(),
    }
}
