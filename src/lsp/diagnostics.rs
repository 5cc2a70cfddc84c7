//! What is wrong with each game of a PGN, as findings on byte spans: illegal, ambiguous and
//! unreadable moves, wrong check and mate signs, moves after the game ended, results that the
//! final position contradicts, and the draw claims that became available on the way.
//!
//! Every ply is checked cheaply with shakmaty (legality, check, mate, stalemate, repetition by
//! the FIDE identity of 9.2.3, the 50/75-move clock, insufficient material); the helpmate
//! solver runs only at the end of a game, for dead positions (5.2.2) and for results a side
//! could not have won. Findings are cached per game (keyed by the game's text), so an edit
//! re-checks only the game it touched.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, Move, MoveList, Position};

use super::movetext::{GameText, MoveToken, PgnText, Severity, Span, is_result, normalise_result};
use crate::rules::RulesError;
use crate::rules::describe::{capitalised, role_name};
use crate::rules::ending::{self, Ending, ending_by_rule};
use crate::rules::game::move_number;
use crate::rules::legality::{MoveRejection, RejectionKind};
use crate::rules::notation::{move_with_capture_mark_flipped, normalise_san, resolve_move};
use crate::rules::repetition::{PositionTally, fifty_completing_moves};
use crate::rules::winnability::{SolverBudget, winnability};

/// One thing to tell the user about a span of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub span: Span,
    pub severity: Severity,
    pub message: String,
    /// The deciding article (the diagnostic's code), when a rule decides it.
    pub article: Option<String>,
    /// What the finding is about; published as the diagnostic's `data.kind`.
    pub kind: FindingKind,
}

/// What a [`Finding`] is about; serialized in `snake_case` (the diagnostic's `data.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// The PGN text cannot be parsed there.
    Syntax,
    /// The game is a variant other than chess (or Chess960), so it is not checked.
    Variant,
    /// A note on, or a refusal of, the `[FEN]` start position.
    Fen,
    /// A move that cannot be read as a move (Appendix C).
    Notation,
    /// A move more than one piece can make as written (C.10).
    Ambiguous,
    /// A move that is not legal in the position.
    IllegalMove,
    /// A capture mark missing or wrongly written; the move is still clear (C.9).
    CaptureMark,
    /// A check or mate sign that does not fit the position.
    CheckSign,
    /// A move played after the game had already ended.
    AfterEnd,
    /// A recorded result that does not fit the end of the game.
    Result,
    /// A `[Result]` tag that disagrees with the result in the movetext.
    ResultTag,
    /// A draw a player may claim (threefold repetition, fifty moves).
    Claim,
    /// The checker itself failed on this game.
    Internal,
}

impl Finding {
    fn new(
        span: Span,
        severity: Severity,
        kind: FindingKind,
        article: Option<&str>,
        message: String,
    ) -> Finding {
        Finding {
            span,
            severity,
            message,
            article: article.map(str::to_string),
            kind,
        }
    }
}

/// The start of a game: the position, the castling rules, and notes about the FEN.
#[derive(Debug, Clone)]
pub struct Start {
    pub pos: Chess,
    pub mode: CastlingMode,
    pub warnings: Vec<Finding>,
}

/// Reads the `[Variant]`, `[FEN]` and `[SetUp]` tags with the shared PGN reader's
/// [`crate::rules::pgn::start_position`]: Chess960 comes from the variant tag or from
/// X-FEN/Shredder castling letters in the FEN; any other variant is not checked.
pub fn start_position(game: &GameText) -> Result<Start, Finding> {
    let variant = game.tag("Variant");
    let fen = game.tag("FEN");
    match crate::rules::pgn::start_position(
        variant.map(|t| t.value.as_str()),
        fen.map(|t| t.value.as_str()),
    ) {
        Ok(start) => {
            let span = fen.map(|t| t.value_span.clone()).unwrap_or_default();
            let warnings = start
                .warnings
                .into_iter()
                .map(|n| {
                    let article = if n.contains("3.8.2.1") {
                        Some("3.8.2.1")
                    } else if n.contains("3.7.3.1") {
                        Some("3.7.3.1")
                    } else {
                        None
                    };
                    Finding::new(
                        span.clone(),
                        Severity::Warning,
                        FindingKind::Fen,
                        article,
                        n,
                    )
                })
                .collect();
            Ok(Start {
                pos: start.pos,
                mode: start.mode,
                warnings,
            })
        }
        Err(crate::rules::pgn::StartError::NotStandard { .. }) => {
            let tag = variant.expect("only a variant tag makes a game not standard");
            Err(Finding::new(
                tag.value_span.clone(),
                Severity::Information,
                FindingKind::Variant,
                None,
                format!(
                    "the variant {:?} is not chess under the FIDE Laws, so this game is not checked",
                    tag.value
                ),
            ))
        }
        Err(crate::rules::pgn::StartError::Fen(e)) => {
            let article = matches!(e, RulesError::IllegalPosition { .. }).then_some("3.10.3");
            Err(Finding::new(
                fen.map(|t| t.value_span.clone()).unwrap_or_default(),
                Severity::Error,
                FindingKind::Fen,
                article,
                format!("the FEN tag cannot be used: {e}"),
            ))
        }
    }
}

