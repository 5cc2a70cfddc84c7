//! End-to-end: the real binary serving on a loopback port, every route, and bad input.

mod common;

use common::Server;
use serde_json::json;

#[test]
fn every_route_and_bad_input() {
    let s = Server::start(&[]);

    let (status, body) = s.get("/healthz");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"ok\""));

    let (status, page) = s.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("Rules Arbiter"));

    let (status, toc) = s.get("/api/articles");
    assert_eq!(status, 200);
    let toc: serde_json::Value = serde_json::from_str(&toc).unwrap();
    assert!(
        toc.as_array()
            .unwrap()
            .iter()
            .any(|a| a["number"] == "9.6.2" && a["anchor"] == "art-9-6-2")
    );

    let (status, hits) = s.get("/api/search?q=castle+thru+check");
    assert_eq!(status, 200);
    let hits: serde_json::Value = serde_json::from_str(&hits).unwrap();
    assert!(
        hits["results"][0]["article"]
            .as_str()
            .unwrap()
            .starts_with("3.8.2"),
        "{hits}"
    );
    assert_eq!(s.get("/api/search?q=").0, 400);

    let (status, page) = s.get("/rulebook/article-3");
    assert_eq!(status, 200);
    assert!(
        page.contains("id=\"art-3-8-2-2\""),
        "anchors survive sanitising"
    );
    assert_eq!(s.get("/rulebook/no-such-page").0, 404);
    assert_eq!(s.get("/rulebook").0, 200);

    let (status, svg) = s.get("/board.svg?fen=r3k2r/8/8/8/2b5/8/8/R3K2R+w+KQkq+-+0+1&marks=f1,c4");
    assert_eq!(status, 200);
    assert!(svg.starts_with("<svg") && svg.contains("data-square=\"f1\""));
    assert_eq!(s.get("/board.svg?fen=garbage").0, 400);

    let (status, spec) = s.get("/openapi.json");
    assert_eq!(status, 200);
    let spec: serde_json::Value = serde_json::from_str(&spec).unwrap();
    for route in [
        "/api/ask",
        "/api/check",
        "/api/verify",
        "/api/search",
        "/api/articles",
        "/healthz",
        "/board.svg",
    ] {
        assert!(
            spec["paths"].get(route).is_some(),
            "openapi.json lacks {route}"
        );
    }

    // ask: no position, with a position, errors.
    let (status, a) = s.post_json(
        "/api/ask",
        &json!({"question": "Can I castle out of check?"}),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["citations"][0]["article"], "3.8.2.2");

    // A FEN pasted into the question is the position asked about.
    let (status, a) = s.post_json(
        "/api/ask",
        &json!({"question": "Can I castle short here? r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        a["fen_from_question"],
        "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"
    );
    assert_eq!(
        a["position"]["fen"],
        "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"
    );
    assert!(a["answer"].as_str().unwrap().contains("f1"), "{a}");
    assert!(
        a["citations"][0]["url"]
            .as_str()
            .unwrap()
            .starts_with("/rulebook/article-3#art-3-8-2-2")
    );

    // The same rulebook question again (spaces around it do not matter): served from the
    // answer cache, byte for byte the answer computed the first time.
    let ask_raw = |q: &str| {
        let body = json!({ "question": q }).to_string();
        s.request(
            "POST",
            "/api/ask",
            Some(body.as_bytes()),
            "application/json",
        )
    };
    let (status, head, first) = ask_raw("When may I claim a draw by repetition?");
    assert_eq!(status, 200);
    assert!(
        head.to_ascii_lowercase().contains("x-answer-cache: miss"),
        "{head}"
    );
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let (status, head, again) = ask_raw("  When may I claim a draw by repetition? ");
    assert_eq!(status, 200);
    assert!(
        head.to_ascii_lowercase().contains("x-answer-cache: hit"),
        "{head}"
    );
    assert_eq!(first, again);

    let (status, a) = s.post_json("/api/ask", &json!({"question": "Can I castle short?", "fen": "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"}));
    assert_eq!(status, 200);
    assert!(a["answer"].as_str().unwrap().contains("f1"), "{a}");
    assert_eq!(a["citations"][0]["article"], "3.8.2.2");

    let (status, e) = s.post_json("/api/ask", &json!({"question": "  "}));
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (400, Some("empty_question"))
    );
    let (status, e) = s.post_json(
        "/api/ask",
        &json!({"question": "Is this mate?", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}),
    );
    assert_eq!(status, 422, "{e}");
    let (status, e) = s.post_json("/api/ask", &json!({"question": "Can I castle?", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"}));
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (422, Some("invalid_fen")),
        "{e}"
    );
    let (status, e) = s.post_json(
        "/api/ask",
        &json!({"question": "Can I castle?", "moves": ["e4", "e5", "Ke3"]}),
    );
    assert_eq!(status, 422);
    assert_eq!(e["error"]["ply"], 3, "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("Ke3"));
    // The same history with a question about the disputed move: answered about the position
    // before it, and the answer says which move it left out.
    let (status, a) = s.post_json(
        "/api/ask",
        &json!({"question": "He played Ke3. Was that illegal?", "moves": ["e4", "e5", "Ke3"]}),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["disputed"], "Ke3", "{a}");
    assert_eq!(a["topic"], "illegal_move", "{a}");
    assert_eq!(a["claims"][0]["value"], false, "{a}");
    let (status, _, body) = s.request("POST", "/api/ask", Some(b"{not json"), "application/json");
    assert_eq!(status, 400);
    assert!(body.contains("bad_json"));
    let (status, e) = s.post_json("/api/ask", &json!({"question": "x".repeat(5000)}));
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (400, Some("question_too_long"))
    );
    let big = vec![b'a'; 2 * 1024 * 1024];
    let (status, _, body) = s.request("POST", "/api/ask", Some(&big), "application/json");
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("body_too_large"));

    // check and verify.
    let (status, r) = s.post_json(
        "/api/check",
        &json!({"fen": "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", "move": "O-O"}),
    );
    assert_eq!(status, 200);
    assert_eq!(r["castling"]["white"]["kingside"]["right"], true);
    assert_eq!(r["castling"]["white"]["kingside"]["legal"], false);
    assert_eq!(r["move_check"]["legal"], false);
    let (status, v) = s.post_json(
        "/api/verify",
        &json!({
            "fen": "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1",
            "claims": [
                {"kind": "castling_legal", "color": "white", "wing": "kingside", "value": false},
                {"kind": "castling_legal", "color": "white", "wing": "queenside", "value": false}
            ]
        }),
    );
    assert_eq!(status, 200);
    assert_eq!(v["results"][0]["holds"], true);
    assert_eq!(
        v["results"][1]["holds"], false,
        "long castling is legal there"
    );
    assert_eq!(v["all_hold"], false);
    let (status, _) = s.post_json(
        "/api/verify",
        &json!({"claims": [{"kind": "no_such_kind", "value": true}]}),
    );
    assert_eq!(status, 400);

    let (status, e) = s.post_json("/api/nothing", &json!({}));
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (404, Some("not_found"))
    );
}

#[test]
fn nonsense_gets_no_confident_answer() {
    let s = Server::start(&[]);
    for q in [
        "asdfgh qwerty zxcvb",
        "What is the capital of France?",
        "how do I bake sourdough bread",
        "tell me a joke",
        "hello, can you help me?",
    ] {
        let (status, a) = s.post_json("/api/ask", &json!({"question": q}));
        assert_eq!(status, 200);
        assert_eq!(a["basis"], "unknown", "{q}: {a}");
        assert!(
            a["answer"].as_str().unwrap().starts_with("I don't know"),
            "{q}: {a}"
        );
    }
    // Chess, but not its rules: no ruling found by an incidental word ("queen", "best").
    for q in [
        "What's the best opening for beginners?",
        "is the Queen's Gambit a real gambit?",
    ] {
        let (status, a) = s.post_json("/api/ask", &json!({"question": q}));
        assert_eq!(status, 200);
        assert_eq!(a["basis"], "unknown", "{q}: {a}");
        assert!(
            a["answer"].as_str().unwrap().contains("not on openings"),
            "{q}: {a}"
        );
    }
}
