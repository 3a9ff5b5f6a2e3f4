//! What an answer costs an agent, on the default index: the structured answers of the common
//! questions stay under their byte budgets, carry no nulls or empty lists, and give numbers to
//! three significant digits. A regression in size fails here.

use serde_json::{Value, json};

use ontoresolve::mcp::dto::{FindArgs, IdentifierArgs, MapArgs};
use ontoresolve::mcp::dto_passage::PassageArgs;
use ontoresolve::mcp::tools;
use ontoresolve::model::Prefixes;

use crate::support::default_index;

/// Every place in `v` that holds a null, an empty list or a number with more than three
/// significant digits.
fn waste(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Null => out.push(format!("{path}: null")),
        Value::Array(items) => {
            if items.is_empty() {
                out.push(format!("{path}: empty list"));
            }
            for (i, item) in items.iter().enumerate() {
                waste(item, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                waste(item, &format!("{path}.{k}"), out);
            }
        }
        Value::Number(n) if n.is_f64() => {
            let digits = n
                .to_string()
                .trim_start_matches(['-', '0', '.'])
                .replace('.', "")
                .len();
            if digits > 3 {
                out.push(format!("{path}: {n} has {digits} digits"));
            }
        }
        _ => {}
    }
}

/// `find_concepts` with its defaults, from `cursor` when given, as JSON.
fn find(text: &str, limit: Option<u32>, cursor: Option<&str>) -> Value {
    let answer = tools::find_concepts(
        default_index(),
        &FindArgs {
            text: text.into(),
            sources: None,
            include_obsolete: None,
            limit,
            cursor: cursor.map(str::to_string),
        },
    )
    .expect("answers");
    serde_json::to_value(&answer).expect("json")
}

fn check_lean(name: &str, answer: &Value, budget: usize) {
    let bytes = answer.to_string().len();
    eprintln!("{name}: {bytes} bytes (budget {budget})");
    assert!(
        bytes <= budget,
        "{name}: {bytes} bytes, over {budget}: {answer:#}"
    );
    let mut found = Vec::new();
    waste(answer, name, &mut found);
    assert!(
        found.is_empty(),
        "{name} carries what it need not: {found:#?}"
    );
}

#[test]
fn nothing_found_is_an_empty_candidate_list_beside_a_suggestion() {
    let answer = find("zqxjvkwpfyb", None, None);
    assert_eq!(answer["total"], 0, "{answer:#}");
    assert_eq!(
        answer["result"]["candidates"],
        json!([]),
        "the list asked for reads empty: {answer:#}"
    );
    assert!(
        answer["suggestion"].as_str().is_some_and(|s| !s.is_empty()),
        "and says what to try: {answer:#}"
    );
    // Nothing else in it is empty or null.
    let mut found = Vec::new();
    waste(&answer, "nothing found", &mut found);
    assert_eq!(found, ["nothing found.result.candidates: empty list"]);
    // A passage that mentions nothing reads the same way.
    let args = PassageArgs {
        text: "Zqxj wvkp blorft.".into(),
        sources: None,
        limit: None,
        groups: None,
    };
    let passage = tools::ground_passage(default_index(), &args).expect("answers");
    let passage = serde_json::to_value(&passage).expect("json");
    assert_eq!(passage["result"]["mentions"], json!([]), "{passage:#}");
    assert!(
        passage["suggestion"]
            .as_str()
            .is_some_and(|s| !s.is_empty()),
        "{passage:#}"
    );
}

#[test]
fn name_candidates_fit_in_three_and_a_half_kilobytes_a_page() {
    // Each candidate states its confidence, the two features behind it and its group: about
    // 50 bytes over the hand-set score they replaced.
    const PAGE: usize = 3584;
    let first = find("breast cancer", None, None);
    check_lean("find_concepts breast cancer", &first, PAGE);
    // The name matched as typed: full text was left out, and the cursor brings it.
    let cursor = first["cursor"]
        .as_str()
        .expect("a cursor to the full-text readings");
    let next = find("breast cancer", None, Some(cursor));
    assert_eq!(next["returned"], 10, "{next:#}");
    check_lean("find_concepts breast cancer, next page", &next, PAGE);
    // The same information: every candidate says how it matched, how sure, and why.
    for c in next["result"]["candidates"].as_array().expect("candidates") {
        assert_eq!(c["match_kind"], "full_text", "{c}");
        assert!(c["confidence"].as_f64().is_some(), "{c}");
        assert!(c["basis"].as_str().is_some_and(|b| !b.is_empty()), "{c}");
        assert!(
            c["concept"]["curie"].is_string() || c["concept"]["iri"].is_string(),
            "{c}"
        );
    }
}

#[test]
fn the_first_page_of_a_hub_s_mappings_fits_in_eight_kilobytes() {
    let answer = tools::map_identifier(
        default_index(),
        &MapArgs {
            identifier: "MONDO:0005148".into(),
            targets: None,
            include_inferred: None,
            include_predicted: None,
            cursor: None,
        },
    )
    .expect("answers");
    let answer = serde_json::to_value(&answer).expect("json");
    check_lean("map_identifier MONDO:0005148", &answer, 8 * 1024);
    let objects: Vec<&str> = answer["result"]["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter_map(|c| c["object"].as_str())
        .collect();
    for expected in [
        "MESH:D003924",
        "DOID:9352",
        "OMIM:125853",
        "NCIT:C26747",
        "UMLS:C0011860",
    ] {
        assert!(
            objects.iter().any(|o| o.eq_ignore_ascii_case(expected)),
            "{expected} in {objects:?}"
        );
    }
}

#[test]
fn an_identifier_resolves_in_a_kilobyte_and_a_half() {
    let answer = tools::resolve_identifier(
        default_index(),
        &IdentifierArgs {
            identifier: "HP:0000118".into(),
            release: None,
        },
    )
    .expect("answers");
    let answer = serde_json::to_value(&answer).expect("json");
    check_lean("resolve_identifier HP:0000118", &answer, 1536);
    assert_eq!(answer["result"]["outcome"], "found");
    // The IRI is left out because the CURIE expands to it through the registry.
    let concept = &answer["result"]["concepts"][0];
    assert_eq!(concept["curie"], "HP:0000118");
    assert!(concept.get("iri").is_none(), "{concept}");
    assert_eq!(
        default_index().registry().expand("HP:0000118").as_deref(),
        Some("http://purl.obolibrary.org/obo/HP_0000118")
    );
}

#[test]
fn the_echo_holds_only_what_the_caller_set() {
    let answer = find("Abnormality of body height", Some(3), None);
    assert_eq!(
        answer["query"]["input"],
        json!({ "text": "Abnormality of body height", "limit": 3 })
    );
    // What was left out, and how to ask for it.
    assert!(
        answer["result"]["stages_skipped"]
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x
                .as_str()
                .is_some_and(|x| x.starts_with("full_text") && x.contains("cursor")))),
        "{answer:#}"
    );
    assert!(answer["cursor"].is_string(), "{answer:#}");
    assert_eq!(
        answer["result"]["candidates"][0]["concept"]["curie"],
        "HP:0000002"
    );
}
