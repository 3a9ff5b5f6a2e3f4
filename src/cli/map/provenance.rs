//! Where statements and labels come from: a mapping set or a source, named, versioned and
//! licensed from the index's manifest. The same reading as the MCP tools, kept here so that
//! the command line does not depend on the MCP layer.

use ontoresolve::model::{Evidence, EvidenceOrigin};
use ontoresolve::resolve::{ConceptId, ResolveError, Resolver};

use super::Context;
use super::sssom::{
    Seen, SssomRow, UNSPECIFIED, canonical_curie, is_iri, is_reference, valid_date,
    valid_justification,
};

/// A statement's origin in words: `mondo-sssom/mondo_exactmatch_mesh (release 2026-08-04)` or
/// `hp cross-reference (release 2025-01-16)`.
pub fn origin_name(r: &Resolver, e: &Evidence) -> String {
    let manifest = r.manifest();
    match e.origin {
        EvidenceOrigin::MappingSet => match manifest.mapping_sets.get(usize::from(e.set)) {
            Some(s) => format!("{}/{} (release {})", s.source, s.file, s.release),
            None => format!("mapping set #{}", e.set),
        },
        EvidenceOrigin::SourceXref => match manifest.xref_source(e.set) {
            Some(s) => format!("{} cross-reference (release {})", s.id, s.release),
            None => format!("source #{} cross-reference", e.set),
        },
    }
}

/// `mapping_source` of a statement: the set's `mapping_set_id`, or for a source's own
/// cross-reference the address the source was loaded from (its homepage when none); empty
/// when that is no http(s) IRI.
pub fn mapping_source(r: &Resolver, e: &Evidence) -> String {
    let manifest = r.manifest();
    let id = match e.origin {
        EvidenceOrigin::MappingSet => manifest
            .mapping_sets
            .get(usize::from(e.set))
            .map(|s| s.mapping_set_id.clone()),
        EvidenceOrigin::SourceXref => manifest
            .xref_source(e.set)
            .map(|s| s.url.clone().unwrap_or_else(|| s.homepage.clone())),
    };
    id.filter(|i| is_iri(i) && !i.contains(char::is_whitespace))
        .unwrap_or_default()
}

/// Every origin of some statements, each once, in order of first appearance; each is noted
/// in `seen`.
pub fn origin_names<'e>(
    r: &Resolver,
    evidence: impl IntoIterator<Item = &'e Evidence>,
    seen: &mut Seen,
) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for e in evidence {
        seen.note_evidence(e);
        let name = origin_name(r, e);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The index of the source a concept belongs to, from the concept id ranges (no decoding).
pub fn source_index(r: &Resolver, concept: ConceptId) -> Option<u16> {
    let position = r.manifest().sources.iter().position(|s| {
        let first = u64::from(s.first_concept);
        (first..first + s.counts.concepts).contains(&u64::from(concept.0))
    })?;
    u16::try_from(position).ok()
}

/// The release of the source a concept belongs to (empty when unknown), noted in `seen`.
pub fn concept_release(r: &Resolver, concept: ConceptId, seen: &mut Seen) -> String {
    let Some(index) = source_index(r, concept) else {
        return String::new();
    };
    seen.label_sources.insert(index);
    r.manifest()
        .sources
        .get(usize::from(index))
        .map(|s| s.release.clone())
        .unwrap_or_default()
}

/// A concept's preferred label and its source's release.
pub fn concept_label(
    r: &Resolver,
    concept: ConceptId,
    seen: &mut Seen,
) -> Result<(String, String), ResolveError> {
    let label = (r.concept(concept)?)
        .preferred_label()
        .map(|l| l.text.clone())
        .unwrap_or_default();
    Ok((label, concept_release(r, concept, seen)))
}

/// The statement that justifies a row: a curated one first.
fn best(evidence: &[Evidence]) -> Option<&Evidence> {
    evidence
        .iter()
        .find(|e| e.curated())
        .or_else(|| evidence.first())
}

/// Fills the provenance columns of an asserted row from its statements; returns notes for the
/// comment (authors that are no identifiers, a justification sssom-schema does not know).
pub fn fill_provenance(cx: &Context, row: &mut SssomRow, evidence: &[Evidence]) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(best) = best(evidence) else {
        row.mapping_justification = UNSPECIFIED.to_string();
        return notes;
    };
    row.mapping_justification = match valid_justification(&best.justification) {
        Some(j) => j.to_string(),
        None => {
            notes.push(format!("stated justification {}", best.justification));
            UNSPECIFIED.to_string()
        }
    };
    for e in evidence {
        for (ids, column) in [
            (&e.author_id, &mut row.author_id),
            (&e.reviewer_id, &mut row.reviewer_id),
        ] {
            for id in ids {
                let id = canonical_curie(cx.resolver, id.trim());
                if !is_reference(&id) {
                    notes.push(format!("by {id}"));
                } else if !column.contains(&id) {
                    column.push(id);
                }
            }
        }
    }
    let mut tools: Vec<&str> = Vec::new();
    for tool in evidence.iter().filter_map(|e| e.mapping_tool.as_deref()) {
        if !tools.contains(&tool) {
            tools.push(tool);
        }
    }
    row.mapping_tool = tools.join("|");
    row.mapping_date = std::iter::once(best)
        .chain(evidence)
        .find_map(|e| e.mapping_date.as_deref().and_then(valid_date))
        .unwrap_or_default()
        .to_string();
    row.mapping_source = mapping_source(cx.resolver, best);
    if let Some(p) = evidence.iter().find_map(|e| e.source_predicate.as_deref()) {
        notes.push(format!("stated as {p}"));
    }
    notes
}
