//! Every SPARQL query an answer carries, in one place, so that an answer's `sparql` field and
//! the store's shape cannot drift apart. Each builder is tested by running it on a built index
//! (`tests/integration/sparql.rs`). Text goes in as escaped string literals; IRIs only after
//! [`iri`] has stripped what could break out of `<…>`.

use crate::model::{LabelKind, XrefKind};

const OWL_DEPRECATED: &str = "http://www.w3.org/2002/07/owl#deprecated";
const MESHV: &str = "http://id.nlm.nih.gov/mesh/vocab#";
const RDFS_SUBCLASS_OF: &str = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
const SKOS_BROADER: &str = "http://www.w3.org/2004/02/skos/core#broader";

/// Characters the IRIREF production forbids, which could end an IRI's `<…>` early.
fn forbidden_in_iri(c: char) -> bool {
    matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '^' | '`' | '\\')
        || c.is_whitespace()
        || c.is_control()
}

/// Whether an IRI may stand between `<` and `>` as it is.
pub fn is_safe_iri(text: &str) -> bool {
    !text.is_empty() && !text.chars().any(forbidden_in_iri)
}

/// An IRI safe to place between angle brackets: forbidden characters are dropped; an empty
/// IRI becomes a placeholder that matches nothing, never a relative `<>`.
pub fn iri(text: &str) -> String {
    let kept: String = text.chars().filter(|&c| !forbidden_in_iri(c)).collect();
    if kept.is_empty() {
        "urn:ontoresolve:no-iri".into()
    } else {
        kept
    }
}

/// `text` as a SPARQL string literal.
pub fn string_literal(text: &str) -> String {
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

/// Namespaces written as prefixes in the queries answers carry, longest first where one
/// contains another.
const PREFIXES: [(&str, &str); 10] = [
    ("meshv", "http://id.nlm.nih.gov/mesh/vocab#"),
    ("mesh", "http://id.nlm.nih.gov/mesh/"),
    ("obo", "http://purl.obolibrary.org/obo/"),
    ("skos", "http://www.w3.org/2004/02/skos/core#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("owl", "http://www.w3.org/2002/07/owl#"),
    ("oboInOwl", "http://www.geneontology.org/formats/oboInOwl#"),
    ("sssom", "https://w3id.org/sssom/"),
    ("ontoresolve", "urn:ontoresolve:vocab:"),
    ("graph", "urn:ontoresolve:graph:"),
];

/// Whether `local` may follow `prefix:` as it is: a conservative part of SPARQL's PN_LOCAL.
/// Dots stay inside `<…>`: the store's parser refuses some local names that hold them
/// (`graph:mondo-sssom.mondo_broadmatch_icd11.foundation:2026-08-04`).
fn plain_local(local: &str) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':');
    !local.is_empty() && local.chars().all(ok) && !local.starts_with('-')
}

/// The query with every IRI under a known namespace written as `prefix:local`, and the
/// prefixes it uses declared first: the same query, a third of the bytes. String literals and
/// comments are copied as they are.
pub fn compact(query: &str) -> String {
    let (_, uses) = prefixed(query, &[true; PREFIXES.len()]);
    // A prefix is worth its declaration only when its uses save more than it costs.
    let worth: Vec<bool> = PREFIXES
        .iter()
        .zip(uses)
        .map(|((name, ns), n)| {
            declares(query, name) || n * (ns.len() + 1 - name.len()) > ns.len() + name.len() + 12
        })
        .collect();
    let (body, used) = prefixed(query, &worth);
    let mut out = String::new();
    for (n, (name, ns)) in PREFIXES.iter().enumerate() {
        if used[n] > 0 && !declares(query, name) {
            out.push_str(&format!("PREFIX {name}: <{ns}>\n"));
        }
    }
    out.push_str(&body);
    out
}

