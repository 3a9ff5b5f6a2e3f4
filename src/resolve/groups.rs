//! "What kind of thing is this concept?": its semantic group as the build recorded it, or, for
//! a MeSH supplementary record, the group of the heading it is mapped to.

use super::{ConceptId, ResolveError, Resolver};
use crate::model::{SemanticGroup, XrefKind};

impl Resolver {
    /// The concept's semantic group; `other` when neither it nor its mapped heading has one.
    pub fn group_of(&self, id: ConceptId) -> Result<SemanticGroup, ResolveError> {
        let Some(flags) = self.files.flags.get(id.0) else {
            return Ok(SemanticGroup::Other);
        };
        if let Some(group) = flags.group {
            return Ok(group);
        }
        let identity = self.identity_checked(id)?;
        let mapped = identity
            .xrefs
            .iter()
            .filter(|x| x.kind == XrefKind::PreferredMappedTo);
        for xref in mapped {
            for heading in self.lookup_id(&xref.target) {
                if let Some(group) = self
                    .files
                    .flags
                    .get(heading.concept.0)
                    .and_then(|f| f.group)
                {
                    return Ok(group);
                }
            }
        }
        Ok(SemanticGroup::Other)
    }
}
