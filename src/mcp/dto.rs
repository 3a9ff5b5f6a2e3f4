//! Wire types: what tools return and take, serialized with serde and described with schemars.
//! Tool answers are built from these, their states named by `wire`; three resource bodies
//! still serialize registry and manifest records directly (`PrefixRecord`,
//! `MappingSetRecord`, `InputFile`).

pub use super::dto_changes::*;
pub use super::dto_mapping::*;
pub use super::dto_passage::*;
pub use super::dto_query::*;
pub(super) use super::echo::{is_empty_object, is_false, is_zero, sig3_opt};
pub use super::wire::Tag;
use crate::model::{ConceptKind, ConceptStatus, LabelKind, LinkKind, SemanticGroup};
use crate::resolve::{MatchKind, Outcome, ReleaseOrigin, Stage};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn is_current(status: &Tag<ConceptStatus>) -> bool {
    *status == "current"
}

fn is_class(kind: &Tag<ConceptKind>) -> bool {
    *kind == "class"
}

/// Serializes an echoed input: what the caller set, long values cut (`echo::input`).
fn echoed_input<S: serde::Serializer>(v: &serde_json::Value, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&super::echo::input(v), s)
}

/// Every tool result has this shape.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Envelope<T> {
    /// What was asked, how it was read, and which filters and defaults were applied.
    pub query: QueryEcho,
    /// How many results exist in all (for full-text readings, how many were ranked; the
    /// cursor ranks more).
    pub total: u64,
    /// How many are in this answer.
    pub returned: u64,
    /// Whether `total` exceeds `returned` (absent when it does not).
    #[serde(skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// How to get the rest when truncated (for `find_concepts`, also the full-text readings
    /// a name matched as typed left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// The id and release of each source consulted; answers that normalized an identifier
    /// also name the prefix registry's release.
    pub sources: Vec<SourceRelease>,
    /// The build id of the index that answered.
    pub index: String,
    /// A SPARQL query over the RDF store that reproduces this answer.
    pub sparql: String,
    /// What to try next when the answer is empty, or how to read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    pub result: T,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct QueryEcho {
    /// The arguments the caller set; a long string as its first 256 characters and its
    /// length in bytes, a long list as its first 20 items and its count.
    #[serde(serialize_with = "echoed_input")]
    pub input: serde_json::Value,
    /// The input after normalization.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub normalized: String,
    /// Every step normalization took (case folding, prefix recognition, trimming).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<String>,
    /// Filters in force, with their values (an empty list is left out: no filter).
    #[serde(
        skip_serializing_if = "is_empty_object",
        serialize_with = "echoed_input"
    )]
    pub filters: serde_json::Value,
    /// Defaults that were applied because an argument was omitted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub defaults_applied: Vec<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SourceRelease {
    pub id: String,
    pub release: String,
}

/// How an answer names a concept or an IRI: its CURIE, its IRI unless the CURIE expands to it
/// through the registry (read the prefix resource), and its label when loaded.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct Named {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curie: Option<String>,
    /// Absent when the CURIE expands to it through the registry (read its prefix resource).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iri: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A concept in brief.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ConceptSummary {
    #[serde(flatten)]
    pub name: Named,
    /// The source id; its release is in the answer's `sources` (and a concept record's
    /// `release`).
    pub source: String,
    /// `obsolete` or `withdrawn` (a gene symbol or entry its authority withdrew); absent
    /// when current.
    #[serde(skip_serializing_if = "is_current")]
    pub status: Tag<ConceptStatus>,
    /// `concept` (SKOS), `descriptor`, `supplementary_record`, `qualifier` or `gene`; absent
    /// for an ontology class.
    #[serde(skip_serializing_if = "is_class")]
    pub kind: Tag<ConceptKind>,
}

/// One replacement of an obsolete concept, followed hop by hop.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReplacementChain {
    pub hops: Vec<ChainHop>,
    /// The live, loaded concept the chain ends at (its CURIE), if it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<String>,
    /// The chain came back to a concept it had passed.
    #[serde(skip_serializing_if = "is_false")]
    pub cycle: bool,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ChainHop {
    #[serde(flatten)]
    pub name: Named,
    /// Whether the concept is in the loaded sources.
    pub loaded: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub obsolete: bool,
}

