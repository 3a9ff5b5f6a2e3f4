//! "Which concepts have this name?": `find_concepts` shapes the core's name search into the
//! envelope, with the SPARQL that re-runs its exact stage.

use crate::model::WireName;
use serde_json::{Value, json};

use super::*;
use crate::mcp::dto::*;
use crate::resolve::{
    ConceptId, FULL_TEXT_DEPTH, MatchKind, NameCandidate, NameQuery, NameSearch, NameStep,
    Resolver, SkipReason, Stage, TextReach, ViaMapping,
};
use crate::resolve::{confidence, sparql};

pub fn find_concepts(r: &Resolver, args: &FindArgs) -> Result<Envelope<Candidates>, ToolError> {
    let text = checked_text(&args.text)?;
    let mut defaults = Vec::new();
    let limit = find_limit(args.limit, &mut defaults)?;
    let include_obsolete = args.include_obsolete.unwrap_or_else(|| {
        defaults.push("include_obsolete=false".into());
        false
    });
    let wanted = wanted_sources(r, args.sources.as_deref(), &mut defaults)?;
    let graphs = searched_graphs(r, &wanted);
    let build_id = r.manifest().build_id.as_str();
    let scope =
        format!("find_concepts\u{0}{text}\u{0}{wanted:?}\u{0}{include_obsolete}\u{0}{limit}");
    let offset = super::page_offset(r, args.cursor.as_deref(), &scope)?;
    // A later page also ranks the full-text readings a name matched as typed leaves out on
    // the first: they rank last, so the earlier positions stay as they were.
    let full_text = args.cursor.is_some();
    let search = r.find_by_name(&NameQuery {
        text,
        sources: Some(&wanted),
        include_obsolete,
        full_text_beside_names: full_text,
        wanted: offset.saturating_add(limit),
    })?;
    let distinct = search.distinct_concepts() as u64;
    let entities = search.distinct_entities as u64;
    let total = search.candidates.len() as u64;
    let (page, candidates, iris) = page_of(r, &search, offset, limit)?;
    let returned = candidates.len() as u64;
    let text_left_out = search
        .stages_skipped
        .iter()
        .any(|&(stage, _)| stage == Stage::FullText);
    let more_listed = page.end < search.candidates.len();
    // Full text ranked as deep as this page needed: the next page ranks deeper.
    let text_deeper = search.text_reach == TextReach::Wanted;
    let next_page = (more_listed || text_left_out || text_deeper)
        .then(|| crate::mcp::cursor::encode(build_id, &scope, page.end));
    let page_range = page.clone();
    let sparql = find_sparql(r, &search, page, &iris, &graphs)?;
    let obsolete_hidden = search.obsolete_hidden();
    let filtered = args.sources.as_ref().is_some_and(|s| !s.is_empty());
    let suggestion = find_suggestion(r, &search, filtered)?;
    let truncated = more_listed || search.text_reach != TextReach::Every;
    Ok(Envelope {
        query: QueryEcho {
            input: json!({
                "text": args.text, "sources": args.sources,
                "include_obsolete": args.include_obsolete, "limit": args.limit,
                "cursor": args.cursor
            }),
            // Said only when folding changed the text.
            normalized: Some(crate::resolve::name_key(text))
                .filter(|key| key != text)
                .unwrap_or_default(),
            steps: name_steps(&search),
            filters: find_filters(r, &wanted, include_obsolete, limit),
            defaults_applied: defaults,
        },
        total,
        returned,
        truncated,
        cursor: next_page,
        sources: find_releases(r, &wanted, &search.candidates[page_range], &candidates)?,
        index: r.manifest().build_id.clone(),
        sparql,
        suggestion,
        result: Candidates {
            candidates,
            ambiguous: entities > 1,
            distinct_concepts: distinct,
            distinct_entities: entities,
            obsolete_hidden,
            ..search_report(&search)
        },
    })
}

/// A page's range of the ranked candidates, its candidates as answered, and their IRIs.
type Page = (std::ops::Range<usize>, Vec<Candidate>, Vec<String>);

