//! The index folder on disk, and how a rebuild replaces what is in it without ever touching
//! the copy in use.
//!
//! ```text
//! index/
//!   CURRENT                       the name of the build in use (replaced by a rename)
//!   rulebook-<hash>-v<schema>-<n>/ one complete build per directory, never written again
//!   .lock                          held (flock) by the one build running
//!   .staging-<n>/                  a build being written
//! ```
//!
//! A build writes a fresh `.staging-…` directory, renames it to a new `rulebook-…` name, points
//! `CURRENT` at it by writing `.CURRENT.tmp` and renaming it over `CURRENT`, and only then
//! deletes the other builds. Killed at any step, it leaves `CURRENT` naming a complete build
//! (the old or the new one); the next build clears what was left behind.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The file naming the build in use.
pub const POINTER: &str = "CURRENT";
const POINTER_TMP: &str = ".CURRENT.tmp";
const STAGING_PREFIX: &str = ".staging-";
const TRASH_PREFIX: &str = ".trash-";
const BUILD_PREFIX: &str = "rulebook-";
/// Staging folders of builds before this layout (`.rulebook-….tmp-<pid>`).
const OLD_STAGING_MARK: &str = ".tmp-";

/// Test hook: `ARBITER_TEST_KILL_AT=<step>` makes the build kill itself with SIGKILL at that
/// step, the way `kill -9` would (see tests/index_swap.rs). The steps, in order, are
/// [`STEPS`].
pub const KILL_AT_ENV: &str = "ARBITER_TEST_KILL_AT";

/// The points of a build where the kill test stops it.
pub const STEPS: &[&str] = &[
    "locked",
    "staging-created",
    "index-written",
    "stamp-written",
    "build-renamed",
    "pointer-written",
    "pointer-swapped",
    "old-moved-to-trash",
    "done",
];

/// Stops the process here if the kill test asks for this step.
pub fn step(name: &str) {
    debug_assert!(STEPS.contains(&name), "unknown step {name}");
    if std::env::var(KILL_AT_ENV).is_ok_and(|s| s == name) {
        #[cfg(unix)]
        // SAFETY: sending a signal to ourselves.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
        std::process::abort();
    }
}

/// The build lock: one build at a time writes into a folder. Released when dropped, or by
/// the system when the process dies.
pub struct BuildLock {
    _file: File,
}

/// Takes the folder's build lock, waiting for a build in progress to finish.
pub fn lock(out: &Path) -> std::io::Result<BuildLock> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(out.join(".lock"))?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor we own; it stays open as long as the lock.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(BuildLock { _file: file })
}

/// A new, unused name for a build of this stamp.
pub fn build_name(hash_prefix: &str, schema: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{BUILD_PREFIX}{hash_prefix}-v{schema}-{nanos:x}{:x}",
        std::process::id()
    )
}

/// A fresh staging directory for `name`.
pub fn staging_dir(out: &Path, name: &str) -> PathBuf {
    out.join(format!("{STAGING_PREFIX}{name}"))
}

/// The build `CURRENT` names, if any.
pub fn current(out: &Path) -> Option<String> {
    let name = std::fs::read_to_string(out.join(POINTER)).ok()?;
    let name = name.trim();
    (!name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != "..")
        .then(|| name.to_string())
}

/// Removes what killed builds left: staging and trash folders, a half-written pointer, and
/// builds that `CURRENT` does not name. Call with the lock held (so no other build is
/// writing). Failures are reported, not fatal: the build can go on.
pub fn clear_leftovers(out: &Path) -> Vec<String> {
    let mut removed = Vec::new();
    let in_use = current(out);
    let Ok(entries) = std::fs::read_dir(out) else {
        return removed;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let left_over = name.starts_with(STAGING_PREFIX)
            || name.starts_with(TRASH_PREFIX)
            || name == POINTER_TMP
            || (name.starts_with(".rulebook-") && name.contains(OLD_STAGING_MARK))
            || (name.starts_with(BUILD_PREFIX) && in_use.as_deref() != Some(name.as_str()));
        if !left_over {
            continue;
        }
        let path = entry.path();
        let result = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        match result {
            Ok(()) => removed.push(name),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot remove a left-over")
            }
        }
    }
    removed
}

/// Makes `staging` the build in use under `name`: renames it, then swaps the pointer.
/// Returns the build's path.
pub fn publish(out: &Path, staging: &Path, name: &str) -> std::io::Result<PathBuf> {
    sync_dir(staging)?;
    let target = out.join(name);
    std::fs::rename(staging, &target)?;
    step("build-renamed");
    let tmp = out.join(POINTER_TMP);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(name.as_bytes())?;
        f.sync_all()?;
    }
    step("pointer-written");
    std::fs::rename(&tmp, out.join(POINTER))?;
    sync_dir(out)?;
    step("pointer-swapped");
    Ok(target)
}

/// Deletes every build but `keep`: first moved aside (a rename, so nothing half-deleted ever
/// has a build's name), then removed.
pub fn remove_old_builds(out: &Path, keep: &str) -> std::io::Result<()> {
    let mut trash = Vec::new();
    for entry in std::fs::read_dir(out)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(BUILD_PREFIX) && name != keep {
            let aside = out.join(format!("{TRASH_PREFIX}{name}"));
            std::fs::rename(entry.path(), &aside)?;
            trash.push(aside);
        }
    }
    step("old-moved-to-trash");
    for path in trash {
        if let Err(e) = std::fs::remove_dir_all(&path) {
            tracing::warn!(path = %path.display(), error = %e, "cannot remove an old build");
        }
    }
    Ok(())
}

/// Flushes a directory's entries (the renames in it) to disk.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftovers_are_cleared_and_the_build_in_use_kept() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        for d in [
            "rulebook-aaaa-v2-1",
            "rulebook-aaaa-v2-2",
            ".staging-rulebook-aaaa-v2-3",
            ".trash-rulebook-aaaa-v2-0",
            ".rulebook-aaaa-v2.tmp-123",
        ] {
            std::fs::create_dir(out.join(d)).unwrap();
            std::fs::write(out.join(d).join("meta.json"), "{}").unwrap();
        }
        std::fs::write(out.join(POINTER), "rulebook-aaaa-v2-2\n").unwrap();
        std::fs::write(out.join(POINTER_TMP), "rulebook-aaaa-v2-3").unwrap();
        let mut removed = clear_leftovers(out);
        removed.sort();
        assert_eq!(
            removed,
            [
                ".CURRENT.tmp",
                ".rulebook-aaaa-v2.tmp-123",
                ".staging-rulebook-aaaa-v2-3",
                ".trash-rulebook-aaaa-v2-0",
                "rulebook-aaaa-v2-1",
            ]
        );
        assert!(out.join("rulebook-aaaa-v2-2/meta.json").exists());
        assert_eq!(current(out).as_deref(), Some("rulebook-aaaa-v2-2"));
    }

    #[test]
    fn a_pointer_outside_the_folder_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(POINTER), "../elsewhere").unwrap();
        assert_eq!(current(dir.path()), None);
    }
}
