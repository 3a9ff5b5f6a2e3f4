//! Cross-reference mapping with provenance: every candidate with its evidence, inferred ones
//! with their path, negatives apart and blocking, on the bundled default index (MONDO,
//! biomappings and gilda sets, HPO, MeSH and HGNC xrefs) and on a small fixture set.

use ontoresolve::mcp::dto::{MapArgs, MapBatchArgs};
use ontoresolve::mcp::tools;
use ontoresolve::resolve::{Resolver, deadline};
use serde_json::Value;

use crate::support::{build_into, default_index, fixtures, repo, shared_index};

fn map(r: &Resolver, identifier: &str, predicted: bool) -> Value {
    let args = MapArgs {
        identifier: identifier.into(),
        targets: None,
        include_inferred: None,
        include_predicted: Some(predicted),
        cursor: None,
    };
    serde_json::to_value(tools::map_identifier(r, &args).expect("map_identifier answers"))
        .expect("json")
}

fn candidates(answer: &Value) -> &Vec<Value> {
    answer["result"]["candidates"]
        .as_array()
        .expect("candidates")
}

/// The candidate whose object is `object` once normalized (`OMIM:125853` is `omim:125853`
/// in the registry's spelling).
fn candidate<'a>(answer: &'a Value, object: &str) -> Option<&'a Value> {
    let canonical = default_index()
        .registry()
        .normalize(object)
        .identified()
        .map_or_else(|| object.to_string(), |id| id.curie.clone());
    candidates(answer)
        .iter()
        .find(|c| c["object"] == object || c["object"] == canonical.as_str())
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn mondo_maps_to_mesh_with_the_mondo_set_and_its_release() {
    let answer = map(default_index(), "MONDO:0005148", false);
    let mesh = candidate(&answer, "MESH:D003924").expect("MESH:D003924 is a candidate");
    assert_eq!(mesh["predicate"], "skos:exactMatch");
    assert_eq!(mesh["justification"], "semapv:ManualMappingCuration");
    assert_ne!(mesh["inferred"], true);
    assert_eq!(mesh["rank_tier"], "curated_asserted");
    let evidence = mesh["evidence"].as_array().expect("evidence");
    let mondo = evidence
        .iter()
        .find(|e| e["source"] == "mondo-sssom")
        .expect("stated by the MONDO sets");
    assert!(
        mondo["mapping_set_id"]
            .as_str()
            .is_some_and(|id| id.ends_with("mondo_exactmatch_mesh.sssom.tsv")),
        "{mondo}"
    );
    // The set's release is the answer's, named once in `sources`.
    assert!(
        answer["sources"].as_array().is_some_and(|s| s
            .iter()
            .any(|s| s["id"] == "mondo-sssom" && s["release"] == "2026-08-04")),
        "{}",
        answer["sources"]
    );
    assert_eq!(mesh["object_status"], "current", "MeSH is loaded");
    assert!(
        mesh["object_label"]
            .as_str()
            .is_some_and(|l| l.contains("Type 2"))
    );
    for object in ["DOID:9352", "OMIM:125853", "NCIT:C26747", "UMLS:C0011860"] {
        let c = candidate(&answer, object).unwrap_or_else(|| panic!("{object} is a candidate"));
        assert_eq!(c["predicate"], "skos:exactMatch", "{object}");
        assert_eq!(c["object_status"], "not_loaded", "{object}");
    }
    // MONDO itself is loaded (from its compact JSON) since the grounding issue.
    assert_eq!(answer["result"]["subject_status"], "found");
    assert!(answer["total"].as_u64().is_some_and(|t| t >= 5));
}

