//! A concept as the build recorded it: its record, head and identity, its source release,
//! its neighbours and replacements, and its semantic group and facet (for a MeSH
//! supplementary record, its mapped heading's). A record the index points at but cannot give
//! is damage, never "not found".

use super::{ConceptDetails, ConceptId, Related, ResolveError, Resolver, SourceRecord, damage};
use crate::index::flags::ConceptFlags;
use crate::model::{Concept, Facet, LinkKind, Prefixes, SemanticGroup, SourceIdx, XrefKind};

impl Resolver {
    /// The concept with this id, or `None`; a record that cannot be read is reported as damage
    /// ([`damage`]), which fails the request that read it. Paths that can carry the error use
    /// [`Resolver::concept_checked`].
    pub fn concept(&self, id: ConceptId) -> Option<Concept> {
        self.files.table.get(id.0)
    }

    /// The concept with this id, for ids the index itself gave: a record that cannot be read
    /// is an error naming the concept table, never "not found".
    pub fn concept_checked(&self, id: ConceptId) -> Result<Concept, ResolveError> {
        Ok(self.files.table.get_checked(id.0)?)
    }

    /// What a listing shows of a concept, or `None`; damage is reported as for
    /// [`Resolver::concept`].
    pub fn head(&self, id: ConceptId) -> Option<crate::model::ConceptHead> {
        self.files
            .table
            .get_part(id.0)
            .inspect_err(|e| damage::report(e))
            .ok()
    }

    /// A concept's identifiers and cross-references alone (cheaper than the whole record), for
    /// ids the index itself gave; damage is an error, as for [`Resolver::concept_checked`].
    pub fn identity_checked(
        &self,
        id: ConceptId,
    ) -> Result<crate::model::ConceptIdentity, ResolveError> {
        Ok(self.files.table.get_part(id.0)?)
    }

    /// The source a concept belongs to.
    pub fn source_of(&self, concept: &Concept) -> Option<&SourceRecord> {
        self.files.manifest.sources.get(concept.source.slot())
    }

    fn related(&self, iri: &str, kind: LinkKind, source: SourceIdx) -> Related {
        let found = self.lexicon().by_iri(iri, source).map(|(_, c)| c);
        Related {
            iri: iri.to_string(),
            curie: found
                .as_ref()
                .and_then(|c| c.curie.clone())
                .or_else(|| self.registry.compress(iri)),
            label: found
                .as_ref()
                .and_then(|c| c.preferred_label().map(|l| l.text.clone())),
            kind,
        }
    }

    /// Everything about one concept, with its parents' and children's labels.
    pub fn details(&self, id: ConceptId) -> Option<ConceptDetails> {
        let concept = self.files.table.get(id.0)?;
        let source = self.source_of(&concept)?;
        let parents = concept
            .parents
            .iter()
            .map(|l| self.related(&l.iri, l.kind, concept.source))
            .collect();
        let children = concept
            .children
            .iter()
            .map(|l| self.related(&l.iri, l.kind, concept.source))
            .collect();
        Some(ConceptDetails {
            id,
            source_id: source.id.clone(),
            release: source.release.clone(),
            concept,
            parents,
            children,
        })
    }

    /// Follows replaced_by links from an obsolete concept to its first live replacement.
    /// Callers that must not pick one of several use [`Resolver::replacement_chains`].
    pub fn replacement_of(&self, concept: &Concept) -> Option<(ConceptId, Concept)> {
        let id = self
            .replacement_chains(concept)
            .iter()
            .find_map(|c| c.live_end())?;
        Some((id, self.concept(id)?))
    }

    /// The live concepts an obsolete concept's replacement chains end at, each once.
    pub fn live_replacements(&self, concept: &Concept) -> Vec<(ConceptId, Concept)> {
        let mut out: Vec<(ConceptId, Concept)> = Vec::new();
        for id in self
            .replacement_chains(concept)
            .iter()
            .filter_map(|c| c.live_end())
        {
            if !out.iter().any(|(x, _)| *x == id)
                && let Some(c) = self.concept(id)
            {
                out.push((id, c));
            }
        }
        out
    }

    /// The concept's semantic group and facet; `other` and none when neither it nor its
    /// mapped heading has one.
    pub fn kind_of(&self, id: ConceptId) -> Result<(SemanticGroup, Option<Facet>), ResolveError> {
        let Some(flags) = self.files.flags.get(id.0) else {
            return Ok((SemanticGroup::Other, None));
        };
        if let Some(group) = flags.group {
            return Ok((group, flags.facet));
        }
        let identity = self.identity_checked(id)?;
        let mapped = identity
            .xrefs
            .iter()
            .filter(|x| x.kind == XrefKind::PreferredMappedTo);
        for xref in mapped {
            for heading in self.lexicon().lookup_id(&xref.target) {
                let flags = self.files.flags.get(heading.concept.0);
                if let Some(ConceptFlags {
                    group: Some(group),
                    facet,
                    ..
                }) = flags
                {
                    return Ok((group, facet));
                }
            }
        }
        Ok((SemanticGroup::Other, None))
    }
}
