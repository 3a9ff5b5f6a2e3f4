//! A concept lexicon kept as one segment per source release, read as one lexicon.
//!
//! A segment's postings count concepts from its release's first, so a release's segment is
//! the same bytes wherever the release sits in the catalogue: a build that reuses a release
//! takes its segments as they are, and only a release read anew has its keys written. The
//! reader adds each release's first concept id back; segments are in concept order, so a
//! key's postings stay in id order across segments.

use std::collections::BTreeMap;
use std::path::Path;

use fst::{Automaton, IntoStreamer, Streamer};

use super::{FuzzyHit, KeyWalk, Lexicon, MAX_FUZZY_KEY_BYTES, Posting, near};
use crate::index::counts::LexiconCounts;
use crate::index::header::{FileError, FileProblem};

/// The concept lexicons a build writes per release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexiconKind {
    /// Every identifier spelling, lower-cased.
    Ids,
    /// Every label and synonym, normalized.
    Labels,
    /// Name-variant keys (only with name rules).
    Variants,
}

impl LexiconKind {
    /// The start of its segment files' names.
    pub fn name(self) -> &'static str {
        match self {
            LexiconKind::Ids => "ids",
            LexiconKind::Labels => "labels",
            LexiconKind::Variants => "variants",
        }
    }
}

/// One release's place among the build's concepts: where its segment's postings count from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReleaseSpan {
    pub first: u32,
    pub count: u32,
}

struct Segment {
    lexicon: Lexicon,
    span: ReleaseSpan,
}

impl Segment {
    /// The build-wide posting of a segment posting; one beyond the release's concepts is
    /// damage naming the postings file.
    fn rebase(&self, p: Posting) -> Result<Posting, FileError> {
        if p.concept >= self.span.count {
            return Err(FileError::new(
                &self.lexicon.postings_path,
                FileProblem::Inconsistent(format!(
                    "a posting names concept {} of a release of {}",
                    p.concept, self.span.count
                )),
            ));
        }
        Ok(Posting {
            concept: self.span.first + p.concept,
            detail: p.detail,
        })
    }

    /// Appends a segment's postings to `out`, rebased.
    fn rebase_into(&self, postings: Vec<Posting>, out: &mut Vec<Posting>) -> Result<(), FileError> {
        out.reserve(postings.len());
        for p in postings {
            out.push(self.rebase(p)?);
        }
        Ok(())
    }
}

/// A concept lexicon over every release's segment.
pub struct SegmentedLexicon {
    segments: Vec<Segment>,
}

/// A point part-way along the keys of every segment that still has a key continuing so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentWalk {
    live: Vec<(usize, KeyWalk)>,
    started: bool,
}

impl SegmentWalk {
    /// Whether any byte was walked.
    pub fn started(&self) -> bool {
        self.started
    }
}