/// The answer of `resolve_identifier`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Resolution {
    /// `found`, `obsolete`, `not_in_loaded_sources` or `ambiguous_input` (malformed input and
    /// unknown prefixes are tool errors with codes `malformed_identifier` and `unknown_prefix`).
    pub outcome: Tag<Outcome>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_step: Option<String>,
    /// The concepts with this identifier (one per source that holds it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub concepts: Vec<ConceptSummary>,
    /// For an obsolete concept: every replacement, each followed to a live concept when one is
    /// loaded. Several chains mean several replacements: none is preferred.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<ReplacementChain>,
    /// For an obsolete concept: alternatives it says to consider.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consider: Vec<String>,
    /// Live concepts that also list this identifier as an alternative id.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alt_id_of: Vec<ConceptSummary>,
    /// Catalogued sources that declare the identifier's prefix, loaded or not.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources_for_prefix: Vec<String>,
    /// Of those, the ones loaded in this index.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loaded_sources_for_prefix: Vec<String>,
    /// The identifier's prefix as the registry knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<PrefixInfo>,
    /// Where the Bioregistry resolves the identifier (for `not_in_loaded_sources`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolver_url: Option<String>,
    /// For `ambiguous_input`: every prefix the bare local id could belong to.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readings: Vec<ReadingDto>,
    /// Where several releases are loaded: each, and how it holds the identifier.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub releases: Vec<ReleaseHeld>,
}

/// A prefix in brief; `resource` reads the whole registry record.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PrefixInfo {
    /// The canonical prefix, in its preferred capitalisation.
    pub prefix: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The regular expression local ids match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub deprecated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    /// Where the registry says the whole resource can be downloaded: what a source for this
    /// prefix would load.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<String>,
    /// `ontoresolve://prefix/{prefix}`.
    pub resource: String,
}

/// One reading of a bare local id.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReadingDto {
    pub curie: String,
    /// The concept, when a loaded source has this reading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concept: Option<ConceptSummary>,
}

/// One candidate of `find_concepts`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Candidate {
    pub concept: ConceptSummary,
    /// What kind of thing the concept is, from its source's structure (MeSH tree category,
    /// the catalogue's group for MONDO or HPO, genes for a gene table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<Tag<SemanticGroup>>,
    /// How the name matched, which is also the rank tier. An alias or previous symbol may
    /// belong to several genes; via_mapping: another concept has the name and maps to this
    /// one (see `via`); name_variant: matched after the name rules (plural, inverted heading,
    /// spelling, head word).
    pub match_kind: Tag<MatchKind>,
    /// Whether the matched text equals the input in letter case too (gene symbols are
    /// case-significant); absent when case differed.
    #[serde(skip_serializing_if = "is_false")]
    pub case_exact: bool,
    /// For an obsolete or withdrawn concept: the live concepts its replacements lead to
    /// (several means choose by meaning).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replaced_by: Vec<String>,
    /// For near spellings: the edit distance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u8>,
    /// The text that matched, when it is not the concept's label, with its language tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_lang: Option<String>,
    /// For via_mapping: the concept whose name matched and the mapping that led here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
    /// For corpus_name: the training corpus that wrote this name for the concept (see the
    /// server instructions for its citation) and how many of its mentions did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learned_from: Option<LearnedFrom>,
    /// The estimated probability that this is the concept the text names: a logistic model
    /// over the match's features, fitted and calibrated on the NCBI-disease and BC5CDR
    /// training sets (the server instructions and docs/tools.md say how), so that among
    /// candidates stated at c about c are right. It also orders candidates within a match
    /// kind, and among guesses (near spellings, broader concepts, full text).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "sig3_opt")]
    pub confidence: Option<f64>,
    /// The features that weighed most, each with its share of the log-odds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
}

/// Where a corpus name was learned.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LearnedFrom {
    pub corpus: String,
    pub mentions: u32,
}

