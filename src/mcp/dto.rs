//! Wire types: what tools return and take, serialized with serde and described with schemars.
//! Domain types never cross the wire directly.

pub use super::dto_mapping::*;
pub use super::dto_query::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every tool result has this shape.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Envelope<T> {
    /// What was asked, how it was read, and which filters and defaults were applied.
    pub query: QueryEcho,
    /// How many results exist in all.
    pub total: u64,
    /// How many are in this answer.
    pub returned: u64,
    /// Whether `total` exceeds `returned`.
    pub truncated: bool,
    /// How to get the rest when truncated.
    pub cursor: Option<String>,
    /// The id and release of each source consulted; answers that normalized an identifier
    /// also name the prefix registry's release.
    pub sources: Vec<SourceRelease>,
    /// The build id of the index that answered.
    pub index: String,
    /// A SPARQL query over the RDF store that reproduces this answer.
    pub sparql: String,
    /// What to try next when the answer is empty.
    pub suggestion: Option<String>,
    pub result: T,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct QueryEcho {
    /// The arguments as received.
    pub input: serde_json::Value,
    /// The input after normalization.
    pub normalized: String,
    /// Every step normalization took (case folding, prefix recognition, trimming).
    pub steps: Vec<String>,
    /// Filters in force, with their values.
    pub filters: serde_json::Value,
    /// Defaults that were applied because an argument was omitted.
    pub defaults_applied: Vec<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SourceRelease {
    pub id: String,
    pub release: String,
}

/// A concept in brief.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ConceptSummary {
    pub iri: String,
    pub curie: Option<String>,
    pub label: Option<String>,
    pub source: String,
    pub release: String,
    pub obsolete: bool,
    /// `current`, `obsolete` or `withdrawn` (a gene symbol or entry its authority withdrew).
    #[schemars(extend("enum" = ["current", "obsolete", "withdrawn"]))]
    pub status: String,
    /// `class`, `concept`, `descriptor`, `supplementary_record`, `qualifier` or `gene`.
    #[schemars(extend("enum" = ["class", "concept", "descriptor", "supplementary_record", "qualifier", "gene"]))]
    pub kind: String,
}

/// One replacement of an obsolete concept, followed hop by hop.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReplacementChain {
    pub hops: Vec<ChainHop>,
    /// The live, loaded concept the chain ends at (its CURIE), if it does.
    pub ends_at: Option<String>,
    /// The chain came back to a concept it had passed.
    pub cycle: bool,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ChainHop {
    pub iri: String,
    pub curie: Option<String>,
    pub label: Option<String>,
    /// Whether the concept is in the loaded sources.
    pub loaded: bool,
    pub obsolete: bool,
}

/// The answer of `resolve_identifier`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Resolution {
    /// `found`, `obsolete`, `not_in_loaded_sources` or `ambiguous_input` (malformed input and
    /// unknown prefixes are tool errors with codes `malformed_identifier` and `unknown_prefix`).
    pub outcome: String,
    pub message: String,
    pub next_step: Option<String>,
    /// The concepts with this identifier (one per source that holds it).
    pub concepts: Vec<ConceptSummary>,
    /// For an obsolete concept: every replacement, each followed to a live concept when one is
    /// loaded. Several chains mean several replacements: none is preferred.
    pub replacements: Vec<ReplacementChain>,
    /// For an obsolete concept: alternatives it says to consider.
    pub consider: Vec<String>,
    /// Live concepts that also list this identifier as an alternative id.
    pub alt_id_of: Vec<ConceptSummary>,
    /// Catalogued sources that declare the identifier's prefix, loaded or not.
    pub sources_for_prefix: Vec<String>,
    /// Of those, the ones loaded in this index.
    pub loaded_sources_for_prefix: Vec<String>,
    /// The identifier's prefix as the registry knows it.
    pub prefix: Option<PrefixInfo>,
    /// Where the Bioregistry resolves the identifier (for `not_in_loaded_sources`).
    pub resolver_url: Option<String>,
    /// For `ambiguous_input`: every prefix the bare local id could belong to.
    pub readings: Vec<ReadingDto>,
}

/// A prefix in brief; `resource` reads the whole registry record.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PrefixInfo {
    /// The canonical prefix, in its preferred capitalisation.
    pub prefix: String,
    pub name: Option<String>,
    /// The regular expression local ids match.
    pub pattern: Option<String>,
    pub example: Option<String>,
    pub deprecated: bool,
    pub homepage: Option<String>,
    /// Where the registry says the whole resource can be downloaded: what a source for this
    /// prefix would load.
    pub downloads: Vec<String>,
    /// `ontoresolve://prefix/{prefix}`.
    pub resource: String,
}

/// One reading of a bare local id.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReadingDto {
    pub curie: String,
    /// The concept, when a loaded source has this reading.
    pub concept: Option<ConceptSummary>,
}

