//! "What is this identifier in other vocabularies?": `map_identifier` and its batch form
//! `map_identifiers`. The core (`resolve::mapping`) finds, infers and ranks; this file shapes
//! the answer.

use std::collections::BTreeSet;

use serde_json::json;

use super::identifier::identifier_error;
use super::*;
use crate::mcp::dto::*;
use crate::model::{Evidence, EvidenceOrigin};
use crate::resolve::mapping::{
    Conflict, MAX_ANSWER_EDGES, MAX_TARGETS, MapAnswer, MapCandidate, MapOptions, ObjectStatus,
    mapping_sparql,
};
use crate::resolve::{Outcome, Resolver};

/// Candidates per page of map_identifier.
pub const MAP_PAGE: usize = 50;

/// The options as asked, with the defaults applied named.
pub(super) fn options(
    r: &Resolver,
    targets: &Option<Vec<String>>,
    include_inferred: Option<bool>,
    include_predicted: Option<bool>,
    defaults: &mut Vec<String>,
) -> Result<MapOptions, ToolError> {
    let mut options = MapOptions::default();
    if let Some(targets) = targets {
        if targets.len() > MAX_TARGETS {
            return Err(ToolError::new(
                ErrorCode::LimitExceeded,
                format!("at most {MAX_TARGETS} targets, got {}", targets.len()),
                "Call again with fewer target prefixes, or none for every vocabulary.",
            ));
        }
        for target in targets {
            options.targets.push(canonical_prefix(r, target)?);
        }
    } else {
        defaults.push("targets=all".into());
    }
    match include_inferred {
        Some(v) => options.include_inferred = v,
        None => defaults.push("include_inferred=true".into()),
    }
    match include_predicted {
        Some(v) => options.include_predicted = v,
        None => defaults.push("include_predicted=false".into()),
    }
    Ok(options)
}

/// A target prefix in its canonical spelling (`mesh` → `MESH`).
fn canonical_prefix(r: &Resolver, written: &str) -> Result<String, ToolError> {
    let trimmed = written.trim().trim_end_matches(':');
    match r.canonical_prefix(trimmed) {
        Some(prefix) => Ok(prefix),
        None => Err(ToolError::new(
            ErrorCode::UnknownPrefix,
            format!(
                "the target prefix '{}' is not in the registry",
                trimmed.chars().take(64).collect::<String>()
            ),
            "Pass targets as prefixes such as MESH, DOID or NCBIGene; read ontoresolve://prefix/{prefix} to check one.",
        )),
    }
}

pub fn map_identifier(r: &Resolver, args: &MapArgs) -> Result<Envelope<Mappings>, ToolError> {
    let input = json!({
        "identifier": args.identifier, "targets": args.targets,
        "include_inferred": args.include_inferred, "include_predicted": args.include_predicted,
        "cursor": args.cursor,
    });
    let mut defaults = Vec::new();
    let options = options(
        r,
        &args.targets,
        args.include_inferred,
        args.include_predicted,
        &mut defaults,
    )?;
    let build_id = r.manifest().build_id.as_str();
    let scope = cursor_scope(args);
    let offset = super::page_offset(r, args.cursor.as_deref(), &scope)?;
    let answer = r
        .map_identifier(&args.identifier, &options)
        .map_err(damaged)?;
    if answer.subject.is_none() {
        return Err(subject_error(&answer));
    }
    if let Some(edges) = answer.too_many {
        return Err(ToolError::new(
            ErrorCode::LimitExceeded,
            too_many_message(answer.subject.as_deref().unwrap_or(""), edges),
            "Call map_identifier on an identifier that names this one, or run sparql_query.",
        ));
    }
    let total = answer.candidates.len();
    let page: Vec<MappingCandidate> = answer
        .candidates
        .iter()
        .enumerate()
        .skip(offset)
        .take(MAP_PAGE)
        .map(|(i, c)| candidate(r, i, c))
        .collect();
    let end = offset + page.len();
    let echo = QueryEcho {
        input,
        normalized: answer.subject.clone().unwrap_or_default(),
        steps: crate::mcp::wire::steps(&answer.normalized.steps),
        filters: json!({
            "targets": options.targets, "include_inferred": options.include_inferred,
            "include_predicted": options.include_predicted, "max_hops": options.max_hops,
        }),
        defaults_applied: defaults,
    };
    let suggestion = suggestion(&answer, &options);
    Ok(Envelope {
        query: echo,
        total: total as u64,
        returned: page.len() as u64,
        truncated: end < total,
        cursor: (end < total).then(|| crate::mcp::cursor::encode(build_id, &scope, end)),
        sources: releases(r, &answer),
        index: r.manifest().build_id.clone(),
        sparql: mapping_sparql(r, &answer.nodes_read),
        suggestion,
        result: mappings(r, &answer, page)?,
    })
}

