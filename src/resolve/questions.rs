//! The questions the core answers, as the adapters ask them: each is a short-lived context
//! type over the resolver's readers (a name search, a passage scan, a mapping walk, a release
//! diff, an identifier's resolution), and these are their doors.

use std::sync::Arc;

use super::diff::{Change, DiffError, ReleaseDiff, ReleasePair};
use super::identifier::{Chain, IdentifierResolution, Normalized, Outcome};
use super::mapping::{MapAnswer, MapError, MapOptions, MappingWalk, ObjectStatus};
use super::passage::{PassageGrounding, PassageQuery, PassageScan};
use super::query::{AbsentIri, MAX_QUERY_ROWS, QueryAnswer, QueryError};
use super::search::NameSearcher;
use super::{NameQuery, NameSearch, PinError, ResolveError, Resolver};
use crate::model::{Concept, Evidence};
use crate::store::parse_read_only;
use std::time::Duration;

impl Resolver {
    /// Every candidate for a name: identifiers, names, name variants, via mapping, corpus
    /// names, near spellings, full text; ranked by match kind, then confidence
    /// (`NameSearcher`).
    pub fn find_by_name(&self, query: &NameQuery) -> Result<NameSearch, ResolveError> {
        NameSearcher::new(self).find_by_name(query)
    }

    /// The concepts a passage mentions, each span with its candidates, and the spans the model
    /// doubts apart (`PassageScan`).
    pub fn ground_passage(&self, query: &PassageQuery) -> Result<PassageGrounding, ResolveError> {
        PassageScan::new(self).ground_passage(query)
    }

    /// Every mapping of an identifier to other vocabularies, direct and inferred, with its
    /// evidence (`MappingWalk`).
    pub fn map_identifier(&self, text: &str, options: &MapOptions) -> Result<MapAnswer, MapError> {
        MappingWalk::new(self).map_identifier(text, options)
    }

    /// Whether a mapping's object is loaded, and current (`MappingWalk::object_status`).
    pub fn object_status(&self, curie: &str) -> Result<ObjectStatus, ResolveError> {
        MappingWalk::new(self).object_status(curie)
    }

    /// Whether this evidence was predicted (a matcher's, not a curator's).
    pub fn evidence_predicted(&self, evidence: &Evidence) -> bool {
        MappingWalk::new(self).evidence_predicted(evidence)
    }

    /// Two loaded releases of a source to compare: `to` defaults to the current one, `from`
    /// to the one before it (`ReleaseDiff`).
    pub fn release_pair(
        &self,
        source: &str,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<ReleasePair, DiffError> {
        ReleaseDiff::new(self).release_pair(source, from, to)
    }

    /// The named graphs of the pair's releases, older first.
    pub fn pair_graphs(&self, pair: &ReleasePair) -> (String, String) {
        ReleaseDiff::new(self).pair_graphs(pair)
    }

    /// Every change between the pair's releases, in IRI order; computed once per pair.
    pub fn diff_source(&self, pair: &ReleasePair) -> Result<Arc<[Change]>, ResolveError> {
        ReleaseDiff::new(self).diff_source(pair)
    }

    /// One term's changes between the pair's releases.
    pub fn diff_concept(&self, pair: &ReleasePair, iri: &str) -> Result<Vec<Change>, ResolveError> {
        ReleaseDiff::new(self).diff_concept(pair, iri)
    }

    /// Normalizes an identifier and says what it identifies (`IdentifierResolution`). An
    /// error only when a concept the index matched cannot be read: damage is never "not
    /// found".
    pub fn resolve_identifier(&self, text: &str) -> Result<(Normalized, Outcome), ResolveError> {
        IdentifierResolution::new(self).resolve_identifier(text)
    }

    /// [`Self::resolve_identifier`] with a release pinned by the text or by `release`; a pin
    /// that cannot be followed is the inner error, naming the loaded releases.
    pub fn resolve_identifier_in(
        &self,
        text: &str,
        release: Option<&str>,
    ) -> Result<Result<(Normalized, Outcome), PinError>, ResolveError> {
        IdentifierResolution::new(self).resolve_identifier_in(text, release)
    }

    /// Every replaced_by chain of an obsolete concept, each to a live concept, a concept
    /// outside the loaded sources, a dead end or a cycle.
    pub fn replacement_chains(&self, start: &Concept) -> Result<Vec<Chain>, ResolveError> {
        IdentifierResolution::new(self).replacement_chains(start)
    }

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
        let absent = (rows.absent_iris.iter())
            .map(|iri| {
                Ok(AbsentIri {
                    meant: IdentifierResolution::new(self).meant_iri(iri)?,
                    iri: iri.clone(),
                })
            })
            .collect::<Result<_, ResolveError>>()?;
        Ok(QueryAnswer {
            form,
            rows,
            row_cap,
            timeout,
            absent,
        })
    }
}
