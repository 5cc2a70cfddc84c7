//! The command line: thin glue over the library. `main` maps errors to exit codes; the
//! libraries never print.

pub mod ask;
pub mod audit;
pub mod check;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

use crate::rules::ErrorCode;

use crate::answer::Arbiter;
use crate::rulebook::Rulebook;
use crate::search::{SearchIndex, Vocabulary};

/// Rules Arbiter: chess-rules answers with the FIDE articles behind them, and checkable
/// verdicts on positions.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Where the rulebook and its index come from.
#[derive(Debug, Clone, Args)]
pub struct SourceArgs {
    /// Read the rulebook from this directory instead of the copy built into the binary
    /// (its vocabulary.toml too, when present).
    #[arg(long, value_name = "DIR")]
    pub rulebook: Option<PathBuf>,
    /// Open the search index built by `arbiter index` in this directory when it matches the
    /// rulebook; otherwise an index is built in memory at start-up.
    #[arg(long, value_name = "DIR", default_value = "index")]
    pub index: PathBuf,
}

impl SourceArgs {
    pub fn load_rulebook(&self) -> anyhow::Result<(Rulebook, Vocabulary)> {
        match &self.rulebook {
            Some(dir) => {
                let book = Rulebook::from_dir(dir)
                    .with_context(|| format!("loading the rulebook from {}", dir.display()))?;
                let vocab = Vocabulary::beside(dir).map_err(anyhow::Error::msg)?;
                Ok((book, vocab))
            }
            None => Ok((Rulebook::embedded()?, Vocabulary::embedded())),
        }
    }

    pub fn arbiter(&self) -> anyhow::Result<Arbiter> {
        let (book, vocab) = self.load_rulebook()?;
        let (index, why) = SearchIndex::open_or_build(&book, vocab, Some(&self.index))?;
        if let Some(why) = why {
            tracing::debug!("search index built in memory: {why}");
        }
        Ok(Arbiter::new(book, index))
    }
}

/// The position a command is about: a FEN and moves, or a PGN file.
#[derive(Debug, Clone, Args)]
pub struct PositionArgs {
    /// Start position as FEN (default: the initial position). Shredder/X-FEN castling letters
    /// select Chess960.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the start position, SAN, UCI or long algebraic (g1-f3), separated by spaces
    /// ("e4 e5 Nf3" or "1. e4 e5 2. Nf3"; move numbers are ignored).
    #[arg(long)]
    pub moves: Option<String>,
    /// A PGN file: its first game is replayed (its [FEN] and [Variant] tags are honoured;
    /// `arbiter audit` judges every game of a file).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
}

impl PositionArgs {
    /// The request body these options describe (the PGN file is read here).
    pub fn request(
        &self,
        move_text: Option<String>,
    ) -> anyhow::Result<crate::answer::CheckRequest> {
        let pgn = match &self.pgn {
            Some(path) => Some(read_pgn_file(path)?),
            None => None,
        };
        Ok(crate::answer::CheckRequest {
            fen: self.fen.clone(),
            moves: self.moves.clone().map(crate::answer::MovesField::Text),
            pgn,
            move_text,
        })
    }
}

/// Longest `--batch` line read (bytes): the HTTP API's body limit.
pub const MAX_LINE_BYTES: usize = crate::server::MAX_BODY_BYTES;
/// A PGN file as text: UTF-8 (with or without a byte-order mark) or Windows-1252, the
/// fallback said on stderr. A file with no game in it is an error, not the start position.
pub fn read_pgn_file(path: &std::path::Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let (text, encoding) = crate::rules::pgn::decode::decode_owned(bytes);
    if encoding != crate::rules::pgn::Encoding::Utf8 {
        eprintln!(
            "note: {} is not UTF-8; it was read as {}",
            path.display(),
            encoding.name()
        );
    }
    if crate::rules::pgn::read_games(&text).games.is_empty() {
        anyhow::bail!("{} holds no PGN game", path.display());
    }
    Ok(text)
}

/// The `--batch` loop shared by `check` and `ask`: one JSON request per stdin line, one JSON
/// result (or `{"error": …}`) per stdout line, in order. Lines are read as bytes, at most
/// [`MAX_LINE_BYTES`] of each kept: a line that is too long, not UTF-8 or not a `T` is
/// answered with an error line (`line_too_long`, `bad_json`) and the batch goes on.
pub fn json_lines<T: serde::de::DeserializeOwned, R: serde::Serialize>(
    what: &str,
    handle: impl FnMut(T) -> anyhow::Result<R>,
) -> anyhow::Result<i32> {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    batch(stdin.lock(), &mut out, what, handle)?;
    Ok(0)
}

