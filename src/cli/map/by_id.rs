//! `--by id`: one input identifier to SSSOM rows: one per mapping candidate (asserted or
//! inferred, in the core's rank order), one per negative statement, or one
//! `sssom:NoTermFound` row that says why there is none.

use ontoresolve::model::WireName;
use ontoresolve::resolve::mapping::{
    Conflict, MAX_ANSWER_EDGES, MapAnswer, MapCandidate, MapError, NegativeMapping, ObjectStatus,
    aggregate_confidence,
};
use ontoresolve::resolve::{ConceptId, Outcome, ResolveError, Resolver};

use super::Context;
use super::provenance::{concept_label, concept_release, fill_provenance, origin_names};
use super::sssom::{NO_TERM_FOUND, Seen, SssomRow, UNSPECIFIED, canonical_curie, input_label};

/// The rows of one input identifier.
pub struct IdRows {
    pub rows: Vec<SssomRow>,
    /// The identifier's outcome (`found`, `malformed`, ...).
    pub code: &'static str,
    /// At least one mapping candidate was written.
    pub mapped: bool,
}

/// The subject of an answer: its CURIE, label and source release.
struct Subject {
    id: String,
    label: String,
    version: String,
    /// Said in every row's comment (`subject obsolete; replaced by ...`).
    note: Option<String>,
}

pub fn rows_for_id(
    cx: &Context,
    line: u64,
    text: &str,
    seen: &mut Seen,
) -> Result<IdRows, MapError> {
    let answer = cx.resolver.map_identifier(text, &cx.options)?;
    let code = answer.outcome.wire_name();
    let Some(subject) = subject_of(cx.resolver, &answer, seen)? else {
        let reason = not_an_identifier(&answer.outcome);
        let row = nothing(
            cx,
            NO_TERM_FOUND.to_string(),
            input_label(text),
            String::new(),
            format!("input line {line}; {code}: {reason}"),
        );
        return Ok(IdRows {
            rows: vec![row],
            code,
            mapped: false,
        });
    };
    let mut rows: Vec<SssomRow> = Vec::new();
    for (rank, c) in answer.candidates.iter().enumerate() {
        let mut row = candidate_row(cx, &subject, line, rank + 1, c, seen);
        for note in conflict_notes(&answer, c) {
            row.comment.push_str(&format!("; {note}"));
        }
        rows.push(row);
    }
    for n in &answer.negatives {
        rows.push(negative_row(cx, &subject, line, n, seen)?);
    }
    let mapped = !answer.candidates.is_empty();
    if !mapped {
        let mut comment = format!("input line {line}; ");
        if subject.id != text.trim() {
            comment.push_str(&format!("input '{}'; ", input_label(text)));
        }
        if let Some(note) = &subject.note {
            comment.push_str(note);
            comment.push_str("; ");
        }
        if let Outcome::NotInLoadedSources { .. } = answer.outcome {
            comment.push_str("not in the loaded sources; ");
        }
        comment.push_str(&unmapped_reason(cx, &answer, seen));
        let row = nothing(cx, subject.id, subject.label, subject.version, comment);
        rows.insert(0, row);
    }
    Ok(IdRows { rows, code, mapped })
}

/// The subject's CURIE, label and version, when the input names one.
fn subject_of(
    r: &Resolver,
    answer: &MapAnswer,
    seen: &mut Seen,
) -> Result<Option<Subject>, ResolveError> {
    let Some(subject) = answer.subject.as_deref() else {
        return Ok(None);
    };
    let id = canonical_curie(r, subject);
    let (concept, note) = match &answer.outcome {
        Outcome::Found(matches) => (matches.first().map(|m| m.concept), None),
        Outcome::Obsolete {
            concept, consider, ..
        } => (Some(*concept), Some(obsolete_note(r, *concept, consider)?)),
        _ => (None, None),
    };
    let (label, version) = match concept {
        Some(c) => concept_label(r, c, seen)?,
        None => (String::new(), String::new()),
    };
    Ok(Some(Subject {
        id,
        label,
        version,
        note,
    }))
}

