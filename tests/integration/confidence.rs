//! Confidence on the bundled default index: a probability on every candidate and mention,
//! names learned from a corpus traced to it, spans the model doubts kept apart as uncertain,
//! semantic groups on candidates and as a passage filter, and the model file reproduced by
//! `ontoresolve train` with every registered feature weighing in its ablation.

use ontoresolve::model::WireName;
use std::process::Command;
use std::sync::OnceLock;

use ontoresolve::mcp::dto::FindArgs;
use ontoresolve::mcp::dto_passage::PassageArgs;
use ontoresolve::mcp::tools;
use ontoresolve::model::{Facet, SemanticGroup};
use ontoresolve::resolve::confidence::Feature;
use serde_json::Value;

use crate::support::{Missing, default_index, default_index_dir, repo, scratch, shared_data, skip};

fn find(text: &str, sources: &[&str]) -> Value {
    let args = FindArgs {
        text: text.into(),
        sources: Some(sources.iter().map(|s| s.to_string()).collect()),
        include_obsolete: None,
        limit: Some(10),
        cursor: None,
    };
    serde_json::to_value(tools::find_concepts(default_index(), &args).expect("answers"))
        .expect("json")
}

fn ground(text: &str, groups: Option<&[&str]>) -> Value {
    let args = PassageArgs {
        text: text.into(),
        sources: Some(vec!["mesh".into()]),
        limit: Some(5),
        groups: groups.map(|g| g.iter().map(|x| x.to_string()).collect()),
    };
    serde_json::to_value(tools::ground_passage(default_index(), &args).expect("answers"))
        .expect("json")
}

fn list<'a>(answer: &'a Value, path: &str) -> Vec<&'a Value> {
    answer
        .pointer(path)
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn stated(v: &Value) -> f64 {
    v["confidence"]
        .as_f64()
        .unwrap_or_else(|| panic!("no confidence in {v:#}"))
}

#[test]
fn convulsions_in_mesh_is_seizures_by_a_corpus_name_and_contusions_is_never_first() {
    let answer = find("convulsions", &["mesh"]);
    let candidates = list(&answer, "/result/candidates");
    let first = candidates.first().expect("a candidate");
    assert_eq!(first["concept"]["curie"], "MESH:D012640", "{answer:#}");
    assert_eq!(first["match_kind"], "corpus_name");
    let contusions = candidates
        .iter()
        .find(|c| c["concept"]["curie"] == "MESH:D003288")
        .expect("Contusions is still a near spelling");
    assert!(stated(contusions) < 0.2, "{contusions:#}");
}

#[test]
fn a_heading_met_only_in_grammatical_number_does_not_outrank_a_corpus_name_written_as_the_input() {
    // MeSH's plural headings name classes (Glutamates, Alcohols); the singular a text writes
    // is the compound a corpus names (Glutamic Acid, Ethanol).
    for (text, compound, class) in [
        ("glutamate", "MESH:D018698", "MESH:D005971"),
        ("alcohol", "MESH:D000431", "MESH:D000438"),
    ] {
        let answer = find(text, &["mesh"]);
        let candidates = list(&answer, "/result/candidates");
        let at = |curie: &str| {
            (candidates
                .iter()
                .position(|c| c["concept"]["curie"] == curie))
            .unwrap_or_else(|| panic!("{curie} listed for {text}: {answer:#}"))
        };
        assert!(at(compound) < at(class), "{text}: {answer:#}");
        let class = &candidates[at(class)];
        assert_eq!(class["match_kind"], "name_variant", "{class:#}");
    }
}

#[test]
fn a_corpus_name_is_traced_to_its_corpus_and_the_corpus_is_cited() {
    let answer = find("adriamycin", &["mesh"]);
    let first = &answer["result"]["candidates"][0];
    assert_eq!(first["concept"]["label"], "Doxorubicin", "{answer:#}");
    assert_eq!(first["match_kind"], "corpus_name");
    assert_eq!(first["learned_from"]["corpus"], "bc5cdr");
    assert!(first["learned_from"]["mentions"].as_u64().unwrap_or(0) >= 2);
    assert!(
        answer["result"]["stages_tried"]
            .as_array()
            .is_some_and(|s| s.iter().any(|s| s == "corpus_name"))
    );
    let instructions = ontoresolve::mcp::instructions::instructions(default_index().manifest());
    assert!(
        instructions.contains("BioCreative V CDR task corpus"),
        "the corpus is cited once, in the instructions"
    );
}

