//! The path from a concept up to a root of its source: each step the first parent that is
//! loaded in the same release, bounded and cycle-safe, for pages that show where a concept
//! sits.

use super::{Browsing, ConceptId, ResolveError};

/// Steps followed at most; deeper hierarchies are cut, never walked forever.
pub const MAX_DEPTH: usize = 64;

impl Browsing<'_> {
    /// The ancestors of `id` from a root down to its parent, by first loaded parents.
    pub fn path_to_root(&self, id: ConceptId) -> Result<Vec<ConceptId>, ResolveError> {
        let mut path: Vec<ConceptId> = Vec::new();
        let mut at = self.r.concept(id)?;
        while path.len() < MAX_DEPTH {
            let mut next = None;
            for link in &at.parents {
                next = self.r.lexicon().by_iri_any(&link.iri, at.source)?;
                if next.is_some() {
                    break;
                }
            }
            match next {
                Some((pid, parent)) if pid != id && !path.contains(&pid) => {
                    path.push(pid);
                    at = parent;
                }
                _ => break,
            }
        }
        path.reverse();
        Ok(path)
    }
}