/// `obsolete; replaced by HP:0000003, HP:0000004` (or what to consider instead).
fn obsolete_note(
    r: &Resolver,
    concept: ConceptId,
    consider: &[String],
) -> Result<String, ResolveError> {
    let replaced: Vec<String> = (r.live_replacements(&r.concept(concept)?)?)
        .into_iter()
        .map(|(_, c)| c.curie.unwrap_or(c.iri))
        .collect();
    let mut note = if replaced.is_empty() {
        "obsolete; no live replacement".to_string()
    } else {
        format!("obsolete; replaced by {}", replaced.join(", "))
    };
    if !consider.is_empty() {
        note.push_str(&format!("; consider {}", consider.join(", ")));
    }
    Ok(note)
}

/// The core's conflicts that concern a candidate, in words.
fn conflict_notes(answer: &MapAnswer, c: &MapCandidate) -> Vec<String> {
    let mut notes = Vec::new();
    for conflict in &answer.conflicts {
        match conflict {
            Conflict::SeveralExact { prefix, objects } if objects.contains(&c.object) => {
                notes.push(format!(
                    "conflict: one of {} exact matches in {prefix}",
                    objects.len()
                ));
            }
            Conflict::AssertedAndNegated { object, predicate }
                if *object == c.object && *predicate == c.predicate && !c.inferred =>
            {
                notes.push("conflict: also stated NOT to match (see the Not row)".to_string());
            }
            _ => {}
        }
    }
    notes
}