/// "12. Nf3" or "12...Nf6": the move as a scoresheet would show it.
pub fn label(pos: &Chess, raw: &str) -> String {
    let number = move_number(pos);
    if pos.turn() == Color::White {
        format!("{number} {raw}")
    } else {
        format!("{number}{raw}")
    }
}

/// Splits the check/mate sign off a move: ("Qh5", "#").
pub fn split_sign(raw: &str) -> (&str, &str) {
    let body = raw.trim_end_matches(['+', '#']);
    (body, &raw[body.len()..])
}

/// The article numbers of Appendix C as the rulebook (and FIDE) number them: ambiguity is
/// C.10, capture marks C.9.
fn appendix_c_article(rej: &MoveRejection) -> Vec<String> {
    rej.articles
        .iter()
        .map(|a| match (rej.kind, a.as_str()) {
            (RejectionKind::Ambiguous, "C.9") => "C.10".to_string(),
            (RejectionKind::NotACapture, "C.6") => "C.9".to_string(),
            _ => a.clone(),
        })
        .collect()
}

fn rejection_finding(rej: &MoveRejection, span: &Span, label: &str) -> Finding {
    let articles = appendix_c_article(rej);
    if rej.kind == RejectionKind::Notation && articles.iter().all(|a| a == "C.1") {
        return Finding::new(
            span.clone(),
            Severity::Error,
            FindingKind::Notation,
            Some("C"),
            format!("{label} cannot be read as a move: {}", rej.reason),
        );
    }
    let article = articles.first().cloned().unwrap_or_else(|| "3.10.2".into());
    let (kind, mut message) = if rej.kind == RejectionKind::Ambiguous {
        (
            FindingKind::Ambiguous,
            format!("{label} {}", rej.reason.replace("(C.9)", "(C.10)")),
        )
    } else {
        (
            FindingKind::IllegalMove,
            format!("{label} is illegal: it {}", rej.reason),
        )
    };
    if !message.contains(article.as_str()) {
        message.push_str(&format!(" ({article})"));
    }
    Finding {
        span: span.clone(),
        severity: Severity::Error,
        message,
        article: Some(article),
        kind,
    }
}

/// A move written with a wrong capture mark ("Nxf3" onto an empty square, "Bc6" taking a
/// piece): the move is still clear, so the game goes on with a note.
fn capture_mark(pos: &Chess, raw: &str, span: &Span, label: &str) -> Option<(Move, Finding)> {
    let tidy = normalise_san(raw)?;
    let written = San::from_ascii(tidy.as_bytes()).ok()?;
    let m = move_with_capture_mark_flipped(pos, &written)?;
    let (capture, to) = (matches!(written, San::Normal { capture: true, .. }), m.to());
    let proper = San::from_move(pos, m).to_string();
    let finding = if capture {
        Finding::new(
            span.clone(),
            Severity::Warning,
            FindingKind::CaptureMark,
            Some("C.9"),
            format!(
                "{label} is written as a capture, but {to} is empty: the move is {proper}, without x (C.9)"
            ),
        )
    } else {
        let taken = m.capture().map(role_name).unwrap_or("piece");
        Finding::new(
            span.clone(),
            Severity::Information,
            FindingKind::CaptureMark,
            Some("C.9"),
            format!(
                "{label} captures the {taken} on {to}: PGN marks every capture with x ({proper}); a FIDE scoresheet may leave it out (C.9, C.13.3)"
            ),
        )
    };
    Some((m, finding))
}

