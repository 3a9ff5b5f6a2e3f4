//! The OLS API over real HTTP from the real binary on the default index: real OLS clients
//! (`ols-client`, `ebi-ols-client`, in `tests/clients/ols_clients.py`), paging through every
//! HPO term, an obsolete term's replacements, search ranked as `find_concepts` ranks, the
//! hierarchy as the concept records state it, a guarded server reached with Basic
//! credentials, and hostile inputs answered in OLS's error shape.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;
use std::process::Command;

use ontoresolve::mcp::dto::FindArgs;
use ontoresolve::mcp::tools;
use serde_json::{Value, json};

use crate::http_client::{Page, page};
use crate::process::{Server, serve};
use crate::support::{Missing, default_index, default_index_dir, python_with, repo, scratch, skip};

const HP_0000002: &str = "http://purl.obolibrary.org/obo/HP_0000002";

fn get(server: &Server, target: &str) -> Page {
    page("GET", server.1, target, &[], "")
}

fn json_of(page: &Page, what: &str) -> Value {
    serde_json::from_str(&page.body)
        .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {}", page.body))
}

fn default_server() -> Server {
    serve(&default_index_dir(), &["--rate-limit", "0"], &[])
}

/// An IRI as OLS clients put it in a path: encoded twice.
fn encoded(iri: &str) -> String {
    let once: String =
        percent_encoding::utf8_percent_encode(iri, percent_encoding::NON_ALPHANUMERIC).to_string();
    percent_encoding::utf8_percent_encode(&once, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// HP:0000002's ancestors, read from the concept records' parent links one step at a time
/// (not through the browsing code the API uses).
fn hp_ancestors_from_records() -> BTreeSet<String> {
    let r = default_index();
    let hp = r
        .manifest()
        .sources
        .iter()
        .position(|s| s.id == "hp" && s.current)
        .expect("hp is loaded");
    let concept_of = |iri: &str| {
        r.lexicon()
            .lookup_id(iri)
            .expect("the index reads")
            .into_iter()
            .map(|m| r.concept(m.concept).expect("the index reads"))
            .find(|c| c.source.slot() == hp && c.iri == iri)
    };
    let mut seen = BTreeSet::new();
    let mut todo = vec![HP_0000002.to_string()];
    while let Some(iri) = todo.pop() {
        let Some(concept) = concept_of(&iri) else {
            continue;
        };
        for parent in concept.parents {
            if seen.insert(parent.iri.clone()) {
                todo.push(parent.iri);
            }
        }
    }
    seen
}

/// What the clients are checked against, written for the Python script.
fn expected_file() -> PathBuf {
    let r = default_index();
    let ontologies: Vec<String> = r.manifest().sources.iter().map(|s| s.key()).collect();
    let expected = json!({
        "ontologies": ontologies,
        "ancestors": hp_ancestors_from_records(),
    });
    let dir = scratch("ols-clients");
    let file = dir.join("expected.json");
    std::fs::write(&file, expected.to_string()).expect("write expected");
    file
}

fn run_client(python: &PathBuf, which: &str, base: &str, expected: &PathBuf) {
    let out = Command::new(python)
        .arg(repo().join("tests/clients/ols_clients.py"))
        .args([which, base])
        .arg(expected)
        .output()
        .expect("run the OLS client script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{which} against {base}:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("ok: "),
        "{which} checked nothing:\n{stdout}"
    );
}

#[test]
fn ols_client_reads_ontologies_terms_search_suggestions_and_ancestors() {
    let Some(python) = python_with("ols_client") else {
        return;
    };
    let expected = expected_file();
    let server = default_server();
    run_client(
        &python,
        "ols-client",
        &format!("http://127.0.0.1:{}", server.1),
        &expected,
    );
}

#[test]
fn ebi_ols_client_reads_an_ontology_a_term_and_a_search() {
    let python = std::env::var_os("ONTORESOLVE_EBI_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/tmp/ontoresolve-ebi-venv"))
        .join("bin/python");
    let installed = Command::new(&python)
        .args(["-c", "import ebi.ols.api.client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        skip(
            Missing::Client,
            "ebi-ols-client is not installed in /var/tmp/ontoresolve-ebi-venv (run scripts/setup-clients)",
        );
        return;
    }
    let expected = expected_file();
    let server = default_server();
    run_client(
        &python,
        "ebi",
        &format!("http://127.0.0.1:{}/api", server.1),
        &expected,
    );
}

#[test]
fn with_a_token_ols_client_reaches_the_api_with_basic_credentials_and_nothing_without() {
    const TOKEN: &str = "ols-token-0123456789abcdef";
    let server = serve(
        &default_index_dir(),
        &["--rate-limit", "0"],
        &[("ONTORESOLVE_AUTH_TOKEN", TOKEN)],
    );
    let refused = get(&server, "/api/ontologies/hp");
    assert_eq!(refused.status, 401);
    let body = json_of(&refused, "a refusal");
    assert_eq!(body["status"], 401);
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("Basic")),
        "{body}"
    );
    assert!(
        refused
            .header("www-authenticate")
            .is_some_and(|h| h.contains("Basic")),
        "{}",
        refused.head
    );
    let wrong = page(
        "GET",
        server.1,
        "/api/ontologies/hp",
        &[("Authorization", "Basic dXNlcjpub3BlCg==")],
        "",
    );
    assert_eq!(wrong.status, 401, "a wrong password is refused");
    let Some(python) = python_with("ols_client") else {
        return;
    };
    let expected = expected_file();
    run_client(
        &python,
        "ols-client",
        &format!("http://reader:{TOKEN}@127.0.0.1:{}", server.1),
        &expected,
    );
}

