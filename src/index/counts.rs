//! What each written structure holds, as the manifest records it: plain counts, a leaf that
//! the writers and the manifest both read, so neither depends on the other.

/// What a written lexicon holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LexiconCounts {
    pub keys: u64,
    pub postings: u64,
}

/// What a written registry holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RegistryCounts {
    pub records: u64,
    pub spellings: u64,
    pub uri_prefixes: u64,
    pub patterns: u64,
}

/// What the mapping index (or one of its segments) holds. The index's counts add up its
/// segments': an identifier or mapping that several segments name counts in each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MappingIndexCounts {
    /// Identifiers named by at least one mapping.
    pub identifiers: u64,
    /// Distinct (subject, predicate, object, modifier) mappings.
    pub mappings: u64,
    /// Statements: one per row or source cross-reference, several per mapping when sets agree.
    pub statements: u64,
}

impl std::ops::AddAssign for MappingIndexCounts {
    fn add_assign(&mut self, other: MappingIndexCounts) {
        self.identifiers += other.identifiers;
        self.mappings += other.mappings;
        self.statements += other.statements;
    }
}
