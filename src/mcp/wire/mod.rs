//! The one place where the core's states become wire values (as rust-analyzer's `to_proto`).
//!
//! Every state an answer carries is an enum in the core until a [`Tag`] names it here, with an
//! exhaustive match per enum: a new variant does not compile until it has a wire name. A
//! tag's JSON schema lists its enum's names, so the published schemas never drift from the
//! enums (`tests::every_wire_value_appears_in_the_published_schemas` holds them to it).

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Serialize, Serializer};

use crate::model::{
    ConceptKind, ConceptStatus, EvidenceOrigin, LabelKind, LinkKind, SemanticGroup,
};
use crate::resolve::diff::ChangeKind;
use crate::resolve::mapping::{Cardinality, Conflict, ObjectStatus, RankTier};
use crate::resolve::query::{QueryDataset, QueryForm, TermKind};
use crate::resolve::{HeldAs, MatchKind, Outcome, ReleaseOrigin, ResolveStep, Stage};

/// A state with a name on the wire.
pub trait WireName {
    /// Every name the enum can take, in declaration order.
    const NAMES: &'static [&'static str];
    /// The title its schema carries.
    const TITLE: &'static str;
    fn wire_name(&self) -> &'static str;
}

/// One value's wire name, typed by the enum it came from so that its schema lists the
/// enum's names. Built only by [`Tag::of`].
pub struct Tag<T: ?Sized>(&'static str, PhantomData<fn() -> T>);

impl<T: WireName + ?Sized> Tag<T> {
    pub fn of(value: &T) -> Self {
        Tag(value.wire_name(), PhantomData)
    }

    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl<T: ?Sized> Clone for Tag<T> {
    fn clone(&self) -> Self {
        Tag(self.0, PhantomData)
    }
}

impl<T: ?Sized> std::fmt::Debug for Tag<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl<T: ?Sized> PartialEq<&str> for Tag<T> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl<T: ?Sized> Serialize for Tag<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<T: WireName + ?Sized> JsonSchema for Tag<T> {
    fn schema_name() -> Cow<'static, str> {
        T::TITLE.into()
    }

    // Inline: a `$ref` per use costs more than the few names it would share.
    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": T::NAMES })
    }
}

