//! Several releases of one source: which release answers (the current one unless a call pins
//! another), what a pin may look like (`MONDO:0000030@2025-02-04`, a `release` argument,
//! `mondo@2025-02-04` in a source filter, MeSH's `…/mesh/2024/D000001`), and which loaded
//! releases hold an identifier.

use crate::index::manifest::SourceRecord;
use crate::model::{Concept, ReleaseProblem, SourceIdx, check_release};

use super::{ConceptId, ResolveError, Resolver};

/// Which release of each source answers a call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View<'a> {
    /// Every source's current release.
    #[default]
    Current,
    /// This release of the sources that have it loaded; the current release of the others.
    Pinned(&'a str),
}

/// Why a pin or a source filter cannot be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PinError {
    /// `MONDO:0000030@` or `mondo@`: an `@` with no release after it.
    NothingAfterAt,
    /// The text after `@` (or the `release` argument) is no date or version.
    Invalid { problem: ReleaseProblem },
    /// The identifier names one release and the `release` argument another.
    Conflict { written: String, argument: String },
    /// No loaded release of the source has this name.
    NotLoaded {
        source: String,
        release: String,
        loaded: Vec<String>,
    },
    /// A source filter names a source that is not loaded.
    UnknownSource { source: String, loaded: Vec<String> },
}

impl std::error::Error for PinError {}

impl std::fmt::Display for PinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PinError::NothingAfterAt => write!(f, "'@' must be followed by a release"),
            PinError::Invalid { problem } => write!(f, "{problem}"),
            PinError::Conflict { written, argument } => write!(
                f,
                "the identifier pins release '{written}' and `release` says '{argument}'"
            ),
            PinError::NotLoaded {
                source,
                release,
                loaded,
            } => write!(
                f,
                "release '{release}' of {source} is not loaded; loaded releases: {}",
                loaded.join(", ")
            ),
            PinError::UnknownSource { source, loaded } => write!(
                f,
                "unknown source '{source}'; loaded sources: {}",
                loaded.join(", ")
            ),
        }
    }
}

/// How a loaded release holds an identifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldAs {
    Live,
    Obsolete,
    /// The release does not have the identifier (not yet, or no longer).
    Absent,
}

/// One loaded release of a source and how it holds an identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReleaseHolding {
    pub release: String,
    pub current: bool,
    pub held: HeldAs,
    pub concept: Option<ConceptId>,
}

/// Splits a pin off an identifier: `MONDO:0000030@2025-02-04` gives the identifier and the
/// release. Text whose part after the last `@` is no release (a mail address, say) is left
/// whole; an `@` with nothing after it is an error.
pub fn split_pin(text: &str) -> Result<(&str, Option<&str>), PinError> {
    let trimmed = text.trim();
    let Some((id, release)) = trimmed.rsplit_once('@') else {
        return Ok((trimmed, None));
    };
    if release.is_empty() {
        return Err(PinError::NothingAfterAt);
    }
    match check_release(release) {
        Ok(()) if !id.is_empty() => Ok((id, Some(release))),
        // A CURIE or IRI before the `@`: what follows was meant as a release.
        Err(problem) if id.contains(':') && !id.contains(char::is_whitespace) => {
            Err(PinError::Invalid { problem })
        }
        _ => Ok((trimmed, None)),
    }
}

/// A `release` argument: checked, and agreeing with a release the identifier pins.
pub fn pin_argument<'a>(
    written: Option<&'a str>,
    argument: Option<&'a str>,
) -> Result<Option<&'a str>, PinError> {
    if let Some(release) = argument {
        check_release(release).map_err(|problem| PinError::Invalid { problem })?;
    }
    match (written, argument) {
        (Some(w), Some(a)) if w != a => Err(PinError::Conflict {
            written: w.to_string(),
            argument: a.to_string(),
        }),
        (w, a) => Ok(w.or(a)),
    }
}

/// The loaded releases as a question sees them: which answer under a view, what a pin or
/// a source filter names, which releases hold a concept.
pub struct Releases<'r> {
    r: &'r Resolver,
}

impl<'r> Releases<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        Releases { r }
    }
}

impl<'r> Releases<'r> {
    /// Whether concepts of source release `source` answer under `view`.
    pub fn visible(&self, source: SourceIdx, view: View<'_>) -> bool {
        let sources = &self.r.manifest().sources;
        let Some(record) = sources.get(source.slot()) else {
            return false;
        };
        match view {
            View::Current => record.current,
            View::Pinned(release) => {
                if self.r.manifest().release(&record.id, release).is_some() {
                    record.release == release
                } else {
                    record.current
                }
            }
        }
    }