/// [`json_lines`] over any input and output.
pub fn batch<T: serde::de::DeserializeOwned, R: serde::Serialize>(
    mut input: impl std::io::BufRead,
    out: &mut impl std::io::Write,
    what: &str,
    mut handle: impl FnMut(T) -> anyhow::Result<R>,
) -> anyhow::Result<()> {
    /// A result is written as it is, straight from its type (never through a
    /// `serde_json::Value` first).
    #[derive(serde::Serialize)]
    #[serde(untagged)]
    enum Reply<R> {
        Done(R),
        Error(serde_json::Value),
    }
    let mut line = Vec::new();
    // Each result is written into one reused buffer and handed over in one piece: many small
    // writes through the output's buffer cost more than the copy. sonic-rs writes the same
    // JSON as serde_json (checked byte for byte on 12,000 reports), with SIMD string escaping:
    // escaping was about 40 % of a cached report's instructions.
    let mut written = Vec::new();
    let mut number = 0usize;
    loop {
        line.clear();
        let (read, whole) =
            read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES).context("reading stdin")?;
        if read == 0 {
            break;
        }
        number += 1;
        let error = |code: ErrorCode, message: String| {
            Reply::Error(
                serde_json::json!({ "error": { "code": code, "message": format!("line {number}: {message}") }}),
            )
        };
        let value = if !whole {
            error(
                ErrorCode::LineTooLong,
                format!("longer than {MAX_LINE_BYTES} bytes (the API's body limit); skipped"),
            )
        } else {
            match std::str::from_utf8(&line) {
                Err(e) => error(
                    ErrorCode::BadJson,
                    format!("not UTF-8 (invalid byte at offset {})", e.valid_up_to()),
                ),
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => match serde_json::from_str::<T>(text) {
                    Ok(req) => Reply::Done(handle(req)?),
                    Err(e) => error(ErrorCode::BadJson, format!("not {what}: {e}")),
                },
            }
        };
        written.clear();
        sonic_rs::to_writer(&mut written, &value)?;
        written.push(b'\n');
        out.write_all(&written)?;
    }
    out.flush()?;
    Ok(())
}

/// Reads one line (through its newline, which is not kept) into `line`, keeping at most
/// `limit` bytes and skipping the rest. Returns the bytes read (0 at the end of the input)
/// and whether the whole line fitted.
fn read_line_bounded(
    input: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<(usize, bool)> {
    let mut read = 0;
    let mut whole = true;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((read, whole));
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        let room = limit.saturating_sub(line.len());
        if chunk.len() > room {
            whole = false;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(available.len());
        input.consume(used);
        read += used;
        if done.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok((read, whole));
        }
    }
}

