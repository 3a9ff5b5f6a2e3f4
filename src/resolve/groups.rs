//! "What kind of thing is this concept?": its semantic group and facet as the build recorded
//! them, or, for a MeSH supplementary record, those of the heading it is mapped to.

use super::{ConceptId, ResolveError, Resolver};
use crate::index::flags::ConceptFlags;
use crate::model::{Facet, SemanticGroup, XrefKind};

impl Resolver {
    /// The concept's semantic group; `other` when neither it nor its mapped heading has one.
    pub fn group_of(&self, id: ConceptId) -> Result<SemanticGroup, ResolveError> {
        Ok(self.kind_of(id)?.0)
    }

    /// The concept's semantic group and facet (see [`group_of`](Self::group_of)).
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
            for heading in self.lookup_id(&xref.target) {
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