/// The query with the IRIs under the `allowed` namespaces prefixed, and how often each
/// namespace was used.
fn prefixed(query: &str, allowed: &[bool]) -> (String, [usize; PREFIXES.len()]) {
    let mut body = String::with_capacity(query.len());
    let mut used = [0; PREFIXES.len()];
    let mut rest = query;
    while let Some(c) = rest.chars().next() {
        match c {
            '"' => {
                let end = literal_end(rest);
                body.push_str(&rest[..end]);
                rest = &rest[end..];
            }
            '#' => {
                let end = rest.find('\n').map_or(rest.len(), |i| i + 1);
                body.push_str(&rest[..end]);
                rest = &rest[end..];
            }
            '<' => match rest[1..].find(|c: char| c == '>' || forbidden_in_iri(c)) {
                Some(i) if rest.as_bytes()[1 + i] == b'>' => {
                    let iri = &rest[1..=i];
                    match PREFIXES.iter().enumerate().find_map(|(n, (name, ns))| {
                        let local = iri.strip_prefix(ns)?;
                        (allowed[n] && plain_local(local)).then_some((n, name, local))
                    }) {
                        Some((n, name, local)) => {
                            used[n] += 1;
                            body.push_str(name);
                            body.push(':');
                            body.push_str(local);
                        }
                        None => {
                            body.push('<');
                            body.push_str(iri);
                            body.push('>');
                        }
                    }
                    rest = &rest[i + 2..];
                }
                // `<` as an operator.
                _ => {
                    body.push('<');
                    rest = &rest[1..];
                }
            },
            // Indentation is the builders' layout, not the query's.
            '\n' => {
                body.push('\n');
                rest = rest[1..].trim_start_matches(' ');
            }
            c => {
                body.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    (body, used)
}

/// Whether the query already declares this prefix (its own declaration is kept).
fn declares(query: &str, name: &str) -> bool {
    query.contains(&format!("PREFIX {name}:"))
}

/// Where the string literal at the start of `text` ends (after its closing quote).
fn literal_end(text: &str) -> usize {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return i + 1,
            _ => {}
        }
    }
    text.len()
}

/// `VALUES ?graph { … }` for these graphs, or nothing when the query may range over every
/// graph (all sources were asked for).
fn graph_values(graphs: &[&str]) -> String {
    if graphs.is_empty() {
        return String::new();
    }
    format!("VALUES ?graph {{ {} }} ", bracketed(graphs.iter().copied()))
}

fn bracketed<'a>(iris: impl IntoIterator<Item = &'a str>) -> String {
    iris.into_iter()
        .map(|i| format!("<{}>", iri(i)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The predicates of a concept's own name, for a `VALUES` clause.
pub fn primary_predicates() -> String {
    bracketed(
        LabelKind::ALL
            .iter()
            .filter(|k| k.is_primary())
            .map(|k| k.predicate()),
    )
}

/// Which of these concepts the graphs hold (an identifier found by a name search).
pub fn concepts_in_graphs(concepts: &[&str], graphs: &[&str]) -> String {
    compact(&format!(
        "SELECT DISTINCT ?concept ?graph WHERE {{ VALUES ?concept {{ {} }} {}GRAPH ?graph {{ ?concept ?p ?o }} }}",
        bracketed(concepts.iter().copied()),
        graph_values(graphs)
    ))
}

/// The names of these concepts in the graphs (near spellings and full-text hits, whose
/// matching SPARQL cannot express).
pub fn concept_names(concepts: &[&str], graphs: &[&str]) -> String {
    compact(&format!(
        "SELECT ?concept ?label ?graph WHERE {{ VALUES ?concept {{ {} }} {}GRAPH ?graph {{ ?concept ?p ?label . VALUES ?p {{ {} }} }} }}",
        bracketed(concepts.iter().copied()),
        graph_values(graphs),
        primary_predicates()
    ))
}

/// The candidates' names, as [`concept_names`], and the mapping statements between each
/// via-mapping candidate and the concept whose name led to it (`pairs`: origin and target
/// IRIs), as SSSOM axioms of a set or as a source's own cross-reference triple.
/// `pairs` are mapping hops; `parents` (child, parent) are the hierarchy hops a broader
/// candidate climbed before its mapping.
pub fn names_and_via_mappings(
    concepts: &[&str],
    graphs: &[&str],
    pairs: &[(&str, &str)],
    parents: &[(&str, &str)],
) -> String {
    let values = |pairs: &[(&str, &str)]| {
        pairs
            .iter()
            .map(|(origin, target)| format!("(<{}> <{}>)", iri(origin), iri(target)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let climbed = if parents.is_empty() {
        String::new()
    } else {
        format!(
            " UNION {{ VALUES (?origin ?concept) {{ {} }} GRAPH ?graph {{ ?origin ?predicate ?concept VALUES ?predicate {{ <{RDFS_SUBCLASS_OF}> <{SKOS_BROADER}> <{MESHV}broaderDescriptor> }} }} }}",
            values(parents)
        )
    };
    let pairs = values(pairs);
    let xref_predicates = bracketed(XrefKind::ALL.iter().map(|k| k.predicate()));
    compact(&format!(
        "# The candidates' names and graphs; for via-mapping candidates, the statements that map the matched concept to them (for a broader one, its ancestors' too).
         PREFIX owl: <http://www.w3.org/2002/07/owl#>
         PREFIX sssom: <https://w3id.org/sssom/>
         SELECT ?concept ?label ?graph ?origin ?predicate ?justification WHERE {{
           {{ VALUES ?concept {{ {} }} {}GRAPH ?graph {{ ?concept ?p ?label . VALUES ?p {{ {} }} }} }}
           UNION
           {{ VALUES (?origin ?concept) {{ {pairs} }} GRAPH ?graph {{
             {{ ?axiom owl:annotatedSource ?origin ; owl:annotatedTarget ?concept }} UNION {{ ?axiom owl:annotatedSource ?concept ; owl:annotatedTarget ?origin }}
             ?axiom owl:annotatedProperty ?predicate ; sssom:mapping_justification ?justification .
             FILTER NOT EXISTS {{ ?axiom sssom:predicate_modifier ?modifier }} }} }}
           UNION
           {{ VALUES (?origin ?concept) {{ {pairs} }} GRAPH ?graph {{ {{ ?origin ?predicate ?concept }} UNION {{ ?concept ?predicate ?origin }} VALUES ?predicate {{ {xref_predicates} }} }} }}{climbed}
         }}",
        bracketed(concepts.iter().copied()),
        graph_values(graphs),
        primary_predicates()
    ))
}

/// A found identifier's names and whether it is deprecated.
pub fn identifier_names(concept: &str) -> String {
    compact(&format!(
        "SELECT ?graph ?label ?deprecated WHERE {{ GRAPH ?graph {{ <{0}> ?p ?label . VALUES ?p {{ {1} }} OPTIONAL {{ <{0}> <{OWL_DEPRECATED}> ?deprecated }} }} }}",
        iri(concept),
        primary_predicates()
    ))
}

/// An obsolete identifier's deprecation and every replacement it names.
pub fn obsolete_replacements(concept: &str) -> String {
    compact(&format!(
        "SELECT ?graph ?deprecated ?replacement WHERE {{ GRAPH ?graph {{ <{0}> <{OWL_DEPRECATED}> ?deprecated . OPTIONAL {{ <{0}> ?r ?replacement . VALUES ?r {{ <http://purl.obolibrary.org/obo/IAO_0100001> <http://www.geneontology.org/formats/oboInOwl#replacedBy> <http://purl.org/dc/terms/isReplacedBy> }} }} }} }}",
        iri(concept)
    ))
}

/// Whether any graph says anything about an identifier (none does when it is not loaded).
pub fn any_statement(concept: &str) -> String {
    compact(&format!(
        "SELECT ?graph ?p ?o WHERE {{ GRAPH ?graph {{ <{}> ?p ?o }} }} LIMIT 1",
        iri(concept)
    ))
}

/// Every statement about a concept, in its graph when known.
pub fn concept_statements(concept: &str, graph: Option<&str>) -> String {
    match graph {
        Some(g) => compact(&format!(
            "SELECT ?p ?o WHERE {{ GRAPH <{}> {{ <{}> ?p ?o }} }}",
            iri(g),
            iri(concept)
        )),
        None => any_statement(concept),
    }
}

/// One term's statements in two releases side by side: each (predicate, object) with the
/// release that states it, so a change shows as a row only one release has.
pub fn releases_side_by_side(concept: &str, older: (&str, &str), newer: (&str, &str)) -> String {
    compact(&format!(
        "SELECT ?p ?o ?release WHERE {{\n\
         \x20 VALUES (?g ?release) {{ (<{}> {}) (<{}> {}) }}\n\
         \x20 GRAPH ?g {{ <{}> ?p ?o }}\n\
         }} ORDER BY ?p ?o ?release",
        iri(older.0),
        string_literal(older.1),
        iri(newer.0),
        string_literal(newer.1),
        iri(concept)
    ))
}

/// The statements of a page of terms in two releases side by side: each term's (predicate,
/// object) with the release that states it, so a change shows as a row one release lacks.
/// The page's terms are named, so the query reads only their statements.
pub fn terms_side_by_side(terms: &[&str], older: (&str, &str), newer: (&str, &str)) -> String {
    compact(&format!(
        "SELECT ?term ?p ?o ?release WHERE {{\n\
         \x20 VALUES ?term {{ {} }}\n\
         \x20 VALUES (?g ?release) {{ (<{}> {}) (<{}> {}) }}\n\
         \x20 GRAPH ?g {{ ?term ?p ?o }}\n\
         }} ORDER BY ?term ?p ?o ?release",
        bracketed(terms.iter().copied()),
        iri(older.0),
        string_literal(older.1),
        iri(newer.0),
        string_literal(newer.1),
    ))
}

/// Which of these graphs hold triples: the graphs an answer listed, each checked by one
/// lookup (counting their triples would read every one).
pub fn graphs_present(graphs: &[&str]) -> String {
    compact(&format!(
        "SELECT ?graph WHERE {{ VALUES ?graph {{ {} }} FILTER EXISTS {{ GRAPH ?graph {{ ?s ?p ?o }} }} }} ORDER BY ?graph",
        bracketed(graphs.iter().copied())
    ))
}

/// Which of these predicates and classes each graph uses: what `describe_schema` lists, each
/// pair checked by one lookup rather than counted over the whole graph.
pub fn graph_vocabulary(graphs: &[&str], predicates: &[&str], classes: &[&str]) -> String {
    let graphs = bracketed(graphs.iter().copied());
    compact(&format!(
        "SELECT ?graph ?kind ?iri WHERE {{\n\
         \x20 {{ VALUES ?graph {{ {graphs} }} VALUES ?iri {{ {} }} BIND(\"predicate\" AS ?kind) FILTER EXISTS {{ GRAPH ?graph {{ ?s ?iri ?o }} }} }}\n\
         \x20 UNION\n\
         \x20 {{ VALUES ?graph {{ {graphs} }} VALUES ?iri {{ {} }} BIND(\"class\" AS ?kind) FILTER EXISTS {{ GRAPH ?graph {{ ?s a ?iri }} }} }}\n\
         }} ORDER BY ?graph ?kind ?iri",
        bracketed(predicates.iter().copied()),
        bracketed(classes.iter().copied()),
    ))
}

/// How many triples use each predicate in `graphs`: what `describe_schema` counts, for graphs
/// small enough to count within a query's deadline.
pub fn graph_predicate_counts(graphs: &[&str]) -> String {
    compact(&format!(
        "SELECT ?graph ?predicate (COUNT(*) AS ?triples) WHERE {{\n\
         \x20 VALUES ?graph {{ {} }}\n\
         \x20 GRAPH ?graph {{ ?s ?predicate ?o }}\n\
         }} GROUP BY ?graph ?predicate ORDER BY ?graph DESC(?triples)",
        bracketed(graphs.iter().copied())
    ))
}

/// Up to `limit` members of `class` in `graph`, with their labels.
pub fn class_members(graph: &str, class: &str, limit: usize) -> String {
    compact(&format!(
        "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n\
         SELECT ?concept ?label WHERE {{\n\
         \x20 GRAPH <{}> {{ ?concept a <{}> . OPTIONAL {{ ?concept rdfs:label ?label }} }}\n\
         }} LIMIT {limit}",
        iri(graph),
        iri(class)
    ))
}

/// Up to `limit` SSSOM mapping axioms of one mapping set's graph.
pub fn mapping_axioms(graph: &str, limit: usize) -> String {
    compact(&format!(
        "PREFIX owl: <http://www.w3.org/2002/07/owl#>\n\
         PREFIX sssom: <https://w3id.org/sssom/>\n\
         SELECT ?subject ?predicate ?object ?justification WHERE {{\n\
         \x20 GRAPH <{}> {{ ?axiom owl:annotatedSource ?subject ; owl:annotatedProperty ?predicate ;\n\
         \x20   owl:annotatedTarget ?object ; sssom:mapping_justification ?justification }}\n\
         }} LIMIT {limit}",
        iri(graph)
    ))
}

/// The statements a mapping answer used: the SSSOM axioms of every set that name one of the
/// identifiers (as subject or object), and those identifiers' own cross-reference triples.
pub fn mapping_statements(identifiers: &[&str]) -> String {
    let xref_predicates = bracketed(XrefKind::ALL.iter().map(|k| k.predicate()));
    // The identifiers are bound inside each branch: bound outside, the store would read every
    // cross-reference of every graph before joining (tens of seconds on the default index).
    let values = bracketed(identifiers.iter().copied());
    compact(&format!(
        "PREFIX owl: <http://www.w3.org/2002/07/owl#>\n\
         PREFIX sssom: <https://w3id.org/sssom/>\n\
         SELECT ?graph ?subject ?predicate ?modifier ?object ?justification ?confidence WHERE {{\n\
         \x20 {{ GRAPH ?graph {{\n\
         \x20   VALUES ?x {{ {values} }}\n\
         \x20   {{ ?axiom owl:annotatedSource ?x }} UNION {{ ?axiom owl:annotatedTarget ?x }}\n\
         \x20   ?axiom owl:annotatedSource ?subject ; owl:annotatedProperty ?predicate ;\n\
         \x20          owl:annotatedTarget ?object ; sssom:mapping_justification ?justification .\n\
         \x20   OPTIONAL {{ ?axiom sssom:predicate_modifier ?modifier }}\n\
         \x20   OPTIONAL {{ ?axiom sssom:confidence ?confidence }} }} }}\n\
         \x20 UNION\n\
         \x20 {{ GRAPH ?graph {{ VALUES ?subject {{ {values} }} VALUES ?predicate {{ {xref_predicates} }} ?subject ?predicate ?object }} }}\n\
         }}\nORDER BY ?subject ?object ?graph"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_keeps_its_text_whatever_it_holds() {
        assert_eq!(string_literal("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
        assert_eq!(string_literal("2024-é"), "\"2024-é\"");
    }

    #[test]
    fn an_iri_cannot_break_out_of_its_brackets() {
        assert_eq!(
            iri("http://example.org/a>} DROP ALL {<b"),
            "http://example.org/aDROPALLb"
        );
        assert_eq!(iri(""), "urn:ontoresolve:no-iri");
        assert!(is_safe_iri("http://purl.obolibrary.org/obo/MONDO_0005148"));
        assert!(!is_safe_iri("http://example.org/a>} DROP ALL {<b"));
        assert!(!is_safe_iri("http://example.org/a b"));
        assert!(!is_safe_iri(""));
    }

    #[test]
    fn known_namespaces_become_prefixes_outside_literals_and_comments() {
        let query = "# <http://purl.obolibrary.org/obo/X>\nSELECT ?s WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> \"<http://purl.obolibrary.org/obo/HP_1> \\\" <x>\" . ?s <http://purl.obolibrary.org/obo/HP_0000118> <http://purl.obolibrary.org/obo/HP_0000001> FILTER(?n < 3) }";
        // obo is used twice and pays for its declaration; rdfs once, and does not.
        assert_eq!(
            compact(query),
            "PREFIX obo: <http://purl.obolibrary.org/obo/>\n# <http://purl.obolibrary.org/obo/X>\nSELECT ?s WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> \"<http://purl.obolibrary.org/obo/HP_1> \\\" <x>\" . ?s obo:HP_0000118 obo:HP_0000001 FILTER(?n < 3) }"
        );
        // A local name SPARQL cannot write plainly stays an IRI.
        assert_eq!(
            compact(
                "ASK { <http://purl.obolibrary.org/obo/a/b> <http://purl.obolibrary.org/obo/a/c> ?o }"
            ),
            "ASK { <http://purl.obolibrary.org/obo/a/b> <http://purl.obolibrary.org/obo/a/c> ?o }"
        );
    }
}
