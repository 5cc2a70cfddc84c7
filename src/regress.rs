//! `arbiter regress`: the golden answer suite runner.
//!
//! A suite is a set of TOML files (by default every `*.toml` in `tests/answers`), each holding
//! `[[case]]` entries: a question, optionally a position (`fen`, `moves`, `pgn`), and what the
//! answer must contain — articles among its citations (`cites`), checker claims with their
//! values (`claims`), phrases in its text (`contains`, `not_contains`).
//!
//! ```toml
//! [[case]]
//! name = "3.8.2.1-king-returned-to-e1"
//! question = "My king went to f1 and came back. Can I still castle?"
//! moves = ["e4", "e5", "Bc4", "Bc5", "Kf1", "Nf6", "Ke1", "Nc6"]
//! cites = ["3.8.2.1"]
//! claims = [{ kind = "castling_right", color = "white", wing = "kingside", value = false }]
//! contains = ["for good"]
//! ```
//!
//! Files are read strictly: unknown keys, wrong types, unknown claim kinds or parameters,
//! unreadable positions and duplicate names are errors that name the file, the case (index,
//! line and name) and the field. Every case runs; each failure says what was expected and what
//! came. The text report ends with the line `N passed, M failed`; the exit code is 0 when every
//! case passed, 1 when one failed, 2 when the suite could not be read.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::answer::claims::{Claim, ClaimKind, ClaimSubject, RESULTS};
use crate::answer::{Answer, Arbiter, AskRequest, CheckRequest, MovesField};
use crate::cli::SourceArgs;
use crate::rulebook::article_matches;
use crate::rulebook::{anchor_for_article, is_article_number};
use crate::rules::notation::{normalise_san, resolve_move, san_plus};

/// Where the suite lives when no path is given.
pub const DEFAULT_SUITE: &str = "tests/answers";

#[derive(Debug, clap::Args)]
pub struct RegressArgs {
    /// Suite files or directories (every *.toml inside, recursively); default tests/answers.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Also write a JUnit XML report to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Print a JSON summary on stdout instead of the text report (the closing
    /// `N passed, M failed` line then goes to stderr).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub source: SourceArgs,
}

// ---------------------------------------------------------------------------------------------
// The suite format
// ---------------------------------------------------------------------------------------------

/// One `[[case]]`.
#[derive(Debug, Clone, Serialize)]
pub struct Case {
    pub name: String,
    pub question: String,
    pub fen: Option<String>,
    pub moves: Option<Vec<String>>,
    pub pgn: Option<String>,
    pub cites: Vec<String>,
    pub claims: Vec<ExpectedClaim>,
    pub contains: Vec<String>,
    pub not_contains: Vec<String>,
    /// The file it came from, as given on the command line.
    pub file: String,
    /// 1-based position in its file, and the line of its `[[case]]` header.
    pub index: usize,
    pub line: Option<usize>,
}

/// An expected claim: its subject and value.
#[derive(Debug, Clone, Serialize)]
pub struct ExpectedClaim {
    #[serde(flatten)]
    pub subject: ClaimSubject,
    pub value: Value,
}