#[test]
fn morphine_induced_hypotension_in_dogs_mentions_hypotension_not_controlled_hypotension() {
    let text = "Morphine induced hypotension in dogs.";
    let answer = ground(text, None);
    let firsts: Vec<&Value> = list(&answer, "/result/mentions")
        .into_iter()
        .map(|m| &m["candidates"][0]["concept"]["curie"])
        .collect();
    assert!(firsts.iter().any(|c| *c == "MESH:D007022"), "{answer:#}");
    assert!(!firsts.iter().any(|c| *c == "MESH:D007023"), "{answer:#}");
    let uncertain = list(&answer, "/result/uncertain");
    assert!(
        uncertain.iter().any(|m| m["text"] == "induced hypotension"),
        "the doubted reading is kept, apart: {answer:#}"
    );
    let threshold = answer["result"]["threshold"].as_f64().expect("threshold");
    assert!(uncertain.iter().all(|m| stated(m) < threshold));
    assert!(
        list(&answer, "/result/mentions")
            .iter()
            .all(|m| stated(m) >= threshold)
    );
}

#[test]
fn mesh_trees_give_enzymes_drug_uses_and_forms_and_general_signs_their_facet() {
    let r = default_index();
    let kind = |curie: &str| {
        let found = r.lexicon().lookup_id(curie).expect("the index reads");
        let concept = found.first().unwrap_or_else(|| panic!("{curie} is loaded"));
        r.kind_of(concept.concept).expect("flags read")
    };
    assert_eq!(
        kind("MESH:D000110"),
        (SemanticGroup::Chemical, Some(Facet::Protein)),
        "Acetylcholinesterase"
    );
    assert_eq!(
        kind("MESH:D000927"),
        (SemanticGroup::Chemical, Some(Facet::UseOrForm)),
        "Anticonvulsants"
    );
    assert_eq!(
        kind("MESH:D013607"),
        (SemanticGroup::Chemical, Some(Facet::UseOrForm)),
        "Tablets"
    );
    assert_eq!(
        kind("MESH:D009336"),
        (SemanticGroup::Disease, Some(Facet::SignOrCondition)),
        "Necrosis"
    );
    assert_eq!(
        kind("MESH:D004317"),
        (SemanticGroup::Chemical, None),
        "Doxorubicin"
    );
    assert_eq!(
        kind("MESH:D007022"),
        (SemanticGroup::Disease, None),
        "Hypotension"
    );
}