/// Reports a request error as JSON on stdout (`--json`) or as text on stderr; exit code 2.
pub fn report_error(
    json: bool,
    error: &dyn std::fmt::Display,
    body: crate::rules::ErrorBody,
) -> i32 {
    if json {
        println!("{}", serde_json::json!({ "error": body }));
    } else {
        eprintln!("error: {error}");
    }
    2
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Report on a position or game: legal moves, castling, e.p., mate, repetition, 50/75,
    /// dead position and the flag, each verdict with its article.
    Check(check::CheckArgs),
    /// Re-judge every game of PGN files (plain, .gz, .zst, or stdin) against the Laws: illegal
    /// moves, results the board contradicts, losses on time where the opponent could not mate,
    /// moves after the end, missed claims, variants.
    Audit(audit::AuditArgs),
    /// Ask a rules question, optionally about a position or game.
    Ask(ask::AskArgs),
    /// Re-check claims about a position (JSON: {"fen", "moves", "claims": [...]}, from a file or stdin).
    Verify(ask::VerifyArgs),
    /// Search the rulebook.
    Search(ask::SearchArgs),
    /// The table of contents: every numbered article with its page and anchor.
    Articles {
        #[command(flatten)]
        source: SourceArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Build the search index on disk (written elsewhere, then swapped in atomically).
    Index {
        #[command(flatten)]
        source: SourceArgs,
        /// Output directory (default: index).
        #[arg(long, value_name = "DIR", default_value = "index")]
        out: PathBuf,
    },
    /// Run the golden answer suite (tests/answers/*.toml): ask every case, compare citations,
    /// claims and phrases, print the failures and `N passed, M failed`.
    Regress(crate::regress::RegressArgs),
    /// Run the language server for PGN files over stdio (diagnostics, hovers, arbiter/ask,
    /// arbiter/check).
    Lsp {
        #[command(flatten)]
        source: SourceArgs,
    },
    /// Run the HTTP service: chat page, JSON API, rulebook pages.
    Serve {
        #[command(flatten)]
        source: SourceArgs,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        #[command(flatten)]
        limits: ServeLimits,
    },
}

/// The limits of `arbiter serve` (see ARCHITECTURE.md, "server").
#[derive(Debug, Clone, Args)]
pub struct ServeLimits {
    /// Connections open at once [default: 1024, fewer under a low open-files limit]. When all
    /// are taken, the one idle the longest is closed for a newcomer.
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Time a client has to send a request head, or a body once the head has come; also how
    /// long an idle keep-alive connection stays open.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub client_timeout_ms: u64,
    /// Time to answer a request once it has arrived; then 503 `timeout` and its position work
    /// is stopped.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub answer_timeout_ms: u64,
    /// Position requests (checks, verifications, questions with a position) waiting for a
    /// worker; one more is answered 503 `busy` at once [default: 8 per worker].
    #[arg(long, value_name = "N")]
    pub max_queue: Option<usize>,
    /// How long shutdown (Ctrl-C, SIGTERM) waits for requests in flight.
    #[arg(long, value_name = "MS", default_value_t = 5_000)]
    pub shutdown_grace_ms: u64,
}

impl ServeLimits {
    pub fn limits(
        &self,
    ) -> (
        crate::server::RequestLimits,
        crate::server::ConnectionLimits,
    ) {
        use std::time::Duration;
        let client = Duration::from_millis(self.client_timeout_ms.max(1));
        let defaults = crate::server::RequestLimits::default();
        let requests = crate::server::RequestLimits {
            body_read: client,
            answer: Duration::from_millis(self.answer_timeout_ms.max(1)),
            queue: self.max_queue.unwrap_or(defaults.queue),
            ..defaults
        };
        let defaults = crate::server::ConnectionLimits::default();
        let connections = crate::server::ConnectionLimits {
            header_read: client,
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
            max_connections: self
                .max_connections
                .map_or(defaults.max_connections, |m| m.max(1)),
        };
        (requests, connections)
    }
}

pub fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Ask(args) => ask::run(args),
        Command::Verify(args) => ask::run_verify(args),
        Command::Search(args) => ask::run_search(args),
        Command::Articles { source, json } => {
            let (book, _) = source.load_rulebook()?;
            let toc = book.articles();
            if json {
                println!("{}", serde_json::to_string_pretty(&toc)?);
            } else {
                for a in toc {
                    println!("{:<10} {:<50} {}", a.number, a.title, a.url);
                }
            }
            Ok(0)
        }
        Command::Index { source, out } => {
            let (book, _) = source.load_rulebook()?;
            let started = std::time::Instant::now();
            let path = SearchIndex::build_on_disk(&book, &out)?;
            println!(
                "indexed {} passages from {} pages into {} in {:.0?} (rulebook {})",
                book.passages.len(),
                book.pages.len(),
                path.display(),
                started.elapsed(),
                &book.hash[..16]
            );
            Ok(0)
        }
        Command::Regress(args) => crate::regress::run(args),
        Command::Lsp { source } => crate::lsp::run_stdio(source.arbiter()?),
        Command::Serve {
            source,
            addr,
            limits,
        } => {
            let started = std::time::Instant::now();
            let arbiter = Arc::new(source.arbiter()?);
            tracing::info!(passages = arbiter.book.passages.len(), index = %arbiter.index.origin, elapsed = ?started.elapsed(), "rulebook and index ready");
            let (requests, connections) = limits.limits();
            // Position work holds one of `workers` permits while it runs: a blocking pool much
            // larger than that only fills with idle threads, each keeping its own allocator
            // pages (130 MB after a burst of position questions, 21 idle threads).
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .max_blocking_threads(requests.workers + 2)
                .build()?;
            let served =
                runtime.block_on(crate::server::serve(arbiter, addr, requests, connections));
            // Position work still running was cancelled with its connection; do not wait
            // long for a blocking thread to notice.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            served?;
            Ok(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Line {
        n: u32,
    }

    fn run(input: &[u8]) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        batch(input, &mut out, "a line", |l: Line| {
            Ok(serde_json::json!({ "n": l.n }))
        })
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn bad_bytes_and_long_lines_are_error_lines_and_the_batch_goes_on() {
        let mut input = b"{\"n\": 1}\n\xff\xfe{\"n\": 2}\n\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        input.extend(b"\n{\"n\": 3}\r\nnot json\n{\"n\": 4}");
        let out = run(&input);
        let codes: Vec<&str> = out
            .iter()
            .map(|v| v["error"]["code"].as_str().unwrap_or("ok"))
            .collect();
        assert_eq!(
            codes,
            ["ok", "bad_json", "line_too_long", "ok", "bad_json", "ok"]
        );
        assert_eq!(out[0]["n"], 1);
        assert_eq!(out[3]["n"], 3);
        assert_eq!(out[5]["n"], 4);
        let message = out[1]["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("line 2: not UTF-8"), "{message}");
        let message = out[2]["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("line 4: longer than"), "{message}");
    }
}
