//! chasolver alone on the positions of `benches/check_batch.py`: the floor under the full
//! report of `arbiter check --batch`, so that the benchmark can say what the report adds.
//!
//!     cargo bench --bench solver_direct -- FILE [LINES] [BUDGET_MS] [REPEAT]
//!
//! FILE holds one position a line as CHA's `lichess.txt` does (a two-character label, a space,
//! a FEN; `#` lines are comments); the first LINES positions are read (default 2,000). For each
//! position, the same queries as a report, made chasolver's cheapest way: for White then for
//! Black, `winnability_with_fast_check_within` (the fast unwinnability test and, when it is
//! inconclusive, the full analysis, in one call that runs the analysis's cheap first phases
//! before the fast test), under a deadline of BUDGET_MS (default 40, as `check --batch`; 0 =
//! none). Nothing is cached.
//! Boards are read from the FEN before the clock starts. Prints one line of `key=value`
//! figures (wall and CPU seconds, each the best of REPEAT runs, default 3) for check_batch.py
//! to read.

use std::str::FromStr;
use std::time::{Duration, Instant};

use chess::{Board, Color};
use rules_arbiter::rules::winnability::SolverBudget;

/// The allocator of the `arbiter` binary: chasolver allocates a transposition table per
/// query, and with glibc's allocator the same queries take up to three times as long, which
/// would flatter the arbiter's overhead.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Args {
    file: String,
    lines: usize,
    budget: Option<Duration>,
    repeat: usize,
}

fn args() -> Args {
    // `cargo bench` passes `--bench` to a harness-less target: ignore flags.
    let free: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let number = |i: usize, default: u64| -> u64 {
        free.get(i)
            .map(|s| s.parse().expect("a whole number"))
            .unwrap_or(default)
    };
    let file = free.first().cloned().unwrap_or_else(|| {
        eprintln!("usage: solver_direct FILE [LINES] [BUDGET_MS] [REPEAT]");
        std::process::exit(2)
    });
    let ms = number(2, 40);
    Args {
        file,
        lines: number(1, 2000) as usize,
        budget: (ms > 0).then(|| Duration::from_millis(ms)),
        repeat: number(3, 3).max(1) as usize,
    }
}

fn boards(path: &str, limit: usize) -> Vec<Board> {
    let text = std::fs::read_to_string(path).expect("the position file");
    text.lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 4)
        .take(limit)
        .map(|l| Board::from_str(l[3..].trim()).expect("a FEN the chess crate reads"))
        .collect()
}

/// The two queries of one report; returns how many sides were decided.
fn report_queries(board: &Board, budget: Option<Duration>) -> usize {
    [Color::White, Color::Black]
        .into_iter()
        .filter(|&winner| {
            // The limits the checker sets.
            let limits = SolverBudget(budget).limits();
            chasolver::winnability_with_fast_check_within(board, winner, &limits)
                .0
                .is_some()
        })
        .count()
}

/// CPU seconds this process has used (user and system).
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn main() {
    let args = args();
    let boards = boards(&args.file, args.lines);
    let (mut best, mut best_cpu) = (Duration::MAX, f64::MAX);
    let mut decided = 0;
    for _ in 0..args.repeat {
        let (started, cpu) = (Instant::now(), cpu_seconds());
        decided = boards
            .iter()
            .map(|b| report_queries(b, args.budget))
            .sum::<usize>();
        best = best.min(started.elapsed());
        best_cpu = best_cpu.min(cpu_seconds() - cpu);
    }
    let n = boards.len().max(1) as f64;
    println!(
        "positions={} seconds={:.4} cpu_seconds={:.4} us_per_position={:.1} queries={} decided={}",
        boards.len(),
        best.as_secs_f64(),
        best_cpu,
        best.as_secs_f64() / n * 1e6,
        boards.len() * 2,
        decided
    );
}
