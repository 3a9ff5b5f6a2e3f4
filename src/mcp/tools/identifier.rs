//! "What is this identifier?": `resolve_identifier`, and the answers for obsolete
//! identifiers and input errors.

use serde_json::json;

use super::*;
use crate::mcp::dto::*;
use crate::resolve::sparql;
use crate::resolve::{
    BareReading, Chain, ChainEnd, ConceptId, IdMatch, Normalized, Outcome, Resolver,
};
use crate::resolve::{MAX_IDENTIFIER_BYTES, PatternCheck};

/// The error an outcome is, if it is one; its message, which may quote up to
/// `MAX_IDENTIFIER_BYTES` of the input, is cut as every error's is.
pub(super) fn identifier_error(outcome: &Outcome, normalized: &Normalized) -> Option<ToolError> {
    outcome_error(outcome, normalized).map(|mut e| {
        e.message = crate::mcp::echo::error_text(&e.message);
        e
    })
}

fn outcome_error(outcome: &Outcome, normalized: &Normalized) -> Option<ToolError> {
    let steps = crate::mcp::wire::steps(&normalized.steps);
    match outcome {
        Outcome::Malformed {
            reason,
            expected,
            example,
        } => Some(ToolError {
            code: ErrorCode::MalformedIdentifier,
            message: match expected {
                Some(e) => format!("{reason}; expected {e}"),
                None => reason.to_string(),
            },
            next_step: match example {
                Some(x) => format!("Check the identifier; a valid one looks like {x}. To search by name, call find_concepts."),
                None => "Pass a CURIE such as HP:0000118 or an IRI; to search by name, call find_concepts.".into(),
            },
            details: json!({
                "outcome": Tag::of(outcome),
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
            code: ErrorCode::UnknownPrefix,
            message: format!(
                "no URI prefix in the Bioregistry or the catalogue matches this IRI (its namespace is {prefix})"
            ),
            next_step: "Pass the identifier as a CURIE (PREFIX:local) if you know its prefix; call list_sources for the loaded sources, or find_concepts to search by name.".into(),
            details: json!({ "outcome": Tag::of(outcome), "namespace": prefix, "suggestions": suggestions, "steps": steps }),
        }),
        Outcome::UnknownPrefix {
            prefix,
            suggestions,
            namespace: false,
        } => Some(ToolError {
            code: ErrorCode::UnknownPrefix,
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
            details: json!({ "outcome": Tag::of(outcome), "prefix": prefix, "suggestions": suggestions, "steps": steps }),
        }),
        _ => None,
    }
}

/// What `Outcome::Obsolete` says, borrowed for its answer.
struct Obsoleted<'a> {
    concept: ConceptId,
    found_chains: &'a [Chain],
    consider: Vec<String>,
    alt_id_of: &'a [ConceptId],
}

/// The answer for an obsolete identifier: every replacement chain, the alternatives to
/// consider, and the live concepts that list it as an alternative id.
fn obsolete_answer(
    r: &Resolver,
    outcome: Tag<Outcome>,
    normalized: &str,
    iri: &str,
    obsoleted: Obsoleted<'_>,
) -> Result<Answer, ToolError> {
    let Obsoleted {
        concept,
        found_chains,
        consider,
        alt_id_of,
    } = obsoleted;
    let (concepts, sources) = summaries(r, std::iter::once(r.concept(concept)?));
    let replacements = chains(r, found_chains)?;
    let ends = chain_ends(r, found_chains)?;
    let alt_of: Vec<ConceptSummary> = alt_id_of
        .iter()
        .map(|id| Ok(summary(r, &r.concept(*id)?)))
        .collect::<Result<_, ToolError>>()?;
    let status = concepts.first().map_or("obsolete", |c| c.status.as_str());
    let message = obsolete_message(normalized, status, &ends, consider.is_empty(), &alt_of);
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
            sources.push(release_of(r, &c.source));
        }
    }
    let resolution = Resolution {
        outcome,
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
        releases: Vec::new(),
    };
    let sparql = sparql::obsolete_replacements(iri);
    Ok((resolution, sources, sparql, None))
}
/// One description per replacement chain, from where the core says it ends, with the live
/// concept it ends at when it does.
fn chain_ends(
    r: &Resolver,
    found_chains: &[Chain],
) -> Result<Vec<(Option<String>, String)>, ToolError> {
    let name = |id: ConceptId| -> Result<String, ToolError> {
        let c = r.concept(id)?;
        Ok(c.curie.unwrap_or(c.iri))
    };
    found_chains
        .iter()
        .map(|chain| {
            Ok(match chain.end() {
                ChainEnd::Live(id) => (Some(name(id)?), name(id)?),
                ChainEnd::NotLoaded(iri) => (
                    None,
                    format!(
                        "{}, which is not in the loaded sources",
                        r.registry().compress(&iri).unwrap_or(iri)
                    ),
                ),
                ChainEnd::Dead(id) => (
                    None,
                    format!("{}, itself retired with no further replacement", name(id)?),
                ),
                ChainEnd::Cycle => (None, "a cycle of replaced_by links".to_string()),
            })
        })
        .collect()
}

