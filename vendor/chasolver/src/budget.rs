//! A stop condition for one query: a node count, a deadline, a flag set from another thread,
//! or any of them.
//!
//! Added to the published 3.0.0 for Rules Arbiter (see VENDORED.md): without it a hard
//! position runs for seconds and nothing can stop it. The searches ask [`should_stop`] at
//! every node; once it says yes it keeps saying yes, and every search unwinds with its
//! "inconclusive" value (`None`, `false`, `interrupted`), never with a verdict it did not
//! prove. The condition is thread-local, so a query only ever sees its own limits.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// When a query must give up.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Give up once this instant has passed.
    pub deadline: Option<Instant>,
    /// Give up once this flag is set (from any thread).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Give up after this many nodes (calls of [`should_stop`]): unlike a deadline, the same
    /// query stops at the same point on any machine under any load.
    pub nodes: Option<u64>,
}

struct Active {
    limits: Limits,
    /// Nodes since the clock was last read.
    ticks: u32,
    /// Nodes so far.
    nodes: u64,
    stopped: bool,
}

thread_local! {
    static ACTIVE: RefCell<Option<Active>> = const { RefCell::new(None) };
}

/// Reading the clock costs about as much as generating a node's moves; read it every
/// `CLOCK_EVERY` nodes (a few microseconds of work).
const CLOCK_EVERY: u32 = 32;

/// Runs `f` under `limits`; returns its value and whether the limits stopped it.
pub(crate) fn run<T>(limits: &Limits, f: impl FnOnce() -> T) -> (T, bool) {
    let active = Active {
        limits: limits.clone(),
        ticks: 0,
        nodes: 0,
        stopped: false,
    };
    // Puts the caller's condition back on the way out, even if `f` panics (a caller may
    // catch the panic and go on).
    struct Restore(Option<Active>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            ACTIVE.with(|a| *a.borrow_mut() = previous);
        }
    }
    let _restore = Restore(ACTIVE.with(|a| a.replace(Some(active))));
    let value = f();
    let stopped = ACTIVE.with(|a| a.borrow().as_ref().is_some_and(|a| a.stopped));
    (value, stopped)
}

/// Whether the current query must give up now. Sticky: once true, true until the query ends.
pub(crate) fn should_stop() -> bool {
    ACTIVE.with(|a| {
        let mut guard = a.borrow_mut();
        let Some(active) = guard.as_mut() else {
            return false;
        };
        if active.stopped {
            return true;
        }
        if active
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            active.stopped = true;
            return true;
        }
        active.nodes += 1;
        if active.limits.nodes.is_some_and(|n| active.nodes > n) {
            active.stopped = true;
            return true;
        }
        if let Some(deadline) = active.limits.deadline {
            active.ticks += 1;
            if active.ticks >= CLOCK_EVERY {
                active.ticks = 0;
                if Instant::now() >= deadline {
                    active.stopped = true;
                }
            }
        }
        active.stopped
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn no_limits_never_stop() {
        assert!(!should_stop());
        let (_, stopped) = run(&Limits::default(), || (0..1000).any(|_| should_stop()));
        assert!(!stopped);
    }

    #[test]
    fn a_past_deadline_stops_within_a_few_nodes_and_stays_stopped() {
        let limits = Limits {
            deadline: Some(Instant::now() - Duration::from_millis(1)),
            cancel: None,
            nodes: None,
        };
        let (first, stopped) = run(&limits, || {
            let first = (0..1000).position(|_| should_stop());
            assert!(should_stop());
            first
        });
        assert!(stopped);
        assert!(first.is_some_and(|n| n < CLOCK_EVERY as usize));
        assert!(!should_stop(), "the limits end with the query");
    }

    #[test]
    fn a_node_limit_stops_at_that_node() {
        let limits = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        let (first, stopped) = run(&limits, || (0..1000).position(|_| should_stop()));
        assert!(stopped);
        assert_eq!(first, Some(100));
    }

    #[test]
    fn a_set_flag_stops_at_once() {
        let flag = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            deadline: None,
            cancel: Some(flag),
            nodes: None,
        };
        let (first, stopped) = run(&limits, should_stop);
        assert!(first && stopped);
    }
}
