//! OLS4's own API test suite (`../shared/data/ols4-testcases`, EBISPOT/ols4 at 36ad7da):
//! each case's ontology loaded alone into an index, as OLS's harness loads it, and every path
//! it has an expected answer for requested from the OLS API in-process. Answers are compared
//! after one normalization (`normalize`, documented in `docs/ols-api.md`), and matched and
//! total paths are reported per case. Each case may fail at most the paths its entry in the
//! reviewed baseline (`tests/ols4/expected-failures.toml`) allows, with the reason written
//! there; a case that does better than its entry fails too, so the baseline stays true.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use ontoresolve::resolve::Resolver;
use ontoresolve::resolve::live::LiveIndex;
use serde_json::Value;
use tower::ServiceExt;

use crate::support::{build_into, repo, scratch, shared_data};

/// One case: its loader config and the expected answers.
struct Case {
    /// As OLS serves it: the config's id, lower-cased.
    id: String,
    config: Value,
    /// The ontology file, absolute; `None` when OLS's config fetches it from the web (oio,
    /// owl, rdfs, skos), which this harness does not.
    file: Option<PathBuf>,
}

/// How one case went.
#[derive(Default, Debug)]
struct Outcome {
    matched: usize,
    total: usize,
    /// Of those, OLS's own "Endpoint not found" (`classes/`, `entities/`): counted apart.
    not_found_matched: usize,
    not_found_total: usize,
    /// Each failed path with what the API answered, normalized.
    failed: Vec<(String, Value)>,
}

