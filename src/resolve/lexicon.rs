//! The lexicons as a question reads them: identifiers (every spelling), names exact and fuzzy,
//! full text, and completions. Every path goes through an FST, the full-text index or the
//! concept table's offsets; a concept the lexicon names but the table cannot give is damage.

use std::collections::HashSet;

use super::{
    ConceptId, IdMatch, LabelMatch, ResolveError, Resolver, Spelling, TextMatch, View, damage,
};
use crate::index::FileError;
use crate::index::normalize::{id_key, label_key};
use crate::model::{Concept, SourceIdx};

/// The resolver's lexicons ([`Resolver::lexicon`]).
pub struct Lexicon<'r> {
    r: &'r Resolver,
}

impl<'r> Lexicon<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        Lexicon { r }
    }
}

impl<'r> Lexicon<'r> {
    /// Identifiers with mappings that start with `prefix` (its prefix part in any spelling),
    /// for completion.
    pub fn complete_mapped(&self, prefix: &str, limit: usize) -> Vec<String> {
        let canonical = match prefix.split_once(':') {
            Some((p, local)) => match self.r.canonical_prefix(p) {
                Some(p) => format!("{p}:{local}"),
                None => prefix.to_string(),
            },
            None => prefix.to_string(),
        };
        self.r.files.mappings.complete(&canonical, limit)
    }

    /// Concepts with this identifier in any indexed spelling: IRI, CURIE, `PREFIX_local`, bare
    /// local id or alternative id, matched without regard to case.
    pub fn lookup_id(&self, text: &str) -> Vec<IdMatch> {
        self.lookup_id_in(text, View::Current)
    }

    /// [`Self::lookup_id`] in the releases `view` selects.
    pub fn lookup_id_in(&self, text: &str, view: View<'_>) -> Vec<IdMatch> {
        let flags = &self.r.files.flags;
        let mut matches: Vec<IdMatch> = self.r
            .files
            .ids
            .get(&id_key(text))
            .into_iter()
            .filter(|p| {
                flags
                    .get(p.concept)
                    .is_some_and(|f| self.r.releases().visible(f.source, view))
            })
            .filter_map(|p| match Spelling::from_detail(p.detail) {
                Some(spelling) => Some(IdMatch {
                    concept: ConceptId(p.concept),
                    spelling,
                }),
                None => {
                    damage::report(&format_args!(
                        "the identifier lexicon: concept {} has spelling detail {}, which no build writes",
                        p.concept, p.detail
                    ));
                    None
                }
            })
            .collect();
        matches.dedup_by_key(|m| m.concept);
        matches
    }

    /// The labels the postings point at. A concept record that cannot be read is an error;
    /// a posting past its concept's labels (which the build never writes) is skipped.
    pub(crate) fn label_matches(
        &self,
        postings: &[crate::index::Posting],
        distance: u8,
    ) -> Result<Vec<LabelMatch>, FileError> {
        let mut out = Vec::with_capacity(postings.len());
        for p in postings {
            let concept: crate::model::ConceptLabels = self.r.files.table.get_part(p.concept)?;
            if let Some(label) = concept.labels.get(usize::from(p.detail)) {
                out.push(LabelMatch {
                    concept: ConceptId(p.concept),
                    label: label.clone(),
                    distance,
                });
            }
        }
        Ok(out)
    }

    /// Concepts with a label or synonym equal to `text` after normalization (case, spacing and
    /// punctuation folded). Primary labels come before synonyms. A damaged concept record is
    /// logged and left out; the name search uses [`Self::lookup_label_checked`].
    pub fn lookup_label(&self, text: &str) -> Vec<LabelMatch> {
        self.lookup_label_checked(text).unwrap_or_else(|e| {
            crate::index::damage::report(&e);
            Vec::new()
        })
    }

    /// [`Self::lookup_label`], with a damaged concept record as an error.
    pub fn lookup_label_checked(&self, text: &str) -> Result<Vec<LabelMatch>, ResolveError> {
        let key = label_key(text);
        let mut matches = self.label_matches(&self.r.files.labels.get(&key), 0)?;
        matches.sort_by_key(|m| (!m.label.kind.is_primary(), m.label.kind, m.concept));
        Ok(matches)
    }

    /// Labels within `max_distance` edits (1 or 2) of `text`, closest first, from at most
    /// `limit` distinct label keys. A damaged concept record is logged and left out; the name
    /// search uses [`Self::fuzzy_checked`].
    pub fn fuzzy(&self, text: &str, max_distance: u8, limit: usize) -> Vec<LabelMatch> {
        self.fuzzy_checked(text, max_distance, limit)
            .unwrap_or_else(|e| {
                crate::index::damage::report(&e);
                Vec::new()
            })
    }

