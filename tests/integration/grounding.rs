//! Grounding free text on the bundled default index (MeSH, HGNC, HPO, MONDO and its MeSH
//! mapping sets): name variants, synonyms through mappings, abbreviations, no edits for very
//! short names, and one ranking across stages, through the same `find_concepts` agents call.

use ontoresolve::mcp::dto::FindArgs;
use ontoresolve::mcp::tools;
use ontoresolve::resolve::{MatchKind, NameQuery, Resolver, Stage};
use serde_json::Value;

use crate::support::{default_index, default_index_unweighed as unweighed};

fn find(r: &Resolver, text: &str, sources: Option<&[&str]>) -> Value {
    let args = FindArgs {
        text: text.into(),
        sources: sources.map(|s| s.iter().map(|s| s.to_string()).collect()),
        include_obsolete: None,
        limit: Some(10),
        cursor: None,
    };
    serde_json::to_value(tools::find_concepts(r, &args).expect("find_concepts answers"))
        .expect("json")
}

fn candidates(answer: &Value) -> &Vec<Value> {
    answer["result"]["candidates"]
        .as_array()
        .expect("candidates")
}

/// The candidate with this CURIE, and its rank (0-based).
fn candidate<'a>(answer: &'a Value, curie: &str) -> Option<(usize, &'a Value)> {
    candidates(answer)
        .iter()
        .enumerate()
        .find(|(_, c)| c["concept"]["curie"] == curie)
}

