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
        let mut counts = SourceCounts {
            triples,
            ..SourceCounts::default()
        };
        concepts.iter().for_each(|c| counts.count(c));
        counts
    }

    /// Counts one more finished concept.
    pub fn count(&mut self, concept: &Concept) {
        let n = |items: usize| items as u64;
        self.concepts += 1;
        self.obsolete += u64::from(concept.obsolete);
        self.labels += n(concept.labels.len());
        self.definitions += n(concept.definitions.len());
        self.parent_links += n(concept.parents.len());
        self.xrefs += n(concept.xrefs.len());
        self.replacements += n(concept.replacements.len());
    }
}
