//! One game judged: its main line replayed move by move (legality, null moves, the endings
//! that need no claim — mate, stalemate, fivefold, 75 moves, dead position — and the draw
//! claims each player had), then its recorded result weighed against the final position.
//!
//! Every ply is checked with shakmaty alone; the checker's full report ([`rules::check`]) is
//! asked once, at the end, and only when the result depends on whether a side can still mate
//! (a win by resignation or on time, a draw on time): its `flag_info`, `resignation` and
//! `dead_position_info` are the verdicts the audit reports, so `arbiter check` on the final
//! position says the same thing.

use std::collections::HashMap;
use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, MoveList, Position};

use super::{Finding, Severity};
use crate::rules;
use crate::rules::describe::capitalised;
use crate::rules::pgn::clock::clocks;
use crate::rules::pgn::movetext::normalise_result;
use crate::rules::pgn::{self, ReadGame, StartError, is_null_move, label, line_of};
use crate::rules::report::short_line;
use crate::rules::winnability::{SolverBudget, Winnability, helpmate_san, winnability};

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

/// How a game ended by rule, on the board.
#[derive(Debug, Clone)]
struct Ending {
    result: &'static str,
    article: &'static str,
    explanation: String,
}

/// A draw claim a player could have made (9.2, 9.3): the first chance of each side.
#[derive(Debug, Clone)]
struct Claim {
    ply: usize,
    label: String,
    what: String,
    article: &'static str,
}

/// FIDE identity of a position (9.2.3): pieces, side to move, castling rights, legal e.p.
fn identity(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

fn winner_of(result: &str) -> Option<Color> {
    match result {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        _ => None,
    }
}

fn at(label: Option<&str>) -> String {
    match label {
        Some(l) => format!("after {l}"),
        None => "in the start position".into(),
    }
}

/// The label of the move that led to position `k` of the history (`None` for the start).
fn label_before(text: &str, g: &ReadGame, history: &[Chess], k: usize) -> Option<String> {
    let i = k.checked_sub(1)?;
    Some(label(&history[i], &text[g.game.moves[i].span.clone()]))
}

/// The endings that need no claim and no solver: mate, stalemate, fivefold, 75 moves,
/// insufficient material.
fn ending_by_rule(
    pos: &Chess,
    legal: &MoveList,
    count: u32,
    last: &dyn Fn() -> Option<String>,
) -> Option<Ending> {
    let turn = pos.turn();
    let at = || at(last().as_deref());
    if legal.is_empty() {
        let at = at();
        return Some(if pos.is_check() {
            Ending {
                result: if turn == Color::White { "0-1" } else { "1-0" },
                article: "5.1.1",
                explanation: format!("{} is checkmated {at}", capitalised(turn)),
            }
        } else {
            Ending {
                result: "1/2-1/2",
                article: "5.2.1",
                explanation: format!("{} is stalemated {at}", capitalised(turn)),
            }
        });
    }
    if count >= 5 {
        let at = at();
        return Some(Ending {
            result: "1/2-1/2",
            article: "9.6.1",
            explanation: format!("the position {at} has occurred five times"),
        });
    }
    if pos.halfmoves() >= 150 {
        let at = at();
        return Some(Ending {
            result: "1/2-1/2",
            article: "9.6.2",
            explanation: format!(
                "{at}, 75 moves by each player have been made without a capture or a pawn move"
            ),
        });
    }
    if pos.is_insufficient_material() {
        let at = at();
        return Some(Ending {
            result: "1/2-1/2",
            article: "5.2.2",
            explanation: format!(
                "{at} neither side has the material to checkmate: the position is dead"
            ),
        });
    }
    None
}

/// Whether a recorded result came from a flag: the `[Termination]` tag, or the loser's last
/// `%clk` at zero.
fn time_forfeit(g: &ReadGame) -> Option<&'static str> {
    let tag = g.game.tag("Termination")?.value.to_ascii_lowercase();
    (tag.contains("time") && !tag.contains("time control")).then_some("[Termination] says so")
}

fn is_dead(pos: &Chess, mode: CastlingMode, budget: SolverBudget) -> bool {
    pos.is_insufficient_material()
        || (winnability(pos, mode, Color::White, budget).decided() == Some(false)
            && winnability(pos, mode, Color::Black, budget).decided() == Some(false))
}

struct Ctx<'a> {
    g: &'a ReadGame,
    out: Judged,
}

