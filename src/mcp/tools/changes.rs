//! "What changed between releases?": `what_changed` shapes the core's release diff, for one
//! term or for a whole source a page at a time.

use crate::model::WireName;
use std::collections::BTreeMap;

use serde_json::json;

use super::*;
use crate::mcp::dto::*;
use crate::resolve::diff::{Change, DiffError, ReleasePair};
use crate::resolve::{Resolver, sparql};

/// Changes per page of a whole-source answer.
const PAGE: usize = 100;

pub fn what_changed(r: &Resolver, args: &ChangesArgs) -> Result<Envelope<Changes>, ToolError> {
    let input = json!({ "identifier": args.identifier, "source": args.source, "from": args.from, "to": args.to, "cursor": args.cursor });
    let (about, source) = match (&args.identifier, &args.source) {
        (Some(identifier), source) => {
            let (iri, source_of_id) = term_of(r, identifier)?;
            (Some(iri), source.clone().unwrap_or(source_of_id))
        }
        (None, Some(source)) => (None, source.clone()),
        (None, None) => {
            return Err(ToolError::new(
                ErrorCode::InvalidArgument,
                "name an identifier or a source".into(),
                "Pass identifier (one term's changes) or source (a whole source's, paged).",
            ));
        }
    };
    let pair = r
        .release_pair(&source, args.from.as_deref(), args.to.as_deref())
        .map_err(|e| diff_error(&e))?;
    let (older, newer) = r.pair_graphs(&pair);
    let all = match &about {
        Some(iri) => r.diff_concept(&pair, iri)?.into(),
        None => r.diff_source(&pair).map_err(|e| index_damaged(&e))?,
    };
    let scope = format!(
        "what_changed\u{0}{source}\u{0}{}\u{0}{}\u{0}{about:?}",
        pair.from, pair.to
    );
    let start = page_offset(r, args.cursor.as_deref(), &scope)?.min(all.len());
    let end = (start + PAGE).min(all.len());
    let sparql = match &about {
        Some(iri) => sparql::releases_side_by_side(iri, (&older, &pair.from), (&newer, &pair.to)),
        None => {
            let terms = page_terms(&all[start..end]);
            let terms: Vec<&str> = terms.iter().map(String::as_str).collect();
            sparql::terms_side_by_side(&terms, (&older, &pair.from), (&newer, &pair.to))
        }
    };
    let more = end < all.len();
    let empty = all.is_empty();
    Ok(Envelope {
        query: QueryEcho {
            input,
            normalized: about.clone().unwrap_or_default(),
            steps: Vec::new(),
            filters: json!({ "source": source, "from": pair.from, "to": pair.to }),
            defaults_applied: defaults(args),
        },
        total: all.len() as u64,
        returned: (end - start) as u64,
        truncated: more,
        cursor: more.then(|| crate::mcp::cursor::encode(&r.manifest().build_id, &scope, end)),
        sources: pair_sources(&pair),
        index: r.manifest().build_id.clone(),
        sparql,
        suggestion: (empty && about.is_some()).then(|| {
            format!(
                "No change between {} and {}: the term is the same in both, or neither holds it (resolve_identifier lists the releases that do).",
                pair.from, pair.to
            )
        }),
        result: Changes {
            summary: summary(&all),
            changes: all[start..end].iter().map(change_dto).collect(),
            source: pair.source,
            from: pair.from,
            to: pair.to,
        },
    })
}

/// The IRIs of the terms a page of changes is about, each once, in page order.
fn page_terms(changes: &[Change]) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for change in changes {
        if !terms.contains(&change.about_iri) {
            terms.push(change.about_iri.clone());
        }
    }
    terms
}

/// The IRI of the term an identifier names, and the source whose releases hold it.
fn term_of(r: &Resolver, identifier: &str) -> Result<(String, String), ToolError> {
    let (normalized, outcome) = r
        .resolve_identifier(identifier)
        .map_err(|e| index_damaged(&e))?;
    if let Some(error) = super::identifier::identifier_error(&outcome, &normalized) {
        return Err(error);
    }
    let not_here = || {
        ToolError::new(
            ErrorCode::UnknownSource,
            format!("no loaded source holds '{identifier}'"),
            "Call resolve_identifier for what it is, or pass source.",
        )
    };
    let iri = normalized.iri.clone().ok_or_else(not_here)?;
    let prefix = normalized
        .curie
        .as_deref()
        .and_then(|c| c.split_once(':'))
        .map(|(p, _)| p.to_string());
    let hit = prefix.and_then(|p| r.registry().spelling(&p));
    let record = hit.and_then(|h| r.registry().record(h.record));
    let sources: Vec<&String> = record
        .map(|rec| {
            rec.sources
                .iter()
                .filter(|s| r.manifest().source(s).is_some())
                .collect()
        })
        .unwrap_or_default();
    // The source with several releases loaded, when the prefix has one.
    let source = sources
        .iter()
        .find(|s| r.manifest().releases(s).count() > 1)
        .or(sources.first())
        .ok_or_else(not_here)?;
    Ok((iri, source.to_string()))
}

fn defaults(args: &ChangesArgs) -> Vec<String> {
    let mut out = Vec::new();
    if args.to.is_none() {
        out.push("to=current".into());
    }
    if args.from.is_none() {
        out.push("from=the release before to".into());
    }
    out
}

fn pair_sources(pair: &ReleasePair) -> Vec<SourceRelease> {
    [&pair.from, &pair.to]
        .into_iter()
        .map(|release| SourceRelease {
            id: pair.source.clone(),
            release: release.clone(),
        })
        .collect()
}

fn summary(changes: &[Change]) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for c in changes {
        *out.entry(c.kind.wire_name().to_string()).or_insert(0) += 1;
    }
    out
}

fn change_dto(c: &Change) -> ChangeDto {
    ChangeDto {
        kind: Tag::of(&c.kind),
        about_node: c.about_node.clone(),
        old_value: c.old_value.clone(),
        new_value: c.new_value.clone(),
        has_direct_replacement: c.has_direct_replacement.clone(),
        consider: c.consider.clone(),
    }
}

fn diff_error(error: &DiffError) -> ToolError {
    let (code, next_step) = match error {
        DiffError::UnknownSource { .. } => (
            ErrorCode::UnknownSource,
            "Call list_sources for the source ids and releases.",
        ),
        DiffError::UnknownRelease { .. } => (
            ErrorCode::UnknownRelease,
            "Name loaded releases, or leave from and to out for the two newest.",
        ),
        DiffError::SameRelease { .. }
        | DiffError::NoEarlier { .. }
        | DiffError::OneRelease { .. } => (
            ErrorCode::InvalidArgument,
            "Compare two different loaded releases; list_sources lists them.",
        ),
    };
    ToolError::new(code, error.to_string(), next_step)
}
