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
use crate::index::header::FileError;

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
    /// The build-wide posting of a segment posting; `None` (reported as damage) for one
    /// beyond the release's concepts.
    fn rebase(&self, p: Posting) -> Option<Posting> {
        if p.concept >= self.span.count {
            crate::index::damage::report(&format_args!(
                "{}: a posting names concept {} of a release of {}",
                self.lexicon.postings_path.display(),
                p.concept,
                self.span.count
            ));
            return None;
        }
        Some(Posting {
            concept: self.span.first + p.concept,
            detail: p.detail,
        })
    }

    fn rebased(&self, postings: Vec<Posting>) -> impl Iterator<Item = Posting> + '_ {
        postings.into_iter().filter_map(|p| self.rebase(p))
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
    pub fn get(&self, key: &str) -> Vec<Posting> {
        let mut out = Vec::new();
        for s in &self.segments {
            out.extend(s.rebased(s.lexicon.get(key)));
        }
        out
    }

    /// [`Lexicon::fuzzy`] over every segment: a key found in several releases is one hit.
    pub fn fuzzy(&self, key: &str, max_distance: u8, limit: usize) -> Vec<FuzzyHit> {
        if key.len() > MAX_FUZZY_KEY_BYTES {
            return Vec::new();
        }
        let mut found: BTreeMap<(u8, Vec<u8>), Vec<Posting>> = BTreeMap::new();
        for s in &self.segments {
            for (distance, k, offset) in near::near_keys(s.lexicon.map.as_fst(), key, max_distance)
            {
                let postings = s.rebased(s.lexicon.postings_at(offset));
                found.entry((distance, k)).or_default().extend(postings);
            }
        }
        found
            .into_iter()
            .take(limit)
            .map(|((distance, key), postings)| FuzzyHit {
                key: String::from_utf8_lossy(&key).into_owned(),
                distance,
                postings,
            })
            .collect()
    }

    /// Keys starting with `prefix` in any segment, in key order, at most `limit`.
    pub fn prefixed(&self, prefix: &str, limit: usize) -> Vec<(String, Vec<Posting>)> {
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
                    postings.extend(s.rebased(s.lexicon.postings_at(v.value)));
                }
            }
            out.push((String::from_utf8_lossy(key).into_owned(), postings));
        }
        out
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
