//! One game judged: its main line replayed move by move (legality, null moves, the endings
//! that need no claim — mate, stalemate, fivefold, 75 moves, dead position — and the draw
//! claims each player had), then its recorded result weighed against the final position.
//!
//! Every ply is checked with shakmaty alone; the checker's full report ([`rules::check`]) is
//! asked once, at the end, and only when the result depends on whether a side can still mate
//! (a win by resignation or on time, a draw on time): its `flag_info`, `resignation` and
//! `dead_position_info` are the verdicts the audit reports, so `arbiter check` on the final
//! position says the same thing.

use std::iter::Peekable;
use std::slice;
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Color, MoveList, Position};

use super::{Finding, FindingKind, Severity};
use crate::rules;
use crate::rules::describe::capitalised;
use crate::rules::ending::{self, Ending, at_phrase, ending_by_rule};
use crate::rules::legality::{MoveRejection, RejectionKind};
use crate::rules::pgn::clock::clocks;
use crate::rules::pgn::movetext::{Comment, normalise_result};
use crate::rules::pgn::{self, ReadGame, StartError, is_null_move, label, line_of};
use crate::rules::repetition::{PositionTally, fifty_completing_moves};
use crate::rules::report::short_line;
use crate::rules::winnability::{SolverBudget, Winnability, helpmate_san, is_dead, winnability};

/// How the audit judges.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Budget per solver query; `None` runs each query to the end on the judging thread
    /// (chasolver stops by itself after a million nodes).
    pub budget: SolverBudget,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: SolverBudget(None),
        }
    }
}

/// What became of a game's recorded loss (or draw) on time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// The opponent could still mate: the recorded result stands (6.9).
    Upheld,
    /// The result must change: a loss that should be a draw, or a draw that should be a loss.
    Wrong,
    /// The solver did not decide within its budget.
    Undecided,
    /// The game had already ended on the board before the flag fell.
    EndedBefore,
}

/// A judged game: its findings and what the summary counts.
#[derive(Debug, Clone, Default)]
pub struct Judged {
    pub game: usize,
    pub findings: Vec<Finding>,
    /// Main-line plies read.
    pub plies: usize,
    /// Not standard chess (a variant): not judged.
    pub not_standard: bool,
    /// The main line could not be read to its end (an illegal or unreadable move…).
    pub unreadable: bool,
    /// A recorded time forfeit, and what became of it.
    pub timeout: Option<Timeout>,
}

/// A draw claim a player could have made (9.2, 9.3): the first chance of each side.
#[derive(Debug, Clone)]
struct Claim {
    ply: usize,
    label: String,
    what: String,
    article: &'static str,
}

fn winner_of(result: &str) -> Option<Color> {
    match result {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        _ => None,
    }
}

/// The label of the move that led to position `k` of the history (`None` for the start).
fn label_before(text: &str, g: &ReadGame, history: &[Chess], k: usize) -> Option<String> {
    let i = k.checked_sub(1)?;
    Some(label(&history[i], &text[g.game.moves[i].span.clone()]))
}

/// Whether a recorded result came from a flag: the `[Termination]` tag, or the loser's last
/// `%clk` at zero.
fn time_forfeit(g: &ReadGame) -> Option<&'static str> {
    let tag = g.game.tag("Termination")?.value.to_ascii_lowercase();
    (tag.contains("time") && !tag.contains("time control")).then_some("[Termination] says so")
}

/// The game being judged and the judgement so far: every finding goes through [`Ctx::add`],
/// which stamps it with the game's number and players.
struct Ctx<'a> {
    g: &'a ReadGame,
    out: Judged,
}

impl Ctx<'_> {
    fn add(
        &mut self,
        ply: Option<(usize, &str)>,
        kind: FindingKind,
        severity: Severity,
        articles: &[&str],
        message: String,
    ) -> &mut Finding {
        let tag = |name: &str| self.g.game.tag(name).map(|t| t.value.clone());
        self.out.findings.push(Finding {
            file: None,
            game: self.g.index,
            ply: ply.map(|(p, _)| p),
            move_text: ply.map(|(_, l)| l.to_string()),
            kind,
            severity,
            message,
            articles: articles.iter().map(|a| a.to_string()).collect(),
            recorded: None,
            expected: None,
            helpmate: Vec::new(),
            white: tag("White"),
            black: tag("Black"),
            site: tag("Site"),
        });
        self.out.findings.last_mut().expect("just pushed")
    }
}

