//! What one source release holds, counted once while its concepts are read and recorded in
//! the manifest as they were counted.

use serde::{Deserialize, Serialize};

use super::Concept;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceCounts {
    pub triples: u64,
    pub concepts: u64,
    pub obsolete: u64,
    pub labels: u64,
    pub definitions: u64,
    pub parent_links: u64,
    pub xrefs: u64,
    pub replacements: u64,
    /// Table rows that could not be read and were skipped (each reported with file and line).
    #[serde(default)]
    pub skipped_rows: u64,
}

impl SourceCounts {
    /// The counts of a finished list of concepts read from `triples` triples.
    pub fn of(triples: u64, concepts: &[Concept]) -> SourceCounts {
        SourceCounts {
            triples,
            concepts: concepts.len() as u64,
            obsolete: concepts.iter().filter(|c| c.obsolete).count() as u64,
            labels: concepts.iter().map(|c| c.labels.len() as u64).sum(),
            definitions: concepts.iter().map(|c| c.definitions.len() as u64).sum(),
            parent_links: concepts.iter().map(|c| c.parents.len() as u64).sum(),
            xrefs: concepts.iter().map(|c| c.xrefs.len() as u64).sum(),
            replacements: concepts.iter().map(|c| c.replacements.len() as u64).sum(),
            skipped_rows: 0,
        }
    }
}