/// Whether the rows of the answer's SPARQL include a mapping statement from an IRI containing
/// `origin` to one containing `concept`, with that justification.
fn sparql_lists_mapping(answer: &Value, origin: &str, concept: &str, justification: &str) -> bool {
    let rows = default_index()
        .store()
        .expect("store")
        .select(answer["sparql"].as_str().expect("sparql"))
        .expect("the SPARQL runs");
    rows.iter().any(|row| {
        let get = |name: &str| {
            row.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        get("origin").contains(origin)
            && get("concept").contains(concept)
            && get("justification").contains(justification)
    })
}

fn listing(answer: &Value) -> String {
    candidates(answer)
        .iter()
        .map(|c| {
            format!(
                "{} {} [{}]",
                c["concept"]["curie"], c["concept"]["label"], c["match_kind"]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn hnpcc_written_with_cancer_finds_the_mesh_neoplasms_heading() {
    let answer = find(
        default_index(),
        "hereditary nonpolyposis colorectal cancer",
        None,
    );
    assert!(
        candidate(&answer, "MESH:D003123").is_some(),
        "MeSH 'Colorectal Neoplasms, Hereditary Nonpolyposis' among the first 10:\n{}",
        listing(&answer)
    );
}

#[test]
fn breast_cancer_in_any_word_order_and_number_finds_breast_neoplasms() {
    for text in [
        "breast cancer",
        "cancers of the breast",
        "Cancer of the Breast",
    ] {
        let answer = find(default_index(), text, None);
        assert!(
            candidate(&answer, "MESH:D001943").is_some(),
            "{text}: MeSH D001943 among the first 10:\n{}",
            listing(&answer)
        );
    }
    let answer = find(default_index(), "cancers of the breast", Some(&["mesh"]));
    let (rank, hit) = candidate(&answer, "MESH:D001943").expect("D001943 in MeSH");
    assert_eq!(rank, 0, "first among MeSH concepts:\n{}", listing(&answer));
    assert_eq!(hit["match_kind"], "name_variant");
    let steps = answer["query"]["steps"].to_string();
    for step in [
        "'X of Y' read as 'Y X'",
        "stop word dropped: 'the'",
        "singular: 'cancers' -> 'cancer'",
        "head word",
    ] {
        assert!(steps.contains(step), "{step} echoed in {steps}");
    }
}

#[test]
fn dmd_lists_the_disease_in_mondo_and_mesh_and_the_gene() {
    let answer = find(default_index(), "DMD", None);
    let all = listing(&answer);
    let (_, mondo) = candidate(&answer, "MONDO:0010679").expect(&all);
    assert_eq!(mondo["case_exact"], true, "{all}");
    let (_, mesh) = candidate(&answer, "MESH:D020388").expect(&all);
    assert_eq!(mesh["match_kind"], "via_mapping", "{all}");
    let (_, gene) = candidate(&answer, "HGNC:2928").expect(&all);
    assert_eq!(gene["match_kind"], "approved_symbol");
    assert_eq!(
        answer["result"]["ambiguous"], true,
        "gene and disease: {all}"
    );
    assert_eq!(answer["result"]["abbreviation"], true);
}

#[test]
fn a_via_mapping_candidate_carries_the_mapping_that_led_to_it() {
    let answer = find(default_index(), "DMD", Some(&["mesh"]));
    let (_, mesh) = candidate(&answer, "MESH:D020388").expect("D020388 through MONDO");
    let via = &mesh["via"];
    assert_eq!(via["identifier"], "MONDO:0010679", "{via:#}");
    // Always a curated exact match, so the predicate is not repeated on each candidate.
    assert!(via.get("predicate").is_none(), "{via:#}");
    assert_eq!(mesh["matched_text"], "DMD");
    let asserted = via["asserted_by"].as_array().expect("asserted_by");
    assert!(
        asserted.iter().any(|a| a["source"] == "mondo-sssom"
            && a["justification"] == "semapv:ManualMappingCuration"
            && a["mapping_set_id"]
                .as_str()
                .is_some_and(|id| id.contains("mesh"))),
        "a MONDO MeSH set asserted it: {via:#}"
    );
    // Its confidence says how sure, and its basis that a mapping led there.
    assert_eq!(mesh["match_kind"], "via_mapping", "{mesh:#}");
    assert!(
        mesh["confidence"]
            .as_f64()
            .is_some_and(|s| (0.5..1.0).contains(&s)),
        "{mesh:#}"
    );
    assert!(
        mesh["basis"].as_str().is_some_and(|b| !b.is_empty()),
        "{mesh:#}"
    );
    // The answer's SPARQL returns the mapping statement that led there.
    assert!(
        sparql_lists_mapping(&answer, "MONDO_0010679", "D020388", "ManualMappingCuration"),
        "{}",
        answer["sparql"]
    );
    // The sources filter limits candidates, not names: MONDO itself is not listed.
    assert!(candidate(&answer, "MONDO:0010679").is_none());
    assert!(candidate(&answer, "HGNC:2928").is_none());
    // Only curated statements (or a source's own) lead on: gilda's lexical HGNC-MeSH
    // matches never do.
    for c in candidates(&answer) {
        for a in c["via"]["asserted_by"].as_array().into_iter().flatten() {
            assert_ne!(a["justification"], "semapv:LexicalMatching", "{c:#}");
        }
    }
}

#[test]
fn a_name_only_another_source_holds_reaches_mesh_through_a_chain_of_curated_exact_mappings() {
    // MONDO's "hypodontia" (tooth agenesis) has no MeSH mapping of its own, but MONDO maps it
    // to DOID, which Biomappings' curators map to MeSH's Anodontia.
    let answer = find(default_index(), "hypodontia", Some(&["mesh"]));
    let (rank, mesh) = candidate(&answer, "MESH:D000848").expect("Anodontia through DOID");
    assert_eq!(rank, 0, "{}", listing(&answer));
    let via = &mesh["via"];
    assert_eq!(via["identifier"], "MONDO:0005486", "{via:#}");
    assert_eq!(
        via["through"],
        serde_json::json!(["DOID:0050591"]),
        "{via:#}"
    );
    let asserted = via["asserted_by"].as_array().expect("asserted_by");
    for set in ["mondo-sssom", "biomappings"] {
        assert!(
            asserted.iter().any(|a| a["source"] == set
                && a["justification"] == "semapv:ManualMappingCuration"),
            "{set} asserted a hop: {via:#}"
        );
    }
    // A chain ranks below a single mapping from the same (alternative) label, still above
    // name variants.
    assert_eq!(via["match_kind"], "alt_label", "{via:#}");
    let one_mapping = MatchKind::ViaMapping.weight() - 0.04 * (1.0 - MatchKind::AltLabel.weight());
    let search = default_index()
        .find_by_name(&NameQuery {
            text: "hypodontia",
            sources: Some(&["mesh".to_string()]),
            include_obsolete: false,
            full_text_beside_names: false,
            wanted: 10,
        })
        .expect("search");
    let score = search.candidates[0].score;
    assert!(
        score < one_mapping - 0.001 && score > MatchKind::NameVariant.weight(),
        "{mesh:#}"
    );
    // The answer's SPARQL returns the statements of both hops.
    for (from, to) in [
        ("MONDO_0005486", "DOID_0050591"),
        ("DOID_0050591", "D000848"),
    ] {
        assert!(
            sparql_lists_mapping(&answer, from, to, "ManualMappingCuration"),
            "{from} -> {to}: {}",
            answer["sparql"]
        );
    }
}

#[test]
fn a_concept_with_its_own_mapping_to_a_loaded_concept_is_never_followed_further() {
    // MONDO's Duchenne muscular dystrophy maps to MeSH itself: no chain adds other MeSH
    // concepts beside the one it names.
    let answer = find(default_index(), "DMD", Some(&["mesh"]));
    for c in candidates(&answer) {
        assert!(c["via"].get("through").is_none(), "{c:#}");
    }
}

#[test]
fn very_short_names_get_no_near_spellings() {
    let r = default_index();
    for text in ["WD", "APC"] {
        let search = r
            .find_by_name(&NameQuery {
                text,
                sources: None,
                include_obsolete: false,
                full_text_beside_names: false,
                wanted: ontoresolve::resolve::FULL_TEXT_DEPTH,
            })
            .expect("search");
        assert!(
            search
                .candidates
                .iter()
                .all(|c| c.kind != MatchKind::NearSpelling),
            "{text}: {:?}",
            search.candidates
        );
        assert!(!search.stages_tried.contains(&Stage::NearSpelling) || text.len() > 3);
    }
    let answer = find(r, "APC", None);
    let (rank, gene) = candidate(&answer, "HGNC:583").expect("the APC gene");
    assert_eq!((rank, &gene["case_exact"]), (0, &Value::Bool(true)));
    assert!(
        candidates(&answer)
            .iter()
            .all(|c| c["concept"]["label"] != "APT"),
        "{}",
        listing(&answer)
    );
}

#[test]
fn stages_are_merged_and_ranked_by_match_kind() {
    let r = default_index();
    let search = r
        .find_by_name(&NameQuery {
            text: "breast cancer",
            sources: None,
            include_obsolete: false,
            full_text_beside_names: true,
            wanted: ontoresolve::resolve::FULL_TEXT_DEPTH,
        })
        .expect("search");
    // Guesses (near spellings, broader concepts, full text) are one tier, ordered by confidence.
    let tiers: Vec<u8> = search
        .candidates
        .iter()
        .map(|c| c.kind.tier().min(6))
        .collect();
    assert!(
        tiers.windows(2).all(|w| w[0] <= w[1]),
        "tiers in order: {tiers:?}"
    );
    for stage in [Stage::ExactName, Stage::FullText] {
        assert!(
            search.stages_matched.contains(&stage),
            "{stage:?} in {:?}",
            search.stages_matched
        );
    }
    // Within a tier (and among guesses), the model's confidence falls.
    let stated =
        |c: &ontoresolve::resolve::NameCandidate| c.confidence.as_ref().map_or(0.0, |c| c.p);
    let same_tier_confidence_falls = search.candidates.windows(2).all(|w| {
        w[0].kind.tier().min(6) != w[1].kind.tier().min(6) || stated(&w[0]) >= stated(&w[1])
    });
    assert!(same_tier_confidence_falls, "{:?}", search.candidates);
}

#[test]
fn a_found_identifier_gets_no_full_text_neighbours() {
    let search = default_index()
        .find_by_name(&NameQuery {
            text: "MONDO:0000002",
            sources: None,
            include_obsolete: true,
            full_text_beside_names: false,
            wanted: ontoresolve::resolve::FULL_TEXT_DEPTH,
        })
        .expect("search");
    assert_eq!(search.stages_matched, vec![Stage::Identifier]);
    assert_eq!(search.candidates.len(), 1, "{:?}", search.candidates);
}

#[test]
fn mondo_is_loaded_with_labels_synonyms_and_replacements() {
    let r = default_index();
    let mondo = r
        .manifest()
        .source("mondo")
        .expect("mondo in the default catalogue");
    assert_eq!(mondo.release, "2026-05-05");
    assert!(mondo.counts.concepts > 30_000, "{:?}", mondo.counts);
    let answer = find(r, "Duchenne muscular dystrophy", Some(&["mondo"]));
    let (rank, _) = candidate(&answer, "MONDO:0010679").expect("by its label");
    assert_eq!(rank, 0);
}

#[test]
fn a_build_with_broken_name_rules_fails_naming_the_file() {
    use ontoresolve::build::{BuildOptions, Silent, build};
    let dir = crate::support::scratch("broken-name-rules");
    std::fs::write(
        dir.join("rules.toml"),
        "format = 1\nversion = \"x\"\nstop_words = [\"\"]\n",
    )
    .expect("write rules");
    let catalog = crate::support::single_source_catalog(
        &dir,
        "hem",
        "skos",
        &crate::support::repo().join("ontologies/health-economics-metrics.derived.skos.ttl"),
        "\n[names]\nrules = \"rules.toml\"\n",
    );
    let error = build(
        &BuildOptions {
            catalog,
            index_dir: dir.join("index"),
            keep_going: false,
        },
        &Silent,
    )
    .expect_err("broken rules stop the build");
    let message = error.to_string();
    assert!(
        message.contains("name rules") && message.contains("rules.toml"),
        "{message}"
    );
    assert!(!dir.join("index/CURRENT").exists(), "nothing was installed");
}

#[test]
fn a_hyphenated_name_with_cancer_finds_the_neoplasms_heading() {
    let answer = find(
        default_index(),
        "hereditary non-polyposis colorectal cancer",
        Some(&["mesh"]),
    );
    let (rank, hit) =
        candidate(&answer, "MESH:D003123").unwrap_or_else(|| panic!("{}", listing(&answer)));
    assert_eq!(
        (rank, &hit["match_kind"]),
        (0, &Value::from("name_variant"))
    );
    let steps = answer["query"]["steps"].to_string();
    assert!(
        steps.contains("head word: 'cancer' read as 'neoplasm'"),
        "{steps}"
    );
}

/// The releases a concept's full-text hit belongs to, by key.
fn release_key(r: &Resolver, concept: ontoresolve::resolve::ConceptId) -> String {
    let c = r.concept(concept).expect("a hit is a concept");
    r.manifest().sources[c.source.slot()].key()
}

#[test]
fn a_release_filtered_full_text_search_gives_the_best_hits_of_those_releases() {
    let r = default_index();
    let keys: Vec<String> = ["mesh", "hp"]
        .iter()
        .filter_map(|id| {
            r.manifest()
                .sources
                .iter()
                .find(|s| s.id == *id && s.current)
        })
        .map(|s| s.key())
        .collect();
    assert_eq!(keys.len(), 2, "mesh and hp are loaded");
    for text in [
        "deficiency of aprt",
        "parenchymal tumours of the kidney",
        "developmental abnormalities of the eye",
        "abnormality of body height",
        "type ii complement protein c2 deficiency",
    ] {
        // The wanted releases' hits among the unfiltered best 1,000, and a filtered page of
        // 1,000: their first ten are what a filtered page of ten must find.
        let (unfiltered, _) = r.lexicon().search(text, None, 1_000).expect("search");
        let among_all: Vec<_> = unfiltered
            .iter()
            .filter(|h| keys.contains(&release_key(r, h.concept)))
            .take(10)
            .map(|h| h.concept)
            .collect();
        let (deep, _) = r
            .lexicon()
            .search(text, Some(&keys), 1_000)
            .expect("search");
        let expected: Vec<_> = deep.iter().take(10).map(|h| h.concept).collect();
        if among_all.len() == 10 {
            assert_eq!(among_all, expected, "{text}: filtered as ranked unfiltered");
        }
        assert!(
            deep.iter()
                .all(|h| keys.contains(&release_key(r, h.concept))),
            "{text}: only the wanted releases"
        );
        let (found, _) = r.lexicon().search(text, Some(&keys), 10).expect("search");
        let found: Vec<_> = found.iter().map(|h| h.concept).collect();
        assert!(!found.is_empty(), "{text}: something matches");
        assert_eq!(found, expected, "{text}");
    }
}

#[test]
fn full_text_ranked_for_a_page_lists_what_a_full_ranking_lists_first() {
    let r = default_index();
    let search = |text: &str, wanted: usize| {
        r.find_by_name(&NameQuery {
            text,
            sources: None,
            include_obsolete: false,
            full_text_beside_names: false,
            wanted,
        })
        .expect("search")
    };
    for text in [
        "disorder of inappropriate apoptosis",
        "developmental abnormalities of the eye",
        "multiple endocrine neoplasia (MEN) types 1 and 2",
        "combined subtotal deficiencies of C6 and C7",
    ] {
        let full = search(text, ontoresolve::resolve::FULL_TEXT_DEPTH);
        assert!(
            full.stages_tried.contains(&Stage::FullText),
            "{text}: full text ran"
        );
        for wanted in [1, 10, 25] {
            let page = search(text, wanted);
            let ids = |s: &ontoresolve::resolve::NameSearch| -> Vec<_> {
                s.candidates
                    .iter()
                    .take(wanted)
                    .map(|c| c.concept)
                    .collect()
            };
            assert_eq!(ids(&page), ids(&full), "{text}, {wanted} wanted");
            assert!(
                page.candidates.len() > wanted,
                "{text}: one more than wanted says more exist"
            );
            assert_eq!(
                page.text_reach,
                ontoresolve::resolve::TextReach::Wanted,
                "{text}, {wanted} wanted: more match, and a deeper search ranks them"
            );
        }
    }
}

#[test]
fn a_head_word_read_as_its_equivalent_ranks_the_equivalent_above_a_name_rewritten_to_it() {
    // "cancer" is read as "neoplasm"; so is MeSH's "Carcinoma", a kind of neoplasm. The
    // heading that is "Neoplasms" itself comes first; both are still listed.
    for text in ["cancer", "tumours"] {
        let answer = find(default_index(), text, Some(&["mesh"]));
        let neoplasms = candidate(&answer, "MESH:D009369").map(|(rank, _)| rank);
        let carcinoma = candidate(&answer, "MESH:D002277").map(|(rank, _)| rank);
        assert_eq!(neoplasms, Some(0), "{text}:\n{}", listing(&answer));
        assert!(
            carcinoma.is_some_and(|rank| rank > 0),
            "{text}: Carcinoma still listed, after:\n{}",
            listing(&answer)
        );
    }
}

#[test]
fn a_name_that_took_the_querys_own_head_word_step_is_not_ranked_as_rewritten() {
    // "carcinomas" is read as "neoplasm", and so is MeSH's "Choroid Plexus Carcinoma": the
    // name the query wrote ranks above the heading that is "Neoplasms" itself.
    let answer = find(
        default_index(),
        "choroid plexus carcinomas",
        Some(&["mesh"]),
    );
    let carcinoma = candidate(&answer, "MESH:C562943").map(|(rank, _)| rank);
    let neoplasms = candidate(&answer, "MESH:D016545").map(|(rank, _)| rank);
    assert_eq!(carcinoma, Some(0), "{}", listing(&answer));
    assert!(
        neoplasms.is_some_and(|rank| rank > 0),
        "the neoplasms heading still listed, after:\n{}",
        listing(&answer)
    );
}

#[test]
fn a_disorder_meets_the_heading_that_calls_it_a_disease_and_the_reverse() {
    // MeSH heads some names "Disorders" and others "Diseases": either word finds either.
    for (text, curie) in [
        ("peroxisomal disease", "MESH:D018901"),
        ("neuromuscular disorder", "MESH:D009468"),
    ] {
        let answer = find(default_index(), text, Some(&["mesh"]));
        let found = candidate(&answer, curie);
        assert_eq!(
            found.map(|(rank, c)| (rank, c["match_kind"].clone())),
            Some((0, Value::from("name_variant"))),
            "{text}:\n{}",
            listing(&answer)
        );
    }
}

#[test]
fn a_name_whose_concept_maps_nowhere_reaches_what_its_nearest_mapped_ancestor_maps_to_as_broader() {
    // MONDO's "autosomal recessive disease" maps to no MeSH heading; its ancestor "hereditary
    // disease", two levels up, maps to MeSH's Genetic Diseases, Inborn: broader, and said so.
    // (The training corpora wrote the phrase for that heading too, a corpus name: the index
    // is read here without its confidence model, whose names would stand in.)
    let answer = find(unweighed(), "autosomal recessive disease", Some(&["mesh"]));
    let (rank, mesh) = candidate(&answer, "MESH:D030342").expect("the broader heading");
    assert_eq!(rank, 0, "{}", listing(&answer));
    assert_eq!(mesh["match_kind"], "broader_via_mapping", "{mesh:#}");
    let via = &mesh["via"];
    assert_eq!(via["identifier"], "MONDO:0006025", "{via:#}");
    assert_eq!(
        via["through"],
        serde_json::json!(["MONDO:0000429", "MONDO:0003847"]),
        "{via:#}"
    );
    let search = unweighed()
        .find_by_name(&NameQuery {
            text: "autosomal recessive disease",
            sources: Some(&["mesh".to_string()]),
            include_obsolete: false,
            full_text_beside_names: false,
            wanted: 10,
        })
        .expect("search");
    assert!(
        search.candidates[0].score < MatchKind::NearSpelling.weight(),
        "ranked below every name of the concept itself: {mesh:#}"
    );
    // The SPARQL returns the climb (each parent edge) and the ancestor's mapping.
    let rows = default_index()
        .store()
        .expect("store")
        .select(answer["sparql"].as_str().expect("sparql"))
        .expect("the SPARQL runs");
    let get = |row: &Vec<(String, String)>, name: &str| {
        (row.iter().find(|(k, _)| k == name)).map_or(String::new(), |(_, v)| v.clone())
    };
    for (child, parent) in [
        ("MONDO_0006025", "MONDO_0000429"),
        ("MONDO_0000429", "MONDO_0003847"),
    ] {
        assert!(
            rows.iter().any(|row| get(row, "origin").contains(child)
                && get(row, "concept").contains(parent)
                && get(row, "predicate").contains("subClassOf")),
            "{child} under {parent}: {}",
            answer["sparql"]
        );
    }
    assert!(
        sparql_lists_mapping(&answer, "MONDO_0003847", "D030342", ""),
        "{}",
        answer["sparql"]
    );
    // Unfiltered, the name's own concept comes first; a passage never takes a broader one.
    let all = find(default_index(), "autosomal recessive disease", None);
    assert_eq!(
        candidate(&all, "MONDO:0006025").map(|(rank, _)| rank),
        Some(0)
    );

    // Broader candidates that climb through the same ancestor list its edge once.
    let answer = find(default_index(), "thymic lymphoma", Some(&["mesh"]));
    let broader = candidates(&answer)
        .iter()
        .filter(|c| c["match_kind"] == "broader_via_mapping")
        .count();
    assert!(broader >= 2, "{}", listing(&answer));
    let sparql = answer["sparql"].as_str().expect("sparql");
    let climb = sparql
        .split("UNION")
        .find(|block| block.contains("subClassOf"))
        .expect("the parent edges");
    let values = climb.split('{').nth(2).unwrap_or_default();
    let mut hops: Vec<&str> = values.split(") (").collect();
    let listed = hops.len();
    hops.sort_unstable();
    hops.dedup();
    assert_eq!(hops.len(), listed, "{climb}");
}