/// Judges one game.
pub fn judge(g: &ReadGame, opts: &Options) -> Judged {
    let mut cx = Ctx {
        g,
        out: Judged {
            game: g.index,
            ..Judged::default()
        },
    };
    judge_into(&mut cx, opts);
    cx.out
}

/// Judges one game into `cx`, in the order a reader meets it: its size and syntax, its
/// recorded result, its start position, the walk through its main line, and last the
/// recorded result against where the walk ended. A game that cannot be read (too large, not
/// standard chess, an unusable FEN, a move that cannot be played) stops where it fails, since
/// nothing after that point has a position to be judged in.
fn judge_into(cx: &mut Ctx, opts: &Options) {
    if let Some(size) = cx.g.oversized {
        report_oversized(cx, size);
        return;
    }
    report_syntax(cx);
    let recorded = recorded_result(cx);
    let Some(start) = start_or_report(cx) else {
        return;
    };
    let Some(walk) = Walk::new(cx.g, start).run(cx) else {
        return;
    };
    judge_result(cx, &walk, &recorded, opts);
}

/// A game larger than the reader accepts was never read, so it is reported as unreadable
/// rather than judged.
fn report_oversized(cx: &mut Ctx, size: u64) {
    cx.out.unreadable = true;
    cx.add(None, FindingKind::TooLarge, Severity::Error, &[], format!(
        "the game is {size} bytes long, more than the {} MiB a game may have here: it was not read",
        pgn::split::MAX_GAME_BYTES >> 20
    ));
}

/// The reader's syntax problems, as warnings: the reader recovered from them, so the game is
/// still judged.
fn report_syntax(cx: &mut Ctx) {
    let text: &str = &cx.g.text;
    for p in &cx.g.problems {
        cx.add(
            None,
            FindingKind::Syntax,
            Severity::Warning,
            &[],
            format!("PGN line {}: {}", line_of(text, p.span.start), p.message),
        );
    }
}

/// The recorded result: the movetext's, else the Result tag's, else `*`. When the two are
/// written and disagree, a warning says so, and the movetext's is judged.
fn recorded_result(cx: &mut Ctx) -> String {
    let g = cx.g;
    let token = g.game.result.as_ref().map(|(_, r)| normalise_result(r));
    let tagged = g
        .game
        .tag("Result")
        .map(|t| normalise_result(t.value.trim()))
        .filter(|r| pgn::movetext::is_result(r));
    if let (Some(t), Some(r)) = (token, tagged)
        && t != r
    {
        cx.add(
            None,
            FindingKind::ResultTag,
            Severity::Warning,
            &[],
            format!("the Result tag says {r} but the movetext ends with {t}: the two must agree; {t} is judged"),
        );
    }
    token.or(tagged).unwrap_or("*").to_string()
}

/// The start position from the `[Variant]` and `[FEN]` tags, with the FEN's warnings reported.
/// `None`, with a finding, when the game is a variant (the Laws do not cover it) or its FEN
/// cannot be used (there is no position to start from): either way the game is not judged.
fn start_or_report(cx: &mut Ctx) -> Option<pgn::Start> {
    let g = cx.g;
    let start = match pgn::start_position(
        g.game.tag("Variant").map(|t| t.value.as_str()),
        g.game.tag("FEN").map(|t| t.value.as_str()),
    ) {
        Ok(s) => s,
        Err(StartError::NotStandard { variant }) => {
            cx.out.not_standard = true;
            cx.add(None, FindingKind::NotStandard, Severity::Info, &[], format!(
                "not standard chess: the game is {variant}, which the FIDE Laws do not cover, so it is not judged"
            ));
            return None;
        }
        Err(StartError::Fen(e)) => {
            cx.out.unreadable = true;
            let article: &[&str] = if matches!(e, rules::RulesError::IllegalPosition { .. }) {
                &["3.10.3"]
            } else {
                &[]
            };
            cx.add(
                None,
                FindingKind::Fen,
                Severity::Error,
                article,
                format!("the FEN tag cannot be used: {e}"),
            );
            return None;
        }
    };
    for w in &start.warnings {
        cx.add(
            None,
            FindingKind::Fen,
            Severity::Warning,
            &[],
            format!("the FEN tag: {w}"),
        );
    }
    Some(start)
}

