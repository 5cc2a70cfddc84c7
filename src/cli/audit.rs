//! `arbiter audit`: re-judge every game of PGN databases against the Laws.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::check::budget;
use crate::audit::input::Input;
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
    let inputs = open_inputs(&args.files)?;
    let total_size: Option<u64> = inputs.iter().map(|i| i.size).sum();
    let bar =
        (!args.no_progress && std::io::stderr().is_terminal()).then(|| progress_bar(total_size));
    let stdout = std::io::stdout();
    let mut run = AuditRun {
        opts: &opts,
        format: output_format(&args),
        bar,
        out: std::io::BufWriter::new(stdout.lock()),
        totals: Totals::default(),
        done_before: 0,
    };
    if run.format == Format::Csv {
        writeln!(run.out, "{CSV_HEADER}")?;
    }
    for input in inputs {
        if !run.audit_input(input)? {
            return Ok(0);
        }
    }
    run.finish()?;
    Ok(0)
}

/// The output format the flags ask for (clap already refuses `--json` with `--csv`).
fn output_format(args: &AuditArgs) -> Format {
    if args.json {
        Format::Json
    } else if args.csv {
        Format::Csv
    } else {
        Format::Text { all: args.all }
    }
}

/// Opens every input before judging any, so that a missing file fails the run at once
/// instead of after the others were audited; no file means stdin.
fn open_inputs(files: &[PathBuf]) -> anyhow::Result<Vec<Input>> {
    let files = if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    let mut inputs = Vec::new();
    for path in &files {
        inputs.push(input::open(path).with_context(|| format!("opening {}", path.display()))?);
    }
    Ok(inputs)
}

/// A progress bar on stderr: by bytes with a percentage when every input's size is known,
/// a spinner otherwise (stdin, a pipe).
fn progress_bar(total_size: Option<u64>) -> ProgressBar {
    match total_size {
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
    }
}

/// One audit across all inputs: the findings go to `out` as they are judged, and the totals
/// and progress carry over from one input to the next, which is why this is a struct.
struct AuditRun<'a, W: Write> {
    opts: &'a Options,
    format: Format,
    bar: Option<ProgressBar>,
    out: W,
    totals: Totals,
    /// Bytes read from the inputs already audited, so the bar counts across inputs.
    done_before: u64,
}

impl<W: Write> AuditRun<'_, W> {
    /// Judges every game of one input, writing its findings. `Ok(false)` means stdout was
    /// closed (the reader, say `head`, has seen enough): the audit stops quietly, as a Unix
    /// filter should. Any other write error is an error.
    fn audit_input(&mut self, input: Input) -> anyhow::Result<bool> {
        let read = input.read.clone();
        let format = self.format;
        let out = &mut self.out;
        let mut write_error: Option<std::io::Error> = None;
        let mut each = |j: &crate::audit::Judged| {
            if write_error.is_some() {
                return;
            }
            for f in &j.findings {
                if let Err(e) = output::write_finding(out, format, f) {
                    write_error = Some(e);
                    return;
                }
            }
        };
        let games_before = self.totals.games;
        let done_before = self.done_before;
        let bar = &self.bar;
        let mut progress = |games: usize| {
            if let Some(bar) = bar {
                bar.set_position(done_before + read.load(Ordering::Relaxed));
                bar.set_message(format!("{} games", games_before + games));
            }
        };
        let t = audit_reader(
            &input.name,
            input.reader,
            self.opts,
            &mut each,
            &mut progress,
        )
        .with_context(|| format!("reading {}", input.name))?;
        self.done_before += input.read.load(Ordering::Relaxed);
        self.totals.merge(t);
        match write_error {
            Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
            Some(e) => Err(e.into()),
            None => Ok(true),
        }
    }

    /// Clears the bar and writes the summary: after the findings in the readable report (a
    /// blank line apart when there were any), on stderr for JSON and CSV so that stdout stays
    /// one record per line.
    fn finish(mut self) -> anyhow::Result<()> {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let totals = &self.totals;
        let summary = output::summary(totals);
        match self.format {
            Format::Text { all } => {
                if totals.errors + totals.warnings > 0 || (all && totals.infos > 0) {
                    writeln!(self.out)?;
                }
                write!(self.out, "{summary}")?;
                self.out.flush()?;
            }
            Format::Json | Format::Csv => {
                self.out.flush()?;
                eprint!("{summary}");
            }
        }
        Ok(())
    }
}