#[test]
fn an_enzyme_a_passage_names_is_doubted_where_the_drug_beside_it_is_a_mention() {
    let answer = ground(
        "Acetylcholinesterase activity fell after physostigmine.",
        None,
    );
    let curies = |path: &str| -> Vec<String> {
        list(&answer, path)
            .iter()
            .map(|m| {
                m["candidates"][0]["concept"]["curie"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    };
    assert_eq!(curies("/result/mentions"), ["MESH:D010830"], "{answer:#}");
    assert_eq!(curies("/result/uncertain"), ["MESH:D000110"], "{answer:#}");
}

#[test]
fn every_candidate_states_a_confidence_a_basis_and_a_group() {
    for (text, sources) in [
        ("BRCA1", &["hgnc"][..]),
        ("breast cancer", &["mesh", "mondo"][..]),
    ] {
        let answer = find(text, sources);
        for c in list(&answer, "/result/candidates") {
            let p = stated(c);
            assert!((0.0..=1.0).contains(&p), "{c:#}");
            assert!(c["basis"].as_str().is_some_and(|b| !b.is_empty()), "{c:#}");
            assert!(c["group"].as_str().is_some(), "{c:#}");
        }
    }
    assert_eq!(
        find("BRCA1", &["hgnc"])["result"]["candidates"][0]["group"],
        "gene"
    );
    assert_eq!(
        find("Hypotension", &["mesh"])["result"]["candidates"][0]["group"],
        "disease"
    );
    assert_eq!(
        find("Morphine", &["mesh"])["result"]["candidates"][0]["group"],
        "chemical"
    );
}

#[test]
fn a_name_no_candidate_is_confident_of_says_so() {
    let answer = find("qwertyuiop fibrosis", &["mesh"]);
    let best = list(&answer, "/result/candidates")
        .iter()
        .map(|c| stated(c))
        .fold(0.0, f64::max);
    assert!(best < 0.5, "{answer:#}");
    assert!(
        answer["suggestion"]
            .as_str()
            .is_some_and(|s| s.contains("No candidate is confident")),
        "{answer:#}"
    );
}

#[test]
fn groups_keep_only_their_concepts_and_an_unknown_group_lists_the_known_ones() {
    let text = "Cisplatin nephrotoxicity was seen in rats.";
    let all = ground(text, None);
    let diseases = ground(text, Some(&["disease"]));
    let groups_of = |answer: &Value| -> Vec<String> {
        list(answer, "/result/mentions")
            .iter()
            .map(|m| {
                m["candidates"][0]["group"]
                    .as_str()
                    .unwrap_or("?")
                    .to_string()
            })
            .collect()
    };
    assert!(groups_of(&all).iter().any(|g| g == "chemical"), "{all:#}");
    let kept = groups_of(&diseases);
    assert!(
        !kept.is_empty() && kept.iter().all(|g| g == "disease"),
        "{diseases:#}"
    );
    let args = PassageArgs {
        text: text.into(),
        sources: None,
        limit: None,
        groups: Some(vec!["diseases".into()]),
    };
    let error = tools::ground_passage(default_index(), &args).expect_err("unknown group");
    assert_eq!(error.code.wire_name(), "invalid_argument");
    let said = error.to_json(&serde_json::json!({})).to_string();
    assert!(
        said.contains("disease, phenotype, chemical, gene"),
        "{said}"
    );
}

/// One training run with the ablation, shared: its model file and its printed report.
fn trained() -> Option<&'static (Vec<u8>, String)> {
    static RUN: OnceLock<Option<(Vec<u8>, String)>> = OnceLock::new();
    RUN.get_or_init(|| {
        let data = shared_data()?;
        if !data.join("corpora/bc5cdr").is_dir() {
            skip(Missing::Data, "the BC5CDR corpus is not in the shared data");
            return None;
        }
        let out = scratch("train").join("model.toml");
        let run = Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
            .arg("train")
            .arg("--index")
            .arg(default_index_dir())
            .arg("--data")
            .arg(&data)
            .arg("--mesh")
            .arg(repo().join("ontologies"))
            .arg("--ablation")
            .arg("-o")
            .arg(&out)
            .output()
            .expect("run ontoresolve train");
        assert!(
            run.status.success(),
            "train failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let model = std::fs::read(&out).expect("the model is written");
        Some((model, String::from_utf8_lossy(&run.stdout).into_owned()))
    })
    .as_ref()
}

#[test]
fn training_reproduces_the_bundled_model_file_byte_for_byte() {
    let Some((model, _)) = trained() else {
        return;
    };
    let bundled =
        std::fs::read(repo().join("ontologies/confidence-model.toml")).expect("bundled model");
    assert!(
        model == &bundled,
        "ontoresolve train no longer gives the bundled model: retrain and commit it"
    );
}

#[test]
fn switching_any_registered_feature_off_changes_the_ablation_table() {
    let Some((_, report)) = trained() else {
        return;
    };
    let rows: Vec<Vec<&str>> = report
        .lines()
        .skip_while(|l| !l.starts_with("feature off"))
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    let none = rows
        .iter()
        .find(|r| r[0] == "(none)")
        .expect("the full model's row");
    for feature in Feature::ALL {
        let row = rows
            .iter()
            .find(|r| r[0] == feature.name())
            .unwrap_or_else(|| panic!("no ablation row for {}", feature.name()));
        assert_ne!(
            &row[1..],
            &none[1..],
            "switching {} off changes nothing: remove it",
            feature.name()
        );
    }
}