/// The walk through a game's main line, ply by ply, and what it leaves for judging the
/// result: the final position, every position on the way (to find the first dead one), the
/// first draw claim each side could have made, and each side's last clock comment.
struct Walk<'a> {
    g: &'a ReadGame,
    text: &'a str,
    mode: CastlingMode,
    pos: Chess,
    /// `history[k]` is the position after ply `k` (0: the start position).
    history: Vec<Chess>,
    /// Occurrences of each position since the last capture, pawn move or pass.
    tally: PositionTally,
    /// The first draw claim of each side (indexed by colour).
    claims: [Option<Claim>; 2],
    /// The last comment after each side's move that carries a `%clk`: its clock is read once,
    /// at the end, to see whether a flag fell.
    last_comment: [Option<&'a pgn::movetext::Span>; 2],
    /// The main-line comments not yet passed, in order.
    comments: Peekable<slice::Iter<'a, Comment>>,
    /// The ending by rule the walk has reached, if any: a move after it is reported.
    ending: Option<Ending>,
}

impl<'a> Walk<'a> {
    /// A walk standing at the start position, which counts as its first occurrence and may
    /// itself already be an ending (a mate or stalemate set up by FEN).
    fn new(g: &'a ReadGame, start: pgn::Start) -> Walk<'a> {
        let pos = start.pos;
        let mut history = Vec::with_capacity(g.game.moves.len() + 1);
        history.push(pos.clone());
        let tally = PositionTally::starting_at(&pos);
        let ending = ending_by_rule(&pos, &pos.legal_moves(), 1, || None);
        Walk {
            g,
            text: &g.text,
            mode: start.mode,
            pos,
            history,
            tally,
            claims: [None, None],
            last_comment: [None, None],
            comments: g.game.comments.iter().peekable(),
            ending,
        }
    }

    /// Walks the main line to its end, or to the first move after an ending by rule (reported,
    /// and the walk stops: moves after the end do not count), or to a move that cannot be
    /// played. `None` in that last case: the game is unreadable and has no final position.
    fn run(mut self, cx: &mut Ctx) -> Option<Walk<'a>> {
        let (g, text) = (self.g, self.text);
        for (k, tok) in g.game.moves.iter().enumerate() {
            let raw = &text[tok.span.clone()];
            if let Some(end) = &self.ending {
                let l = label(&self.pos, raw);
                cx.add(Some((k + 1, &l)), FindingKind::AfterEnd, Severity::Error, &[end.article], format!(
                    "{l} was played after the game had ended: {} ({}); moves after the end do not count",
                    end.explanation, end.article
                ));
                break;
            }
            if !self.step(cx, k, raw) {
                break;
            }
        }
        (!cx.out.unreadable).then_some(self)
    }

    /// Plays ply `k + 1` (written `raw`) and takes stock of the position it leaves: the clock
    /// comment after it, how often the position has occurred, whether the game ended by rule,
    /// and otherwise which draw claim the side to move now has. `false` when the move cannot
    /// be played, which ends the walk.
    fn step(&mut self, cx: &mut Ctx, k: usize, raw: &str) -> bool {
        let ply = k + 1;
        let mover = self.pos.turn();
        let played = if is_null_move(raw) {
            self.play_null(cx, ply, raw)
        } else {
            self.play_move(cx, k, raw)
        };
        if !played {
            return false;
        }
        cx.out.plies = ply;
        self.history.push(self.pos.clone());
        self.note_clock_comment(ply, mover);
        let legal = self.pos.legal_moves();
        let count = self.tally.count(&self.pos);
        let (g, text, history) = (self.g, self.text, &self.history);
        self.ending = ending_by_rule(&self.pos, &legal, count, || {
            label_before(text, g, history, ply)
        });
        if self.ending.is_none() {
            self.note_claim(ply, count, &legal);
        }
        true
    }

