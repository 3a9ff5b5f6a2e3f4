//! `sparql_query` and `describe_schema` on the default index: every other tool's `sparql`
//! runs unchanged, writes and federation are refused, rows are capped, runaway queries stop,
//! and the schema's example queries run.

use ontoresolve::model::WireName;
use std::time::{Duration, Instant};

use ontoresolve::mcp::dto::{FindArgs, IdentifierArgs, MapArgs, SchemaArgs, SparqlArgs};
use ontoresolve::mcp::tools;
use ontoresolve::resolve::query::QueryFailure;
use ontoresolve::resolve::query::{QUERY_TIMEOUT, QueryError};

use crate::support::default_index;

fn run(query: &str, limit: Option<u32>) -> Result<serde_json::Value, String> {
    tools::sparql_query(
        default_index(),
        &SparqlArgs {
            query: query.into(),
            limit,
            cursor: None,
        },
    )
    .map(|e| serde_json::to_value(e).expect("json"))
    .map_err(|e| e.code.wire_name().to_string())
}

fn rows(answer: &serde_json::Value) -> usize {
    answer["result"]["rows"].as_array().map_or(0, Vec::len)
}

#[test]
fn every_other_tools_sparql_runs_unchanged_and_returns_rows() {
    let r = default_index();
    let id = |identifier: &str| IdentifierArgs {
        identifier: identifier.into(),
        release: None,
    };
    let answers = [
        (
            "resolve_identifier",
            serde_json::to_value(tools::resolve_identifier(r, &id("HP:0004322")).expect("found"))
                .expect("json"),
        ),
        (
            "get_concept",
            serde_json::to_value(tools::get_concept(r, &id("MESH:D001943")).expect("found"))
                .expect("json"),
        ),
        (
            "find_concepts",
            serde_json::to_value(
                tools::find_concepts(
                    r,
                    &FindArgs {
                        text: "breast neoplasms".into(),
                        sources: None,
                        include_obsolete: None,
                        limit: None,
                        cursor: None,
                    },
                )
                .expect("found"),
            )
            .expect("json"),
        ),
        (
            "map_identifier",
            serde_json::to_value(
                tools::map_identifier(
                    r,
                    &MapArgs {
                        identifier: "MONDO:0005148".into(),
                        targets: None,
                        include_inferred: None,
                        include_predicted: None,
                        cursor: None,
                    },
                )
                .expect("mapped"),
            )
            .expect("json"),
        ),
        (
            "list_sources",
            serde_json::to_value(tools::list_sources(r)).expect("json"),
        ),
    ];
    for (tool, answer) in answers {
        let sparql = answer["sparql"].as_str().expect("sparql");
        let result =
            run(sparql, Some(1000)).unwrap_or_else(|code| panic!("{tool}: {code}\n{sparql}"));
        assert!(rows(&result) > 0, "{tool}'s query gave no rows:\n{sparql}");
        assert_eq!(result["sparql"], sparql, "{tool}: echoed unchanged");
    }
}

#[test]
fn updates_load_and_service_are_refused_as_read_only() {
    for query in [
        "INSERT DATA { <http://example.org/a> <http://example.org/b> \"c\" }",
        "DELETE WHERE { ?s ?p ?o }",
        "LOAD <http://example.org/data.ttl>",
        "DROP ALL",
        "SELECT * WHERE { SERVICE <https://query.wikidata.org/sparql> { ?s ?p ?o } }",
    ] {
        assert_eq!(run(query, None).unwrap_err(), "read_only_query", "{query}");
    }
    assert_eq!(
        run("SELECT ?s WHERE { ?s ", None).unwrap_err(),
        "invalid_query"
    );
    assert_eq!(run("ASK {}", Some(0)).unwrap_err(), "limit_exceeded");
    assert_eq!(run("ASK {}", Some(1001)).unwrap_err(), "limit_exceeded");
    let long = format!("ASK {{ ?s ?p \"{}\" }}", "x".repeat(30_000));
    assert_eq!(run(&long, None).unwrap_err(), "limit_exceeded");
    // The store is unchanged: a graph still has its triples.
    let answer = run("ASK { GRAPH ?g { ?s ?p ?o } }", None).expect("ask");
    assert_eq!(answer["result"]["boolean"], true);
}

