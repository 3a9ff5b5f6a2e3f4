//! Every SPARQL builder of `resolve::sparql`, run on the default index: each query parses,
//! runs and returns what the answer it belongs to says.

use ontoresolve::resolve::{Resolver, sparql};

use crate::support::default_index;

const HP_0000118: &str = "http://purl.obolibrary.org/obo/HP_0000118";
const HP_0000535: &str = "http://purl.obolibrary.org/obo/HP_0000535";

fn rows(r: &Resolver, query: &str) -> Vec<Vec<(String, String)>> {
    r.store()
        .expect("store")
        .select(query)
        .unwrap_or_else(|e| panic!("{query}\nfails: {e}"))
}

fn has(rows: &[Vec<(String, String)>], var: &str, value: &str) -> bool {
    rows.iter()
        .any(|row| row.iter().any(|(k, v)| k == var && v.contains(value)))
}

fn hp_graph(r: &Resolver) -> String {
    r.manifest().source("hp").expect("hp").graph.clone()
}

#[test]
fn name_search_queries_find_the_concepts_the_search_found() {
    let r = default_index();
    let graph = hp_graph(r);
    let graphs = [graph.as_str()];
    let found = rows(r, &sparql::concepts_in_graphs(&[HP_0000118], &graphs));
    assert!(has(&found, "concept", "HP_0000118"));
    let names = rows(r, &sparql::concept_names(&[HP_0000118], &graphs));
    assert!(has(&names, "label", "Phenotypic abnormality"));
    let none = rows(r, &sparql::concept_names(&[], &graphs));
    assert!(none.is_empty(), "no concepts named, no rows: {none:?}");
}

#[test]
fn identifier_queries_say_what_the_identifier_outcome_says() {
    let r = default_index();
    assert!(has(
        &rows(r, &sparql::identifier_names(HP_0000118)),
        "label",
        "Phenotypic abnormality"
    ));
    let obsolete = rows(r, &sparql::obsolete_replacements(HP_0000535));
    assert!(has(&obsolete, "replacement", "HP_"), "{obsolete:?}");
    assert_eq!(rows(r, &sparql::any_statement(HP_0000118)).len(), 1);
    assert!(rows(r, &sparql::any_statement("http://example.org/none")).is_empty());
}

#[test]
fn concept_and_source_queries_return_statements_and_the_graphs_that_hold_triples() {
    let r = default_index();
    let graph = hp_graph(r);
    assert!(!rows(r, &sparql::concept_statements(HP_0000118, Some(&graph))).is_empty());
    assert!(!rows(r, &sparql::concept_statements(HP_0000118, None)).is_empty());
    let set_graph = r.manifest().mapping_sets[0].graph.clone();
    let present = rows(
        r,
        &sparql::graphs_present(&[&graph, &set_graph, "urn:ontoresolve:graph:none"]),
    );
    assert!(has(&present, "graph", &graph));
    assert!(
        has(&present, "graph", &set_graph),
        "mapping sets have graphs too"
    );
    assert_eq!(present.len(), 2, "{present:?}");
}

#[test]
fn the_mapping_query_returns_set_axioms_and_source_xrefs() {
    let r = default_index();
    let mondo = rows(
        r,
        &sparql::mapping_statements(&["http://purl.obolibrary.org/obo/MONDO_0005148"]),
    );
    assert!(has(&mondo, "object", "mesh/D003924"), "{mondo:?}");
    assert!(has(&mondo, "justification", "ManualMappingCuration"));
    let hp = rows(
        r,
        &sparql::mapping_statements(&["http://purl.obolibrary.org/obo/HP_0001250"]),
    );
    assert!(
        has(&hp, "object", "UMLS:C0036572"),
        "HPO's own xref triples: {hp:?}"
    );
}

#[test]
fn hostile_text_stays_inside_its_literal_and_iri() {
    let r = default_index();
    assert!(
        rows(
            r,
            &sparql::any_statement("http://example.org/a> } ?s ?p ?o {")
        )
        .is_empty()
    );
    let evil_iri = "http://example.org/x\" } } DROP ALL ; SELECT * { ?s ?p ?o";
    assert!(rows(r, &sparql::concept_names(&[evil_iri], &[evil_iri])).is_empty());
}
