//! Explicit SPARQL from a caller: the question "run this query" answered read-only, with a row
//! cap and a deadline. The store module checks and runs the query; this module owns the
//! limits every adapter applies.

use std::time::Duration;

use super::{Outcome, ResolveError, Resolver};
use crate::store::{QueryRows, parse_read_only};

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

impl Resolver {
    /// Runs a read-only query on this build's store, skipping `offset` rows, keeping at most
    /// `limit` (clamped to [`MAX_QUERY_ROWS`]) and stopping it after `timeout`.
    pub fn run_query(
        &self,
        text: &str,
        offset: usize,
        limit: usize,
        timeout: Duration,
    ) -> Result<QueryAnswer, QueryError> {
        let query = parse_read_only(text)?;
        let form = query.form;
        let row_cap = limit.clamp(1, MAX_QUERY_ROWS);
        let rows = self
            .store()?
            .run_read_only(query, offset, row_cap, timeout)?;
        let absent = rows
            .absent_iris
            .iter()
            .map(|iri| AbsentIri {
                meant: self.meant_iri(iri),
                iri: iri.clone(),
            })
            .collect();
        Ok(QueryAnswer {
            form,
            rows,
            row_cap,
            timeout,
            absent,
        })
    }

    /// The loaded concept an IRI no triple uses most likely stands for: the registry reads it
    /// as an identifier (`hp_0000118` for `HP_0000118`, `HP:0000118` written inside `<…>`).
    fn meant_iri(&self, iri: &str) -> Option<String> {
        let (_, outcome) = self.resolve_identifier(iri).ok()?;
        let concept = match outcome {
            Outcome::Found(matches) => matches.first()?.concept,
            Outcome::Obsolete { concept, .. } => concept,
            _ => return None,
        };
        let found = self.concept(concept)?.iri;
        (found != iri).then_some(found)
    }
}
