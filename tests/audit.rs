//! `arbiter audit` and the shared PGN reader: python-chess's PGN test files read as
//! python-chess reads them (tests/data/pgn/expected.tsv), CHA's lichess timeouts re-judged as
//! CHA labels them, one test per kind of finding, and the CLI (JSON, CSV, stdin, gzip,
//! `check --pgn` with the issue-17 cases).

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use rules_arbiter::audit::run::audit_text;
use rules_arbiter::audit::{
    Finding, FindingKind, Judged, Options, Severity, Timeout, audit_reader,
};

fn data(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

fn audit(text: &str) -> Vec<Judged> {
    audit_text(text, &Options::default())
}

fn kinds(j: &Judged) -> Vec<FindingKind> {
    j.findings.iter().map(|f| f.kind).collect()
}

fn only(j: &Judged, kind: FindingKind) -> Finding {
    let found: Vec<&Finding> = j.findings.iter().filter(|f| f.kind == kind).collect();
    assert_eq!(
        found.len(),
        1,
        "one {kind:?} finding expected: {:#?}",
        j.findings
    );
    found[0].clone()
}

#[test]
fn python_chess_test_files_are_read_as_python_chess_reads_them() {
    let expected = std::fs::read_to_string(data("pgn/expected.tsv")).unwrap();
    let mut by_file: HashMap<String, Vec<Vec<String>>> = HashMap::new();
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<String> = line.split('\t').map(str::to_string).collect();
        by_file.entry(cols[0].clone()).or_default().push(cols);
    }
    assert!(by_file.len() >= 14, "{:?}", by_file.keys());
    for (file, rows) in by_file {
        let bytes = std::fs::read(data(&format!("pgn/{file}"))).unwrap();
        let mut judged = Vec::new();
        audit_reader(
            &file,
            &bytes[..],
            &Options::default(),
            &mut |j| judged.push(j.clone()),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(judged.len(), rows.len(), "{file}: number of games");
        for (j, row) in judged.iter().zip(&rows) {
            let (game, variant, plies, error_ply) = (&row[1], &row[2], &row[3], &row[4]);
            let at = format!("{file} game {game}");
            assert_eq!(j.game.to_string(), *game, "{at}");
            let errors: Vec<&Finding> = j
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .collect();
            match variant.as_str() {
                "standard" | "chess960" => {}
                _ => {
                    assert_eq!(
                        kinds(j),
                        [FindingKind::NotStandard],
                        "{at}: a variant, said once"
                    );
                    assert!(j.findings[0].message.contains("not standard chess"), "{at}");
                    continue;
                }
            }
            if error_ply == "-" {
                assert!(
                    errors.is_empty(),
                    "{at}: python-chess reads it without error: {errors:#?}"
                );
                assert_eq!(j.plies.to_string(), *plies, "{at}: plies read");
            } else {
                assert_eq!(errors.len(), 1, "{at}: {errors:#?}");
                let e = errors[0];
                assert_eq!(
                    e.ply.map(|p| p.to_string()).as_deref(),
                    Some(error_ply.as_str()),
                    "{at}: {e:#?}"
                );
                assert!(
                    matches!(
                        e.kind,
                        FindingKind::Ambiguous | FindingKind::IllegalMove | FindingKind::Notation
                    ),
                    "{at}: {e:#?}"
                );
                let written = row[5].split('\'').nth(1).unwrap_or("");
                assert!(
                    e.move_text.as_deref().unwrap_or("").ends_with(written),
                    "{at}: {e:#?}"
                );
            }
        }
    }
}

#[test]
fn latin1_null_moves_and_chess960_from_python_chess_files() {
    let bytes = std::fs::read(data("pgn/immortal-games.pgn")).unwrap();
    let mut judged = Vec::new();
    audit_reader(
        "immortal",
        &bytes[..],
        &Options::default(),
        &mut |j| judged.push(j.clone()),
        &mut |_| {},
    )
    .unwrap();
    let encoding: Vec<&Finding> = judged
        .iter()
        .flat_map(|j| &j.findings)
        .filter(|f| f.kind == FindingKind::Encoding)
        .collect();
    assert_eq!(encoding.len(), 1, "one note per input");
    assert!(encoding[0].message.contains("Windows-1252"));
    assert_eq!(judged.len(), 36);
    let text = std::fs::read_to_string(data("pgn/anastasian-lewis.pgn")).unwrap();
    let j = &audit(&text)[0];
    let f = only(j, FindingKind::NullMove);
    assert_eq!((f.ply, f.move_text.as_deref()), (Some(82), Some("41...Z0")));
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(j.plies, 84, "the rest of the game is read");

    let text = std::fs::read_to_string(data("pgn/cutechess-fischerrandom.pgn")).unwrap();
    for j in audit(&text) {
        assert!(
            j.findings.iter().all(|f| f.severity != Severity::Error),
            "{:#?}",
            j.findings
        );
        assert!(j.plies >= 70);
    }
}

/// CHA's lichess positions as games lost on time by the side to move: the audit says "draw"
/// exactly when CHA's label says the opponent cannot mate (6.9).
#[test]
fn cha_lichess_timeouts_reproduce_chas_labels() {
    let labelled = std::fs::read_to_string(data("cha/lichess.txt")).unwrap();
    let mut pgn = String::new();
    let mut cha_draw = Vec::new();
    for line in labelled
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (label, fen) = (&line[..2], line[3..].trim());
        let white_to_move = fen.split_whitespace().nth(1) == Some("w");
        let result = if white_to_move { "0-1" } else { "1-0" };
        let opponent = if white_to_move {
            label.as_bytes()[1]
        } else {
            label.as_bytes()[0]
        };
        cha_draw.push(opponent == b'-');
        pgn.push_str(&format!(
            "[Result \"{result}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Termination \"Time forfeit\"]\n\n{result}\n\n"
        ));
    }
    assert_eq!(cha_draw.len(), 65_536);
    let judged = audit(&pgn);
    assert_eq!(judged.len(), cha_draw.len());
    let mut disagree = Vec::new();
    let mut draws = 0;
    for (j, cha) in judged.iter().zip(&cha_draw) {
        let audit_draw = j
            .findings
            .iter()
            .any(|f| f.expected.as_deref() == Some("1/2-1/2"));
        draws += usize::from(audit_draw);
        if audit_draw != *cha {
            disagree.push((j.game, j.findings.clone()));
        }
        assert!(
            j.timeout.is_some(),
            "game {}: every game is a recorded time forfeit",
            j.game
        );
        assert_ne!(j.timeout, Some(Timeout::Undecided), "game {}", j.game);
    }
    assert!(
        disagree.is_empty(),
        "{} disagreements, first: {:#?}",
        disagree.len(),
        disagree.first()
    );
    assert_eq!(draws, cha_draw.iter().filter(|d| **d).count());
    assert!(draws >= 10);
    // An upheld loss carries its proof: a helpmate that ends in mate.
    let upheld = judged
        .iter()
        .flat_map(|j| &j.findings)
        .find(|f| f.kind == FindingKind::TimeForfeitUpheld)
        .unwrap();
    assert!(
        upheld.helpmate.last().unwrap().ends_with('#'),
        "{upheld:#?}"
    );
}

