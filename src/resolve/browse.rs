//! "What does this ontology hold, and where does a term sit in it?": one source release's
//! terms in table order, a term found by IRI or identifier within it, and its parents,
//! children, ancestors and descendants. The OLS API and any other browsing adapter ask here.

use std::collections::{HashSet, VecDeque};

use super::{ConceptId, ResolveError, Resolver, View};
use crate::index::manifest::SourceRecord;
use crate::model::{Concept, Link, RelatedClass, SourceIdx};

/// Terms of a release with their ids, in IRI order.
pub type Terms = Vec<(ConceptId, Concept)>;

/// Terms a walk of ancestors or descendants visits at most: a walk of the largest loaded
/// hierarchy fits, a cycle or a runaway one stops.
pub const MAX_WALK: usize = 500_000;

/// part_of (BFO:0000050): hierarchical unless the catalogue names others.
pub const PART_OF: &str = "http://purl.obolibrary.org/obo/BFO_0000050";

/// Which links a hierarchy question follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// `rdfs:subClassOf`, `skos:broader` and MeSH's tree: what OLS calls parents.
    IsA,
    /// Those and the source's hierarchical relations, such as part_of (OLS's
    /// `hierarchicalParents`).
    Hierarchical,
}

/// One source release, browsed: a short-lived view borrowing the resolver.
pub struct SourceBrowse<'r> {
    r: &'r Resolver,
    pub slot: SourceIdx,
    pub record: &'r SourceRecord,
}

/// The loaded releases as OLS browses them: by address, all of them, and the names and
/// identifiers across them.
pub struct Browsing<'r> {
    pub(super) r: &'r Resolver,
}

impl<'r> Browsing<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        Browsing { r }
    }
}

impl<'r> Browsing<'r> {
    /// The release a browsing address names: `hp` (its current release) or `mondo@2025-02-04`;
    /// ids are matched without regard to case, as OLS lower-cases them.
    pub fn release(&self, key: &str) -> Option<SourceBrowse<'r>> {
        let (id, release) = match key.split_once('@') {
            Some((id, release)) => (id, Some(release)),
            None => (key, None),
        };
        let (slot, record) = self
            .r
            .manifest()
            .sources
            .iter()
            .enumerate()
            .find(|(_, s)| {
                s.id.eq_ignore_ascii_case(id) && release.map_or(s.current, |r| s.release == r)
            })?;
        Some(SourceBrowse {
            r: self.r,
            slot: SourceIdx::try_from(slot).ok()?,
            record,
        })
    }

    /// Every loaded release, browsable, current releases in catalogue order and then older ones.
    pub fn all(&self) -> Vec<SourceBrowse<'r>> {
        let sources = &self.r.manifest().sources;
        let mut slots: Vec<usize> = (0..sources.len()).collect();
        slots.sort_by_key(|&slot| !sources[slot].current);
        slots
            .into_iter()
            .filter_map(|slot| {
                Some(SourceBrowse {
                    r: self.r,
                    slot: SourceIdx::try_from(slot).ok()?,
                    record: &sources[slot],
                })
            })
            .collect()
    }

    /// The release a concept belongs to, from the flags (its record unread).
    pub fn source_slot(&self, id: ConceptId) -> Option<SourceIdx> {
        self.r.files.flags.get(id.0).map(|f| f.source)
    }

    /// Current concepts with this identifier (IRI, CURIE, `PREFIX_local`), in every source.
    pub fn terms_with_id(&self, text: &str) -> Result<Vec<(ConceptId, Concept)>, ResolveError> {
        let mut out = Vec::new();
        for m in self.r.lexicon().lookup_id_in(text, View::Current)? {
            out.push((m.concept, self.r.concept(m.concept)?));
        }
        Ok(out)
    }
}

