//! Resources: what `resources/list` names (sources, mapping sets, prefixes, top concepts) and
//! how each kind of URI is read (a concept by IRI or CURIE as JSON and Turtle, a source, a
//! prefix record, an identifier's mappings, a mapping set).

use rmcp::ErrorData as McpError;
use rmcp::model::*;
use serde_json::{Value, json};

use super::{OntoServer, tools};
use crate::resolve::Outcome;

impl OntoServer {
    pub(super) fn source_resource(&self, s: &crate::resolve::SourceRecord) -> Resource {
        Resource::new(format!("ontoresolve://source/{}", s.id), s.id.clone())
            .with_title(format!("{} (release {})", s.title, s.release))
            .with_description(format!(
                "{} Licence: {}. {}",
                s.scope, s.license, s.attribution
            ))
            .with_mime_type("application/json")
    }

    pub(super) fn concept_resource(&self, iri: &str) -> Option<Resource> {
        let m = self.resolver.lookup_id(iri).into_iter().next()?;
        let c = self.resolver.concept(m.concept)?;
        let source = self.resolver.source_of(&c)?;
        Some(
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
        )
    }

    pub(super) fn prefix_resource(&self, record: crate::resolve::RecordId) -> Option<Resource> {
        let info = tools::prefix_info(&self.resolver, record)?;
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

    /// Sources first, then the prefixes they use, then each source's top concepts.
    pub(super) fn all_listed(&self) -> Vec<Resource> {
        let m = self.resolver.manifest();
        let mut out: Vec<Resource> = m.sources.iter().map(|s| self.source_resource(s)).collect();
        out.extend(tools::mapping_set_entries(&self.resolver).into_iter().map(
            |(id, title, license, rows)| {
                Resource::new(format!("ontoresolve://mapping-set/{id}"), id.clone())
                    .with_title(title)
                    .with_description(format!("Mapping set {id}: {rows} rows; licence: {license}. Its files' headers and counts."))
                    .with_mime_type("application/json")
            },
        ));
        out.extend(
            self.resolver
                .loaded_records()
                .iter()
                .filter_map(|&record| self.prefix_resource(record)),
        );
        for s in &m.sources {
            out.extend(
                s.top_concepts
                    .iter()
                    .filter_map(|iri| self.concept_resource(iri)),
            );
        }
        out
    }

    /// Reads a concept by IRI or by the CURIE template, as JSON and Turtle.
    pub(super) fn read_concept(&self, uri: &str) -> Option<Vec<ResourceContents>> {
        let decoded;
        let key = match uri.strip_prefix("ontoresolve://concept/") {
            Some(curie) => {
                decoded = crate::resolve::percent_decode(curie).into_owned();
                decoded.as_str()
            }
            None => uri,
        };
        // Damage is logged (naming the file); a resource has no other way to say it.
        let (_, outcome) = self
            .resolver
            .resolve_identifier(key)
            .inspect_err(|e| tracing::error!("index damaged: {e}"))
            .ok()?;
        let id = match outcome {
            Outcome::Found(m) => m.first()?.concept,
            Outcome::Obsolete { concept, .. } => concept,
            _ => return None,
        };
        let detail = tools::detail(&self.resolver, id)?;
        let json = serde_json::to_string_pretty(&detail).ok()?;
        let mut contents =
            vec![ResourceContents::text(json, uri).with_mime_type("application/json")];
        match self
            .resolver
            .store()
            .map_err(|e| e.to_string())
            .and_then(|store| {
                store
                    .subject_turtle(&detail.concept.iri, &detail.graph)
                    .map_err(|e| e.to_string())
            }) {
            Ok(turtle) => {
                contents.push(ResourceContents::text(turtle, uri).with_mime_type("text/turtle"))
            }
            // The JSON copy still answers; the operator learns why Turtle is missing.
            Err(e) => tracing::warn!(error = %e, "concept served without its Turtle copy"),
        }
        Some(contents)
    }
}

pub(super) fn json_contents(uri: &str, body: Option<Value>) -> Option<Vec<ResourceContents>> {
    let text = serde_json::to_string_pretty(&body?).ok()?;
    Some(vec![
        ResourceContents::text(text, uri).with_mime_type("application/json"),
    ])
}

pub(super) fn not_found(uri: &str) -> McpError {
    McpError::resource_not_found(
        "no such resource: read a concept by its IRI or ontoresolve://concept/{curie}, a source by ontoresolve://source/{id}, a prefix by ontoresolve://prefix/{prefix}, an identifier's mappings by ontoresolve://mappings/{curie}, or a mapping set by ontoresolve://mapping-set/{id}",
        Some(json!({ "uri": uri })),
    )
}

pub(super) fn page_cursor(cursor: Option<String>, len: usize) -> Result<usize, McpError> {
    match cursor {
        None => Ok(0),
        Some(c) => c
            .strip_prefix("offset:")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n < len)
            .ok_or_else(|| {
                McpError::invalid_params("invalid cursor", Some(json!({ "cursor": c })))
            }),
    }
}
