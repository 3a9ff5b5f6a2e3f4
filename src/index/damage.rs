//! Damage noticed while answering one request. Some reads return `Option` (a concept by id
//! inside a summary, a posting list, a full-text hit's id) because their callers cannot carry
//! an error; they report damage here as well as logging the file. Whoever runs a request
//! watches it with [`watched`], so a damaged read never passes for "not found" on any path.
//!
//! Per thread: a request runs on one thread of the blocking pool, and the index does no
//! parallel work at query time.

use std::cell::Cell;

thread_local! {
    static SEEN: Cell<bool> = const { Cell::new(false) };
}

/// Logs damage (naming the file, never the request) and marks the running request.
pub fn report(error: &dyn std::fmt::Display) {
    tracing::error!("index damaged: {error}");
    SEEN.with(|seen| seen.set(true));
}

/// Runs `work` and says whether it read damaged data. Nested watches see their own damage;
/// the outer one sees it too.
pub fn watched<T>(work: impl FnOnce() -> T) -> (T, bool) {
    let outer = SEEN.with(|seen| seen.replace(false));
    let answer = work();
    let damaged = SEEN.with(|seen| seen.replace(outer || seen.get()));
    (answer, damaged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_is_seen_by_the_watch_it_happened_in_and_by_outer_ones() {
        let ((inner, inner_damaged), outer_damaged) = watched(|| {
            let (_, clean) = watched(|| ());
            assert!(!clean);
            watched(|| report(&"concepts.dat: record 3 cannot be decoded"))
        });
        assert_eq!(inner, ());
        assert!(inner_damaged);
        assert!(outer_damaged);
        let (_, later) = watched(|| ());
        assert!(!later, "a new watch starts clean");
    }
}