/// A suite file or case that cannot be read: which file, which case, which field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    pub file: String,
    /// `case 3 (line 27, "name")`, when the problem is inside a case.
    pub case: Option<String>,
    pub field: Option<String>,
    pub message: String,
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(c) = &self.case {
            write!(f, ": {c}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SuiteError {}

const CASE_FIELDS: &[&str] = &[
    "name",
    "question",
    "fen",
    "moves",
    "pgn",
    "cites",
    "claims",
    "contains",
    "not_contains",
];

fn type_name(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a float",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// Line numbers (1-based) of the `[[case]]` headers in a file, in order.
fn case_header_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            t.starts_with("[[")
                && t[2..].trim_start().starts_with("case")
                && t[2..].trim_start()[4..].trim_start().starts_with("]]")
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// Parses one suite file's text. `file` is only used in messages.
pub fn parse_suite(file: &str, text: &str) -> Result<Vec<Case>, Vec<SuiteError>> {
    let whole = |message: String| {
        vec![SuiteError {
            file: file.into(),
            case: None,
            field: None,
            message,
        }]
    };
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| whole(format!("not valid TOML: {}", e.to_string().trim_end())))?;
    for key in table.keys() {
        if key != "case" {
            return Err(vec![SuiteError {
                file: file.into(),
                case: None,
                field: Some(key.clone()),
                message: "unknown top-level key: a suite file holds only [[case]] entries".into(),
            }]);
        }
    }
    let cases = match table.get("case") {
        None => return Err(whole("no [[case]] entries".into())),
        Some(toml::Value::Array(a)) => a,
        Some(other) => {
            return Err(vec![SuiteError {
                file: file.into(),
                case: None,
                field: Some("case".into()),
                message: format!(
                    "expected [[case]] entries (an array of tables), found {}",
                    type_name(other)
                ),
            }]);
        }
    };
    let lines = case_header_lines(text);
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, v) in cases.iter().enumerate() {
        let line = if lines.len() == cases.len() {
            lines.get(i).copied()
        } else {
            None
        };
        match parse_case(file, i + 1, line, v) {
            Ok(c) => out.push(c),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn case_label(index: usize, line: Option<usize>, name: Option<&str>) -> String {
    let mut s = format!("case {index}");
    match (line, name) {
        (Some(l), Some(n)) => write!(s, " (line {l}, \"{n}\")").ok(),
        (Some(l), None) => write!(s, " (line {l})").ok(),
        (None, Some(n)) => write!(s, " (\"{n}\")").ok(),
        (None, None) => None,
    };
    s
}

fn parse_case(
    file: &str,
    index: usize,
    line: Option<usize>,
    v: &toml::Value,
) -> Result<Case, Vec<SuiteError>> {
    let name_hint = v
        .get("name")
        .and_then(|n| n.as_str())
        .filter(|n| !n.trim().is_empty());
    let label = case_label(index, line, name_hint);
    let Some(table) = v.as_table() else {
        return Err(vec![SuiteError {
            file: file.into(),
            case: Some(label),
            field: None,
            message: format!("a case must be a table, found {}", type_name(v)),
        }]);
    };
    let mut reader = CaseReader {
        table,
        file,
        label,
        errors: Vec::new(),
    };
    reader.check_keys();
    let name = reader.string("name", true);
    let question = reader.string("question", true);
    let fen = reader.string("fen", false);
    let pgn = reader.string("pgn", false);
    let moves = reader.strings("moves");
    let cites = reader.strings("cites").unwrap_or_default();
    let contains = reader.strings("contains").unwrap_or_default();
    let not_contains = reader.strings("not_contains").unwrap_or_default();
    reader.check_cites(&cites);
    let mut claims = reader.claims();
    let position = Position { fen, moves, pgn };
    reader.check_position_fields(&position, !claims.is_empty());
    if cites.is_empty() && claims.is_empty() && contains.is_empty() && not_contains.is_empty() {
        reader.error(
            None,
            "expects nothing: give at least one of cites, claims, contains, not_contains".into(),
        );
    }
    if reader.errors.is_empty() && position.is_given() {
        reader.set_up(&position, &mut claims);
    }
    if !reader.errors.is_empty() {
        return Err(reader.errors);
    }
    let Position { fen, moves, pgn } = position;
    Ok(Case {
        name: name.unwrap_or_default(),
        question: question.unwrap_or_default(),
        fen,
        moves,
        pgn,
        cites,
        claims,
        contains,
        not_contains,
        file: file.into(),
        index,
        line,
    })
}

/// The position fields of a case.
struct Position {
    fen: Option<String>,
    moves: Option<Vec<String>>,
    pgn: Option<String>,
}

impl Position {
    fn is_given(&self) -> bool {
        self.fen.is_some()
            || self.pgn.is_some()
            || self.moves.as_ref().is_some_and(|m| !m.is_empty())
    }
}

/// Reads one case's table field by field, collecting every error (with the case's label)
/// instead of stopping at the first, so that a maintainer sees all of them at once.
struct CaseReader<'a> {
    table: &'a toml::Table,
    file: &'a str,
    label: String,
    errors: Vec<SuiteError>,
}

impl CaseReader<'_> {
    fn error(&mut self, field: Option<&str>, message: String) {
        self.errors.push(SuiteError {
            file: self.file.into(),
            case: Some(self.label.clone()),
            field: field.map(String::from),
            message,
        });
    }

    /// Every key must be a known field; a likely misspelling gets a hint.
    fn check_keys(&mut self) {
        let unknown: Vec<String> = self
            .table
            .keys()
            .filter(|k| !CASE_FIELDS.contains(&k.as_str()))
            .cloned()
            .collect();
        for key in unknown {
            let hint = match key.as_str() {
                "cite" | "citations" | "articles" => " (did you mean `cites`?)",
                "claim" => " (did you mean `claims`?)",
                "contain" | "contain_all" => " (did you mean `contains`?)",
                "move" => " (did you mean `moves`?)",
                _ => "",
            };
            let message = format!(
                "unknown field{hint}; a case takes {}",
                CASE_FIELDS.join(", ")
            );
            self.error(Some(&key), message);
        }
    }

    /// A non-empty string field; `None` (with an error if `required`) when absent or wrong.
    fn string(&mut self, field: &str, required: bool) -> Option<String> {
        match self.table.get(field) {
            None if required => {
                self.error(Some(field), "missing (required)".into());
                None
            }
            None => None,
            Some(toml::Value::String(s)) if s.trim().is_empty() => {
                self.error(Some(field), "is empty".into());
                None
            }
            Some(toml::Value::String(s)) => Some(s.clone()),
            Some(other) => {
                let message = format!("expected a string, found {}", type_name(other));
                self.error(Some(field), message);
                None
            }
        }
    }

    /// An array of non-empty strings; the good items when some are wrong.
    fn strings(&mut self, field: &str) -> Option<Vec<String>> {
        let items = match self.table.get(field) {
            None => return None,
            Some(toml::Value::Array(a)) => a,
            Some(other) => {
                let message = format!("expected an array of strings, found {}", type_name(other));
                self.error(Some(field), message);
                return None;
            }
        };
        let mut out = Vec::new();
        for (j, item) in items.iter().enumerate() {
            match item {
                toml::Value::String(s) if !s.trim().is_empty() => out.push(s.clone()),
                toml::Value::String(_) => {
                    self.error(Some(field), format!("item {} is empty", j + 1))
                }
                other => {
                    let message = format!(
                        "item {} should be a string, found {}",
                        j + 1,
                        type_name(other)
                    );
                    self.error(Some(field), message);
                }
            }
        }
        Some(out)
    }

    fn check_cites(&mut self, cites: &[String]) {
        for c in cites.iter().filter(|c| !is_article_number(c)) {
            let message = format!("\"{c}\" is not an article number (like 3.8.2.1, A.5.3, III.5)");
            self.error(Some("cites"), message);
        }
    }

    /// The expected claims, each read by `parse_claim`.
    fn claims(&mut self) -> Vec<ExpectedClaim> {
        let mut claims = Vec::new();
        match self.table.get("claims") {
            None => {}
            Some(toml::Value::Array(a)) => {
                for (j, item) in a.iter().enumerate() {
                    match parse_claim(item) {
                        Ok(c) => claims.push(c),
                        Err(m) => self.error(Some("claims"), format!("claim {}: {m}", j + 1)),
                    }
                }
            }
            Some(other) => {
                let message = format!(
                    "expected an array of claim tables, found {}",
                    type_name(other)
                );
                self.error(Some("claims"), message);
            }
        }
        claims
    }

    /// The position fields must not contradict each other, and claims need a position.
    fn check_position_fields(&mut self, position: &Position, has_claims: bool) {
        if position.pgn.is_some() && position.moves.is_some() {
            self.error(
                Some("moves"),
                "give either `pgn` or `moves`, not both".into(),
            );
        }
        if position.pgn.is_some() && position.fen.is_some() {
            self.error(
                Some("fen"),
                "a PGN sets its own start position (use its [FEN] tag); drop `fen`".into(),
            );
        }
        if has_claims && !position.is_given() {
            self.error(
                Some("claims"),
                "claims are about a position: give `fen`, `moves` or `pgn`".into(),
            );
        }
    }

    /// The position must be one the checker can set up, and the moves the claims name must
    /// exist in it; those moves are rewritten as the SAN the answer will use.
    fn set_up(&mut self, position: &Position, claims: &mut [ExpectedClaim]) {
        let req = CheckRequest {
            fen: position.fen.clone(),
            moves: position.moves.clone().map(MovesField::List),
            pgn: position.pgn.clone(),
            move_text: None,
        };
        let game = match req.game() {
            Ok(game) => game,
            Err(e) => {
                let field = if position.pgn.is_some() {
                    "pgn"
                } else if matches!(e, crate::rules::RulesError::IllegalMove { .. }) {
                    "moves"
                } else {
                    "fen"
                };
                self.error(Some(field), format!("the position cannot be set up: {e}"));
                return;
            }
        };
        for (j, c) in claims.iter_mut().enumerate() {
            if let ClaimSubject::LegalMove { mv } | ClaimSubject::EnPassant { mv } = &mut c.subject
            {
                if normalise_san(mv).is_none() {
                    self.error(
                        Some("claims"),
                        format!("claim {}: the move is empty", j + 1),
                    );
                } else if let Ok(m) = resolve_move(game.current(), mv, game.mode) {
                    // UCI (or sloppy SAN) becomes the SAN the answer will use.
                    *mv = san_plus(game.current(), m);
                }
            }
        }
    }
}

fn parse_claim(v: &toml::Value) -> Result<ExpectedClaim, String> {
    let Some(t) = v.as_table() else {
        return Err(format!(
            "expected a table like {{ kind = \"in_check\", value = true }}, found {}",
            type_name(v)
        ));
    };
    let kind = claim_kind(t)?;
    check_claim_fields(t, kind)?;
    let value = claim_value(kind, t.get("value"))?;
    let mut json = serde_json::Map::new();
    for (k, v) in t {
        if k != "value" {
            json.insert(
                k.clone(),
                Value::String(v.as_str().unwrap_or_default().to_string()),
            );
        }
    }
    let subject: ClaimSubject = serde_json::from_value(Value::Object(json)).map_err(|e| {
        let e = e.to_string();
        if e.contains("unknown variant") {
            format!("{e} (color: white|black, wing: kingside|queenside, flagged: white|black)")
        } else {
            e
        }
    })?;
    Ok(ExpectedClaim { subject, value })
}

/// A claim's `kind`.
fn claim_kind(t: &toml::Table) -> Result<ClaimKind, String> {
    let kind = match t.get("kind") {
        Some(toml::Value::String(k)) => k.as_str(),
        Some(other) => {
            return Err(format!(
                "`kind` should be a string, found {}",
                type_name(other)
            ));
        }
        None => return Err("missing `kind`".into()),
    };
    ClaimKind::parse(kind)
}

/// A claim holds `kind`, `value` and exactly the parameters its kind takes, as strings.
fn check_claim_fields(t: &toml::Table, kind: ClaimKind) -> Result<(), String> {
    let params = kind.params();
    for key in t.keys() {
        if key != "kind" && key != "value" && !params.contains(&key.as_str()) {
            let takes = if params.is_empty() {
                "no parameters".to_string()
            } else {
                params.join(", ")
            };
            return Err(format!(
                "unknown field `{key}` for kind \"{kind}\" (it takes {takes}, and `value`)"
            ));
        }
    }
    for p in params {
        match t.get(*p) {
            Some(toml::Value::String(_)) => {}
            Some(other) => {
                return Err(format!(
                    "`{p}` should be a string, found {}",
                    type_name(other)
                ));
            }
            None => return Err(format!("kind \"{kind}\" needs `{p}`")),
        }
    }
    Ok(())
}

/// A claim's expected `value`: a result for `flag_result`, true or false for every other kind.
fn claim_value(kind: ClaimKind, value: Option<&toml::Value>) -> Result<Value, String> {
    match (kind, value) {
        (_, None) => Err("missing `value`".into()),
        (ClaimKind::FlagResult, Some(toml::Value::String(s))) if RESULTS.contains(&s.as_str()) => {
            Ok(Value::String(s.clone()))
        }
        (ClaimKind::FlagResult, Some(other)) => Err(format!(
            "`value` of a flag_result is one of \"1-0\", \"0-1\", \"1/2-1/2\"; found {other}"
        )),
        (_, Some(toml::Value::Boolean(b))) => Ok(Value::Bool(*b)),
        (_, Some(other)) => Err(format!(
            "`value` of a {kind} claim is true or false, found {}",
            type_name(other)
        )),
    }
}

/// Every `*.toml` under the given paths (directories recursively, files as given), sorted
/// within each directory.
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, SuiteError> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), SuiteError> {
        let io = |e: std::io::Error| SuiteError {
            file: dir.display().to_string(),
            case: None,
            field: None,
            message: e.to_string(),
        };
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e == "toml") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(SuiteError {
                file: p.display().to_string(),
                case: None,
                field: None,
                message: "no such file or directory".into(),
            });
        }
    }
    if out.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(SuiteError {
            file: shown.join(", "),
            case: None,
            field: None,
            message: "no *.toml suite files found".into(),
        });
    }
    out.dedup();
    Ok(out)
}

