//! `--by label`: one input name to SSSOM rows. The subject is the name itself, a literal
//! (`subject_id` empty, `subject_type: rdfs literal`, the name in `subject_label`), as SSSOM
//! allows for literal mappings; sssom-py 0.4.21 accepts such rows and drops rows with an empty
//! `subject_id` of any other type, so the type is always written.
//!
//! The name search is the core's (`find_by_name`, as find_concepts uses it, without obsolete
//! concepts). Each name candidate in the targets gives a row justified by lexical matching;
//! each one outside them contributes its own mappings into the targets (`via name candidate
//! X`), with the predicate chained by SSSOM's rules.

use ontoresolve::model::MappingPredicate;
use ontoresolve::model::WireName;
use ontoresolve::resolve::mapping::{MapCandidate, ObjectStatus, prefix_of};
use ontoresolve::resolve::{
    MatchKind, NameCandidate, NameQuery, NameSearch, ResolveError, Resolver,
};

use super::Context;
use super::provenance::{concept_label, origin_names};
use super::sssom::{NO_TERM_FOUND, Seen, SssomRow, UNSPECIFIED, canonical_curie, input_label};

/// Name candidates used per name, best ranked first; the comment says when more matched.
pub const MAX_NAME_CANDIDATES: usize = 20;
/// `subject_type` of a name.
const LITERAL: &str = "rdfs literal";

/// One name candidate of one input name.
struct NameHit<'a> {
    line: u64,
    name: &'a str,
    /// The candidate's canonical CURIE (or IRI).
    curie: String,
    candidate: &'a NameCandidate,
    /// How many candidates the name had.
    total: usize,
}

/// The rows of one input name.
pub struct NameRows {
    pub rows: Vec<SssomRow>,
    /// `name_matched`, `via_mapping` or `no_name_match`.
    pub code: &'static str,
    pub mapped: bool,
}

pub fn rows_for_name(
    cx: &Context,
    line: u64,
    text: &str,
    seen: &mut Seen,
) -> anyhow::Result<NameRows> {
    let name = input_label(text);
    if name.is_empty() {
        let row = nothing(
            cx,
            NO_TERM_FOUND,
            "",
            format!("input line {line}; blank name"),
        );
        return Ok(NameRows {
            rows: vec![row],
            code: "no_name_match",
            mapped: false,
        });
    }
    let mut rows = Vec::new();
    let mut found = 0usize;
    // Direct matches in the target vocabularies: the search restricted to their sources, so
    // that a match elsewhere does not end the cascade before them.
    let restricted = !cx.options.targets.is_empty();
    if !restricted || !cx.target_sources.is_empty() {
        let sources = restricted.then_some(cx.target_sources.as_slice());
        let search = search(cx, &name, sources)?;
        found += search.candidates.len();
        for hit in hits(cx, line, &name, &search)? {
            if wanted(&cx.options.targets, &hit.curie) {
                rows.push(name_row(cx, &hit, seen)?);
            }
        }
    }
    let direct = rows.len();
    // Candidates outside the targets contribute their mappings into them.
    let mut hidden = 0;
    if restricted {
        let search = search(cx, &name, None)?;
        found += search.candidates.len();
        hidden = search.hidden.len();
        for hit in hits(cx, line, &name, &search)? {
            if !wanted(&cx.options.targets, &hit.curie) {
                via_rows(cx, &hit, seen, &mut rows)?;
            }
        }
    }
    let mapped = !rows.is_empty();
    let code = match (mapped, direct) {
        (false, _) => "no_name_match",
        (true, 0) => "via_mapping",
        (true, _) => "name_matched",
    };
    if !mapped {
        let reason = if found == 0 && hidden == 0 {
            "no name match".to_string()
        } else if found == 0 {
            format!("only {hidden} obsolete concepts have this name")
        } else {
            format!(
                "no name match in {}, and no other name candidate maps into them",
                cx.options.targets.join(", ")
            )
        };
        rows.push(nothing(
            cx,
            "",
            &name,
            format!("input line {line}; {reason}"),
        ));
    }
    Ok(NameRows { rows, code, mapped })
}

/// The core's name search, without obsolete concepts.
fn search(cx: &Context, name: &str, sources: Option<&[String]>) -> anyhow::Result<NameSearch> {
    Ok(cx.resolver.find_by_name(&NameQuery {
        text: name,
        sources,
        include_obsolete: false,
        full_text_beside_names: false,
        // Every decisive candidate is counted in the output.
        wanted: ontoresolve::resolve::FULL_TEXT_DEPTH,
    })?)
}

