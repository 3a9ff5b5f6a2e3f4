//! "What is known about it?" and "what is loaded?": `get_concept`, the concept record that
//! resources share, and `list_sources`.

use serde_json::json;

use super::identifier::identifier_error;
use super::*;
use crate::mcp::dto::*;
use crate::model::{Concept, Link};
use crate::resolve::sparql;
use crate::resolve::{ConceptId, Outcome, Resolver};
use crate::resolve::{ReleaseOrigin, SourceRecord};

pub(super) fn links(
    r: &Resolver,
    c: &Concept,
    links: &[Link],
    take: usize,
) -> Result<Vec<LinkDto>, ToolError> {
    links
        .iter()
        .take(take)
        .map(|l| {
            let found = r.lexicon().by_iri_any(&l.iri, c.source)?.map(|(_, c)| c);
            Ok(LinkDto {
                name: named(r, &l.iri, found.as_ref()),
                relation: Tag::of(&l.kind),
            })
        })
        .collect()
}

/// The full record of one concept, as `get_concept` and concept resources return it.
pub fn detail(r: &Resolver, id: ConceptId) -> Result<ConceptDetail, ToolError> {
    let c = r.concept(id)?;
    let source = (r.source_of(&c))
        .ok_or_else(|| index_damaged(&"a concept names a source the manifest does not list"))?;
    let found_chains = if c.obsolete {
        r.replacement_chains(&c)?
    } else {
        Vec::new()
    };
    Ok(ConceptDetail {
        concept: summary(r, &c),
        release: source.release.clone(),
        releases: super::identifier::release_dtos(&r.releases().releases_holding(&c)?),
        labels: c
            .labels
            .iter()
            .map(|l| LabelDto {
                text: l.text.clone(),
                kind: Tag::of(&l.kind),
                lang: l.lang.clone(),
            })
            .collect(),
        definitions: c
            .definitions
            .iter()
            .map(|d| DefinitionDto {
                text: d.text.clone(),
                lang: d.lang.clone(),
            })
            .collect(),
        parents: links(r, &c, &c.parents, usize::MAX)?,
        children: links(r, &c, &c.children, MAX_CHILDREN)?,
        children_total: c.children.len() as u64,
        xrefs: c
            .xrefs
            .iter()
            .map(|x| {
                let asserted_by = r.manifest().sources.get(x.prov.source.slot());
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
        replacements: chains(r, &found_chains)?,
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
    let input = json!({ "identifier": args.identifier, "release": args.release });
    let (normalized, outcome) = r
        .resolve_identifier_in(&args.identifier, args.release.as_deref())?
        .map_err(|e| pin_error(&e))?;
    if let Some(error) = identifier_error(&outcome, &normalized) {
        return Err(error);
    }
    if let Outcome::Ambiguous { local, readings } = &outcome {
        let readings: Vec<&str> = readings.iter().map(|x| x.curie.as_str()).collect();
        let mut error = ToolError::new(
            ErrorCode::AmbiguousInput,
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
    let detail = id.map(|id| detail(r, id)).transpose()?;
    let iri = normalized.iri.clone().unwrap_or_default();
    let graph = detail.as_ref().map(|d| d.graph.clone());
    // Several sources may hold the identifier: this answer shows the first, and says so.
    let total = if detail.is_some() { held_by.max(1) } else { 0 };
    Ok(Envelope {
        query: QueryEcho {
            input,
            normalized: normalized.curie.clone().or(normalized.iri.clone()).unwrap_or_default(),
            steps: crate::mcp::wire::steps(&normalized.steps),
            filters: json!({}),
            defaults_applied: vec![format!("children listed up to {MAX_CHILDREN}")],
        },
        total,
        returned: u64::from(detail.is_some()),
        truncated: total > 1 || detail.as_ref().is_some_and(|d| d.children_total as usize > d.children.len()),
        cursor: (total > 1).then(|| "held by several sources: call resolve_identifier to list them all".into()),
        sources: match &detail {
            Some(d) => vec![SourceRelease { id: d.concept.source.clone(), release: d.release.clone() }],
            None => all_sources(r),
        },
        index: r.manifest().build_id.clone(),
        sparql: sparql::concept_statements(&iri, graph.as_deref()),
        suggestion: detail.is_none().then(|| match &outcome {
            Outcome::NotInRelease { release, holders } => format!(
                "Release {release} does not hold it; loaded releases holding it: {}.",
                holders
                    .iter()
                    .filter(|h| h.held != crate::resolve::HeldAs::Absent)
                    .map(|h| h.release.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => "This well-formed identifier is in no loaded source; see resolve_identifier and list_sources.".into(),
        }),
        result: detail,
    })
}

pub fn source_info(r: &Resolver, s: &SourceRecord) -> SourceInfo {
    SourceInfo {
        id: s.id.clone(),
        title: s.title.clone(),
        release: s.release.clone(),
        release_origin: Tag::of(&s.release_origin),
        superseded_by: (!s.current)
            .then(|| r.manifest().source(&s.id).map(|c| c.release.clone()))
            .flatten(),
        release_statement: match &s.release_origin {
            ReleaseOrigin::File { property } => Some(property.clone()),
            ReleaseOrigin::Catalogue | ReleaseOrigin::Unknown => None,
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
    let sources: Vec<SourceInfo> = m.sources.iter().map(|s| source_info(r, s)).collect();
    let total = sources.len() as u64;
    Envelope {
        query: QueryEcho {
            input: json!({}),
            normalized: String::new(),
            steps: Vec::new(),
            filters: json!({}),
            defaults_applied: Vec::new(),
        },
        total,
        returned: total,
        truncated: false,
        cursor: None,
        sources: all_sources(r),
        index: m.build_id.clone(),
        sparql: sparql::graphs_present(
            &m.sources
                .iter()
                .map(|s| s.graph.as_str())
                .collect::<Vec<_>>(),
        ),
        suggestion: None,
        result: SourceList {
            sources,
            not_loaded: m
                .skipped
                .iter()
                .map(|s| NotLoaded {
                    id: s.id.clone(),
                    reason: s.reason.clone(),
                })
                .collect(),
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
