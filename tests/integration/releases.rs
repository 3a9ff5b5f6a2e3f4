//! Two releases of MONDO side by side in the bundled catalogue (2025-02-04 and the current
//! 2026-05-05): pinning by `@release`, by `release` and in a source filter, the releases an
//! answer lists, a former label, `what_changed`, `ontoresolve diff` against counts computed
//! here from the two raw files, and the errors of pins and diffs.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::{Value, json};

use crate::mcp_harness::{both, call, error_code, structured};
use crate::support::{default_index_dir, repo};

const OLDER: &str = "2025-02-04";
const CURRENT: &str = "2026-05-05";

#[tokio::test]
async fn a_pinned_identifier_answers_from_its_release_and_lists_both() {
    both(async |revision, client| {
        let pinned = call(
            client,
            "resolve_identifier",
            json!({ "identifier": format!("MONDO:0000030@{OLDER}") }),
        )
        .await;
        let v = structured(&pinned);
        assert_eq!(v["result"]["outcome"], "found", "{revision:?}");
        assert_eq!(
            v["result"]["concepts"][0]["label"],
            "sleep-related hypermotor epilepsy"
        );
        assert_eq!(v["query"]["filters"]["release"], OLDER);
        assert_eq!(
            v["sources"][0],
            json!({ "id": "mondo", "release": OLDER }),
            "{v}"
        );
        assert!(
            v["result"]["message"]
                .as_str()
                .is_some_and(|m| m.contains(OLDER)),
            "{v}"
        );
        let found = call(
            client,
            "find_concepts",
            json!({ "text": format!("MONDO:0000030@{OLDER}") }),
        )
        .await;
        assert_eq!(structured(&found)["sources"][0]["release"], OLDER);
        let by_argument = call(
            client,
            "get_concept",
            json!({ "identifier": "MONDO:0000030", "release": OLDER }),
        )
        .await;
        assert_eq!(structured(&by_argument)["result"]["release"], OLDER);

        let current = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "MONDO:0000030" }),
        )
        .await;
        let v = structured(&current);
        assert_eq!(
            v["result"]["concepts"][0]["label"],
            "familial sleep-related hypermotor epilepsy"
        );
        let releases: Vec<&str> = v["result"]["releases"]
            .as_array()
            .expect("releases")
            .iter()
            .filter_map(|r| r["release"].as_str())
            .collect();
        assert_eq!(
            releases.iter().copied().collect::<BTreeSet<_>>(),
            BTreeSet::from([OLDER, CURRENT])
        );
    })
    .await;
}

#[tokio::test]
async fn a_term_new_in_the_current_release_is_not_in_the_older_one() {
    both(async |_, client| {
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "MONDO:0100631", "release": OLDER }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["result"]["outcome"], "not_in_release");
        let held: BTreeMap<&str, &str> = v["result"]["releases"]
            .as_array()
            .expect("releases")
            .iter()
            .filter_map(|r| Some((r["release"].as_str()?, r["held"].as_str()?)))
            .collect();
        assert_eq!(held.get(OLDER), Some(&"absent"), "{v}");
        assert_eq!(held.get(CURRENT), Some(&"live"), "{v}");
        let r = call(
            client,
            "get_concept",
            json!({ "identifier": "MONDO:0100631", "release": OLDER }),
        )
        .await;
        let v = structured(&r);
        assert!(v["result"].is_null(), "{v}");
        assert!(
            v["suggestion"]
                .as_str()
                .is_some_and(|s| s.contains(CURRENT)),
            "{v}"
        );
    })
    .await;
}

#[tokio::test]
async fn a_label_that_moved_finds_the_new_holder_and_names_the_former_one() {
    both(async |_, client| {
        let r = call(
            client,
            "find_concepts",
            json!({ "text": "sleep-related hypermotor epilepsy", "sources": ["mondo"] }),
        )
        .await;
        let v = structured(&r);
        let candidates = v["result"]["candidates"].as_array().expect("candidates");
        assert_eq!(candidates[0]["concept"]["curie"], "MONDO:0100631", "{v}");
        let former = candidates
            .iter()
            .find(|c| c["concept"]["curie"] == "MONDO:0000030")
            .expect("the former holder is listed");
        assert_eq!(former["match_kind"], "former_label", "{former}");

        let pinned = call(
            client,
            "find_concepts",
            json!({ "text": "sleep-related hypermotor epilepsy", "sources": [format!("mondo@{OLDER}")] }),
        )
        .await;
        let v = structured(&pinned);
        assert_eq!(
            v["result"]["candidates"][0]["concept"]["curie"], "MONDO:0000030",
            "{v}"
        );
        assert_eq!(v["result"]["candidates"][0]["match_kind"], "label");
        assert_eq!(v["sources"][0]["release"], OLDER);
    })
    .await;
}

