//! Can a side still mate by *any* series of legal moves? The question behind dead positions
//! (5.2.2), the flag (6.9), resignation (5.1.2) and an illegal move's penalty (7.5.5).
//!
//! The answer comes from chasolver (the CHA authors' helpmate solver), which works on boards of
//! the `chess` crate: [`to_chess_board`] builds one from our position by writing a FEN with
//! only the e.p. square that a legal capture can use. Our copy of chasolver
//! (`vendor/chasolver`) checks a stop condition inside its searches, so a query runs on the
//! caller's thread and ends when its [`SolverBudget`] runs out or its [`CancelToken`] is
//! cancelled (a request that timed out, an edit that made a diagnosis stale): no work goes on
//! after the answer. An unfinished query reports `Undetermined`, never a guess.

use std::cell::RefCell;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

/// The verdict on whether `winner` can still checkmate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Winnability {
    /// A mate exists; `helpmate` is one series of legal moves that reaches it (UCI).
    Winnable { helpmate: Vec<String> },
    /// No series of legal moves ends in a mate by this side.
    Unwinnable,
    /// The solver did not finish within the budget, was cancelled, or could not read the
    /// position.
    Undetermined { why: String },
}

impl Winnability {
    pub fn decided(&self) -> Option<bool> {
        match self {
            Winnability::Winnable { .. } => Some(true),
            Winnability::Unwinnable => Some(false),
            Winnability::Undetermined { .. } => None,
        }
    }
}

/// How long one query (one side of one position) may take. `None` means no time limit (a
/// [`CancelToken`] still stops it).
#[derive(Debug, Clone, Copy)]
pub struct SolverBudget(pub Option<Duration>);

impl Default for SolverBudget {
    fn default() -> Self {
        SolverBudget(Some(Duration::from_millis(40)))
    }
}

/// Stops solver work from another thread. Cloning shares the flag; once cancelled, a token
/// stays cancelled.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

thread_local! {
    /// The token of the work this thread is doing, set by [`with_cancel`].
    static SCOPE: RefCell<Option<CancelToken>> = const { RefCell::new(None) };
}

/// Runs `f` with every solver query it makes on this thread governed by `token`. The front
/// ends use it around a request's work, so that the layers in between (reports, answers,
/// claims) need not carry the token.
pub fn with_cancel<T>(token: &CancelToken, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<CancelToken>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SCOPE.with(|s| *s.borrow_mut() = previous);
        }
    }
    let _restore = Restore(SCOPE.with(|s| s.replace(Some(token.clone()))));
    f()
}

/// Whether the work this thread is doing (see [`with_cancel`]) has been cancelled: its
/// results are then incomplete and must not be kept.
pub fn cancelled() -> bool {
    SCOPE.with(|s| s.borrow().as_ref().is_some_and(CancelToken::is_cancelled))
}

fn current_token() -> Option<CancelToken> {
    SCOPE.with(|s| s.borrow().clone())
}

/// Writes the FEN that chasolver reads: castling rights only in standard chess (the `chess`
/// crate knows no Chess960 castling), the e.p. square only when a legal capture uses it.
pub fn chasolver_fen(pos: &Chess, mode: CastlingMode) -> String {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    if mode == CastlingMode::Chess960 {
        setup.castling_rights = shakmaty::Bitboard::EMPTY;
    }
    Fen::try_from_setup(setup)
        .map(|f| f.to_string())
        .unwrap_or_else(|e| e.ignore().to_string())
}

/// The bridge to chasolver's board type.
pub fn to_chess_board(pos: &Chess, mode: CastlingMode) -> Result<chess::Board, String> {
    board_from_fen(&chasolver_fen(pos, mode))
}

fn board_from_fen(fen: &str) -> Result<chess::Board, String> {
    chess::Board::from_str(fen).map_err(|e| format!("the solver cannot read {fen}: {e}"))
}