/// The legal move `raw` denotes, with a note when its notation is off; or the finding that
/// explains why it is not a legal move (the checker's reason and article).
pub fn resolve(
    pos: &Chess,
    raw: &str,
    mode: CastlingMode,
    span: &Span,
    label: &str,
) -> Result<(Move, Option<Finding>), Finding> {
    let (body, _) = split_sign(raw);
    if let Ok(san) = San::from_ascii(body.as_bytes())
        && let Ok(m) = san.to_move(pos)
    {
        return Ok((m, None));
    }
    // The checker accepts a capture written without x (or with a stray x); the editor still
    // notes it, so that PGN stays clean.
    if let Some((m, f)) = capture_mark(pos, raw, span, label) {
        return Ok((m, Some(f)));
    }
    match resolve_move(pos, raw, mode) {
        Ok(m) => Ok((m, None)),
        Err(rej) => Err(rejection_finding(&rej, span, label)),
    }
}

fn sign_finding(
    raw: &str,
    label: &str,
    span: &Span,
    pos: &Chess,
    legal: &MoveList,
    check: bool,
) -> Option<Finding> {
    let (_, sign) = split_sign(raw);
    let mate = check && legal.is_empty();
    let says_mate = sign.contains('#') || sign == "++";
    let says_check = !says_mate && sign.contains('+');
    let warn = |article: &str, message: String| {
        Some(Finding::new(
            span.clone(),
            Severity::Warning,
            FindingKind::CheckSign,
            Some(article),
            message,
        ))
    };
    if says_mate && !mate {
        if check {
            let reply = legal
                .first()
                .map(|m| label_san(pos, *m))
                .unwrap_or_default();
            return warn(
                "C.13.5",
                format!(
                    "{label} is marked as mate, but it is only check: {} can answer {reply} (5.1.1, C.13.5)",
                    capitalised(pos.turn())
                ),
            );
        }
        return warn(
            "C.13.5",
            format!("{label} is marked as mate, but it gives no check at all (C.13.5)"),
        );
    }
    if says_check && !check {
        return warn(
            "C.13.4",
            format!("{label} is marked as check, but it gives no check (C.13.4, 3.9.1)"),
        );
    }
    if mate && !says_mate {
        return warn(
            "C.13.5",
            format!("{label} is checkmate: mark it with # (C.13.5); the game ends with it (5.1.1)"),
        );
    }
    None
}

fn label_san(pos: &Chess, m: Move) -> String {
    label(pos, &San::from_move(pos, m).to_string())
}

fn can_mate(pos: &Chess, mode: CastlingMode, color: Color, budget: SolverBudget) -> Option<bool> {
    winnability(pos, mode, color, budget).decided()
}

/// The state of the final position, for checking the written result.
enum Verdict {
    Over(Ending),
    Open {
        white_can_mate: Option<bool>,
        black_can_mate: Option<bool>,
    },
}

/// Checks one game; spans are offsets into `text`.
pub fn analyse_game(text: &str, game: &GameText, budget: SolverBudget) -> Vec<Finding> {
    let start = match start_position(game) {
        Ok(s) => s,
        Err(f) => return vec![f],
    };
    let mut walk = Walk::new(text, game, start);
    // A move that is not legal leaves no final position to check the result against.
    if walk.run() {
        let verdict = walk.verdict(budget);
        check_results(game, &verdict, &mut walk.out);
    }
    walk.out
}

/// The walk through a game's main line, ply by ply, with the findings made on the way and
/// what the hints and the final verdict need: every position so far, repetitions since the
/// last irreversible move, and which claims the user has already been told of.
struct Walk<'a> {
    text: &'a str,
    game: &'a GameText,
    mode: CastlingMode,
    pos: Chess,
    /// `history[k]` is the position after ply `k` (0: the start position).
    history: Vec<Chess>,
    /// Occurrences of each position since the last irreversible move.
    tally: PositionTally,
    /// Whether each side (indexed by colour) could claim threefold repetition after the
    /// previous ply: a hint is given when a claim becomes available, not again while it stays.
    threefold_claimable: [bool; 2],
    /// Whether the 9.3.1 and the 9.3.2 hint were given since the clock last fell below 99.
    fifty_hinted: (bool, bool),
    /// The ending by rule the walk has reached, if any: a move after it is reported.
    ending: Option<Ending>,
    out: Vec<Finding>,
}