/// The best [`MAX_NAME_CANDIDATES`] decisive candidates of a search (name matches, or near
/// spellings and full text when there are none), with their CURIEs. Via-mapping candidates
/// are left out: this command follows each name candidate's mappings itself, with every
/// hop's provenance.
fn hits<'a>(
    cx: &Context,
    line: u64,
    name: &'a str,
    search: &'a NameSearch,
) -> Result<Vec<NameHit<'a>>, ResolveError> {
    let total = search.decisive().iter().filter(|c| c.via.is_none()).count();
    search
        .decisive()
        .iter()
        .filter(|c| c.via.is_none())
        .take(MAX_NAME_CANDIDATES)
        .map(|candidate| {
            let concept = cx.resolver.concept(candidate.concept)?;
            let id = concept.curie.as_deref().unwrap_or(&concept.iri);
            Ok(NameHit {
                line,
                name,
                curie: canonical_curie(cx.resolver, id),
                candidate,
                total,
            })
        })
        .collect()
}

/// The loaded sources that hold identifiers of the target prefixes.
pub fn target_sources(r: &Resolver, targets: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for target in targets {
        let Some(record) = r
            .registry()
            .spelling(target)
            .and_then(|hit| r.registry().record(hit.record))
        else {
            continue;
        };
        for source in &record.sources {
            if r.manifest().source(source).is_some() && !out.contains(source) {
                out.push(source.clone());
            }
        }
    }
    out
}

/// Whether a CURIE's prefix is among the targets (every prefix when there are none).
fn wanted(targets: &[String], curie: &str) -> bool {
    targets.is_empty()
        || targets
            .iter()
            .any(|t| t.eq_ignore_ascii_case(prefix_of(curie)))
}

/// How the name relates to a concept it matched, as a mapping predicate: a name of the
/// concept is an exact match; a narrower synonym makes the concept broader (and the reverse);
/// related synonyms and full-text hits are related; aliases, hidden labels and near
/// spellings are close.
fn name_predicate(kind: MatchKind) -> MappingPredicate {
    use MatchKind::*;
    match kind {
        Identifier | AltId | Label | ApprovedSymbol | ApprovedName | EntryTerm | ExactSynonym
        | AltLabel | Notation | ViaMapping => MappingPredicate::ExactMatch,
        NarrowSynonym | BroaderViaMapping => MappingPredicate::BroadMatch,
        BroadSynonym | SharedNarrower => MappingPredicate::NarrowMatch,
        RelatedSynonym | FullText => MappingPredicate::RelatedMatch,
        AliasSymbol | PreviousSymbol | HiddenLabel | NameVariant | CorpusName | FormerLabel => {
            MappingPredicate::CloseMatch
        }
        // A near spelling is a guess at a typo: only a related match, whatever its spelling.
        NearSpelling => MappingPredicate::RelatedMatch,
    }
}

/// `label 'Breast Neoplasms' (en), stage exact_name, confidence 0.950`.
fn match_words(candidate: &NameCandidate) -> String {
    let mut words = candidate.kind.wire_name().to_string();
    if let Some(text) = &candidate.text {
        words.push_str(&format!(" '{text}'"));
        if let Some(lang) = &candidate.lang {
            words.push_str(&format!(" ({lang})"));
        }
    }
    if let Some(d) = candidate.distance {
        words.push_str(&format!(", {d} edits"));
    }
    if !candidate.case_exact {
        words.push_str(", case differs");
    }
    words.push_str(&format!(", stage {}", candidate.stage.wire_name()));
    if let Some(c) = &candidate.confidence {
        words.push_str(&format!(", confidence {:.3} ({})", c.p, c.basis_text()));
    }
    words
}