#[test]
fn rows_are_capped_and_the_cap_and_total_are_echoed() {
    let query = "SELECT ?s WHERE { GRAPH ?g { ?s a ?class } } LIMIT 50";
    let answer = run(query, Some(7)).expect("select");
    assert_eq!(rows(&answer), 7);
    assert_eq!(answer["result"]["cap_hit"], true);
    assert_eq!(answer["result"]["row_cap"], 7);
    assert_eq!(answer["total"], 50, "counted past the cap");
    assert_eq!(answer["result"]["total_exact"], true);
    assert_eq!(answer["truncated"], true);
    assert_eq!(answer["query"]["filters"]["limit"], 7);
    assert_eq!(
        answer["query"]["filters"]["timeout_ms"],
        QUERY_TIMEOUT.as_millis() as u64
    );
    // The cursor gives the next rows of the same query, and only of it.
    let cursor = answer["cursor"]
        .as_str()
        .expect("a cursor when capped")
        .to_string();
    let page = |cursor: &str, query: &str| {
        tools::sparql_query(
            default_index(),
            &SparqlArgs {
                query: query.into(),
                limit: Some(7),
                cursor: Some(cursor.into()),
            },
        )
        .map(|e| serde_json::to_value(e).expect("json"))
        .map_err(|e| e.code.wire_name().to_string())
    };
    // The direct subclasses of HP's phenotypic abnormality, in order.
    let ordered = "SELECT ?s WHERE { GRAPH ?g { ?s <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://purl.obolibrary.org/obo/HP_0000118> } } ORDER BY ?s";
    let first = run(ordered, Some(7)).expect("first page");
    let second = page(first["cursor"].as_str().expect("cursor"), ordered).expect("second page");
    assert_eq!(rows(&second), 7);
    assert_ne!(first["result"]["rows"][0], second["result"]["rows"][0]);
    let all = run(ordered, Some(100)).expect("all");
    assert!(rows(&all) > 14, "{}", rows(&all));
    assert_eq!(first["total"], all["total"], "the total counts every row");
    assert_eq!(second["result"]["rows"][0], all["result"]["rows"][7]);
    assert_eq!(
        page(&cursor, ordered).unwrap_err(),
        "invalid_cursor",
        "another query's cursor"
    );
    let row = &answer["result"]["rows"][0]["s"];
    assert_eq!(row["type"], "uri", "{row}");
    let default = run(query, None).expect("select");
    assert_eq!(rows(&default), 50);
    assert_ne!(default["result"]["cap_hit"], true);
    assert!(
        default["query"]["defaults_applied"]
            .as_array()
            .is_some_and(|d| d.iter().any(|x| x == "limit=100"))
    );
}

#[test]
fn construct_gives_triples_and_literals_keep_language_and_datatype() {
    let answer = run(
        "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n\
         CONSTRUCT { <http://purl.obolibrary.org/obo/HP_0004322> rdfs:label ?l } WHERE { GRAPH ?g { <http://purl.obolibrary.org/obo/HP_0004322> rdfs:label ?l } }",
        None,
    )
    .expect("construct");
    assert_eq!(answer["result"]["form"], "construct");
    assert_eq!(
        answer["result"]["variables"],
        serde_json::json!(["subject", "predicate", "object"])
    );
    let object = &answer["result"]["rows"][0]["object"];
    assert_eq!(object["type"], "literal");
    assert_eq!(object["value"], "Short stature");
    assert!(
        object.get("datatype").is_some() || object.get("xml:lang").is_some(),
        "{object}"
    );
}

/// Opens the store before a clock starts: the first query of a run opens it.
fn store_opened() {
    let opened = run("ASK { }", None);
    assert!(opened.is_ok(), "{opened:?}");
}

/// Keeps both cores busy with name searches until dropped.
struct Load {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    workers: Vec<std::thread::JoinHandle<u64>>,
}