impl<'a> Walk<'a> {
    /// A walk standing at the start position (which may itself already be an ending, as a
    /// mate or stalemate set up by FEN), its findings beginning with the FEN's warnings.
    fn new(text: &'a str, game: &'a GameText, start: Start) -> Walk<'a> {
        let pos = start.pos;
        let mut history = Vec::with_capacity(game.moves.len() + 1);
        history.push(pos.clone());
        let tally = PositionTally::starting_at(&pos);
        let ending = ending_by_rule(&pos, &pos.legal_moves(), 1, || None);
        Walk {
            text,
            game,
            mode: start.mode,
            pos,
            history,
            tally,
            threefold_claimable: [false; 2],
            fifty_hinted: (false, false),
            ending,
            out: start.warnings,
        }
    }

    /// Walks the main line to its end or to the first move after an ending by rule (one
    /// diagnostic for the moves after the end; the result is still checked). `false` when a
    /// move cannot be played: its finding is the game's last, as the rest cannot be checked.
    fn run(&mut self) -> bool {
        let (text, game) = (self.text, self.game);
        for tok in &game.moves {
            let MoveToken { span } = tok;
            let raw = &text[span.clone()];
            let label = label(&self.pos, raw);
            if let Some(end) = &self.ending {
                self.out.push(after_end(span, &label, end));
                break;
            }
            match resolve(&self.pos, raw, self.mode, span, &label) {
                Ok((m, note)) => {
                    self.out.extend(note);
                    self.step(m, raw, span, &label);
                }
                Err(f) => {
                    self.out.push(f);
                    return false;
                }
            }
        }
        true
    }

    /// Plays `m` (written `raw` at `span`, labelled `label`), and checks the
    /// position it leaves: its check or mate sign, how often it has occurred, whether the
    /// game ended by rule, and otherwise which draw claims the side to move now has.
    fn step(&mut self, m: Move, raw: &str, span: &Span, label: &str) {
        self.pos.play_unchecked(m);
        let legal = self.pos.legal_moves();
        let check = self.pos.is_check();
        let sign = sign_finding(raw, label, span, &self.pos, &legal, check);
        self.out.extend(sign);
        if m.is_zeroing() {
            self.tally.forget();
        }
        let count = self.tally.count(&self.pos);
        self.history.push(self.pos.clone());
        self.ending = ending_by_rule(&self.pos, &legal, count, || Some(label.to_string()));
        if self.ending.is_some() {
            return;
        }
        self.hint_threefold(span, label, count, &legal);
        self.hint_fifty(span, label, &legal);
    }

    /// Threefold repetition (9.2): a hint when a claim becomes available to the player to
    /// move (now, or by declaring the next move), not again while it stays available.
    fn hint_threefold(&mut self, span: &Span, label: &str, count: u32, legal: &MoveList) {
        let side = capitalised(self.pos.turn());
        let now = count >= 3;
        let by_move = if now {
            Vec::new()
        } else {
            self.sans(self.tally.repeating_moves(&self.pos, legal))
        };
        let claimable = now || !by_move.is_empty();
        let turn = self.pos.turn() as usize;
        if claimable && !self.threefold_claimable[turn] {
            self.out.push(if now {
                Finding::new(
                    span.clone(),
                    Severity::Information,
                    FindingKind::Claim,
                    Some("9.2.2"),
                    format!("After {label} this position has occurred {count} times: {side}, having the move, may claim a draw (9.2.2)"),
                )
            } else {
                Finding::new(
                    span.clone(),
                    Severity::Information,
                    FindingKind::Claim,
                    Some("9.2.1"),
                    format!(
                        "After {label}, {side} may claim a draw by writing {} on the scoresheet and declaring the claim to the arbiter instead of playing it: the position would occur for the third time (9.2.1)",
                        by_move.join(" or ")
                    ),
                )
            });
        }
        self.threefold_claimable[turn] = claimable;
    }

    /// Fifty moves (9.3): a hint when a claim on the board (9.3.2) or by declaring the next
    /// move (9.3.1) becomes available, each once until the clock is reset.
    fn hint_fifty(&mut self, span: &Span, label: &str, legal: &MoveList) {
        let side = capitalised(self.pos.turn());
        let clock = self.pos.halfmoves();
        if clock < 99 {
            self.fifty_hinted = (false, false);
        } else if clock >= 100 {
            if !self.fifty_hinted.1 {
                self.fifty_hinted.1 = true;
                self.out.push(Finding::new(span.clone(), Severity::Information, FindingKind::Claim, Some("9.3.2"), format!(
                    "After {label}, the last 50 moves by each player contain no capture and no pawn move: {side}, having the move, may claim a draw (9.3.2)"
                )));
            }
        } else if !self.fifty_hinted.0 {
            let sans = self.sans(fifty_completing_moves(&self.pos, legal).take(3));
            if !sans.is_empty() {
                self.fifty_hinted.0 = true;
                self.out.push(Finding::new(span.clone(), Severity::Information, FindingKind::Claim, Some("9.3.1"), format!(
                    "After {label}, {side} may claim a draw by writing a move without a capture or a pawn move (such as {}) on the scoresheet and declaring the claim instead of playing it: that move would complete 50 moves by each player without either (9.3.1)",
                    sans.join(", ")
                )));
            }
        }
    }

    /// Moves of the current position in SAN.
    fn sans(&self, moves: impl Iterator<Item = Move>) -> Vec<String> {
        moves
            .map(|m| San::from_move(&self.pos, m).to_string())
            .collect()
    }

    /// The state of the final position: the ending by rule the walk reached, or else the
    /// solver's word on whether each side can still mate (asked once, here).
    fn verdict(&mut self, budget: SolverBudget) -> Verdict {
        match self.ending.take() {
            Some(e) => Verdict::Over(e),
            None => self.open_verdict(budget),
        }
    }

    /// Asks the solver whether each side can still mate in the final position; when neither
    /// can, the position is dead (5.2.2) and the game ended at the first dead position. Black
    /// is not asked when White can mate and no written result says Black won: nothing would
    /// depend on the answer.
    fn open_verdict(&mut self, budget: SolverBudget) -> Verdict {
        let written: Vec<&str> = written_results(self.game)
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let white = can_mate(&self.pos, self.mode, Color::White, budget);
        let black = if white == Some(true) && !written.contains(&"0-1") {
            None
        } else {
            can_mate(&self.pos, self.mode, Color::Black, budget)
        };
        if white == Some(false) && black == Some(false) {
            Verdict::Over(self.first_dead(budget))
        } else {
            Verdict::Open {
                white_can_mate: white,
                black_can_mate: black,
            }
        }
    }

    /// The ending at the first dead position of a game whose final position is dead, found
    /// by bisection (dead positions stay dead); a move played after it is reported.
    fn first_dead(&mut self, budget: SolverBudget) -> Ending {
        let (text, game, history) = (self.text, self.game, &self.history);
        let last = history.len() - 1;
        let lo = ending::first_dead(history, self.mode, budget);
        let last_label =
            (lo > 0).then(|| label(&history[lo - 1], &text[game.moves[lo - 1].span.clone()]));
        let ending = ending::dead_position(last_label.as_deref());
        if lo < last {
            let tok = &game.moves[lo];
            let l = label(&history[lo], &text[tok.span.clone()]);
            self.out.push(after_end(&tok.span, &l, &ending));
        }
        ending
    }
}

