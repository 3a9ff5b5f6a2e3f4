//! Resources: what `resources/list` names (sources, mapping sets, prefixes, top concepts) and
//! how each kind of URI is read (a concept by IRI or CURIE as JSON and Turtle, a source, a
//! prefix record, an identifier's mappings, a mapping set).

use crate::model::WireName;
use rmcp::ErrorData as McpError;
use rmcp::model::*;
use serde_json::{Value, json};

use super::tools;
use crate::resolve::{ResolveError, Resolver};

pub(super) fn source_resource(s: &crate::resolve::SourceRecord) -> Resource {
    Resource::new(format!("ontoresolve://source/{}", s.id), s.id.clone())
        .with_title(format!("{} (release {})", s.title, s.release))
        .with_description(format!(
            "{} Licence: {}. {}",
            s.scope, s.license, s.attribution
        ))
        .with_mime_type("application/json")
}

pub(super) fn concept_resource(r: &Resolver, iri: &str) -> Result<Option<Resource>, ResolveError> {
    let Some(m) = r.lexicon().lookup_id(iri)?.into_iter().next() else {
        return Ok(None);
    };
    let c = r.concept(m.concept)?;
    let Some(source) = r.source_of(&c) else {
        return Ok(None);
    };
    Ok(Some(
        Resource::new(
            c.iri.clone(),
            c.curie.clone().unwrap_or_else(|| c.iri.clone()),
        )
        .with_title(
            c.preferred_label()
                .map(|l| l.text.clone())
                .unwrap_or_default(),
        )
        .with_description(format!(
            "Top concept of {} release {}; licence: {}",
            source.id, source.release, source.license
        ))
        .with_mime_type("application/json"),
    ))
}

pub(super) fn prefix_resource(r: &Resolver, record: crate::resolve::RecordId) -> Option<Resource> {
    let info = tools::prefix_info(r, record)?;
    Some(
            Resource::new(info.resource.clone(), info.prefix.clone())
                .with_title(info.name.clone().unwrap_or_else(|| info.prefix.clone()))
                .with_description(format!(
                    "The prefix {}: its registry record, pattern, example, URI prefixes and the loaded sources that use it",
                    info.prefix
                ))
                .with_mime_type("application/json"),
        )
}

/// Sources first (each once: its resource lists its releases), then the prefixes they use,
/// then each source's top concepts in its current release.
pub(super) fn all_listed(r: &Resolver) -> Result<Vec<Resource>, ResolveError> {
    let m = r.manifest();
    let current = || m.sources.iter().filter(|s| s.current);
    let mut out: Vec<Resource> = current().map(source_resource).collect();
    out.extend(tools::mapping_set_entries(r).into_iter().map(
            |(id, title, license, rows)| {
                Resource::new(format!("ontoresolve://mapping-set/{id}"), id.clone())
                    .with_title(title)
                    .with_description(format!("Mapping set {id}: {rows} rows; licence: {license}. Its files' headers and counts."))
                    .with_mime_type("application/json")
            },
        ));
    out.extend(
        r.loaded_records()
            .iter()
            .filter_map(|&record| prefix_resource(r, record)),
    );
    for s in current() {
        for iri in &s.top_concepts {
            out.extend(concept_resource(r, iri)?);
        }
    }
    Ok(out)
}

/// Reads a concept by IRI or by the CURIE template, as JSON and Turtle.
pub(super) fn read_concept(
    r: &Resolver,
    uri: &str,
) -> Result<Option<Vec<ResourceContents>>, tools::ToolError> {
    let decoded;
    let key = match uri.strip_prefix("ontoresolve://concept/") {
        Some(curie) => {
            decoded = crate::resolve::percent_decode(curie).into_owned();
            decoded.as_str()
        }
        None => uri,
    };
    // `…/concept/MONDO:0000030@2025-02-04` reads that release.
    let Ok((_, outcome)) = r.resolve_identifier_in(key, None)? else {
        return Ok(None);
    };
    let Some(id) = outcome.concept() else {
        return Ok(None);
    };
    let iri = r.concept(id)?.iri;
    let detail = tools::detail(r, id)?;
    let Ok(json) = serde_json::to_string_pretty(&detail) else {
        return Ok(None);
    };
    let mut contents = vec![ResourceContents::text(json, uri).with_mime_type("application/json")];
    match r.store().map_err(|e| e.to_string()).and_then(|store| {
        store
            .subject_turtle(&iri, &detail.graph)
            .map_err(|e| e.to_string())
    }) {
        Ok(turtle) => {
            contents.push(ResourceContents::text(turtle, uri).with_mime_type("text/turtle"))
        }
        // The JSON copy still answers; the operator learns why Turtle is missing.
        Err(e) => tracing::warn!(error = %e, "concept served without its Turtle copy"),
    }
    Ok(Some(contents))
}

