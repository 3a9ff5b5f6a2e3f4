//! "Which concepts have this name?": `find_concepts` shapes the core's name search into the
//! envelope, with the SPARQL that re-runs its exact stage.

use serde_json::json;

use super::*;
use crate::mcp::dto::*;
use crate::resolve::sparql;
use crate::resolve::{
    ConceptId, FULL_TEXT_DEPTH, NameCandidate, NameQuery, NameSearch, NameStep, Resolver, Stage,
    ViaMapping,
};

pub fn find_concepts(r: &Resolver, args: &FindArgs) -> Result<Envelope<Candidates>, ToolError> {
    let input = json!({
        "text": args.text, "sources": args.sources, "include_obsolete": args.include_obsolete, "limit": args.limit, "cursor": args.cursor
    });
    let text = checked_text(&args.text)?;
    let mut defaults = Vec::new();
    let limit = find_limit(args.limit, &mut defaults)?;
    let include_obsolete = args.include_obsolete.unwrap_or_else(|| {
        defaults.push("include_obsolete=false".into());
        false
    });
    let wanted = wanted_sources(r, args.sources.as_deref(), &mut defaults)?;
    let graphs: Vec<String> = r
        .manifest()
        .sources
        .iter()
        .filter(|s| wanted.contains(&s.id))
        .map(|s| s.graph.clone())
        .collect();
    let search = r
        .find_by_name(&NameQuery {
            text,
            sources: Some(&wanted),
            include_obsolete,
        })
        .map_err(|e| index_damaged(&e))?;
    let distinct = search.distinct_concepts() as u64;
    let entities = search.distinct_entities as u64;
    let total = search.candidates.len() as u64;
    let build_id = r.manifest().build_id.as_str();
    let scope =
        format!("find_concepts\u{0}{text}\u{0}{wanted:?}\u{0}{include_obsolete}\u{0}{limit}");
    let offset = super::page_offset(r, args.cursor.as_deref(), &scope)?;
    // A cursor past the end (forged, or from a longer list) gives an empty page, never a panic.
    let len = search.candidates.len();
    let start = offset.min(len);
    let page = start..(start + limit).min(len);
    let candidates: Vec<Candidate> = search.candidates[page.clone()]
        .iter()
        .filter_map(|c| candidate(r, c))
        .collect();
    let returned = candidates.len() as u64;
    let next_page = (page.end < search.candidates.len())
        .then(|| crate::mcp::cursor::encode(build_id, &scope, page.end));
    let sparql = find_sparql(
        r,
        &search,
        page,
        &candidates,
        &graphs,
        text,
        include_obsolete,
    );
    let obsolete_hidden = search.obsolete_hidden();
    let filtered = args.sources.as_ref().is_some_and(|s| !s.is_empty());
    let suggestion = find_suggestion(r, &search, filtered);
    let truncated = next_page.is_some() || search.more_exist;
    Ok(Envelope {
        query: QueryEcho {
            input,
            normalized: crate::resolve::name_key(text),
            steps: name_steps(&search),
            filters: json!({ "sources": wanted, "include_obsolete": include_obsolete, "limit": limit }),
            defaults_applied: defaults,
        },
        total,
        returned,
        truncated,
        cursor: next_page,
        sources: r
            .manifest()
            .sources
            .iter()
            .filter(|s| wanted.contains(&s.id))
            .map(source_release)
            .collect(),
        index: r.manifest().build_id.clone(),
        sparql,
        suggestion,
        result: Candidates {
            candidates,
            ambiguous: entities > 1,
            distinct_concepts: distinct,
            distinct_entities: entities,
            obsolete_hidden,
            stages_tried: stage_names(&search.stages_tried),
            stages_matched: stage_names(&search.stages_matched),
            abbreviation: search.abbreviation,
            via_limited: search.via_limited,
        },
    })
}

/// The text to look for, trimmed: empty is malformed, over-long is a limit (as for
/// identifiers), each with its own error.
fn checked_text(text: &str) -> Result<&str, ToolError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ToolError::new(
            "invalid_argument",
            "text is empty".into(),
            "Pass the name to look for, e.g. \"Abnormality of body height\".",
        ));
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(ToolError::new(
            "limit_exceeded",
            format!(
                "text has {} bytes, over the {MAX_TEXT_BYTES} allowed",
                text.len()
            ),
            "Pass the name alone (a mention, not a passage); split longer text into mentions first.",
        ));
    }
    Ok(text)
}