    /// An IRI of a year-versioned namespace (`http://id.nlm.nih.gov/mesh/2024/D000001`) as the
    /// unversioned IRI and the year it pins; `None` for any other text.
    pub fn versioned_iri<'t>(&self, text: &'t str) -> Option<(String, &'t str)> {
        let text = text.trim();
        self.r.manifest().prefixes.iter().find_map(|rule| {
            let rest = text.strip_prefix(rule.uri_prefix.as_str())?;
            let (year, local) = rest.split_once('/')?;
            let is_year = year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit());
            (is_year && !local.is_empty() && !local.contains('/'))
                .then(|| (format!("{}{local}", rule.uri_prefix), year))
        })
    }

    /// Checks that `release` is loaded for a source declaring `prefix` (canonical spelling);
    /// the error names the loaded releases. A prefix no loaded source declares passes (the
    /// identifier's own outcome says so).
    pub fn check_pin(&self, prefix: &str, release: &str) -> Result<(), PinError> {
        let Some(hit) = self.r.registry().spelling(prefix) else {
            return Ok(());
        };
        let Some(record) = self.r.registry().record(hit.record) else {
            return Ok(());
        };
        let mut loaded: Vec<String> = Vec::new();
        let mut source = None;
        for s in &record.sources {
            for r in self.r.manifest().releases(s) {
                if r.release == release {
                    return Ok(());
                }
                source.get_or_insert_with(|| s.clone());
                loaded.push(r.release.clone());
            }
        }
        match source {
            None => Ok(()),
            Some(source) => Err(PinError::NotLoaded {
                source,
                release: release.to_string(),
                loaded,
            }),
        }
    }

    /// Checks a source filter (`mondo`, `mondo@2025-02-04`): every entry names a loaded source
    /// and, where it pins one, a loaded release.
    pub fn check_sources(&self, entries: &[String]) -> Result<(), PinError> {
        let manifest = self.r.manifest();
        for entry in entries {
            let (id, release) = match entry.split_once('@') {
                Some((id, release)) => (id, Some(release)),
                None => (entry.as_str(), None),
            };
            if manifest.source(id).is_none() {
                return Err(PinError::UnknownSource {
                    source: entry.clone(),
                    loaded: manifest.source_ids(),
                });
            }
            match release {
                Some("") => return Err(PinError::NothingAfterAt),
                Some(release) => {
                    check_release(release).map_err(|problem| PinError::Invalid { problem })?;
                    if manifest.release(id, release).is_none() {
                        return Err(PinError::NotLoaded {
                            source: id.to_string(),
                            release: release.to_string(),
                            loaded: manifest.releases(id).map(|r| r.release.clone()).collect(),
                        });
                    }
                }
                None => {}
            }
        }
        Ok(())
    }

    /// The full-text keys of the source releases a filter selects (every current release when
    /// `None`), or `None` when the filter selects everything the full-text index holds.
    pub fn text_keys(&self, entries: Option<&[String]>) -> Option<Vec<String>> {
        let sources = &self.r.manifest().sources;
        let selected: Vec<&SourceRecord> = sources
            .iter()
            .filter(|s| match entries {
                None => s.current,
                Some(list) => list.iter().any(|e| s.selected_by(e)),
            })
            .collect();
        (selected.len() < sources.len()).then(|| selected.iter().map(|s| s.key()).collect())
    }

    /// Every loaded release of `concept`'s source and how it holds the concept's IRI; empty
    /// when the source has one release loaded.
    pub fn releases_holding(&self, concept: &Concept) -> Result<Vec<ReleaseHolding>, ResolveError> {
        let Some(own) = self.r.source_of(concept) else {
            return Ok(Vec::new());
        };
        let manifest = self.r.manifest();
        if manifest.releases(&own.id).count() < 2 {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for (idx, s) in manifest.sources.iter().enumerate() {
            let Ok(idx) = SourceIdx::try_from(idx) else {
                continue;
            };
            if s.id != own.id {
                continue;
            }
            let found = self.r.lexicon().by_iri(&concept.iri, idx)?;
            out.push(ReleaseHolding {
                release: s.release.clone(),
                current: s.current,
                held: match &found {
                    None => HeldAs::Absent,
                    Some((_, c)) if c.obsolete => HeldAs::Obsolete,
                    Some(_) => HeldAs::Live,
                },
                concept: found.map(|(id, _)| id),
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_is_split_off_only_when_it_reads_as_a_release() {
        assert_eq!(
            split_pin("MONDO:0000030@2025-02-04"),
            Ok(("MONDO:0000030", Some("2025-02-04")))
        );
        assert_eq!(split_pin("HP:0000118"), Ok(("HP:0000118", None)));
        assert_eq!(split_pin("MONDO:0000030@"), Err(PinError::NothingAfterAt));
        assert_eq!(split_pin("a@b c"), Ok(("a@b c", None)));
        assert!(matches!(
            split_pin("MONDO:0000030@a\u{7}b"),
            Err(PinError::Invalid { .. })
        ));
    }

    #[test]
    fn pin_and_diff_errors_travel_as_errors_with_their_message() {
        let pin: Box<dyn std::error::Error> = Box::new(PinError::NothingAfterAt);
        assert_eq!(pin.to_string(), "'@' must be followed by a release");
        let diff: Box<dyn std::error::Error> =
            Box::new(crate::resolve::diff::DiffError::SameRelease {
                release: "2025".into(),
            });
        assert!(diff.to_string().contains("name two releases"));
    }

    #[test]
    fn a_release_argument_must_agree_with_the_identifiers_pin() {
        assert_eq!(pin_argument(Some("2025"), None), Ok(Some("2025")));
        assert_eq!(pin_argument(None, Some("2025")), Ok(Some("2025")));
        assert!(matches!(
            pin_argument(Some("2025"), Some("2024")),
            Err(PinError::Conflict { .. })
        ));
        assert!(matches!(
            pin_argument(None, Some("x\u{1}")),
            Err(PinError::Invalid { .. })
        ));
    }
}