/// What an obsolete identifier's answer says: its status, each replacement, and the live
/// concepts it is also an alternative id of.
fn obsolete_message(
    normalized: &str,
    status: &str,
    ends: &[(Option<String>, String)],
    nothing_to_consider: bool,
    alt_of: &[ConceptSummary],
) -> String {
    let mut message = match ends {
        [] if nothing_to_consider => format!("{normalized} is {status} and names no replacement"),
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
            .map(|c| {
                c.name
                    .curie
                    .clone()
                    .or_else(|| c.name.iri.clone())
                    .unwrap_or_default()
            })
            .collect();
        message.push_str(&format!(
            "; it is also an alternative id of {}",
            names.join(", ")
        ));
    }
    message
}

/// An answer's parts: resolution, source releases, SPARQL and suggestion.
type Answer = (Resolution, Vec<SourceRelease>, String, Option<String>);

pub fn resolve_identifier(
    r: &Resolver,
    args: &IdentifierArgs,
) -> Result<Envelope<Resolution>, ToolError> {
    check_length(&args.identifier)?;
    let (normalized, outcome) = r
        .resolve_identifier_in(&args.identifier, args.release.as_deref())?
        .map_err(|e| pin_error(&e))?;
    let echo = identifier_echo(args, &normalized);
    let held = held_releases(r, &outcome)?;
    let (mut resolution, mut sources, sparql, suggestion) =
        outcome_answer(r, &echo.normalized, &normalized, outcome)?;
    if resolution.releases.is_empty() {
        resolution.releases = held;
    }
    let total = resolution.concepts.len() as u64;
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

/// One identifier is all the tool reads: a longer input is refused before any work.
fn check_length(identifier: &str) -> Result<(), ToolError> {
    if identifier.len() <= MAX_IDENTIFIER_BYTES {
        return Ok(());
    }
    Err(ToolError::new(
        ErrorCode::LimitExceeded,
        format!(
            "the identifier is {} bytes; at most {MAX_IDENTIFIER_BYTES} are accepted",
            identifier.len()
        ),
        "Pass one identifier, e.g. HP:0000118; for many, call map_identifiers or resolve them one by one.",
    ))
}

/// The echo: the input, the canonical spelling read, the steps that led there and the pin.
fn identifier_echo(args: &IdentifierArgs, normalized: &Normalized) -> QueryEcho {
    QueryEcho {
        input: json!({ "identifier": args.identifier, "release": args.release }),
        normalized: normalized
            .curie
            .clone()
            .or(normalized.iri.clone())
            .unwrap_or_else(|| args.identifier.trim().to_string()),
        steps: crate::mcp::wire::steps(&normalized.steps),
        filters: match &normalized.release {
            Some(release) => json!({ "release": release }),
            None => json!({}),
        },
        defaults_applied: Vec::new(),
    }
}

/// The answer for each outcome; an identifier that cannot be read is an error.
fn outcome_answer(
    r: &Resolver,
    canonical: &str,
    normalized: &Normalized,
    outcome: Outcome,
) -> Result<Answer, ToolError> {
    let iri = normalized.iri.clone().unwrap_or_default();
    let tag = Tag::of(&outcome);
    Ok(match outcome {
        Outcome::Found(matches) => found_answer(r, tag, canonical, &iri, &matches)?,
        Outcome::Obsolete {
            concept,
            chains: found_chains,
            consider,
            alt_id_of,
        } => obsolete_answer(
            r,
            tag,
            canonical,
            &iri,
            Obsoleted {
                concept,
                found_chains: &found_chains,
                consider,
                alt_id_of: &alt_id_of,
            },
        )?,
        not_loaded @ Outcome::NotInLoadedSources { .. } => {
            not_loaded_answer(r, tag, canonical, &iri, not_loaded)?
        }
        Outcome::Ambiguous { local, readings } => ambiguous_answer(r, tag, &local, &readings)?,
        Outcome::NotInRelease { release, holders } => {
            not_in_release_answer(tag, canonical, &iri, &release, &holders)
        }
        error @ (Outcome::Malformed { .. } | Outcome::UnknownPrefix { .. }) => {
            return Err(
                identifier_error(&error, normalized).unwrap_or(ToolError::new(
                    ErrorCode::MalformedIdentifier,
                    "not an identifier".into(),
                    "Pass a CURIE such as HP:0000118 or an IRI.",
                )),
            );
        }
    })
}

/// The answer for an identifier that loaded sources hold.
fn found_answer(
    r: &Resolver,
    outcome: Tag<Outcome>,
    shown: &str,
    iri: &str,
    matches: &[IdMatch],
) -> Result<Answer, ToolError> {
    let found = (matches.iter())
        .map(|m| r.concept(m.concept))
        .collect::<Result<Vec<_>, _>>()?;
    let (concepts, sources) = summaries(r, found.into_iter());
    let message = match concepts.as_slice() {
        [one] => format!(
            "{} is {:?} in {} release {}",
            shown,
            one.name.label.as_deref().unwrap_or(""),
            one.source,
            sources
                .first()
                .map(|s| s.release.as_str())
                .unwrap_or_default()
        ),
        many => format!("{} is held by {} sources", shown, many.len()),
    };
    Ok((
        Resolution::new(
            outcome,
            message,
            "Call get_concept for labels, definitions, parents, children and xrefs.",
            concepts,
        ),
        sources,
        sparql::identifier_names(iri),
        None,
    ))
}

/// What a well-formed identifier no loaded source holds is, and why nothing more is known.
fn not_loaded_message(
    shown: &str,
    prefix: &str,
    name: &str,
    pattern: PatternCheck,
    catalogued: &[String],
    loaded: &[String],
    deprecated_prefix: bool,
) -> String {
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
            "{shown} {what}, but the loaded release of {} does not have it",
            loaded.join(", ")
        )
    } else if !catalogued.is_empty() {
        format!(
            "{shown} {what}; its source ({}) is in the catalogue but not loaded, so nothing can be said about it here",
            catalogued.join(", ")
        )
    } else {
        format!(
            "{shown} {what}; no catalogued source provides {prefix}, so it cannot be checked here"
        )
    };
    if deprecated_prefix {
        message.push_str("; the Bioregistry deprecates this prefix");
    }
    message
}

