//! The prefix registry: every namespace of identifiers the index knows, from the Bioregistry
//! plus the prefixes the catalogue declares. It is data in the index (FSTs and a record
//! table), so a newer Bioregistry release is a rebuild, not a code change.
//!
//! Reading it never scans the list of prefixes: a spelling is one FST lookup, and an IRI's
//! namespace is one walk of the URI FST along the IRI (longest URI prefix wins).

mod bioregistry;
mod normalize;
mod reading;
mod resource;

pub use bioregistry::{RegistryData, RegistryError, load_bioregistry};
pub use normalize::{percent_decode, unwrapped};
pub use reading::{Identified, Normalization, PatternCheck, Reading, Step};
pub use resource::{Download, ListedAs, Resource, read_resource};

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

use crate::index::BuildLayout;
use crate::index::header::FileError;
use crate::index::registry::{RegistryFiles, SPELLING_BANANA, SPELLING_DEPRECATED, URI_TWIN};
use crate::model::{PrefixRecord, Prefixes};

/// Dense id of a prefix record in one build: its row in the registry's record table. A
/// distinct type, so that a concept or source number is never taken for one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RecordId(pub u32);

/// Longer patterns are not compiled: registry patterns are short, and this bounds the work.
const MAX_PATTERN_BYTES: usize = 2_048;

/// Prefix spellings are shorter than this (the longest in Bioregistry 0.15.6 has 45 bytes);
/// `PREFIX_local` is only split at underscores before it, which keeps reading linear.
pub const MAX_PREFIX_BYTES: usize = 128;

/// A URI prefix matched at the start of an IRI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UriMatch {
    pub record: RecordId,
    /// Length in bytes of the matched prefix.
    pub len: usize,
    /// The key is the other-scheme twin of the URI prefix the registry writes.
    pub twin: bool,
}

/// A spelling of a prefix as found in the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpellingHit {
    pub record: RecordId,
    /// The registry deprecates this spelling (the record itself may be current).
    pub deprecated: bool,
    /// The spelling is only the record's banana.
    pub banana: bool,
}

/// A record, with its pattern compiled on first use.
struct Entry {
    record: PrefixRecord,
    /// `record.preferred`, shared by every normalization that names it.
    preferred: std::sync::Arc<str>,
    pattern: OnceLock<Result<Option<Regex>, ()>>,
}

impl Entry {
    fn pattern(&self) -> &Result<Option<Regex>, ()> {
        self.pattern
            .get_or_init(|| match self.record.pattern.as_deref() {
                None => Ok(None),
                Some(p) if p.len() > MAX_PATTERN_BYTES => Err(()),
                Some(p) => regex::RegexBuilder::new(&format!("^(?:{})$", ascii_classes(p)))
                    .size_limit(1 << 20)
                    .build()
                    .map(Some)
                    .map_err(|_| ()),
            })
    }
}

/// The registry, checked whole when it opens (every posting list whole and naming a record,
/// one per key; every record parsing), so damage in it is an error then, never a prefix
/// missing later. Records are decoded on first use: a record that parsed at open and does not
/// decode would need a build of another format, which the open refuses.
pub struct Registry {
    files: RegistryFiles,
    entries: Vec<OnceLock<Option<Entry>>>,
}

impl Registry {
    pub fn open(layout: &BuildLayout) -> Result<Registry, FileError> {
        let files = RegistryFiles::open(layout)?;
        let records = files.records.len();
        files.spellings.verify_postings(records)?;
        files.uris.verify_postings(records)?;
        for id in 0..records {
            files.records.get_part::<serde::de::IgnoredAny>(id)?;
        }
        let entries = (0..records).map(|_| OnceLock::new()).collect();
        Ok(Registry { files, entries })
    }

    /// How many prefix records the registry holds.
    pub fn len(&self) -> u32 {
        self.files.records.len()
    }