/// One candidate of `find_concepts`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Candidate {
    pub concept: ConceptSummary,
    /// The stage that matched.
    #[schemars(extend("enum" = ["identifier", "exact_label", "synonym", "via_mapping", "name_variant", "fuzzy", "full_text"]))]
    pub match_type: String,
    /// How the name matched, which is also the rank tier. An alias or previous symbol may
    /// belong to several genes; via_mapping: another concept has the name and maps to this
    /// one (see `via`); name_variant: matched after the name rules (plural, inverted heading,
    /// spelling, head word).
    #[schemars(extend("enum" = ["identifier", "alt_id", "label", "approved_symbol", "approved_name", "entry_term", "exact_synonym", "alt_label", "alias_symbol", "previous_symbol", "narrow_synonym", "broad_synonym", "related_synonym", "hidden_label", "notation", "via_mapping", "name_variant", "near_spelling", "full_text"]))]
    pub match_kind: String,
    /// Whether the matched text equals the input in letter case too (gene symbols are
    /// case-significant).
    pub case_exact: bool,
    /// For an obsolete or withdrawn concept: the live concepts its replacements lead to
    /// (several means choose by meaning).
    pub replaced_by: Vec<String>,
    /// For fuzzy matches: the edit distance.
    pub distance: Option<u8>,
    /// The text that matched, with its language tag.
    pub matched_text: Option<String>,
    pub matched_lang: Option<String>,
    /// For via_mapping: the concept whose name matched and the mapping that led here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
    pub score: Score,
}

/// The mapping a via_mapping candidate was reached by.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Via {
    /// The concept whose name matched.
    pub identifier: String,
    pub label: Option<String>,
    pub match_kind: String,
    /// Always skos:exactMatch.
    pub predicate: String,
    /// Who asserted it (map_identifier gives the full evidence).
    pub asserted_by: Vec<ViaAssertion>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ViaAssertion {
    /// Catalogue id of the mapping set or source.
    pub source: String,
    pub mapping_set_id: Option<String>,
    pub release: String,
    pub justification: String,
}

/// A score broken into its parts; `total` orders candidates.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Score {
    pub total: f64,
    /// Weight of the match kind: identifier 1.0, label or approved symbol 0.95, approved name
    /// 0.93, entry term or exact synonym 0.9, alt label 0.88, alias symbol 0.85, previous
    /// symbol 0.82, narrow or broad synonym 0.8, related synonym 0.75, via mapping 0.74, name
    /// variant 0.72, near spelling 0.7, full text up to 0.5.
    pub match_type: f64,
    /// Subtracted per edit for fuzzy matches (0.1 per edit).
    pub distance_penalty: f64,
    /// Subtracted when the match ignored letter case (0.01).
    pub case_penalty: f64,
    /// The full-text relevance (BM25), when the match came from full text.
    pub text_relevance: Option<f64>,
    /// The score in words.
    pub basis: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Candidates {
    pub candidates: Vec<Candidate>,
    /// Whether the name matched more than one distinct entity: pick by match_kind and
    /// source, never by position alone.
    pub ambiguous: bool,
    /// How many distinct concepts matched (after the filters).
    pub distinct_concepts: u64,
    /// How many distinct entities they are: concepts of several sources joined by an
    /// exact-match cross-reference (HGNC:11998 and NCBIGene:7157) count once.
    pub distinct_entities: u64,
    /// Obsolete matches left out (include_obsolete=false).
    pub obsolete_hidden: u64,
    /// The stages run, in order; their candidates are merged and ranked by match kind.
    pub stages_tried: Vec<String>,
    /// The stages that gave listed candidates.
    pub stages_matched: Vec<String>,
    /// The input was read as an abbreviation or symbol: case-exact matches rank first.
    pub abbreviation: bool,
    /// The name matched more concepts than are followed through mappings: some via_mapping
    /// candidates may be missing (narrow with sources or a more specific name).
    pub via_limited: bool,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LabelDto {
    pub text: String,
    pub kind: String,
    pub lang: Option<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LinkDto {
    pub iri: String,
    pub curie: Option<String>,
    pub label: Option<String>,
    /// `sub_class_of` or `broader`.
    pub relation: String,
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
    pub qualifier: Option<String>,
    /// Who asserted it, and in which release.
    pub source: String,
    pub release: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ConceptDetail {
    pub concept: ConceptSummary,
    pub labels: Vec<LabelDto>,
    pub definitions: Vec<LabelDto>,
    pub parents: Vec<LinkDto>,
    pub children: Vec<LinkDto>,
    pub children_total: u64,
    pub xrefs: Vec<XrefDto>,
    pub alt_ids: Vec<String>,
    /// MeSH tree numbers (a descriptor can sit in several trees).
    pub tree_numbers: Vec<String>,
    /// A gene's locus type.
    pub locus_type: Option<String>,
    /// A gene's taxon.
    pub taxon: Option<String>,
    /// Every replacement of an obsolete concept, each followed to a live concept.
    pub replacements: Vec<ReplacementChain>,
    pub consider: Vec<String>,
    /// The named graph holding the concept's triples.
    pub graph: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SourceInfo {
    pub id: String,
    pub title: String,
    pub release: String,
    /// `file` (with the statement) or `catalogue`.
    pub release_origin: String,
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
    pub registry: Option<RegistryInfo>,
    /// Catalogue sources not loaded, and why.
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
    /// A CURIE (HP:0000118, mesh:D009203, NCBIGene:7157), an IRI
    /// (http://purl.obolibrary.org/obo/HP_0000118, https://identifiers.org/mesh:D009203) or an
    /// OBO-style id (HP_0000118); any letter case and any Bioregistry prefix synonym.
    pub identifier: String,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// The name to look for, e.g. "Abnormality of body height".
    pub text: String,
    /// Candidates only from these source ids (see list_sources); names are still looked up
    /// in every source and followed through mappings. Default: all.
    #[serde(default)]
    pub sources: Option<Vec<String>>,
    /// Include obsolete concepts. Default: false (they are counted, not listed).
    #[serde(default)]
    pub include_obsolete: Option<bool>,
    /// At most this many candidates, 1 to 100. Default: 10.
    #[serde(default)]
    pub limit: Option<u32>,
    /// The previous page's `cursor` (paging, not a filter).
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct NoArgs {}