fn stage_names(stages: &[Stage]) -> Vec<String> {
    stages.iter().map(|s| s.as_str().to_string()).collect()
}

/// The page size asked for, or the default (recorded), or a `limit_exceeded` error.
fn find_limit(limit: Option<u32>, defaults: &mut Vec<String>) -> Result<usize, ToolError> {
    let limit = match limit {
        None => {
            defaults.push(format!("limit={DEFAULT_LIMIT}"));
            DEFAULT_LIMIT
        }
        Some(l) if l == 0 || l > MAX_LIMIT => {
            return Err(ToolError::new(
                "limit_exceeded",
                format!("limit must be between 1 and {MAX_LIMIT}, got {l}"),
                format!("Call again with limit between 1 and {MAX_LIMIT}, or narrow with sources."),
            ));
        }
        Some(l) => l,
    };
    Ok(limit as usize)
}

/// How the name was read: the folding every stage uses, then the name-variant steps.
fn name_steps(search: &NameSearch) -> Vec<String> {
    let mut steps = vec!["folded case, spacing and punctuation".to_string()];
    steps.extend(
        search
            .variant_steps
            .iter()
            .filter(|s| !matches!(s, NameStep::Folded { .. }))
            .map(|s| format!("name variant: {}", s.describe())),
    );
    if search.abbreviation {
        steps.push("read as an abbreviation or symbol: case-exact matches first".into());
    }
    steps
}

/// The SPARQL that re-runs the answer: the exact-name stage in full when only it matched;
/// identifiers as concepts; otherwise the listed candidates and their names.
fn find_sparql(
    r: &Resolver,
    search: &NameSearch,
    page: std::ops::Range<usize>,
    candidates: &[Candidate],
    graphs: &[String],
    text: &str,
    include_obsolete: bool,
) -> String {
    let concepts: Vec<&str> = candidates.iter().map(|c| c.concept.iri.as_str()).collect();
    let graphs: Vec<&str> = graphs.iter().map(String::as_str).collect();
    // Via-mapping candidates: the mapping statements between each and its origin, as the
    // mapping index names them (registry IRIs), in every graph.
    let pairs: Vec<(String, String)> = search.candidates[page]
        .iter()
        .filter_map(|c| {
            let via = c.via.as_ref()?;
            Some((mapping_iri(r, via.from)?, mapping_iri(r, c.concept)?))
        })
        .collect();
    if !pairs.is_empty() {
        let pairs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        return sparql::names_and_via_mappings(&concepts, &graphs, &pairs);
    }
    match search.stages_matched.as_slice() {
        [Stage::Identifier] => sparql::concepts_in_graphs(&concepts, &graphs),
        [] | [Stage::ExactName] => {
            sparql::exact_name(&crate::resolve::name_key(text), &graphs, include_obsolete)
        }
        _ => sparql::concept_names(&concepts, &graphs),
    }
}

/// What to do next: when nothing is listed, why; when several concepts are, how to choose.
fn find_suggestion(r: &Resolver, search: &NameSearch, filtered: bool) -> Option<String> {
    let distinct = search.distinct_concepts();
    let entities = search.distinct_entities;
    if search.candidates.is_empty() {
        Some(if search.obsolete_hidden() > 0 {
            format!(
                "Only obsolete or withdrawn concepts match: {}. Call again with include_obsolete=true to see them.",
                hidden_summary(r, &search.hidden)
            )
        } else if filtered {
            "Nothing matches in the chosen sources, even as a near spelling or in definitions: drop the sources filter, or try other wording.".into()
        } else {
            "No concept matches, even as a near spelling or in definitions. Try a broader or differently worded name, or check list_sources for what is loaded.".into()
        })
    } else if search.more_exist {
        Some(format!(
            "More than {FULL_TEXT_DEPTH} full-text matches exist and only those were ranked: use more specific words."
        ))
    } else if entities > 1 {
        Some(format!(
            "The name matches {entities} distinct concepts: choose by match_kind (an alias or previous symbol may name another gene) and source, then confirm with get_concept."
        ))
    } else if distinct > 1 {
        Some(format!(
            "The {distinct} candidates are one concept in {distinct} sources (joined by exact-match cross-references)."
        ))
    } else {
        None
    }
}

