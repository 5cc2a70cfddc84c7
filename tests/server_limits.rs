//! Issue 17 against the real server on a loopback port: nothing hangs (stuck connections,
//! stalled uploads, slow positions), nothing is half-served (every error status carries the
//! JSON error body), nothing is dropped (a full queue and a timeout answer at once, and the
//! work behind a timed-out request stops). Margins are generous: these check budgets and
//! limits, not speed.

mod common;

use std::io::Read;
use std::time::{Duration, Instant};

use common::Server;
use serde_json::{Value, json};

/// The position of issue 17: chasolver's fast check alone ran for about 4 s on it.
const SLOW: &str = "kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w - - 0 1";

/// A verification of SLOW: the verifier gives the solver 2 s per side, so about 4 s of work.
fn slow_verify() -> Value {
    json!({ "fen": SLOW, "claims": [{ "kind": "dead_position", "value": true }] })
}

/// The `{"error": {"code", "message"}}` body of an answer, or a panic naming what came.
fn error_code(status: u16, headers: &str, body: &str) -> String {
    assert!(
        headers
            .to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{status} without a JSON content type:\n{headers}\n{body}"
    );
    let v: Value = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("{status}: the body is not JSON ({e}): {body:?}"));
    let message = v["error"]["message"].as_str().unwrap_or("");
    assert!(!message.is_empty(), "{status}: no message: {v}");
    v["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("{status}: no code: {v}"))
        .to_string()
}

