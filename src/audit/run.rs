//! Games judged on every core, in order, in flat memory.
//!
//! A reader thread splits, decodes and tokenizes the input (cheap, sequential) and hands
//! batches of games over a channel that holds at most two; the calling thread judges each
//! batch with rayon and passes the results on in input order. So memory holds a few batches
//! whatever the size of the file, and the output does not depend on the number of threads.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Duration;

use rayon::prelude::*;

use super::judge::{Judged, Options, Timeout, judge};
use super::{Finding, FindingKind, Severity};
use crate::rules::pgn::{Encoding, GameReader, ReadGame};

/// Games per batch handed to the judges.
const BATCH: usize = 256;

/// What an audit counted.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    pub inputs: usize,
    pub games: usize,
    pub plies: u64,
    /// Games in a variant other than Chess960: not judged.
    pub not_standard: usize,
    /// Games whose main line could not be read to the end.
    pub unreadable: usize,
    pub by_kind: BTreeMap<FindingKind, usize>,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Recorded time forfeits, by what became of them.
    pub timeouts: BTreeMap<&'static str, usize>,
    /// Games with at least one error.
    pub games_with_errors: usize,
    pub elapsed: Duration,
}

impl Totals {
    pub fn add(&mut self, j: &Judged) {
        self.games += 1;
        self.plies += j.plies as u64;
        self.not_standard += usize::from(j.not_standard);
        self.unreadable += usize::from(j.unreadable);
        self.count_findings(&j.findings);
        if j.findings.iter().any(|f| f.severity == Severity::Error) {
            self.games_with_errors += 1;
        }
        if let Some(t) = j.timeout {
            let key = match t {
                Timeout::Upheld => "upheld",
                Timeout::Wrong => "wrong",
                Timeout::Undecided => "undecided",
                Timeout::EndedBefore => "ended_before",
            };
            *self.timeouts.entry(key).or_default() += 1;
        }
    }

    pub fn count_findings(&mut self, findings: &[Finding]) {
        for f in findings {
            *self.by_kind.entry(f.kind).or_default() += 1;
            match f.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => self.infos += 1,
            }
        }
    }
}

/// Judges one game; a panic inside becomes an `internal` finding instead of ending the audit.
pub fn judge_guarded(g: &ReadGame, opts: &Options) -> Judged {
    match catch_unwind(AssertUnwindSafe(|| judge(g, opts))) {
        Ok(j) => j,
        Err(_) => Judged {
            game: g.index,
            unreadable: true,
            findings: vec![Finding {
                file: None,
                game: g.index,
                ply: None,
                move_text: None,
                kind: FindingKind::Internal,
                severity: Severity::Error,
                message: "the arbiter failed while judging this game (an internal error)".into(),
                articles: vec![],
                recorded: None,
                expected: None,
                helpmate: vec![],
                white: None,
                black: None,
                site: None,
            }],
            ..Judged::default()
        },
    }
}

/// Audits every game of one input, calling `each` with each judged game in input order, its
/// findings labelled with `name`. `progress` is called after each batch with the number of
/// games judged so far. Returns the input's totals.
pub fn audit_reader(
    name: &str,
    reader: impl BufRead + Send,
    opts: &Options,
    each: &mut dyn FnMut(&Judged),
    progress: &mut dyn FnMut(usize),
) -> io::Result<Totals> {
    let started = std::time::Instant::now();
    let mut totals = Totals {
        inputs: 1,
        ..Totals::default()
    };
    let (tx, rx) = mpsc::sync_channel::<io::Result<Vec<ReadGame>>>(2);
    let mut noted_encoding = false;
    std::thread::scope(|scope| -> io::Result<()> {
        scope.spawn(move || {
            let mut games = GameReader::new(reader);
            loop {
                let mut batch = Vec::with_capacity(BATCH);
                for g in games.by_ref().take(BATCH) {
                    match g {
                        Ok(g) => batch.push(g),
                        Err(e) => {
                            let _ = tx.send(Ok(batch));
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                }
                let last = batch.len() < BATCH;
                if (!batch.is_empty() && tx.send(Ok(batch)).is_err()) || last {
                    return;
                }
            }
        });
        for batch in rx {
            let batch = batch?;
            let judged: Vec<Judged> = batch.par_iter().map(|g| judge_guarded(g, opts)).collect();
            for (g, mut j) in batch.iter().zip(judged) {
                if g.encoding != Encoding::Utf8 && !noted_encoding {
                    noted_encoding = true;
                    j.findings.insert(
                        0,
                        Finding {
                            file: None,
                            game: g.index,
                            ply: None,
                            move_text: None,
                            kind: FindingKind::Encoding,
                            severity: Severity::Info,
                            message: format!(
                                "the input is not UTF-8 from this game on: it was read as {}",
                                g.encoding.name()
                            ),
                            articles: vec![],
                            recorded: None,
                            expected: None,
                            helpmate: vec![],
                            white: g.game.tag("White").map(|t| t.value.clone()),
                            black: g.game.tag("Black").map(|t| t.value.clone()),
                            site: g.game.tag("Site").map(|t| t.value.clone()),
                        },
                    );
                }
                for f in &mut j.findings {
                    f.file = Some(name.to_string());
                }
                totals.add(&j);
                each(&j);
            }
            progress(totals.games);
        }
        Ok(())
    })?;
    totals.elapsed = started.elapsed();
    Ok(totals)
}

impl Totals {
    /// Adds another input's totals.
    pub fn merge(&mut self, other: Totals) {
        self.inputs += other.inputs;
        self.games += other.games;
        self.plies += other.plies;
        self.not_standard += other.not_standard;
        self.unreadable += other.unreadable;
        for (k, v) in other.by_kind {
            *self.by_kind.entry(k).or_default() += v;
        }
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        for (k, v) in other.timeouts {
            *self.timeouts.entry(k).or_default() += v;
        }
        self.games_with_errors += other.games_with_errors;
        self.elapsed += other.elapsed;
    }
}

/// Every judged game of a PGN text, in order (for tests and small inputs).
pub fn audit_text(text: &str, opts: &Options) -> Vec<Judged> {
    let mut out = Vec::new();
    audit_reader(
        "-",
        text.as_bytes(),
        opts,
        &mut |j| out.push(j.clone()),
        &mut |_| {},
    )
    .expect("reading from memory cannot fail");
    out
}