impl SegmentedLexicon {
    /// Opens one segment per release, each given as its files and span, in concept order.
    pub fn open<'p>(
        segments: impl IntoIterator<Item = ((&'p Path, &'p Path), ReleaseSpan)>,
    ) -> Result<SegmentedLexicon, FileError> {
        let segments = segments
            .into_iter()
            .map(|((fst, postings), span)| {
                Ok(Segment {
                    lexicon: Lexicon::open(fst, postings)?,
                    span,
                })
            })
            .collect::<Result<Vec<_>, FileError>>()?;
        Ok(SegmentedLexicon { segments })
    }

    /// Keys over all segments (a key in several releases counts once per release).
    pub fn counts(&self) -> LexiconCounts {
        let mut total = LexiconCounts::default();
        for s in &self.segments {
            let counts = s.lexicon.counts();
            total.keys += counts.keys;
            total.postings += counts.postings;
        }
        total
    }

    /// The postings of an exact key, in id order.
    pub fn get(&self, key: &str) -> Result<Vec<Posting>, FileError> {
        let mut out = Vec::new();
        for s in &self.segments {
            s.rebase_into(s.lexicon.get(key)?, &mut out)?;
        }
        Ok(out)
    }

    /// [`Lexicon::fuzzy`] over every segment: a key found in several releases is one hit.
    pub fn fuzzy(
        &self,
        key: &str,
        max_distance: u8,
        limit: usize,
    ) -> Result<Vec<FuzzyHit>, FileError> {
        if key.len() > MAX_FUZZY_KEY_BYTES {
            return Ok(Vec::new());
        }
        let mut found: BTreeMap<(u8, Vec<u8>), Vec<Posting>> = BTreeMap::new();
        for s in &self.segments {
            for (distance, k, offset) in near::near_keys(s.lexicon.map.as_fst(), key, max_distance)
            {
                let postings = s.lexicon.postings_at(offset)?;
                s.rebase_into(postings, found.entry((distance, k)).or_default())?;
            }
        }
        Ok(found
            .into_iter()
            .take(limit)
            .map(|((distance, key), postings)| FuzzyHit {
                key: String::from_utf8_lossy(&key).into_owned(),
                distance,
                postings,
            })
            .collect())
    }

    /// Keys starting with `prefix` in any segment, in key order, at most `limit`.
    pub fn prefixed(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<(String, Vec<Posting>)>, FileError> {
        let mut union = fst::map::OpBuilder::new();
        for s in &self.segments {
            union.push(
                s.lexicon
                    .map
                    .search(fst::automaton::Str::new(prefix).starts_with()),
            );
        }
        let mut stream = union.union().into_stream();
        let mut out = Vec::new();
        while let Some((key, values)) = stream.next() {
            if out.len() >= limit {
                break;
            }
            let mut values = values.to_vec();
            values.sort_by_key(|v| v.index);
            let mut postings = Vec::new();
            for v in values {
                if let Some(s) = self.segments.get(v.index) {
                    s.rebase_into(s.lexicon.postings_at(v.value)?, &mut postings)?;
                }
            }
            out.push((String::from_utf8_lossy(key).into_owned(), postings));
        }
        Ok(out)
    }

    /// Damage in a posting for `concept`: an error naming the postings file of its release's
    /// segment.
    pub fn damaged_posting(&self, concept: u32, what: &'static str) -> FileError {
        let at = self.segments.partition_point(|s| s.span.first <= concept);
        let path = at
            .checked_sub(1)
            .and_then(|at| self.segments.get(at))
            .or(self.segments.first())
            .map(|s| s.lexicon.postings_path.as_path())
            .unwrap_or(Path::new("(no segment)"));
        FileError::new(path, FileProblem::Record { id: concept, what })
    }

    /// Where a walk along the keys starts: before any byte, in every segment.
    pub fn walk_start(&self) -> SegmentWalk {
        SegmentWalk {
            live: (self.segments.iter().enumerate())
                .map(|(i, s)| (i, s.lexicon.walk_start()))
                .collect(),
            started: false,
        }
    }

    /// The walk extended by `bytes` in every segment that has a key continuing so; `None`
    /// when none has.
    pub fn walk(&self, mut from: SegmentWalk, bytes: &[u8]) -> Option<SegmentWalk> {
        from.live.retain_mut(|(i, at)| {
            match self
                .segments
                .get(*i)
                .and_then(|s| s.lexicon.walk(*at, bytes))
            {
                Some(next) => {
                    *at = next;
                    true
                }
                None => false,
            }
        });
        from.started |= !bytes.is_empty();
        (!from.live.is_empty()).then_some(from)
    }

    /// Whether the bytes walked so far are a whole key of some segment.
    pub fn walk_is_key(&self, at: &SegmentWalk) -> bool {
        at.live.iter().any(|(i, w)| {
            self.segments
                .get(*i)
                .is_some_and(|s| s.lexicon.walk_is_key(*w))
        })
    }
}