/// Every case with expected output, by id.
fn cases(root: &Path) -> Vec<Case> {
    let expected = root.join("testcases_expected_output_api/ontologies");
    let mut out = Vec::new();
    let configs = walk(&root.join("testcases"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"));
    for path in configs {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(doc) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        for config in doc["ontologies"].as_array().into_iter().flatten() {
            let Some(id) = config["id"].as_str().map(str::to_lowercase) else {
                continue;
            };
            let Some(purl) = config["ontology_purl"].as_str() else {
                continue;
            };
            let file = root.join(purl.trim_start_matches("./"));
            if expected.join(&id).is_dir() {
                out.push(Case {
                    id,
                    config: config.clone(),
                    file: file.is_file().then_some(file),
                });
            }
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out.dedup_by(|a, b| a.id == b.id);
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn toml_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string")
}

/// The case's catalogue: one source, its file as OLS loads it, with the config's prefix,
/// base URIs and hierarchical properties.
fn catalogue(case: &Case, file: &Path, dir: &Path) -> PathBuf {
    let format = match file.extension().and_then(|e| e.to_str()) {
        Some("ttl") => "turtle",
        _ => "rdfxml",
    };
    let strings = |key: &str| -> Vec<String> {
        match &case.config[key] {
            Value::String(s) => vec![s.clone()],
            Value::Array(items) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    let list = |items: Vec<String>| {
        format!(
            "[{}]",
            items
                .iter()
                .map(|s| toml_string(s))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut text = format!(
        "[[source]]\nid = {}\ntitle = {}\nkind = \"owl\"\nformat = \"{format}\"\npath = {}\nlicense = \"Apache-2.0\"\nattribution = \"OLS4 test case\"\nhomepage = \"https://github.com/EBISPOT/ols4\"\nscope = \"test\"\n",
        toml_string(if case.file.is_some() {
            &case.id
        } else {
            "stand-in"
        }),
        toml_string(case.config["title"].as_str().unwrap_or(&case.id)),
        toml_string(&file.display().to_string()),
    );
    if let Some(prefix) = case.config["preferredPrefix"].as_str() {
        text.push_str(&format!("preferred_prefix = {}\n", toml_string(prefix)));
    }
    let bases = strings("base_uri");
    if !bases.is_empty() {
        text.push_str(&format!("base_uris = {}\n", list(bases)));
    }
    let hierarchical = strings("hierarchical_property");
    if !hierarchical.is_empty() {
        text.push_str(&format!(
            "hierarchical_properties = {}\n",
            list(hierarchical)
        ));
    }
    let path = dir.join("catalogue.toml");
    std::fs::write(&path, text).expect("write the case's catalogue");
    path
}

/// Arrays sorted by their JSON text (deeply), numbers as floats: what OLS's harness sorts,
/// and 51 equal to 51.0.
fn normalize(value: Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items: Vec<Value> = items.into_iter().map(normalize).collect();
            items.sort_by_cached_key(|v| v.to_string());
            Value::Array(items)
        }
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, normalize(v))).collect())
        }
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        other => other,
    }
}

/// A GET through the API's router, as `localhost:8080` (the address OLS's expected single
/// answers name).
async fn get(router: &axum::Router, target: &str) -> (u16, Value) {
    let request = Request::get(target)
        .header("host", "localhost:8080")
        .body(Body::empty())
        .expect("a request");
    let response = router.clone().oneshot(request).await.expect("an answer");
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap_or_default();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A list as OLS's harness reads it: every page's `_embedded` items joined, following
/// `next`; no `_embedded` (an empty list, or an error) gives `[]`.
async fn list(router: &axum::Router, path: &str) -> Value {
    let mut items = Vec::new();
    let mut next = Some(format!("{path}?size=1000"));
    let mut pages = 0;
    while let Some(target) = next.take() {
        pages += 1;
        if pages > 100 {
            break;
        }
        let (_, page) = get(router, &target).await;
        if let Some(embedded) = page["_embedded"].as_object()
            && let Some((_, first)) = embedded.iter().next()
        {
            items.extend(first.as_array().cloned().unwrap_or_default());
        }
        next = page["_links"]["next"]["href"]
            .as_str()
            .and_then(|h| h.find("/api/").map(|at| h[at..].to_string()));
    }
    let text = Value::Array(items)
        .to_string()
        .replace("http://localhost:8080", "<base>");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Whether an expected file is a list (the harness joined pages) or a single answer.
fn is_list(relative: &str) -> bool {
    let parts: Vec<&str> = relative.split('/').collect();
    match parts.as_slice() {
        [_one] => true,
        [_, _] => false,
        _ => true,
    }
}

async fn run_case(case: &Case, root: &Path) -> Outcome {
    let mut outcome = Outcome::default();
    let expected_dir = root
        .join("testcases_expected_output_api/ontologies")
        .join(&case.id);
    let dir = scratch(&format!("ols4/{}", case.id));
    let index_dir = dir.join("index");
    // A case whose file is on the web is answered by an index without it: every path but
    // OLS's own 404s fails, as its baseline entry says.
    let file = case
        .file
        .clone()
        .unwrap_or_else(|| repo().join("tests/data/skos.ttl"));
    let built = std::panic::catch_unwind(|| build_into(&catalogue(case, &file, &dir), &index_dir));
    let resolver = built.ok().and_then(|_| Resolver::open(&index_dir).ok());
    let router =
        resolver.map(|r| ontoresolve::ols::router(Arc::new(LiveIndex::fixed(Arc::new(r)))));
    for file in walk(&expected_dir) {
        let Ok(relative) = file.strip_prefix(&expected_dir) else {
            continue;
        };
        let relative = relative
            .to_string_lossy()
            .trim_end_matches(".json")
            .to_string();
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(expected) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let path = format!("/api/ontologies/{}/{relative}", case.id);
        let endpoint_not_found = expected["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Endpoint not found"));
        let got = match &router {
            None => Value::Null,
            Some(router) if is_list(&relative) && !endpoint_not_found => list(router, &path).await,
            Some(router) => get(router, &format!("{path}?size=1000")).await.1,
        };
        let got = normalize(got);
        let matched = got == normalize(expected);
        if endpoint_not_found {
            outcome.not_found_total += 1;
            outcome.not_found_matched += usize::from(matched);
        } else {
            outcome.total += 1;
            outcome.matched += usize::from(matched);
        }
        if !matched {
            outcome.failed.push((relative, got));
        }
    }
    outcome
}

/// The reviewed baseline: per case, how many paths (404s apart) may fail, and why.
fn baseline() -> BTreeMap<String, (usize, String)> {
    let text = std::fs::read_to_string(repo().join("tests/ols4/expected-failures.toml"))
        .expect("read tests/ols4/expected-failures.toml");
    let doc: toml::Table = text.parse().expect("the baseline is TOML");
    let mut out = BTreeMap::new();
    for entry in doc["case"].as_array().expect("[[case]] entries") {
        let id = entry["id"].as_str().expect("id").to_string();
        let failing = entry["failing"].as_integer().expect("failing") as usize;
        let reason = entry["reason"].as_str().expect("a reason").to_string();
        assert!(
            !reason.trim().is_empty(),
            "{id}: a baseline entry needs its reason"
        );
        out.insert(id, (failing, reason));
    }
    out
}

/// The cases whose constructs the concept model holds (classes, labels, synonyms,
/// obsolescence, hierarchy, part_of, localized labels, ontology annotations).
const MODELLED: [&str; 15] = [
    "isobsolete",
    "isobsoletesimple",
    "isobsoletesimplewitheforeason",
    "label",
    "partof",
    "efo-hierarchical-properties",
    "ontology-annotations-version-chebi",
    "ontology-annotations-version-efo",
    "ontology-annotations-version-ncbitaxon",
    "ontology-annotations-version-obo-date",
    "xmpl",
    "efo-iri-labels",
    "annotation-properties-simple",
    "owl2primer-minimal",
    "owl2primer-class",
];

#[test]
fn ols4_api_test_cases_answer_as_ols_does_but_for_the_reviewed_baseline() {
    let Some(data) = shared_data() else {
        return;
    };
    let root = data.join("ols4-testcases");
    let cases = cases(&root);
    assert!(cases.len() >= 100, "only {} cases found", cases.len());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut report = String::from("case\tmatched\ttotal\t404 matched\t404 total\n");
    let (mut all, mut modelled, mut not_found) = ((0, 0), (0, 0), (0, 0));
    let mut outcomes = BTreeMap::new();
    for case in &cases {
        let outcome = runtime.block_on(run_case(case, &root));
        report.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\n",
            case.id,
            outcome.matched,
            outcome.total,
            outcome.not_found_matched,
            outcome.not_found_total
        ));
        all = (all.0 + outcome.matched, all.1 + outcome.total);
        not_found = (
            not_found.0 + outcome.not_found_matched,
            not_found.1 + outcome.not_found_total,
        );
        if MODELLED.contains(&case.id.as_str()) || case.id == "owl2primer-subclassof" {
            modelled = (modelled.0 + outcome.matched, modelled.1 + outcome.total);
        }
        outcomes.insert(case.id.clone(), outcome);
    }
    let share = |(m, t): (usize, usize)| m as f64 / t.max(1) as f64;
    report.push_str(&format!(
        "ALL\t{}\t{}\t{}\t{}\nmodelled cases: {}/{} ({:.3}); all cases: {}/{} ({:.3}); 404 paths: {}/{}\n",
        all.0, all.1, not_found.0, not_found.1, modelled.0, modelled.1, share(modelled),
        all.0, all.1, share(all), not_found.0, not_found.1
    ));
    let out = scratch("ols4-report");
    std::fs::write(out.join("report.tsv"), &report).expect("write the report");
    let mut failures = String::new();
    for (id, outcome) in &outcomes {
        for (path, got) in &outcome.failed {
            failures.push_str(&format!("{id}\t{path}\t{got}\n"));
        }
    }
    std::fs::write(out.join("failures.tsv"), failures).expect("write the failures");
    eprintln!("{report}");
    assert_eq!(
        not_found.0, not_found.1,
        "every OLS 404 path is answered 404"
    );
    let allowed = baseline();
    let mut wrong = Vec::new();
    for (id, outcome) in &outcomes {
        let failing = outcome.total - outcome.matched;
        let (allowed_failing, _) = allowed.get(id).cloned().unwrap_or((0, String::new()));
        if failing != allowed_failing {
            wrong.push(format!(
                "{id}: {failing} paths fail, the baseline says {allowed_failing}"
            ));
        }
    }
    for id in allowed.keys() {
        if !outcomes.contains_key(id) {
            wrong.push(format!("{id}: in the baseline but not a case"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the OLS4 test cases differ from tests/ols4/expected-failures.toml (see {}):\n{}",
        out.display(),
        wrong.join("\n")
    );
}