impl Load {
    fn start(threads: usize) -> Load {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let workers = (0..threads)
            .map(|i| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut calls = 0u64;
                    let words = ["abnormality", "neoplasm of the breast", "seizure", "growth"];
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let text = words[(calls as usize + i) % words.len()];
                        let _ = default_index().find_by_name(&ontoresolve::resolve::NameQuery {
                            text,
                            sources: None,
                            include_obsolete: false,
                            full_text_beside_names: true,
                            wanted: ontoresolve::resolve::FULL_TEXT_DEPTH,
                        });
                        calls += 1;
                    }
                    calls
                })
            })
            .collect();
        Load { stop, workers }
    }

    /// Stops the load; the calls it made.
    fn stop(self) -> u64 {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.workers
            .into_iter()
            .map(|w| w.join().unwrap_or(0))
            .sum()
    }
}

#[test]
fn a_query_that_would_run_forever_is_stopped_within_a_second_of_its_deadline_under_load() {
    store_opened();
    let load = Load::start(2);
    // A cross product of every graph with itself, counted: hours of work held in memory.
    for runaway in [
        "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f } }",
        "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }",
    ] {
        let deadline = Duration::from_millis(500);
        let started = Instant::now();
        let result = default_index().run_query(runaway, 0, 10, deadline);
        let took = started.elapsed();
        assert!(
            matches!(result, Err(QueryError::Failed(QueryFailure::Timeout(_)))),
            "{runaway}: {result:?}"
        );
        assert!(
            took < deadline + Duration::from_secs(2),
            "{runaway}: stopped in {took:?}"
        );
    }
    // Through the tool, with its own deadline: the code is `timeout`.
    let started = Instant::now();
    assert_eq!(
        run(
            "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }",
            None
        )
        .unwrap_err(),
        "timeout"
    );
    let took = started.elapsed();
    let calls = load.stop();
    assert!(calls > 0, "the load ran");
    assert!(
        took < QUERY_TIMEOUT + Duration::from_secs(2),
        "stopped in {took:?}"
    );
}

#[test]
fn a_query_without_graph_sees_the_union_of_the_source_graphs() {
    let answer = run(
        r#"SELECT ?s WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> "Abnormality of body height" }"#,
        None,
    )
    .expect("runs");
    assert_eq!(
        answer["result"]["rows"][0]["s"]["value"], "http://purl.obolibrary.org/obo/HP_0000002",
        "{answer}"
    );
    assert_eq!(
        answer["result"]["dataset"]["default_graph"],
        "union_of_named_graphs"
    );
    let count = run("SELECT (COUNT(*) AS ?n) WHERE { ?s a ?class }", None).expect("runs");
    let n: u64 = count["result"]["rows"][0]["n"]["value"]
        .as_str()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    assert!(n > 100_000, "typed subjects in the union: {n}");
}

#[test]
fn from_limits_the_default_graph_to_the_graphs_it_names() {
    let r = default_index();
    let hp = r
        .manifest()
        .sources
        .iter()
        .find(|s| s.id == "hp")
        .expect("HPO is bundled");
    let other = r
        .manifest()
        .sources
        .iter()
        .find(|s| s.id != "hp")
        .expect("another source");
    let label = r#"?s <http://www.w3.org/2000/01/rdf-schema#label> "Abnormality of body height""#;
    let from_hp = run(
        &format!("SELECT ?s FROM <{}> WHERE {{ {label} }}", hp.graph),
        None,
    )
    .expect("runs");
    assert_eq!(rows(&from_hp), 1, "{from_hp}");
    assert_eq!(from_hp["result"]["dataset"]["default_graph"], "from");
    assert_eq!(from_hp["result"]["dataset"]["from"][0], hp.graph.as_str());
    let from_other = run(
        &format!("SELECT ?s FROM <{}> WHERE {{ {label} }}", other.graph),
        None,
    )
    .expect("runs");
    assert_eq!(rows(&from_other), 0, "{from_other}");
}

