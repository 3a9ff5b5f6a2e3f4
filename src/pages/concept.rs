//! The concept page: what `get_concept` and `map_identifier` answer for one identifier, laid
//! out for a person: names and identifiers, status with every replacement, definitions,
//! synonyms, parents, children and the path to the root, mappings with their provenance,
//! the releases that hold it, and the SPARQL that reproduces it.

use maud::{Markup, html};

use super::address;
use super::layout::{concept_link, copy_button, outside};
use crate::mcp::dto::{
    ConceptDetail, Envelope, EvidenceDto, LinkDto, MappingCandidate, Mappings, ReplacementChain,
};

/// Everything the page shows, gathered by the handler from the same calls MCP makes.
pub struct ConceptView<'a> {
    pub detail: &'a ConceptDetail,
    /// The concept's IRI (the record leaves it out when the CURIE expands to it).
    pub iri: &'a str,
    /// The query that reproduces the page (`get_concept`'s `sparql`).
    pub sparql: &'a str,
    pub license: &'a str,
    /// `map_identifier`'s answer, or why there is none.
    pub mappings: Result<&'a Envelope<Mappings>, String>,
    pub predicted_shown: bool,
    /// From the root down to the concept's parent: (id, label).
    pub lineage: &'a [(String, Option<String>)],
    pub pinned: Option<&'a str>,
}

/// The identifier a link or address uses: CURIE, else IRI.
pub fn id_of(curie: Option<&str>, iri: Option<&str>) -> String {
    curie.or(iri).unwrap_or_default().to_string()
}

pub fn body(v: &ConceptView<'_>) -> Markup {
    let d = v.detail;
    let c = &d.concept;
    let id = id_of(c.name.curie.as_deref(), c.name.iri.as_deref());
    let label = c.name.label.as_deref().unwrap_or(id.as_str());
    html! {
        h1 { (label) }
        (identity(v))
        @if !d.replacements.is_empty() || c.status != "current" { (banner(d)) }
        @if !d.definitions.is_empty() {
            h2 { "Definition" }
            @for def in &d.definitions { p lang=[def.lang.as_deref()] { (def.text) } }
        }
        (hierarchy(d, v.lineage))
        (mappings(v, &id))
        (names(d))
        @if d.releases.len() > 1 { (releases(d, &id)) }
        h2 { "Reproduce this page" }
        p { "The statements on this page come from this query:" }
        pre { code { (v.sparql) } }
        p { a href=(address::sparql(v.sparql)) { "Run the query" } }
    }
}

fn identity(v: &ConceptView<'_>) -> Markup {
    let d = v.detail;
    let c = &d.concept;
    html! {
        dl.facts {
            @if let Some(curie) = &c.name.curie {
                dt { "CURIE" }
                dd { code { (curie) } " " (copy_button(curie, "CURIE")) }
            }
            dt { "IRI" }
            dd { (outside(v.iri)) " " (copy_button(v.iri, "IRI")) }
            dt { "Kind" } dd { (c.kind.as_str()) }
            dt { "Status" } dd { (c.status.as_str()) }
            dt { "Source" }
            dd {
                a href=(address::source(&c.source)) { (c.source) }
                " release " (d.release)
                @if let Some(pin) = v.pinned { " (pinned: " (pin) ")" }
                ", licence " (v.license)
            }
            @if let Some(locus) = &d.locus_type { dt { "Locus type" } dd { (locus) } }
            @if let Some(taxon) = &d.taxon { dt { "Taxon" } dd { (taxon) } }
            @if !d.tree_numbers.is_empty() {
                dt { "Tree numbers" }
                dd { @for (i, t) in d.tree_numbers.iter().enumerate() { @if i > 0 { ", " } code { (t) } } }
            }
            @if !d.alt_ids.is_empty() {
                dt { "Alternative ids" }
                dd { @for (i, a) in d.alt_ids.iter().enumerate() { @if i > 0 { ", " } code { (a) } } }
            }
        }
    }
}

