//! Wire shapes of the mapping tools (`map_identifier`, `map_identifiers`) and resources.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::echo::{is_false, is_zero, sig3_opt};
use super::wire::Tag;
use crate::model::EvidenceOrigin;
use crate::resolve::Outcome;
use crate::resolve::mapping::{Cardinality, Conflict, ObjectStatus, RankTier};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapArgs {
    /// The identifier to map, in any spelling resolve_identifier accepts (MONDO:0005148,
    /// mesh:D003924, `http://identifiers.org/hgnc/11998`).
    pub identifier: String,
    /// Only candidates in these vocabularies, as prefixes (MESH, DOID, OMIM). Default: all.
    #[serde(default)]
    pub targets: Option<Vec<String>>,
    /// Include mappings inferred by chaining (at most 2 hops). Default: true; marked
    /// `inferred`, ranked last.
    #[serde(default)]
    pub include_inferred: Option<bool>,
    /// Include predicted and undecided mappings. Default: false (they are counted in
    /// `predicted_hidden`).
    #[serde(default)]
    pub include_predicted: Option<bool>,
    /// The previous page's `cursor` (paging, not a filter).
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapBatchArgs {
    /// Up to 1,000 identifiers, each mapped as map_identifier would.
    pub identifiers: Vec<String>,
    /// Only candidates in these vocabularies, as prefixes. Default: all.
    #[serde(default)]
    pub targets: Option<Vec<String>>,
    /// Include inferred mappings. Default: true.
    #[serde(default)]
    pub include_inferred: Option<bool>,
    /// Include predicted mappings. Default: false (counted).
    #[serde(default)]
    pub include_predicted: Option<bool>,
}

/// One statement behind a mapping: who said it, how, and in which release.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EvidenceDto {
    /// `mapping_set` (a row of an SSSOM or gilda set) or `source_xref` (a cross-reference
    /// inside a loaded source).
    pub origin: Tag<EvidenceOrigin>,
    /// The catalogue id of the set or source (see ontoresolve://mapping-set/{id}).
    pub source: String,
    /// The set's own id (an IRI for MONDO's sets); none for a source xref. Its version is in
    /// ontoresolve://mapping-set/{source}, its release in the answer's `sources`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping_set_id: Option<String>,
    /// The semapv justification, as a CURIE.
    pub justification: String,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "sig3_opt")]
    pub confidence: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub author_id: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reviewer_id: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping_tool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping_date: Option<String>,
    /// The predicate as the source wrote it, when it is read as another (MeSH mapped-to is
    /// a skos:broadMatch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_predicate: Option<String>,
    /// The set is predictions or undecided rows.
    #[serde(skip_serializing_if = "is_false")]
    pub predicted: bool,
    /// The row's line in the set's file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// One hop of an inferred mapping.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct HopDto {
    pub subject: String,
    /// The predicate in the chain's direction, as a CURIE.
    pub predicate: String,
    pub object: String,
    /// The statements say object → subject; the hop reads them backwards.
    #[serde(skip_serializing_if = "is_false")]
    pub inverted: bool,
    /// How the hop joins the chain (`asserted`, `inversion of skos:narrowMatch`,
    /// `skos:exactMatch ∘ skos:exactMatch = skos:exactMatch`).
    pub rule: String,
    pub evidence: Vec<EvidenceDto>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MappingCandidate {
    /// Position in the ranking, from 1.
    pub rank: u64,
    /// The target, as a normalized CURIE.
    pub object: String,
    /// Its label in its own source, when that source is loaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_label: Option<String>,
    /// `current`, `obsolete`, `withdrawn` or `not_loaded` (no loaded source holds it).
    pub object_status: Tag<ObjectStatus>,
    /// Live replacements of an obsolete target.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub object_replaced_by: Vec<String>,
    /// The predicate from the subject's side, as a CURIE (skos:exactMatch, skos:broadMatch,
    /// oboInOwl:hasDbXref, ...). hasDbXref says only "cross-referenced", never "the same".
    pub predicate: String,
    /// The best justification among the statements; semapv:MappingChaining when inferred.
    pub justification: String,
    /// Stated confidence (1−∏(1−p) over statements), or the derived one of an inferred
    /// mapping (lower with every hop).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "sig3_opt")]
    pub confidence: Option<f64>,
    /// For exact matches: 1:1, 1:n (the subject has several exact targets in that
    /// vocabulary), n:1 (the target is the exact match of several identifiers of the
    /// subject's vocabulary) or n:n; predictions are not counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cardinality: Option<Tag<Cardinality>>,
    pub rank_tier: Tag<RankTier>,
    #[serde(skip_serializing_if = "is_false")]
    pub inferred: bool,
    /// Asserted with the subject as the statements' object (read backwards).
    #[serde(skip_serializing_if = "is_false")]
    pub inverted: bool,
    /// An inferred mapping's hops, each with its evidence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<HopDto>,
    /// Further paths to the same target with the same predicate.
    #[serde(skip_serializing_if = "is_zero")]
    pub other_paths: u64,
    /// One entry per statement of an asserted mapping.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<EvidenceDto>,
}