    /// Every record id, in table order.
    pub fn record_ids(&self) -> impl Iterator<Item = RecordId> + use<> {
        (0..self.len()).map(RecordId)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn entry(&self, id: RecordId) -> Option<&Entry> {
        self.entries
            .get(id.0 as usize)?
            .get_or_init(|| {
                let record: PrefixRecord = self.files.records.get(id.0).ok()?;
                Some(Entry {
                    preferred: record.preferred.as_str().into(),
                    record,
                    pattern: OnceLock::new(),
                })
            })
            .as_ref()
    }

    pub fn record(&self, id: RecordId) -> Option<&PrefixRecord> {
        self.entry(id).map(|e| &e.record)
    }

    /// A record's preferred prefix, shared rather than copied.
    pub fn preferred(&self, id: RecordId) -> Option<std::sync::Arc<str>> {
        self.entry(id).map(|e| e.preferred.clone())
    }

    /// The record a prefix spelling belongs to, matched without regard to case.
    pub fn spelling(&self, written: &str) -> Option<SpellingHit> {
        if written.is_empty() {
            return None;
        }
        // Keys are lower case. Short ASCII spellings are folded on the stack.
        let mut buf = [0u8; 64];
        let posting = if !written.bytes().any(|b| b.is_ascii_uppercase()) && written.is_ascii() {
            verified(self.files.spellings.get_first(written))?
        } else if written.is_ascii() && written.len() <= buf.len() {
            let folded = &mut buf[..written.len()];
            folded.copy_from_slice(written.as_bytes());
            folded.make_ascii_lowercase();
            verified(
                self.files
                    .spellings
                    .get_first(std::str::from_utf8(folded).ok()?),
            )?
        } else {
            verified(self.files.spellings.get_first(&written.to_lowercase()))?
        };
        Some(SpellingHit {
            record: RecordId(posting.concept),
            deprecated: posting.detail & SPELLING_DEPRECATED != 0,
            banana: posting.detail & SPELLING_BANANA != 0,
        })
    }

    /// The record whose URI prefix is the longest prefix of `iri`. Keys have their scheme and
    /// host in lower case: pass the IRI through [`fold_scheme_and_host`] first.
    pub fn uri_prefix_of(&self, iri: &str) -> Option<UriMatch> {
        let (len, posting) = verified(self.files.uris.longest_prefix_of(iri))?;
        Some(UriMatch {
            record: RecordId(posting.concept),
            len,
            twin: posting.detail & URI_TWIN != 0,
        })
    }

    /// Whether `local` fits the record's pattern.
    pub fn check_pattern(&self, id: RecordId, local: &str) -> PatternCheck {
        match self.entry(id).map(Entry::pattern) {
            Some(Ok(Some(regex))) if regex.is_match(local) => PatternCheck::Fits,
            Some(Ok(Some(_))) => PatternCheck::Fails,
            Some(Ok(None)) | None => PatternCheck::NoPattern,
            Some(Err(())) => PatternCheck::Unusable,
        }
    }

    /// Records whose spellings are within one or two edits of `written` (one for prefixes of
    /// three characters or fewer), closest first, at most `limit`.
    pub fn suggest(&self, written: &str, limit: usize) -> Vec<RecordId> {
        let key = written.to_lowercase();
        let distance = if key.chars().count() <= 3 { 1 } else { 2 };
        let mut out: Vec<RecordId> = Vec::new();
        for hit in verified(self.files.spellings.fuzzy(&key, distance, 64)) {
            for p in hit.postings {
                if out.len() < limit && !out.contains(&RecordId(p.concept)) {
                    out.push(RecordId(p.concept));
                }
            }
        }
        out
    }

    /// Spellings starting with `prefix` (lower-cased), for completion: their records' ids.
    pub fn complete(&self, prefix: &str, limit: usize) -> Vec<RecordId> {
        let mut out: Vec<RecordId> = Vec::new();
        let spellings = self
            .files
            .spellings
            .prefixed(&prefix.to_lowercase(), limit * 4);
        for (_, postings) in verified(spellings) {
            for p in postings {
                if out.len() < limit && !out.contains(&RecordId(p.concept)) {
                    out.push(RecordId(p.concept));
                }
            }
        }
        out
    }
}

/// A registry lexicon read: every posting list was checked whole when the registry opened
/// ([`Registry::open`]), and a build never rewrites a mapped file in place, so none fails now.
fn verified<T: Default>(read: Result<T, FileError>) -> T {
    read.unwrap_or_default()
}

/// A CURIE's written prefix and local id, when it is one that expansion reads (not an IRI's
/// `scheme://`, not an empty local id).
pub fn expandable_curie(curie: &str) -> Option<(&str, &str)> {
    let (written, local) = curie.split_once(':')?;
    (!local.is_empty() && !local.starts_with("//")).then_some((written, local))
}

impl Prefixes for Registry {
    fn expand(&self, curie: &str) -> Option<String> {
        let (written, local) = expandable_curie(curie)?;
        let record = self.record(self.spelling(written)?.record)?;
        Some(format!("{}{local}", record.expansion_base()?))
    }

    /// The canonical CURIE normalization gives the IRI, so that ingest and queries agree.
    fn compress(&self, iri: &str) -> Option<String> {
        match self.normalize(iri).reading {
            Reading::Identifier(id) if !id.local.is_empty() => Some(id.curie),
            _ => None,
        }
    }
}

/// The IRI with its scheme and host in lower case (they are case-insensitive; the rest is
/// not). Borrows when nothing changes.
pub fn fold_scheme_and_host(iri: &str) -> Cow<'_, str> {
    let Some((scheme, rest)) = iri.split_once("://") else {
        return Cow::Borrowed(iri);
    };
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..host_end];
    if !scheme.bytes().any(|b| b.is_ascii_uppercase())
        && !host.bytes().any(|b| b.is_ascii_uppercase())
    {
        return Cow::Borrowed(iri);
    }
    Cow::Owned(format!(
        "{}://{}{}",
        scheme.to_ascii_lowercase(),
        host.to_ascii_lowercase(),
        &rest[host_end..]
    ))
}

/// The same IRI under the other of http and https; `None` for any other scheme.
pub fn other_scheme(iri: &str) -> Option<String> {
    if let Some(rest) = iri.strip_prefix("http://") {
        Some(format!("https://{rest}"))
    } else {
        iri.strip_prefix("https://")
            .map(|rest| format!("http://{rest}"))
    }
}

/// A registry pattern with `\d`, `\w` and their negations made ASCII-only: local ids are
/// ASCII, and Unicode classes would accept Arabic-Indic digits as `\d` (and make some patterns
/// too large to compile). Nested classes keep this valid inside `[...]` too.
fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_become_ascii_only() {
        assert_eq!(ascii_classes(r"^\d{7}$"), "^[0-9]{7}$");
        assert_eq!(ascii_classes(r"^[\w.-]+\\d$"), r"^[[0-9A-Za-z_].-]+\\d$");
        let re = regex::Regex::new(&ascii_classes(r"^\d{7}$")).expect("compiles");
        assert!(re.is_match("0000118"));
        assert!(!re.is_match("٠٠٠٠١١٨"));
    }

    #[test]
    fn scheme_and_host_fold_but_paths_do_not() {
        assert_eq!(
            fold_scheme_and_host("HTTP://CRAN.R-project.org/package=X"),
            "http://cran.r-project.org/package=X"
        );
        assert!(matches!(
            fold_scheme_and_host("http://a.org/B"),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            other_scheme("https://a.org/").as_deref(),
            Some("http://a.org/")
        );
        assert_eq!(other_scheme("ftp://a.org/"), None);
    }
}