#[test]
fn an_empty_answer_names_the_iri_that_occurs_nowhere_and_the_one_it_meant() {
    let answer = run(
        "SELECT ?label WHERE { <http://purl.obolibrary.org/obo/hp_0000118> <http://www.w3.org/2000/01/rdf-schema#label> ?label }",
        None,
    )
    .expect("runs");
    assert_eq!(rows(&answer), 0);
    let absent = &answer["result"]["absent_iris"];
    assert_eq!(
        absent,
        &serde_json::json!([{
            "iri": "http://purl.obolibrary.org/obo/hp_0000118",
            "meant": "http://purl.obolibrary.org/obo/HP_0000118"
        }]),
        "{answer}"
    );
    assert!(
        answer["suggestion"]
            .as_str()
            .is_some_and(|s| s.contains("HP_0000118")),
        "{answer}"
    );
    // A CURIE written as an IRI is read the same way.
    let answer = run("ASK { <HP:0000118> ?p ?o }", None).expect("runs");
    assert_ne!(answer["result"]["boolean"], true);
    assert_eq!(
        answer["result"]["absent_iris"][0]["meant"], "http://purl.obolibrary.org/obo/HP_0000118",
        "{answer}"
    );
    // A query that finds something names nothing.
    let found = run(
        "SELECT ?label WHERE { <http://purl.obolibrary.org/obo/HP_0000118> <http://www.w3.org/2000/01/rdf-schema#label> ?label }",
        None,
    )
    .expect("runs");
    assert!(found["result"].get("absent_iris").is_none(), "{found}");
}

#[test]
fn describe_schema_counts_classes_and_predicates_and_its_examples_run() {
    let r = default_index();
    let all = serde_json::to_value(
        tools::describe_schema(r, &SchemaArgs { source: None }).expect("schema"),
    )
    .expect("json");
    // The answer says once how a query without FROM sees the graphs.
    assert!(
        all["result"]["default_graph"]
            .as_str()
            .is_some_and(|d| d.contains("union")),
        "{}",
        all["result"]["default_graph"]
    );
    let graphs = all["result"]["graphs"].as_array().expect("graphs");
    let hp = graphs
        .iter()
        .find(|g| g["source"] == "hp")
        .expect("hp graph");
    assert!(
        hp["triples"].as_u64().unwrap_or(0) > 100_000,
        "{}",
        hp["triples"]
    );
    assert_eq!(
        hp["classes"][0]["iri"], "http://www.w3.org/2002/07/owl#Class",
        "HPO's terms are OWL classes"
    );
    assert!(hp["predicates"].as_array().is_some_and(|p| {
        p.iter()
            .any(|p| p["iri"] == "http://www.w3.org/2000/01/rdf-schema#label")
    }));
    assert!(
        graphs.iter().any(|g| g["source"] == "mesh"),
        "every loaded source is described"
    );
    let examples = all["result"]["examples"].as_array().expect("examples");
    assert_eq!(examples.len(), 3, "{examples:?}");
    for example in examples {
        let sparql = example["sparql"].as_str().expect("sparql");
        let answer = run(sparql, None).unwrap_or_else(|code| panic!("{code}: {sparql}"));
        assert!(rows(&answer) > 0, "no rows:\n{sparql}");
    }
    // The counts agree with the store for a small graph: the answer's own query reproduces them.
    let one = serde_json::to_value(
        tools::describe_schema(
            r,
            &SchemaArgs {
                source: Some("hp".into()),
            },
        )
        .expect("schema"),
    )
    .expect("json");
    assert_eq!(
        one["result"]["graphs"].as_array().map(Vec::len),
        Some(1),
        "hp only"
    );
    let counted = run(one["sparql"].as_str().expect("sparql"), Some(1000)).expect("shape query");
    let label = "http://www.w3.org/2000/01/rdf-schema#label";
    let stored = counted["result"]["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|row| row["predicate"]["value"] == label))
        .and_then(|row| row["triples"]["value"].as_str()?.parse::<u64>().ok());
    let reported = one["result"]["graphs"][0]["predicates"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["iri"] == label))
        .and_then(|p| p["count"].as_u64());
    assert_eq!(stored, reported);
    assert!(matches!(
        tools::describe_schema(r, &SchemaArgs { source: Some("nope".into()) }),
        Err(e) if e.code == ontoresolve::mcp::tools::ErrorCode::UnknownSource
    ));
}