/// `impl WireName` with one exhaustive match; `{ .. }` patterns fit unit, tuple and struct
/// variants alike.
macro_rules! wire_names {
    ($ty:ident, $title:literal { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl WireName for $ty {
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

wire_names!(MatchKind, "match_kind" {
    Identifier => "identifier",
    AltId => "alt_id",
    Label => "label",
    ApprovedSymbol => "approved_symbol",
    ApprovedName => "approved_name",
    EntryTerm => "entry_term",
    ExactSynonym => "exact_synonym",
    AltLabel => "alt_label",
    AliasSymbol => "alias_symbol",
    PreviousSymbol => "previous_symbol",
    NarrowSynonym => "narrow_synonym",
    BroadSynonym => "broad_synonym",
    RelatedSynonym => "related_synonym",
    HiddenLabel => "hidden_label",
    Notation => "notation",
    ViaMapping => "via_mapping",
    NameVariant => "name_variant",
    FormerLabel => "former_label",
    CorpusName => "corpus_name",
    NearSpelling => "near_spelling",
    BroaderViaMapping => "broader_via_mapping",
    SharedNarrower => "shared_narrower",
    FullText => "full_text",
});

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

wire_names!(Stage, "stage" {
    Identifier => "identifier",
    ExactName => "exact_name",
    NameVariant => "name_variant",
    CorpusName => "corpus_name",
    ViaMapping => "via_mapping",
    NearSpelling => "near_spelling",
    FullText => "full_text",
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

wire_names!(Outcome, "outcome" {
    Found => "found",
    Obsolete => "obsolete",
    NotInLoadedSources => "not_in_loaded_sources",
    NotInRelease => "not_in_release",
    Malformed => "malformed",
    UnknownPrefix => "unknown_prefix",
    Ambiguous => "ambiguous_input",
});

wire_names!(RankTier, "rank_tier" {
    CuratedAsserted => "curated_asserted",
    OntologyXref => "ontology_xref",
    OtherAsserted => "other_asserted",
    Predicted => "predicted",
    Inferred => "inferred",
});

wire_names!(Cardinality, "cardinality" {
    OneToOne => "1:1",
    OneToMany => "1:n",
    ManyToOne => "n:1",
    ManyToMany => "n:n",
});

wire_names!(Conflict, "conflict_kind" {
    SeveralExact => "several_exact_in_namespace",
    AssertedAndNegated => "asserted_and_negated",
});

wire_names!(EvidenceOrigin, "evidence_origin" {
    MappingSet => "mapping_set",
    SourceXref => "source_xref",
});

wire_names!(TermKind, "term_type" {
    Iri => "uri",
    Literal => "literal",
    BlankNode => "bnode",
    Triple => "triple",
});

wire_names!(QueryForm, "query_form" {
    Select => "select",
    Ask => "ask",
    Construct => "construct",
    Describe => "describe",
});

wire_names!(QueryDataset, "default_graph" {
    UnionDefaultGraph => "union_of_named_graphs",
    Declared => "from",
});

wire_names!(ReleaseOrigin, "release_origin" {
    File => "file",
    Catalogue => "catalogue",
    Unknown => "unknown",
});

/// A mapping target's status: a concept's own status, or `not_loaded` when no loaded source
/// holds it. Written by hand: an obsolete target's name depends on its concept's status.
impl WireName for ObjectStatus {
    const NAMES: &'static [&'static str] = &["current", "obsolete", "withdrawn", "not_loaded"];
    const TITLE: &'static str = "object_status";
    fn wire_name(&self) -> &'static str {
        match self {
            ObjectStatus::Current { .. } => "current",
            ObjectStatus::Obsolete { status, .. } => status.wire_name(),
            ObjectStatus::NotLoaded => "not_loaded",
        }
    }
}

/// Resolution steps as an answer says them: one sentence each.
pub fn steps(steps: &[ResolveStep]) -> Vec<String> {
    steps.iter().map(ToString::to_string).collect()
}

pub use super::tools::ErrorCode;

wire_names!(HeldAs, "held_as" {
    Live => "live",
    Obsolete => "obsolete",
    Absent => "absent",
});

wire_names!(ChangeKind, "change_type" {
    NodeCreation => "NodeCreation",
    NodeDeletion => "NodeDeletion",
    NodeRename => "NodeRename",
    NodeObsoletion => "NodeObsoletion",
    NodeObsoletionWithDirectReplacement => "NodeObsoletionWithDirectReplacement",
    NodeDirectMerge => "NodeDirectMerge",
    NodeUnobsoletion => "NodeUnobsoletion",
    NewSynonym => "NewSynonym",
    RemoveSynonym => "RemoveSynonym",
    SynonymPredicateChange => "SynonymPredicateChange",
    PlaceUnder => "PlaceUnder",
    RemoveUnder => "RemoveUnder",
    NewTextDefinition => "NewTextDefinition",
    RemoveTextDefinition => "RemoveTextDefinition",
    TextDefinitionReplacement => "TextDefinitionReplacement",
    NewMapping => "NewMapping",
    RemoveMapping => "RemoveMapping",
});

wire_names!(ErrorCode, "error_code" {
    InvalidArgument => "invalid_argument",
    LimitExceeded => "limit_exceeded",
    MalformedIdentifier => "malformed_identifier",
    UnknownPrefix => "unknown_prefix",
    UnknownSource => "unknown_source",
    UnknownRelease => "unknown_release",
    AmbiguousInput => "ambiguous_input",
    InvalidCursor => "invalid_cursor",
    InvalidQuery => "invalid_query",
    ReadOnlyQuery => "read_only_query",
    Timeout => "timeout",
    RateLimited => "rate_limited",
    QueryFailed => "query_failed",
    IndexDamaged => "index_damaged",
    InternalError => "internal_error",
    Unauthorized => "unauthorized",
    ParseError => "parse_error",
});

#[cfg(test)]
mod tests;