    /// Plays a null move: the side to move passes, which the Laws do not allow (1.2). It is
    /// reported and the rest of the game is read from the position after the pass; a side in
    /// check cannot pass, and then the game cannot be read on (`false`).
    fn play_null(&mut self, cx: &mut Ctx, ply: usize, raw: &str) -> bool {
        let l = label(&self.pos, raw);
        match pgn::pass(&self.pos) {
            Ok(after) => {
                cx.add(Some((ply, &l)), FindingKind::NullMove, Severity::Warning, &["1.2"], format!(
                    "{l} is a null move: {} passed, which the Laws do not allow (1.2); the rest of the game is read from the position after the pass",
                    capitalised(self.pos.turn())
                ));
                self.pos = after;
                self.tally.forget();
                true
            }
            Err(why) => {
                cx.out.unreadable = true;
                cx.add(Some((ply, &l)), FindingKind::NullMove, Severity::Error, &["1.2"], format!(
                    "{l} is a null move, which the Laws do not allow (1.2); {why}, so the rest of the game cannot be read"
                ));
                false
            }
        }
    }

    /// Plays the move written `raw` as ply `k + 1`; when it is unreadable, ambiguous or
    /// illegal, reports why and returns `false`, since the game cannot be read past it.
    fn play_move(&mut self, cx: &mut Ctx, k: usize, raw: &str) -> bool {
        match pgn::resolve(&self.pos, raw, self.mode) {
            Ok(m) => {
                self.pos.play_unchecked(m);
                if m.is_zeroing() {
                    self.tally.forget();
                }
                true
            }
            Err(rej) => {
                report_unplayable(cx, k, &label(&self.pos, raw), &rej);
                false
            }
        }
    }

    /// Keeps the last comment after ply `ply` that carries a `%clk` as the clock of `mover`,
    /// passing over the comments before it.
    fn note_clock_comment(&mut self, ply: usize, mover: Color) {
        while let Some(c) = self.comments.next_if(|c| c.after <= ply) {
            if c.after == ply && self.text[c.span.clone()].contains("%clk") {
                self.last_comment[mover as usize] = Some(&c.span);
            }
        }
    }

    /// Keeps the draw claim (9.2, 9.3) the side to move could now make after ply `ply`, if it
    /// is that side's first: a player who played on and lost is told of the first chance.
    fn note_claim(&mut self, ply: usize, count: u32, legal: &MoveList) {
        let side = self.pos.turn() as usize;
        if self.claims[side].is_some() {
            return;
        }
        if let Some((what, article)) = self.claim_available(count, legal) {
            self.claims[side] = Some(Claim {
                ply,
                label: label_before(self.text, self.g, &self.history, ply).unwrap_or_default(),
                what: what.to_string(),
                article,
            });
        }
    }

    /// The draw claim the side to move has in the current position (seen `count` times), as
    /// its description and article: a claim on the board before a claim by declaring a move.
    fn claim_available(
        &self,
        count: u32,
        legal: &MoveList,
    ) -> Option<(&'static str, &'static str)> {
        let pos = &self.pos;
        if count >= 3 {
            Some((
                "threefold repetition: the position has occurred three times",
                "9.2.2",
            ))
        } else if pos.halfmoves() >= 100 {
            Some((
                "fifty moves by each player without a capture or a pawn move",
                "9.3.2",
            ))
        } else if self.tally.repeating_moves(pos, legal).next().is_some() {
            Some((
                "threefold repetition, by declaring a move that repeats the position a third time",
                "9.2.1",
            ))
        } else if fifty_completing_moves(pos, legal).next().is_some() {
            Some((
                "fifty moves, by declaring a move without a capture or a pawn move",
                "9.3.1",
            ))
        } else {
            None
        }
    }

