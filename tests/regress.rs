//! `arbiter regress` end to end: the golden answer suite passes; breaking a rulebook page makes
//! exactly the cases that depend on it fail, with a readable diff; malformed suite files are
//! rejected with the file, the case and the field; --junit and --json write what they promise.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(manifest())
        .env("ARBITER_LOG", "error")
        .args(args)
        .output()
        .expect("run arbiter")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The names after "FAIL " in a text report.
fn failed_cases(report: &str) -> BTreeSet<String> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("FAIL "))
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_string())
        .collect()
}

/// The text under one "FAIL name" heading, up to the next blank line.
fn failure_block<'a>(report: &'a str, name: &str) -> &'a str {
    let start = report
        .find(&format!("FAIL {name} "))
        .unwrap_or_else(|| panic!("no failure reported for {name}:\n{report}"));
    let rest = &report[start..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

fn closing_line(report: &str) -> (usize, usize) {
    let last = report.lines().last().unwrap_or_default();
    let parts: Vec<&str> = last.split(' ').collect();
    assert!(
        parts.len() == 4 && parts[1] == "passed," && parts[3] == "failed",
        "the report must end with exactly `N passed, M failed`, got {last:?}"
    );
    (parts[0].parse().expect("N"), parts[2].parse().expect("M"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A copy of rulebook/ with the section of `article` (its heading, at whatever level, and
/// everything up to the next heading of the same or a higher level) removed from `page`.
fn rulebook_without(dir: &Path, page: &str, article: &str) -> PathBuf {
    let copy = dir.join("rulebook");
    copy_dir(&manifest().join("rulebook"), &copy);
    let path = copy.join(page);
    let text = std::fs::read_to_string(&path).unwrap();
    let heading_level = |line: &str| {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        (hashes > 0 && line[hashes..].starts_with(' ')).then_some(hashes)
    };
    let mut start = None;
    let mut end = text.len();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if let Some(level) = heading_level(line) {
            match start {
                None if line[level..]
                    .trim_start()
                    .starts_with(&format!("{article} ")) =>
                {
                    start = Some((offset, level))
                }
                Some((_, l)) if level <= l => {
                    end = offset;
                    break;
                }
                _ => {}
            }
        }
        offset += line.len();
    }
    let (start, _) = start.unwrap_or_else(|| panic!("no heading for {article} in {page}"));
    let broken = format!("{}{}", &text[..start], &text[end..]);
    std::fs::write(&path, broken).unwrap();
    copy
}

#[test]
fn the_golden_suite_passes() {
    let out = arbiter(&["regress", "tests/answers"]);
    let report = stdout(&out);
    let (passed, failed) = closing_line(&report);
    assert!(
        passed >= 250,
        "the suite should hold at least 250 cases, ran {}",
        passed + failed
    );
    assert!(
        !report.contains('\r'),
        "no progress bar when stdout is not a terminal"
    );
    assert!(
        out.status.success() && failed == 0,
        "the golden suite failed ({failed} cases):\n{report}\n{}",
        stderr(&out)
    );
}

#[test]
fn removing_6_9_fails_the_flag_cases() {
    let dir = tempfile::tempdir().unwrap();
    let broken = rulebook_without(dir.path(), "laws/article-6.md", "6.9");
    let suite = "tests/answers/clock-and-flag.toml";
    let intact = arbiter(&["regress", "--rulebook", "rulebook", suite]);
    let out = arbiter(&["regress", "--rulebook", broken.to_str().unwrap(), suite]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let (_before, after) = (failed_cases(&stdout(&intact)), failed_cases(&report));
    for name in [
        "6.9-two-knights-lone-king-flags-loses",
        "6.9-knight-vs-pawn-pawn-side-flags-loses",
        "6.9-queen-side-flags-draw",
    ] {
        assert!(
            after.contains(name),
            "{name} should fail without 6.9:\n{report}"
        );
        let block = failure_block(&report, name);
        // The answer still prints "6.9", but the citation no longer leads to an article 6.9.
        assert!(
            block.contains("missing citation 6.9") && block.contains("not in this rulebook"),
            "{block}"
        );
    }
}

#[test]
fn malformed_suite_files_name_the_file_case_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        r#"[[case]]
name = "fine"
question = "Can I castle out of check?"
cites = ["3.8.2.2"]

[[case]]
name = "typo-in-field"
question = "Can I castle out of check?"
cite = ["3.8.2.2"]

[[case]]
name = "bad-claim"
question = "Is it mate?"
fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
claims = [{ kind = "checkmate", value = "yes" }]

[[case]]
question = "No name here"
contains = ["x"]

[[case]]
name = "bad-moves"
question = "Is it check?"
moves = ["e4", "e4"]
claims = [{ kind = "in_check", value = false }]

[[case]]
name = "wrong-type"
question = "Q"
cites = "3.8.2.2"
"#,
    )
    .unwrap();
    let out = arbiter(&["regress", bad.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a malformed suite exits 2:\n{err}"
    );
    let line = |needle: &str| {
        err.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no error mentions {needle}:\n{err}"))
            .to_string()
    };
    let file = bad.display().to_string();
    let l = line("typo-in-field");
    assert!(
        l.contains(&file)
            && l.contains("case 2")
            && l.contains("line 6")
            && l.contains("field `cite`")
            && l.contains("did you mean `cites`"),
        "{l}"
    );
    let l = line("bad-claim");
    assert!(
        l.contains("case 3")
            && l.contains("field `claims`")
            && l.contains("claim 1")
            && l.contains("true or false"),
        "{l}"
    );
    let l = line("case 4");
    assert!(l.contains("field `name`") && l.contains("missing"), "{l}");
    let l = line("bad-moves");
    assert!(l.contains("field `moves`") && l.contains("e4"), "{l}");
    let l = line("wrong-type");
    assert!(
        l.contains("field `cites`") && l.contains("expected an array of strings, found a string"),
        "{l}"
    );
    assert!(
        !err.contains("\"fine\""),
        "the good case is not reported:\n{err}"
    );
    assert!(
        stdout(&out).is_empty(),
        "nothing runs when the suite cannot be read"
    );

    // Broken TOML names the file and the line.
    std::fs::write(&bad, "[[case]]\nname = \"x\nquestion = \"y\"\n").unwrap();
    let out = arbiter(&["regress", bad.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains(&file) && err.contains("not valid TOML") && err.contains("line 2"),
        "{err}"
    );

    // An unknown claim parameter, and a duplicate name across files.
    std::fs::write(&bad, "[[case]]\nname = \"colour\"\nquestion = \"Can Black castle?\"\nfen = \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1\"\nclaims = [{ kind = \"castling_right\", colour = \"black\", wing = \"kingside\", value = true }]\n").unwrap();
    std::fs::write(
        dir.path().join("one.toml"),
        "[[case]]\nname = \"dup\"\nquestion = \"q\"\ncontains = [\"q\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("two.toml"),
        "[[case]]\nname = \"dup\"\nquestion = \"q\"\ncontains = [\"q\"]\n",
    )
    .unwrap();
    let out = arbiter(&["regress", dir.path().to_str().unwrap()]);
    let err = stderr(&out);
    assert!(
        err.contains("unknown field `colour`") && err.contains("duplicate name"),
        "{err}"
    );
}

#[test]
fn junit_and_json_reports() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("mini.toml");
    std::fs::write(
        &suite,
        r#"[[case]]
name = "3.8.2.1-king-returned-to-e1"
question = "My king went to f1 and came back to e1. Can I still castle?"
moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "Kf1", "Nf6", "Ke1", "d6"]
cites = ["3.8.2.1"]
claims = [{ kind = "castling_right", color = "white", wing = "kingside", value = false }]

[[case]]
name = "deliberately-wrong <&> \"quoted\""
question = "My king went to f1 and came back to e1. Can I still castle?"
moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "Kf1", "Nf6", "Ke1", "d6"]
cites = ["9.6.2"]
claims = [{ kind = "castling_right", color = "white", wing = "kingside", value = true }, { kind = "stalemate", value = false }]
contains = ["<no such phrase>"]
"#,
    )
    .unwrap();
    let junit = dir.path().join("junit.xml");
    let out = arbiter(&[
        "regress",
        suite.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert_eq!(closing_line(&report), (1, 1));
    let block = failure_block(&report, "deliberately-wrong");
    assert!(
        block.contains("missing citation 9.6.2") && block.contains("came: 3.8.2.1"),
        "{block}"
    );
    assert!(block.contains("wrong claim value for castling_right(color=white, wing=kingside): expected true, came false"), "{block}");
    assert!(
        block.contains("missing claim stalemate = false") && block.contains("came: castling_right"),
        "{block}"
    );
    assert!(
        block.contains("missing phrase \"<no such phrase>\"") && block.contains("answer: "),
        "{block}"
    );

    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
        "{xml}"
    );
    assert!(
        xml.contains("<testsuites name=\"arbiter regress\" tests=\"2\" failures=\"1\""),
        "{xml}"
    );
    assert!(xml.contains("<testsuite name=\"mini\""), "{xml}");
    assert!(
        xml.contains("<testcase name=\"3.8.2.1-king-returned-to-e1\""),
        "{xml}"
    );
    assert!(
        xml.contains("name=\"deliberately-wrong &lt;&amp;&gt; &quot;quoted&quot;\""),
        "{xml}"
    );
    assert!(
        xml.contains("<failure message=\"missing citation 9.6.2 (and 3 more)\" type=\"regress\">"),
        "{xml}"
    );
    assert!(
        xml.contains("&lt;no such phrase&gt;") && !xml.contains("<no such phrase>"),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 2);
    assert_eq!(xml.matches("</testsuite>").count(), 1);

    let out = arbiter(&["regress", suite.to_str().unwrap(), "--json"]);
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("--json prints one JSON document");
    assert_eq!(
        (
            v["passed"].as_u64(),
            v["failed"].as_u64(),
            v["total"].as_u64()
        ),
        (Some(1), Some(1), Some(2))
    );
    let cases = v["cases"].as_array().unwrap();
    assert_eq!(cases[0]["passed"], true);
    let kinds: Vec<&str> = cases[1]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "missing_citation",
            "wrong_claim_value",
            "missing_claim",
            "missing_phrase"
        ]
    );
    assert_eq!(stderr(&out).lines().last(), Some("1 passed, 1 failed"));
}
