//! Every position question of the golden suite (tests/answers/*.toml), asked through the real
//! server: the claims in the answer are all confirmed by POST /api/verify, and the leading
//! sentence agrees with the deciding claim ("Yes…" when it holds, "No…/Not…" when it does not).

mod common;

use common::Server;
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    question: String,
    fen: Option<String>,
    moves: Option<Vec<String>>,
    pgn: Option<String>,
}

#[test]
fn position_answers_are_confirmed_by_verify() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/answers");
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("tests/answers is missing");
    };
    let mut cases = Vec::new();
    for e in entries.flatten() {
        if e.path().extension().is_some_and(|x| x == "toml") {
            let text = std::fs::read_to_string(e.path()).unwrap();
            let file: File = match toml::from_str(&text) {
                Ok(f) => f,
                Err(err) => panic!("{}: {err}", e.path().display()),
            };
            cases.extend(
                file.case
                    .into_iter()
                    .filter(|c| c.fen.is_some() || c.moves.is_some() || c.pgn.is_some()),
            );
        }
    }
    assert!(
        cases.len() >= 60,
        "need at least 60 position questions, found {}",
        cases.len()
    );
    let s = Server::start(&[]);
    let mut failures = Vec::new();
    for c in &cases {
        let body = json!({"question": c.question, "fen": c.fen, "moves": c.moves, "pgn": c.pgn});
        let (status, a) = s.post_json("/api/ask", &body);
        if status != 200 {
            failures.push(format!("{}: ask returned {status}: {a}", c.name));
            continue;
        }
        let claims = a["claims"].as_array().cloned().unwrap_or_default();
        if claims.is_empty() {
            continue;
        }
        // Moves the question said were played and the answer added are part of its position.
        let mut moves = c.moves.clone().unwrap_or_default();
        moves.extend(
            a["played"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str().map(String::from)),
        );
        let moves = (!moves.is_empty()).then_some(moves);
        let (status, v) = s.post_json(
            "/api/verify",
            &json!({"fen": c.fen, "moves": moves, "pgn": c.pgn, "claims": claims}),
        );
        if status != 200 || v["all_hold"] != true {
            // `null` (undecided by the solver within its budget) is not a contradiction.
            let contradicted: Vec<_> = v["results"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|r| r["holds"] == false)
                .collect();
            if status != 200 || !contradicted.is_empty() {
                failures.push(format!("{}: verify says {v}", c.name));
                continue;
            }
        }
        let lead = a["answer"].as_str().unwrap_or("");
        let first = &claims[0];
        let kind = first["kind"].as_str().unwrap_or("");
        // A touch-move ruling quotes the legal moves of the piece that must move: they
        // support its decision rather than answer a "may I play…" question.
        if matches!(kind, "legal_move" | "castling_legal" | "en_passant")
            && a["position"]["outcome"].is_null()
            && a["topic"] != "touch-move"
        {
            let yes = first["value"] == true;
            // A move asked about as illegal ("Is Kd2 illegal?") has its verdict in words.
            // ("Nxe5 is legal here: the knight …" — the verdict is the clause before the colon.)
            let first_sentence = lead.split(". ").next().unwrap_or_default();
            let verdict = first_sentence.split(':').next().unwrap_or_default();
            // "Is h8=B mate?" is answered about the mate, the move's legality said after it
            // ("No: h8=B+ is legal and it is check, but not mate").
            let mate_asked = a["topic"] == "check_mate_stalemate";
            let ok = if yes {
                lead.starts_with("Yes")
                    || verdict.ends_with(" is legal here")
                    || mate_asked && first_sentence.contains(" is legal and it is ")
            } else {
                lead.starts_with("No")
                    || lead.starts_with("Not")
                    || verdict.ends_with(" is illegal here")
                    // A statement about the move is not answered "No" ("g7-g8 is illegal: …").
                    || verdict.ends_with(" is illegal")
            };
            if !ok {
                failures.push(format!(
                    "{}: lead {:?} does not agree with {first}",
                    c.name,
                    lead.chars().take(80).collect::<String>()
                ));
            }
        }
    }
    println!(
        "{} position questions asked and verified, {} failures",
        cases.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