fn not_loaded_next_step(prefix: &str, resolver_url: Option<&str>, loaded: &[String]) -> String {
    match (resolver_url, loaded.is_empty()) {
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
    }
}

/// The answer for a well-formed identifier that no loaded source holds.
fn not_loaded_answer(
    r: &Resolver,
    tag: Tag<Outcome>,
    shown: &str,
    iri: &str,
    outcome: Outcome,
) -> Result<Answer, ToolError> {
    let Outcome::NotInLoadedSources {
        record,
        prefix,
        catalogued,
        loaded,
        resolver_url,
        deprecated_prefix,
        pattern,
    } = outcome
    else {
        return Err(ToolError::new(
            ErrorCode::MalformedIdentifier,
            "not an identifier".into(),
            "Pass a CURIE such as HP:0000118 or an IRI.",
        ));
    };
    let info = prefix_info(r, record);
    let name = info
        .as_ref()
        .and_then(|i| i.name.clone())
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    let message = not_loaded_message(
        shown,
        &prefix,
        &name,
        pattern,
        &catalogued,
        &loaded,
        deprecated_prefix,
    );
    let next_step = not_loaded_next_step(&prefix, resolver_url.as_deref(), &loaded);
    Ok((
        Resolution {
            outcome: tag,
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
            releases: Vec::new(),
        },
        r.manifest()
            .sources
            .iter()
            .filter(|s| loaded.contains(&s.id))
            .map(source_release)
            .collect(),
        sparql::any_statement(iri),
        Some("No loaded concept has this identifier: do not use it as if it resolved.".into()),
    ))
}