fn after_end(span: &Span, label: &str, end: &Ending) -> Finding {
    Finding::new(
        span.clone(),
        Severity::Error,
        FindingKind::AfterEnd,
        Some(end.article),
        format!(
            "{label} was played after the game had ended: {} ({}); moves after the end do not count",
            end.explanation, end.article
        ),
    )
}

/// The results written for a game: the movetext's, then the Result tag's when it says
/// something else (or when the movetext has none).
fn written_results(game: &GameText) -> Vec<(Span, &str)> {
    let token = game
        .result
        .as_ref()
        .map(|(s, r)| (s.clone(), normalise_result(r)));
    let tag = game
        .tag("Result")
        .map(|t| (t.value_span.clone(), normalise_result(t.value.trim())))
        .filter(|(_, r)| is_result(r));
    let mut out = Vec::new();
    if let Some(t) = &token {
        out.push(t.clone());
    }
    if let Some(t) = tag
        && token.as_ref().is_none_or(|(_, r)| *r != t.1)
    {
        out.push(t);
    }
    out
}

fn check_results(game: &GameText, verdict: &Verdict, out: &mut Vec<Finding>) {
    if let (Some((_, token)), Some(tag)) = (&game.result, game.tag("Result")) {
        let (token, tagged) = (normalise_result(token), normalise_result(tag.value.trim()));
        if token != tagged {
            out.push(Finding::new(
                tag.value_span.clone(),
                Severity::Warning,
                FindingKind::ResultTag,
                None,
                format!("the Result tag says {tagged:?} but the movetext ends with {token}: the two must agree"),
            ));
        }
    }
    for (span, written) in written_results(game) {
        match verdict {
            Verdict::Over(e) => {
                if written == "*" {
                    out.push(Finding::new(
                        span,
                        Severity::Warning,
                        FindingKind::Result,
                        Some(e.article),
                        format!(
                            "the game is over: {} ({}), so its result is {}, not *",
                            e.explanation, e.article, e.result
                        ),
                    ));
                } else if written != e.result {
                    out.push(Finding::new(
                        span,
                        Severity::Error,
                        FindingKind::Result,
                        Some(e.article),
                        format!(
                            "{written} contradicts the final position: {} ({}), so the result is {}",
                            e.explanation, e.article, e.result
                        ),
                    ));
                }
            }
            Verdict::Open {
                white_can_mate,
                black_can_mate,
            } => {
                let (winner, loser, can) = match written {
                    "1-0" => ("White", "Black", white_can_mate),
                    "0-1" => ("Black", "White", black_can_mate),
                    _ => continue,
                };
                if *can == Some(false) {
                    out.push(Finding::new(span, Severity::Warning, FindingKind::Result, Some("5.1.2"), format!(
                        "{written} does not fit the final position: {winner} cannot checkmate by any series of legal moves, so {loser}'s resignation (5.1.2) or flag (6.9) would only give a draw"
                    )));
                }
            }
        }
    }
}