/// The source ids a call searches: the ones asked for, all checked, or every loaded source.
pub(super) fn wanted_sources(
    r: &Resolver,
    asked: Option<&[String]>,
    defaults: &mut Vec<String>,
) -> Result<Vec<String>, ToolError> {
    let known: Vec<&str> = r.manifest().sources.iter().map(|s| s.id.as_str()).collect();
    match asked {
        Some(list) if !list.is_empty() => {
            if let Some(bad) = list.iter().find(|s| !known.contains(&s.as_str())) {
                return Err(ToolError::new(
                    "unknown_source",
                    format!(
                        "unknown source '{bad}'; loaded sources: {}",
                        known.join(", ")
                    ),
                    "Call list_sources for the source ids.",
                ));
            }
            Ok(list.to_vec())
        }
        _ => {
            defaults.push("sources=all".into());
            Ok(known.iter().map(|s| s.to_string()).collect())
        }
    }
}

/// The hidden obsolete matches and where their replacements lead, for the suggestion.
pub(super) fn hidden_summary(r: &Resolver, hidden: &[ConceptId]) -> String {
    const SHOWN: usize = 5;
    let mut parts: Vec<String> = hidden
        .iter()
        .take(SHOWN)
        .filter_map(|&id| r.concept(id))
        .map(|c| {
            let name = c.curie.clone().unwrap_or_else(|| c.iri.clone());
            let live: Vec<String> = r
                .live_replacements(&c)
                .into_iter()
                .map(|(_, l)| l.curie.unwrap_or(l.iri))
                .collect();
            match live.as_slice() {
                [] => format!("{name} ({}, no live replacement)", c.status().as_str()),
                _ => format!(
                    "{name} ({}, replaced by {})",
                    c.status().as_str(),
                    live.join(" and ")
                ),
            }
        })
        .collect();
    if hidden.len() > SHOWN {
        parts.push(format!("and {} more", hidden.len() - SHOWN));
    }
    parts.join("; ")
}

/// A core candidate in wire form.
pub(super) fn candidate(r: &Resolver, c: &NameCandidate) -> Option<Candidate> {
    let concept = r.concept(c.concept)?;
    let (distance_penalty, case_penalty) = crate::resolve::penalties(c);
    let match_type = match c.stage {
        Stage::Identifier => "identifier",
        Stage::ExactName if c.kind.weight() >= 0.95 => "exact_label",
        Stage::ExactName => "synonym",
        Stage::ViaMapping => "via_mapping",
        Stage::NameVariant => "name_variant",
        Stage::NearSpelling => "fuzzy",
        Stage::FullText => "full_text",
    };
    Some(Candidate {
        concept: summary(r, &concept),
        match_type: match_type.into(),
        match_kind: c.kind.as_str().into(),
        case_exact: c.case_exact,
        replaced_by: if concept.obsolete {
            r.live_replacements(&concept)
                .into_iter()
                .map(|(_, live)| live.curie.unwrap_or(live.iri))
                .collect()
        } else {
            Vec::new()
        },
        distance: c.distance,
        matched_text: c.text.clone(),
        matched_lang: c.lang.clone(),
        via: c.via.as_ref().map(|v| via(r, v)),
        score: Score {
            total: c.score,
            match_type: c.weight.min(1.0),
            distance_penalty,
            case_penalty,
            text_relevance: c.relevance,
            basis: c.basis(),
        },
    })
}

/// The mapping behind a via_mapping candidate, in wire form.
fn via(r: &Resolver, v: &ViaMapping) -> Via {
    let from = r.concept(v.from);
    Via {
        identifier: from
            .as_ref()
            .map(|c| c.curie.clone().unwrap_or_else(|| c.iri.clone()))
            .unwrap_or_default(),
        label: from
            .as_ref()
            .and_then(|c| c.preferred_label().map(|l| l.text.clone())),
        match_kind: v.from_kind.as_str().into(),
        predicate: v.predicate.curie().to_string(),
        asserted_by: v
            .evidence
            .iter()
            .map(|e| {
                let e = super::mapping::evidence(r, e);
                ViaAssertion {
                    source: e.source,
                    mapping_set_id: e.mapping_set_id,
                    release: e.release,
                    justification: e.justification,
                }
            })
            .collect(),
    }
}

/// A concept's IRI as mapping statements name it: its CURIE through the registry.
fn mapping_iri(r: &Resolver, id: ConceptId) -> Option<String> {
    let concept = r.concept(id)?;
    let curie = concept.curie?;
    let iri = r.registry().normalize(&curie).identified()?.iri.clone()?;
    sparql::is_safe_iri(&iri).then_some(iri)
}