#[test]
fn mesh_reaches_doid_only_through_mondo_with_both_hops_evidence() {
    let answer = map(default_index(), "mesh:D003924", false);
    assert_eq!(answer["query"]["normalized"], "MESH:D003924");
    let doid = candidate(&answer, "DOID:9352").expect("DOID:9352 is inferred");
    assert_eq!(doid["inferred"], true);
    assert_eq!(doid["predicate"], "skos:exactMatch");
    assert_eq!(doid["justification"], "semapv:MappingChaining");
    assert_eq!(doid["rank_tier"], "inferred");
    let path = doid["path"].as_array().expect("path");
    assert_eq!(path.len(), 2);
    assert_eq!(path[0]["object"], "MONDO:0005148");
    assert_eq!(
        path[0]["inverted"], true,
        "MONDO states it, MeSH is its object"
    );
    assert!(
        path[0]["rule"]
            .as_str()
            .is_some_and(|r| r.contains("inversion"))
    );
    assert_eq!(path[1]["subject"], "MONDO:0005148");
    assert_eq!(path[1]["object"], "DOID:9352");
    for hop in path {
        assert!(!hop["evidence"].as_array().expect("evidence").is_empty());
    }
    let confidence = doid["confidence"].as_f64().expect("derived confidence");
    assert!(confidence < 1.0 && confidence > 0.5, "{confidence}");
    // Asserted candidates rank before every inferred one.
    let tiers: Vec<&str> = candidates(&answer)
        .iter()
        .filter_map(|c| c["rank_tier"].as_str())
        .collect();
    let first_inferred = tiers
        .iter()
        .position(|t| *t == "inferred")
        .expect("inferred");
    assert!(tiers[first_inferred..].iter().all(|t| *t == "inferred"));
}

#[test]
fn a_negative_mapping_is_contradicting_evidence_never_a_candidate() {
    let answer = map(default_index(), "mesh:D003924", false);
    assert!(candidate(&answer, "DOID:0050524").is_none());
    let negatives = answer["result"]["negatives"].as_array().expect("negatives");
    let mody = negatives
        .iter()
        .find(|n| n["object"] == "DOID:0050524")
        .expect("the biomappings negative");
    assert_eq!(mody["predicate"], "skos:exactMatch");
    assert_eq!(mody["predicate_modifier"], "Not");
    let evidence = &mody["evidence"][0];
    assert_eq!(evidence["source"], "biomappings-negative");
    assert_eq!(evidence["justification"], "semapv:ManualMappingCuration");
    assert_eq!(
        strings(&evidence["author_id"]),
        ["orcid:0000-0003-1307-2508"]
    );
}

#[test]
fn hp_xrefs_are_db_xrefs_and_never_a_chain_hop() {
    let answer = map(default_index(), "HP:0001250", false);
    let umls = candidate(&answer, "UMLS:C0036572").expect("the HP xref");
    assert!(
        candidates(&answer).iter().all(|c| c["inferred"] != true),
        "HP's xrefs are all hasDbXref: nothing chains from them"
    );
    assert_eq!(umls["predicate"], "oboInOwl:hasDbXref");
    assert_eq!(umls["rank_tier"], "ontology_xref");
    assert_eq!(umls["evidence"][0]["origin"], "source_xref");
    assert_eq!(umls["evidence"][0]["source"], "hp");
    for c in candidates(&answer) {
        for hop in c["path"].as_array().into_iter().flatten() {
            assert_ne!(hop["predicate"], "oboInOwl:hasDbXref", "{c}");
        }
        if c["evidence"]
            .as_array()
            .is_some_and(|e| e.iter().all(|e| e["origin"] == "source_xref"))
        {
            assert_eq!(
                c["predicate"], "oboInOwl:hasDbXref",
                "HPO states no other: {c}"
            );
        }
    }
}

#[test]
fn hgnc_maps_to_ncbi_gene_with_hgnc_provenance() {
    let answer = map(default_index(), "HGNC:11998", false);
    let gene = candidate(&answer, "NCBIGene:7157").expect("NCBIGene:7157");
    assert_eq!(gene["predicate"], "skos:exactMatch");
    let evidence = &gene["evidence"][0];
    assert_eq!(evidence["source"], "hgnc");
    assert_eq!(evidence["origin"], "source_xref");
    assert!(
        answer["sources"].as_array().is_some_and(|s| s
            .iter()
            .any(|s| s["id"] == "hgnc" && s["release"] == "2025")),
        "{}",
        answer["sources"]
    );
    assert_eq!(answer["result"]["subject_label"], "TP53");
}