/// The findings of a whole text, with a cache of each game's findings keyed by its text.
pub struct Analyzer {
    pub budget: SolverBudget,
    cache: HashMap<blake3::Hash, Arc<[Finding]>>,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer::new(SolverBudget(Some(std::time::Duration::from_millis(25))))
    }
}

impl Analyzer {
    pub fn new(budget: SolverBudget) -> Analyzer {
        Analyzer {
            budget,
            cache: HashMap::new(),
        }
    }

    /// The findings of a whole text: syntax problems, then each game's findings in order.
    /// A game whose text is unchanged since the last call comes from the cache (unless the
    /// work was cancelled: see [`crate::rules::winnability::with_cancel`]).
    pub fn analyse(&mut self, text: &str, pgn: &PgnText) -> Vec<Finding> {
        let mut out: Vec<Finding> = pgn
            .problems
            .iter()
            .map(|p| Finding {
                span: p.span.clone(),
                severity: p.severity,
                message: p.message.clone(),
                article: None,
                kind: FindingKind::Syntax,
            })
            .collect();
        let mut next: HashMap<blake3::Hash, Arc<[Finding]>> =
            HashMap::with_capacity(pgn.games.len());
        for game in &pgn.games {
            let base = game.span.start;
            let key = blake3::hash(text[game.span.clone()].as_bytes());
            let relative = match self.cache.get(&key).or_else(|| next.get(&key)).cloned() {
                Some(r) => r,
                None => {
                    let found = guarded_game(text, game, self.budget);
                    found
                        .into_iter()
                        .map(|mut f| {
                            f.span = f.span.start - base..f.span.end - base;
                            f
                        })
                        .collect()
                }
            };
            out.extend(relative.iter().map(|f| Finding {
                span: f.span.start + base..f.span.end + base,
                ..f.clone()
            }));
            next.insert(key, relative);
        }
        // Findings made after the work was cancelled may lack the solver's verdicts: they
        // are not kept (and the caller drops them).
        if !crate::rules::winnability::cancelled() {
            self.cache = next;
        }
        out
    }
}

/// Checks a game; a panic inside becomes one finding instead of taking the server down.
fn guarded_game(text: &str, game: &GameText, budget: SolverBudget) -> Vec<Finding> {
    match catch_unwind(AssertUnwindSafe(|| analyse_game(text, game, budget))) {
        Ok(found) => found,
        Err(_) => {
            tracing::error!(start = game.span.start, "checking a game panicked");
            let first = game
                .moves
                .first()
                .map(|m| m.span.clone())
                .unwrap_or(game.span.start..game.span.start);
            vec![Finding::new(
                first,
                Severity::Warning,
                FindingKind::Internal,
                None,
                "the arbiter failed while checking this game (an internal error, logged on stderr)"
                    .into(),
            )]
        }
    }
}