/// Reads every file; all problems are reported together. Case names must be unique.
pub fn load_suite(paths: &[PathBuf]) -> Result<Vec<Case>, Vec<SuiteError>> {
    let files = collect_files(paths).map_err(|e| vec![e])?;
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        let shown = f.display().to_string();
        match std::fs::read_to_string(&f) {
            Ok(text) => match parse_suite(&shown, &text) {
                Ok(mut c) => cases.append(&mut c),
                Err(mut e) => errors.append(&mut e),
            },
            Err(e) => errors.push(SuiteError {
                file: shown,
                case: None,
                field: None,
                message: format!("cannot read: {e}"),
            }),
        }
    }
    let mut seen: HashMap<String, (String, usize)> = HashMap::new();
    for c in &cases {
        if let Some((file, idx)) = seen.get(&c.name) {
            errors.push(SuiteError {
                file: c.file.clone(),
                case: Some(case_label(c.index, c.line, Some(&c.name))),
                field: Some("name".into()),
                message: format!("duplicate name: already used by case {idx} of {file}"),
            });
        } else {
            seen.insert(c.name.clone(), (c.file.clone(), c.index));
        }
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

// ---------------------------------------------------------------------------------------------
// Running and comparing
// ---------------------------------------------------------------------------------------------

/// One unmet expectation.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    /// The question could not be answered at all.
    Error {
        message: String,
    },
    MissingCitation {
        expected: String,
        came: Vec<String>,
    },
    MissingClaim {
        expected: Value,
        came: Vec<Value>,
    },
    WrongClaimValue {
        expected: Value,
        came: Value,
        article: String,
    },
    MissingPhrase {
        phrase: String,
        answer: String,
    },
    ForbiddenPhrase {
        phrase: String,
        answer: String,
    },
}