/// A statement that the subject does NOT match the object.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct NegativeDto {
    pub object: String,
    pub predicate: String,
    /// Always `Not`.
    pub predicate_modifier: String,
    pub evidence: Vec<EvidenceDto>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ConflictDto {
    pub kind: Tag<Conflict>,
    pub objects: Vec<String>,
    pub message: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BlockedDto {
    pub object: String,
    pub predicate: String,
    /// The identifiers the blocked chain went through.
    pub via: Vec<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Mappings {
    /// The identifier mapped, as a normalized CURIE.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject_label: Option<String>,
    /// What the identifier is: found, obsolete or not_in_loaded_sources (mappings may name
    /// identifiers of sources that are not loaded).
    pub subject_status: Tag<Outcome>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subject_replaced_by: Vec<String>,
    pub message: String,
    pub candidates: Vec<MappingCandidate>,
    /// `Not` statements about the subject: contradicting evidence, never candidates.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub negatives: Vec<NegativeDto>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<ConflictDto>,
    /// Inferred mappings a negative statement blocked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocked_inferences: Vec<BlockedDto>,
    /// Sets that looked and found nothing for the subject (sssom:NoTermFound).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmapped_in: Vec<EvidenceDto>,
    #[serde(skip_serializing_if = "is_zero")]
    pub predicted_hidden: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub inferred_hidden: u64,
    /// The chain search stopped early (a hub identifier); say so rather than cut silently.
    #[serde(skip_serializing_if = "is_false")]
    pub inference_limited: bool,
}

/// One target of one identifier in a batch answer.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CompactCandidate {
    pub object: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_label: Option<String>,
    pub object_status: Tag<ObjectStatus>,
    pub predicate: String,
    pub justification: String,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "sig3_opt")]
    pub confidence: Option<f64>,
    pub rank_tier: Tag<RankTier>,
    #[serde(skip_serializing_if = "is_false")]
    pub inferred: bool,
    /// For exact matches: 1:1, 1:n, n:1 or n:n.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cardinality: Option<Tag<Cardinality>>,
    /// The catalogue ids of the sets and sources that state it (or each hop's, inferred).
    pub sources: Vec<String>,
    /// The identifiers an inferred mapping goes through.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MappingRow {
    pub input: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    pub outcome: Tag<Outcome>,
    /// Why the row has no mapping, when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The first 50, as map_identifier's first page.
    pub candidates: Vec<CompactCandidate>,
    /// All candidates; map_identifier pages past 50.
    pub candidates_total: u64,
    /// Objects of `Not` statements about the identifier.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub negatives: Vec<String>,
    #[serde(skip_serializing_if = "is_zero")]
    pub conflicts: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub predicted_hidden: u64,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MappingRows {
    pub rows: Vec<MappingRow>,
    /// Rows with at least one candidate.
    pub mapped: u64,
}