/// Everything about a text at once (no cache).
pub fn analyse(text: &str, budget: SolverBudget) -> Vec<Finding> {
    let pgn = super::movetext::read(text);
    Analyzer::new(budget).analyse(text, &pgn)
}

/// A main line replayed: the start, the moves, and every position (the start first).
pub struct Replay {
    pub start: Start,
    pub moves: Vec<Move>,
    pub positions: Vec<Chess>,
}

/// Replays the first `upto` moves of a game's main line with the same reading of moves as the
/// diagnostics; `Err` is the finding of the first move that is not legal.
pub fn replay(text: &str, game: &GameText, upto: usize) -> Result<Replay, Finding> {
    let start = start_position(game)?;
    let mut pos = start.pos.clone();
    let mut moves = Vec::new();
    let mut positions = vec![pos.clone()];
    for tok in game.moves.iter().take(upto) {
        let raw = &text[tok.span.clone()];
        let l = label(&pos, raw);
        let (m, _) = resolve(&pos, raw, start.mode, &tok.span, &l)?;
        pos.play_unchecked(m);
        moves.push(m);
        positions.push(pos.clone());
    }
    Ok(Replay {
        start,
        moves,
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(text: &str) -> Vec<Finding> {
        analyse(text, SolverBudget(None))
    }

    fn at<'a>(text: &'a str, f: &Finding) -> &'a str {
        &text[f.span.clone()]
    }

    #[test]
    fn a_clean_game_has_no_findings() {
        let text = "[Result \"1-0\"]\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
        assert_eq!(findings(text), vec![]);
    }

    #[test]
    fn illegal_ambiguous_and_unreadable_moves_stop_their_game_only() {
        let text =
            "1. e4 e5 2. Ng4 Nc6 3. Nf3 *\n\n1. d4 d5 2. Nf3 Nf6 3. Nd2 e6 *\n\n1. e4 Nf9 *\n";
        let f = findings(text);
        assert_eq!(f.len(), 3, "{f:#?}");
        assert_eq!(at(text, &f[0]), "Ng4");
        assert_eq!(f[0].kind, FindingKind::IllegalMove);
        assert_eq!(f[0].article.as_deref(), Some("3.6"));
        assert!(
            f[0].message
                .starts_with("2. Ng4 is illegal: it asks the white knight"),
            "{}",
            f[0].message
        );
        assert_eq!(f[1].kind, FindingKind::Ambiguous);
        assert_eq!(f[1].article.as_deref(), Some("C.10"));
        assert!(
            f[1].message.contains("Nbd2")
                && f[1].message.contains("Nfd2")
                && f[1].message.ends_with("(C.10)"),
            "{}",
            f[1].message
        );
        assert_eq!(f[2].kind, FindingKind::Notation);
        assert_eq!(at(text, &f[2]), "Nf9");
    }

    #[test]
    fn wrong_signs_and_results() {
        // Fool's mate written without # and scored for White.
        let text = "[Result \"1-0\"]\n1. f3+ e5 2. g4 Qh4 1-0\n";
        let f = findings(text);
        let kinds: Vec<_> = f.iter().map(|f| (f.kind, at(text, f))).collect();
        assert_eq!(
            kinds,
            vec![
                (FindingKind::CheckSign, "f3+"),
                (FindingKind::CheckSign, "Qh4"),
                (FindingKind::Result, "1-0")
            ],
            "{f:#?}"
        );
        assert_eq!(f[2].severity, Severity::Error);
        assert_eq!(f[2].article.as_deref(), Some("5.1.1"));
        assert!(
            f[2].message.contains("White is checkmated after 2...Qh4"),
            "{}",
            f[2].message
        );
    }

    #[test]
    fn moves_after_mate_and_stalemate_result() {
        let text = "1. f3 e5 2. g4 Qh4# 3. e4 0-1\n\n[FEN \"7k/8/6K1/8/8/8/5Q2/8 w - - 0 1\"]\n1. Qf7 1-0\n";
        let f = findings(text);
        assert_eq!(f[0].kind, FindingKind::AfterEnd);
        assert_eq!(at(text, &f[0]), "e4");
        assert!(f[0].message.contains("5.1.1"));
        // Second game: stalemate scored 1-0.
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[1].kind, FindingKind::Result, "{f:#?}");
        assert_eq!(f[1].article.as_deref(), Some("5.2.1"));
    }

    #[test]
    fn threefold_claims_are_hinted() {
        let text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *";
        let f = findings(text);
        let claims: Vec<_> = f
            .iter()
            .filter(|f| f.kind == FindingKind::Claim)
            .map(|f| (at(text, f), f.article.clone().unwrap()))
            .collect();
        assert!(claims.contains(&("Ng1", "9.2.1".to_string())), "{f:#?}");
        assert!(claims.contains(&("Ng8", "9.2.2".to_string())), "{f:#?}");
    }

    #[test]
    fn fifty_move_claims_and_the_seventy_five_move_end() {
        let text = "[FEN \"8/8/4k3/8/8/4K3/8/R7 w - - 98 80\"]\n80. Ra2 Kd6 81. Ra3 *";
        let f = findings(text);
        let got: Vec<_> = f
            .iter()
            .map(|f| (at(text, f), f.article.clone().unwrap()))
            .collect();
        assert_eq!(
            got,
            vec![("Ra2", "9.3.1".to_string()), ("Kd6", "9.3.2".to_string())],
            "{f:#?}"
        );
        let text = "[FEN \"8/8/4k3/8/8/4K3/8/R7 w - - 149 80\"]\n80. Ra2 Kd6 1-0";
        let f = findings(text);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(
            (f[0].kind, at(text, &f[0]), f[0].article.as_deref()),
            (FindingKind::AfterEnd, "Kd6", Some("9.6.2"))
        );
        assert_eq!(
            (f[1].kind, at(text, &f[1]), f[1].article.as_deref()),
            (FindingKind::Result, "1-0", Some("9.6.2"))
        );
    }

    #[test]
    fn capture_marks_are_notes_not_errors() {
        let text = "1. e4 d5 2. ed5 Qxd5 3. Nxc3 *";
        let f = findings(text);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(
            (f[0].kind, f[0].severity, at(text, &f[0])),
            (FindingKind::CaptureMark, Severity::Information, "ed5")
        );
        assert_eq!(
            (f[1].kind, f[1].severity, at(text, &f[1])),
            (FindingKind::CaptureMark, Severity::Warning, "Nxc3")
        );
        assert_eq!(f[1].article.as_deref(), Some("C.9"));
    }

    #[test]
    fn dead_position_found_by_the_solver_ends_the_game() {
        // Blocked pawns (from chasolver's lichess set): dead though material remains.
        let text =
            "[FEN \"8/8/3k3p/1p2p1pP/1P2P1P1/8/2K5/8 b - - 88 93\"]\n93... Kd7 94. Kd3 Kd6 1-0\n";
        let f = findings(text);
        assert_eq!(f[0].kind, FindingKind::AfterEnd, "{f:#?}");
        assert_eq!(at(text, &f[0]), "Kd7");
        assert!(
            f[0].message
                .contains("in the start position neither side can checkmate"),
            "{}",
            f[0].message
        );
        assert_eq!(f[1].kind, FindingKind::Result);
        assert_eq!(f[1].article.as_deref(), Some("5.2.2"));
    }

    #[test]
    fn chess960_castling_by_variant_tag() {
        let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1";
        let text =
            format!("[Variant \"Chess960\"]\n[FEN \"{fen} w KQkq - 0 1\"]\n1. O-O O-O-O *\n");
        assert_eq!(findings(&text), vec![]);
        let shredder = format!("[FEN \"{fen} w GBgb - 0 1\"]\n1. O-O O-O-O *\n");
        assert_eq!(findings(&shredder), vec![]);
        // Without the variant, KQkq cannot mean these rooks: the rights are dropped.
        let standard = format!("[FEN \"{fen} w KQkq - 0 1\"]\n1. O-O O-O-O *\n");
        let f = findings(&standard);
        assert_eq!(
            f.iter().map(|f| f.kind).collect::<Vec<_>>(),
            [FindingKind::Fen, FindingKind::IllegalMove],
            "{f:#?}"
        );
    }

    #[test]
    fn cached_games_are_shifted_not_rechecked() {
        let one = "1. e4 e5 2. Ke3 *\n";
        let text = format!("{one}\n{one}");
        let mut a = Analyzer::new(SolverBudget(None));
        let pgn = super::super::movetext::read(&text);
        let f = a.analyse(&text, &pgn);
        assert_eq!(f.len(), 2);
        assert_eq!(&text[f[1].span.clone()], "Ke3");
        assert!(f[1].span.start > one.len());
    }
}