fn banner(d: &ConceptDetail) -> Markup {
    html! {
        div.banner role="alert" {
            strong { "This concept is " (d.concept.status.as_str()) "." }
            @if d.replacements.is_empty() && d.consider.is_empty() {
                " It names no replacement."
            }
            @if !d.replacements.is_empty() {
                " Replaced by:"
                ul { @for chain in &d.replacements { li { (chain_markup(chain)) } } }
            }
            @if !d.consider.is_empty() {
                p {
                    "Consider (candidates, not decisions): "
                    @for (i, x) in d.consider.iter().enumerate() {
                        @if i > 0 { ", " }
                        (concept_link(x, None, true))
                    }
                }
            }
        }
    }
}

fn chain_markup(chain: &ReplacementChain) -> Markup {
    html! {
        @for (i, hop) in chain.hops.iter().enumerate() {
            @if i > 0 { " → " }
            @let id = id_of(hop.name.curie.as_deref(), hop.name.iri.as_deref());
            (concept_link(&id, hop.name.label.as_deref(), hop.loaded))
            @if hop.obsolete { " " span.tag { "obsolete" } }
        }
        @if chain.cycle { " " span.tag { "the chain loops" } }
        @if chain.hops.len() > 1 {
            @if let Some(end) = &chain.ends_at { " " span.muted { "(ends at " (end) ")" } }
        }
    }
}

/// Names grouped by kind, in the record's order.
fn names(d: &ConceptDetail) -> Markup {
    let mut kinds: Vec<&str> = Vec::new();
    for l in &d.labels {
        if !kinds.contains(&l.kind.as_str()) {
            kinds.push(l.kind.as_str());
        }
    }
    html! {
        section #names {
            h2 { "Names" }
            dl.facts {
                @for kind in &kinds {
                    dt { (kind.replace('_', " ")) }
                    dd {
                        @for (i, l) in d.labels.iter().filter(|l| l.kind.as_str() == *kind).enumerate() {
                            @if i > 0 { "; " }
                            span lang=[l.lang.as_deref()] { (l.text) }
                            @if let Some(lang) = &l.lang { " " span.tag { (lang) } }
                        }
                    }
                }
            }
        }
    }
}

fn link_list(links: &[LinkDto]) -> Markup {
    html! {
        ul {
            @for l in links {
                li {
                    @let id = id_of(l.name.curie.as_deref(), l.name.iri.as_deref());
                    (concept_link(&id, l.name.label.as_deref(), l.name.label.is_some()))
                    " " span.tag { (l.relation.as_str()) }
                }
            }
        }
    }
}

fn hierarchy(d: &ConceptDetail, lineage: &[(String, Option<String>)]) -> Markup {
    html! {
        section #parents {
            h2 { "Parents" }
            @if d.parents.is_empty() && d.concept.status != "current" { p.muted { "None." } }
            @else if d.parents.is_empty() { p.muted { "None: a root of its source." } }
            @else { (link_list(&d.parents)) }
            @if !lineage.is_empty() {
                p {
                    "Path to the root: "
                    @for (i, (id, label)) in lineage.iter().enumerate() {
                        @if i > 0 { " › " }
                        a.concept-path href=(address::concept(id, None)) { (label.as_deref().unwrap_or(id)) }
                    }
                }
            }
        }
        section #children {
            h2 { "Children" }
            @if d.children.is_empty() { p.muted { "None." } }
            @else {
                (link_list(&d.children))
                @if d.children_total as usize > d.children.len() {
                    p.muted { "The first " (d.children.len()) " of " (d.children_total) "." }
                }
            }
        }
    }
}

fn mappings(v: &ConceptView<'_>, id: &str) -> Markup {
    html! {
        section #mappings {
            h2 { "Mappings" }
            @match &v.mappings {
                Err(why) => p.muted { (why) },
                Ok(answer) => (mapping_tables(answer, id, v.predicted_shown)),
            }
        }
    }
}