    /// When the recorded result is a win, whether the loser's last clock comment shows his
    /// flag fell.
    fn clock_flag(&self, recorded: &str) -> Option<&'static str> {
        winner_of(recorded).and_then(|w| {
            let comment = self.last_comment[w.other() as usize]?;
            (clocks(&self.text[comment.clone()]).clk == Some(Duration::ZERO))
                .then_some("the loser's clock shows 0:00:00")
        })
    }
}

/// Reports the move at ply `k + 1` (labelled `l`) that cannot be played: it cannot be read,
/// it is ambiguous, or it is illegal. The game is unreadable from there, so only the `k` plies
/// before it count as read.
fn report_unplayable(cx: &mut Ctx, k: usize, l: &str, rej: &MoveRejection) {
    cx.out.unreadable = true;
    let (kind, message) = match rej.kind {
        RejectionKind::Notation => (
            FindingKind::Notation,
            format!("{l} cannot be read as a move: {}", rej.reason),
        ),
        RejectionKind::Ambiguous => (FindingKind::Ambiguous, format!("{l} {}", rej.reason)),
        _ => (
            FindingKind::IllegalMove,
            format!("{l} is illegal: it {}", rej.reason),
        ),
    };
    let articles: Vec<&str> = rej.articles.iter().map(String::as_str).collect();
    cx.add(Some((k + 1, l)), kind, Severity::Error, &articles, message);
    cx.out.plies = k;
}

/// Weighs the recorded result against the end of the walk. An ending on the board (by rule,
/// or a dead position the solver finds) decides the result by itself; otherwise a decisive
/// result, or a draw on time, depends on whether a side could still mate, which the solver
/// decides. A player who could have claimed a draw and lost is noted last.
fn judge_result(cx: &mut Ctx, walk: &Walk, recorded: &str, opts: &Options) {
    let on_time = time_forfeit(cx.g).or(walk.clock_flag(recorded));
    let decisive = winner_of(recorded);
    let (pos, mode) = (&walk.pos, walk.mode);
    let ending = match &walk.ending {
        Some(e) => Some(e.clone()),
        // A decisive result is weighed below, where the solver says whether the position is
        // dead; for a draw or no result, the solver's fast test says whether to look.
        None if decisive.is_none() && fast_dead(pos, mode) && is_dead(pos, mode, opts.budget) => {
            Some(first_dead(cx, &walk.history, mode, opts))
        }
        None => None,
    };
    if let Some(e) = ending {
        judge_board_ending(cx, &e, recorded, on_time);
        if e.result == recorded {
            missed_claim(cx, &walk.claims, recorded);
        }
        return;
    }
    let last = walk.history.len() - 1;
    let open = OpenEnd {
        walk,
        recorded,
        on_time,
        after_last: at_phrase(label_before(walk.text, walk.g, &walk.history, last).as_deref()),
        opts,
    };
    // A win where neither side can mate is judged as a dead position, like the endings above:
    // its draw contradicts the win, and then no missed claim is noted.
    let still_open = match decisive {
        Some(winner) => open.judge_win(cx, winner),
        None if recorded == "1/2-1/2" && on_time.is_some() => {
            open.judge_draw_on_time(cx);
            true
        }
        None => true,
    };
    if still_open {
        missed_claim(cx, &walk.claims, recorded);
    }
}

/// The result against an ending on the board; a flag that fell after it changes nothing, and
/// the time forfeit is counted as having come after the end.
fn judge_board_ending(cx: &mut Ctx, e: &Ending, recorded: &str, on_time: Option<&str>) {
    if on_time.is_some() {
        cx.out.timeout = Some(Timeout::EndedBefore);
    }
    judge_ended(cx, e, recorded, on_time.is_some());
}

/// A game whose final position ended nothing by rule: the recorded result is weighed by
/// whether a side could still mate there.
struct OpenEnd<'w, 'g> {
    walk: &'w Walk<'g>,
    recorded: &'w str,
    /// Why the result counts as a flag fall (the Termination tag, or a clock at zero).
    on_time: Option<&'static str>,
    /// "after 40...Kf7": where the game stopped, for the messages.
    after_last: String,
    opts: &'w Options,
}