pub(super) fn json_contents(uri: &str, body: Option<Value>) -> Option<Vec<ResourceContents>> {
    let text = serde_json::to_string_pretty(&body?).ok()?;
    Some(vec![
        ResourceContents::text(text, uri).with_mime_type("application/json"),
    ])
}

/// A resource that names something but cannot be answered (a hub over the answer bound, an
/// unknown prefix): the tool's own error, not "no such resource".
fn read_error(e: &tools::ToolError, uri: &str) -> McpError {
    let mut error = e.to_json(&json!({ "uri": uri }))["error"].take();
    if let Some(fields) = error.as_object_mut() {
        fields.insert("uri".into(), super::echo::text(uri));
    }
    let data = Some(error);
    let message = super::echo::error_text(&e.message);
    use tools::ErrorCode::*;
    match e.code {
        IndexDamaged | InternalError | Timeout => McpError::internal_error(message, data),
        MalformedIdentifier | UnknownPrefix | AmbiguousInput => {
            McpError::resource_not_found(message, data)
        }
        _ => McpError::invalid_params(message, data),
    }
}

pub(super) fn not_found(uri: &str) -> McpError {
    McpError::resource_not_found(
        "no such resource: read a concept by its IRI or ontoresolve://concept/{curie}, a source by ontoresolve://source/{id}, a prefix by ontoresolve://prefix/{prefix}, an identifier's mappings by ontoresolve://mappings/{curie}, or a mapping set by ontoresolve://mapping-set/{id}",
        Some(json!({ "uri": super::echo::text(uri) })),
    )
}

/// Where a `resources/list` page starts: a cursor of this build, or the first page.
pub(super) fn page_cursor(
    cursor: Option<String>,
    len: usize,
    build_id: &str,
) -> Result<usize, McpError> {
    let Some(c) = cursor else {
        return Ok(0);
    };
    match super::cursor::decode(&c, build_id, LIST_SCOPE) {
        Ok(offset) if offset < len => Ok(offset),
        Ok(_) => Err(McpError::invalid_params(
            "invalid cursor: past the end of the list",
            Some(
                json!({ "code": crate::mcp::tools::ErrorCode::InvalidCursor.wire_name(), "cursor": super::echo::text(&c) }),
            ),
        )),
        Err(e) => Err(McpError::invalid_params(
            format!("invalid cursor: {}", e.message()),
            Some(
                json!({ "code": crate::mcp::tools::ErrorCode::InvalidCursor.wire_name(), "cursor": super::echo::text(&c), "next_step": e.next_step() }),
            ),
        )),
    }
}

/// What `resources/list` cursors page.
pub(super) const LIST_SCOPE: &str = "resources/list";

/// What a resource URI reads as, `None` when nothing is there, or why it cannot be read.
pub(super) fn contents(
    resolver: &Resolver,
    uri: &str,
) -> Result<Option<Vec<ResourceContents>>, McpError> {
    Ok(
        if let Some(id) = uri.strip_prefix("ontoresolve://source/") {
            resolver.manifest().source(id).and_then(|s| {
            let info = tools::source_info(resolver, s);
            let releases: Vec<_> = resolver.manifest().releases(id).map(|s| tools::source_info(resolver, s)).collect();
            let body = json!({ "source": info, "attribution": s.attribution, "url": s.url, "files": s.files, "top_concepts": s.top_concepts, "releases": releases });
            Some(vec![ResourceContents::text(serde_json::to_string_pretty(&body).ok()?, uri).with_mime_type("application/json")])
        })
        } else if let Some(prefix) = uri.strip_prefix("ontoresolve://prefix/") {
            let prefix = crate::resolve::percent_decode(prefix);
            tools::prefix_document(resolver, &prefix).and_then(|body| {
                Some(vec![
                    ResourceContents::text(serde_json::to_string_pretty(&body).ok()?, uri)
                        .with_mime_type("application/json"),
                ])
            })
        } else if let Some(curie) = uri.strip_prefix("ontoresolve://mappings/") {
            let curie = crate::resolve::percent_decode(curie);
            return match tools::mappings_document(resolver, &curie) {
                Ok(body) => Ok(json_contents(uri, Some(body))),
                Err(e) => Err(read_error(&e, uri)),
            };
        } else if let Some(id) = uri.strip_prefix("ontoresolve://mapping-set/") {
            json_contents(uri, tools::mapping_set_document(resolver, id))
        } else {
            read_concept(resolver, uri).map_err(|e| read_error(&e, uri))?
        },
    )
}
