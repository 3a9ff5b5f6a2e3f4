//! The lexicons as a question reads them: identifiers (every spelling), names exact and fuzzy,
//! full text, and completions. Every path goes through an FST, the full-text index or the
//! concept table's offsets; a concept the lexicon names but the table cannot give is damage.

use std::collections::HashSet;

use super::{ConceptId, IdMatch, LabelMatch, ResolveError, Resolver, Spelling, TextMatch, View};
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
    pub fn complete_mapped(&self, prefix: &str, limit: usize) -> Result<Vec<String>, ResolveError> {
        let canonical = match prefix.split_once(':') {
            Some((p, local)) => match self.r.canonical_prefix(p) {
                Some(p) => format!("{p}:{local}"),
                None => prefix.to_string(),
            },
            None => prefix.to_string(),
        };
        Ok(self.r.files.mappings.complete(&canonical, limit)?)
    }

    /// Concepts with this identifier in any indexed spelling: IRI, CURIE, `PREFIX_local`, bare
    /// local id or alternative id, matched without regard to case.
    pub fn lookup_id(&self, text: &str) -> Result<Vec<IdMatch>, ResolveError> {
        self.lookup_id_in(text, View::Current)
    }

    /// [`Self::lookup_id`] in the releases `view` selects.
    pub fn lookup_id_in(&self, text: &str, view: View<'_>) -> Result<Vec<IdMatch>, ResolveError> {
        let flags = &self.r.files.flags;
        let mut matches: Vec<IdMatch> = Vec::new();
        for p in self.r.files.ids.get(&id_key(text))? {
            if !flags
                .get(p.concept)
                .is_some_and(|f| self.r.releases().visible(f.source, view))
            {
                continue;
            }
            let spelling = Spelling::from_detail(p.detail).ok_or_else(|| {
                (self.r.files.ids).damaged_posting(p.concept, "has a spelling no build writes")
            })?;
            matches.push(IdMatch {
                concept: ConceptId(p.concept),
                spelling,
            });
        }
        matches.dedup_by_key(|m| m.concept);
        Ok(matches)
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
    /// an error.
    pub fn lookup_label(&self, text: &str) -> Result<Vec<LabelMatch>, ResolveError> {
        let key = label_key(text);
        let mut matches = self.label_matches(&self.r.files.labels.get(&key)?, 0)?;
        matches.sort_by_key(|m| (!m.label.kind.is_primary(), m.label.kind, m.concept));
        Ok(matches)
    }

    /// Labels within `max_distance` edits (1 or 2) of `text`, closest first, from at most
    /// `limit` distinct label keys. A damaged concept record is an error.
    pub fn fuzzy(
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
        for hit in self.r.files.labels.fuzzy(&key, max_distance, limit)? {
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
    pub(crate) fn with_iri_where(
        &self,
        iri: &str,
        keep: impl Fn(SourceIdx) -> bool,
    ) -> Result<Vec<(ConceptId, Concept)>, ResolveError> {
        let mut out = Vec::new();
        for p in self.r.files.ids.get(&id_key(iri))? {
            let kept = p.detail == Spelling::Iri.detail()
                && (self.r.files.flags.get(p.concept)).is_none_or(|f| keep(f.source));
            if kept {
                let concept = self.r.files.table.get(p.concept)?;
                if concept.iri == iri {
                    out.push((ConceptId(p.concept), concept));
                }
            }
        }
        Ok(out)
    }

    /// The concept with `iri` in the given source, if indexed.
    pub fn by_iri(
        &self,
        iri: &str,
        source: SourceIdx,
    ) -> Result<Option<(ConceptId, Concept)>, ResolveError> {
        Ok((self.with_iri_where(iri, |s| s == source)?)
            .into_iter()
            .find(|(_, c)| c.source == source))
    }

    /// The concept with `iri`, preferring the given source, else from a current release.
    pub fn by_iri_any(
        &self,
        iri: &str,
        source: SourceIdx,
    ) -> Result<Option<(ConceptId, Concept)>, ResolveError> {
        if let Some(found) = self.by_iri(iri, source)? {
            return Ok(Some(found));
        }
        let releases = self.r.releases();
        Ok(
            (self.with_iri_where(iri, |s| releases.visible(s, View::Current))?)
                .into_iter()
                .find(|(_, c)| releases.visible(c.source, View::Current)),
        )
    }

    /// CURIEs starting with `prefix` (any case), then CURIEs of concepts whose names start with
    /// it; at most `limit`, for completion.
    pub fn complete_identifier(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<String>, ResolveError> {
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
            for (_, postings) in self.r.files.ids.prefixed(&key, limit * 2)? {
                for p in postings.iter().filter(|p| {
                    p.detail == Spelling::Curie.detail() && current(ConceptId(p.concept))
                }) {
                    push(self.r.files.table.get(p.concept)?.curie);
                }
            }
        }
        let label = label_key(prefix);
        if !label.is_empty() {
            for (_, postings) in self.r.files.labels.prefixed(&label, limit)? {
                for p in postings.iter().filter(|p| current(ConceptId(p.concept))) {
                    push(self.r.files.table.get(p.concept)?.curie);
                }
            }
        }
        Ok(out)
    }
}
