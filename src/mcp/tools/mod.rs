//! The tools' logic: each takes arguments and the resolver and returns an envelope or a tool
//! error. No rmcp types here, so the logic is testable on its own. One file per question:
//! `identifier` (what is this identifier?), `find` (which concepts have this name?), `concept`
//! (what is known about it, what is loaded?); this file holds what they share.

mod changes;
mod concept;
mod find;
mod identifier;
mod mapping;
mod mapping_batch;
mod passage;
mod prefix;
mod query;
mod schema;

pub use changes::what_changed;
pub use concept::{detail, get_concept, list_sources, source_info};
pub use find::find_concepts;
pub use identifier::resolve_identifier;
pub use mapping::{
    MAP_PAGE, map_identifier, mapping_set_document, mapping_set_entries, mappings_document,
};
pub use mapping_batch::map_identifiers;
pub use passage::ground_passage;
pub use prefix::{prefix_document, prefix_info, prefix_resource_uri};
pub use query::sparql_query;
pub use schema::describe_schema;

use crate::model::WireName;
use serde_json::{Value, json};

use super::dto::*;
use crate::model::Concept;
use crate::model::Prefixes;
use crate::resolve::SourceRecord;
use crate::resolve::{Chain, ChainStep, Outcome, Resolver};

/// What kind of error a tool answered; its wire name is in `mcp::wire`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// An argument is empty or out of its range.
    InvalidArgument,
    /// An input is larger than the tool accepts.
    LimitExceeded,
    MalformedIdentifier,
    UnknownPrefix,
    UnknownSource,
    /// A pinned release (`@2025-02-04`, `release`) that is not loaded.
    UnknownRelease,
    /// A bare local id fits several prefixes.
    AmbiguousInput,
    InvalidCursor,
    /// A SPARQL query that does not parse.
    InvalidQuery,
    /// A SPARQL update, or a query that calls SERVICE.
    ReadOnlyQuery,
    Timeout,
    RateLimited,
    QueryFailed,
    /// Part of the index could not be read: never "no match".
    IndexDamaged,
    InternalError,
    /// HTTP without the server's token (a protocol error, never a tool's).
    Unauthorized,
    /// An HTTP body that is not JSON (a protocol error, never a tool's).
    ParseError,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 17] = [
        ErrorCode::InvalidArgument,
        ErrorCode::LimitExceeded,
        ErrorCode::MalformedIdentifier,
        ErrorCode::UnknownPrefix,
        ErrorCode::UnknownSource,
        ErrorCode::UnknownRelease,
        ErrorCode::AmbiguousInput,
        ErrorCode::InvalidCursor,
        ErrorCode::InvalidQuery,
        ErrorCode::ReadOnlyQuery,
        ErrorCode::Timeout,
        ErrorCode::RateLimited,
        ErrorCode::QueryFailed,
        ErrorCode::IndexDamaged,
        ErrorCode::InternalError,
        ErrorCode::Unauthorized,
        ErrorCode::ParseError,
    ];
}

/// A tool input error: a code, what went wrong and what to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
    pub next_step: String,
    /// Structured facts behind the error (pattern, example, suggestions, steps), or null.
    pub details: Value,
}

impl ToolError {
    /// The message is cut to what an error can afford wherever it is shown (an answer, a
    /// page, a resource error): it may quote the caller's input.
    pub fn new(code: ErrorCode, message: String, next_step: impl Into<String>) -> Self {
        ToolError {
            code,
            message: crate::mcp::echo::error_text(&message),
            next_step: next_step.into(),
            details: Value::Null,
        }
    }

