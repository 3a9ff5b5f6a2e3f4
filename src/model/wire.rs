//! Wire names: the one table where each state the core answers with gets the name every
//! adapter writes (MCP, pages, the OLS API, the CLI), as rust-analyzer's `to_proto`. An
//! exhaustive match per enum, so a new variant does not compile until it has a name; the MCP
//! adapter's schemas list these names (`mcp::wire`). The core's own enums are named in
//! `resolve::wire`.

use super::{ConceptKind, ConceptStatus, EvidenceOrigin, LabelKind, LinkKind, SemanticGroup};

/// A state with a name on the wire.
pub trait WireName {
    /// Every name the enum can take, in declaration order.
    const NAMES: &'static [&'static str];
    /// The title its schema carries.
    const TITLE: &'static str;
    fn wire_name(&self) -> &'static str;
}

/// `impl WireName` with one exhaustive match; `{ .. }` patterns fit unit, tuple and struct
/// variants alike.
macro_rules! wire_names {
    ($ty:ident, $title:literal { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $crate::model::WireName for $ty {
            const NAMES: &'static [&'static str] = &[$($name),+];
            const TITLE: &'static str = $title;
            fn wire_name(&self) -> &'static str {
                match self {
                    $($ty::$variant { .. } => $name),+
                }
            }
        }
    };
}
pub(crate) use wire_names;

wire_names!(SemanticGroup, "group" {
    Disease => "disease",
    Phenotype => "phenotype",
    Chemical => "chemical",
    Gene => "gene",
    Anatomy => "anatomy",
    Organism => "organism",
    Procedure => "procedure",
    Phenomenon => "phenomenon",
    Other => "other",
});

wire_names!(ConceptStatus, "status" {
    Current => "current",
    Obsolete => "obsolete",
    Withdrawn => "withdrawn",
});

wire_names!(ConceptKind, "concept_kind" {
    Class => "class",
    Concept => "concept",
    Descriptor => "descriptor",
    SupplementaryRecord => "supplementary_record",
    Qualifier => "qualifier",
    Gene => "gene",
});

wire_names!(LabelKind, "label_kind" {
    PrefLabel => "pref_label",
    Label => "label",
    AltLabel => "alt_label",
    HiddenLabel => "hidden_label",
    Notation => "notation",
    ExactSynonym => "exact_synonym",
    RelatedSynonym => "related_synonym",
    BroadSynonym => "broad_synonym",
    NarrowSynonym => "narrow_synonym",
    ApprovedSymbol => "approved_symbol",
    AliasSymbol => "alias_symbol",
    PreviousSymbol => "previous_symbol",
    ApprovedName => "approved_name",
    EntryTerm => "entry_term",
});

wire_names!(LinkKind, "relation" {
    SubClassOf => "sub_class_of",
    Broader => "broader",
    BroaderDescriptor => "broader_descriptor",
});

wire_names!(EvidenceOrigin, "evidence_origin" {
    MappingSet => "mapping_set",
    SourceXref => "source_xref",
});
