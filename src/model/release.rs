//! Release names: what a catalogue entry, a pinned identifier (`MONDO:0000030@2025-02-04`) or
//! a source filter (`mondo@2025-02-04`) may call a release, and which of two releases is the
//! newer.

use std::cmp::Ordering;

/// Releases are dates or versions; anything longer is not one.
pub const MAX_RELEASE_CHARS: usize = 64;

/// Why a string cannot name a release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReleaseProblem {
    Empty,
    TooLong {
        chars: usize,
    },
    /// A character other than a letter, digit, `.`, `-`, `_` or `+`.
    BadCharacter,
}

impl std::fmt::Display for ReleaseProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReleaseProblem::Empty => write!(f, "the release is empty"),
            ReleaseProblem::TooLong { chars } => write!(
                f,
                "a release has at most {MAX_RELEASE_CHARS} characters, this one {chars}"
            ),
            ReleaseProblem::BadCharacter => write!(
                f,
                "a release is a date or version: letters, digits, '.', '-', '_' or '+'"
            ),
        }
    }
}

/// Whether `release` can name a release (a date such as `2025-02-04`, or a version).
pub fn check_release(release: &str) -> Result<(), ReleaseProblem> {
    let chars = release.chars().count();
    if chars == 0 {
        return Err(ReleaseProblem::Empty);
    }
    if chars > MAX_RELEASE_CHARS {
        return Err(ReleaseProblem::TooLong { chars });
    }
    if !release
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '+'))
    {
        return Err(ReleaseProblem::BadCharacter);
    }
    Ok(())
}

/// A release as a date (`2024`, `2024-07`, `2024-07-05`, with an optional leading `v`):
/// year, month and day, zero where not given.
fn as_date(release: &str) -> Option<(u32, u32, u32)> {
    let text = release.strip_prefix('v').unwrap_or(release);
    let mut parts = text.split('-');
    let year = parts.next().filter(|y| y.len() == 4)?.parse().ok()?;
    let mut next = |len: usize| -> Option<u32> {
        match parts.next() {
            None => Some(0),
            Some(p) if p.len() == len => p.parse().ok(),
            Some(_) => None,
        }
    };
    let (month, day) = (next(2)?, next(2)?);
    (parts.next().is_none()).then_some((year, month, day))
}

/// How `a` compares with `b` by date, when both are dates; `None` otherwise (then catalogue
/// order decides).
pub fn compare_releases(a: &str, b: &str) -> Option<Ordering> {
    Some(as_date(a)?.cmp(&as_date(b)?))
}

/// The newest of several releases, by date where every one is a date, else the last.
pub fn newest(releases: &[&str]) -> Option<usize> {
    let dates = releases.iter().all(|r| as_date(r).is_some());
    if !dates {
        return releases.len().checked_sub(1);
    }
    (0..releases.len())
        .rev()
        .max_by(|&i, &j| compare_releases(releases[i], releases[j]).unwrap_or(Ordering::Equal))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_versions_are_releases_and_control_characters_are_not() {
        assert!(check_release("2025-02-04").is_ok());
        assert!(check_release("v1.61").is_ok());
        assert_eq!(check_release(""), Err(ReleaseProblem::Empty));
        assert_eq!(check_release("a\u{7}b"), Err(ReleaseProblem::BadCharacter));
        assert_eq!(
            check_release(&"9".repeat(200)),
            Err(ReleaseProblem::TooLong { chars: 200 })
        );
    }

    #[test]
    fn the_newest_release_is_the_latest_date_else_the_last_listed() {
        assert_eq!(newest(&["2026-05-05", "2025-02-04"]), Some(0));
        assert_eq!(newest(&["2018-07-05", "2024-01-31"]), Some(1));
        assert_eq!(newest(&["2024", "2023"]), Some(0));
        assert_eq!(newest(&["v1.61", "v1.5"]), Some(1));
        assert_eq!(newest(&[]), None);
    }
}