#[test]
fn walking_hp_terms_by_next_links_gives_every_term_once_and_the_count_agrees() {
    let server = default_server();
    let ontology = json_of(&get(&server, "/api/ontologies/hp"), "the hp ontology");
    let count = ontology["numberOfTerms"].as_u64().expect("numberOfTerms");
    let release = default_index()
        .manifest()
        .sources
        .iter()
        .find(|s| s.id == "hp" && s.current)
        .expect("hp")
        .counts
        .concepts;
    assert_eq!(count, release, "numberOfTerms is the release's term count");
    let mut seen = HashSet::new();
    let mut pages = 0;
    let mut next = Some("/api/ontologies/hp/terms?size=500".to_string());
    while let Some(target) = next.take() {
        let page = json_of(&get(&server, &target), &target);
        pages += 1;
        assert!(pages <= 100, "the walk never ends");
        for term in page["_embedded"]["terms"].as_array().expect("terms") {
            let iri = term["iri"].as_str().expect("iri").to_string();
            assert!(seen.insert(iri.clone()), "{iri} listed twice");
        }
        assert_eq!(page["page"]["totalElements"], count);
        next = page["_links"]["next"]["href"].as_str().map(|href| {
            let at = href.find("/api/").expect("an API link");
            href[at..].to_string()
        });
    }
    assert_eq!(seen.len() as u64, count, "every term once");
    assert_eq!(count, 19_484, "HPO 2025-01-16, obsolete terms included");
}

#[test]
fn an_obsolete_term_is_marked_with_every_replacement() {
    let server = default_server();
    let target = format!(
        "/api/ontologies/hp/terms/{}",
        encoded("http://purl.obolibrary.org/obo/HP_0000535")
    );
    let term = json_of(&get(&server, &target), "HP:0000535");
    assert_eq!(term["is_obsolete"], true);
    assert_eq!(term["obo_id"], "HP:0000535");
    assert_eq!(term["term_replaced_by"], "HP_0045074");
    let replacements: Vec<&str> = term["annotation"]["term replaced by"]
        .as_array()
        .expect("every replacement")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        replacements,
        [
            "http://purl.obolibrary.org/obo/HP_0045074",
            "http://purl.obolibrary.org/obo/HP_0045075"
        ]
    );
}

