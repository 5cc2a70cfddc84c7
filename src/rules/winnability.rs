//! Can a side still mate by *any* series of legal moves? The question behind dead positions
//! (5.2.2), the flag (6.9), resignation (5.1.2) and an illegal move's penalty (7.5.5).
//!
//! The answer comes from chasolver (the CHA authors' helpmate solver), which works on boards of
//! the `chess` crate: [`to_chess_board`] builds one from our position by writing a FEN with
//! only the e.p. square that a legal capture can use. chasolver has no public node budget, so
//! hard queries run on a small pool of solver threads and the caller waits at most the time
//! budget; an unfinished query reports `Undetermined` (never a guess) and its result, when it
//! arrives, is remembered for the next caller.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

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
    /// The solver did not finish within the budget, or could not read the position.
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

/// How long a caller waits for the full solver. `None` means: run to the end on this thread.
#[derive(Debug, Clone, Copy)]
pub struct SolverBudget(pub Option<Duration>);

impl Default for SolverBudget {
    fn default() -> Self {
        SolverBudget(Some(Duration::from_millis(40)))
    }
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

struct SolverPool {
    jobs: Mutex<mpsc::Sender<Job>>,
    cache: Mutex<HashMap<CacheKey, Winnability>>,
}

struct Job {
    board: chess::Board,
    winner: chess::Color,
    key: CacheKey,
    reply: mpsc::Sender<Winnability>,
}

const CACHE_LIMIT: usize = 4096;
const SOLVER_THREADS: usize = 2;

fn pool() -> &'static Arc<SolverPool> {
    static POOL: OnceLock<Arc<SolverPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let pool = Arc::new(SolverPool {
            jobs: Mutex::new(tx),
            cache: Mutex::new(HashMap::new()),
        });
        for i in 0..SOLVER_THREADS {
            let rx = Arc::clone(&rx);
            let pool = Arc::clone(&pool);
            std::thread::Builder::new()
                .name(format!("chasolver-{i}"))
                .spawn(move || {
                    loop {
                        let job = match rx.lock() {
                            Ok(guard) => match guard.recv() {
                                Ok(job) => job,
                                Err(_) => return,
                            },
                            Err(_) => return,
                        };
                        let verdict = run_full(&job.board, job.winner);
                        pool.remember(job.key, verdict.clone());
                        let _ = job.reply.send(verdict);
                    }
                })
                .expect("spawning a solver thread");
        }
        pool
    })
}

impl SolverPool {
    fn remember(&self, key: CacheKey, verdict: Winnability) {
        if matches!(verdict, Winnability::Undetermined { .. }) {
            return;
        }
        if let Ok(mut cache) = self.cache.lock() {
            if cache.len() >= CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(key, verdict);
        }
    }

    fn recall(&self, key: &CacheKey) -> Option<Winnability> {
        self.cache.lock().ok()?.get(key).cloned()
    }
}

fn run_full(board: &chess::Board, winner: chess::Color) -> Winnability {
    let outcome = std::panic::catch_unwind(|| chasolver::winnability(board, winner));
    match outcome {
        Ok(Some(chasolver::Winnability::Winnable { helpmate })) => Winnability::Winnable {
            helpmate: helpmate.iter().map(|m| m.to_string()).collect(),
        },
        Ok(Some(chasolver::Winnability::Unwinnable)) => Winnability::Unwinnable,
        Ok(None) => Winnability::Undetermined {
            why: "the solver gave up on this position".into(),
        },
        Err(_) => Winnability::Undetermined {
            why: "the solver failed on this position".into(),
        },
    }
}

/// Decides whether `winner` can still mate in `pos`.
pub fn winnability(
    pos: &Chess,
    mode: CastlingMode,
    winner: Color,
    budget: SolverBudget,
) -> Winnability {
    // The FEN is both the bridge to the solver's board and the cache key.
    let fen = chasolver_fen(pos, mode);
    let board = match board_from_fen(&fen) {
        Ok(b) => b,
        Err(why) => return Winnability::Undetermined { why },
    };
    let chess_winner = to_chess_color(winner);
    if chasolver::is_unwinnable_fast(&board, chess_winner) {
        return Winnability::Unwinnable;
    }
    let Some(limit) = budget.0 else {
        return run_full(&board, chess_winner);
    };
    let key = (fen, winner == Color::White);
    let pool = pool();
    if let Some(hit) = pool.recall(&key) {
        return hit;
    }
    let (reply, answer) = mpsc::channel();
    let sent = pool
        .jobs
        .lock()
        .map(|jobs| {
            jobs.send(Job {
                board,
                winner: chess_winner,
                key,
                reply,
            })
            .is_ok()
        })
        .unwrap_or(false);
    if !sent {
        return Winnability::Undetermined {
            why: "the solver is unavailable".into(),
        };
    }
    answer
        .recv_timeout(limit)
        .unwrap_or_else(|_| Winnability::Undetermined {
            why: format!(
                "not decided within the solver budget of {} ms",
                limit.as_millis()
            ),
        })
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

    #[test]
    fn lone_king_cannot_mate() {
        let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(
            winnability(&p, CastlingMode::Standard, Color::Black, SolverBudget(None)),
            Winnability::Unwinnable
        );
    }
}
