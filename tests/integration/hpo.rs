//! The bundled Human Phenotype Ontology, 2025-01-16.

use ontoresolve::index::manifest::ReleaseOrigin;
use ontoresolve::model::LabelKind;

use crate::support::{Expect::*, check, hpo};

const HP: &str = "http://purl.obolibrary.org/obo/HP_";

#[test]
fn hpo_has_19484_terms_450_obsolete() {
    let m = hpo().manifest();
    let hp = m.source("hp").expect("hp");
    assert_eq!(hp.counts.concepts, 19_484);
    assert_eq!(hp.counts.obsolete, 450);
    assert_eq!(hp.release, "2025-01-16");
    assert_eq!(
        hp.release_origin,
        ReleaseOrigin::File {
            property: "data-version".into()
        }
    );
    assert_eq!(hpo().concept_count(), 19_484);
}

#[test]
fn phenotypic_abnormality_in_every_spelling() {
    let r = hpo();
    let want = format!("{HP}0000118");
    check(
        r,
        &[
            ("HP:0000118", Id(&want)),
            ("hp:0000118", Id(&want)),
            ("HP_0000118", Id(&want)),
            ("http://purl.obolibrary.org/obo/HP_0000118", Id(&want)),
            ("Phenotypic abnormality", Label(&want, "label")),
            ("phenotypic  ABNORMALITY ", Label(&want, "label")),
            ("Phenotypic abnormallity", Fuzzy(&want, 1)),
            ("HP:9999999", NoId),
        ],
    );
    let d = r
        .details(
            r.lexicon()
                .lookup_id("HP:0000118")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("details");
    assert_eq!(
        d.concept
            .preferred_label()
            .map(|l| (l.text.as_str(), l.kind)),
        Some(("Phenotypic abnormality", LabelKind::Label))
    );
    assert_eq!(d.release, "2025-01-16");
    assert_eq!(d.source_id, "hp");
    assert_eq!(
        d.parents
            .iter()
            .map(|p| (p.curie.as_deref(), p.label.as_deref()))
            .collect::<Vec<_>>(),
        [(Some("HP:0000001"), Some("All"))]
    );
    assert!(
        d.children.len() > 20,
        "HP:0000118 has the organ-system abnormalities below it"
    );
}

#[test]
fn obsolete_hp_term_reports_its_replacement() {
    let r = hpo();
    let old = r
        .concept(
            r.lexicon()
                .lookup_id("HP:0000057")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("HP:0000057");
    assert!(old.obsolete);
    assert_eq!(
        old.preferred_label().map(|l| l.text.as_str()),
        Some("obsolete Clitoromegaly")
    );
    let (_, live) = r
        .replacement_of(&old)
        .expect("the index reads")
        .expect("replacement");
    assert_eq!(live.curie.as_deref(), Some("HP:0008665"));
    assert!(!live.obsolete);
}

#[test]
fn exact_label_ranks_first_and_synonyms_are_typed() {
    let r = hpo();
    let want = format!("{HP}0000002");
    check(r, &[("Abnormality of body height", Label(&want, "label"))]);
    let matches = r
        .lexicon()
        .lookup_label("Abnormality of body height")
        .expect("the index reads");
    assert!(
        matches
            .iter()
            .any(|m| m.label.kind == LabelKind::ExactSynonym),
        "the layperson synonym repeats the label"
    );
    let hits = r
        .lexicon()
        .lookup_label("Short stature")
        .expect("the index reads");
    assert_eq!(
        hits.first().map(|m| r.concept(m.concept).expect("c").curie),
        Some(Some("HP:0004322".to_string()))
    );
}

#[test]
fn full_text_reaches_definitions() {
    let r = hpo();
    let (hits, more) = r
        .lexicon()
        .search("abnormally short stature height", None, 10)
        .expect("search");
    assert!(
        hits.len() == 10 && more,
        "{} hits, more: {more}",
        hits.len()
    );
    let curies: Vec<String> = hits
        .iter()
        .filter_map(|h| r.concept(h.concept).expect("the index reads").curie)
        .collect();
    assert!(curies.contains(&"HP:0004322".to_string()), "{curies:?}");
}

#[test]
fn hpo_triples_are_in_their_named_graph() {
    let r = hpo();
    let hp = r.manifest().source("hp").expect("hp");
    let store = r.store().expect("store opens read-only");
    assert_eq!(
        store.graph_len(&hp.graph).expect("count") as u64,
        hp.counts.triples
    );
    let rows = store
        .select(&format!(
            "SELECT ?label WHERE {{ GRAPH <{}> {{ <{HP}0000118> <http://www.w3.org/2000/01/rdf-schema#label> ?label }} }}",
            hp.graph
        ))
        .expect("query");
    assert_eq!(
        rows,
        vec![vec![(
            "label".to_string(),
            "\"Phenotypic abnormality\"".to_string()
        )]]
    );
}

#[test]
fn obo_literal_datatypes_are_xsd_not_obo_purls() {
    let r = hpo();
    let store = r.store().expect("store");
    let count = |filter: &str| {
        let rows = store
            .select(&format!(
                "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?s ?p ?o FILTER(isLiteral(?o) && {filter}) }} }}"
            ))
            .expect("query");
        rows[0][0]
            .1
            .split('"')
            .nth(1)
            .and_then(|n| n.parse::<u64>().ok())
            .expect("count")
    };
    assert_eq!(
        count("STRSTARTS(STR(DATATYPE(?o)), \"http://purl.obolibrary.org/obo/\")"),
        0
    );
    assert!(count("DATATYPE(?o) = <http://www.w3.org/2001/XMLSchema#dateTime>") >= 5_000);
}

#[test]
fn hostile_queries_are_bounded() {
    let r = hpo();
    let long = "abnormality ".repeat(10_000);
    assert!(
        r.lexicon()
            .fuzzy(&long, 2, usize::MAX)
            .expect("the index reads")
            .is_empty(),
        "over-long fuzzy queries are not searched"
    );
    let (hits, more) = r.lexicon().search("*", None, usize::MAX).expect("search");
    assert_eq!(
        (hits.len(), more),
        (0, false),
        "query syntax is not interpreted"
    );
    let (hits, _) = r
        .lexicon()
        .search("height", None, usize::MAX)
        .expect("search");
    assert!(!hits.is_empty() && hits.len() <= 1000);
    assert!(
        r.lexicon()
            .lookup_label("")
            .expect("the index reads")
            .is_empty()
            && r.lexicon()
                .lookup_id("")
                .expect("the index reads")
                .is_empty()
    );
}