#[test]
fn search_ranks_as_find_concepts_ranks() {
    let server = default_server();
    let r = default_index();
    for text in ["Abnormality of body height", "asthma", "seizures", "TP53"] {
        let args = FindArgs {
            text: text.into(),
            sources: Some(vec![
                "hp".into(),
                "mesh".into(),
                "hgnc".into(),
                "mondo".into(),
            ]),
            include_obsolete: None,
            limit: Some(10),
            cursor: None,
        };
        let tool = tools::find_concepts(r, &args).expect("find_concepts");
        // Compared by CURIE: the tool leaves out an IRI the CURIE expands to.
        let tool_iris: Vec<String> = serde_json::to_value(&tool.result.candidates)
            .expect("candidates")
            .as_array()
            .expect("a list")
            .iter()
            .map(|c| c["concept"]["curie"].as_str().expect("curie").to_string())
            .collect();
        assert!(!tool_iris.is_empty(), "{text}: find_concepts found nothing");
        let q: String =
            percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        let answer = json_of(
            &get(
                &server,
                &format!("/api/search?q={q}&ontology=hp,mesh,hgnc,mondo&rows=10"),
            ),
            text,
        );
        let api_iris: Vec<String> = answer["response"]["docs"]
            .as_array()
            .expect("docs")
            .iter()
            .map(|d| d["obo_id"].as_str().expect("obo_id").to_string())
            .collect();
        let shared = tool_iris.len().min(api_iris.len());
        assert_eq!(
            api_iris[..shared],
            tool_iris[..shared],
            "{text}: /api/search and find_concepts rank differently"
        );
    }
}

