//! The deadline of the request running on this thread. Work that can run long (a batch of
//! identifiers, a chain search, a page of resources) asks [`passed`] between steps and stops
//! early, so that a call answered `timeout` gives its place on the blocking pool back instead
//! of running on. Whoever set the deadline learns that the work was cut and drops its partial
//! answer: a cut answer is never served as if it were whole.
//!
//! Per thread, like [`crate::index::damage`]: a request runs on one thread of the blocking
//! pool. Without a deadline (the command line) nothing is ever cut.

use std::cell::Cell;
use std::time::Instant;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static CUT: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` with a deadline and says whether it was cut short by it. A nested deadline
/// never extends an outer one.
pub fn within<T>(deadline: Instant, work: impl FnOnce() -> T) -> (T, bool) {
    let outer = DEADLINE.with(|d| d.get());
    let effective = outer.map_or(deadline, |o| o.min(deadline));
    DEADLINE.with(|d| d.set(Some(effective)));
    let outer_cut = CUT.with(|c| c.replace(false));
    let answer = work();
    let cut = CUT.with(|c| c.replace(outer_cut || c.get()));
    DEADLINE.with(|d| d.set(outer));
    (answer, cut)
}

/// The time left before the running request's deadline (zero once it has passed); `None`
/// without a deadline. Work with a timeout of its own (a SPARQL query) takes the lesser, so
/// that time spent waiting for a place counts against it.
pub fn remaining() -> Option<std::time::Duration> {
    DEADLINE
        .with(|d| d.get())
        .map(|deadline| deadline.saturating_duration_since(Instant::now()))
}

/// Whether the running request's deadline has passed; once it has, the request is marked
/// cut and the caller should stop and return whatever it has (it will be dropped).
pub fn passed() -> bool {
    let Some(deadline) = DEADLINE.with(|d| d.get()) else {
        return false;
    };
    let over = Instant::now() >= deadline;
    if over {
        CUT.with(|c| c.set(true));
    }
    over
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn nothing_is_cut_without_a_deadline() {
        assert!(!passed());
    }

    #[test]
    fn work_that_asks_after_its_deadline_is_marked_cut() {
        let past = Instant::now() - Duration::from_millis(1);
        let (asked, cut) = within(past, passed);
        assert!(asked);
        assert!(cut);
        assert!(!passed(), "the deadline ends with the work");
    }

    #[test]
    fn the_time_left_is_the_deadline_less_what_has_passed() {
        assert_eq!(remaining(), None, "no deadline, no limit");
        let later = Instant::now() + Duration::from_secs(60);
        let (left, _) = within(later, remaining);
        let left = left.expect("a deadline");
        assert!(left <= Duration::from_secs(60) && left > Duration::from_secs(59));
        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(within(past, remaining).0, Some(Duration::ZERO));
    }

    #[test]
    fn work_that_never_asks_or_asks_in_time_is_not_cut() {
        let later = Instant::now() + Duration::from_secs(60);
        let ((), cut) = within(later, || ());
        assert!(!cut);
        let (asked, cut) = within(later, passed);
        assert!(!asked);
        assert!(!cut);
    }

    #[test]
    fn an_inner_deadline_never_extends_the_outer_one_and_its_cut_is_seen_outside() {
        let past = Instant::now() - Duration::from_millis(1);
        let later = Instant::now() + Duration::from_secs(60);
        let ((inner_asked, inner_cut), outer_cut) = within(past, || within(later, passed));
        assert!(inner_asked, "the outer, earlier deadline holds inside");
        assert!(inner_cut);
        assert!(outer_cut);
    }
}
