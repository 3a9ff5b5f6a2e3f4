//! The pages about what is loaded: home (sources with releases, counts and licences, and
//! mapping sets), a source, a prefix record, a mapping set, and the results of a query.

use crate::model::WireName;
use maud::{Markup, html};
use serde_json::Value;

use super::address;
use super::layout::outside;
use crate::mcp::dto::{Envelope, QueryResultDto};
use crate::mcp::tools::{self, ToolError};
use crate::resolve::Resolver;

pub fn home(r: &Resolver) -> Markup {
    let m = r.manifest();
    html! {
        h1 { "ontoresolve" }
        p { "Ontology and identifier resolution: every concept of the sources below, with its status, hierarchy and mappings, and where each came from." }
        h2 { "Sources" }
        table {
            thead { tr {
                th scope="col" { "Source" } th scope="col" { "Releases" } th scope="col" { "Concepts" }
                th scope="col" { "Obsolete" } th scope="col" { "Licence" }
            } }
            tbody {
                @for s in m.sources.iter().filter(|s| s.current) {
                    tr {
                        td { a href=(address::source(&s.id)) { (s.title) } br; code { (s.id) } }
                        td {
                            @for (i, rel) in m.releases(&s.id).enumerate() {
                                @if i > 0 { ", " }
                                (rel.release) @if rel.current { " " span.tag { "current" } }
                            }
                        }
                        td { (s.counts.concepts) }
                        td { (s.counts.obsolete) }
                        td { (s.license) }
                    }
                }
            }
        }
        @let sets = tools::mapping_set_entries(r);
        @if !sets.is_empty() {
            h2 { "Mapping sets" }
            table {
                thead { tr { th scope="col" { "Set" } th scope="col" { "Rows" } th scope="col" { "Licence" } } }
                tbody {
                    @for (id, title, license, rows) in &sets {
                        tr { td { a href=(address::mapping_set(id)) { (id) } " " (title) } td { (rows) } td { (license) } }
                    }
                }
            }
        }
        @if !m.skipped.is_empty() {
            h2 { "Catalogued but not loaded" }
            ul { @for s in &m.skipped { li { code { (s.id) } ": " (s.reason) } } }
        }
    }
}

pub fn source(r: &Resolver, id: &str) -> Result<Option<(String, Markup)>, ToolError> {
    let m = r.manifest();
    let Some(s) = m.source(id) else {
        return Ok(None);
    };
    let mut top_concepts = Vec::new();
    for iri in s.top_concepts.iter().take(100) {
        let found = r.lexicon().lookup_id(iri)?;
        let curie = match found.first() {
            Some(m) => r.concept(m.concept)?.curie,
            None => None,
        };
        top_concepts.push(curie.unwrap_or_else(|| iri.clone()));
    }
    let body = html! {
        h1 { (s.title) }
        p { (s.scope) }
        dl.facts {
            dt { "Id" } dd { code { (s.id) } }
            dt { "Current release" } dd { (s.release) }
            dt { "Licence" } dd { (s.license) }
            @if !s.attribution.is_empty() { dt { "Attribution" } dd { (s.attribution) } }
            @if !s.homepage.is_empty() { dt { "Homepage" } dd { (outside(&s.homepage)) } }
            @if let Some(url) = &s.url { dt { "Downloaded from" } dd { (outside(url)) } }
        }
        h2 { "Releases" }
        table {
            thead { tr {
                th scope="col" { "Release" } th scope="col" { "Stated by" } th scope="col" { "Concepts" }
                th scope="col" { "Obsolete" } th scope="col" { "Triples" } th scope="col" { "Graph" }
            } }
            tbody {
                @for rel in m.releases(id) {
                    @let info = tools::source_info(r, rel);
                    tr {
                        td { (info.release) @if rel.current { " " span.tag { "current" } } }
                        td { (info.release_statement.as_deref().unwrap_or(info.release_origin.as_str())) }
                        td { (info.concepts) } td { (info.obsolete) } td { (info.triples) }
                        td { code { (info.graph) } }
                    }
                }
            }
        }
        @if !top_concepts.is_empty() {
            h2 { "Top concepts" }
            ul {
                @for shown in &top_concepts {
                    li { a.concept href=(address::concept(shown, None)) { (shown) } }
                }
            }
        }
    };
    Ok(Some((s.title.clone(), body)))
}

pub fn prefix(r: &Resolver, written: &str) -> Result<Option<(String, Markup)>, ToolError> {
    let Some(doc) = tools::prefix_document(r, written) else {
        return Ok(None);
    };
    let name = doc
        .get("prefix")
        .and_then(Value::as_str)
        .unwrap_or(written)
        .to_string();
    let body = html! {
        h1 { "Prefix " (name) }
        (value(&doc, 0))
    };
    Ok(Some((format!("Prefix {name}"), body)))
}

pub fn mapping_set(r: &Resolver, id: &str) -> Result<Option<(String, Markup)>, ToolError> {
    let Some(doc) = tools::mapping_set_document(r, id) else {
        return Ok(None);
    };
    let body = html! {
        h1 { "Mapping set " (id) }
        (value(&doc, 0))
    };
    Ok(Some((format!("Mapping set {id}"), body)))
}

/// A JSON document as nested definition lists, every string as text.
fn value(v: &Value, depth: usize) -> Markup {
    html! {
        @match v {
            Value::Object(map) if depth < 4 => dl.facts {
                @for (k, v) in map.iter().filter(|(_, v)| !v.is_null()) {
                    dt { (k) } dd { (value(v, depth + 1)) }
                }
            },
            Value::Array(items) if depth < 4 => ul { @for item in items.iter().take(200) { li { (value(item, depth + 1)) } } },
            Value::String(s) => (outside_or_text(s)),
            other => code { (other.to_string()) },
        }
    }
}

fn outside_or_text(s: &str) -> Markup {
    match address::outside_link(s) {
        Some(_) => outside(s),
        None => html! { (s) },
    }
}

/// The rows a query gave, as `sparql_query` answers them.
pub fn query_results(query: &str, answer: &Result<Envelope<QueryResultDto>, ToolError>) -> Markup {
    html! {
        h1 { "SPARQL query" }
        form action="/sparql" method="get" {
            label for="query" { "Query (read-only; the default graph is every source's graph)" }
            br;
            // A query longer than any that runs is refused, not repeated.
            textarea #query name="query" rows="8" cols="80" {
                @if query.len() <= crate::resolve::query::MAX_QUERY_BYTES { (query) }
            }
            br;
            button type="submit" { "Run" }
        }
        @match answer {
            Err(e) => div.banner role="alert" { strong { (e.code.wire_name()) } ": " (e.message) " " (e.next_step) },
            Ok(answer) => {
                @let res = &answer.result;
                p { (answer.total) " rows" @if res.cap_hit { " (the first " (res.row_cap) " shown)" } "." }
                @if let Some(b) = res.boolean { p { "Answer: " strong { (b) } } }
                table {
                    thead { tr { @for v in &res.variables { th scope="col" { (v) } } } }
                    tbody {
                        @for row in &res.rows {
                            tr { @for v in &res.variables { td { @if let Some(t) = row.get(v) { (outside_or_text(&t.value)) } } } }
                        }
                    }
                }
            }
        }
    }
}