fn mapping_tables(answer: &Envelope<Mappings>, id: &str, predicted_shown: bool) -> Markup {
    let m = &answer.result;
    let version = |source: &str| {
        answer
            .sources
            .iter()
            .find(|s| s.id == source)
            .map(|s| s.release.clone())
    };
    html! {
        p.muted { (m.message) }
        @if !m.candidates.is_empty() {
            table {
                thead { tr {
                    th scope="col" { "Target" } th scope="col" { "Predicate" } th scope="col" { "Justification" }
                    th scope="col" { "Confidence" } th scope="col" { "Asserted by" }
                } }
                tbody { @for c in &m.candidates { (mapping_row(c, &version)) } }
            }
        }
        @if answer.truncated { p.muted { "The first " (m.candidates.len()) " of " (answer.total) " mappings." } }
        @if !m.negatives.is_empty() {
            h3 { "Negative mappings (stated not to match)" }
            table {
                thead { tr { th scope="col" { "Target" } th scope="col" { "Predicate" } th scope="col" { "Asserted by" } } }
                tbody {
                    @for n in &m.negatives {
                        tr {
                            td { (concept_link(&n.object, None, false)) }
                            td { code { (n.predicate_modifier) " " (n.predicate) } }
                            td { (evidence_list(&n.evidence, &version)) }
                        }
                    }
                }
            }
        }
        @if predicted_shown {
            p { a href=(address::concept(id, None)) { "Hide predicted mappings" } }
        } @else if m.predicted_hidden > 0 {
            p { (m.predicted_hidden) " predicted mappings are hidden. "
                a href=(format!("{}?predicted=1", address::concept(id, None))) { "Show predicted mappings" } }
        }
    }
}

fn mapping_row(c: &MappingCandidate, version: &dyn Fn(&str) -> Option<String>) -> Markup {
    let loaded = c.object_status != "not_loaded";
    html! {
        tr {
            td {
                (concept_link(&c.object, c.object_label.as_deref(), loaded))
                @if c.object_status != "current" && loaded { " " span.tag { (c.object_status.as_str()) } }
            }
            td { code { (c.predicate) } @if c.inferred { " " span.tag { "inferred" } } }
            td { code { (c.justification) } }
            td { @if let Some(x) = c.confidence { (format!("{x:.3}")) } }
            td {
                (evidence_list(&c.evidence, version))
                @if !c.path.is_empty() {
                    details {
                        summary { "Inferred through " (c.path.len()) " steps" }
                        ol {
                            @for hop in &c.path {
                                li {
                                    code { (hop.subject) } " " code { (hop.predicate) } " " code { (hop.object) }
                                    " (" (hop.rule) ") "
                                    (evidence_list(&hop.evidence, version))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn evidence_list(evidence: &[EvidenceDto], version: &dyn Fn(&str) -> Option<String>) -> Markup {
    html! {
        @for (i, e) in evidence.iter().enumerate() {
            @if i > 0 { "; " }
            @match &e.mapping_set_id {
                Some(set) => {
                    a href=(address::mapping_set(&e.source)) { (e.source) }
                    span.muted { " (set " (set) ")" }
                },
                None => { a href=(address::source(&e.source)) { (e.source) } },
            }
            @if let Some(v) = version(&e.source) { " version " (v) }
            @if e.predicted { " " span.tag { "predicted" } }
        }
    }
}

fn releases(d: &ConceptDetail, id: &str) -> Markup {
    html! {
        h2 { "Releases holding it" }
        table {
            thead { tr { th scope="col" { "Release" } th scope="col" { "Held as" } } }
            tbody {
                @for r in &d.releases {
                    tr {
                        td {
                            a href=(address::concept(id, Some(&r.release))) { (r.release) }
                            @if r.current { " " span.tag { "current" } }
                        }
                        td { (r.held.as_str()) }
                    }
                }
            }
        }
    }
}