#[tokio::test]
async fn pins_that_cannot_be_followed_get_their_specific_errors() {
    both(async |_, client| {
        for (identifier, release, code) in [
            ("MESH:D000001@1999", None, "unknown_release"),
            ("MONDO:0000030@", None, "invalid_argument"),
            ("MONDO:0000030@a\u{7}b", None, "invalid_argument"),
            ("MONDO:0000030", Some("x\u{7}y"), "invalid_argument"),
            ("MONDO:0000030", Some(&*"9".repeat(200)), "invalid_argument"),
            (
                &*format!("MONDO:0000030@{OLDER}"),
                Some(CURRENT),
                "invalid_argument",
            ),
        ] {
            let mut args = json!({ "identifier": identifier });
            if let Some(release) = release {
                args["release"] = json!(release);
            }
            let r = call(client, "resolve_identifier", args).await;
            assert_eq!(error_code(&r), code, "{identifier} {release:?}");
        }
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "MESH:D000001@1999" }),
        )
        .await;
        let text = &r.content[0].as_text().expect("text").text;
        assert!(text.contains("2024"), "names the loaded release: {text}");
        let r = call(
            client,
            "find_concepts",
            json!({ "text": "asthma", "sources": ["mondo@1999-01-01"] }),
        )
        .await;
        assert_eq!(error_code(&r), "unknown_release");
    })
    .await;
}

#[tokio::test]
async fn a_year_versioned_mesh_iri_pins_its_year() {
    both(async |_, client| {
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "http://id.nlm.nih.gov/mesh/2024/D000001" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["result"]["outcome"], "found", "{v}");
        assert_eq!(v["query"]["normalized"], "MESH:D000001");
        assert_eq!(v["query"]["filters"]["release"], "2024");
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "http://id.nlm.nih.gov/mesh/1999/D000001" }),
        )
        .await;
        assert_eq!(error_code(&r), "unknown_release");
    })
    .await;
}

