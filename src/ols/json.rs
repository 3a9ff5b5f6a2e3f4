//! OLS's v1 JSON, typed: a term, an ontology and its config, a HAL page, a Solr response and
//! an error, with the field names OLS4's assemblers write. Nothing else in the adapter
//! writes JSON keys.

use std::collections::BTreeMap;

use serde::Serialize;

/// A link: `{"href": …}`.
#[derive(Clone, Debug, Serialize)]
pub struct Href {
    pub href: String,
}

/// Links by name (`self`, `parents`, …), in name order.
pub type Links = BTreeMap<String, Href>;

/// A term (or property, or individual) as OLS's v1 API gives it.
#[derive(Clone, Debug, Serialize)]
pub struct Term {
    pub iri: String,
    pub lang: String,
    pub description: Vec<String>,
    pub synonyms: Vec<String>,
    /// Other annotations, keyed by the property's label: what OLS lists beside the fields.
    pub annotation: BTreeMap<String, Vec<String>>,
    pub label: String,
    pub ontology_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ontology_prefix: Option<String>,
    pub ontology_iri: String,
    pub is_obsolete: bool,
    /// OLS's single replacement; every replacement is in `annotation` under
    /// "term replaced by".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term_replaced_by: Option<String>,
    pub is_defining_ontology: bool,
    pub has_children: bool,
    pub is_root: bool,
    pub short_form: String,
    pub obo_id: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub obo_xref: Vec<OboXref>,
    /// Terms only: properties and individuals have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_preferred_root: Option<bool>,
    #[serde(rename = "_links")]
    pub links: Links,
}

/// An OBO cross-reference, split at its prefix.
#[derive(Clone, Debug, Serialize)]
pub struct OboXref {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An ontology: its load status, counts and configuration.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ontology {
    pub languages: Vec<String>,
    pub lang: String,
    pub ontology_id: String,
    pub status: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub load_attempts: u32,
    pub number_of_terms: u64,
    pub number_of_properties: u64,
    pub number_of_individuals: u64,
    pub config: OntologyConfig,
    pub base_uris: Vec<String>,
    #[serde(rename = "_links")]
    pub links: Links,
}

/// What OLS's loader config says of an ontology; absent texts are left out.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OntologyConfig {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version_iri: Option<String>,
    pub namespace: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preferred_prefix: Option<String>,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub creators: Vec<String>,
    pub annotations: BTreeMap<String, Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_location: Option<String>,
    pub obo_slims: bool,
    pub label_property: &'static str,
    pub definition_properties: Vec<&'static str>,
    pub synonym_properties: Vec<&'static str>,
    pub hierarchical_properties: Vec<String>,
    pub base_uris: Vec<String>,
    pub hidden_properties: Vec<String>,
    pub preferred_root_terms: Vec<String>,
    pub is_skos: bool,
    pub allow_download: bool,
}

/// Spring's page counters.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageInfo {
    pub size: u64,
    pub total_elements: u64,
    pub total_pages: u64,
    pub number: u64,
}

/// A HAL page: its items under `_embedded.{key}` (left out when there are none, as Spring
/// does), its links and counters.
#[derive(Clone, Debug, Serialize)]
pub struct Page<T: Serialize> {
    #[serde(rename = "_embedded", skip_serializing_if = "Option::is_none")]
    pub embedded: Option<BTreeMap<&'static str, Vec<T>>>,
    #[serde(rename = "_links")]
    pub links: Links,
    pub page: PageInfo,
}

/// A Solr-shaped search answer.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Solr<D: Serialize> {
    pub response_header: SolrHeader,
    pub response: SolrResponse<D>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SolrHeader {
    pub status: u8,
    #[serde(rename = "QTime")]
    pub q_time: u64,
    pub params: BTreeMap<&'static str, String>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SolrResponse<D: Serialize> {
    pub num_found: u64,
    pub start: u64,
    pub docs: Vec<D>,
}

/// One search hit, with the fields OLS returns by default.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SearchDoc {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub iri: String,
    pub short_form: String,
    pub obo_id: String,
    pub label: String,
    pub description: Vec<String>,
    pub ontology_name: String,
    pub ontology_prefix: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Said only of an obsolete term (listed when `obsoletes=true`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_obsolete: bool,
    /// How sure the match is: the same calibrated probability `find_concepts` gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
}

/// One suggestion.
#[derive(Clone, Debug, Serialize)]
pub struct Suggestion {
    pub autosuggest: String,
}

/// OLS's error body.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub status: u16,
    pub message: String,
}