/// The question a `map_identifier` cursor pages: the same identifier and options.
fn cursor_scope(args: &MapArgs) -> String {
    format!(
        "map_identifier\u{0}{}\u{0}{:?}\u{0}{:?}\u{0}{:?}",
        args.identifier.trim(),
        args.targets,
        args.include_inferred,
        args.include_predicted
    )
}

pub(super) fn damaged(e: crate::resolve::mapping::MapError) -> ToolError {
    super::index_damaged(&e)
}

/// Why an input that is no identifier has no mappings.
pub(super) fn subject_error(answer: &MapAnswer) -> ToolError {
    if let Some(error) = identifier_error(&answer.outcome, &answer.normalized) {
        return error;
    }
    ToolError::new(
        ErrorCode::AmbiguousInput,
        format!(
            "'{}' is not a full identifier",
            answer.normalized.input.chars().take(64).collect::<String>()
        ),
        "Pass a CURIE with its prefix (MONDO:0005148); resolve_identifier lists the readings of a bare id.",
    )
}

/// Why a hub's mappings are not listed, and where to find them.
fn too_many_message(subject: &str, edges: u64) -> String {
    format!(
        "{subject} is named by {edges} mappings, more than the {MAX_ANSWER_EDGES} one answer reads, \
         so none are listed. Map the identifiers that name it instead, or list them with \
         sparql_query and a LIMIT."
    )
}

pub(super) fn suggestion(answer: &MapAnswer, options: &MapOptions) -> Option<String> {
    let subject = answer.subject.as_deref().unwrap_or("");
    if answer.candidates.is_empty() {
        return Some(if let Some(edges) = answer.too_many {
            too_many_message(subject, edges)
        } else if answer.predicted_hidden > 0 {
            format!(
                "No curated mapping of {subject}; {} predicted ones are hidden: call again with include_predicted=true.",
                answer.predicted_hidden
            )
        } else if answer.inferred_hidden > 0 {
            format!(
                "No asserted mapping of {subject}; {} inferred ones are hidden: call again with include_inferred=true.",
                answer.inferred_hidden
            )
        } else if !options.targets.is_empty() {
            format!(
                "No mapping of {subject} into {}; call again without targets to see every vocabulary.",
                options.targets.join(", ")
            )
        } else if !answer.negatives.is_empty() {
            format!(
                "No mapping of {subject}, only statements that it does NOT match (see negatives)."
            )
        } else if !answer.unmapped.is_empty() {
            format!("Mapping sets looked for {subject} and found nothing (see unmapped_in).")
        } else {
            format!(
                "No loaded mapping set or source maps {subject}. Call list_sources to see what is loaded; find_concepts searches by name."
            )
        });
    }
    if !answer.conflicts.is_empty() {
        return Some("Conflicts are flagged: check them before choosing a target.".into());
    }
    None
}

fn mappings(
    r: &Resolver,
    answer: &MapAnswer,
    candidates: Vec<MappingCandidate>,
) -> Result<Mappings, ToolError> {
    let label = |c: &crate::model::Concept| c.preferred_label().map(|l| l.text.clone());
    let (subject_label, subject_replaced_by) = match &answer.outcome {
        Outcome::Found(matches) => match matches.first() {
            Some(m) => (label(&r.concept(m.concept)?), Vec::new()),
            None => (None, Vec::new()),
        },
        Outcome::Obsolete { concept, .. } => {
            let c = r.concept(*concept)?;
            let live = r.live_replacements(&c)?;
            (
                label(&c),
                live.into_iter().filter_map(|(_, c)| c.curie).collect(),
            )
        }
        _ => (None, Vec::new()),
    };
    let subject = answer.subject.clone().unwrap_or_default();
    let message = match &answer.outcome {
        Outcome::Obsolete { .. } => format!(
            "{subject} is obsolete (replaced by {}); its mappings are listed as its sources state them",
            if subject_replaced_by.is_empty() {
                "nothing".to_string()
            } else {
                subject_replaced_by.join(", ")
            }
        ),
        _ => format!(
            "{subject}: {} candidates ({} asserted, {} inferred), {} negative statements",
            answer.candidates.len(),
            answer.candidates.iter().filter(|c| !c.inferred).count(),
            answer.candidates.iter().filter(|c| c.inferred).count(),
            answer.negatives.len()
        ),
    };
    Ok(Mappings {
        subject: answer.subject.clone(),
        subject_label,
        subject_status: Tag::of(&answer.outcome),
        subject_replaced_by,
        message,
        candidates,
        negatives: answer
            .negatives
            .iter()
            .map(|n| NegativeDto {
                object: n.object.clone(),
                predicate: n.predicate.curie().to_string(),
                predicate_modifier: "Not".into(),
                evidence: n.evidence.iter().map(|e| evidence(r, e)).collect(),
            })
            .collect(),
        conflicts: answer.conflicts.iter().map(conflict).collect(),
        blocked_inferences: answer
            .blocked
            .iter()
            .map(|b| BlockedDto {
                object: b.object.clone(),
                predicate: b.predicate.curie().to_string(),
                via: b.path.iter().skip(1).map(|h| h.subject.clone()).collect(),
            })
            .collect(),
        unmapped_in: answer
            .unmapped
            .iter()
            .flat_map(|u| u.evidence.iter().map(|e| evidence(r, e)))
            .collect(),
        predicted_hidden: answer.predicted_hidden as u64,
        inferred_hidden: answer.inferred_hidden as u64,
        inference_limited: answer.inference_limited,
    })
}

