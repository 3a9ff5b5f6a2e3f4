//! Wire shapes of `sparql_query` and `describe_schema`.

use std::collections::BTreeMap;

use super::wire::Tag;
use crate::resolve::query::{QueryDataset, QueryForm, TermKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SparqlArgs {
    /// A read-only SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE), e.g. the `sparql` of another answer.
    pub query: String,
    /// At most this many rows, 1 to 1000. Default: 100.
    #[serde(default)]
    pub limit: Option<u32>,
    /// The previous page's `cursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One RDF term, as in the SPARQL 1.1 JSON results format.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TermDto {
    #[serde(rename = "type")]
    pub kind: Tag<TermKind>,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub datatype: Option<String>,
    #[serde(rename = "xml:lang", skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// The answer of `sparql_query`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct QueryResultDto {
    pub form: Tag<QueryForm>,
    /// Column names; CONSTRUCT and DESCRIBE give subject, predicate, object.
    pub variables: Vec<String>,
    /// One object per row: variable -> term; unbound variables are absent.
    pub rows: Vec<BTreeMap<String, TermDto>>,
    /// ASK's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boolean: Option<bool>,
    /// The row cap applied.
    pub row_cap: u32,
    /// More rows existed than the cap allowed.
    #[serde(skip_serializing_if = "super::echo::is_false")]
    pub cap_hit: bool,
    /// Whether `total` counts every row (counting past the cap stops at 100,000 rows or the deadline).
    pub total_exact: bool,
    /// The deadline applied, in milliseconds.
    pub timeout_ms: u64,
    /// The graphs the query ran on.
    pub dataset: DatasetDto,
    /// When nothing was found: the query's IRIs that occur in no triple, each with the IRI
    /// it most likely meant.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub absent_iris: Vec<AbsentIriDto>,
}

/// The dataset a query ran on.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DatasetDto {
    /// `union_of_named_graphs` (no FROM: the default graph merges every source's graph, and
    /// GRAPH still selects one) or `from` (the query's FROM and FROM NAMED).
    pub default_graph: Tag<QueryDataset>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from_named: Vec<String>,
}

/// An IRI of the query that no triple uses.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct AbsentIriDto {
    pub iri: String,
    /// The loaded concept's IRI it most likely meant (another letter case, or a CURIE
    /// written inside `<…>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meant: Option<String>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemaArgs {
    /// Only this source id (see list_sources). Default: every source.
    // Mirrored into an `Mcp-Param-Source` header (SEP-2243), so that a gateway in front of
    // replicas can route by source without reading the body. Sent as a plain string: a null
    // would not fit a header.
    #[serde(default)]
    #[schemars(with = "String", extend("x-mcp-header" = "Source"))]
    pub source: Option<String>,
}

/// An IRI in use with how many triples use it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct IriCount {
    pub iri: String,
    pub count: u64,
}

/// One named graph of the store.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct GraphSchema {
    /// The source id, or the mapping set id for a mapping graph.
    pub source: String,
    pub release: String,
    pub graph: String,
    pub triples: u64,
    /// rdf:type objects with how many subjects have them.
    pub classes: Vec<IriCount>,
    pub predicates: Vec<IriCount>,
}

/// A query that runs on this index, and what it asks.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ExampleQuery {
    pub question: String,
    pub sparql: String,
}

/// The answer of `describe_schema`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SchemaDto {
    /// How queries see the graphs: without FROM the default graph is their union.
    pub default_graph: String,
    pub graphs: Vec<GraphSchema>,
    /// Three queries for sparql_query, each tested against this index.
    pub examples: Vec<ExampleQuery>,
}