impl Failure {
    /// The failure as a few indented lines.
    pub fn render(&self) -> String {
        match self {
            Failure::Error { message } => format!("no answer: {message}"),
            Failure::MissingCitation { expected, came } => {
                format!(
                    "missing citation {expected}\n      came: {}",
                    if came.is_empty() {
                        "(no citations)".into()
                    } else {
                        came.join(", ")
                    }
                )
            }
            Failure::MissingClaim { expected, came } => {
                let came: Vec<String> = came.iter().map(claim_text).collect();
                format!(
                    "missing claim {}\n      came: {}",
                    claim_text(expected),
                    if came.is_empty() {
                        "(no claims)".into()
                    } else {
                        came.join("; ")
                    }
                )
            }
            Failure::WrongClaimValue {
                expected,
                came,
                article,
            } => {
                format!(
                    "wrong claim value for {}: expected {}, came {} ({article})",
                    subject_text(expected),
                    expected.get("value").unwrap_or(&Value::Null),
                    came
                )
            }
            Failure::MissingPhrase { phrase, answer } => {
                format!("missing phrase \"{phrase}\"\n      answer: {answer}")
            }
            Failure::ForbiddenPhrase { phrase, answer } => {
                format!("unwanted phrase \"{phrase}\"\n      answer: {answer}")
            }
        }
    }
}

