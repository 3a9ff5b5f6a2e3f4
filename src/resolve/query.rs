//! Explicit SPARQL from a caller: the question "run this query" answered read-only, with a row
//! cap and a deadline. The store module checks and runs the query; this module owns the
//! limits every adapter applies.

use std::time::Duration;

use super::ResolveError;
use crate::store::QueryRows;

pub use crate::store::{
    AnswerTerm, MAX_COUNTED_ROWS, MAX_QUERY_BYTES, QueryDataset, QueryFailure, QueryForm,
    QueryRefusal, TermKind,
};

/// Rows returned when the caller names no limit.
pub const DEFAULT_QUERY_ROWS: usize = 100;
/// The most rows one answer may carry.
pub const MAX_QUERY_ROWS: usize = 1000;
/// How long a query may run before it is stopped.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(5);

/// Why an explicit query gave no rows.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    #[error(transparent)]
    Refused(#[from] QueryRefusal),
    #[error(transparent)]
    Failed(#[from] QueryFailure),
    #[error(transparent)]
    Unavailable(#[from] ResolveError),
}

/// A query's answer with the limits that shaped it.
#[derive(Debug)]
pub struct QueryAnswer {
    pub form: QueryForm,
    pub rows: QueryRows,
    pub row_cap: usize,
    pub timeout: Duration,
    /// When nothing was found: each IRI of the query that occurs in no triple, with the
    /// loaded concept's IRI it most likely meant when the registry reads it as an identifier.
    pub absent: Vec<AbsentIri>,
}

/// An IRI a query matched against that no triple uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbsentIri {
    pub iri: String,
    /// The IRI of the loaded concept it reads as (another case, a CURIE written as `<…>`).
    pub meant: Option<String>,
}