/// The answer for a bare local id: every reading.
fn ambiguous_answer(
    r: &Resolver,
    outcome: Tag<Outcome>,
    local: &str,
    readings: &[BareReading],
) -> Result<Answer, ToolError> {
    let found: Vec<Option<Concept>> = (readings.iter())
        .map(|x| x.concept.map(|id| r.concept(id)).transpose())
        .collect::<Result<_, _>>()?;
    let dtos: Vec<ReadingDto> = (readings.iter().zip(&found))
        .map(|(x, c)| ReadingDto {
            curie: x.curie.clone(),
            concept: c.as_ref().map(|c| summary(r, c)),
        })
        .collect();
    let (concepts, sources) = summaries(r, found.iter().flatten().cloned());
    let described: Vec<String> = dtos
        .iter()
        .map(|d| match &d.concept {
            Some(c) => format!(
                "{} ({})",
                d.curie,
                c.name.label.as_deref().unwrap_or("found")
            ),
            None => format!("{} (not in the loaded sources)", d.curie),
        })
        .collect();
    let mut resolution = Resolution::new(
        outcome,
        format!(
            "'{local}' has no prefix; it reads as {}",
            described.join(" or ")
        ),
        "Pass the full CURIE of the reading you mean.",
        concepts,
    );
    resolution.readings = dtos;
    // The readings found, named: a search of every identifier's ending would scan the store.
    let found: Vec<&str> = found.iter().flatten().map(|c| c.iri.as_str()).collect();
    Ok((
        resolution,
        sources,
        sparql::concepts_in_graphs(&found, &[]),
        Some("A bare local id is not an identifier: choose a reading and pass its CURIE.".into()),
    ))
}

/// Each loaded release of the found concept's source and how it holds the identifier;
/// empty where one release is loaded.
fn held_releases(r: &Resolver, outcome: &Outcome) -> Result<Vec<ReleaseHeld>, ToolError> {
    let Some(id) = outcome.concept() else {
        return Ok(Vec::new());
    };
    Ok(release_dtos(
        &r.releases().releases_holding(&r.concept(id)?)?,
    ))
}

pub(super) fn release_dtos(holders: &[crate::resolve::ReleaseHolding]) -> Vec<ReleaseHeld> {
    holders
        .iter()
        .map(|h| ReleaseHeld {
            release: h.release.clone(),
            held: Tag::of(&h.held),
            current: h.current,
        })
        .collect()
}

/// The pinned release lacks the identifier: say which loaded releases hold it.
fn not_in_release_answer(
    outcome: Tag<Outcome>,
    normalized: &str,
    iri: &str,
    release: &str,
    holders: &[crate::resolve::ReleaseHolding],
) -> Answer {
    let holding: Vec<String> = holders
        .iter()
        .filter(|h| h.held != crate::resolve::HeldAs::Absent)
        .map(|h| h.release.clone())
        .collect();
    let mut resolution = Resolution::new(
        outcome,
        format!(
            "{normalized} is not in release {release}; loaded releases holding it: {}",
            holding.join(", ")
        ),
        "Pin a release that holds it, or leave the release out for the current one.",
        Vec::new(),
    );
    resolution.releases = release_dtos(holders);
    (
        resolution,
        Vec::new(),
        sparql::obsolete_replacements(iri),
        None,
    )
}
