//! The tools' logic: each takes arguments and the resolver and returns an envelope or a tool
//! error. No rmcp types here, so the logic is testable on its own.

use serde_json::{Value, json};

use super::dto::*;
use crate::index::manifest::{ReleaseOrigin, SourceRecord};
use crate::model::Prefixes;
use crate::model::{Concept, LabelKind, Link};
use crate::registry::{PatternCheck, RecordId};
use crate::resolve::{
    Chain, ChainEnd, ChainStep, ConceptId, FULL_TEXT_DEPTH, NameCandidate, NameQuery, Normalized,
    Outcome, Resolver, Stage,
};

/// A tool input error: a code, what went wrong and what to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    pub code: &'static str,
    pub message: String,
    pub next_step: String,
    /// Structured facts behind the error (pattern, example, suggestions, steps), or null.
    pub details: Value,
}

impl ToolError {
    pub fn new(code: &'static str, message: String, next_step: impl Into<String>) -> Self {
        ToolError {
            code,
            message,
            next_step: next_step.into(),
            details: Value::Null,
        }
    }

    pub fn to_json(&self, query: &Value) -> Value {
        let mut error =
            json!({ "code": self.code, "message": self.message, "next_step": self.next_step });
        if let (Some(map), Value::Object(details)) = (error.as_object_mut(), &self.details) {
            map.extend(details.clone());
        }
        json!({ "error": error, "query": query })
    }
}

pub const DEFAULT_LIMIT: u32 = 10;
pub const MAX_LIMIT: u32 = 100;
const MAX_CHILDREN: usize = 100;
const MAX_TEXT_BYTES: usize = 1000;

