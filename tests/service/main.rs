//! The service as a team runs it, through the real binary over HTTP: several replicas over one
//! index directory, and a minute of load from eight clients, each through a rebuild. A binary of
//! its own, so that its load never competes with the timing of the integration tests.

// Shared with the integration test binary; each uses its own part.
#[allow(dead_code)]
#[path = "../integration/http_client.rs"]
mod http_client;
#[allow(dead_code)]
#[path = "../integration/process.rs"]
mod process;

mod load;
mod notifications;
mod replicas;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use ontoresolve::build::{BuildOptions, Silent, build};
use serde_json::Value;

pub(crate) use http_client::Conn;

pub(crate) const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// A scratch directory under cargo's per-target temp dir, emptied first.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("ontoresolve-service-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Builds edition `n` of the fixtures, with the bundled HPO, into `index` and returns its build id. In edition `n` the
/// OBO fixture's release is `2023-07-0n` and XD:0000003 is labelled "lung disease (edition n)",
/// so every answer shows, in its data as well as in its `index`, which build answered it.
pub(crate) fn build_edition(dir: &Path, index: &Path, n: u32) -> String {
    assert!((1..=9).contains(&n), "one digit per edition");
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let obo = std::fs::read_to_string(fixtures.join("ontology.obo"))
        .expect("read the OBO fixture")
        .replace(
            "data-version: xd/releases/2023-07-01",
            &format!("data-version: xd/releases/2023-07-0{n}"),
        )
        .replace(
            "name: lung disease\n",
            &format!("name: lung disease (edition {n})\n"),
        );
    assert!(
        obo.contains(&format!("(edition {n})")),
        "the fixture changed"
    );
    let obo_path = dir.join(format!("ontology-{n}.obo"));
    std::fs::write(&obo_path, obo).expect("write edition");
    let catalogue = std::fs::read_to_string(fixtures.join("fixtures.toml"))
        .expect("read the fixtures catalogue")
        .replace("path = \"", &format!("path = \"{}/", fixtures.display()))
        .replace(
            &format!("{}/ontology.obo", fixtures.display()),
            &obo_path.display().to_string(),
        );
    let hpo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ontologies/hp-2025-01-16.obo.gz");
    let catalogue = format!(
        "{catalogue}\n[[source]]\nid = \"hp\"\ntitle = \"Human Phenotype Ontology\"\nkind = \"obo\"\npath = \"{}\"\nlicense = \"CC-BY-4.0\"\nattribution = \"HPO\"\nhomepage = \"https://hpo.jax.org\"\nscope = \"Phenotypes, so that a build has a real size.\"\nprefixes = [{{ prefix = \"HP\", uri_prefix = \"http://purl.obolibrary.org/obo/HP_\" }}]\n",
        hpo.display()
    );
    let catalogue_path = dir.join(format!("catalog-{n}.toml"));
    std::fs::write(&catalogue_path, catalogue).expect("write catalogue");
    build(
        &BuildOptions {
            catalog: catalogue_path,
            index_dir: index.to_path_buf(),
            keep_going: false,
        },
        &Silent,
    )
    .unwrap_or_else(|e| panic!("build of edition {n} failed: {e}"))
    .manifest
    .build_id
}

/// The edition an answer came from. Its build id names one edition; every release and label
/// in it that names an edition (answers about the OBO fixture do) must name the same one, or
/// the answer mixed two builds.
pub(crate) fn edition_of(answer: &Value, builds: &HashMap<String, u32>) -> Result<u32, String> {
    let content = &answer["result"]["structuredContent"];
    if answer["result"]["isError"] == Value::Bool(true) || content.is_null() {
        return Err(format!("not a successful tool result: {answer}"));
    }
    let index = content["index"].as_str().unwrap_or_default();
    let Some(&edition) = builds.get(index) else {
        return Err(format!("answered by an unknown build {index:?}"));
    };
    let mut named = Vec::new();
    editions_named(content, &mut named);
    match named.iter().find(|&&e| e != edition) {
        Some(other) => Err(format!(
            "an answer from build {index} (edition {edition}) carries edition {other}: {content}"
        )),
        None => Ok(edition),
    }
}

fn editions_named(value: &Value, out: &mut Vec<u32>) {
    match value {
        Value::String(s) => {
            for marker in ["2023-07-0", "(edition "] {
                for (at, _) in s.match_indices(marker) {
                    if let Some(d) = s[at + marker.len()..]
                        .chars()
                        .next()
                        .and_then(|c| c.to_digit(10))
                    {
                        out.push(d);
                    }
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| editions_named(v, out)),
        Value::Object(map) => map.values().for_each(|v| editions_named(v, out)),
        _ => {}
    }
}

/// Every current HPO term id, for calls that touch the whole of a build.
pub(crate) fn hpo_ids() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ontologies/hp-2025-01-16.obo.gz");
    let file = std::fs::File::open(&path).expect("the bundled HPO");
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    let mut ids = Vec::new();
    for line in reader.lines().map_while(Result::ok) {
        if let Some(n) = line.strip_prefix("id: HP:") {
            ids.push(format!("HP:{n}"));
        } else if line == "is_obsolete: true" {
            ids.pop();
        }
    }
    assert!(ids.len() > 10_000, "HPO has its terms: {}", ids.len());
    ids
}

/// A tools/call body for the 2026-07-28 revision.
pub(crate) fn call_body(id: u64, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},{META}}}}}"#
    )
}