    /// [`Self::fuzzy`], with a damaged concept record as an error.
    pub fn fuzzy_checked(
        &self,
        text: &str,
        max_distance: u8,
        limit: usize,
    ) -> Result<Vec<LabelMatch>, ResolveError> {
        let key = label_key(text);
        if key.is_empty() {
            return Ok(Vec::new());
        }
        let limit = limit.min(crate::index::fulltext::MAX_HITS);
        let mut out = Vec::new();
        for hit in self.r.files.labels.fuzzy(&key, max_distance, limit) {
            out.extend(self.label_matches(&hit.postings, hit.distance)?);
        }
        Ok(out)
    }

    /// Full-text search over labels, synonyms and definitions, in the given release keys (all
    /// when `None`): the best `limit` concepts, and whether more match.
    pub fn search(
        &self,
        text: &str,
        sources: Option<&[String]>,
        limit: usize,
    ) -> Result<(Vec<TextMatch>, bool), ResolveError> {
        let (hits, more) = match sources {
            None => self.r.files.fulltext.search(text, None, limit)?,
            Some(keys) => {
                let selected = || {
                    self.r
                        .manifest()
                        .sources
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| keys.contains(&s.key()))
                };
                let wanted: HashSet<SourceIdx> = selected()
                    .filter_map(|(slot, _)| SourceIdx::try_from(slot).ok())
                    .collect();
                let origins: Vec<u64> = selected()
                    .map(|(_, s)| crate::index::fulltext::origin_of(&s.graph))
                    .collect();
                let in_wanted = |concept: u32| {
                    self.r
                        .files
                        .flags
                        .get(concept)
                        .is_some_and(|f| wanted.contains(&f.source))
                };
                // A clause on the releases pays when they are a small part of the index (a
                // common word of other releases is never scored); over most of it, the
                // filter inside the ranking costs less.
                let share: u64 = selected().map(|(_, s)| s.counts.concepts).sum();
                if share.saturating_mul(2) < u64::from(self.r.concept_count()) {
                    self.r
                        .files
                        .fulltext
                        .search_in(text, &origins, &in_wanted, limit)?
                } else {
                    self.r
                        .files
                        .fulltext
                        .search(text, Some(&in_wanted), limit)?
                }
            }
        };
        let found = hits
            .into_iter()
            .map(|h| TextMatch {
                concept: ConceptId(h.concept),
                score: h.score,
            })
            .collect();
        Ok((found, more))
    }

    /// Concepts whose IRI is exactly `iri` in the sources `keep` accepts: judged by the flags,
    /// so the records of other sources and releases are never decoded.
    pub(crate) fn with_iri_where<'a>(
        &'a self,
        iri: &'a str,
        keep: impl Fn(SourceIdx) -> bool + 'a,
    ) -> impl Iterator<Item = (ConceptId, Concept)> + 'a {
        self.r
            .files
            .ids
            .get(&id_key(iri))
            .into_iter()
            .filter(|p| p.detail == Spelling::Iri.detail())
            .filter(move |p| {
                self.r
                    .files
                    .flags
                    .get(p.concept)
                    .is_none_or(|f| keep(f.source))
            })
            .filter_map(|p| Some((ConceptId(p.concept), self.r.files.table.get(p.concept)?)))
            .filter(move |(_, c)| c.iri == iri)
    }

    /// The concept with `iri` in the given source, if indexed.
    pub fn by_iri(&self, iri: &str, source: SourceIdx) -> Option<(ConceptId, Concept)> {
        self.with_iri_where(iri, |s| s == source)
            .find(|(_, c)| c.source == source)
    }

    /// The concept with `iri`, preferring the given source, else from a current release.
    pub fn by_iri_any(&self, iri: &str, source: SourceIdx) -> Option<(ConceptId, Concept)> {
        self.by_iri(iri, source).or_else(|| {
            self.with_iri_where(iri, |s| self.r.releases().visible(s, View::Current))
                .find(|(_, c)| self.r.releases().visible(c.source, View::Current))
        })
    }

    /// CURIEs starting with `prefix` (any case), then CURIEs of concepts whose names start with
    /// it; at most `limit`, for completion.
    pub fn complete_identifier(&self, prefix: &str, limit: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut push = |curie: Option<String>| {
            if let Some(c) = curie
                && out.len() < limit
                && !out.contains(&c)
            {
                out.push(c);
            }
        };
        let current = |concept: ConceptId| {
            self.r
                .files
                .flags
                .get(concept.0)
                .is_some_and(|f| self.r.releases().visible(f.source, View::Current))
        };
        let key = id_key(prefix);
        if !key.is_empty() {
            for (_, postings) in self.r.files.ids.prefixed(&key, limit * 2) {
                for p in postings.iter().filter(|p| {
                    p.detail == Spelling::Curie.detail() && current(ConceptId(p.concept))
                }) {
                    push(self.r.files.table.get(p.concept).and_then(|c| c.curie));
                }
            }
        }
        let label = label_key(prefix);
        if !label.is_empty() {
            for (_, postings) in self.r.files.labels.prefixed(&label, limit) {
                for p in postings.iter().filter(|p| current(ConceptId(p.concept))) {
                    push(self.r.files.table.get(p.concept).and_then(|c| c.curie));
                }
            }
        }
        out
    }
}