/// The predicates of a concept's own name, for a SPARQL `VALUES` clause.
fn primary_predicates() -> String {
    LabelKind::ALL
        .iter()
        .filter(|k| k.is_primary())
        .map(|k| format!("<{}>", k.predicate()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every name predicate, for a SPARQL `IN` list.
fn name_predicates() -> String {
    LabelKind::ALL
        .iter()
        .map(|k| format!("<{}>", k.predicate()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn sparql_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The candidates' IRIs as the body of a SPARQL `VALUES` clause.
fn values_of(candidates: &[Candidate]) -> String {
    candidates
        .iter()
        .map(|c| format!("<{}>", sparql_iri(&c.concept.iri)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An IRI safe to place between angle brackets in SPARQL.
fn sparql_iri(iri: &str) -> String {
    if iri.is_empty() {
        // No IRI could be formed: a placeholder that matches nothing, never a relative `<>`.
        return "urn:ontoresolve:no-iri".into();
    }
    iri.chars()
        .filter(|c| {
            !matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '^' | '`' | '\\') && !c.is_whitespace()
        })
        .collect()
}

fn source_release(s: &SourceRecord) -> SourceRelease {
    SourceRelease {
        id: s.id.clone(),
        release: s.release.clone(),
    }
}

/// The prefix registry's release, for answers that normalized an identifier with it.
fn registry_release(r: &Resolver) -> Option<SourceRelease> {
    r.manifest()
        .registry
        .source
        .as_ref()
        .map(|s| SourceRelease {
            id: s.id.clone(),
            release: s.release.clone(),
        })
}

fn all_sources(r: &Resolver) -> Vec<SourceRelease> {
    r.manifest().sources.iter().map(source_release).collect()
}

/// Summaries of concepts, and the (distinct) source releases they come from.
fn summaries(
    r: &Resolver,
    concepts: impl Iterator<Item = Concept>,
) -> (Vec<ConceptSummary>, Vec<SourceRelease>) {
    let summaries: Vec<ConceptSummary> = concepts.map(|c| summary(r, &c)).collect();
    let mut sources: Vec<SourceRelease> = Vec::new();
    for c in &summaries {
        if !sources.iter().any(|s| s.id == c.source) {
            sources.push(SourceRelease {
                id: c.source.clone(),
                release: c.release.clone(),
            });
        }
    }
    (summaries, sources)
}

pub fn summary(r: &Resolver, c: &Concept) -> ConceptSummary {
    let source = r.source_of(c);
    ConceptSummary {
        iri: c.iri.clone(),
        curie: c.curie.clone(),
        label: c.preferred_label().map(|l| l.text.clone()),
        source: source.map(|s| s.id.clone()).unwrap_or_default(),
        release: source.map(|s| s.release.clone()).unwrap_or_default(),
        obsolete: c.obsolete,
        status: c.status().as_str().into(),
        kind: c.kind.as_str().into(),
    }
}

/// How to name an IRI: the concept's CURIE and label when it is loaded, else the CURIE the
/// prefix map gives.
fn curie_and_label(
    r: &Resolver,
    iri: &str,
    found: Option<&Concept>,
) -> (Option<String>, Option<String>) {
    (
        found
            .and_then(|c| c.curie.clone())
            .or_else(|| r.registry().compress(iri)),
        found.and_then(|c| c.preferred_label().map(|l| l.text.clone())),
    )
}

/// Every replacement chain, each with the live concept it ends at.
fn chains(r: &Resolver, chains: &[Chain]) -> Vec<ReplacementChain> {
    chains
        .iter()
        .map(|chain| ReplacementChain {
            hops: hops(r, &chain.steps),
            ends_at: chain
                .live_end()
                .and_then(|id| r.concept(id))
                .map(|c| c.curie.unwrap_or(c.iri)),
            cycle: chain.cycle,
        })
        .collect()
}

fn hops(r: &Resolver, chain: &[ChainStep]) -> Vec<ChainHop> {
    chain
        .iter()
        .map(|step| {
            let c = step.concept.and_then(|id| r.concept(id));
            let (curie, label) = curie_and_label(r, &step.iri, c.as_ref());
            ChainHop {
                iri: step.iri.clone(),
                curie,
                label,
                loaded: c.is_some(),
                obsolete: step.obsolete,
            }
        })
        .collect()
}

impl Resolution {
    fn new(outcome: &str, message: String, next_step: &str, concepts: Vec<ConceptSummary>) -> Self {
        Resolution {
            outcome: outcome.into(),
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
        }
    }
}

/// A registry record in brief.
pub fn prefix_info(r: &Resolver, record: RecordId) -> Option<PrefixInfo> {
    let p = r.registry().record(record)?;
    Some(PrefixInfo {
        prefix: p.preferred.clone(),
        name: p.name.clone(),
        pattern: p.pattern.clone(),
        example: p.example.clone(),
        deprecated: p.deprecated,
        homepage: p.homepage.clone(),
        downloads: p.downloads.clone(),
        resource: prefix_resource_uri(&p.preferred),
    })
}

/// The body of `ontoresolve://prefix/{prefix}`: the registry record, the loaded sources that
/// use it, and where the registry came from. `written` may be any spelling of the prefix.
pub fn prefix_document(r: &Resolver, written: &str) -> Option<Value> {
    let hit = r.registry().spelling(written)?;
    let record = r.registry().record(hit.record)?;
    let loaded: Vec<SourceRelease> = record
        .sources
        .iter()
        .filter_map(|id| r.manifest().source(id))
        .map(source_release)
        .collect();
    let registry = r.manifest().registry.source.as_ref();
    Some(json!({
        "prefix": record.preferred,
        "written": written,
        "deprecated_spelling": hit.deprecated,
        "record": record,
        "loaded_sources": loaded,
        "catalogued_sources": record.sources,
        "example_curie": record.example.as_ref().map(|x| format!("{}:{x}", record.preferred)),
        "example_iri": record.example.as_ref().and_then(|x| r.registry().expand(&format!("{}:{x}", record.preferred))),
        "resolver_url_format": (record.origin == crate::model::RecordOrigin::Bioregistry)
            .then(|| format!("https://bioregistry.io/{}:{{local}}", record.prefix)),
        "registry": registry.map(|s| json!({ "id": s.id, "release": s.release, "license": s.license })),
    }))
}

/// The resource URI of a prefix record.
pub fn prefix_resource_uri(prefix: &str) -> String {
    format!("ontoresolve://prefix/{prefix}")
}

fn identifier_error(outcome: &Outcome, normalized: &Normalized) -> Option<ToolError> {
    let steps = &normalized.steps;
    match outcome {
        Outcome::Malformed {
            reason,
            expected,
            example,
        } => Some(ToolError {
            code: "malformed_identifier",
            message: match expected {
                Some(e) => format!("{reason}; expected {e}"),
                None => reason.clone(),
            },
            next_step: match example {
                Some(x) => format!("Check the identifier; a valid one looks like {x}. To search by name, call find_concepts."),
                None => "Pass a CURIE such as HP:0000118 or an IRI; to search by name, call find_concepts.".into(),
            },
            details: json!({
                "outcome": outcome.code(),
                "normalized": normalized.curie.as_ref().or(normalized.iri.as_ref()),
                "expected": expected,
                "example": example,
                "steps": steps,
            }),
        }),
        Outcome::UnknownPrefix {
            prefix,
            suggestions,
            namespace: true,
        } => Some(ToolError {
            code: "unknown_prefix",
            message: format!(
                "no URI prefix in the Bioregistry or the catalogue matches this IRI (its namespace is {prefix})"
            ),
            next_step: "Pass the identifier as a CURIE (PREFIX:local) if you know its prefix; call list_sources for the loaded sources, or find_concepts to search by name.".into(),
            details: json!({ "outcome": outcome.code(), "namespace": prefix, "suggestions": suggestions, "steps": steps }),
        }),
        Outcome::UnknownPrefix {
            prefix,
            suggestions,
            namespace: false,
        } => Some(ToolError {
            code: "unknown_prefix",
            message: if suggestions.is_empty() {
                format!("the prefix '{prefix}' is in neither the Bioregistry nor the catalogue")
            } else {
                format!(
                    "the prefix '{prefix}' is in neither the Bioregistry nor the catalogue; closest known: {}",
                    suggestions.join(", ")
                )
            },
            next_step: if suggestions.is_empty() {
                "Check the prefix; call list_sources to see the loaded sources and their prefixes, or find_concepts to search by name.".into()
            } else {
                format!(
                    "If you meant {}, call again with that prefix; read ontoresolve://prefix/{{prefix}} for a prefix's pattern and example.",
                    suggestions.join(" or ")
                )
            },
            details: json!({ "outcome": outcome.code(), "prefix": prefix, "suggestions": suggestions, "steps": steps }),
        }),
        _ => None,
    }
}

/// The answer for an obsolete identifier: every replacement chain, the alternatives to
/// consider, and the live concepts that list it as an alternative id.
fn obsolete_answer(
    r: &Resolver,
    normalized: &str,
    iri: &str,
    concept: ConceptId,
    found_chains: &[Chain],
    consider: Vec<String>,
    alt_id_of: &[ConceptId],
) -> (Resolution, Vec<SourceRelease>, String, Option<String>) {
    let (concepts, sources) = summaries(r, r.concept(concept).into_iter());
    let replacements = chains(r, found_chains);
    let name = |id: ConceptId| {
        r.concept(id)
            .map(|c| c.curie.unwrap_or(c.iri))
            .unwrap_or_default()
    };
    // One description per chain, from where the core says it ends.
    let ends: Vec<(Option<String>, String)> = found_chains
        .iter()
        .map(|chain| match chain.end() {
            ChainEnd::Live(id) => (Some(name(id)), name(id)),
            ChainEnd::NotLoaded(iri) => (
                None,
                format!(
                    "{}, which is not in the loaded sources",
                    r.registry().compress(&iri).unwrap_or(iri)
                ),
            ),
            ChainEnd::Dead(id) => (
                None,
                format!("{}, itself retired with no further replacement", name(id)),
            ),
            ChainEnd::Cycle => (None, "a cycle of replaced_by links".to_string()),
        })
        .collect();
    let alt_of: Vec<ConceptSummary> = alt_id_of
        .iter()
        .filter_map(|id| r.concept(*id))
        .map(|c| summary(r, &c))
        .collect();
    let status = concepts.first().map_or("obsolete", |c| c.status.as_str());
    let mut message = match ends.as_slice() {
        [] if consider.is_empty() => format!("{normalized} is {status} and names no replacement"),
        [] => format!("{normalized} is {status}; it names alternatives to consider"),
        [(_, one)] => format!("{normalized} is {status}; it is replaced by {one}"),
        many => format!(
            "{normalized} is {status}; it has {} replacements ({}): none is preferred, choose by meaning",
            many.len(),
            many.iter()
                .map(|(_, d)| d.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    if !alt_of.is_empty() {
        let names: Vec<String> = alt_of
            .iter()
            .map(|c| c.curie.clone().unwrap_or_else(|| c.iri.clone()))
            .collect();
        message.push_str(&format!(
            "; it is also an alternative id of {}",
            names.join(", ")
        ));
    }
    let next_step = match ends.as_slice() {
        [(Some(live), _)] => format!("Use {live} instead; call get_concept on it for details."),
        [] | [(None, _)] => {
            "Review the alternatives in consider, or search by name with find_concepts.".into()
        }
        _ => "Several replacements exist: call get_concept on each and choose by meaning; do not take the first.".into(),
    };
    let mut sources = sources;
    for c in &alt_of {
        if !sources.iter().any(|s| s.id == c.source) {
            sources.push(SourceRelease {
                id: c.source.clone(),
                release: c.release.clone(),
            });
        }
    }
    let resolution = Resolution {
        outcome: "obsolete".into(),
        message,
        next_step: Some(next_step),
        concepts,
        replacements,
        consider,
        alt_id_of: alt_of,
        sources_for_prefix: Vec::new(),
        loaded_sources_for_prefix: Vec::new(),
        prefix: None,
        resolver_url: None,
        readings: Vec::new(),
    };
    let sparql = format!(
        "SELECT ?graph ?deprecated ?replacement WHERE {{ GRAPH ?graph {{ <{0}> <http://www.w3.org/2002/07/owl#deprecated> ?deprecated . OPTIONAL {{ <{0}> ?r ?replacement . VALUES ?r {{ <http://purl.obolibrary.org/obo/IAO_0100001> <http://www.geneontology.org/formats/oboInOwl#replacedBy> <http://purl.org/dc/terms/isReplacedBy> }} }} }} }}",
        sparql_iri(iri)
    );
    (resolution, sources, sparql, None)
}

pub fn resolve_identifier(
    r: &Resolver,
    args: &IdentifierArgs,
) -> Result<Envelope<Resolution>, ToolError> {
    let input = json!({ "identifier": args.identifier });
    let (normalized, outcome) = r.resolve_identifier(&args.identifier);
    let echo = QueryEcho {
        input,
        normalized: normalized
            .curie
            .clone()
            .or(normalized.iri.clone())
            .unwrap_or_else(|| args.identifier.trim().to_string()),
        steps: normalized.steps.clone(),
        filters: json!({}),
        defaults_applied: Vec::new(),
    };
    let iri = normalized.iri.clone().unwrap_or_default();
    let (resolution, sources, sparql, suggestion) = match outcome {
        Outcome::Found(matches) => {
            let (concepts, sources) =
                summaries(r, matches.iter().filter_map(|m| r.concept(m.concept)));
            let message = match concepts.as_slice() {
                [one] => format!(
                    "{} is {:?} in {} release {}",
                    echo.normalized,
                    one.label.as_deref().unwrap_or(""),
                    one.source,
                    one.release
                ),
                many => format!("{} is held by {} sources", echo.normalized, many.len()),
            };
            (
                Resolution::new(
                    "found",
                    message,
                    "Call get_concept for labels, definitions, parents, children and xrefs.",
                    concepts,
                ),
                sources,
                format!(
                    "SELECT ?graph ?label ?deprecated WHERE {{ GRAPH ?graph {{ <{0}> ?p ?label . VALUES ?p {{ {1} }} OPTIONAL {{ <{0}> <http://www.w3.org/2002/07/owl#deprecated> ?deprecated }} }} }}",
                    sparql_iri(&iri),
                    primary_predicates()
                ),
                None,
            )
        }
        Outcome::Obsolete {
            concept,
            chains: found_chains,
            consider,
            alt_id_of,
        } => obsolete_answer(
            r,
            &echo.normalized,
            &iri,
            concept,
            &found_chains,
            consider,
            &alt_id_of,
        ),
        Outcome::NotInLoadedSources {
            record,
            prefix,
            catalogued,
            loaded,
            resolver_url,
            deprecated_prefix,
            pattern,
        } => {
            let info = prefix_info(r, record);
            let name = info
                .as_ref()
                .and_then(|i| i.name.clone())
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            // "Well-formed" only when a pattern was checked and fits.
            let what = match pattern {
                PatternCheck::Fits => format!("is a well-formed {prefix}{name} identifier"),
                PatternCheck::NoPattern => format!(
                    "is a {prefix}{name} identifier whose local id could not be checked (the registry gives no pattern)"
                ),
                PatternCheck::Unusable | PatternCheck::Fails => format!(
                    "is a {prefix}{name} identifier whose local id could not be checked (the registry's pattern is unusable)"
                ),
            };
            let mut message = if !loaded.is_empty() {
                format!(
                    "{} {what}, but the loaded release of {} does not have it",
                    echo.normalized,
                    loaded.join(", ")
                )
            } else if !catalogued.is_empty() {
                format!(
                    "{} {what}; its source ({}) is in the catalogue but not loaded, so nothing can be said about it here",
                    echo.normalized,
                    catalogued.join(", ")
                )
            } else {
                format!(
                    "{} {what}; no catalogued source provides {prefix}, so it cannot be checked here",
                    echo.normalized
                )
            };
            if deprecated_prefix {
                message.push_str("; the Bioregistry deprecates this prefix");
            }
            let next_step = match (&resolver_url, loaded.is_empty()) {
                (_, false) => format!(
                    "It may be newer than the loaded release, retired or mistyped: check the release in list_sources ({}) or search by name with find_concepts.",
                    loaded.join(", ")
                ),
                (Some(url), true) => format!(
                    "Do not treat it as verified. Look it up at {url}, or load a source for {prefix} (ontologies/sources.toml)."
                ),
                (None, true) => format!(
                    "Do not treat it as verified; load a source for {prefix} (ontologies/sources.toml) to check it."
                ),
            };
            (
                Resolution {
                    outcome: "not_in_loaded_sources".into(),
                    message,
                    next_step: Some(next_step),
                    concepts: Vec::new(),
                    replacements: Vec::new(),
                    consider: Vec::new(),
                    alt_id_of: Vec::new(),
                    sources_for_prefix: catalogued,
                    loaded_sources_for_prefix: loaded.clone(),
                    prefix: info,
                    resolver_url,
                    readings: Vec::new(),
                },
                r.manifest()
                    .sources
                    .iter()
                    .filter(|s| loaded.contains(&s.id))
                    .map(source_release)
                    .collect(),
                format!(
                    "SELECT ?graph ?p ?o WHERE {{ GRAPH ?graph {{ <{}> ?p ?o }} }} LIMIT 1",
                    sparql_iri(&iri)
                ),
                Some(
                    "No loaded concept has this identifier: do not use it as if it resolved."
                        .into(),
                ),
            )
        }
        Outcome::Ambiguous { local, readings } => {
            let dtos: Vec<ReadingDto> = readings
                .iter()
                .map(|x| ReadingDto {
                    curie: x.curie.clone(),
                    concept: x
                        .concept
                        .and_then(|id| r.concept(id))
                        .map(|c| summary(r, &c)),
                })
                .collect();
            let (concepts, sources) = summaries(
                r,
                readings
                    .iter()
                    .filter_map(|x| x.concept.and_then(|id| r.concept(id))),
            );
            let described: Vec<String> = dtos
                .iter()
                .map(|d| match &d.concept {
                    Some(c) => format!("{} ({})", d.curie, c.label.as_deref().unwrap_or("found")),
                    None => format!("{} (not in the loaded sources)", d.curie),
                })
                .collect();
            let mut resolution = Resolution::new(
                "ambiguous_input",
                format!(
                    "'{local}' has no prefix; it reads as {}",
                    described.join(" or ")
                ),
                "Pass the full CURIE of the reading you mean.",
                concepts,
            );
            resolution.readings = dtos;
            (
                resolution,
                sources,
                format!(
                    "SELECT ?concept ?graph WHERE {{ GRAPH ?graph {{ ?concept <http://www.geneontology.org/formats/oboInOwl#id> ?id }} FILTER(STRENDS(STR(?id), {})) }}",
                    sparql_string(&format!(":{local}"))
                ),
                Some(
                    "A bare local id is not an identifier: choose a reading and pass its CURIE."
                        .into(),
                ),
            )
        }
        error @ (Outcome::Malformed { .. } | Outcome::UnknownPrefix { .. }) => {
            return Err(
                identifier_error(&error, &normalized).unwrap_or(ToolError::new(
                    "malformed_identifier",
                    "not an identifier".into(),
                    "Pass a CURIE such as HP:0000118 or an IRI.",
                )),
            );
        }
    };
    let total = resolution.concepts.len() as u64;
    let mut sources = sources;
    sources.extend(registry_release(r));
    Ok(Envelope {
        query: echo,
        total,
        returned: total,
        truncated: false,
        cursor: None,
        sources,
        index: r.manifest().build_id.clone(),
        sparql,
        suggestion,
        result: resolution,
    })
}

pub fn find_concepts(r: &Resolver, args: &FindArgs) -> Result<Envelope<Candidates>, ToolError> {
    let input = json!({
        "text": args.text, "sources": args.sources, "include_obsolete": args.include_obsolete, "limit": args.limit
    });
    let text = args.text.trim();
    if text.is_empty() || text.len() > MAX_TEXT_BYTES {
        return Err(ToolError::new(
            "invalid_argument",
            format!("text must be 1 to {MAX_TEXT_BYTES} bytes"),
            "Pass the name to look for, e.g. \"Abnormality of body height\".",
        ));
    }
    let mut defaults = Vec::new();
    let limit = match args.limit {
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
    } as usize;
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
        .map(|s| format!("<{}>", sparql_iri(&s.graph)))
        .collect();
    let search = r
        .find_by_name(&NameQuery {
            text,
            sources: Some(&wanted),
            include_obsolete,
        })
        .map_err(|e| {
            tracing::error!(error = %e, "name search failed");
            ToolError::new(
                "index_damaged",
                "part of the index could not be read, so the answer would be incomplete".into(),
                "Do not treat this as no match. Tell whoever runs the server; rebuilding the index repairs it.",
            )
        })?;
    let distinct = search.distinct_concepts() as u64;
    let entities = search.distinct_entities as u64;
    let total = search.candidates.len() as u64;
    let mut candidates: Vec<Candidate> = search
        .candidates
        .iter()
        .take(limit)
        .filter_map(|c| candidate(r, c))
        .collect();
    candidates.truncate(limit);
    let returned = candidates.len() as u64;
    let sparql = match search.decided {
        Some(Stage::Identifier) => format!(
            "SELECT DISTINCT ?concept ?graph WHERE {{ VALUES ?concept {{ {} }} VALUES ?graph {{ {} }} GRAPH ?graph {{ ?concept ?p ?o }} }}",
            values_of(&candidates),
            graphs.join(" ")
        ),
        Some(Stage::NearSpelling | Stage::FullText) => format!(
            "# Edit-distance and BM25 matching are not expressible in SPARQL: this query returns the candidates' names and graphs to check them.\n\
             SELECT ?concept ?label ?graph WHERE {{ VALUES ?concept {{ {} }} VALUES ?graph {{ {} }} GRAPH ?graph {{ ?concept ?p ?label . VALUES ?p {{ {} }} }} }}",
            values_of(&candidates),
            graphs.join(" "),
            primary_predicates()
        ),
        _ => exact_sparql(text, &graphs, include_obsolete),
    };
    let obsolete_hidden = search.obsolete_hidden();
    let suggestion = if total == 0 {
        Some(if obsolete_hidden > 0 {
            format!(
                "Only obsolete or withdrawn concepts match: {}. Call again with include_obsolete=true to see them.",
                hidden_summary(r, &search.hidden)
            )
        } else if args.sources.as_ref().is_some_and(|s| !s.is_empty()) {
            "Nothing matches in the chosen sources, even as a near spelling or in definitions: drop the sources filter, or try other wording.".into()
        } else {
            "No concept matches, even as a near spelling or in definitions. Try a broader or differently worded name, or check list_sources for what is loaded.".into()
        })
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
    };
    let truncated = total > returned || search.more_exist;
    Ok(Envelope {
        query: QueryEcho {
            input,
            normalized: crate::resolve::name_key(text),
            steps: vec!["folded case, spacing and punctuation".into()],
            filters: json!({ "sources": wanted, "include_obsolete": include_obsolete, "limit": limit }),
            defaults_applied: defaults,
        },
        total,
        returned,
        truncated,
        cursor: truncated.then(|| {
            if search.more_exist {
                format!(
                    "more than {FULL_TEXT_DEPTH} full-text matches exist: use more specific words"
                )
            } else {
                format!(
                    "call again with limit={}",
                    (total as usize).min(MAX_LIMIT as usize)
                )
            }
        }),
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
            stages_tried: search
                .stages_tried
                .iter()
                .map(|s| s.as_str().to_string())
                .collect(),
        },
    })
}

/// The source ids a call searches: the ones asked for, all checked, or every loaded source.
fn wanted_sources(
    r: &Resolver,
    asked: Option<&[String]>,
    defaults: &mut Vec<String>,
) -> Result<Vec<String>, ToolError> {
    let known: Vec<&str> = r.manifest().sources.iter().map(|s| s.id.as_str()).collect();
    match asked {
        Some(list) if !list.is_empty() => {
            if let Some(bad) = list.iter().find(|s| !known.contains(&s.as_str())) {
                return Err(ToolError::new(
                    "invalid_argument",
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
fn hidden_summary(r: &Resolver, hidden: &[ConceptId]) -> String {
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
fn candidate(r: &Resolver, c: &NameCandidate) -> Option<Candidate> {
    let concept = r.concept(c.concept)?;
    let (distance_penalty, case_penalty) = crate::resolve::penalties(c);
    let match_type = match c.stage {
        Stage::Identifier => "identifier",
        Stage::ExactName if c.kind.weight() >= 0.95 => "exact_label",
        Stage::ExactName => "synonym",
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
        score: Score {
            total: c.score,
            match_type: c.weight.min(1.0),
            distance_penalty,
            case_penalty,
            text_relevance: c.relevance,
        },
    })
}

/// The exact/synonym stage in SPARQL: the same normalization (case, and every run of characters
/// that are not letters or digits as one space), the same graphs, the same obsolete filter.
fn exact_sparql(text: &str, graphs: &[String], include_obsolete: bool) -> String {
    let key = crate::resolve::name_key(text);
    let normalized =
        "LCASE(REPLACE(REPLACE(STR(?label), \"[^\\\\p{L}\\\\p{N}]+\", \" \"), \"^ +| +$\", \"\"))";
    let obsolete = if include_obsolete {
        String::new()
    } else {
        " FILTER NOT EXISTS { GRAPH ?graph { ?concept <http://www.w3.org/2002/07/owl#deprecated> ?d FILTER(STR(?d) = \"true\" || STR(?d) = \"1\") } }".to_string()
    };
    // NLM's MeSH RDF keeps a descriptor's names on its concepts' terms.
    let mesh_terms = "{ ?concept (<http://id.nlm.nih.gov/mesh/vocab#preferredConcept>|<http://id.nlm.nih.gov/mesh/vocab#concept>)/(<http://id.nlm.nih.gov/mesh/vocab#preferredTerm>|<http://id.nlm.nih.gov/mesh/vocab#term>)/(<http://id.nlm.nih.gov/mesh/vocab#prefLabel>|<http://id.nlm.nih.gov/mesh/vocab#altLabel>) ?label }";
    // MeSH's concept, term and tree-number nodes carry labels too, but are never concepts here;
    // qualifiers are never name candidates.
    let not_concepts = " FILTER NOT EXISTS { ?concept a ?nodeType . VALUES ?nodeType { <http://id.nlm.nih.gov/mesh/vocab#Concept> <http://id.nlm.nih.gov/mesh/vocab#Term> <http://id.nlm.nih.gov/mesh/vocab#TreeNumber> <http://id.nlm.nih.gov/mesh/vocab#Qualifier> } }";
    String::from("SELECT DISTINCT ?concept ?label ?graph WHERE { VALUES ?graph { ")
        + &graphs.join(" ")
        + " } GRAPH ?graph { { ?concept ?p ?label . FILTER(?p IN ("
        + &name_predicates()
        + ")) } UNION "
        + mesh_terms
        + " FILTER("
        + normalized
        + " = "
        + &sparql_string(&key)
        + ")"
        + not_concepts
        + " }"
        + &obsolete
        + " } ORDER BY ?concept"
}

fn links(r: &Resolver, c: &Concept, links: &[Link], take: usize) -> Vec<LinkDto> {
    links
        .iter()
        .take(take)
        .map(|l| {
            let found = r.by_iri_any(&l.iri, c.source).map(|(_, c)| c);
            let (curie, label) = curie_and_label(r, &l.iri, found.as_ref());
            LinkDto {
                iri: l.iri.clone(),
                curie,
                label,
                relation: match l.kind {
                    crate::model::LinkKind::SubClassOf => "sub_class_of".into(),
                    crate::model::LinkKind::Broader => "broader".into(),
                    crate::model::LinkKind::BroaderDescriptor => "broader_descriptor".into(),
                },
            }
        })
        .collect()
}

/// The full record of one concept, as `get_concept` and concept resources return it.
pub fn detail(r: &Resolver, id: ConceptId) -> Option<ConceptDetail> {
    let c = r.concept(id)?;
    let source = r.source_of(&c)?;
    let found_chains = if c.obsolete {
        r.replacement_chains(&c)
    } else {
        Vec::new()
    };
    Some(ConceptDetail {
        concept: summary(r, &c),
        labels: c
            .labels
            .iter()
            .map(|l| LabelDto {
                text: l.text.clone(),
                kind: l.kind.as_str().into(),
                lang: l.lang.clone(),
            })
            .collect(),
        definitions: c
            .definitions
            .iter()
            .map(|d| LabelDto {
                text: d.text.clone(),
                kind: "definition".into(),
                lang: d.lang.clone(),
            })
            .collect(),
        parents: links(r, &c, &c.parents, usize::MAX),
        children: links(r, &c, &c.children, MAX_CHILDREN),
        children_total: c.children.len() as u64,
        xrefs: c
            .xrefs
            .iter()
            .map(|x| {
                let asserted_by = r.manifest().sources.get(usize::from(x.prov.source));
                XrefDto {
                    target: x.target.clone(),
                    predicate: x.kind.curie().into(),
                    qualifier: x.qualifier.clone(),
                    source: asserted_by.map(|s| s.id.clone()).unwrap_or_default(),
                    release: asserted_by.map(|s| s.release.clone()).unwrap_or_default(),
                }
            })
            .collect(),
        alt_ids: c.alt_ids.clone(),
        tree_numbers: c.tree_numbers.clone(),
        locus_type: c.locus_type.clone(),
        taxon: c.taxon.clone(),
        replacements: chains(r, &found_chains),
        consider: c
            .replacements_of(crate::model::ReplacementKind::Consider)
            .map(|x| x.target.clone())
            .collect(),
        graph: source.graph.clone(),
    })
}

pub fn get_concept(
    r: &Resolver,
    args: &IdentifierArgs,
) -> Result<Envelope<Option<ConceptDetail>>, ToolError> {
    let input = json!({ "identifier": args.identifier });
    let (normalized, outcome) = r.resolve_identifier(&args.identifier);
    if let Some(error) = identifier_error(&outcome, &normalized) {
        return Err(error);
    }
    if let Outcome::Ambiguous { local, readings } = &outcome {
        let readings: Vec<&str> = readings.iter().map(|x| x.curie.as_str()).collect();
        let mut error = ToolError::new(
            "ambiguous_input",
            format!(
                "'{local}' is a bare local id; it reads as {}",
                readings.join(" or ")
            ),
            "Pass the full CURIE of the reading you mean.",
        );
        error.details = json!({ "readings": readings });
        return Err(error);
    }
    let (id, held_by) = match &outcome {
        Outcome::Found(m) => (m.first().map(|m| m.concept), m.len() as u64),
        Outcome::Obsolete { concept, .. } => (Some(*concept), 1),
        _ => (None, 0),
    };
    let detail = id.and_then(|id| detail(r, id));
    let iri = normalized.iri.clone().unwrap_or_default();
    let graph = detail.as_ref().map(|d| d.graph.clone());
    // Several sources may hold the identifier: this answer shows the first, and says so.
    let total = if detail.is_some() { held_by.max(1) } else { 0 };
    Ok(Envelope {
        query: QueryEcho {
            input,
            normalized: normalized.curie.clone().or(normalized.iri.clone()).unwrap_or_default(),
            steps: normalized.steps,
            filters: json!({}),
            defaults_applied: vec![format!("children listed up to {MAX_CHILDREN}")],
        },
        total,
        returned: u64::from(detail.is_some()),
        truncated: total > 1 || detail.as_ref().is_some_and(|d| d.children_total as usize > d.children.len()),
        cursor: (total > 1).then(|| "held by several sources: call resolve_identifier to list them all".into()),
        sources: match &detail {
            Some(d) => vec![SourceRelease { id: d.concept.source.clone(), release: d.concept.release.clone() }],
            None => all_sources(r),
        },
        index: r.manifest().build_id.clone(),
        sparql: match graph {
            Some(g) => format!("SELECT ?p ?o WHERE {{ GRAPH <{}> {{ <{}> ?p ?o }} }}", sparql_iri(&g), sparql_iri(&iri)),
            None => format!("SELECT ?graph ?p ?o WHERE {{ GRAPH ?graph {{ <{}> ?p ?o }} }} LIMIT 1", sparql_iri(&iri)),
        },
        suggestion: detail.is_none().then(|| "This well-formed identifier is in no loaded source; see resolve_identifier and list_sources.".into()),
        result: detail,
    })
}

pub fn source_info(s: &SourceRecord) -> SourceInfo {
    SourceInfo {
        id: s.id.clone(),
        title: s.title.clone(),
        release: s.release.clone(),
        release_origin: match &s.release_origin {
            ReleaseOrigin::File { property } => format!("file ({property})"),
            ReleaseOrigin::Catalogue => "catalogue".into(),
            ReleaseOrigin::Unknown => "unknown".into(),
        },
        concepts: s.counts.concepts,
        obsolete: s.counts.obsolete,
        triples: s.counts.triples,
        license: s.license.clone(),
        scope: s.scope.clone(),
        homepage: s.homepage.clone(),
        graph: s.graph.clone(),
        resource: format!("ontoresolve://source/{}", s.id),
    }
}

pub fn list_sources(r: &Resolver) -> Envelope<SourceList> {
    let m = r.manifest();
    let sources: Vec<SourceInfo> = m.sources.iter().map(source_info).collect();
    let total = sources.len() as u64;
    Envelope {
        query: QueryEcho { input: json!({}), normalized: String::new(), steps: Vec::new(), filters: json!({}), defaults_applied: Vec::new() },
        total,
        returned: total,
        truncated: false,
        cursor: None,
        sources: all_sources(r),
        index: m.build_id.clone(),
        sparql: "SELECT ?graph (COUNT(*) AS ?triples) WHERE { GRAPH ?graph { ?s ?p ?o } } GROUP BY ?graph ORDER BY ?graph".into(),
        suggestion: None,
        result: SourceList {
            sources,
            not_loaded: m.skipped.iter().map(|s| NotLoaded { id: s.id.clone(), reason: s.reason.clone() }).collect(),
            registry: m.registry.source.as_ref().map(|s| RegistryInfo {
                id: s.id.clone(),
                title: s.title.clone(),
                release: s.release.clone(),
                license: s.license.clone(),
                prefixes: m.registry.counts.records,
                uri_prefixes: m.registry.counts.uri_prefixes,
                patterns: m.registry.counts.patterns,
                resource_template: prefix_resource_uri("{prefix}"),
            }),
        },
    }
}
