//! The wire names of the core's own enums (see `model::wire`): match kinds, stages, outcomes,
//! mapping tiers, query forms, release diffs.

use super::diff::ChangeKind;
use super::mapping::{Cardinality, Conflict, ObjectStatus, RankTier};
use super::query::{QueryDataset, QueryForm, TermKind};
use super::{HeldAs, MatchKind, Outcome, ReleaseOrigin, Stage};
use crate::model::WireName;
use crate::model::wire::wire_names;

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

wire_names!(Stage, "stage" {
    Identifier => "identifier",
    ExactName => "exact_name",
    NameVariant => "name_variant",
    CorpusName => "corpus_name",
    ViaMapping => "via_mapping",
    NearSpelling => "near_spelling",
    FullText => "full_text",
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