#[test]
fn a_pair_stated_by_two_sets_is_one_candidate_with_two_pieces_of_evidence() {
    let answer = map(default_index(), "mesh:C000089", false);
    let matching: Vec<&Value> = candidates(&answer)
        .iter()
        .filter(|c| c["object"] == "CHEBI:28646")
        .collect();
    assert_eq!(matching.len(), 1, "one candidate: {matching:?}");
    let sources: Vec<&str> = matching[0]["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .filter_map(|e| e["source"].as_str())
        .collect();
    assert!(sources.contains(&"biomappings"), "{sources:?}");
    assert!(sources.contains(&"gilda-mesh"), "{sources:?}");
}

#[test]
fn a_supplementary_record_maps_to_its_heading_as_a_broad_match() {
    let answer = map(default_index(), "MESH:C000089", false);
    let sources: Vec<String> = candidates(&answer)
        .iter()
        .map(|c| format!("{} {}", c["object"], c["predicate"]))
        .collect();
    let heading = candidates(&answer)
        .iter()
        .find(|c| c["object"] == "MESH:D014227");
    if let Some(heading) = heading {
        assert_eq!(heading["predicate"], "skos:broadMatch");
        assert_eq!(
            heading["evidence"][0]["source_predicate"],
            "meshv:preferredMappedTo"
        );
    } else {
        panic!("MESH:D014227 is missing among {sources:?}");
    }
}

#[test]
fn predictions_are_hidden_and_counted_unless_asked_for() {
    let hidden = map(default_index(), "afpo:0000136", false);
    assert!(candidate(&hidden, "MESH:C000725694").is_none());
    assert!(
        hidden["result"]["predicted_hidden"]
            .as_u64()
            .is_some_and(|n| n >= 1)
    );
    let shown = map(default_index(), "afpo:0000136", true);
    let predicted = candidate(&shown, "MESH:C000725694").expect("shown when asked");
    assert_eq!(predicted["rank_tier"], "predicted");
    assert_eq!(predicted["evidence"][0]["predicted"], true);
    assert!(predicted["confidence"].as_f64().is_some());
}

#[test]
fn the_answer_sparql_returns_the_statements_it_used() {
    let r = default_index();
    let answer = map(r, "mesh:D003924", false);
    let sparql = answer["sparql"].as_str().expect("sparql");
    let rows = r
        .store()
        .expect("store")
        .select(sparql)
        .expect("the query runs");
    let has = |subject: &str, object: &str| {
        rows.iter().any(|row| {
            row.iter()
                .any(|(k, v)| k == "subject" && v.contains(subject))
                && row.iter().any(|(k, v)| k == "object" && v.contains(object))
        })
    };
    assert!(has("MONDO_0005148", "mesh/D003924"), "{rows:?}");
    assert!(has("MONDO_0005148", "DOID_9352"), "the second hop too");
}

#[test]
fn the_batch_form_answers_every_input_in_order() {
    let args = MapBatchArgs {
        identifiers: vec![
            "MONDO:0005148".into(),
            "not an id".into(),
            "HGNC:11998".into(),
            "FOO:1".into(),
        ],
        targets: Some(vec!["mesh".into(), "NCBIGene".into()]),
        include_inferred: None,
        include_predicted: None,
    };
    let answer = serde_json::to_value(
        tools::map_identifiers(default_index(), &args).expect("map_identifiers answers"),
    )
    .expect("json");
    let rows = answer["result"]["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["candidates"][0]["object"], "MESH:D003924");
    assert!(rows[1]["error"].is_string());
    assert_eq!(rows[2]["candidates"][0]["object"], "NCBIGene:7157");
    assert_eq!(rows[3]["outcome"], "unknown_prefix");
    assert_eq!(answer["query"]["filters"]["targets"][0], "MESH");
    assert_eq!(answer["result"]["mapped"], 2);
}

/// A MeSH heading with hundreds of supplementary records has as many narrow matches: its batch
/// row is bounded like a page of map_identifier, says how many there are in all, and the answer
/// says how to get the rest.
#[test]
fn a_batch_row_shows_map_identifiers_first_page_and_counts_the_rest() {
    let heading = "MESH:D000068837";
    let args = MapBatchArgs {
        identifiers: vec![heading.into(), "MONDO:0005148".into()],
        targets: None,
        include_inferred: None,
        include_predicted: None,
    };
    let answer = serde_json::to_value(
        tools::map_identifiers(default_index(), &args).expect("map_identifiers answers"),
    )
    .expect("json");
    let rows = answer["result"]["rows"].as_array().expect("rows");
    let single = map(default_index(), heading, false);
    let total = single["total"].as_u64().expect("total");
    assert!(total > tools::MAP_PAGE as u64, "{total} candidates");
    assert_eq!(rows[0]["candidates_total"], total);
    let shown: Vec<&Value> = rows[0]["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| &c["object"])
        .collect();
    let first_page: Vec<&Value> = candidates(&single).iter().map(|c| &c["object"]).collect();
    assert_eq!(shown.len(), tools::MAP_PAGE);
    assert_eq!(shown, first_page);
    // A row under the page size is whole.
    assert_eq!(
        rows[1]["candidates_total"],
        rows[1]["candidates"].as_array().expect("candidates").len() as u64
    );
    let suggestion = answer["suggestion"].as_str().expect("a suggestion");
    assert!(
        suggestion.starts_with("1 row(s)") && suggestion.contains("map_identifier"),
        "{suggestion}"
    );
}

/// A batch asked after its deadline maps nothing more and is marked cut, so the server drops
/// it as `timeout` rather than serving a partial list; without a deadline (the command line)
/// nothing is cut.
#[test]
fn a_batch_past_its_deadline_stops_and_is_marked_cut() {
    let args = MapBatchArgs {
        identifiers: vec!["MESH:D000068837".into(); 1000],
        targets: None,
        include_inferred: None,
        include_predicted: None,
    };
    let past = std::time::Instant::now() - std::time::Duration::from_millis(1);
    let (answer, cut) = deadline::within(past, || tools::map_identifiers(default_index(), &args));
    assert!(cut);
    let answer = answer.expect("a cut batch still ends cleanly");
    assert!(
        answer.result.rows.is_empty(),
        "nothing mapped past the deadline"
    );
    let later = std::time::Instant::now() + std::time::Duration::from_secs(600);
    let short = MapBatchArgs {
        identifiers: vec!["MONDO:0005148".into(), "HGNC:11998".into()],
        ..args
    };
    let (answer, cut) = deadline::within(later, || tools::map_identifiers(default_index(), &short));
    assert!(!cut);
    assert_eq!(answer.expect("answers").result.rows.len(), 2);
}

#[test]
fn an_unknown_target_prefix_is_a_specific_error() {
    let args = MapArgs {
        identifier: "MONDO:0005148".into(),
        targets: Some(vec!["NOTAPREFIX".into()]),
        include_inferred: None,
        include_predicted: None,
        cursor: None,
    };
    let error = tools::map_identifier(default_index(), &args).expect_err("an error");
    assert_eq!(
        error.code,
        ontoresolve::mcp::tools::ErrorCode::UnknownPrefix
    );
}

/// The fixture set: DOID:0000001 exact MONDO:0000001 exact NCIT:C1 / NCIT:C2, narrow NCIT:C3,
/// and DOID:0000001 NOT exact NCIT:C1.
fn chain_fixture() -> &'static Resolver {
    shared_index("mapping-chain", |dir| {
        let registry = std::fs::read_to_string(repo().join("ontologies/sources.toml"))
            .expect("catalogue");
        let registry: String = registry
            .split("\n[[source]]")
            .next()
            .expect("registry part")
            .replace("json = \"", &format!("json = \"{}/ontologies/", repo().display()))
            .replace(
                "prefix_map = \"",
                &format!("prefix_map = \"{}/ontologies/", repo().display()),
            )
            .replace(
                "rules = \"",
                &format!("rules = \"{}/ontologies/", repo().display()),
            )
            .replace(
                "model = \"",
                &format!("model = \"{}/ontologies/", repo().display()),
            );
        let catalog = format!(
            "{registry}\n[[source]]\nid = \"econ\"\ntitle = \"econ\"\nkind = \"skos\"\npath = \"{0}/skos.ttl\"\nprefixes = [{{ prefix = \"econ\", uri_prefix = \"http://example.org/econ/\" }}]\nlicense = \"CC0\"\nattribution = \"test\"\nhomepage = \"https://example.org\"\nscope = \"test\"\n\n[[source]]\nid = \"chain\"\ntitle = \"chain\"\nkind = \"sssom\"\npath = \"{0}/sssom/chain.sssom.tsv\"\nrelease = \"1\"\nlicense = \"CC0\"\nattribution = \"test\"\nhomepage = \"https://example.org\"\nscope = \"test\"\n",
            fixtures().display()
        );
        let path = dir.join("catalog.toml");
        std::fs::write(&path, catalog).expect("write catalogue");
        let summary = build_into(&path, &dir.join("index"));
        assert!(
            summary.manifest.registry.counts.records > 1000,
            "the fixture's identifiers go through the Bioregistry"
        );
        Some(dir.join("index"))
    })
    .expect("fixtures are in the repository")
}

#[test]
fn a_negative_mapping_blocks_the_inference_it_contradicts() {
    let r = chain_fixture();
    let answer = map(r, "DOID:0000001", false);
    assert!(
        candidate(&answer, "NCIT:C1").is_none(),
        "blocked by the Not row"
    );
    let blocked = answer["result"]["blocked_inferences"]
        .as_array()
        .expect("blocked");
    assert!(
        blocked.iter().any(|b| b["object"] == "NCIT:C1"),
        "{blocked:?}"
    );
    let c2 = candidate(&answer, "NCIT:C2").expect("NCIT:C2 is inferred");
    assert_eq!(c2["inferred"], true);
    assert_eq!(c2["predicate"], "skos:exactMatch");
    let c3 = candidate(&answer, "NCIT:C3").expect("NCIT:C3 is inferred");
    assert_eq!(
        c3["predicate"], "skos:narrowMatch",
        "exact ∘ narrow = narrow"
    );
    // The lexical hop's stated confidence (0.8) and two hops' decay bring it lower still.
    let (c2_conf, c3_conf) = (c2["confidence"].as_f64(), c3["confidence"].as_f64());
    assert!(
        c2_conf.zip(c3_conf).is_some_and(|(a, b)| a < b),
        "{c2_conf:?} {c3_conf:?}"
    );
    assert!(answer["result"]["negatives"][0]["object"] == "NCIT:C1");
}

#[test]
fn a_db_xref_in_a_set_never_chains_and_no_term_found_is_reported() {
    let r = chain_fixture();
    let answer = map(r, "DOID:0000002", false);
    let mondo = candidate(&answer, "MONDO:0000001").expect("the xref");
    assert_eq!(mondo["predicate"], "oboInOwl:hasDbXref");
    assert!(candidates(&answer).iter().all(|c| c["inferred"] != true));
    let oio = map(r, "DOID:0000004", false);
    let stated = candidate(&oio, "MONDO:0000001").expect("oio:hasDbXref row");
    assert_eq!(
        stated["predicate"], "oboInOwl:hasDbXref",
        "known by its IRI"
    );
    let unmapped = map(r, "DOID:0000003", false);
    assert_eq!(unmapped["total"], 0);
    assert_eq!(unmapped["result"]["unmapped_in"][0]["source"], "chain");
    let set = &r.manifest().mapping_sets[0];
    assert_eq!(set.counts.skipped_rows, 1, "the undeclared prefix row");
    assert_eq!(set.counts.negative, 1);
    assert_eq!(set.counts.no_term_found, 1);
    assert!(
        set.counts.triples >= 5 * 7,
        "each loaded row is an axiom of at least 5 triples"
    );
    let sources: u64 = r.manifest().sources.iter().map(|s| s.counts.triples).sum();
    assert_eq!(r.manifest().counts.triples, sources + set.counts.triples);
}

#[test]
fn a_mapping_stated_from_both_sides_is_one_candidate() {
    // gilda states MESH:D006519 → DOID:12351, biomappings DOID:12351 → mesh:D006519.
    let answer = map(default_index(), "MESH:D006519", false);
    let doid: Vec<&Value> = candidates(&answer)
        .iter()
        .filter(|c| c["object"] == "DOID:12351")
        .collect();
    assert_eq!(doid.len(), 1, "{doid:?}");
    let sources: Vec<&str> = doid[0]["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .filter_map(|e| e["source"].as_str())
        .collect();
    assert!(
        sources.contains(&"gilda-mesh") && sources.contains(&"biomappings"),
        "{sources:?}"
    );
    assert!(
        !doid[0]["inverted"].as_bool().unwrap_or(false),
        "one statement reads it forwards"
    );
}

#[test]
fn a_negative_read_from_its_object_side_blocks_too() {
    // The fixture states DOID:0000001 NOT exact NCIT:C1; from NCIT:C1 the chain through
    // MONDO:0000001 back to DOID:0000001 is blocked, and the negative is listed.
    let answer = map(chain_fixture(), "NCIT:C1", false);
    assert!(candidate(&answer, "DOID:0000001").is_none());
    let negatives = answer["result"]["negatives"].as_array().expect("negatives");
    assert!(
        negatives.iter().any(|n| n["object"] == "DOID:0000001"),
        "{negatives:?}"
    );
    let blocked = answer["result"]["blocked_inferences"]
        .as_array()
        .expect("blocked");
    assert!(
        blocked.iter().any(|b| b["object"] == "DOID:0000001"),
        "{blocked:?}"
    );
}

#[test]
fn exact_matches_carry_their_cardinality_and_other_predicates_none() {
    let answer = map(default_index(), "MONDO:0005148", false);
    let mesh = candidate(&answer, "MESH:D003924").expect("MeSH");
    assert!(
        ["1:1", "1:n", "n:1", "n:n"].contains(&mesh["cardinality"].as_str().unwrap_or("")),
        "{mesh}"
    );
    let hp = map(default_index(), "HP:0001250", false);
    let xref = candidate(&hp, "UMLS:C0036572").expect("the xref");
    assert!(
        xref["cardinality"].is_null(),
        "a hasDbXref has no cardinality"
    );
}

#[test]
fn an_empty_answer_under_a_target_filter_says_so() {
    let args = MapArgs {
        identifier: "MONDO:0005148".into(),
        targets: Some(vec!["GO".into()]),
        include_inferred: None,
        include_predicted: None,
        cursor: None,
    };
    let answer =
        serde_json::to_value(tools::map_identifier(default_index(), &args).expect("answers"))
            .expect("json");
    assert_eq!(answer["total"], 0);
    let suggestion = answer["suggestion"].as_str().expect("suggestion");
    assert!(suggestion.contains("without targets"), "{suggestion}");
}

#[test]
fn mapping_resources_read_an_identifier_and_a_set_and_complete_identifiers() {
    let r = default_index();
    let body = tools::mappings_document(r, "MONDO:0005148").expect("mappings resource");
    assert!(candidate(&body, "MESH:D003924").is_some());
    let set = tools::mapping_set_document(r, "mondo-sssom").expect("mapping-set resource");
    assert_eq!(set["files"], 33);
    assert_eq!(set["rows"], 111_281);
    assert!(
        set["sets"][0]["attribution"]
            .as_str()
            .is_some_and(|a| a.contains("Mondo"))
    );
    assert!(tools::mapping_set_document(r, "no-such-set").is_none());
    let completed = r
        .lexicon()
        .complete_mapped("mondo:000514", 20)
        .expect("the index reads");
    assert!(
        completed.contains(&"MONDO:0005148".to_string()),
        "{completed:?}"
    );
}

#[test]
fn an_identifier_a_set_names_is_mapped_even_when_it_fails_its_pattern() {
    // The fixture states MONDO:0000001 exact NCIT:bad_1, which NCIT's pattern rejects: the
    // mapping is still reachable from the identifier the set wrote.
    let answer = map(chain_fixture(), "NCIT:bad_1", false);
    assert_eq!(answer["result"]["subject_status"], "malformed");
    let mondo = candidate(&answer, "MONDO:0000001").expect("the stated mapping");
    assert_eq!(mondo["inverted"], true);
}

#[test]
fn predicted_statements_stay_out_of_a_curated_candidate_unless_asked_for() {
    // HGNC:11998 → MESH:D016159 is stated by gilda and predicted by biomappings.
    let hidden = map(default_index(), "HGNC:11998", false);
    for c in candidates(&hidden) {
        let all = c["evidence"].as_array().into_iter().flatten().chain(
            c["path"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|h| h["evidence"].as_array().into_iter().flatten()),
        );
        for e in all {
            assert_ne!(e["predicted"], true, "{c}");
        }
    }
    let mesh = candidate(&hidden, "MESH:D016159").expect("gilda states it");
    assert_eq!(mesh["evidence"].as_array().map(Vec::len), Some(1));
    let shown = map(default_index(), "HGNC:11998", true);
    let mesh = candidate(&shown, "MESH:D016159").expect("still there");
    let predicted = mesh["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .filter(|e| e["predicted"] == true)
        .count();
    assert!(predicted >= 1, "{mesh}");
}
