//! A concept as the build recorded it: its record, head and identity, its source release,
//! its neighbours and replacements, and its semantic group and facet (for a MeSH
//! supplementary record, its mapped heading's). A record the index points at but cannot give
//! is damage, never "not found".

use super::{ConceptDetails, ConceptId, Related, ResolveError, Resolver, SourceRecord};
use crate::index::flags::ConceptFlags;
use crate::model::{Concept, Facet, LinkKind, Prefixes, SemanticGroup, SourceIdx, XrefKind};

impl Resolver {
    /// The concept with this id. Ids come from the index itself, so a record that cannot be
    /// read is an error naming the concept table, never "not found".
    pub fn concept(&self, id: ConceptId) -> Result<Concept, ResolveError> {
        Ok(self.files.table.get(id.0)?)
    }

    /// What a listing shows of a concept, with the errors of [`Resolver::concept`].
    pub fn head(&self, id: ConceptId) -> Result<crate::model::ConceptHead, ResolveError> {
        Ok(self.files.table.get_part(id.0)?)
    }

    /// A concept's identifiers and cross-references alone (cheaper than the whole record),
    /// with the errors of [`Resolver::concept`].
    pub fn identity(&self, id: ConceptId) -> Result<crate::model::ConceptIdentity, ResolveError> {
        Ok(self.files.table.get_part(id.0)?)
    }

    /// The source a concept belongs to.
    pub fn source_of(&self, concept: &Concept) -> Option<&SourceRecord> {
        self.files.manifest.sources.get(concept.source.slot())
    }

    fn related(
        &self,
        iri: &str,
        kind: LinkKind,
        source: SourceIdx,
    ) -> Result<Related, ResolveError> {
        let found = self.lexicon().by_iri(iri, source)?.map(|(_, c)| c);
        Ok(Related {
            iri: iri.to_string(),
            curie: found
                .as_ref()
                .and_then(|c| c.curie.clone())
                .or_else(|| self.registry.compress(iri)),
            label: found
                .as_ref()
                .and_then(|c| c.preferred_label().map(|l| l.text.clone())),
            kind,
        })
    }

    /// Everything about one concept, with its parents' and children's labels.
    pub fn details(&self, id: ConceptId) -> Result<ConceptDetails, ResolveError> {
        let concept = self.concept(id)?;
        let source = self.source_of(&concept).ok_or_else(|| {
            (self.files.table).damaged(id.0, "names a source the manifest does not list")
        })?;
        let parents = (concept.parents.iter())
            .map(|l| self.related(&l.iri, l.kind, concept.source))
            .collect::<Result<_, _>>()?;
        let children = (concept.children.iter())
            .map(|l| self.related(&l.iri, l.kind, concept.source))
            .collect::<Result<_, _>>()?;
        Ok(ConceptDetails {
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
    pub fn replacement_of(
        &self,
        concept: &Concept,
    ) -> Result<Option<(ConceptId, Concept)>, ResolveError> {
        let chains = self.replacement_chains(concept)?;
        match chains.iter().find_map(|c| c.live_end()) {
            Some(id) => Ok(Some((id, self.concept(id)?))),
            None => Ok(None),
        }
    }

    /// The live concepts an obsolete concept's replacement chains end at, each once.
    pub fn live_replacements(
        &self,
        concept: &Concept,
    ) -> Result<Vec<(ConceptId, Concept)>, ResolveError> {
        let mut out: Vec<(ConceptId, Concept)> = Vec::new();
        for id in (self.replacement_chains(concept)?)
            .iter()
            .filter_map(|c| c.live_end())
        {
            if !out.iter().any(|(x, _)| *x == id) {
                out.push((id, self.concept(id)?));
            }
        }
        Ok(out)
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
        let identity = self.identity(id)?;
        let mapped = identity
            .xrefs
            .iter()
            .filter(|x| x.kind == XrefKind::PreferredMappedTo);
        for xref in mapped {
            for heading in self.lexicon().lookup_id(&xref.target)? {
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