impl<'r> SourceBrowse<'r> {
    /// The resolver this view borrows.
    pub(super) fn resolver(&self) -> &'r Resolver {
        self.r
    }

    /// How the address names this release: `hp`, or `mondo@2025-02-04` for an older one.
    pub fn key(&self) -> String {
        self.record.key()
    }

    /// How many terms the release holds, obsolete ones included.
    pub fn term_count(&self) -> u32 {
        u32::try_from(self.record.counts.concepts).unwrap_or(u32::MAX)
    }

    /// The prefixes its identifiers use, first the one its first id shape names.
    pub fn prefixes(&self) -> Vec<&'r str> {
        self.record
            .id_shapes
            .iter()
            .map(|s| s.prefix.as_str())
            .collect()
    }

    /// The prefix OLS calls preferred: the catalogue's, else the source's first.
    pub fn preferred_prefix(&self) -> Option<String> {
        self.record
            .preferred_prefix
            .clone()
            .or_else(|| self.prefixes().first().map(|p| p.to_string()))
    }

    /// The IRI prefixes of the terms it defines: the catalogue's base URIs, its prefixes' URI
    /// prefixes, and the OBO PURL space of its preferred prefix (as OLS adds it).
    pub fn base_uris(&self) -> Vec<String> {
        let prefixes = self.prefixes();
        let mut out = self.record.base_uris.clone();
        let rules = self.r.manifest().prefixes.iter();
        for rule in rules.filter(|rule| prefixes.contains(&rule.prefix.as_str())) {
            if !out.contains(&rule.uri_prefix) {
                out.push(rule.uri_prefix.clone());
            }
        }
        if let Some(prefix) = self.preferred_prefix() {
            let obo = format!("{}{prefix}_", crate::model::OBO_PURL);
            if !out.contains(&obo) {
                out.push(obo);
            }
        }
        out
    }

    /// Whether a term's IRI is in this source's own namespace (not one it imports or cites).
    pub fn defines(&self, iri: &str) -> bool {
        self.base_uris()
            .iter()
            .any(|base| iri.starts_with(base.as_str()))
    }

    /// The ontology's IRI: the one its file states, else the OBO PURL of an OBO-style source,
    /// else its homepage.
    pub fn ontology_iri(&self) -> String {
        if let Some(iri) = &self.record.ontology_iri {
            return iri.clone();
        }
        let obo = self
            .base_uris()
            .iter()
            .any(|b| b.starts_with(crate::model::OBO_PURL));
        if obo {
            format!("{}{}.owl", crate::model::OBO_PURL, self.record.id)
        } else {
            self.record.homepage.clone()
        }
    }

    /// Terms `offset ..` in table order, at most `limit`.
    pub fn terms(
        &self,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<(ConceptId, Concept)>, ResolveError> {
        let start = offset.min(self.term_count());
        let end = start.saturating_add(limit).min(self.term_count());
        (start..end)
            .map(|i| {
                let id = ConceptId(self.record.first_concept + i);
                Ok((id, self.r.concept(id)?))
            })
            .collect()
    }

    /// Whether a concept id belongs to this release.
    fn holds(&self, id: ConceptId) -> bool {
        id.0.checked_sub(self.record.first_concept)
            .is_some_and(|i| i < self.term_count())
    }

    /// The term with exactly this IRI.
    pub fn by_iri(&self, iri: &str) -> Result<Option<(ConceptId, Concept)>, ResolveError> {
        self.r.lexicon().by_iri(iri, self.slot)
    }

    /// The term with this identifier in any indexed spelling (CURIE, `PREFIX_local`, IRI).
    pub fn by_id(&self, text: &str) -> Result<Option<(ConceptId, Concept)>, ResolveError> {
        let view = if self.record.current {
            View::Current
        } else {
            View::Pinned(&self.record.release)
        };
        match self
            .r
            .lexicon()
            .lookup_id_in(text, view)?
            .into_iter()
            .find(|m| self.holds(m.concept))
        {
            Some(m) => Ok(Some((m.concept, self.r.concept(m.concept)?))),
            None => Ok(None),
        }
    }

    /// The loaded terms a concept's links name, each once, by IRI.
    fn linked(&self, iris: impl Iterator<Item = String>) -> Result<Terms, ResolveError> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for iri in iris.filter(|iri| seen.insert(iri.clone())) {
            out.extend(self.by_iri(&iri)?);
        }
        out.sort_by(|a, b| a.1.iri.cmp(&b.1.iri));
        Ok(out)
    }

    /// The relations that place a term under another beside `is_a`: the catalogue's, else
    /// part_of (as OLS defaults).
    pub fn hierarchical_properties(&self) -> Vec<&str> {
        if self.record.hierarchical_properties.is_empty() {
            vec![PART_OF]
        } else {
            self.record
                .hierarchical_properties
                .iter()
                .map(String::as_str)
                .collect()
        }
    }

    /// The IRIs of `links` (a term's `is_a` parents or children), and with
    /// [`Links::Hierarchical`] those of its hierarchical `relations` in the same direction.
    fn iris(&self, links: &[Link], relations: &[RelatedClass], follow: Links) -> Vec<String> {
        let mut out: Vec<String> = links.iter().map(|l| l.iri.clone()).collect();
        if follow == Links::Hierarchical {
            let wanted = self.hierarchical_properties();
            let hierarchical = relations
                .iter()
                .filter(|r| wanted.contains(&r.property.as_str()));
            out.extend(hierarchical.map(|r| r.iri.clone()));
        }
        out
    }

    fn parent_iris(&self, concept: &Concept, follow: Links) -> Vec<String> {
        self.iris(&concept.parents, &concept.relations, follow)
    }

    fn child_iris(&self, concept: &Concept, follow: Links) -> Vec<String> {
        self.iris(&concept.children, &concept.related_from, follow)
    }

    /// The term's direct parents in this release.
    pub fn parents(&self, concept: &Concept, links: Links) -> Result<Terms, ResolveError> {
        self.linked(self.parent_iris(concept, links).into_iter())
    }

    /// The term's direct children in this release.
    pub fn children(&self, concept: &Concept, links: Links) -> Result<Terms, ResolveError> {
        self.linked(self.child_iris(concept, links).into_iter())
    }

    /// Whether any child of the term is loaded, by `is_a` or a hierarchical relation.
    pub fn has_children(&self, concept: &Concept) -> Result<bool, ResolveError> {
        self.any_loaded(&self.child_iris(concept, Links::Hierarchical))
    }

    /// Whether no parent of the term is loaded, by `is_a` or a hierarchical relation: a root
    /// of the release's hierarchy.
    pub fn is_root(&self, concept: &Concept) -> Result<bool, ResolveError> {
        Ok(!self.any_loaded(&self.parent_iris(concept, Links::Hierarchical))?)
    }

    fn any_loaded(&self, iris: &[String]) -> Result<bool, ResolveError> {
        for iri in iris {
            if self.by_iri(iri)?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Every ancestor of the term (never the term itself), by IRI.
    pub fn ancestors(&self, concept: &Concept, links: Links) -> Result<Terms, ResolveError> {
        self.walk(concept, |c| self.parents(c, links))
    }

    /// Every descendant of the term (never the term itself), by IRI.
    pub fn descendants(&self, concept: &Concept, links: Links) -> Result<Terms, ResolveError> {
        self.walk(concept, |c| self.children(c, links))
    }

    /// Breadth first from `start` through `next`, each term once, at most [`MAX_WALK`].
    fn walk(
        &self,
        start: &Concept,
        next: impl Fn(&Concept) -> Result<Terms, ResolveError>,
    ) -> Result<Terms, ResolveError> {
        let mut seen: HashSet<String> = HashSet::from([start.iri.clone()]);
        let mut out = Vec::new();
        let mut queue: VecDeque<Concept> = VecDeque::from([start.clone()]);
        while let Some(at) = queue.pop_front() {
            for (id, c) in next(&at)? {
                if out.len() >= MAX_WALK {
                    break;
                }
                if seen.insert(c.iri.clone()) {
                    queue.push_back(c.clone());
                    out.push((id, c));
                }
            }
        }
        out.sort_by(|a, b| a.1.iri.cmp(&b.1.iri));
        Ok(out)
    }
}

/// Folded names looked at per suggestion wanted: most names of a short prefix belong to
/// other sources or to obsolete concepts.
const NAMES_PER_SUGGESTION: usize = 20;

impl<'r> Browsing<'r> {
    /// Names (labels and synonyms, as written) that start with `prefix` once folded, of
    /// current concepts in `sources` (every current release when `None`): at most `limit`,
    /// each once, in folded order.
    pub fn names_starting(
        &self,
        prefix: &str,
        sources: Option<&[SourceIdx]>,
        limit: usize,
    ) -> Result<Vec<String>, ResolveError> {
        let key = crate::index::normalize::label_key(prefix);
        let mut out: Vec<String> = Vec::new();
        if key.is_empty() {
            return Ok(out);
        }
        let wanted = |source: SourceIdx| {
            sources.map_or(self.r.releases().visible(source, View::Current), |s| {
                s.contains(&source)
            })
        };
        let depth = limit.saturating_mul(NAMES_PER_SUGGESTION);
        for (_, postings) in self.r.files.labels.prefixed(&key, depth)? {
            for p in postings {
                let live = self
                    .r
                    .files
                    .flags
                    .get(p.concept)
                    .is_some_and(|f| wanted(f.source) && !f.obsolete);
                if !live || out.len() >= limit {
                    continue;
                }
                let concept: crate::model::ConceptLabels =
                    self.r.files.table.get_part(p.concept)?;
                if let Some(label) = concept.labels.get(usize::from(p.detail))
                    && !out.contains(&label.text)
                {
                    out.push(label.text.clone());
                }
            }
            if out.len() >= limit {
                break;
            }
        }
        Ok(out)
    }
}
