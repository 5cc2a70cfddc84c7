//! Issue 17: a rebuild of the on-disk index killed (SIGKILL, as `kill -9`) at every step never
//! leaves an index that is served empty: the folder always names a complete build, and the
//! next build clears what the killed one left.

use std::path::Path;
use std::process::Command;

use rules_arbiter::rulebook::Rulebook;
use rules_arbiter::search::disk::{KILL_AT_ENV, STEPS};
use rules_arbiter::search::{SearchIndex, Vocabulary};

fn build(out: &Path, kill_at: Option<&str>) -> std::process::ExitStatus {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.args(["index", "--out"])
        .arg(out)
        .env("ARBITER_LOG", "error")
        .env_remove(KILL_AT_ENV);
    if let Some(step) = kill_at {
        c.env(KILL_AT_ENV, step);
    }
    c.output().expect("run arbiter index").status
}

/// Opens the folder the way the server does; panics unless the build on disk is used and
/// holds every passage.
fn assert_serves_a_full_index(book: &Rulebook, out: &Path, after: &str) {
    let (index, why) = SearchIndex::open_or_build(book, Vocabulary::embedded(), Some(out))
        .unwrap_or_else(|e| panic!("after {after}: {e}"));
    assert_eq!(why, None, "after {after}: the index on disk was not used");
    assert_eq!(
        index.num_docs(),
        book.passages.len() as u64,
        "after {after}"
    );
    let hits = index.search(book, "castling", 3);
    assert!(!hits.is_empty(), "after {after}: a search found nothing");
}

fn entries(out: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_rebuild_killed_at_any_step_never_serves_an_empty_index() {
    let book = Rulebook::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    assert!(build(out, None).success());
    assert_serves_a_full_index(&book, out, "the first build");

    for step in STEPS {
        let status = build(out, Some(step));
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(status.signal(), Some(9), "{step}: the build was not killed");
        }
        #[cfg(not(unix))]
        assert!(!status.success());
        assert_serves_a_full_index(&book, out, step);
    }

    // A build that runs to the end clears what the killed ones left.
    assert!(build(out, None).success());
    assert_serves_a_full_index(&book, out, "a clean rebuild");
    let names = entries(out);
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.contains(&"CURRENT".to_string()), "{names:?}");
    assert!(names.contains(&".lock".to_string()), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("rulebook-")),
        "{names:?}"
    );
}

#[test]
fn a_damaged_build_is_not_served() {
    let book = Rulebook::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    assert!(build(out, None).success());
    // Someone deletes files of the build in use by hand.
    let current = std::fs::read_to_string(out.join("CURRENT")).unwrap();
    for entry in std::fs::read_dir(out.join(current.trim())).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "idx" || e == "store") {
            std::fs::remove_file(path).unwrap();
        }
    }
    // Whatever happens, a search never comes back empty: the index is built in memory.
    let (index, why) =
        SearchIndex::open_or_build(&book, Vocabulary::embedded(), Some(out)).unwrap();
    assert!(why.is_some(), "a damaged build was used");
    assert!(!index.search(&book, "castling", 3).is_empty());
}