fn to_chess_color(color: Color) -> chess::Color {
    match color {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

type CacheKey = (String, bool);

/// Decided verdicts by (FEN, winner): a verdict never changes, and the same positions come
/// back (a game re-diagnosed after an edit, a widget asking about one position).
fn cache() -> &'static Mutex<HashMap<CacheKey, Winnability>> {
    static CACHE: OnceLock<Mutex<HashMap<CacheKey, Winnability>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

const CACHE_LIMIT: usize = 4096;

fn remember(key: CacheKey, verdict: &Winnability) {
    if verdict.decided().is_none() {
        return;
    }
    if let Ok(mut cache) = cache().lock() {
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, verdict.clone());
    }
}

fn recall(key: &CacheKey) -> Option<Winnability> {
    cache().lock().ok()?.get(key).cloned()
}

fn from_solver(found: Option<chasolver::Winnability>) -> Option<Winnability> {
    match found? {
        chasolver::Winnability::Winnable { helpmate } => Some(Winnability::Winnable {
            helpmate: helpmate.iter().map(|m| m.to_string()).collect(),
        }),
        chasolver::Winnability::Unwinnable => Some(Winnability::Unwinnable),
    }
}

/// Decides whether `winner` can still mate in `pos`, within `budget` and the thread's
/// [`CancelToken`].
pub fn winnability(
    pos: &Chess,
    mode: CastlingMode,
    winner: Color,
    budget: SolverBudget,
) -> Winnability {
    // The FEN is both the bridge to the solver's board and the cache key.
    let fen = chasolver_fen(pos, mode);
    let key = (fen, winner == Color::White);
    if let Some(hit) = recall(&key) {
        return hit;
    }
    let board = match board_from_fen(&key.0) {
        Ok(b) => b,
        Err(why) => return Winnability::Undetermined { why },
    };
    let token = current_token();
    let limits = chasolver::Limits {
        deadline: budget.0.map(|d| Instant::now() + d),
        cancel: token.as_ref().map(|t| Arc::clone(&t.0)),
    };
    let chess_winner = to_chess_color(winner);
    let outcome = std::panic::catch_unwind(|| {
        if chasolver::is_unwinnable_fast_within(&board, chess_winner, &limits) {
            return Some(Winnability::Unwinnable);
        }
        from_solver(chasolver::winnability_within(&board, chess_winner, &limits))
    });
    let verdict = match outcome {
        Ok(Some(verdict)) => verdict,
        Ok(None) => Winnability::Undetermined {
            why: if token.as_ref().is_some_and(CancelToken::is_cancelled) {
                "the request was cancelled before the solver finished".into()
            } else if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                format!(
                    "not decided within the solver budget of {} ms",
                    budget.0.unwrap_or_default().as_millis()
                )
            } else {
                "the solver gave up on this position".into()
            },
        },
        Err(_) => Winnability::Undetermined {
            why: "the solver failed on this position".into(),
        },
    };
    remember(key, &verdict);
    verdict
}

/// Turns a helpmate line (UCI) into SAN from `pos`, stopping at the first move that does not
/// apply (which would be a bridge bug, reported rather than hidden).
pub fn helpmate_san(pos: &Chess, line: &[String]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for text in line {
        let Ok(uci) = UciMove::from_ascii(text.as_bytes()) else {
            break;
        };
        let Ok(m) = uci.to_move(&p) else { break };
        out.push(super::notation::san_plus(&p, m));
        p.play_unchecked(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn bridge_keeps_castling_and_legal_ep_only() {
        let p = pos("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        assert_eq!(
            chasolver_fen(&p, CastlingMode::Standard),
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"
        );
        let p = pos("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
        assert_eq!(
            chasolver_fen(&p, CastlingMode::Standard),
            "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1"
        );
        assert!(to_chess_board(&p, CastlingMode::Standard).is_ok());
    }

    #[test]
    fn knight_against_pawn_is_winnable_both_ways() {
        let p = pos("8/8/8/4k3/8/8/2p5/K1N5 w - - 0 1");
        let unlimited = SolverBudget(None);
        assert!(matches!(
            winnability(&p, CastlingMode::Standard, Color::White, unlimited),
            Winnability::Winnable { .. }
        ));
        assert!(matches!(
            winnability(&p, CastlingMode::Standard, Color::Black, unlimited),
            Winnability::Winnable { .. }
        ));
    }

    /// The position of issue 17: the fast check alone ran for about 4 s.
    const SLOW: &str = "kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w - - 0 1";

    #[test]
    fn a_slow_position_ends_within_its_budget() {
        let p = pos(SLOW);
        for (ms, winner) in [(1, Color::White), (50, Color::Black)] {
            let started = Instant::now();
            let verdict = winnability(
                &p,
                CastlingMode::Standard,
                winner,
                SolverBudget(Some(Duration::from_millis(ms))),
            );
            let took = started.elapsed();
            assert!(
                took < Duration::from_millis(ms + 250),
                "{ms} ms budget took {took:?}"
            );
            assert!(
                matches!(verdict, Winnability::Undetermined { ref why } if why.contains("budget")),
                "{verdict:?}"
            );
        }
    }

    #[test]
    fn a_cancelled_query_stops_at_once_and_is_not_remembered() {
        let p = pos(SLOW);
        let token = CancelToken::new();
        let canceller = {
            let token = token.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(30));
                token.cancel();
            })
        };
        let started = Instant::now();
        let verdict = with_cancel(&token, || {
            let v = winnability(&p, CastlingMode::Standard, Color::White, SolverBudget(None));
            assert!(cancelled());
            v
        });
        canceller.join().unwrap();
        assert!(started.elapsed() < Duration::from_millis(30 + 250));
        assert!(
            matches!(verdict, Winnability::Undetermined { ref why } if why.contains("cancelled")),
            "{verdict:?}"
        );
        assert!(!cancelled(), "the scope ends with with_cancel");
        let key = (chasolver_fen(&p, CastlingMode::Standard), true);
        assert!(recall(&key).is_none());
    }

    #[test]
    fn lone_king_cannot_mate() {
        let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(
            winnability(&p, CastlingMode::Standard, Color::Black, SolverBudget(None)),
            Winnability::Unwinnable
        );
    }
}