fn name_row(cx: &Context, hit: &NameHit, seen: &mut Seen) -> Result<SssomRow, ResolveError> {
    let (object_label, object_version) = concept_label(cx.resolver, hit.candidate.concept, seen)?;
    let mut comment = format!(
        "input line {}; name match: {}",
        hit.line,
        match_words(hit.candidate)
    );
    if hit.total > MAX_NAME_CANDIDATES {
        comment.push_str(&format!(
            "; {} name candidates, the best {MAX_NAME_CANDIDATES} used",
            hit.total
        ));
    }
    Ok(SssomRow {
        subject_label: hit.name.to_string(),
        subject_type: LITERAL,
        predicate_id: name_predicate(hit.candidate.kind).curie().to_string(),
        object_id: hit.curie.clone(),
        object_label,
        mapping_justification: "semapv:LexicalMatching".to_string(),
        confidence: hit.candidate.confidence.as_ref().map(|c| c.p),
        mapping_tool: cx.tool.clone(),
        mapping_date: cx.today.clone(),
        object_source_version: object_version,
        comment,
        ..SssomRow::default()
    })
}

/// Rows for a name candidate outside the targets: its mappings into them, the predicate
/// chained (an exact name match keeps the mapping's predicate; others chain by SSSOM's rules,
/// and a pair that does not chain gives no row).
fn via_rows(
    cx: &Context,
    hit: &NameHit,
    seen: &mut Seen,
    rows: &mut Vec<SssomRow>,
) -> anyhow::Result<()> {
    let answer = cx.resolver.map_identifier(&hit.curie, &cx.options)?;
    let first = name_predicate(hit.candidate.kind);
    for c in &answer.candidates {
        let predicate = if first == MappingPredicate::ExactMatch {
            Some(c.predicate.clone())
        } else {
            first.compose(&c.predicate)
        };
        let Some(predicate) = predicate else { continue };
        rows.push(via_row(cx, hit, c, predicate, seen)?);
    }
    Ok(())
}

fn via_row(
    cx: &Context,
    hit: &NameHit,
    c: &MapCandidate,
    predicate: MappingPredicate,
    seen: &mut Seen,
) -> Result<SssomRow, ResolveError> {
    let (object_label, object_version) = match &c.status {
        ObjectStatus::Current { concept, .. } | ObjectStatus::Obsolete { concept, .. } => {
            concept_label(cx.resolver, *concept, seen)?
        }
        ObjectStatus::NotLoaded => (String::new(), String::new()),
    };
    let evidence: Vec<_> = if c.inferred {
        c.path.iter().flat_map(|h| h.evidence.iter()).collect()
    } else {
        c.evidence.iter().collect()
    };
    let by = origin_names(cx.resolver, evidence, seen);
    let how = if c.inferred { "inferred" } else { "asserted" };
    let curie = &hit.curie;
    let comment = format!(
        "input line {}; via name candidate {curie} ({}), then {curie} {} {} ({how}, {} by {})",
        hit.line,
        match_words(hit.candidate),
        c.predicate.curie(),
        canonical_curie(cx.resolver, &c.object),
        c.tier.wire_name(),
        by.join(", ")
    );
    Ok(SssomRow {
        subject_label: hit.name.to_string(),
        subject_type: LITERAL,
        predicate_id: canonical_curie(cx.resolver, predicate.curie()),
        object_id: canonical_curie(cx.resolver, &c.object),
        object_label,
        mapping_justification: "semapv:MappingChaining".to_string(),
        confidence: hit
            .candidate
            .confidence
            .as_ref()
            .map(|n| (n.p * c.confidence.unwrap_or(1.0)).clamp(0.0, 1.0)),
        mapping_tool: cx.tool.clone(),
        mapping_date: cx.today.clone(),
        object_source_version: object_version,
        comment,
        ..SssomRow::default()
    })
}

/// A "found nothing" row for a name: the name as a literal subject (a blank name has none).
fn nothing(cx: &Context, subject_id: &str, name: &str, comment: String) -> SssomRow {
    SssomRow {
        subject_id: subject_id.to_string(),
        subject_label: name.to_string(),
        subject_type: if subject_id.is_empty() { LITERAL } else { "" },
        predicate_id: "skos:exactMatch".to_string(),
        object_id: NO_TERM_FOUND.to_string(),
        mapping_justification: UNSPECIFIED.to_string(),
        mapping_tool: cx.tool.clone(),
        mapping_date: cx.today.clone(),
        comment,
        ..SssomRow::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_synonyms_make_the_concept_broader() {
        assert_eq!(
            name_predicate(MatchKind::NarrowSynonym),
            MappingPredicate::BroadMatch
        );
        assert_eq!(
            name_predicate(MatchKind::Label),
            MappingPredicate::ExactMatch
        );
        assert_eq!(
            name_predicate(MatchKind::FullText),
            MappingPredicate::RelatedMatch
        );
    }
}