/// Why an input that names no identifier has no mappings.
fn not_an_identifier(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Malformed { reason, .. } => reason.to_string(),
        Outcome::UnknownPrefix {
            prefix,
            suggestions,
            ..
        } => {
            let mut reason = format!("the prefix '{prefix}' is not in the registry");
            if !suggestions.is_empty() {
                reason.push_str(&format!(
                    "; closest known prefixes: {}",
                    suggestions.join(", ")
                ));
            }
            reason
        }
        Outcome::Ambiguous { readings, .. } => format!(
            "a bare local id, not a full identifier; readings: {}",
            readings
                .iter()
                .map(|r| r.curie.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => "no identifier to map".to_string(),
    }
}

/// Why a valid identifier has no candidate.
fn unmapped_reason(cx: &Context, answer: &MapAnswer, seen: &mut Seen) -> String {
    let mut reason = if let Some(edges) = answer.too_many {
        format!(
            "unmapped here: named by {edges} mappings, more than the {MAX_ANSWER_EDGES} one answer \
             reads; map the identifiers that name it, or query the store"
        )
    } else if answer.predicted_hidden > 0 {
        format!(
            "unmapped: only {} predicted mappings, left out (--include-predicted writes them)",
            answer.predicted_hidden
        )
    } else if answer.inferred_hidden > 0 {
        format!(
            "unmapped: only {} inferred mappings, left out by --no-inferred",
            answer.inferred_hidden
        )
    } else if !answer.negatives.is_empty() {
        "unmapped: only statements that it does NOT match (rows with predicate_modifier Not)"
            .to_string()
    } else if !cx.options.targets.is_empty() {
        format!(
            "unmapped: no mapping into {}",
            cx.options.targets.join(", ")
        )
    } else {
        "unmapped: no loaded set maps it".to_string()
    };
    let stated: Vec<String> = origin_names(
        cx.resolver,
        answer.unmapped.iter().flat_map(|u| u.evidence.iter()),
        seen,
    );
    if !stated.is_empty() {
        reason.push_str(&format!(
            "; stated as unmapped (sssom:NoTermFound) by {}",
            stated.join(", ")
        ));
    }
    if answer.inference_limited {
        reason.push_str("; the chain search stopped at its limit");
    }
    reason
}

/// A row that says "looked, found nothing".
fn nothing(
    cx: &Context,
    subject_id: String,
    subject_label: String,
    version: String,
    comment: String,
) -> SssomRow {
    SssomRow {
        subject_id,
        subject_label,
        predicate_id: "skos:exactMatch".to_string(),
        object_id: NO_TERM_FOUND.to_string(),
        mapping_justification: UNSPECIFIED.to_string(),
        mapping_tool: cx.tool.clone(),
        mapping_date: cx.today.clone(),
        subject_source_version: version,
        comment,
        ..SssomRow::default()
    }
}

/// The object's label, its source's release, and a note when it is obsolete or not loaded.
fn object_parts(r: &Resolver, status: &ObjectStatus, seen: &mut Seen) -> (String, String, String) {
    match status {
        ObjectStatus::Current { concept, label } => (
            label.clone(),
            concept_release(r, *concept, seen),
            String::new(),
        ),
        ObjectStatus::Obsolete {
            concept,
            label,
            status,
            replaced_by,
        } => {
            let note = if replaced_by.is_empty() {
                format!("; object {}", status.wire_name())
            } else {
                format!(
                    "; object {}, replaced by {}",
                    status.wire_name(),
                    replaced_by.join(", ")
                )
            };
            (label.clone(), concept_release(r, *concept, seen), note)
        }
        ObjectStatus::NotLoaded => (
            String::new(),
            String::new(),
            "; object not in the loaded sources".into(),
        ),
    }
}

fn candidate_row(
    cx: &Context,
    subject: &Subject,
    line: u64,
    rank: usize,
    c: &MapCandidate,
    seen: &mut Seen,
) -> SssomRow {
    let (object_label, object_version, object_note) = object_parts(cx.resolver, &c.status, seen);
    let mut row = SssomRow {
        subject_id: subject.id.clone(),
        subject_label: subject.label.clone(),
        predicate_id: canonical_curie(cx.resolver, c.predicate.curie()),
        object_id: canonical_curie(cx.resolver, &c.object),
        object_label,
        confidence: c.confidence.map(|p| p.clamp(0.0, 1.0)),
        mapping_cardinality: c.cardinality.map_or("", |k| k.wire_name()),
        subject_source_version: subject.version.clone(),
        object_source_version: object_version,
        ..SssomRow::default()
    };
    let mut comment = format!("input line {line}; rank {rank}, {}", c.tier.wire_name());
    if c.inferred {
        row.mapping_justification = "semapv:MappingChaining".to_string();
        row.mapping_tool = cx.tool.clone();
        row.mapping_date = cx.today.clone();
        comment.push_str(&format!("; {}", inferred_path(cx, c, seen)));
    } else {
        let notes = fill_provenance(cx, &mut row, &c.evidence);
        let names = origin_names(cx.resolver, &c.evidence, seen);
        comment.push_str(&format!("; asserted by {}", names.join(", ")));
        if c.inverted {
            comment.push_str("; read from the object's side");
        }
        for note in notes {
            comment.push_str(&format!("; {note}"));
        }
    }
    comment.push_str(&object_note);
    if let Some(note) = &subject.note {
        comment.push_str(&format!("; subject {note}"));
    }
    row.comment = comment;
    row
}

/// `inferred via MESH:D1 (asserted; by ...), then DOID:2 (exactMatch ∘ exactMatch = ...)`.
fn inferred_path(cx: &Context, c: &MapCandidate, seen: &mut Seen) -> String {
    let hops: Vec<String> = c
        .path
        .iter()
        .map(|h| {
            let by = origin_names(cx.resolver, &h.evidence, seen);
            format!(
                "{} ({}; {} by {})",
                canonical_curie(cx.resolver, &h.object),
                h.rule,
                h.predicate.curie(),
                by.join(", ")
            )
        })
        .collect();
    let mut text = format!("inferred via {}", hops.join(", then "));
    if c.other_paths > 0 {
        text.push_str(&format!("; {} other paths", c.other_paths));
    }
    text
}

fn negative_row(
    cx: &Context,
    subject: &Subject,
    line: u64,
    n: &NegativeMapping,
    seen: &mut Seen,
) -> Result<SssomRow, ResolveError> {
    let status = cx.resolver.object_status(&n.object)?;
    let (object_label, object_version, _) = object_parts(cx.resolver, &status, seen);
    let mut row = SssomRow {
        subject_id: subject.id.clone(),
        subject_label: subject.label.clone(),
        predicate_id: canonical_curie(cx.resolver, n.predicate.curie()),
        predicate_modifier: "Not",
        object_id: canonical_curie(cx.resolver, &n.object),
        object_label,
        confidence: aggregate_confidence(&n.evidence).map(|p| p.clamp(0.0, 1.0)),
        subject_source_version: subject.version.clone(),
        object_source_version: object_version,
        ..SssomRow::default()
    };
    let notes = fill_provenance(cx, &mut row, &n.evidence);
    let names = origin_names(cx.resolver, &n.evidence, seen);
    let mut comment = format!(
        "input line {line}; negative statement: they do NOT match, by {}",
        names.join(", ")
    );
    for note in notes {
        comment.push_str(&format!("; {note}"));
    }
    row.comment = comment;
    Ok(row)
}
