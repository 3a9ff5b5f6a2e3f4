//! Prefix records: the brief a resolution carries and the `ontoresolve://prefix/{prefix}`
//! document.

use serde_json::{Value, json};

use super::*;
use crate::mcp::dto::*;
use crate::resolve::{RecordId, Resolver};

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
