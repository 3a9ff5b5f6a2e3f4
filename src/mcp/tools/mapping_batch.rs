//! `map_identifiers`: map_identifier for a list, in compact rows, every input in order.

use std::collections::BTreeSet;

use serde_json::json;

use super::mapping::{
    MAP_PAGE, best_justification, damaged, options, releases, round3, status_parts, subject_error,
    suggestion,
};
use super::*;
use crate::mcp::dto::*;
use crate::model::{Evidence, EvidenceOrigin};
use crate::resolve::Resolver;
use crate::resolve::mapping::{MAX_BATCH_IDENTIFIERS, MapAnswer, MapOptions, mapping_sparql};

/// The batch form: every identifier as map_identifier would, in compact rows.
pub fn map_identifiers(
    r: &Resolver,
    args: &MapBatchArgs,
) -> Result<Envelope<MappingRows>, ToolError> {
    if args.identifiers.len() > MAX_BATCH_IDENTIFIERS {
        return Err(ToolError::new(
            ErrorCode::LimitExceeded,
            format!(
                "at most {MAX_BATCH_IDENTIFIERS} identifiers per call, got {}",
                args.identifiers.len()
            ),
            format!(
                "Split the list into calls of at most {MAX_BATCH_IDENTIFIERS}, or use `ontoresolve map` for whole files."
            ),
        ));
    }
    let mut defaults = Vec::new();
    let options = options(
        r,
        &args.targets,
        args.include_inferred,
        args.include_predicted,
        &mut defaults,
    )?;
    let mut rows = Vec::with_capacity(args.identifiers.len());
    let mut nodes: Vec<String> = Vec::new();
    let mut seen_sources: BTreeSet<(String, String)> = BTreeSet::new();
    for identifier in &args.identifiers {
        // Past the call's deadline the rest is not worth mapping: the answer is dropped.
        if crate::resolve::deadline::passed() {
            break;
        }
        let answer = r.map_identifier(identifier, &options).map_err(damaged)?;
        nodes.extend(answer.nodes_read.iter().cloned());
        for release in releases(r, &answer) {
            seen_sources.insert((release.id, release.release));
        }
        rows.push(compact_row(r, identifier, &answer, &options));
    }
    let mapped = rows.iter().filter(|row| !row.candidates.is_empty()).count() as u64;
    let cut = rows
        .iter()
        .filter(|row| row.candidates_total > row.candidates.len() as u64)
        .count();
    Ok(Envelope {
        query: QueryEcho {
            input: json!({
                "identifiers": args.identifiers.len(), "targets": args.targets,
                "include_inferred": args.include_inferred, "include_predicted": args.include_predicted,
            }),
            normalized: format!("{} identifiers", args.identifiers.len()),
            steps: Vec::new(),
            filters: json!({
                "targets": options.targets, "include_inferred": options.include_inferred,
                "include_predicted": options.include_predicted, "max_hops": options.max_hops,
            }),
            defaults_applied: defaults,
        },
        total: rows.len() as u64,
        returned: rows.len() as u64,
        truncated: false,
        cursor: None,
        sources: seen_sources
            .into_iter()
            .map(|(id, release)| SourceRelease { id, release })
            .collect(),
        index: r.manifest().build_id.clone(),
        sparql: mapping_sparql(r, &nodes),
        suggestion: batch_suggestion(mapped, cut),
        result: MappingRows { rows, mapped },
    })
}

/// What to do next: nothing mapped, or some rows show only their first page of candidates.
fn batch_suggestion(mapped: u64, cut: usize) -> Option<String> {
    if mapped == 0 {
        return Some("No identifier had a mapping; check the outcomes and errors per row.".into());
    }
    (cut > 0).then(|| {
        format!(
            "{cut} row(s) show the first {MAP_PAGE} of `candidates_total` candidates: call \
             map_identifier with the row's subject (and its cursor) for the rest, or narrow \
             with `targets`."
        )
    })
}

fn compact_row(r: &Resolver, input: &str, answer: &MapAnswer, options: &MapOptions) -> MappingRow {
    let error = match &answer.subject {
        None => Some(subject_error(answer).message),
        Some(_) if answer.candidates.is_empty() => suggestion(answer, options),
        Some(_) => None,
    };
    MappingRow {
        input: input.chars().take(256).collect(),
        subject: answer.subject.clone(),
        outcome: Tag::of(&answer.outcome),
        error,
        candidates_total: answer.candidates.len() as u64,
        // The same candidates, in the same order, as map_identifier's first page: a row is
        // bounded like a page, and its total says what is left.
        candidates: answer
            .candidates
            .iter()
            .take(MAP_PAGE)
            .map(|c| {
                let (object_label, object_status, _) = status_parts(&c.status);
                let evidence: Vec<&Evidence> = if c.inferred {
                    c.path.iter().flat_map(|h| h.evidence.iter()).collect()
                } else {
                    c.evidence.iter().collect()
                };
                let sources: BTreeSet<String> = evidence
                    .into_iter()
                    .map(|e| evidence_source(r, e))
                    .collect();
                CompactCandidate {
                    object: c.object.clone(),
                    object_label: object_label.filter(|l| !l.is_empty()),
                    object_status,
                    predicate: c.predicate.curie().to_string(),
                    justification: best_justification(r, c),
                    confidence: c.confidence.map(round3),
                    rank_tier: Tag::of(&c.tier),
                    inferred: c.inferred,
                    cardinality: c.cardinality.as_ref().map(Tag::of),
                    sources: sources.into_iter().collect(),
                    via: c.path.iter().skip(1).map(|h| h.subject.clone()).collect(),
                }
            })
            .collect(),
        negatives: answer.negatives.iter().map(|n| n.object.clone()).collect(),
        conflicts: answer.conflicts.len() as u64,
        predicted_hidden: answer.predicted_hidden as u64,
    }
}

fn evidence_source(r: &Resolver, e: &Evidence) -> String {
    let manifest = r.manifest();
    match e.origin {
        EvidenceOrigin::MappingSet => manifest
            .mapping_sets
            .get(usize::from(e.set))
            .map(|s| s.source.clone()),
        EvidenceOrigin::SourceXref => manifest.xref_source(e.set).map(|s| s.id.clone()),
    }
    .unwrap_or_default()
}