/// One page of the ranked candidates: its range, the candidates as answered, and their IRIs.
/// A cursor past the end (forged, or from a longer list) gives an empty page, never a panic.
fn page_of(
    r: &Resolver,
    search: &NameSearch,
    offset: usize,
    limit: usize,
) -> Result<Page, ToolError> {
    let len = search.candidates.len();
    let start = offset.min(len);
    let page = start..(start + limit).min(len);
    let mut iris: Vec<String> = Vec::with_capacity(page.len());
    let mut candidates: Vec<Candidate> = Vec::with_capacity(page.len());
    for c in &search.candidates[page.clone()] {
        let (candidate, iri) = candidate(r, c)?;
        iris.push(iri);
        candidates.push(candidate);
    }
    Ok((page, candidates, iris))
}

/// The named graphs a query over the wanted sources names; none when every current release
/// is wanted (its GRAPH then ranges over all, older releases too: a row's graph says which
/// release states a name, as for a former label).
fn searched_graphs(r: &Resolver, wanted: &[String]) -> Vec<String> {
    let sources = &r.manifest().sources;
    let selected = |s: &crate::resolve::SourceRecord| wanted.iter().any(|w| s.selected_by(w));
    let every_source = sources.iter().filter(|s| s.current).all(selected)
        && sources.iter().filter(|s| !s.current).all(|s| !selected(s));
    sources
        .iter()
        .filter(|s| !every_source && selected(s))
        .map(|s| s.graph.clone())
        .collect()
}

/// What the search did, stage by stage, with no candidates or counts yet.
fn search_report(search: &NameSearch) -> Candidates {
    Candidates {
        candidates: Vec::new(),
        ambiguous: false,
        distinct_concepts: 0,
        distinct_entities: 0,
        obsolete_hidden: 0,
        stages_tried: stage_names(&search.stages_tried),
        stages_matched: stage_names(&search.stages_matched),
        stages_skipped: search
            .stages_skipped
            .iter()
            .map(|&(stage, reason)| skipped(stage, reason))
            .collect(),
        abbreviation: search.abbreviation,
        via_limited: search.via_limited,
    }
}

/// The releases an answer drew on: the sources of the page's candidates (every source
/// searched when the page is empty), and the mapping sets or sources whose statements led to
/// its via-mapping candidates.
fn find_releases(
    r: &Resolver,
    wanted: &[String],
    page: &[NameCandidate],
    listed: &[Candidate],
) -> Result<Vec<SourceRelease>, ToolError> {
    // The listed candidates' own releases (a pinned identifier's may be an older one), or
    // every release searched when none is listed; in catalogue order.
    let used: std::collections::BTreeSet<usize> = page
        .iter()
        .map(|c| Ok(r.head(c.concept)?.source.slot()))
        .collect::<Result<_, ToolError>>()?;
    let mut out: Vec<SourceRelease> = r
        .manifest()
        .sources
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            if listed.is_empty() {
                wanted.iter().any(|w| s.selected_by(w))
            } else {
                used.contains(i)
            }
        })
        .map(|(_, s)| source_release(s))
        .collect();
    for e in page
        .iter()
        .filter_map(|c| c.via.as_ref())
        .flat_map(|v| &v.evidence)
    {
        let e = super::mapping::statement_source(r, e);
        if !out.iter().any(|s| s.id == e.source) {
            out.push(SourceRelease {
                id: e.source,
                release: e.release,
            });
        }
    }
    Ok(out)
}

/// The text to look for, trimmed: empty is malformed, over-long is a limit (as for
/// identifiers), each with its own error.
fn checked_text(text: &str) -> Result<&str, ToolError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ToolError::new(
            ErrorCode::InvalidArgument,
            "text is empty".into(),
            "Pass the name to look for, e.g. \"Abnormality of body height\".",
        ));
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(ToolError::new(
            ErrorCode::LimitExceeded,
            format!(
                "text has {} bytes, over the {MAX_TEXT_BYTES} allowed",
                text.len()
            ),
            "Pass the name alone (a mention, not a passage); split longer text into mentions first.",
        ));
    }
    Ok(text)
}