impl OpenEnd<'_, '_> {
    /// A win by resignation or on time, weighed as the report's `flag` and `resignation` do:
    /// can the winner still mate? `false` when neither side can: the game was judged as ending
    /// at its first dead position, and the caller notes no missed claim, as for any ending
    /// that contradicts the result.
    fn judge_win(&self, cx: &mut Ctx, winner: Color) -> bool {
        let (pos, mode) = (&self.walk.pos, self.walk.mode);
        match winnability(pos, mode, winner, self.opts.budget) {
            Winnability::Winnable { helpmate } => {
                if let Some(how) = self.on_time {
                    self.time_forfeit_stands(cx, winner, how, &helpmate);
                }
                true
            }
            Winnability::Unwinnable => self.judge_unwinnable_win(cx, winner),
            Winnability::Undetermined { why } => {
                if let Some(how) = self.on_time {
                    cx.out.timeout = Some(Timeout::Undecided);
                    let f = cx.add(None, FindingKind::Undecided, Severity::Warning, &["6.9"], format!(
                        "{} lost on time ({how}) {}; whether {} could still mate is undecided: {why}",
                        capitalised(winner.other()), self.after_last, capitalised(winner)
                    ));
                    f.recorded = Some(self.recorded.to_string());
                }
                true
            }
        }
    }

    /// A loss on time that stands, since the winner could still mate (6.9): noted, with a
    /// helpmate as the proof.
    fn time_forfeit_stands(&self, cx: &mut Ctx, winner: Color, how: &str, helpmate: &[String]) {
        let (w, l) = (capitalised(winner), capitalised(winner.other()));
        cx.out.timeout = Some(Timeout::Upheld);
        let line = helpmate_san(&self.walk.pos, helpmate);
        let f = cx.add(None, FindingKind::TimeForfeitUpheld, Severity::Info, &["6.9"], format!(
            "{l} lost on time ({how}) {}, and the loss stands: {w} could still checkmate by a series of legal moves, for example {} (6.9)",
            self.after_last, short_line(&line)
        ));
        f.recorded = Some(self.recorded.to_string());
        f.expected = Some(self.recorded.to_string());
        f.helpmate = line;
    }

    /// A win recorded for a side that cannot mate. When the loser cannot either, the position
    /// is dead and the game ended at the first dead position (then `false`); otherwise the
    /// game is a draw, whether the loser resigned or lost on time. The severity of a
    /// resignation follows the Termination tag: a result said to be normal or a resignation
    /// is an error, any other a warning.
    fn judge_unwinnable_win(&self, cx: &mut Ctx, winner: Color) -> bool {
        let (walk, recorded, after_last) = (self.walk, self.recorded, &self.after_last);
        let loser = winner.other();
        if winnability(&walk.pos, walk.mode, loser, self.opts.budget).decided() == Some(false) {
            let e = first_dead(cx, &walk.history, walk.mode, self.opts);
            judge_board_ending(cx, &e, recorded, self.on_time);
            return false;
        }
        let (w, l) = (capitalised(winner), capitalised(loser));
        let f = if let Some(how) = self.on_time {
            cx.out.timeout = Some(Timeout::Wrong);
            cx.add(None, FindingKind::TimeForfeit, Severity::Error, &["6.9"], format!(
                "recorded {recorded}: {l} lost on time ({how}) {after_last}; but {w} cannot checkmate by any series of legal moves, so the game is drawn (6.9)"
            ))
        } else {
            let severity = match walk
                .g
                .game
                .tag("Termination")
                .map(|t| t.value.to_ascii_lowercase())
            {
                Some(t) if t.contains("normal") || t.contains("resign") => Severity::Error,
                _ => Severity::Warning,
            };
            cx.add(None, FindingKind::Result, severity, &["5.1.2", "6.9"], format!(
                "recorded {recorded}, but {w} cannot checkmate by any series of legal moves {after_last}: whether {l} resigned (5.1.2) or ran out of time (6.9), the game is drawn"
            ))
        };
        f.recorded = Some(recorded.to_string());
        f.expected = Some("1/2-1/2".into());
        true
    }