#[test]
fn every_error_status_has_the_json_error_body() {
    let s = Server::start(&["--client-timeout-ms", "700"]);
    let mut seen = Vec::new();
    let mut expect = |(status, headers, body): (u16, String, String), want: u16, code: &str| {
        assert_eq!(status, want, "{headers}\n{body}");
        assert_eq!(error_code(status, &headers, &body), code);
        seen.push(want);
    };

    // The router and the handlers.
    expect(
        s.request("DELETE", "/api/ask", None, "application/json"),
        405,
        "method_not_allowed",
    );
    expect(
        s.request("GET", "/api/nowhere", None, "application/json"),
        404,
        "not_found",
    );
    expect(
        s.request(
            "POST",
            "/api/ask",
            Some(br#"{"question": "castling?"}"#),
            "text/plain",
        ),
        415,
        "unsupported_media_type",
    );
    expect(
        s.request(
            "POST",
            "/api/check",
            Some(br#"{"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}"#),
            "application/json",
        ),
        422,
        "illegal_position",
    );
    let long = format!("/api/search?q={}", "a".repeat(9000));
    expect(
        s.request("GET", &long, None, "text/plain"),
        414,
        "uri_too_long",
    );

    // hyper's own answers, before any handler runs.
    let head = format!(
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(40_000)
    );
    expect(s.raw(head.as_bytes()), 431, "headers_too_large");
    expect(
        s.raw(b"GET /he llo HTTP/1.1\r\nHost: x\r\n\r\n"),
        400,
        "bad_request",
    );
    let uri = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    let (status, headers, body) = s.raw(uri.as_bytes());
    assert!(matches!(status, 414 | 431), "{status}");
    error_code(status, &headers, &body);

    // A stalled upload: the head came, the body never does.
    let started = Instant::now();
    expect(
        s.raw(b"POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"quest"),
        408,
        "body_timeout",
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(seen.len(), 8);
}

#[test]
fn a_request_not_answered_in_time_gets_503_and_its_work_stops() {
    let s = Server::start(&["--answer-timeout-ms", "300"]);
    let started = Instant::now();
    let handles: Vec<_> = (0..3)
        .map(|_| {
            let addr = s.addr.clone();
            std::thread::spawn(move || post(&addr, "/api/verify", &slow_verify()))
        })
        .collect();
    for h in handles {
        let (status, headers, body) = h.join().unwrap();
        assert_eq!(status, 503, "{body}");
        assert_eq!(error_code(status, &headers, &body), "timeout");
        assert!(headers.to_ascii_lowercase().contains("retry-after: 1"));
    }
    // Each verification was about 4 s of solver work; cancelled, it stops within a moment.
    let deadline = started + Duration::from_millis(2500);
    loop {
        let (_, health) = s.get("/healthz");
        let v: Value = serde_json::from_str(&health).unwrap();
        if v["position_work"]["running"] == 0 && v["position_work"]["queued"] == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "position work still running after its requests timed out: {v}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_full_queue_answers_503_busy_at_once() {
    let s = Server::start(&["--max-queue", "1", "--answer-timeout-ms", "1500"]);
    let handles: Vec<_> = (0..16)
        .map(|_| {
            let addr = s.addr.clone();
            std::thread::spawn(move || {
                let r = post(&addr, "/api/verify", &slow_verify());
                (r, Instant::now())
            })
        })
        .collect();
    let mut busy = Vec::new();
    let mut others = Vec::new();
    for h in handles {
        let ((status, headers, body), at) = h.join().unwrap();
        assert_eq!(status, 503, "{body}");
        match error_code(status, &headers, &body).as_str() {
            "busy" => busy.push(at),
            "timeout" => others.push(at),
            other => panic!("unexpected code {other}: {body}"),
        }
    }
    assert!(!busy.is_empty(), "no request was turned away");
    assert!(!others.is_empty(), "no request ran");
    // Turned away at once: before any request that ran had its answer.
    assert!(
        busy.iter().max() < others.iter().min(),
        "a busy answer came after a timed-out one"
    );
}

#[test]
fn a_slow_position_answers_within_its_budget() {
    let s = Server::start(&[]);
    let started = Instant::now();
    let (status, r) = s.post_json("/api/check", &json!({ "fen": SLOW }));
    let took = started.elapsed();
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["dead_position"], Value::Null, "not decided within 40 ms");
    // Two queries of 40 ms; the rest of the report is microseconds.
    assert!(took < Duration::from_millis(80 + 1500), "took {took:?}");
}

#[test]
fn a_hundred_stuck_connections_do_not_block_a_new_client() {
    // With room for all of them, and with room for half (the idlest are closed for newcomers).
    for extra in [&[][..], &["--max-connections", "50"][..]] {
        let s = Server::start(extra);
        let stuck: Vec<_> = (0..100)
            .map(|_| s.stuck_connection(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "))
            .collect();
        let (status, body) = s.get("/healthz");
        assert_eq!(status, 200, "{extra:?}: {body}");
        let (status, _) = s.post_json("/api/check", &json!({ "moves": ["e4"] }));
        assert_eq!(status, 200, "{extra:?}");
        drop(stuck);
    }
}

#[test]
fn a_stuck_connection_is_closed_after_the_client_timeout() {
    let s = Server::start(&["--client-timeout-ms", "500"]);
    let mut stuck = s.stuck_connection(b"GET /healthz HTTP/1.1\r\nHost: x\r\n");
    stuck
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 64];
    let n = stuck.read(&mut buf).unwrap_or(0);
    assert_eq!(n, 0, "the server wrote to a stuck connection");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn sigterm_ends_within_the_grace_time_whatever_is_open() {
    let mut s = Server::start(&["--shutdown-grace-ms", "1000"]);
    let _stuck = s.stuck_connection(b"GET /healthz HTTP/1.1\r\nHost: x\r\n");
    let addr = s.addr.clone();
    let slow = std::thread::spawn(move || post(&addr, "/api/verify", &slow_verify()));
    std::thread::sleep(Duration::from_millis(300));
    let status = s
        .terminate(Duration::from_secs(5))
        .expect("the server did not end within the grace time and a margin");
    assert!(status.success(), "{status:?}");
    let _ = slow.join();
}

#[test]
fn verify_refuses_claims_of_the_wrong_type_and_unknown_keys() {
    let s = Server::start(&[]);
    for claim in [
        json!({ "kind": "in_check", "value": "yes" }),
        json!({ "kind": "in_check", "value": true, "colour": "white" }),
        json!({ "kind": "flag_result", "flagged": "white", "value": true }),
    ] {
        let (status, e) = s.post_json("/api/verify", &json!({ "claims": [claim] }));
        assert_eq!(status, 400, "{claim}: {e}");
        assert_eq!(e["error"]["code"], "invalid_field", "{e}");
    }
    let (status, e) = s.post_json(
        "/api/verify",
        &json!({ "claims": [], "fen": SLOW, "extra": 1 }),
    );
    assert_eq!(status, 400, "{e}");
    let (status, e) = s.post_json(
        "/api/check",
        &json!({ "fen": "4k3/8/8/8/8/8/8/4K2R w K - 99999999999999999999 80" }),
    );
    assert_eq!(status, 422, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("half-move clock"),
        "{e}"
    );
}

#[test]
fn openapi_lists_the_pages_and_the_error_schema() {
    let s = Server::start(&[]);
    let (status, body) = s.get("/openapi.json");
    assert_eq!(status, 200);
    let doc: Value = serde_json::from_str(&body).unwrap();
    for path in [
        "/",
        "/rulebook",
        "/rulebook/{page}",
        "/static/app.js",
        "/openapi.json",
        "/api/ask",
        "/healthz",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} missing");
    }
    let schema = &doc["components"]["schemas"]["ErrorResponse"];
    assert!(schema.is_object(), "no ErrorResponse schema");
    let ask_400 = &doc["paths"]["/api/ask"]["post"]["responses"]["400"];
    assert!(ask_400.to_string().contains("ErrorResponse"), "{ask_400}");
}

/// A POST on its own connection (for requests sent from several threads).
fn post(addr: &str, path: &str, body: &Value) -> (u16, String, String) {
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    common::exchange(addr, request.as_bytes(), Duration::from_secs(60))
}