impl Ctx<'_> {
    fn add(
        &mut self,
        ply: Option<(usize, &str)>,
        kind: &'static str,
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

fn judge_into(cx: &mut Ctx, opts: &Options) {
    let g = cx.g;
    let text: &str = &g.text;
    if let Some(size) = g.oversized {
        cx.out.unreadable = true;
        cx.add(None, "too_large", Severity::Error, &[], format!(
            "the game is {size} bytes long, more than the {} MiB a game may have here: it was not read",
            pgn::split::MAX_GAME_BYTES >> 20
        ));
        return;
    }
    for p in &g.problems {
        cx.add(
            None,
            "syntax",
            Severity::Warning,
            &[],
            format!("PGN line {}: {}", line_of(text, p.span.start), p.message),
        );
    }
    // The recorded result: the movetext's, else the Result tag's.
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
            "result_tag",
            Severity::Warning,
            &[],
            format!("the Result tag says {r} but the movetext ends with {t}: the two must agree; {t} is judged"),
        );
    }
    let recorded = token.or(tagged).unwrap_or("*").to_string();

    let start = match pgn::start_position(
        g.game.tag("Variant").map(|t| t.value.as_str()),
        g.game.tag("FEN").map(|t| t.value.as_str()),
    ) {
        Ok(s) => s,
        Err(StartError::NotStandard { variant }) => {
            cx.out.not_standard = true;
            cx.add(None, "not_standard", Severity::Info, &[], format!(
                "not standard chess: the game is {variant}, which the FIDE Laws do not cover, so it is not judged"
            ));
            return;
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
                "fen",
                Severity::Error,
                article,
                format!("the FEN tag cannot be used: {e}"),
            );
            return;
        }
    };
    for w in &start.warnings {
        cx.add(
            None,
            "fen",
            Severity::Warning,
            &[],
            format!("the FEN tag: {w}"),
        );
    }
    let mode = start.mode;

    // The walk.
    let mut pos = start.pos.clone();
    let mut history: Vec<Chess> = Vec::with_capacity(g.game.moves.len() + 1);
    history.push(pos.clone());
    let mut counts: HashMap<u64, u32> = HashMap::new();
    counts.insert(identity(&pos), 1);
    let mut repeated = 0usize;
    let mut claims: [Option<Claim>; 2] = [None, None];
    // The last comment after each side's move: its %clk is read once, at the end.
    let mut last_comment: [Option<&pgn::movetext::Span>; 2] = [None, None];
    let mut comments = g.game.comments.iter().peekable();
    let mut ending = ending_by_rule(&pos, &pos.legal_moves(), 1, &|| None);
    for (k, tok) in g.game.moves.iter().enumerate() {
        let ply = k + 1;
        let raw = &text[tok.span.clone()];
        if let Some(end) = &ending {
            let l = label(&pos, raw);
            cx.add(Some((ply, &l)), "after_end", Severity::Error, &[end.article], format!(
                "{l} was played after the game had ended: {} ({}); moves after the end do not count",
                end.explanation, end.article
            ));
            break;
        }
        let mover = pos.turn();
        if is_null_move(raw) {
            let l = label(&pos, raw);
            match pgn::pass(&pos) {
                Ok(after) => {
                    cx.add(Some((ply, &l)), "null_move", Severity::Warning, &["1.2"], format!(
                        "{l} is a null move: {} passed, which the Laws do not allow (1.2); the rest of the game is read from the position after the pass",
                        capitalised(mover)
                    ));
                    pos = after;
                    counts.clear();
                    repeated = 0;
                }
                Err(why) => {
                    cx.out.unreadable = true;
                    cx.add(Some((ply, &l)), "null_move", Severity::Error, &["1.2"], format!(
                        "{l} is a null move, which the Laws do not allow (1.2); {why}, so the rest of the game cannot be read"
                    ));
                    return;
                }
            }
        } else {
            let m = match pgn::resolve(&pos, raw, mode) {
                Ok(m) => m,
                Err(rej) => {
                    let l = label(&pos, raw);
                    cx.out.unreadable = true;
                    let (kind, message) = match rej.kind {
                        "notation" => (
                            "notation",
                            format!("{l} cannot be read as a move: {}", rej.reason),
                        ),
                        "ambiguous" => ("ambiguous", format!("{l} {}", rej.reason)),
                        _ => ("illegal_move", format!("{l} is illegal: it {}", rej.reason)),
                    };
                    let articles: Vec<&str> = rej.articles.iter().map(String::as_str).collect();
                    cx.add(Some((ply, &l)), kind, Severity::Error, &articles, message);
                    cx.out.plies = k;
                    return;
                }
            };
            pos.play_unchecked(m);
            if m.is_zeroing() {
                counts.clear();
                repeated = 0;
            }
        }
        cx.out.plies = ply;
        history.push(pos.clone());
        while let Some(c) = comments.next_if(|c| c.after <= ply) {
            if c.after == ply && text[c.span.clone()].contains("%clk") {
                last_comment[mover as usize] = Some(&c.span);
            }
        }
        let legal = pos.legal_moves();
        let id = identity(&pos);
        let count = {
            let c = counts.entry(id).or_insert(0);
            *c += 1;
            *c
        };
        if count == 2 {
            repeated += 1;
        }
        ending = ending_by_rule(&pos, &legal, count, &|| {
            label_before(text, g, &history, ply)
        });
        if ending.is_some() {
            continue;
        }
        // Draw claims (9.2, 9.3) the side to move could now make: the first chance of each.
        let side = pos.turn();
        if claims[side as usize].is_none() {
            let claim = if count >= 3 {
                Some((
                    "threefold repetition: the position has occurred three times",
                    "9.2.2",
                ))
            } else if pos.halfmoves() >= 100 {
                Some((
                    "fifty moves by each player without a capture or a pawn move",
                    "9.3.2",
                ))
            } else if repeated > 0
                && legal.iter().filter(|m| !m.is_zeroing()).any(|m| {
                    let mut p = pos.clone();
                    p.play_unchecked(*m);
                    counts.get(&identity(&p)).copied().unwrap_or(0) >= 2
                })
            {
                Some((
                    "threefold repetition, by declaring a move that repeats the position a third time",
                    "9.2.1",
                ))
            } else if pos.halfmoves() == 99 && legal.iter().any(|m| !m.is_zeroing()) {
                Some((
                    "fifty moves, by declaring a move without a capture or a pawn move",
                    "9.3.1",
                ))
            } else {
                None
            };
            if let Some((what, article)) = claim {
                claims[side as usize] = Some(Claim {
                    ply,
                    label: label_before(text, g, &history, ply).unwrap_or_default(),
                    what: what.to_string(),
                    article,
                });
            }
        }
    }
    if cx.out.unreadable {
        return;
    }
    let clock_flag = winner_of(&recorded).and_then(|w| {
        let comment = last_comment[w.other() as usize]?;
        (clocks(&text[comment.clone()]).clk == Some(Duration::ZERO))
            .then_some("the loser's clock shows 0:00:00")
    });
    let on_time = time_forfeit(g).or(clock_flag);

    // The end: by rule on the board, or open (then the solver decides what a flag, a
    // resignation or a dead position make of it).
    let decisive = winner_of(&recorded);
    let ending = match ending {
        Some(e) => Some(e),
        // A decisive result is weighed below, where the solver says whether the position is
        // dead; for a draw or no result, the solver's fast test says whether to look.
        None if decisive.is_none() && fast_dead(&pos, mode) && is_dead(&pos, mode, opts.budget) => {
            Some(first_dead(cx, &history, mode, opts))
        }
        None => None,
    };
    if let Some(e) = ending {
        if on_time.is_some() {
            cx.out.timeout = Some(Timeout::EndedBefore);
        }
        judge_ended(cx, &e, &recorded, on_time.is_some());
        if e.result == recorded {
            missed_claim(cx, &claims, &recorded);
        }
        return;
    }
    let after_last = at(label_before(text, g, &history, history.len() - 1).as_deref());
    match decisive {
        Some(winner) => {
            // The verdict of the report's `flag` and `resignation`: can the winner still mate?
            let loser = winner.other();
            let (w, l) = (capitalised(winner), capitalised(loser));
            match winnability(&pos, mode, winner, opts.budget) {
                Winnability::Winnable { helpmate } => {
                    if let Some(how) = on_time {
                        cx.out.timeout = Some(Timeout::Upheld);
                        let line = helpmate_san(&pos, &helpmate);
                        let f = cx.add(None, "time_forfeit_upheld", Severity::Info, &["6.9"], format!(
                            "{l} lost on time ({how}) {after_last}, and the loss stands: {w} could still checkmate by a series of legal moves, for example {} (6.9)",
                            short_line(&line)
                        ));
                        f.recorded = Some(recorded.clone());
                        f.expected = Some(recorded.clone());
                        f.helpmate = line;
                    }
                }
                Winnability::Unwinnable => {
                    if winnability(&pos, mode, loser, opts.budget).decided() == Some(false) {
                        let e = first_dead(cx, &history, mode, opts);
                        if on_time.is_some() {
                            cx.out.timeout = Some(Timeout::EndedBefore);
                        }
                        judge_ended(cx, &e, &recorded, on_time.is_some());
                        return;
                    }
                    let f = if let Some(how) = on_time {
                        cx.out.timeout = Some(Timeout::Wrong);
                        cx.add(None, "time_forfeit", Severity::Error, &["6.9"], format!(
                            "recorded {recorded}: {l} lost on time ({how}) {after_last}; but {w} cannot checkmate by any series of legal moves, so the game is drawn (6.9)"
                        ))
                    } else {
                        let severity = match g
                            .game
                            .tag("Termination")
                            .map(|t| t.value.to_ascii_lowercase())
                        {
                            Some(t) if t.contains("normal") || t.contains("resign") => {
                                Severity::Error
                            }
                            _ => Severity::Warning,
                        };
                        cx.add(None, "result", severity, &["5.1.2", "6.9"], format!(
                            "recorded {recorded}, but {w} cannot checkmate by any series of legal moves {after_last}: whether {l} resigned (5.1.2) or ran out of time (6.9), the game is drawn"
                        ))
                    };
                    f.recorded = Some(recorded.clone());
                    f.expected = Some("1/2-1/2".into());
                }
                Winnability::Undetermined { why } => {
                    if let Some(how) = on_time {
                        cx.out.timeout = Some(Timeout::Undecided);
                        let f = cx.add(None, "undecided", Severity::Warning, &["6.9"], format!(
                            "{l} lost on time ({how}) {after_last}; whether {w} could still mate is undecided: {why}"
                        ));
                        f.recorded = Some(recorded.clone());
                    }
                }
            }
        }
        None if recorded == "1/2-1/2" && on_time.is_some() => {
            // A draw on time: the flag fell for the side to move, whose clock was running.
            let flagged = pos.turn();
            let opponent = flagged.other();
            cx.out.timeout = Some(match winnability(&pos, mode, opponent, opts.budget) {
                Winnability::Unwinnable => Timeout::Upheld,
                Winnability::Undetermined { .. } => Timeout::Undecided,
                Winnability::Winnable { helpmate } => {
                    let line = helpmate_san(&pos, &helpmate);
                    let f = cx.add(None, "time_forfeit", Severity::Warning, &["6.9"], format!(
                        "recorded a draw on time {after_last}, but if {}'s flag fell, {} wins: {} could still checkmate by a series of legal moves, for example {} (6.9)",
                        capitalised(flagged), capitalised(opponent), capitalised(opponent), short_line(&line)
                    ));
                    f.recorded = Some(recorded.clone());
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
            });
        }
        None => {}
    }
    missed_claim(cx, &claims, &recorded);
}