    /// A draw on time: the flag fell for the side to move, whose clock was running, so the
    /// draw stands only if the opponent could not mate (6.9).
    fn judge_draw_on_time(&self, cx: &mut Ctx) {
        let pos = &self.walk.pos;
        let flagged = pos.turn();
        let opponent = flagged.other();
        cx.out.timeout = Some(
            match winnability(pos, self.walk.mode, opponent, self.opts.budget) {
                Winnability::Unwinnable => Timeout::Upheld,
                Winnability::Undetermined { .. } => Timeout::Undecided,
                Winnability::Winnable { helpmate } => {
                    let line = helpmate_san(pos, &helpmate);
                    let f = cx.add(None, FindingKind::TimeForfeit, Severity::Warning, &["6.9"], format!(
                    "recorded a draw on time {}, but if {}'s flag fell, {} wins: {} could still checkmate by a series of legal moves, for example {} (6.9)",
                    self.after_last, capitalised(flagged), capitalised(opponent), capitalised(opponent), short_line(&line)
                ));
                    f.recorded = Some(self.recorded.to_string());
                    f.expected = Some(
                        if opponent == Color::White {
                            "1-0"
                        } else {
                            "0-1"
                        }
                        .into(),
                    );
                    f.helpmate = line;
                    Timeout::Wrong
                }
            },
        );
    }
}

/// A player who could have claimed a draw (the first chance), played on and lost.
fn missed_claim(cx: &mut Ctx, claims: &[Option<Claim>; 2], recorded: &str) {
    if let Some(winner) = winner_of(recorded)
        && let Some(c) = &claims[winner.other() as usize]
    {
        let f = cx.add(
            Some((c.ply, &c.label)),
            FindingKind::MissedClaim,
            Severity::Info,
            &[c.article],
            format!(
                "after {}, {} could have claimed a draw ({}, {}), played on and lost",
                c.label,
                capitalised(winner.other()),
                c.what,
                c.article
            ),
        );
        f.recorded = Some(recorded.to_string());
    }
}

/// Whether the solver's fast test already finds that neither side can mate.
fn fast_dead(pos: &Chess, mode: CastlingMode) -> bool {
    crate::rules::winnability::to_chess_board(pos, mode).is_ok_and(|board| {
        chasolver::is_unwinnable_fast(&board, chess::Color::White)
            && chasolver::is_unwinnable_fast(&board, chess::Color::Black)
    })
}

/// The final position is dead (5.2.2), so the game ended at the first dead position: found by
/// bisection (dead positions stay dead), and reported with the move played after it.
fn first_dead(cx: &mut Ctx, history: &[Chess], mode: CastlingMode, opts: &Options) -> Ending {
    let text: &str = &cx.g.text;
    let last = history.len() - 1;
    let lo = ending::first_dead(history, mode, opts.budget);
    let ending = ending::dead_position(label_before(text, cx.g, history, lo).as_deref());
    if lo < last
        && let Some(l) = label_before(text, cx.g, history, lo + 1)
    {
        cx.add(Some((lo + 1, &l)), FindingKind::AfterEnd, Severity::Error, &["5.2.2"], format!(
            "{l} was played after the game had ended: {} (5.2.2); moves after the end do not count",
            ending.explanation
        ));
    }
    ending
}

fn judge_ended(cx: &mut Ctx, e: &Ending, recorded: &str, on_time: bool) {
    if recorded == "*" {
        let f = cx.add(
            None,
            FindingKind::Result,
            Severity::Warning,
            &[e.article],
            format!(
                "the game is over: {} ({}), so its result is {}, not *",
                e.explanation, e.article, e.result
            ),
        );
        f.recorded = Some(recorded.to_string());
        f.expected = Some(e.result.to_string());
    } else if recorded != e.result {
        let how = if on_time { " on time" } else { "" };
        let f = cx.add(None, FindingKind::Result, Severity::Error, &[e.article], format!(
            "recorded {recorded}{how}, which contradicts the board: {} ({}), so the result is {}",
            e.explanation, e.article, e.result
        ));
        f.recorded = Some(recorded.to_string());
        f.expected = Some(e.result.to_string());
    }
}