    /// The error answer: code, message, next step, details and the echoed input, never
    /// larger than [`crate::mcp::echo::MAX_ERROR_BYTES`] whatever the input (long texts are cut, and
    /// details that would not fit are left out and said to be).
    pub fn to_json(&self, query: &Value) -> Value {
        use crate::mcp::echo;
        let mut error = json!({
            "code": self.code.wire_name(),
            "message": echo::error_text(&self.message),
            "next_step": echo::error_text(&self.next_step),
        });
        let query = echo::input(query);
        if let (Some(map), Value::Object(details)) = (error.as_object_mut(), &self.details) {
            map.extend(
                details
                    .iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), echo::input(v))),
            );
        }
        let answer = json!({ "error": error, "query": query });
        if answer.to_string().len() <= echo::MAX_ERROR_BYTES {
            return answer;
        }
        // Too large even cut: the code, the texts and how big the input was.
        let mut error = json!({
            "code": self.code.wire_name(),
            "message": echo::error_text(&self.message).chars().take(600).collect::<String>(),
            "next_step": echo::error_text(&self.next_step).chars().take(600).collect::<String>(),
            "details_omitted": true,
        });
        if let Some(map) = error.as_object_mut() {
            map.retain(|_, v| !v.is_null());
        }
        json!({ "error": error, "query": { "bytes": query.to_string().len() } })
    }
}

/// The answer when part of the index cannot be read: an error, never "no match". The damage
/// is logged; it names the file, never the request.
pub(super) fn index_damaged(error: &dyn std::fmt::Display) -> ToolError {
    tracing::error!("index damaged: {error}");
    damaged_answer()
}

/// Every core failure reaches a caller as `index_damaged`: the index or store could not be
/// read, so no answer is given rather than a partial one.
impl From<crate::resolve::ResolveError> for ToolError {
    fn from(error: crate::resolve::ResolveError) -> ToolError {
        index_damaged(&error)
    }
}

/// The error of [`index_damaged`] without logging, for a caller that logged it already.
pub fn damaged_answer() -> ToolError {
    ToolError::new(
        ErrorCode::IndexDamaged,
        "part of the index could not be read, so the answer would be incomplete".into(),
        "Do not treat this as no match. Tell whoever runs the server; rebuilding the index repairs it.",
    )
}

/// Where a page starts: the offset a cursor of this build and question points at, or 0.
pub(super) fn page_offset(
    r: &Resolver,
    cursor: Option<&str>,
    scope: &str,
) -> Result<usize, ToolError> {
    match cursor {
        None => Ok(0),
        Some(c) => crate::mcp::cursor::decode(c, &r.manifest().build_id, scope).map_err(|e| {
            ToolError::new(ErrorCode::InvalidCursor, e.message().into(), e.next_step())
        }),
    }
}

pub const DEFAULT_LIMIT: u32 = 10;
pub const MAX_LIMIT: u32 = 100;
pub(super) const MAX_CHILDREN: usize = 100;
pub const MAX_TEXT_BYTES: usize = 1000;

pub(super) fn source_release(s: &SourceRecord) -> SourceRelease {
    SourceRelease {
        id: s.id.clone(),
        release: s.release.clone(),
    }
}

/// The prefix registry's release, for answers that normalized an identifier with it.
pub(super) fn registry_release(r: &Resolver) -> Option<SourceRelease> {
    r.manifest()
        .registry
        .source
        .as_ref()
        .map(|s| SourceRelease {
            id: s.id.clone(),
            release: s.release.clone(),
        })
}

pub(super) fn all_sources(r: &Resolver) -> Vec<SourceRelease> {
    r.manifest().sources.iter().map(source_release).collect()
}

/// Summaries of concepts, and the (distinct) source releases they come from.
pub(super) fn summaries(
    r: &Resolver,
    concepts: impl Iterator<Item = Concept>,
) -> (Vec<ConceptSummary>, Vec<SourceRelease>) {
    let concepts: Vec<Concept> = concepts.collect();
    let summaries: Vec<ConceptSummary> = concepts.iter().map(|c| summary(r, c)).collect();
    // Each concept's own release: a pinned answer names the release it came from.
    let mut sources: Vec<SourceRelease> = Vec::new();
    for record in concepts.iter().filter_map(|c| r.source_of(c)) {
        if !sources
            .iter()
            .any(|s| s.id == record.id && s.release == record.release)
        {
            sources.push(source_release(record));
        }
    }
    (summaries, sources)
}

/// A loaded source's id with its release.
pub(super) fn release_of(r: &Resolver, source: &str) -> SourceRelease {
    SourceRelease {
        id: source.to_string(),
        release: r
            .manifest()
            .source(source)
            .map(|s| s.release.clone())
            .unwrap_or_default(),
    }
}

