//! `arbiter check`: the position report, one position or a batch of JSON lines.

use std::time::Duration;

use super::{PositionArgs, json_lines, report_error};
use crate::answer::CheckRequest;
use crate::rules::{self, CheckOptions, SolverBudget};
use crate::text::capitalise_first;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// A move to test in the final position: is it legal here, and if not, why.
    #[arg(long = "move", value_name = "MOVE")]
    pub move_text: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Read JSON lines {"fen": …, "moves": [..], "move": …} from stdin and write one JSON
    /// report (or {"error": …}) per line, in order.
    #[arg(long)]
    pub batch: bool,
    /// How much work the unwinnability solver may do per side, in milliseconds of solver work
    /// (counted in nodes, so verdicts do not depend on the machine's load; 0 = no limit).
    #[arg(long, default_value_t = 40)]
    pub solver_budget_ms: u64,
}

pub fn budget(ms: u64) -> SolverBudget {
    SolverBudget(if ms == 0 {
        None
    } else {
        Some(Duration::from_millis(ms))
    })
}

pub fn run(args: CheckArgs) -> anyhow::Result<i32> {
    let opts = CheckOptions {
        budget: budget(args.solver_budget_ms),
        skip_solver: false,
    };
    if args.batch {
        return run_batch(opts);
    }
    let request = args.position.request(args.move_text.clone())?;
    let game = match request.game() {
        Ok(g) => g,
        Err(e) => return Ok(report_error(args.json, &e, e.to_json())),
    };
    let report = rules::check(&game, request.move_text.as_deref(), opts);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", human_report(&report));
    }
    Ok(0)
}

/// One line of `check --batch`'s output.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum BatchLine {
    Report(Box<rules::Report>),
    Error(serde_json::Value),
}

fn run_batch(opts: CheckOptions) -> anyhow::Result<i32> {
    json_lines("a check request", |req: CheckRequest| {
        // The API's limits on moves and PGN size hold for a batch line too.
        if let Err(e) = req.within_limits() {
            return Ok(BatchLine::Error(
                serde_json::json!({ "error": e.to_json() }),
            ));
        }
        Ok(match req.game() {
            Ok(game) => BatchLine::Report(Box::new(rules::check(
                &game,
                req.move_text.as_deref(),
                opts,
            ))),
            Err(e) => BatchLine::Error(serde_json::json!({ "error": e.to_json() })),
        })
    })
}

/// The report as a player reads it.
pub fn human_report(r: &rules::Report) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "Position: {}\n{} to move.\n",
        r.fen,
        capitalise_first(r.turn)
    ));
    if let Some(o) = &r.outcome {
        s.push_str(&format!(
            "Game over: {} ({}) — {}\n",
            o.result, o.reason, o.explanation
        ));
    }
    s.push_str(&format!("Check: {}\n", r.check.reason));
    for (name, wings) in [("White", &r.castling.white), ("Black", &r.castling.black)] {
        for (wing, st) in [("O-O", &wings.kingside), ("O-O-O", &wings.queenside)] {
            let verdict = if st.legal {
                "legal now"
            } else if st.right {
                "right kept, not possible now"
            } else {
                "right lost"
            };
            s.push_str(&format!("{name} {wing}: {verdict}"));
            if let Some(first) = st.reasons.first() {
                s.push_str(&format!(" — {}", first.text));
            }
            s.push('\n');
        }
    }
    s.push_str(&format!("En passant: {}\n", r.en_passant_info.reason));
    s.push_str(&format!("Repetition: {}\n", r.repetition.reason));
    s.push_str(&format!("Fifty moves: {}\n", r.fifty_moves.reason));
    s.push_str(&format!("Dead position: {}\n", r.dead_position_info.reason));
    s.push_str(&format!(
        "Flag: {}; {}\n",
        r.flag_info.white.reason, r.flag_info.black.reason
    ));
    if let Some(mc) = &r.move_check {
        s.push_str(&format!("Move {}: {}\n", mc.input, mc.reason));
    }
    s.push_str(&format!(
        "Legal moves ({}): {}\n",
        r.legal_moves_san.len(),
        r.legal_moves_san.join(" ")
    ));
    for w in &r.warnings {
        s.push_str(&format!("Warning: {w}\n"));
    }
    s
}