#[tokio::test]
async fn what_changed_reports_an_obsoletion_with_its_replacement_and_nothing_for_a_stable_term() {
    both(async |_, client| {
        let r = call(
            client,
            "what_changed",
            json!({ "identifier": "MONDO:0005259" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["result"]["from"], OLDER);
        assert_eq!(v["result"]["to"], CURRENT);
        let change = &v["result"]["changes"][0];
        assert_eq!(change["type"], "NodeObsoletionWithDirectReplacement", "{v}");
        assert_eq!(change["has_direct_replacement"], json!(["MONDO:0100610"]));
        assert!(v["sparql"].as_str().is_some_and(|q| q.contains("VALUES")));

        let r = call(
            client,
            "what_changed",
            json!({ "identifier": "MONDO:0000001" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["total"], 0, "{v}");

        let page = call(client, "what_changed", json!({ "source": "mondo" })).await;
        let v = structured(&page);
        assert_eq!(v["returned"], 100);
        assert_eq!(v["truncated"], true);
        let next = v["cursor"].as_str().expect("cursor").to_string();
        let second = call(
            client,
            "what_changed",
            json!({ "source": "mondo", "cursor": next }),
        )
        .await;
        assert_ne!(
            structured(&second)["result"]["changes"][0],
            v["result"]["changes"][0]
        );
        for (args, code) in [
            (json!({}), "invalid_argument"),
            (json!({ "source": "hp" }), "invalid_argument"),
            (
                json!({ "source": "mondo", "from": CURRENT, "to": CURRENT }),
                "invalid_argument",
            ),
            (
                json!({ "source": "mondo", "from": "1999" }),
                "unknown_release",
            ),
            (json!({ "source": "nope" }), "unknown_source"),
        ] {
            let r = call(client, "what_changed", args.clone()).await;
            assert_eq!(error_code(&r), code, "{args}");
        }
    })
    .await;
}

/// MONDO's compact JSON, read here independently of the build: CURIE to term.
fn raw_terms(file: &str) -> BTreeMap<String, Value> {
    let path = repo().join("ontologies").join(file);
    let bytes = std::fs::read(&path).expect("bundled MONDO release");
    let json = zstd::decode_all(&bytes[..]).expect("zstd");
    serde_json::from_slice(&json).expect("compact JSON")
}

fn diff(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
        .arg("diff")
        .args(args)
        .arg("--index")
        .arg(default_index_dir())
        .output()
        .expect("run diff")
}

#[test]
fn diff_mondo_counts_what_the_raw_files_say_changed() {
    let out = diff(&["mondo"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    let (older, newer) = (
        raw_terms("mondo-2025-02-04.json.zst"),
        raw_terms("mondo-2026-05-05.json.zst"),
    );
    let deprecated = |t: &Value| t["deprecated"].as_bool().unwrap_or(false);
    let created = newer.keys().filter(|k| !older.contains_key(*k)).count() as u64;
    let obsoleted = older
        .iter()
        .filter(|(k, t)| !deprecated(t) && newer.get(*k).is_some_and(deprecated))
        .count() as u64;
    let renamed = older
        .iter()
        .filter(|(k, t)| {
            newer
                .get(*k)
                .is_some_and(|n| !deprecated(t) && !deprecated(n) && n["label"] != t["label"])
        })
        .count() as u64;
    let summary = &report["summary"];
    let count = |kind: &str| summary[kind].as_u64().unwrap_or(0);
    assert_eq!(count("NodeCreation"), created);
    assert_eq!(count("NodeRename"), renamed);
    assert_eq!(
        count("NodeObsoletion")
            + count("NodeObsoletionWithDirectReplacement")
            + count("NodeDirectMerge"),
        obsoleted
    );
    let changes = report["changes"].as_array().expect("changes");
    let about = |id: &'static str| changes.iter().filter(move |c| c["about_node"] == id);
    assert_eq!(
        about("MONDO:0000001").count(),
        0,
        "an unchanged term gets no entry"
    );
    let asperger: Vec<&Value> = about("MONDO:0005259").collect();
    assert_eq!(asperger.len(), 1, "exactly one change for an obsoletion");
    assert_eq!(
        asperger[0]["has_direct_replacement"],
        json!(["MONDO:0100610"])
    );
    let tsv = diff(&["mondo", "--format", "tsv"]);
    let rows = String::from_utf8_lossy(&tsv.stdout).lines().count();
    assert_eq!(rows, changes.len() + 1, "a header and one row per change");
}

#[test]
fn diff_refuses_what_it_cannot_compare_with_exit_code_2() {
    for args in [
        &["nope"][..],
        &["hp"][..],
        &["mondo", "--from", CURRENT, "--to", CURRENT][..],
        &["mondo", "--from", "1999"][..],
    ] {
        let out = diff(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("error:"), "{args:?}: {stderr}");
    }
}

/// DOID 2018 as OBO Graphs JSON beside DOID 2024 as OBO, from the shared data.
fn two_doid_releases() -> Option<&'static ontoresolve::resolve::Resolver> {
    let data = crate::support::shared_data()?;
    crate::support::shared_index("doid-releases", |dir| {
        let entry = |path: &str, format: &str, release: &str| {
            format!(
                "[[source]]\nid = \"doid\"\ntitle = \"Human Disease Ontology\"\nkind = \"obo\"\nformat = \"{format}\"\npath = \"{}\"\nrelease = \"{release}\"\nprefixes = [{{ prefix = \"DOID\", uri_prefix = \"http://purl.obolibrary.org/obo/DOID_\" }}]\nlicense = \"CC0\"\nattribution = \"DO\"\nhomepage = \"https://disease-ontology.org\"\nscope = \"diseases\"\n\n",
                data.join(path).display()
            )
        };
        let catalog = dir.join("catalog.toml");
        let text = entry(
            "obographs/doid-2018-07-05.json.gz",
            "obographs-json",
            "2018-07-05",
        ) + &entry("obo/doid-2024-01-31.obo.gz", "obo", "2024-01-31");
        std::fs::write(&catalog, text).expect("write catalogue");
        crate::support::build_into(&catalog, &dir.join("index"));
        Some(dir.join("index"))
    })
}

#[test]
fn a_later_page_of_a_source_diff_reads_only_its_own_changes() {
    let Some(r) = two_doid_releases() else {
        crate::support::skip(crate::support::Missing::Data, "DOID 2018 and 2024");
        return;
    };
    let pair = r.release_pair("doid", None, None).expect("two releases");
    let first = r.diff_source(&pair).expect("diff");
    assert!(first.len() > 1_000, "{} changes", first.len());
    // The pair's changes were computed once: a later page slices the same list.
    let later = r.diff_source(&pair).expect("diff again");
    assert!(
        std::sync::Arc::ptr_eq(&first, &later),
        "a later page computed the diff again"
    );
}

#[test]
fn doid_2018_as_obo_graphs_beside_2024_as_obo_shows_a_rename() {
    let Some(r) = two_doid_releases() else {
        crate::support::skip(crate::support::Missing::Data, "DOID 2018 and 2024");
        return;
    };
    let releases: Vec<(&str, bool)> = r
        .manifest()
        .releases("doid")
        .map(|s| (s.release.as_str(), s.current))
        .collect();
    assert_eq!(releases, [("2018-07-05", false), ("2024-01-31", true)]);
    let pair = r.release_pair("doid", None, None).expect("two releases");
    let changes = r
        .diff_concept(&pair, "http://purl.obolibrary.org/obo/DOID_12132")
        .expect("the index reads");
    let rename = changes
        .iter()
        .find(|c| c.kind == ontoresolve::resolve::diff::ChangeKind::NodeRename)
        .expect("DOID:12132 was renamed");
    assert_eq!(
        rename.old_value.as_deref(),
        Some("Wegener's granulomatosis")
    );
    assert_eq!(
        rename.new_value.as_deref(),
        Some("granulomatosis with polyangiitis")
    );
    let all = r.diff_source(&pair).expect("diff");
    let merges = all
        .iter()
        .filter(|c| c.kind == ontoresolve::resolve::diff::ChangeKind::NodeDirectMerge)
        .count();
    assert!(
        merges > 0,
        "DOID's obsoletions between the releases include merges"
    );
}