#[test]
fn hierarchy_routes_state_what_the_concept_records_state() {
    let server = default_server();
    let base = format!("/api/ontologies/hp/terms/{}", encoded(HP_0000002));
    let iris = |relation: &str| -> BTreeSet<String> {
        let page = json_of(
            &get(&server, &format!("{base}/{relation}?size=1000")),
            relation,
        );
        page["_embedded"]["terms"]
            .as_array()
            .map(|terms| {
                terms
                    .iter()
                    .map(|t| t["iri"].as_str().expect("iri").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let ancestors = hp_ancestors_from_records();
    assert_eq!(iris("ancestors"), ancestors);
    assert_eq!(iris("hierarchicalAncestors"), ancestors);
    let r = default_index();
    let id = r
        .lexicon()
        .lookup_id("HP:0000002")
        .expect("the index reads")[0]
        .concept;
    let concept = r.concept(id).expect("HP:0000002");
    let parents: BTreeSet<String> = concept.parents.iter().map(|l| l.iri.clone()).collect();
    let children: BTreeSet<String> = concept.children.iter().map(|l| l.iri.clone()).collect();
    assert_eq!(iris("parents"), parents);
    assert_eq!(iris("children"), children);
    let descendants = iris("descendants");
    assert!(descendants.is_superset(&children) && descendants.len() > children.len());
    let term = json_of(&get(&server, &base), "HP:0000002");
    assert_eq!(term["is_root"], false);
    assert_eq!(term["has_children"], true);
    assert!(term["_links"]["parents"]["href"].is_string());
    assert!(term["_links"]["children"]["href"].is_string());
}

#[test]
fn hostile_inputs_get_specific_errors_in_ols_shape_and_the_server_goes_on() {
    let server = default_server();
    let long_q = "a".repeat(60 * 1024);
    let cases: Vec<(String, u16, &str)> = vec![
        (format!("/api/search?q={long_q}"), 400, "q is longer"),
        (
            "/api/ontologies/hp/terms/%FF%FE%FD".into(),
            400,
            "percent-encoded UTF-8",
        ),
        (
            "/api/search?q=asthma&rows=1000000000".into(),
            400,
            "rows must be at most",
        ),
        ("/api/search?q=asthma&rows=ten".into(), 400, "whole number"),
        (
            "/api/ontologies/nosuch".into(),
            404,
            "no ontology has the id",
        ),
        (
            "/api/ontologies/hp/terms?page=100000&size=500".into(),
            404,
            "past the last page",
        ),
        (
            format!("/api/ontologies/hp/classes/{}", encoded(HP_0000002)),
            404,
            "Endpoint not found",
        ),
        (
            format!(
                "/api/ontologies/hp/terms/{}",
                encoded("http://example.org/nothing")
            ),
            404,
            "holds no term",
        ),
        ("/api/search".into(), 400, "q is required"),
    ];
    for (target, status, says) in cases {
        let shown: String = target.chars().take(80).collect();
        let answer = get(&server, &target);
        assert_eq!(answer.status, status, "{shown}: {}", answer.body);
        let body = json_of(&answer, &shown);
        assert_eq!(body["status"], status, "{shown}");
        let message = body["message"].as_str().expect("a message");
        assert!(message.contains(says), "{shown}: {message}");
        assert!(
            answer.body.len() < 2_000,
            "{shown}: an echo of {} bytes",
            answer.body.len()
        );
        let alive = get(&server, "/api/ontologies/hp");
        assert_eq!(
            alive.status, 200,
            "the server stopped answering after {shown}"
        );
    }
    // A size past the most a page holds is lowered, as Spring lowers it.
    let big = json_of(
        &get(&server, "/api/ontologies/hp/terms?size=1000000000"),
        "a huge size",
    );
    assert_eq!(big["page"]["size"], 1000);
}

#[test]
fn an_older_release_has_an_ontology_id_of_its_own_that_states_its_version() {
    let server = default_server();
    let pinned = json_of(
        &get(&server, "/api/ontologies/mondo@2025-02-04"),
        "mondo@2025-02-04",
    );
    assert_eq!(pinned["ontologyId"], "mondo@2025-02-04");
    assert_eq!(pinned["config"]["version"], "2025-02-04");
    let current = json_of(&get(&server, "/api/ontologies/mondo"), "mondo");
    assert_eq!(current["config"]["version"], "2026-05-05");
    assert_ne!(pinned["numberOfTerms"], current["numberOfTerms"]);
    let terms = json_of(
        &get(
            &server,
            "/api/ontologies/mondo@2025-02-04/terms?obo_id=MONDO:0005148",
        ),
        "a pinned term",
    );
    let term = &terms["_embedded"]["terms"][0];
    assert_eq!(term["ontology_name"], "mondo@2025-02-04");
    assert!(
        term["_links"]["self"]["href"]
            .as_str()
            .is_some_and(|h| h.contains("/api/ontologies/mondo@2025-02-04/terms/")),
        "{term}"
    );
    let search = json_of(
        &get(&server, "/api/search?q=asthma&ontology=mondo@2025-02-04"),
        "a pinned search",
    );
    let docs = search["response"]["docs"].as_array().expect("docs");
    assert!(!docs.is_empty());
    assert!(
        docs.iter()
            .all(|d| d["ontology_name"] == "mondo@2025-02-04")
    );
}

#[test]
fn a_full_text_search_of_a_small_release_ranks_as_filtering_every_hit_would() {
    // A release that is a small part of the index is searched through a clause on its
    // documents; the hits and their order are those of the whole index's ranking, filtered.
    let r = default_index();
    for text in [
        "digestive system neuroendocrine tumor, grade 1/2",
        "abnormal heart",
        "type 2 diabetes",
    ] {
        for source in ["hp", "mondo"] {
            let keys = vec![source.to_string()];
            let (narrow, _) = r.lexicon().search(text, Some(&keys), 20).expect("search");
            let (all, _) = r.lexicon().search(text, None, 1000).expect("search");
            let filtered: Vec<_> = all
                .into_iter()
                .filter(|hit| {
                    let c = r.concept(hit.concept).expect("the index reads");
                    r.source_of(&c).is_some_and(|s| s.key() == source)
                })
                .take(20)
                .map(|hit| hit.concept)
                .collect();
            let narrow: Vec<_> = narrow.into_iter().map(|hit| hit.concept).collect();
            assert!(!narrow.is_empty(), "{text} in {source}: no hits");
            assert_eq!(narrow, filtered, "{text} in {source}");
        }
    }
}