#[test]
fn a_loss_on_time_against_a_lone_king_is_a_draw() {
    // White has king and queen, Black a lone king; White's flag falls.
    let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[FEN \"4k3/8/8/8/8/8/8/3QK3 w - - 0 40\"]\n[Termination \"Time forfeit\"]\n\n40. Qd2 Ke7 41. Qd3 0-1\n";
    let j = &audit(text)[0];
    let f = only(j, FindingKind::TimeForfeit);
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(
        (f.recorded.as_deref(), f.expected.as_deref()),
        (Some("0-1"), Some("1/2-1/2"))
    );
    assert_eq!(f.articles, ["6.9"]);
    assert!(
        f.message
            .contains("Black cannot checkmate by any series of legal moves"),
        "{}",
        f.message
    );
    assert!(f.message.contains("after 41. Qd3"), "{}", f.message);
    assert_eq!(j.timeout, Some(Timeout::Wrong));
}

#[test]
fn a_loss_on_time_stands_when_the_opponent_could_mate_with_a_helpmate_as_proof() {
    // Knight against pawn: each side can still mate with help.
    let text = "[Result \"1-0\"]\n[FEN \"8/8/8/4k3/8/8/2p5/K1N5 b - - 0 60\"]\n[Termination \"Time forfeit\"]\n\n1-0\n";
    let j = &audit(text)[0];
    let f = only(j, FindingKind::TimeForfeitUpheld);
    assert_eq!(f.severity, Severity::Info);
    assert!(
        !f.helpmate.is_empty() && f.helpmate.last().unwrap().ends_with('#'),
        "{f:#?}"
    );
    assert!(f.message.contains("for example"), "{}", f.message);
    // The same position recorded as a draw on time: the flag of the side to move loses.
    let drawn = text.replace("1-0", "1/2-1/2");
    let f = only(&audit(&drawn)[0], FindingKind::TimeForfeit);
    assert_eq!(
        (f.expected.as_deref(), f.severity),
        (Some("1-0"), Severity::Warning)
    );
}

#[test]
fn a_clock_at_zero_marks_a_loss_on_time() {
    let text = "[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/3QK3 b - - 0 40\"]\n\n40... Ke7 { [%clk 0:00:03] } 41. Qd3 { [%clk 0:01:00] } Ke8 { [%clk 0:00:00] } 42. Qd4 1-0\n";
    // The queen side won; the lone king's clock reached zero: a loss on time that stands.
    let j = &audit(text)[0];
    let f = only(j, FindingKind::TimeForfeitUpheld);
    assert!(f.message.contains("clock shows 0:00:00"), "{}", f.message);
}

#[test]
fn results_that_contradict_the_board() {
    let games = [
        // Fool's mate scored for White.
        ("1. f3 e5 2. g4 Qh4# 1-0", "5.1.1", "0-1"),
        // Stalemate scored as a win.
        (
            "[FEN \"7k/8/6K1/8/8/8/5Q2/8 w - - 0 1\"]\n1. Qf7 1-0",
            "5.2.1",
            "1/2-1/2",
        ),
        // Bare kings after a capture.
        (
            "[FEN \"8/8/4k3/8/8/3nK3/8/8 w - - 0 1\"]\n1. Kxd3 0-1",
            "5.2.2",
            "1/2-1/2",
        ),
        // The 75-move rule.
        (
            "[FEN \"8/8/4k3/8/8/4K3/8/R7 w - - 149 80\"]\n80. Ra2 1-0",
            "9.6.2",
            "1/2-1/2",
        ),
        // Fivefold repetition.
        (
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 1-0",
            "9.6.1",
            "1/2-1/2",
        ),
    ];
    for (text, article, expected) in games {
        let j = &audit(text)[0];
        let f = only(j, FindingKind::Result);
        assert_eq!(
            (f.articles[0].as_str(), f.expected.as_deref()),
            (article, Some(expected)),
            "{text}: {f:#?}"
        );
        assert_eq!(f.severity, Severity::Error);
    }
    // Unfinished games marked * although they are over.
    let f = only(&audit("1. f3 e5 2. g4 Qh4# *")[0], FindingKind::Result);
    assert_eq!(
        (f.severity, f.expected.as_deref()),
        (Severity::Warning, Some("0-1"))
    );
}

#[test]
fn moves_after_the_end() {
    let j = &audit("1. f3 e5 2. g4 Qh4# 3. e4 0-1")[0];
    let f = only(j, FindingKind::AfterEnd);
    assert_eq!((f.ply, f.move_text.as_deref()), (Some(5), Some("3. e4")));
    assert!(!kinds(j).contains(&FindingKind::Result));
    // A dead position the solver finds (blocked pawns), played on and scored as a win.
    let text =
        "[FEN \"8/8/3k3p/1p2p1pP/1P2P1P1/8/2K5/8 b - - 88 93\"]\n93... Kd7 94. Kd3 Kd6 1-0\n";
    let j = &audit(text)[0];
    assert_eq!(
        kinds(j),
        [FindingKind::AfterEnd, FindingKind::Result],
        "{:#?}",
        j.findings
    );
    assert_eq!(j.findings[0].ply, Some(1));
    assert_eq!(j.findings[1].articles, ["5.2.2"]);
}

#[test]
fn a_resignation_when_the_winner_cannot_mate() {
    let text = "[Result \"1-0\"]\n[Termination \"Normal\"]\n[FEN \"4k3/8/8/8/8/8/8/2BQK3 w - - 0 1\"]\n\n1. Qd2 Ke7 0-1\n";
    let j = &audit(text)[0];
    let f = only(j, FindingKind::Result);
    assert_eq!(
        (f.severity, f.expected.as_deref()),
        (Severity::Error, Some("1/2-1/2"))
    );
    assert_eq!(f.articles, ["5.1.2", "6.9"]);
}

#[test]
fn missed_claims_of_the_player_who_lost() {
    let text =
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 6. Qh5 Nc6 7. Bc4 Nf6 8. Qxf7# 1-0";
    let j = &audit(text)[0];
    let f = only(j, FindingKind::MissedClaim);
    assert_eq!(f.articles, ["9.2.1"]);
    assert!(
        f.message.contains("Black could have claimed a draw"),
        "{}",
        f.message
    );
    // A draw, or a win by the claimant, is not a missed claim.
    assert!(
        !kinds(&audit(&text.replace("1-0", "1/2-1/2").replace("8. Qxf7#", ""))[0])
            .contains(&FindingKind::MissedClaim)
    );
}

#[test]
fn illegal_and_unreadable_moves_name_their_ply_and_text() {
    let j = &audit("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. i4 *")[0];
    let f = only(j, FindingKind::Notation);
    assert_eq!((f.ply, f.move_text.as_deref()), (Some(9), Some("5. i4")));
    let j = &audit("1. e4 e5 2. Ke3 Nf6 *")[0];
    let f = only(j, FindingKind::IllegalMove);
    assert_eq!((f.ply, f.move_text.as_deref()), (Some(3), Some("2. Ke3")));
    assert!(f.message.contains("is illegal"), "{}", f.message);
    let j = &audit("1. e4 e5 2. Kxx9 Nf6 *")[0];
    assert_eq!(only(j, FindingKind::Notation).ply, Some(3));
    // A null move while in check cannot be read past.
    let j = &audit("1. e4 f5 2. Qh5+ -- 3. Qxe8 *")[0];
    let f = only(j, FindingKind::NullMove);
    assert_eq!((f.severity, f.ply), (Severity::Error, Some(4)));
    assert!(j.unreadable);
}

#[test]
fn games_are_numbered_in_order_across_batches() {
    let mut text = String::new();
    for i in 0..700 {
        if i % 3 == 0 {
            text.push_str("1. e4 e5 2. Ke3 *\n1. d4 d5 *\n");
        } else {
            text.push_str("[Event \"x\"]\n1. c4 c5 *\n\n");
        }
    }
    let judged = audit(&text);
    let expected = 700 + 700_usize.div_ceil(3);
    assert_eq!(judged.len(), expected);
    for (i, j) in judged.iter().enumerate() {
        assert_eq!(j.game, i + 1);
    }
    let illegal: Vec<usize> = judged
        .iter()
        .filter(|j| !j.findings.is_empty())
        .map(|j| j.game)
        .collect();
    assert_eq!(illegal.len(), 700_usize.div_ceil(3));
    assert_eq!(illegal[1], 5);
}

fn arbiter(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

const LONE_KING_ON_TIME: &str = "[White \"A, \\\"Quoted\\\"\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[FEN \"4k3/8/8/8/8/8/8/3QK3 w - - 0 40\"]\n[Termination \"Time forfeit\"]\n\n40. Qd2 Ke7 41. Qd3 0-1\n\n[Variant \"Atomic\"]\n1. e4 *\n";

#[test]
fn cli_json_csv_text_stdin_and_gzip() {
    let out = arbiter(&["audit", "--json"], LONE_KING_ON_TIME.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let f = &lines[0];
    assert_eq!(f["game"], 1);
    assert_eq!(f["kind"], "time_forfeit");
    assert_eq!(f["articles"], serde_json::json!(["6.9"]));
    assert_eq!(f["expected"], "1/2-1/2");
    assert_eq!(f["file"], "-");
    assert!(f["message"].as_str().unwrap().contains("drawn"));
    assert_eq!(
        (lines[1]["game"].clone(), lines[1]["kind"].clone()),
        (2.into(), "not_standard".into())
    );
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(summary.contains("Audited 2 games"), "{summary}");

    let out = arbiter(&["audit", "--csv", "-"], LONE_KING_ON_TIME.as_bytes());
    let csv = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].starts_with("file,game,ply,move,kind,severity"));
    assert_eq!(rows.len(), 3);
    assert!(
        rows[1].starts_with("-,1,,,time_forfeit,error,6.9,0-1,1/2-1/2,\"A, \"\"Quoted\"\"\",B,"),
        "{}",
        rows[1]
    );

    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("games.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(LONE_KING_ON_TIME.as_bytes()).unwrap();
    enc.finish().unwrap();
    let out = arbiter(&["audit", "--all", gz.to_str().unwrap()], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("game 1 (A, \"Quoted\" - B): error time_forfeit [6.9]"),
        "{text}"
    );
    assert!(text.contains("game 2: info not_standard"), "{text}");
    assert!(text.contains("Audited 2 games"), "{text}");
    assert!(
        text.contains("Results on time: 1 recorded; 0 stand, 1 to change"),
        "{text}"
    );
}

#[test]
fn check_pgn_uses_the_shared_reader() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    // Issue 17: the unreadable last move is an error naming its ply and text.
    let p = write(
        "i4.pgn",
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. i4 *",
    );
    let out = arbiter(&["check", "--pgn", &p, "--json"], b"");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["ply"], 9, "{v}");
    assert_eq!(v["error"]["text"], "5. i4");
    let p = write("hello.pgn", b"hello world");
    let v: serde_json::Value =
        serde_json::from_slice(&arbiter(&["check", "--pgn", &p, "--json"], b"").stdout).unwrap();
    assert_eq!(
        (v["error"]["ply"].clone(), v["error"]["text"].clone()),
        (1.into(), "1. hello".into())
    );
    let p = write("kxx9.pgn", b"1. e4 e5 2. Kxx9 Nf6 *");
    let v: serde_json::Value =
        serde_json::from_slice(&arbiter(&["check", "--pgn", &p, "--json"], b"").stdout).unwrap();
    assert_eq!(v["error"]["text"], "2. Kxx9", "{v}");
    // An empty file is no game, not the start position.
    let p = write("empty.pgn", b"");
    let out = arbiter(&["check", "--pgn", &p], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no PGN game"));
    // Latin-1 is read (with a note), a Chess960 game castles, a null move is noted.
    let p = write("latin1.pgn", b"[White \"R\xe9ti\"]\n1. Nf3 d5 2. c4 *");
    let out = arbiter(&["check", "--pgn", &p, "--json"], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("Windows-1252"));
    let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1";
    let p = write(
        "960.pgn",
        format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n1. O-O O-O-O *").as_bytes(),
    );
    let v: serde_json::Value =
        serde_json::from_slice(&arbiter(&["check", "--pgn", &p, "--json"], b"").stdout).unwrap();
    assert_eq!(v["history"].as_array().map(Vec::len), Some(2), "{v}");
    let p = write("null.pgn", b"1. e4 Z0 2. d4 *");
    let v: serde_json::Value =
        serde_json::from_slice(&arbiter(&["check", "--pgn", &p, "--json"], b"").stdout).unwrap();
    assert!(
        v["warnings"][0].as_str().unwrap().contains("null move"),
        "{v}"
    );
    assert_eq!(v["turn"], "black");
}

/// The audit's verdict on a loss on time is the checker's: `arbiter check` on the final
/// position gives the same `flag` result.
#[test]
fn time_forfeit_verdicts_agree_with_the_checkers_flag() {
    use rules_arbiter::rules::{self, CheckOptions, Game, SolverBudget};
    let labelled = std::fs::read_to_string(data("cha/lichess.txt")).unwrap();
    let lines: Vec<&str> = labelled
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    // Every draw-labelled position for the side to move's opponent, and a spread of others.
    let sample: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            let white_to_move = l[3..].split_whitespace().nth(1) == Some("w");
            let opponent = if white_to_move {
                l.as_bytes()[1]
            } else {
                l.as_bytes()[0]
            };
            opponent == b'-' || i % 997 == 0
        })
        .map(|(_, l)| *l)
        .collect();
    assert!(sample.len() > 60);
    for line in sample {
        let fen = line[3..].trim();
        let white_to_move = fen.split_whitespace().nth(1) == Some("w");
        let result = if white_to_move { "0-1" } else { "1-0" };
        let text = format!(
            "[Result \"{result}\"]\n[FEN \"{fen}\"]\n[Termination \"Time forfeit\"]\n\n{result}\n"
        );
        let j = &audit(&text)[0];
        let audit_says = j
            .findings
            .iter()
            .find_map(|f| f.expected.clone())
            .unwrap_or_else(|| result.to_string());
        let report = rules::check(
            &Game::new(Some(fen)).unwrap(),
            None,
            CheckOptions {
                budget: SolverBudget(None),
                skip_solver: false,
            },
        );
        let flag = if white_to_move {
            &report.flag.white
        } else {
            &report.flag.black
        };
        // Once the game is over on the board, the report's flag repeats the result (or is null
        // for a side that has already won); the audit judges the result against the board.
        let checker_says = match (&report.outcome, flag) {
            (Some(o), _) => o.result.clone(),
            (None, Some(r)) => r.clone(),
            (None, None) => panic!("{fen}: undecided"),
        };
        assert_eq!(audit_says, checker_says, "{fen}: {:#?}", j.findings);
    }
}
