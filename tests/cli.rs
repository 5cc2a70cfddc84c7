//! Issue 17 through the real binary: the solver budget of `check`, `--batch` through bad
//! bytes and oversized lines, a closed pipe, FEN numbers that overflow, plain logs.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const SLOW: &str = "kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w - - 0 1";

fn arbiter() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("ARBITER_LOG", "error");
    c
}

fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = arbiter()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().unwrap();
    out
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn check_holds_its_solver_budget_on_a_slow_position() {
    // Before issue 17: 4.5 s with a budget of 1 ms.
    for ms in [1u64, 300] {
        let started = Instant::now();
        let out = arbiter()
            .args(["check", "--fen", SLOW, "--json", "--solver-budget-ms"])
            .arg(ms.to_string())
            .output()
            .unwrap();
        let took = started.elapsed();
        assert!(out.status.success());
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["dead_position"], Value::Null);
        // Two queries (one a side) of `ms` each, plus start-up: a generous margin.
        let limit = Duration::from_millis(2 * ms + 2000);
        assert!(took < limit, "{ms} ms budget: took {took:?}");
    }
}

#[test]
fn check_batch_survives_bad_bytes_and_applies_the_api_limits() {
    let mut input = Vec::new();
    input.extend(b"{\"moves\": [\"e4\"]}\n");
    input.extend(b"{\"moves\": [\"e4\xff\"]}\n");
    input.extend(b"\xc3\x28 not utf-8 at all\n");
    input.extend(b"{\"moves\": \"");
    input.extend(std::iter::repeat_n(b'a', 2 * 1024 * 1024));
    input.extend(b"\"}\n");
    let many: Vec<&str> = std::iter::repeat_n("Nf3 Nf6 Ng1 Ng8", 600).collect();
    input.extend(format!("{{\"moves\": \"{}\"}}\n", many.join(" ")).bytes());
    input.extend(b"{\"fen\": \"4k3/8/8/8/8/8/8/4K2R w K - 99999999999999999999 80\"}\n");
    input.extend(b"{\"moves\": [\"d4\"]}\n");
    let out = run_with_stdin(&["check", "--batch"], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out);
    let codes: Vec<&str> = lines
        .iter()
        .map(|v| v["error"]["code"].as_str().unwrap_or("report"))
        .collect();
    assert_eq!(
        codes,
        [
            "report",
            "bad_json",
            "bad_json",
            "line_too_long",
            "too_many_moves",
            "invalid_fen",
            "report"
        ],
        "{lines:#?}"
    );
    assert_eq!(lines[6]["history"][0]["san"], "d4");
}

#[test]
fn ask_batch_survives_bad_bytes() {
    let input = b"{\"question\": \"Can I castle out of check?\"}\n\xff\xfe\n{\"question\": \"What is a stalemate?\"}\n";
    let out = run_with_stdin(&["ask", "--batch"], input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(lines[0]["answer"].is_string());
    assert_eq!(lines[1]["error"]["code"], "bad_json");
    assert!(lines[2]["answer"].is_string());
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let mut child = arbiter()
        .arg("articles")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader is gone before the first line is written (`| head -1` once it has read).
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        const SIGPIPE: i32 = 13;
        assert!(
            out.status.success() || out.status.signal() == Some(SIGPIPE),
            "{:?}",
            out.status
        );
    }
}

#[test]
fn a_fen_clock_that_overflows_is_an_error() {
    let out = arbiter()
        .args([
            "check",
            "--json",
            "--fen",
            "4k3/8/8/8/8/8/8/4K2R w K - 99999999999999999999 80",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(e["error"]["code"], "invalid_fen");
    let message = e["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("half-move clock") && message.contains("out of range"),
        "{message}"
    );
}

#[test]
fn logs_written_to_a_pipe_are_plain_text() {
    let out = arbiter()
        .env("ARBITER_LOG", "debug")
        .args(["search", "castling", "--index", "/nonexistent-index-dir"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("built in memory"), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "colour codes in a log pipe: {stderr:?}"
    );
}
