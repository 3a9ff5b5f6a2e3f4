//! Domain types shared by ingest, index and resolve: concepts, labels, provenance, prefixes.
//!
//! Nothing heavy lives here (std and serde derive only), so every other module may depend on it.

mod concept;
mod counts;
mod footprint;
mod group;
mod mapping;
mod prefix;
mod release;
pub mod wire;

pub use concept::{
    Concept, ConceptHead, ConceptIdentity, ConceptKind, ConceptLabels, ConceptStatus, Definition,
    Label, LabelKind, Link, LinkKind, Provenance, RelatedClass, Replacement, ReplacementKind,
    Shown, SourceIdx, Xref, XrefKind,
};
pub use counts::SourceCounts;
pub use footprint::{FootprintRecorder, PrefixFootprint, namespace_key};
pub use group::{Facet, SemanticGroup};
pub use mapping::{
    Evidence, EvidenceOrigin, MappingEdge, MappingNode, MappingPredicate, NO_TERM_FOUND,
    confidence_milli,
};
pub use prefix::{OBO_PURL, PrefixMap, PrefixRecord, PrefixRule, Prefixes, RecordOrigin, obo_purl};
pub use release::{
    MAX_RELEASE_CHARS, ReleaseProblem, check_release, compare_releases, newest as newest_release,
};
pub use wire::WireName;
