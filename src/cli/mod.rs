//! The command line: thin glue over the library. `main` maps errors to exit codes; the
//! libraries never print.

pub mod check;

use clap::{Parser, Subcommand};

/// Rules Arbiter: chess-rules answers with the FIDE articles behind them, and checkable
/// verdicts on positions.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Report on a position or game: legal moves, castling, e.p., mate, repetition, 50/75,
    /// dead position and the flag, each verdict with its article.
    Check(check::CheckArgs),
}

pub fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Check(args) => check::run(args),
    }
}