/// A player who could have claimed a draw (the first chance), played on and lost.
fn missed_claim(cx: &mut Ctx, claims: &[Option<Claim>; 2], recorded: &str) {
    if let Some(winner) = winner_of(recorded)
        && let Some(c) = &claims[winner.other() as usize]
    {
        let f = cx.add(
            Some((c.ply, &c.label)),
            "missed_claim",
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
    let (mut lo, mut hi) = (0usize, last);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if is_dead(&history[mid], mode, opts.budget) {
            hi = mid
        } else {
            lo = mid + 1
        }
    }
    let ending = Ending {
        result: "1/2-1/2",
        article: "5.2.2",
        explanation: format!(
            "{} neither side can checkmate by any series of legal moves: the position is dead",
            at(label_before(text, cx.g, history, lo).as_deref())
        ),
    };
    if lo < last
        && let Some(l) = label_before(text, cx.g, history, lo + 1)
    {
        cx.add(Some((lo + 1, &l)), "after_end", Severity::Error, &["5.2.2"], format!(
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
            "result",
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
        let f = cx.add(None, "result", Severity::Error, &[e.article], format!(
            "recorded {recorded}{how}, which contradicts the board: {} ({}), so the result is {}",
            e.explanation, e.article, e.result
        ));
        f.recorded = Some(recorded.to_string());
        f.expected = Some(e.result.to_string());
    }
}