fn subject_text(claim: &Value) -> String {
    let Some(obj) = claim.as_object() else {
        return claim.to_string();
    };
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("?");
    let params: Vec<String> = obj
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "kind" | "value" | "article"))
        .map(|(k, v)| {
            format!(
                "{k}={}",
                v.as_str()
                    .map(String::from)
                    .unwrap_or_else(|| v.to_string())
            )
        })
        .collect();
    if params.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}({})", params.join(", "))
    }
}

fn claim_text(claim: &Value) -> String {
    format!(
        "{} = {}",
        subject_text(claim),
        claim.get("value").unwrap_or(&Value::Null)
    )
}

/// The result of one case.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    pub name: String,
    pub file: String,
    pub question: String,
    pub passed: bool,
    pub elapsed_ms: f64,
    pub failures: Vec<Failure>,
    /// The answer's text and citations, for the record.
    pub answer: Option<String>,
    pub citations: Vec<String>,
}

/// A citation counts only when it points at its own article (a citation whose number the
/// rulebook lacks is shown but never matches).
fn genuine(c: &crate::answer::Citation) -> bool {
    c.anchor == anchor_for_article(&c.article)
}

/// A move as SAN for comparison: normalised, without check marks and annotations.
fn move_key(mv: &str) -> String {
    normalise_san(mv).unwrap_or_else(|| mv.trim().to_string())
}