/// The filters in force; `sources` only when some were chosen (all are listed in the
/// answer's `sources` otherwise).
fn find_filters(r: &Resolver, wanted: &[String], include_obsolete: bool, limit: usize) -> Value {
    let sources = &r.manifest().sources;
    let all = sources
        .iter()
        .all(|s| s.current == wanted.iter().any(|w| s.selected_by(w)));
    let mut filters = json!({ "include_obsolete": include_obsolete, "limit": limit });
    if !all && let Some(map) = filters.as_object_mut() {
        map.insert("sources".into(), json!(wanted));
    }
    filters
}

/// A stage that did not run, with why and how to have it run.
fn skipped(stage: Stage, reason: SkipReason) -> String {
    let why = match (stage, reason) {
        (Stage::FullText, SkipReason::NameMatchedAsTyped) => {
            "the name matched as typed; the next page (cursor) adds its full-text readings"
        }
        (_, SkipReason::NameMatchedAsTyped) => "the name matched as typed",
        (_, SkipReason::OnlyObsoleteMatched) => {
            "only obsolete concepts matched, and other names never stand in for them; pass include_obsolete=true"
        }
    };
    format!("{}: {why}", Tag::of(&stage).as_str())
}

fn stage_names(stages: &[Stage]) -> Vec<Tag<Stage>> {
    stages.iter().map(Tag::of).collect()
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
                ErrorCode::LimitExceeded,
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
    // Folding case, spacing and punctuation is every name's first step: `normalized` shows it.
    let mut steps: Vec<String> = Vec::new();
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

/// The SPARQL that re-runs the answer: it names the listed candidates (`VALUES`), never the
/// search that found them, so it runs at once and gives the answer's concepts; identifiers as
/// concepts, names with their labels, via-mapping candidates with the statements they came
/// through. An answer that found nothing carries a query that returns no rows.
fn find_sparql(
    r: &Resolver,
    search: &NameSearch,
    page: std::ops::Range<usize>,
    iris: &[String],
    graphs: &[String],
) -> Result<String, ToolError> {
    let concepts: Vec<&str> = iris.iter().map(String::as_str).collect();
    let graphs: Vec<&str> = graphs.iter().map(String::as_str).collect();
    // Via-mapping candidates: the mapping statements between each and its origin, as the
    // mapping index names them (registry IRIs), in every graph.
    // A chain gives each of its hops.
    // A broader candidate climbs its origin's ancestors first: every hop but the last is a
    // parent edge.
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut parents: Vec<(String, String)> = Vec::new();
    for c in &search.candidates[page] {
        let Some(via) = c.via.as_ref() else {
            continue;
        };
        let mut path = vec![mapping_iri(r, via.from)?];
        path.extend(via.through.iter().map(|between| curie_iri(r, between)));
        path.push(mapping_iri(r, c.concept)?);
        let Some(path) = path.into_iter().collect::<Option<Vec<String>>>() else {
            continue;
        };
        let climbed = if c.kind == MatchKind::BroaderViaMapping {
            via.through.len()
        } else {
            0
        };
        for (at, hop) in path.windows(2).enumerate() {
            let hops = if at < climbed {
                &mut parents
            } else {
                &mut pairs
            };
            let hop = (hop[0].clone(), hop[1].clone());
            // Candidates that share an ancestor or a mapping share hops: each is listed once.
            if !hops.contains(&hop) {
                hops.push(hop);
            }
        }
    }
    if !pairs.is_empty() {
        let pairs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let parents: Vec<(&str, &str)> = parents
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        return Ok(sparql::names_and_via_mappings(
            &concepts, &graphs, &pairs, &parents,
        ));
    }
    Ok(match search.stages_matched.as_slice() {
        [Stage::Identifier] => sparql::concepts_in_graphs(&concepts, &graphs),
        _ => sparql::concept_names(&concepts, &graphs),
    })
}

/// What to do next: when nothing is listed, why; when several concepts are, how to choose.
/// Said after the suggestion for an abbreviation that is ambiguous or unmatched alone.
const PASSAGE_NEXT: &str = " An abbreviation alone is often ambiguous: if you hold the text it came from, call ground_passage on the text, which reads the abbreviations it defines.";

fn find_suggestion(
    r: &Resolver,
    search: &NameSearch,
    filtered: bool,
) -> Result<Option<String>, ToolError> {
    let suggestion = match (
        none_confident(search),
        name_suggestion(r, search, filtered)?,
    ) {
        (Some(unsure), Some(then)) => Some(format!("{unsure} {then}")),
        (unsure, then) => unsure.or(then),
    };
    let unsure = search.candidates.is_empty() || search.distinct_entities > 1;
    if search.abbreviation && unsure {
        return Ok(Some(
            (suggestion.unwrap_or_default() + PASSAGE_NEXT)
                .trim_start()
                .to_string(),
        ));
    }
    Ok(suggestion)
}

/// Said when candidates were listed but the model is confident of none.
fn none_confident(search: &NameSearch) -> Option<String> {
    let best = search
        .candidates
        .iter()
        .filter_map(|c| c.confidence.as_ref())
        .map(|c| c.p)
        .fold(None, |best: Option<f64>, p| {
            Some(best.map_or(p, |b| b.max(p)))
        })?;
    (best < confidence::CONFIDENT).then(|| {
        format!(
            "No candidate is confident (the best is stated at {}): treat them as guesses, and check a definition with get_concept before using one.",
            crate::mcp::echo::three_digits(best)
        )
    })
}

fn name_suggestion(
    r: &Resolver,
    search: &NameSearch,
    filtered: bool,
) -> Result<Option<String>, ToolError> {
    let distinct = search.distinct_concepts();
    let entities = search.distinct_entities;
    Ok(if search.candidates.is_empty() {
        Some(if search.obsolete_hidden() > 0 {
            format!(
                "Only obsolete or withdrawn concepts match: {}. Call again with include_obsolete=true to see them.",
                hidden_summary(r, &search.hidden)?
            )
        } else if filtered {
            "Nothing matches in the chosen sources, even as a near spelling or in definitions: drop the sources filter, or try other wording.".into()
        } else {
            "No concept matches, even as a near spelling or in definitions. Try a broader or differently worded name, or check list_sources for what is loaded.".into()
        })
    } else if search.text_reach == TextReach::Capped {
        Some(format!(
            "More than {FULL_TEXT_DEPTH} full-text matches exist and only those were ranked: use more specific words."
        ))
    } else if entities > 1 {
        Some(format!(
            "{entities} distinct concepts: choose by match_kind and source; confirm with get_concept."
        ))
    } else if distinct > 1 {
        Some(format!(
            "The {distinct} candidates are one concept in {distinct} sources (joined by exact-match cross-references)."
        ))
    } else {
        None
    })
}

/// The source ids a call searches: the ones asked for, all checked, or every loaded source.
pub(super) fn wanted_sources(
    r: &Resolver,
    asked: Option<&[String]>,
    defaults: &mut Vec<String>,
) -> Result<Vec<String>, ToolError> {
    match asked {
        Some(list) if !list.is_empty() => {
            r.releases()
                .check_sources(list)
                .map_err(|e| pin_error(&e))?;
            Ok(list.to_vec())
        }
        _ => {
            defaults.push("sources=all".into());
            Ok(r.manifest()
                .sources
                .iter()
                .filter(|s| s.current)
                .map(|s| s.id.clone())
                .collect())
        }
    }
}

/// The hidden obsolete matches and where their replacements lead, for the suggestion.
pub(super) fn hidden_summary(r: &Resolver, hidden: &[ConceptId]) -> Result<String, ToolError> {
    const SHOWN: usize = 5;
    let mut parts: Vec<String> = Vec::new();
    for &id in hidden.iter().take(SHOWN) {
        let c = r.concept(id)?;
        let name = c.curie.clone().unwrap_or_else(|| c.iri.clone());
        let live: Vec<String> = (r.live_replacements(&c)?)
            .into_iter()
            .map(|(_, l)| l.curie.unwrap_or(l.iri))
            .collect();
        parts.push(match live.as_slice() {
            [] => format!("{name} ({}, no live replacement)", c.status().wire_name()),
            _ => format!(
                "{name} ({}, replaced by {})",
                c.status().wire_name(),
                live.join(" and ")
            ),
        });
    }
    if hidden.len() > SHOWN {
        parts.push(format!("and {} more", hidden.len() - SHOWN));
    }
    Ok(parts.join("; "))
}

/// A core candidate in wire form, with the concept's IRI (for the answer's SPARQL).
pub(super) fn candidate(r: &Resolver, c: &NameCandidate) -> Result<(Candidate, String), ToolError> {
    // A concept is shown from its head; only an obsolete one's replacements need the whole
    // record.
    let head = r.head(c.concept)?;
    let replaced_by = if head.obsolete {
        (r.live_replacements(&r.concept(c.concept)?)?)
            .into_iter()
            .map(|(_, live)| live.curie.unwrap_or(live.iri))
            .collect()
    } else {
        Vec::new()
    };
    let summary = summary(r, &head);
    // The matched text is said only when it is not the label shown.
    let matched_text = c
        .text
        .clone()
        .filter(|t| summary.name.label.as_ref() != Some(t));
    let candidate = Candidate {
        group: c.group.as_ref().map(Tag::of),
        match_kind: Tag::of(&c.kind),
        case_exact: c.case_exact,
        replaced_by,
        distance: c.distance,
        matched_lang: c.lang.clone().filter(|_| matched_text.is_some()),
        matched_text,
        via: c.via.as_ref().map(|v| via(r, v)).transpose()?,
        learned_from: c.learned.as_ref().map(|l| LearnedFrom {
            corpus: l.corpus.clone(),
            mentions: l.mentions,
        }),
        confidence: c.confidence.as_ref().map(|x| x.p),
        basis: c.confidence.as_ref().map(|x| x.basis_text()),
        concept: summary,
    };
    Ok((candidate, head.iri))
}

/// The mapping behind a via_mapping candidate, in wire form.
fn via(r: &Resolver, v: &ViaMapping) -> Result<Via, ToolError> {
    let from = r.concept(v.from)?;
    let mut asserted_by: Vec<ViaAssertion> = Vec::new();
    for e in &v.evidence {
        let e = super::mapping::evidence(r, e);
        if !asserted_by
            .iter()
            .any(|a| a.mapping_set_id == e.mapping_set_id && a.justification == e.justification)
        {
            asserted_by.push(ViaAssertion {
                source: e.source,
                mapping_set_id: e.mapping_set_id,
                justification: e.justification,
            });
        }
    }
    Ok(Via {
        identifier: from.curie.clone().unwrap_or_else(|| from.iri.clone()),
        label: from.preferred_label().map(|l| l.text.clone()),
        match_kind: Tag::of(&v.from_kind),
        predicate: (v.predicate != crate::model::MappingPredicate::ExactMatch)
            .then(|| v.predicate.curie().to_string()),
        through: v.through.clone(),
        asserted_by,
    })
}

/// A concept's IRI as mapping statements name it: its CURIE through the registry.
fn mapping_iri(r: &Resolver, id: ConceptId) -> Result<Option<String>, ToolError> {
    Ok(r.head(id)?.curie.and_then(|curie| curie_iri(r, &curie)))
}

/// A CURIE's IRI through the registry, when it is safe to write into a query.
fn curie_iri(r: &Resolver, curie: &str) -> Option<String> {
    let iri = r.registry().normalize(curie).identified()?.iri.clone()?;
    sparql::is_safe_iri(&iri).then_some(iri)
}
