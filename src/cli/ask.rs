//! `arbiter ask`, `arbiter verify`, `arbiter search`.

use std::io::{BufRead, Read, Write};

use anyhow::Context;

use super::SourceArgs;
use crate::answer::{Answer, AskRequest, MovesField, VerifyRequest};

#[derive(Debug, clap::Args)]
pub struct AskArgs {
    /// The question, e.g. "Can I castle out of check?".
    pub question: Option<String>,
    /// The position as FEN.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the FEN (or the initial position), SAN or UCI, separated by spaces.
    #[arg(long)]
    pub moves: Option<String>,
    /// A PGN file whose first game is the position asked about.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<std::path::PathBuf>,
    /// Print the answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// Read JSON lines {"question", "fen"?, "moves"?, "pgn"?} from stdin; write one answer
    /// (or {"error": …}) per line.
    #[arg(long)]
    pub batch: bool,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// A JSON file {"fen"?, "moves"?, "pgn"?, "claims": [...]}; stdin when absent.
    pub file: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// The query: words, slang, notation or article numbers.
    pub query: String,
    /// How many results.
    #[arg(long, default_value_t = 5)]
    pub limit: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub source: SourceArgs,
}

pub fn run(args: AskArgs) -> anyhow::Result<i32> {
    let arbiter = args.source.arbiter()?;
    if args.batch {
        let stdin = std::io::stdin();
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for (n, line) in stdin.lock().lines().enumerate() {
            let line = line.context("reading stdin")?;
            if line.trim().is_empty() {
                continue;
            }
            let value = match serde_json::from_str::<AskRequest>(&line) {
                Ok(req) => match arbiter.ask(&req) {
                    Ok(a) => serde_json::to_value(a)?,
                    Err(e) => serde_json::json!({ "error": e.to_json() }),
                },
                Err(e) => serde_json::json!({ "error": { "code": "bad_json", "message": format!("line {}: not a question: {e}", n + 1) } }),
            };
            serde_json::to_writer(&mut out, &value)?;
            out.write_all(b"\n")?;
        }
        out.flush()?;
        return Ok(0);
    }
    let Some(question) = args.question.clone() else {
        anyhow::bail!("give a question: arbiter ask \"Can I castle out of check?\"");
    };
    let pgn = match &args.pgn {
        Some(p) => Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?),
        None => None,
    };
    let req = AskRequest { question, fen: args.fen.clone(), moves: args.moves.clone().map(MovesField::Text), pgn };
    match arbiter.ask(&req) {
        Ok(answer) => {
            if args.json {
                println!("{}", serde_json::to_string_pretty(&answer)?);
            } else {
                print!("{}", human_answer(&answer));
            }
            Ok(0)
        }
        Err(e) => {
            if args.json {
                println!("{}", serde_json::json!({ "error": e.to_json() }));
            } else {
                eprintln!("error: {e}");
            }
            Ok(2)
        }
    }
}

/// An answer as a player reads it: the ruling, then numbered sources.
pub fn human_answer(a: &Answer) -> String {
    let mut s = format!("{}\n", a.answer);
    if !a.claims.is_empty() {
        s.push_str("\nChecked:\n");
        for c in &a.claims {
            s.push_str(&format!("  - {}: {} ({})\n", serde_json::to_string(&c.subject).unwrap_or_default(), c.value, c.article));
        }
    }
    if !a.citations.is_empty() {
        s.push_str("\nSources:\n");
        for (i, c) in a.citations.iter().enumerate() {
            s.push_str(&format!("  [{}] {} {} — rulebook/{}#{}\n", i + 1, c.article, c.title, c.page, c.anchor));
        }
    }
    s
}

pub fn run_verify(args: VerifyArgs) -> anyhow::Result<i32> {
    let mut text = String::new();
    match &args.file {
        Some(p) => text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
        None => {
            std::io::stdin().read_to_string(&mut text)?;
        }
    }
    let req: VerifyRequest = serde_json::from_str(&text).context("the input is not {\"fen\"?, \"moves\"?, \"claims\": [...]}")?;
    let arbiter = args.source.arbiter()?;
    match arbiter.verify(&req) {
        Ok(out) => {
            println!("{}", serde_json::to_string_pretty(&out)?);
            Ok(if out.all_hold { 0 } else { 1 })
        }
        Err(e) => {
            println!("{}", serde_json::json!({ "error": e.to_json() }));
            Ok(2)
        }
    }
}

pub fn run_search(args: SearchArgs) -> anyhow::Result<i32> {
    let arbiter = args.source.arbiter()?;
    let hits = arbiter.search(&args.query, args.limit);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&hits)?);
    } else {
        for (i, h) in hits.iter().enumerate() {
            println!("{}. {} {} ({}) score {:.2}\n   {}", i + 1, h.article.as_deref().unwrap_or("-"), h.title, h.url, h.score, strip_tags(&h.snippet));
        }
    }
    Ok(0)
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}