fn same_subject(expected: &ClaimSubject, came: &ClaimSubject) -> bool {
    match (expected, came) {
        (ClaimSubject::LegalMove { mv: a }, ClaimSubject::LegalMove { mv: b })
        | (ClaimSubject::EnPassant { mv: a }, ClaimSubject::EnPassant { mv: b }) => {
            move_key(a) == move_key(b)
        }
        (a, b) => a == b,
    }
}

/// Compares an answer with a case's expectations.
pub fn compare(case: &Case, answer: &Answer) -> Vec<Failure> {
    let mut failures = Vec::new();
    let shown: Vec<String> = answer
        .citations
        .iter()
        .map(|c| {
            if genuine(c) {
                c.article.clone()
            } else {
                format!("{} (not in this rulebook: links to {})", c.article, c.url)
            }
        })
        .collect();
    for expected in &case.cites {
        if !answer
            .citations
            .iter()
            .any(|c| genuine(c) && article_matches(expected, &c.article))
        {
            failures.push(Failure::MissingCitation {
                expected: expected.clone(),
                came: shown.clone(),
            });
        }
    }
    let came_json: Vec<Value> = answer
        .claims
        .iter()
        .map(|c| serde_json::to_value(c).unwrap_or(Value::Null))
        .collect();
    for expected in &case.claims {
        let expected_json = serde_json::to_value(expected).unwrap_or(Value::Null);
        let found: Vec<&Claim> = answer
            .claims
            .iter()
            .filter(|c| same_subject(&expected.subject, &c.subject))
            .collect();
        if found.is_empty() {
            failures.push(Failure::MissingClaim {
                expected: expected_json,
                came: came_json.clone(),
            });
        } else if !found.iter().any(|c| c.value == expected.value) {
            failures.push(Failure::WrongClaimValue {
                expected: expected_json,
                came: found[0].value.clone(),
                article: found[0].article.clone(),
            });
        }
    }
    let lower = answer.answer.to_lowercase();
    for phrase in &case.contains {
        if !lower.contains(&phrase.to_lowercase()) {
            failures.push(Failure::MissingPhrase {
                phrase: phrase.clone(),
                answer: answer.answer.clone(),
            });
        }
    }
    for phrase in &case.not_contains {
        if lower.contains(&phrase.to_lowercase()) {
            failures.push(Failure::ForbiddenPhrase {
                phrase: phrase.clone(),
                answer: answer.answer.clone(),
            });
        }
    }
    failures
}

