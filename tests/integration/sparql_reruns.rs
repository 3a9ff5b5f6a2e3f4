//! Every answer's `sparql` re-runs through `sparql_query` within its deadline and returns the
//! answer's own concepts (for `what_changed`, the terms of the page; for `list_sources` and
//! `describe_schema`, the graphs and what they use). One row of the table per tool and per
//! form its SPARQL takes: an exact name, other stages, an identifier, a mapping, nothing
//! found; with and without `sources`. It asserts what comes back, never a time.

use ontoresolve::model::WireName;
use std::collections::BTreeSet;

use ontoresolve::mcp::dto::SparqlArgs;
use ontoresolve::mcp::tools;
use ontoresolve::model::Prefixes;
use ontoresolve::resolve::Resolver;
use serde_json::{Value, json};

use crate::support::default_index;

/// Every row of the query, following its cursor; the query must not fail (no timeout).
fn rerun(r: &Resolver, what: &str, query: &str) -> Vec<Value> {
    let mut rows = Vec::new();
    let mut cursor = None;
    for _ in 0..50 {
        let answer = tools::sparql_query(
            r,
            &SparqlArgs {
                query: query.into(),
                limit: Some(1000),
                cursor: cursor.take(),
            },
        )
        .unwrap_or_else(|e| panic!("{what}: {} {}\n{query}", e.code.wire_name(), e.message));
        let answer = serde_json::to_value(answer).expect("json");
        rows.extend(
            answer["result"]["rows"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
        );
        match answer["cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return rows,
        }
    }
    panic!("{what}: more than 50,000 rows");
}

/// The values a variable takes in the rows.
fn column(rows: &[Value], var: &str) -> BTreeSet<String> {
    rows.iter()
        .filter_map(|row| row[var]["value"].as_str().map(str::to_string))
        .collect()
}

/// A concept summary's IRI: stated, or its CURIE expanded as the answer says to.
fn iri_of(r: &Resolver, concept: &Value) -> String {
    concept["iri"]
        .as_str()
        .map(str::to_string)
        .or_else(|| r.registry().expand(concept["curie"].as_str()?))
        .unwrap_or_else(|| panic!("no IRI for {concept}"))
}

fn call<T: serde::Serialize, A: serde::de::DeserializeOwned>(
    tool: impl Fn(&Resolver, &A) -> Result<T, tools::ToolError>,
    args: Value,
) -> Value {
    let parsed: A = serde_json::from_value(args.clone()).expect("arguments");
    let answer = tool(default_index(), &parsed)
        .unwrap_or_else(|e| panic!("{args}: {} {}", e.code.wire_name(), e.message));
    serde_json::to_value(answer).expect("json")
}

/// The candidates' concepts, by IRI.
fn listed(r: &Resolver, answer: &Value, list: &str) -> BTreeSet<String> {
    answer["result"][list]
        .as_array()
        .map(|items| items.iter().map(|c| iri_of(r, &c["concept"])).collect())
        .unwrap_or_default()
}

fn assert_same(what: &str, expected: &BTreeSet<String>, found: &BTreeSet<String>, query: &str) {
    let missing: Vec<_> = expected.difference(found).collect();
    assert!(
        missing.is_empty(),
        "{what}: the answer's {missing:?} are not in its query's rows\n{query}"
    );
}

#[test]
fn find_concepts_sparql_reruns_to_the_candidates_it_listed() {
    let r = default_index();
    let cases = [
        // An exact label: once a scan of every label, now the candidates named.
        (
            "exact name",
            json!({ "text": "Abnormality of body height" }),
        ),
        (
            "exact name, one source",
            json!({ "text": "Abnormality of body height", "sources": ["hp"] }),
        ),
        ("other stages", json!({ "text": "breast cancer" })),
        (
            "near spelling, one source",
            json!({ "text": "convulsions", "sources": ["mesh"] }),
        ),
        ("an identifier", json!({ "text": "HP:0004322" })),
        ("via a mapping", json!({ "text": "DMD" })),
    ];
    for (what, args) in cases {
        let answer = call(tools::find_concepts, args);
        let query = answer["sparql"].as_str().expect("sparql");
        let expected = listed(r, &answer, "candidates");
        assert!(!expected.is_empty(), "{what}: candidates");
        let rows = rerun(r, what, query);
        assert_same(what, &expected, &column(&rows, "concept"), query);
    }
    for args in [
        json!({ "text": "qzxvwrrtpkk" }),
        json!({ "text": "qzxvwrrtpkk", "sources": ["hp"] }),
    ] {
        let answer = call(tools::find_concepts, args);
        assert_eq!(answer["total"], 0, "{answer}");
        let query = answer["sparql"].as_str().expect("sparql");
        assert!(rerun(r, "nothing found", query).is_empty(), "{query}");
    }
}

#[test]
fn identifier_concept_and_passage_sparql_rerun_to_their_concepts() {
    let r = default_index();
    for identifier in ["HP:0004322", "HP:0000535", "MONDO:0005148@2025-02-04"] {
        let answer = call(
            tools::resolve_identifier,
            json!({ "identifier": identifier }),
        );
        let query = answer["sparql"].as_str().expect("sparql");
        let expected: BTreeSet<String> = answer["result"]["concepts"]
            .as_array()
            .expect("concepts")
            .iter()
            .map(|c| iri_of(r, c))
            .collect();
        let rows = rerun(r, identifier, query);
        assert!(!rows.is_empty(), "{identifier}: no rows\n{query}");
        // These queries name the one concept, and give back the label the answer gave it
        // (or, for an obsolete one, the replacement it named).
        assert_eq!(expected.len(), 1, "{identifier}: {answer}");
        assert!(query.contains(&compact_iri(expected.iter().next().expect("one"))));
        let concept = &answer["result"]["concepts"][0];
        let labels = column(&rows, "label");
        let replacements = column(&rows, "replacement");
        let label = concept["label"].as_str().expect("label");
        let replaced = answer["result"]["replacements"]
            .as_array()
            .is_some_and(|r| !r.is_empty());
        assert!(
            labels.contains(label) || (replaced && !replacements.is_empty()),
            "{identifier}: '{label}' not among {labels:?} {replacements:?}\n{query}"
        );
    }
    // A bare local id: every reading, named.
    let answer = call(
        tools::resolve_identifier,
        json!({ "identifier": "0000118" }),
    );
    let query = answer["sparql"].as_str().expect("sparql");
    let readings: BTreeSet<String> = answer["result"]["readings"]
        .as_array()
        .expect("readings")
        .iter()
        .filter(|x| x.get("concept").is_some())
        .map(|x| iri_of(r, &x["concept"]))
        .collect();
    assert!(readings.len() > 1, "{answer}");
    assert_same(
        "bare id",
        &readings,
        &column(&rerun(r, "bare id", query), "concept"),
        query,
    );
    // Not loaded: a query that finds nothing, at once.
    let answer = call(
        tools::resolve_identifier,
        json!({ "identifier": "EntrezGene:7157" }),
    );
    let query = answer["sparql"].as_str().expect("sparql");
    assert!(rerun(r, "not loaded", query).is_empty(), "{query}");

    let answer = call(tools::get_concept, json!({ "identifier": "MESH:D001943" }));
    let query = answer["sparql"].as_str().expect("sparql");
    assert!(!rerun(r, "get_concept", query).is_empty(), "{query}");

    for sources in [json!(null), json!(["mesh"])] {
        let answer = call(
            tools::ground_passage,
            json!({ "text": "Germline mutations of BRCA1 cause hereditary breast cancer and seizures.", "sources": sources }),
        );
        let query = answer["sparql"].as_str().expect("sparql");
        let expected = listed(r, &answer, "concepts");
        assert!(!expected.is_empty(), "{answer}");
        let rows = rerun(r, "ground_passage", query);
        assert_same(
            "ground_passage",
            &expected,
            &column(&rows, "concept"),
            query,
        );
    }
}

/// How `sparql::compact` may write an IRI: whole, or its local part after a prefix.
fn compact_iri(iri: &str) -> String {
    iri.rsplit(['/', '#']).next().unwrap_or(iri).to_string()
}

#[test]
fn mapping_sparql_reruns_to_the_statements_between_the_identifiers() {
    let r = default_index();
    let answer = call(
        tools::map_identifier,
        json!({ "identifier": "MONDO:0005148" }),
    );
    let query = answer["sparql"].as_str().expect("sparql");
    let rows = rerun(r, "map_identifier", query);
    let subject = "http://purl.obolibrary.org/obo/MONDO_0005148";
    assert!(column(&rows, "subject").contains(subject), "{query}");
    // Every curated candidate of the answer is the object (or subject) of a statement.
    let mentioned: BTreeSet<String> = column(&rows, "object")
        .into_iter()
        .chain(column(&rows, "subject"))
        .map(|v| r.registry().compress(&v).unwrap_or(v))
        .collect();
    let asserted: Vec<&str> = answer["result"]["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter(|c| c["rank_tier"] == "curated_asserted")
        .filter_map(|c| c["object"].as_str())
        .collect();
    assert!(!asserted.is_empty(), "{answer}");
    for object in asserted {
        assert!(
            mentioned.contains(object),
            "{object} not in the rows\n{query}"
        );
    }
    let answer = call(
        tools::map_identifiers,
        json!({ "identifiers": ["MONDO:0005148", "HP:0001250"] }),
    );
    let query = answer["sparql"].as_str().expect("sparql");
    let subjects = column(&rerun(r, "map_identifiers", query), "subject");
    assert!(subjects.contains(subject), "{query}");
    assert!(
        subjects.contains("http://purl.obolibrary.org/obo/HP_0001250"),
        "{query}"
    );
}

#[test]
fn what_changed_sparql_reruns_to_the_terms_of_its_page() {
    let r = default_index();
    let answer = call(tools::what_changed, json!({ "source": "mondo" }));
    let query = answer["sparql"].as_str().expect("sparql");
    let changes = answer["result"]["changes"].as_array().expect("changes");
    assert!(changes.len() >= 100, "a full page: {}", changes.len());
    let terms: BTreeSet<String> = changes
        .iter()
        .filter_map(|c| c["about_node"].as_str())
        .map(|c| r.registry().expand(c).unwrap_or_else(|| c.to_string()))
        .collect();
    let rows = rerun(r, "what_changed source", query);
    assert_same("what_changed source", &terms, &column(&rows, "term"), query);
    // Both releases answer, so a change shows as a row one of them lacks.
    assert_eq!(column(&rows, "release").len(), 2, "{query}");

    let answer = call(
        tools::what_changed,
        json!({ "identifier": "MONDO:0000030" }),
    );
    let query = answer["sparql"].as_str().expect("sparql");
    let rows = rerun(r, "what_changed term", query);
    assert_eq!(column(&rows, "release").len(), 2, "{query}");
}

#[test]
fn list_sources_and_describe_schema_sparql_rerun_to_the_graphs_they_list() {
    let r = default_index();
    let answer = serde_json::to_value(tools::list_sources(r)).expect("json");
    let query = answer["sparql"].as_str().expect("sparql");
    let graphs: BTreeSet<String> = r
        .manifest()
        .sources
        .iter()
        .map(|s| s.graph.clone())
        .collect();
    assert_eq!(
        column(&rerun(r, "list_sources", query), "graph"),
        graphs,
        "{query}"
    );
    for source in [json!(null), json!("hp"), json!("mondo-sssom")] {
        let answer = call(tools::describe_schema, json!({ "source": source }));
        let query = answer["sparql"].as_str().expect("sparql");
        let rows = rerun(r, "describe_schema", query);
        let value = |row: &Value, k: &str| row[k]["value"].as_str().unwrap_or_default().to_string();
        // Small graphs are counted again: each listed predicate with the count the answer gave.
        let counted: BTreeSet<(String, String, String)> = rows
            .iter()
            .filter(|row| row.get("triples").is_some())
            .map(|row| {
                (
                    value(row, "graph"),
                    value(row, "predicate"),
                    value(row, "triples"),
                )
            })
            .collect();
        // Larger ones: each listed predicate and class, checked in its graph.
        let checked: BTreeSet<(String, String, String)> = rows
            .iter()
            .map(|row| (value(row, "graph"), value(row, "kind"), value(row, "iri")))
            .collect();
        let graphs = answer["result"]["graphs"].as_array().expect("graphs");
        assert!(!graphs.is_empty(), "{source}");
        for g in graphs {
            let graph = g["graph"].as_str().expect("graph").to_string();
            for (list, kind) in [("predicates", "predicate"), ("classes", "class")] {
                for item in g[list].as_array().expect("list") {
                    let iri = item["iri"].as_str().expect("iri").to_string();
                    let count = item["count"].as_u64().expect("count").to_string();
                    let found = if counted.is_empty() {
                        checked.contains(&(graph.clone(), kind.to_string(), iri.clone()))
                    } else {
                        kind == "class"
                            || counted.contains(&(graph.clone(), iri.clone(), count.clone()))
                    };
                    assert!(
                        found,
                        "{source}: {graph} {kind} {iri} ({count}) not in the rows\n{query}"
                    );
                }
            }
        }
        for example in answer["result"]["examples"].as_array().expect("examples") {
            let query = example["sparql"].as_str().expect("sparql");
            assert!(!rerun(r, "schema example", query).is_empty(), "{query}");
        }
    }
}