/// The mapping a via_mapping or broader_via_mapping candidate was reached by: a curated or
/// source-stated skos:exactMatch unless `predicate` says otherwise (map_identifier gives the
/// full evidence).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Via {
    /// The concept whose name matched.
    pub identifier: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub match_kind: Tag<MatchKind>,
    /// The mapping's predicate when it is no exact match: `skos:broadMatch` for a broader
    /// candidate (one the matched concept's record states, as MeSH's meshv:preferredMappedTo
    /// does, or an ancestor's exact match).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicate: Option<String>,
    /// For a chain of exact matches: the identifiers between, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub through: Vec<String>,
    /// Who asserted it: the catalogue ids of the mapping sets or sources (their releases are
    /// in the answer's `sources`), with the justification.
    pub asserted_by: Vec<ViaAssertion>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ViaAssertion {
    /// Catalogue id of the mapping set or source (see ontoresolve://mapping-set/{id}).
    pub source: String,
    /// The set's own id, for a mapping set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping_set_id: Option<String>,
    pub justification: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Candidates {
    pub candidates: Vec<Candidate>,
    /// Whether the name matched more than one distinct entity: pick by match_kind and
    /// source, never by position alone (absent when it did not).
    #[serde(skip_serializing_if = "is_false")]
    pub ambiguous: bool,
    /// How many distinct concepts matched (after the filters).
    pub distinct_concepts: u64,
    /// How many distinct entities they are: concepts of several sources joined by an
    /// exact-match cross-reference (HGNC:11998 and NCBIGene:7157) count once.
    pub distinct_entities: u64,
    /// Obsolete matches left out (include_obsolete=false).
    #[serde(skip_serializing_if = "is_zero")]
    pub obsolete_hidden: u64,
    /// The stages run, in order; their candidates are merged and ranked by match kind.
    pub stages_tried: Vec<Tag<Stage>>,
    /// The stages that gave listed candidates.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages_matched: Vec<Tag<Stage>>,
    /// Stages not run, each with why (full text beside an exact name; near spellings when
    /// the name matched as typed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages_skipped: Vec<String>,
    /// The input was read as an abbreviation or symbol: case-exact matches rank first.
    #[serde(skip_serializing_if = "is_false")]
    pub abbreviation: bool,
    /// The name matched more concepts than are followed through mappings: some via_mapping
    /// candidates may be missing (narrow with sources or a more specific name).
    #[serde(skip_serializing_if = "is_false")]
    pub via_limited: bool,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LabelDto {
    pub text: String,
    pub kind: Tag<LabelKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

/// A definition, with its language tag.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DefinitionDto {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LinkDto {
    #[serde(flatten)]
    pub name: Named,
    /// `sub_class_of`, `broader`, or for MeSH `broader_descriptor` (by tree number).
    pub relation: Tag<LinkKind>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct XrefDto {
    pub target: String,
    /// The predicate as a CURIE: oboInOwl:hasDbXref (an unqualified cross-reference, not an
    /// equivalence), skos:exactMatch, skos:closeMatch, skos:broadMatch, skos:narrowMatch,
    /// skos:relatedMatch, RO:0002205 (has gene product), RO:HOM0000017 (ortholog),
    /// meshv:preferredMappedTo or meshv:mappedTo.
    pub predicate: String,
    /// A MeSH qualifier that came with the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    /// Who asserted it, and in which release.
    pub source: String,
    pub release: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ConceptDetail {
    pub concept: ConceptSummary,
    /// The release of the concept's source.
    pub release: String,
    /// Where several releases are loaded: each, and how it holds the concept.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub releases: Vec<ReleaseHeld>,
    pub labels: Vec<LabelDto>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<DefinitionDto>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<LinkDto>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<LinkDto>,
    #[serde(skip_serializing_if = "is_zero")]
    pub children_total: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub xrefs: Vec<XrefDto>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alt_ids: Vec<String>,
    /// MeSH tree numbers (a descriptor can sit in several trees).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tree_numbers: Vec<String>,
    /// A gene's locus type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locus_type: Option<String>,
    /// A gene's taxon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taxon: Option<String>,
    /// Every replacement of an obsolete concept, each followed to a live concept.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<ReplacementChain>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consider: Vec<String>,
    /// The named graph holding the concept's triples.
    pub graph: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SourceInfo {
    pub id: String,
    pub title: String,
    pub release: String,
    /// `file` (see `release_statement`), `catalogue` or `unknown`.
    pub release_origin: Tag<ReleaseOrigin>,
    /// An older release: the current one. Pin this one with `id@release`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// For a release the file states: the property that states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release_statement: Option<String>,
    pub concepts: u64,
    pub obsolete: u64,
    pub triples: u64,
    pub license: String,
    pub scope: String,
    pub homepage: String,
    pub graph: String,
    pub resource: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SourceList {
    pub sources: Vec<SourceInfo>,
    /// The prefix registry identifiers are normalized with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registry: Option<RegistryInfo>,
    /// Catalogue sources not loaded, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_loaded: Vec<NotLoaded>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RegistryInfo {
    pub id: String,
    pub title: String,
    pub release: String,
    pub license: String,
    /// Prefix records (Bioregistry prefixes plus the catalogue's own).
    pub prefixes: u64,
    pub uri_prefixes: u64,
    pub patterns: u64,
    /// Read any prefix's record here.
    pub resource_template: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct NotLoaded {
    pub id: String,
    pub reason: String,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IdentifierArgs {
    /// A CURIE (HP:0000118, mesh:D009203), an IRI or an OBO id (HP_0000118), in any case
    /// and prefix synonym; `@release` pins one (MONDO:0000030@2025-02-04).
    pub identifier: String,
    /// Answer from this loaded release. Default: the current one.
    #[serde(default)]
    pub release: Option<String>,
}

/// A loaded release of the concept's source and how it holds the identifier.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReleaseHeld {
    pub release: String,
    pub held: Tag<crate::resolve::HeldAs>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub current: bool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// The name to look for, e.g. "Abnormality of body height".
    pub text: String,
    /// Candidates only from these source ids (`id@release` pins an older release); names
    /// are still read from every source. Default: all, current releases.
    #[serde(default)]
    pub sources: Option<Vec<String>>,
    /// Include obsolete concepts. Default: false (they are counted, not listed).
    #[serde(default)]
    pub include_obsolete: Option<bool>,
    /// At most this many candidates, 1 to 100. Default: 10.
    #[serde(default)]
    pub limit: Option<u32>,
    /// The previous page's `cursor` (paging, not a filter). After a name matched as typed,
    /// the next page adds its full-text readings.
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct NoArgs {}