/// Asks one case's question and compares the answer.
pub fn run_case(arbiter: &Arbiter, case: &Case) -> CaseResult {
    let started = Instant::now();
    let req = AskRequest {
        question: case.question.clone(),
        fen: case.fen.clone(),
        moves: case.moves.clone().map(MovesField::List),
        pgn: case.pgn.clone(),
    };
    let (failures, answer, citations) = match arbiter.ask(&req) {
        Ok(a) => (
            compare(case, &a),
            Some(a.answer.clone()),
            a.citations.iter().map(|c| c.article.clone()).collect(),
        ),
        Err(e) => (
            vec![Failure::Error {
                message: e.to_string(),
            }],
            None,
            vec![],
        ),
    };
    CaseResult {
        name: case.name.clone(),
        file: case.file.clone(),
        question: case.question.clone(),
        passed: failures.is_empty(),
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
        failures,
        answer,
        citations,
    }
}

/// Runs every case on `threads` worker threads; results come back in suite order.
/// `progress` is called after each case with (done, total).
pub fn run_all(
    arbiter: &Arbiter,
    cases: &[Case],
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<CaseResult> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<CaseResult>>> = cases.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(cases.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= cases.len() {
                        break;
                    }
                    let r = run_case(arbiter, &cases[i]);
                    *slots[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
                    progress(done.fetch_add(1, Ordering::SeqCst) + 1, cases.len());
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .expect("every case ran")
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------------

/// The closing line.
pub fn summary_line(results: &[CaseResult]) -> String {
    let passed = results.iter().filter(|r| r.passed).count();
    format!("{} passed, {} failed", passed, results.len() - passed)
}

/// The human report: each failure with what was expected and what came, then the closing line.
pub fn text_report(results: &[CaseResult], elapsed: Duration) -> String {
    let mut s = String::new();
    for r in results.iter().filter(|r| !r.passed) {
        let _ = writeln!(s, "FAIL {}  ({})", r.name, r.file);
        let _ = writeln!(s, "  question: {}", r.question);
        for f in &r.failures {
            let _ = writeln!(s, "  - {}", f.render());
        }
        s.push('\n');
    }
    let files = {
        let mut f: Vec<&str> = results.iter().map(|r| r.file.as_str()).collect();
        f.dedup();
        f.len()
    };
    let _ = writeln!(
        s,
        "ran {} cases from {} files in {:.2}s",
        results.len(),
        files,
        elapsed.as_secs_f64()
    );
    let _ = writeln!(s, "{}", summary_line(results));
    s
}

/// The machine-readable summary.
pub fn json_report(results: &[CaseResult], elapsed: Duration) -> Value {
    let passed = results.iter().filter(|r| r.passed).count();
    serde_json::json!({
        "passed": passed,
        "failed": results.len() - passed,
        "total": results.len(),
        "elapsed_ms": elapsed.as_secs_f64() * 1000.0,
        "cases": results,
    })
}

/// Escapes text for XML attributes and content, dropping characters XML 1.0 forbids.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML: one `<testsuite>` per file, one `<testcase>` per case.
pub fn junit_report(results: &[CaseResult], elapsed: Duration) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failed = results.iter().filter(|r| !r.passed).count();
    let _ = writeln!(
        s,
        "<testsuites name=\"arbiter regress\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3}\">",
        results.len(),
        failed,
        elapsed.as_secs_f64()
    );
    let mut files: Vec<&str> = Vec::new();
    for r in results {
        if !files.contains(&r.file.as_str()) {
            files.push(&r.file);
        }
    }
    for file in files {
        let group: Vec<&CaseResult> = results.iter().filter(|r| r.file == file).collect();
        let suite = Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.to_string());
        let time: f64 = group.iter().map(|r| r.elapsed_ms).sum::<f64>() / 1000.0;
        let _ = writeln!(
            s,
            "  <testsuite name=\"{}\" file=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.3}\">",
            xml_escape(&suite),
            xml_escape(file),
            group.len(),
            group.iter().filter(|r| !r.passed).count(),
            time
        );
        for r in group {
            let _ = write!(
                s,
                "    <testcase name=\"{}\" classname=\"answers.{}\" file=\"{}\" time=\"{:.3}\"",
                xml_escape(&r.name),
                xml_escape(&suite),
                xml_escape(file),
                r.elapsed_ms / 1000.0
            );
            if r.passed {
                s.push_str("/>\n");
                continue;
            }
            s.push_str(">\n");
            let first = r
                .failures
                .first()
                .map(|f| f.render().lines().next().unwrap_or_default().to_string())
                .unwrap_or_default();
            let message = if r.failures.len() > 1 {
                format!("{first} (and {} more)", r.failures.len() - 1)
            } else {
                first
            };
            let mut body = format!("question: {}\n", r.question);
            for f in &r.failures {
                body.push_str(&format!("- {}\n", f.render()));
            }
            let _ = writeln!(
                s,
                "      <failure message=\"{}\" type=\"regress\">{}</failure>",
                xml_escape(&message),
                xml_escape(&body)
            );
            s.push_str("    </testcase>\n");
        }
        s.push_str("  </testsuite>\n");
    }
    s.push_str("</testsuites>\n");
    s
}

// ---------------------------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------------------------

pub fn run(args: RegressArgs) -> anyhow::Result<i32> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(DEFAULT_SUITE)]
    } else {
        args.paths.clone()
    };
    let cases = match load_suite(&paths) {
        Ok(c) => c,
        Err(errors) => {
            for e in &errors {
                eprintln!("error: {e}");
            }
            eprintln!(
                "the suite could not be read ({} problem{})",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" }
            );
            return Ok(2);
        }
    };
    let started = Instant::now();
    let arbiter = args.source.arbiter()?;
    let tty = !args.json && std::io::stdout().is_terminal();
    let progress = |done: usize, total: usize| {
        if tty {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "\r[{done}/{total}] running the golden answer suite…");
            let _ = out.flush();
        }
    };
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8);
    let results = run_all(&arbiter, &cases, threads, &progress);
    let elapsed = started.elapsed();
    if tty {
        print!("\r\x1b[K");
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, junit_report(&results, elapsed))
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json_report(&results, elapsed))?
        );
        eprintln!("{}", summary_line(&results));
    } else {
        print!("{}", text_report(&results, elapsed));
    }
    Ok(if results.iter().all(|r| r.passed) {
        0
    } else {
        1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_cases_name_file_case_and_field() {
        let text = "[[case]]\nname = \"a\"\nquestion = \"q\"\ncites = [\"3.8\"]\n\n[[case]]\nname = \"b\"\nquestion = \"q\"\ncite = [\"3.8\"]\n";
        let e = parse_suite("x.toml", text).unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}"); // the unknown field, and nothing expected
        let msg = e[0].to_string();
        assert!(
            msg.contains("x.toml")
                && msg.contains("case 2")
                && msg.contains("\"b\"")
                && msg.contains("`cite`")
                && msg.contains("line 6"),
            "{msg}"
        );
        let text = "[[case]]\nname = \"c\"\nquestion = \"q\"\nfen = \"8/8/8/8/8/8/8/K6k w - - 0 1\"\nclaims = [{ kind = \"checkmate\", value = \"yes\" }]\n";
        let msg = parse_suite("y.toml", text).unwrap_err()[0].to_string();
        assert!(
            msg.contains("`claims`") && msg.contains("true or false"),
            "{msg}"
        );
        let text = "[[case]]\nname = \"d\"\nquestion = \"q\"\nmoves = [\"e4\", \"e4\"]\nclaims = [{ kind = \"in_check\", value = false }]\n";
        let msg = parse_suite("z.toml", text).unwrap_err()[0].to_string();
        assert!(msg.contains("`moves`"), "{msg}");
    }

    #[test]
    fn moves_compare_as_san() {
        assert_eq!(move_key("Qh5+"), move_key("Qh5"));
        assert_eq!(move_key("e8=Q#"), move_key("e8Q"));
        assert_eq!(move_key("0-0"), move_key("O-O+"));
        assert_eq!(move_key("exd6 e.p."), move_key("exd6"));
    }

    #[test]
    fn xml_is_escaped() {
        assert_eq!(
            xml_escape("a<b & \"c\" 'd'\u{1}"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;"
        );
    }
}
