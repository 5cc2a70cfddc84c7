//! `arbiter audit`: re-judge every game of PGN databases against the Laws.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::check::budget;
use crate::audit::output::{self, CSV_HEADER, Format};
use crate::audit::{Options, Totals, audit_reader, input};

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// PGN files (plain, .gz or .zst, told apart by their first bytes); "-" or nothing reads
    /// stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write one JSON object per finding (game, ply, move, kind, severity, message, articles,
    /// recorded, expected, helpmate…); the summary goes to stderr.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Write one CSV row per finding, with a header; the summary goes to stderr.
    #[arg(long)]
    pub csv: bool,
    /// List the notes too (losses on time that stand, missed claims, variants) in the readable
    /// report; JSON and CSV always have every finding.
    #[arg(long)]
    pub all: bool,
    /// Time a solver query may take, in milliseconds; 0 (the default) lets each run to its end
    /// on the judging thread (chasolver gives up by itself after a million nodes).
    #[arg(long, default_value_t = 0)]
    pub solver_budget_ms: u64,
    /// Threads judging games (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar (there is one only when stderr is a terminal anyway).
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: AuditArgs) -> anyhow::Result<i32> {
    if let Some(n) = args.threads {
        // Fails only when the pool was already built, which the binary never does before.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    let opts = Options {
        budget: budget(args.solver_budget_ms),
    };
    let format = if args.json {
        Format::Json
    } else if args.csv {
        Format::Csv
    } else {
        Format::Text { all: args.all }
    };
    let files = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    let mut inputs = Vec::new();
    for path in &files {
        inputs.push(input::open(path).with_context(|| format!("opening {}", path.display()))?);
    }
    let total_size: Option<u64> = inputs.iter().map(|i| i.size).sum();
    let bar = if !args.no_progress && std::io::stderr().is_terminal() {
        let bar = match total_size {
            Some(len) => ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
                .with_style(
                ProgressStyle::with_template(
                    "{bar:30} {percent:>3}% {binary_bytes}/{binary_total_bytes} {msg} ({eta} left)",
                )
                .expect("a valid template"),
            ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("{spinner} {binary_bytes} {msg} ({elapsed})")
                    .expect("a valid template"),
            ),
        };
        Some(bar)
    } else {
        None
    };

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if format == Format::Csv {
        writeln!(out, "{CSV_HEADER}")?;
    }
    let mut totals = Totals::default();
    let mut done_before = 0u64;
    let mut write_error: Option<std::io::Error> = None;
    for input in inputs {
        let read = input.read.clone();
        let mut each = |j: &crate::audit::Judged| {
            if write_error.is_some() {
                return;
            }
            for f in &j.findings {
                if let Err(e) = output::write_finding(&mut out, format, f) {
                    write_error = Some(e);
                    return;
                }
            }
        };
        let games_before = totals.games;
        let mut progress = |games: usize| {
            if let Some(bar) = &bar {
                bar.set_position(done_before + read.load(Ordering::Relaxed));
                bar.set_message(format!("{} games", games_before + games));
            }
        };
        let t = audit_reader(&input.name, input.reader, &opts, &mut each, &mut progress)
            .with_context(|| format!("reading {}", input.name))?;
        done_before += input.read.load(Ordering::Relaxed);
        totals.merge(t);
        if let Some(e) = write_error.take() {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(0);
            }
            return Err(e.into());
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let summary = output::summary(&totals);
    match format {
        Format::Text { .. } => {
            if totals.errors + totals.warnings > 0 || (args.all && totals.infos > 0) {
                writeln!(out)?;
            }
            write!(out, "{summary}")?;
            out.flush()?;
        }
        Format::Json | Format::Csv => {
            out.flush()?;
            eprint!("{summary}");
        }
    }
    Ok(0)
}
