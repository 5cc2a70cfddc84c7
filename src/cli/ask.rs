//! `arbiter ask`, `arbiter verify`, `arbiter search`.

use std::io::Read;

use anyhow::Context;

use super::{PositionArgs, SourceArgs, json_lines, report_error};
use crate::answer::{Answer, AskRequest, VerifyRequest};

#[derive(Debug, clap::Args)]
pub struct AskArgs {
    /// The question, e.g. "Can I castle out of check?". Without --fen, --moves or --pgn, a FEN
    /// (or a lichess analysis link) or a game's moves from "1." written in the question are
    /// read as the position.
    pub question: Option<String>,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print the answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// Read JSON lines {"question", "fen"?, "moves"?, "pgn"?} from stdin; write one answer
    /// (or {"error": …}) per line.
    #[arg(long)]
    pub batch: bool,
    /// Show how the question was read (a question in another language: its English reading
    /// first) and which rulings were in the running, with their scores (for rulebook
    /// maintainers), instead of answering.
    #[arg(long)]
    pub explain: bool,
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
        return json_lines("a question", |req: AskRequest| {
            Ok(match arbiter.ask(&req) {
                Ok(a) => serde_json::to_value(a)?,
                Err(e) => serde_json::json!({ "error": e.to_json() }),
            })
        });
    }
    let Some(question) = args.question.clone() else {
        anyhow::bail!("give a question: arbiter ask \"Can I castle out of check?\"");
    };
    if args.explain {
        print!("{}", arbiter.explain_match(&question));
        return Ok(0);
    }
    let position = args.position.request(None)?;
    let req = AskRequest {
        question,
        fen: position.fen,
        moves: position.moves,
        pgn: position.pgn,
    };
    match arbiter.ask(&req) {
        Ok(answer) => {
            if args.json {
                println!("{}", serde_json::to_string_pretty(&answer)?);
            } else {
                print!("{}", human_answer(&answer));
            }
            Ok(0)
        }
        Err(e) => Ok(report_error(args.json, &e, e.to_json())),
    }
}

/// An answer as a player reads it: the ruling, then numbered sources.
pub fn human_answer(a: &Answer) -> String {
    let mut s = format!("{}\n", a.answer);
    if !a.claims.is_empty() {
        s.push_str("\nChecked:\n");
        for c in &a.claims {
            s.push_str(&format!(
                "  - {}: {} ({})\n",
                serde_json::to_string(&c.subject).unwrap_or_default(),
                c.value,
                c.article
            ));
        }
    }
    if !a.citations.is_empty() {
        s.push_str("\nSources:\n");
        for (i, c) in a.citations.iter().enumerate() {
            s.push_str(&format!(
                "  [{}] {} {} — rulebook/{}#{}\n",
                i + 1,
                c.article,
                c.title,
                c.page,
                c.anchor
            ));
        }
    }
    s
}

pub fn run_verify(args: VerifyArgs) -> anyhow::Result<i32> {
    let mut text = String::new();
    match &args.file {
        Some(p) => {
            text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?
        }
        None => {
            std::io::stdin().read_to_string(&mut text)?;
        }
    }
    let req: VerifyRequest = serde_json::from_str(&text)
        .context("the input is not {\"fen\"?, \"moves\"?, \"claims\": [...]}")?;
    let arbiter = args.source.arbiter()?;
    match arbiter.verify(&req) {
        Ok(out) => {
            println!("{}", serde_json::to_string_pretty(&out)?);
            Ok(if out.all_hold { 0 } else { 1 })
        }
        Err(e) => Ok(report_error(true, &e, e.to_json())),
    }
}

pub fn run_search(args: SearchArgs) -> anyhow::Result<i32> {
    let arbiter = args.source.arbiter()?;
    let hits = arbiter.search(&args.query, args.limit);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&hits)?);
    } else {
        for (i, h) in hits.iter().enumerate() {
            println!(
                "{}. {} {} ({}) score {:.2}\n   {}",
                i + 1,
                h.article.as_deref().unwrap_or("-"),
                h.title,
                h.url,
                h.score,
                strip_tags(&h.snippet)
            );
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