fn conflict(c: &Conflict) -> ConflictDto {
    match c {
        Conflict::SeveralExact { prefix, objects } => ConflictDto {
            kind: Tag::of(c),
            objects: objects.clone(),
            message: format!(
                "{} exact targets in {prefix}: {}",
                objects.len(),
                objects.join(", ")
            ),
        },
        Conflict::AssertedAndNegated { object, predicate } => ConflictDto {
            kind: Tag::of(c),
            objects: vec![object.clone()],
            message: format!(
                "{object} is asserted as {} by one statement and denied by another",
                predicate.curie()
            ),
        },
    }
}

pub(super) fn status_parts(
    status: &ObjectStatus,
) -> (Option<String>, Tag<ObjectStatus>, Vec<String>) {
    let tag = Tag::of(status);
    match status {
        ObjectStatus::Current { label, .. } => (Some(label.clone()), tag, Vec::new()),
        ObjectStatus::Obsolete {
            label, replaced_by, ..
        } => (Some(label.clone()), tag, replaced_by.clone()),
        ObjectStatus::NotLoaded => (None, tag, Vec::new()),
    }
}

pub(super) fn best_justification(r: &Resolver, c: &MapCandidate) -> String {
    if c.inferred {
        return "semapv:MappingChaining".into();
    }
    c.evidence
        .iter()
        .find(|e| e.curated() && !r.evidence_predicted(e))
        .or(c.evidence.first())
        .map(|e| e.justification.clone())
        .unwrap_or_default()
}

fn candidate(r: &Resolver, index: usize, c: &MapCandidate) -> MappingCandidate {
    let (object_label, object_status, object_replaced_by) = status_parts(&c.status);
    MappingCandidate {
        rank: index as u64 + 1,
        object: c.object.clone(),
        object_label: object_label.filter(|l| !l.is_empty()),
        object_status,
        object_replaced_by,
        predicate: c.predicate.curie().to_string(),
        justification: best_justification(r, c),
        confidence: c.confidence.map(round3),
        cardinality: c.cardinality.as_ref().map(Tag::of),
        rank_tier: Tag::of(&c.tier),
        inferred: c.inferred,
        inverted: c.inverted,
        path: c
            .path
            .iter()
            .map(|h| HopDto {
                subject: h.subject.clone(),
                predicate: h.predicate.curie().to_string(),
                object: h.object.clone(),
                inverted: h.inverted,
                rule: h.rule.clone(),
                evidence: h.evidence.iter().map(|e| evidence(r, e)).collect(),
            })
            .collect(),
        other_paths: u64::from(c.other_paths),
        evidence: c.evidence.iter().map(|e| evidence(r, e)).collect(),
    }
}

pub(super) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Where a statement comes from: a mapping set or a source, with its release.
pub(super) struct StatementSource {
    pub origin: EvidenceOrigin,
    /// The catalogue id of the set or source.
    pub source: String,
    pub mapping_set_id: Option<String>,
    pub release: String,
    pub predicted: bool,
}

