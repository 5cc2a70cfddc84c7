//! Position questions the way players ask them (tests/position_questions.toml): each answer
//! must carry the expected claims with their values, contain and avoid the phrases given, and
//! every claim it makes must be confirmed by `verify` — the code behind `POST /api/verify` —
//! on the same position (plus any move the question said was played and the answer added).

use std::sync::OnceLock;

use rules_arbiter::answer::claims::Claim;
use rules_arbiter::answer::{Arbiter, AskRequest, MovesField, VerifyRequest};
use serde::Deserialize;

fn arbiter() -> &'static Arbiter {
    static A: OnceLock<Arbiter> = OnceLock::new();
    A.get_or_init(|| Arbiter::embedded().expect("embedded arbiter"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    question: String,
    fen: Option<String>,
    moves: Option<Vec<String>>,
    pgn: Option<String>,
    /// Claims the answer must make, with these values.
    #[serde(default)]
    claims: Vec<toml::Value>,
    /// How the answer must begin ("Yes", "No", "Not right now"…).
    lead: Option<String>,
    #[serde(default)]
    contains: Vec<String>,
    #[serde(default)]
    not_contains: Vec<String>,
    /// Claim kinds the answer must not make (a verdict that would mix in).
    #[serde(default)]
    absent: Vec<String>,
    /// Moves the answer says it added to the history.
    #[serde(default)]
    played: Vec<String>,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/position_questions.toml");
    let text = std::fs::read_to_string(path).expect("tests/position_questions.toml");
    let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    file.case
}

fn expected_claim(v: &toml::Value) -> Claim {
    let json = serde_json::to_value(v).expect("toml to json");
    serde_json::from_value(json).unwrap_or_else(|e| panic!("bad claim {v}: {e}"))
}

/// A move as a claim names it, without check marks or "e.p.", for comparing.
fn bare(m: &str) -> String {
    m.trim()
        .trim_end_matches("e.p.")
        .trim()
        .trim_end_matches(['+', '#'])
        .to_string()
}

fn same_subject(a: &Claim, b: &Claim) -> bool {
    let key = |c: &Claim| {
        let mut v = serde_json::to_value(&c.subject).expect("subject");
        if let Some(m) = v.get_mut("move") {
            *m = serde_json::Value::String(bare(m.as_str().unwrap_or("")));
        }
        v
    };
    key(a) == key(b)
}

/// What is wrong with one case's answer, if anything.
fn check(c: &Case) -> Vec<String> {
    let req = AskRequest {
        question: c.question.clone(),
        fen: c.fen.clone(),
        moves: c.moves.clone().map(MovesField::List),
        pgn: c.pgn.clone(),
    };
    let a = match arbiter().ask(&req) {
        Ok(a) => a,
        Err(e) => return vec![format!("ask failed: {e}")],
    };
    let text = a.answer.to_lowercase();
    let mut problems = Vec::new();
    for v in &c.claims {
        let want = expected_claim(v);
        match a.claims.iter().find(|got| same_subject(got, &want)) {
            Some(got) if got.value == want.value => {}
            Some(got) => problems.push(format!("claim {v} came with value {}", got.value)),
            None => problems.push(format!("claim {v} missing")),
        }
    }
    if let Some(lead) = &c.lead
        && !a.answer.starts_with(lead.as_str())
    {
        problems.push(format!("answer does not begin with {lead:?}"));
    }
    for p in &c.contains {
        if !text.contains(&p.to_lowercase()) {
            problems.push(format!("missing phrase {p:?}"));
        }
    }
    for p in &c.not_contains {
        if text.contains(&p.to_lowercase()) {
            problems.push(format!("unwanted phrase {p:?}"));
        }
    }
    for kind in &c.absent {
        if a.claims.iter().any(|got| {
            serde_json::to_value(&got.subject).expect("subject")["kind"] == kind.as_str()
        }) {
            problems.push(format!("unwanted claim kind {kind}"));
        }
    }
    if a.played != c.played {
        problems.push(format!("played {:?}, expected {:?}", a.played, c.played));
    }
    problems.extend(reverify(c, &a.claims, &a.played, a.disputed.is_some()));
    if !problems.is_empty() {
        problems.push(format!("answer: {}", a.answer));
    }
    problems
}

/// Every claim of the answer, re-checked by `verify` on the position the answer is about (the
/// position before the last move given, when the answer says that move is in dispute).
fn reverify(c: &Case, claims: &[Claim], played: &[String], disputed: bool) -> Vec<String> {
    if claims.is_empty() {
        return vec![];
    }
    let mut moves = c.moves.clone().unwrap_or_default();
    if disputed {
        moves.pop();
    }
    moves.extend(played.iter().cloned());
    if c.pgn.is_some() && !played.is_empty() {
        return vec!["cannot re-verify: a PGN with moves added by the question".into()];
    }
    let req = VerifyRequest {
        fen: c.fen.clone(),
        moves: (!moves.is_empty()).then_some(MovesField::List(moves)),
        pgn: c.pgn.clone(),
        claims: claims.to_vec(),
    };
    match arbiter().verify(&req) {
        Err(e) => vec![format!("verify failed: {e}")],
        Ok(v) => v
            .results
            .iter()
            .filter(|r| r.holds == Some(false))
            .map(|r| {
                format!(
                    "verify contradicts {}: actual {}",
                    serde_json::to_string(&r.claim).unwrap_or_default(),
                    r.actual
                )
            })
            .collect(),
    }
}

#[test]
fn position_questions_are_answered_and_verified() {
    let cases = cases();
    assert!(
        cases.len() >= 120,
        "only {} position questions",
        cases.len()
    );
    let mut names = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for c in &cases {
        assert!(
            names.insert(c.name.clone()),
            "duplicate case name {}",
            c.name
        );
        assert!(
            c.fen.is_some() || c.moves.is_some() || c.pgn.is_some(),
            "{}: a position question needs a position",
            c.name
        );
        let problems = check(c);
        if !problems.is_empty() {
            failures.push(format!(
                "{} ({}):\n  {}",
                c.name,
                c.question,
                problems.join("\n  ")
            ));
        }
    }
    println!(
        "{} position questions, {} failed",
        cases.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}