/// A concept as a listing shows it, from its whole record or its head.
pub fn summary<'a>(r: &Resolver, c: impl Into<crate::model::Shown<'a>>) -> ConceptSummary {
    let c = c.into();
    let source = r.manifest().sources.get(c.source.slot());
    ConceptSummary {
        name: Named {
            iri: unexpanded_iri(r, c.curie, c.iri),
            curie: c.curie.map(str::to_string),
            label: c.preferred_label().map(|l| l.text.clone()),
        },
        source: source.map(|s| s.id.clone()).unwrap_or_default(),
        status: Tag::of(&c.status),
        kind: Tag::of(&c.kind),
    }
}

/// The IRI, when the CURIE does not already give it through the registry's expansion (or
/// there is no CURIE): an answer never repeats what a client can expand.
pub(super) fn unexpanded_iri(r: &Resolver, curie: Option<&str>, iri: &str) -> Option<String> {
    match curie {
        Some(curie) if r.registry().expand(curie).as_deref() == Some(iri) => None,
        _ => Some(iri.to_string()),
    }
}

/// How to name an IRI: the concept's CURIE and label when it is loaded, else the CURIE the
/// prefix map gives; the IRI only when that CURIE does not expand to it.
pub(super) fn named(r: &Resolver, iri: &str, found: Option<&Concept>) -> Named {
    let curie = found
        .and_then(|c| c.curie.clone())
        .or_else(|| r.registry().compress(iri));
    Named {
        iri: unexpanded_iri(r, curie.as_deref(), iri),
        curie,
        label: found.and_then(|c| c.preferred_label().map(|l| l.text.clone())),
    }
}

/// Every replacement chain, each with the live concept it ends at.
pub(super) fn chains(r: &Resolver, chains: &[Chain]) -> Result<Vec<ReplacementChain>, ToolError> {
    chains
        .iter()
        .map(|chain| {
            let end = chain.live_end().map(|id| r.concept(id)).transpose()?;
            Ok(ReplacementChain {
                hops: hops(r, &chain.steps)?,
                ends_at: end.map(|c| c.curie.unwrap_or(c.iri)),
                cycle: chain.cycle,
            })
        })
        .collect()
}

pub(super) fn hops(r: &Resolver, chain: &[ChainStep]) -> Result<Vec<ChainHop>, ToolError> {
    chain
        .iter()
        .map(|step| {
            let c = step.concept.map(|id| r.concept(id)).transpose()?;
            Ok(ChainHop {
                name: named(r, &step.iri, c.as_ref()),
                loaded: c.is_some(),
                obsolete: step.obsolete,
            })
        })
        .collect()
}

impl Resolution {
    fn new(
        outcome: Tag<Outcome>,
        message: String,
        next_step: &str,
        concepts: Vec<ConceptSummary>,
    ) -> Self {
        Resolution {
            outcome,
            message,
            next_step: Some(next_step.into()),
            concepts,
            replacements: Vec::new(),
            consider: Vec::new(),
            alt_id_of: Vec::new(),
            sources_for_prefix: Vec::new(),
            loaded_sources_for_prefix: Vec::new(),
            prefix: None,
            resolver_url: None,
            readings: Vec::new(),
            releases: Vec::new(),
        }
    }
}

/// A pin or source filter the core could not follow, as the tool error an agent can act on.
pub(super) fn pin_error(error: &crate::resolve::PinError) -> ToolError {
    use crate::resolve::PinError;
    let (code, next_step) = match error {
        PinError::NotLoaded { .. } => (
            ErrorCode::UnknownRelease,
            "Pin one of the loaded releases, or leave the release out for the current one.",
        ),
        PinError::UnknownSource { .. } => (
            ErrorCode::UnknownSource,
            "Call list_sources for the source ids.",
        ),
        PinError::NothingAfterAt | PinError::Invalid { .. } | PinError::Conflict { .. } => (
            ErrorCode::InvalidArgument,
            "Write a release as a date or version after '@' (MONDO:0000030@2025-02-04), or leave it out.",
        ),
    };
    let mut tool_error = ToolError::new(code, error.to_string(), next_step);
    if let PinError::NotLoaded { loaded, .. } = error {
        tool_error.details = serde_json::json!({ "loaded_releases": loaded });
    }
    tool_error
}