pub(super) fn statement_source(r: &Resolver, e: &Evidence) -> StatementSource {
    let manifest = r.manifest();
    let unknown = |origin| StatementSource {
        origin,
        source: String::new(),
        mapping_set_id: None,
        release: String::new(),
        predicted: false,
    };
    match e.origin {
        EvidenceOrigin::MappingSet => match manifest.mapping_sets.get(usize::from(e.set)) {
            Some(s) => StatementSource {
                origin: e.origin,
                source: s.source.clone(),
                mapping_set_id: Some(s.mapping_set_id.clone()),
                release: s.release.clone(),
                predicted: s.predicted,
            },
            None => unknown(e.origin),
        },
        EvidenceOrigin::SourceXref => match manifest.xref_source(e.set) {
            Some(s) => StatementSource {
                origin: e.origin,
                source: s.id.clone(),
                mapping_set_id: None,
                release: s.release.clone(),
                predicted: false,
            },
            None => unknown(e.origin),
        },
    }
}

/// One statement with its set's or source's provenance (the release is the answer's
/// `sources`' entry for the set or source).
pub(super) fn evidence(r: &Resolver, e: &Evidence) -> EvidenceDto {
    let from = statement_source(r, e);
    EvidenceDto {
        origin: Tag::of(&from.origin),
        source: from.source,
        mapping_set_id: from.mapping_set_id,
        justification: e.justification.clone(),
        confidence: e.confidence(),
        author_id: e.author_id.clone(),
        reviewer_id: e.reviewer_id.clone(),
        mapping_tool: e.mapping_tool.clone(),
        mapping_date: e.mapping_date.clone(),
        source_predicate: e.source_predicate.clone(),
        predicted: from.predicted,
        line: e.line,
        comment: e.comment.clone(),
    }
}

/// The releases of every set and source the answer's statements come from, and the registry.
pub(super) fn releases(r: &Resolver, answer: &MapAnswer) -> Vec<SourceRelease> {
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let all = answer
        .candidates
        .iter()
        .flat_map(|c| {
            c.evidence
                .iter()
                .chain(c.path.iter().flat_map(|h| h.evidence.iter()))
        })
        .chain(answer.negatives.iter().flat_map(|n| n.evidence.iter()))
        .chain(answer.unmapped.iter().flat_map(|u| u.evidence.iter()));
    for e in all {
        let from = statement_source(r, e);
        seen.insert((from.source, from.release));
    }
    let mut out: Vec<SourceRelease> = seen
        .into_iter()
        .map(|(id, release)| SourceRelease { id, release })
        .collect();
    out.extend(registry_release(r));
    out
}

/// `ontoresolve://mappings/{curie}`: the map_identifier answer with its defaults.
pub fn mappings_document(r: &Resolver, curie: &str) -> Result<serde_json::Value, ToolError> {
    let args = MapArgs {
        identifier: curie.to_string(),
        targets: None,
        include_inferred: None,
        include_predicted: None,
        cursor: None,
    };
    let answer = map_identifier(r, &args)?;
    serde_json::to_value(answer).map_err(|e| {
        ToolError::new(
            ErrorCode::InternalError,
            format!("the answer could not be encoded: {e}"),
            "Tell whoever runs the server.",
        )
    })
}

/// `ontoresolve://mapping-set/{id}`: every file of one catalogue entry with its header and
/// counts.
pub fn mapping_set_document(r: &Resolver, id: &str) -> Option<serde_json::Value> {
    let sets: Vec<&crate::resolve::MappingSetRecord> = r.manifest().mapping_sets_of(id).collect();
    if sets.is_empty() {
        return None;
    }
    let rows: u64 = sets.iter().map(|s| s.counts.rows).sum();
    // The build's own bookkeeping (its prefix footprint) is no reader's business.
    let sets: Vec<serde_json::Value> = sets
        .iter()
        .filter_map(|s| serde_json::to_value(s).ok())
        .map(|mut set| {
            if let Some(fields) = set.as_object_mut() {
                fields.remove("prefix_use");
            }
            set
        })
        .collect();
    serde_json::to_value(json!({ "id": id, "files": sets.len(), "rows": rows, "sets": sets })).ok()
}

/// The catalogue ids of the loaded mapping sets, with a title, licence and row count each.
pub fn mapping_set_entries(r: &Resolver) -> Vec<(String, String, String, u64)> {
    let mut out: Vec<(String, String, String, u64)> = Vec::new();
    for set in &r.manifest().mapping_sets {
        match out.iter_mut().find(|e| e.0 == set.source) {
            Some(entry) => entry.3 += set.counts.rows,
            None => out.push((
                set.source.clone(),
                set.title.clone().unwrap_or_default(),
                set.license.clone(),
                set.counts.rows,
            )),
        }
    }
    out
}
