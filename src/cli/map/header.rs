//! The SSSOM header: `#`-prefixed YAML with the `curie_map` of every prefix the rows use, the
//! set's id, version, licence and the sources and sets its rows come from.
//!
//! Licence: the rows combine statements and labels of sources under different licences, so
//! the set's `license` is `https://w3id.org/sssom/license/unspecified` and the `comment` names
//! each source and set with its release and licence.
//!
//! `mapping_tool` and `mapping_date` are propagatable: written at set level they would say
//! that every row was made by ontoresolve on that day. They are written per row instead (the
//! statements' own tools and dates, ontoresolve's for the rows it derives), and the day of the
//! run is the set's `publication_date`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use ontoresolve::resolve::Resolver;

use super::sssom::{Seen, is_iri};

/// sssom-py's built-in prefixes (and oboInOwl), with the URI prefixes sssom-schema gives them;
/// they must not be redefined.
const BUILT_IN: &[(&str, &str)] = &[
    ("owl", "http://www.w3.org/2002/07/owl#"),
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("skos", "http://www.w3.org/2004/02/skos/core#"),
    ("semapv", "https://w3id.org/semapv/vocab/"),
    ("sssom", "https://w3id.org/sssom/"),
    ("oboInOwl", "http://www.geneontology.org/formats/oboInOwl#"),
];
/// Where sssom-py expands a prefix nobody declares; used the same way for prefixes the
/// registry does not know.
const UNKNOWN_PREFIX_BASE: &str = "http://w3id.org/sssom/unknown_prefix/";
/// The licence of a set whose rows come under several licences.
pub const LICENSE_UNSPECIFIED: &str = "https://w3id.org/sssom/license/unspecified";

/// What the header says besides the prefixes.
pub struct HeaderInfo<'a> {
    pub mapping_set_id: String,
    pub title: String,
    /// How the rows were made (command, options, counts).
    pub description: String,
    pub today: &'a str,
}

/// The curie map, and the prefixes no registry knows.
fn curie_map(r: &Resolver, seen: &Seen) -> (BTreeMap<String, String>, Vec<String>) {
    let mut map: BTreeMap<String, String> = BUILT_IN
        .iter()
        .map(|(p, u)| (p.to_string(), u.to_string()))
        .collect();
    let mut taken: BTreeSet<String> = map.values().cloned().collect();
    let mut unknown = Vec::new();
    for prefix in &seen.prefixes {
        if map.contains_key(prefix) {
            continue;
        }
        let record = r
            .registry()
            .spelling(prefix)
            .and_then(|hit| r.registry().record(hit.record));
        let candidates: Vec<String> = record
            .map(|rec| {
                rec.expansion_base()
                    .into_iter()
                    .map(str::to_string)
                    .chain(rec.uri_prefixes.iter().cloned())
                    .collect()
            })
            .unwrap_or_default();
        // One URI prefix per prefix: a second prefix of the same namespace takes another of
        // the record's URI prefixes.
        let uri = match candidates.into_iter().find(|u| !taken.contains(u)) {
            Some(uri) => uri,
            None => {
                unknown.push(prefix.clone());
                format!("{UNKNOWN_PREFIX_BASE}{}/", prefix.to_lowercase())
            }
        };
        taken.insert(uri.clone());
        map.insert(prefix.clone(), uri);
    }
    (map, unknown)
}

/// A YAML scalar: JSON's string syntax is YAML's double-quoted style.
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

/// Every set and source the rows name, with release and licence, for the `comment` slot; and
/// the addresses of the sets and sources for `mapping_set_source`.
fn sources(r: &Resolver, seen: &Seen) -> (Vec<String>, Vec<String>) {
    let manifest = r.manifest();
    let mut lines = Vec::new();
    let mut addresses = Vec::new();
    for s in seen
        .sets
        .iter()
        .filter_map(|i| manifest.mapping_sets.get(usize::from(*i)))
    {
        lines.push(format!(
            "mapping set {}/{} ({}), release {}, licence {}",
            s.source, s.file, s.mapping_set_id, s.release, s.license
        ));
        let version = s.mapping_set_version.as_deref().filter(|v| is_iri(v));
        addresses.push(version.unwrap_or(&s.mapping_set_id).to_string());
    }
    let xref_sources: BTreeSet<usize> = seen
        .xref_sources
        .iter()
        .filter_map(|&set| manifest.xref_source_index(set))
        .collect();
    let label_sources: BTreeSet<usize> =
        seen.label_sources.iter().map(|&i| usize::from(i)).collect();
    let sources: BTreeSet<usize> = xref_sources.union(&label_sources).copied().collect();
    for (i, s) in sources
        .iter()
        .filter_map(|i| Some((*i, manifest.sources.get(*i)?)))
    {
        let role = match (xref_sources.contains(&i), label_sources.contains(&i)) {
            (true, true) => "cross-references and labels",
            (true, false) => "cross-references",
            _ => "labels",
        };
        lines.push(format!(
            "source {} ({}), release {}, {role}, licence {}",
            s.id, s.title, s.release, s.license
        ));
        addresses.push(s.url.clone().unwrap_or_else(|| s.homepage.clone()));
    }
    if let Some(registry) = &manifest.registry.source {
        lines.push(format!(
            "prefix registry {} {}, licence {}",
            registry.title, registry.release, registry.license
        ));
    }
    addresses.retain(|a| is_iri(a) && !a.contains(char::is_whitespace));
    addresses.sort();
    addresses.dedup();
    (lines, addresses)
}

pub fn write_header(
    out: &mut impl Write,
    r: &Resolver,
    seen: &Seen,
    info: &HeaderInfo,
) -> io::Result<()> {
    let (map, unknown) = curie_map(r, seen);
    writeln!(out, "# curie_map:")?;
    for (prefix, uri) in &map {
        writeln!(out, "#   {}: {}", quoted(prefix), quoted(uri))?;
    }
    let manifest = r.manifest();
    let mut description = info.description.clone();
    if !unknown.is_empty() {
        description.push_str(&format!(
            " Prefixes the registry does not know, expanded under {UNKNOWN_PREFIX_BASE} as \
             sssom-py does: {}.",
            unknown.join(", ")
        ));
    }
    let (lines, addresses) = sources(r, seen);
    for (key, value) in [
        ("mapping_set_id", info.mapping_set_id.as_str()),
        ("mapping_set_version", manifest.build_id.as_str()),
        ("mapping_set_title", info.title.as_str()),
        ("mapping_set_description", description.as_str()),
        ("license", LICENSE_UNSPECIFIED),
        ("publication_date", info.today),
    ] {
        writeln!(out, "# {key}: {}", quoted(value))?;
    }
    if !addresses.is_empty() {
        writeln!(out, "# mapping_set_source:")?;
        for address in &addresses {
            writeln!(out, "#   - {}", quoted(address))?;
        }
    }
    let comment = format!(
        "Licences differ by source, so the set's licence is unspecified; the rows come from: {}.",
        lines.join("; ")
    );
    writeln!(out, "# comment: {}", quoted(&comment))?;
    Ok(())
}
