//! Tests of `obographs`.

use super::super::json_stream::MAX_ENTRY_BYTES;
use super::super::tests::{read_str, try_read_str};
use super::super::{RowOutcome, TableConcepts, concept_triples};
use super::*;
use crate::ingest::TableFormat;

const OBO: &str = "http://purl.obolibrary.org/obo/";

fn graphs(json: &str) -> TableConcepts {
    read_str(TableFormat::ObographsJson, &[("doid.json", json)])
}

fn find<'a>(read: &'a TableConcepts, local: &str) -> &'a Concept {
    let iri = format!("{OBO}{local}");
    read.concepts
        .iter()
        .find(|c| c.iri == iri)
        .unwrap_or_else(|| panic!("{iri} is read"))
}

fn labels(concept: &Concept) -> Vec<(&str, LabelKind)> {
    concept
        .labels
        .iter()
        .map(|l| (l.text.as_str(), l.kind))
        .collect()
}

/// The first graph has its meta after the nodes and edges, as DOID's has; the second is
/// an import.
const SAMPLE: &str = r#"{
  "graphs" : [ {
"nodes" : [ {
  "id" : "http://purl.obolibrary.org/obo/DOID_4",
  "type" : "CLASS",
  "lbl" : "disease",
  "meta" : {
    "definition" : { "val" : "A disposition to undergo pathological processes.", "xrefs" : [ ] },
    "synonyms" : [
      { "pred" : "hasExactSynonym", "val" : "disorder", "xrefs" : [ ] },
      { "pred" : "hasRelatedSynonym", "val" : "condition" },
      { "pred" : "hasBroadSynonym", "val" : "illness" },
      { "pred" : "hasNarrowSynonym", "val" : "syndrome" } ],
    "xrefs" : [ { "val" : "MESH:D004194" }, { "val" : "UMLS_CUI:C0012634" } ],
    "basicPropertyValues" : [
      { "pred" : "http://www.geneontology.org/formats/oboInOwl#hasAlternativeId", "val" : "DOID:1" },
      { "pred" : "http://www.geneontology.org/formats/oboInOwl#hasAlternativeId",
        "val" : "http://purl.obolibrary.org/obo/DOID_2" },
      { "pred" : "http://www.geneontology.org/formats/oboInOwl#hasOBONamespace",
        "val" : "disease_ontology" } ]
  }
}, {
  "id" : "http://purl.obolibrary.org/obo/DOID_12132",
  "type" : "CLASS",
  "lbl" : "Wegener's granulomatosis"
}, {
  "id" : "http://purl.obolibrary.org/obo/DOID_8718",
  "type" : "CLASS",
  "lbl" : "obsolete carcinoma in situ",
  "meta" : {
    "deprecated" : true,
    "basicPropertyValues" : [
      { "pred" : "http://purl.obolibrary.org/obo/IAO_0100001",
        "val" : "http://purl.obolibrary.org/obo/DOID_12132" },
      { "pred" : "http://www.geneontology.org/formats/oboInOwl#consider", "val" : "DOID:4" } ]
  }
}, {
  "id" : "http://purl.obolibrary.org/obo/DOID_9",
  "type" : "CLASS",
  "meta" : { "deprecated" : true }
}, {
  "id" : "http://purl.obolibrary.org/obo/IAO_0000115",
  "type" : "PROPERTY",
  "lbl" : "definition"
}, {
  "id" : "http://purl.obolibrary.org/obo/doid#has_symptom",
  "type" : "PROPERTY",
  "lbl" : "has_symptom"
} ],
"edges" : [
  { "sub" : "http://purl.obolibrary.org/obo/DOID_12132", "pred" : "is_a",
    "obj" : "http://purl.obolibrary.org/obo/DOID_4" },
  { "sub" : "http://purl.obolibrary.org/obo/DOID_12132",
    "pred" : "http://purl.obolibrary.org/obo/BFO_0000050",
    "obj" : "http://purl.obolibrary.org/obo/UBERON_0002048" },
  { "sub" : "http://purl.obolibrary.org/obo/DOID_4", "pred" : "is_a",
    "obj" : "http://www.w3.org/2002/07/owl#Thing" } ],
"id" : "http://purl.obolibrary.org/obo/doid.owl",
"meta" : {
  "basicPropertyValues" : [
    { "pred" : "http://www.w3.org/2002/07/owl#versionInfo", "val" : "not the release" } ],
  "version" : "http://purl.obolibrary.org/obo/doid/releases/2018-07-05/doid.owl"
},
"logicalDefinitionAxioms" : [ { "definedClassId" : "x", "genusIds" : [ ] } ]
  }, {
"nodes" : [ {
  "id" : "http://purl.obolibrary.org/obo/CHEBI_15377",
  "type" : "CLASS",
  "lbl" : "water"
} ],
"edges" : [ { "sub" : "http://purl.obolibrary.org/obo/DOID_4", "pred" : "is_a",
  "obj" : "http://purl.obolibrary.org/obo/CHEBI_15377" } ],
"id" : "http://purl.obolibrary.org/obo/doid/imports/chebi_import.owl",
"meta" : { "version" : "http://purl.obolibrary.org/obo/doid/imports/chebi_import.owl" }
  } ]
}"#;

#[test]
fn class_nodes_have_labels_synonyms_with_scopes_and_definitions() {
    let read = graphs(SAMPLE);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let disease = find(&read, "DOID_4");
    assert_eq!(disease.kind, ConceptKind::Class);
    assert_eq!(disease.curie.as_deref(), Some("DOID:4"));
    assert_eq!(
        labels(disease),
        [
            ("disease", LabelKind::Label),
            ("disorder", LabelKind::ExactSynonym),
            ("condition", LabelKind::RelatedSynonym),
            ("illness", LabelKind::BroadSynonym),
            ("syndrome", LabelKind::NarrowSynonym),
        ]
    );
    assert_eq!(
        disease.definitions[0].text,
        "A disposition to undergo pathological processes."
    );
    assert!(!disease.obsolete);
}

#[test]
fn xrefs_are_db_xrefs_as_written_and_alt_ids_are_curies() {
    let read = graphs(SAMPLE);
    let disease = find(&read, "DOID_4");
    let xrefs: Vec<(&str, XrefKind)> = disease
        .xrefs
        .iter()
        .map(|x| (x.target.as_str(), x.kind))
        .collect();
    assert_eq!(
        xrefs,
        [
            ("MESH:D004194", XrefKind::DbXref),
            ("UMLS_CUI:C0012634", XrefKind::DbXref)
        ]
    );
    assert_eq!(disease.alt_ids, ["DOID:1", "DOID:2"]);
}

#[test]
fn deprecated_nodes_are_obsolete_with_replaced_by_and_consider_as_iris() {
    let read = graphs(SAMPLE);
    let obsolete = find(&read, "DOID_8718");
    assert!(obsolete.obsolete);
    let targets: Vec<(ReplacementKind, &str)> = obsolete
        .replacements
        .iter()
        .map(|r| (r.kind, r.target.as_str()))
        .collect();
    assert_eq!(
        targets,
        [
            (
                ReplacementKind::ReplacedBy,
                "http://purl.obolibrary.org/obo/DOID_12132"
            ),
            (
                ReplacementKind::Consider,
                "http://purl.obolibrary.org/obo/DOID_4"
            ),
        ]
    );
    let unlabelled = find(&read, "DOID_9");
    assert!(unlabelled.obsolete && unlabelled.labels.is_empty());
}

#[test]
fn is_a_edges_are_parents_and_other_predicates_are_not() {
    let read = graphs(SAMPLE);
    let wegener = find(&read, "DOID_12132");
    let parents: Vec<(&str, LinkKind)> = wegener
        .parents
        .iter()
        .map(|l| (l.iri.as_str(), l.kind))
        .collect();
    assert_eq!(
        parents,
        [(
            "http://purl.obolibrary.org/obo/DOID_4",
            LinkKind::SubClassOf
        )]
    );
    let disease = find(&read, "DOID_4");
    assert!(disease.parents.is_empty(), "owl:Thing is no parent");
    assert_eq!(disease.children[0].iri, wegener.iri);
}

#[test]
fn properties_and_import_graphs_are_not_read_but_nodes_and_edges_are_counted() {
    let read = graphs(SAMPLE);
    let iris: Vec<&str> = read.concepts.iter().map(|c| c.iri.as_str()).collect();
    assert_eq!(iris.len(), 4, "{iris:?}");
    assert!(
        iris.iter()
            .all(|iri| iri.starts_with("http://purl.obolibrary.org/obo/DOID_"))
    );
    assert_eq!(read.rows, 6 + 3, "the first graph's nodes and edges");
}

#[test]
fn the_version_iri_gives_the_release() {
    let read = graphs(SAMPLE);
    assert_eq!(
        read.release,
        Some(FileRelease {
            value: "2018-07-05".into(),
            property: "owl:versionIRI".into()
        })
    );
}

#[test]
fn version_info_gives_the_release_when_the_version_iri_names_no_date() {
    let meta = |meta: &str| {
        let json = format!("{{\"graphs\": [{{\"nodes\": [], \"meta\": {meta}}}]}}");
        graphs(&json).release.map(|r| (r.value, r.property))
    };
    let info = r#"{"pred": "http://www.w3.org/2002/07/owl#versionInfo", "val": "v9.16"}"#;
    let both = format!(
        "{{\"version\": \"http://purl.obolibrary.org/obo/so/so.owl\", \
         \"basicPropertyValues\": [{info}]}}"
    );
    assert_eq!(
        meta(&both),
        Some(("v9.16".into(), "owl:versionInfo".into()))
    );
    let iri_only = r#"{"version": "http://purl.obolibrary.org/obo/so/v4/so.owl"}"#;
    assert_eq!(
        meta(iri_only),
        Some(("so.owl".into(), "owl:versionIRI".into())),
        "the last segment, as the RDF reader takes it"
    );
    assert_eq!(meta("{}"), None);
    let read = graphs("{\"graphs\": [{\"meta\": {\"version\": 7}}]}");
    assert_eq!(read.release, None);
    assert_eq!(read.problems[0].outcome, RowOutcome::KeptWithNote);
    assert!(read.problems[0].message.starts_with("graph meta: version"));
}

#[test]
fn triples_state_scoped_synonyms_xrefs_and_replacements() {
    let read = graphs(SAMPLE);
    let prefixes = super::super::tests::test_prefixes();
    let triples = |local: &str| {
        let mut out = Vec::new();
        concept_triples(find(&read, local), &prefixes, &mut out);
        out.into_iter()
            .map(|t| (t.predicate.as_str().to_string(), t.object.to_string()))
            .collect::<Vec<_>>()
    };
    let has = |triples: &[(String, String)], p: &str, o: &str| {
        triples.iter().any(|(tp, to)| tp == p && to == o)
    };
    let disease = triples("DOID_4");
    let exact = LabelKind::ExactSynonym.predicate();
    assert!(has(&disease, exact, "\"disorder\""));
    let mesh = "<http://id.nlm.nih.gov/mesh/D004194>";
    assert!(has(&disease, XrefKind::DbXref.predicate(), mesh));
    let obsolete = triples("DOID_8718");
    assert!(has(
        &obsolete,
        IAO_REPLACED_BY,
        &format!("<{OBO}DOID_12132>")
    ));
}

#[test]
fn wrong_shaped_nodes_and_edges_are_skipped_with_their_line_and_the_rest_loads() {
    let json = "{\"graphs\": [{\"nodes\": [\n\
                \"not a node\",\n\
                {\"type\": \"CLASS\", \"lbl\": \"no id\"},\n\
                {\"id\": \"http://purl.obolibrary.org/obo/DOID_1\", \"type\": \"CLASS\"},\n\
                {\"id\": \"http://purl.obolibrary.org/obo/DOID_2\", \"type\": \"CLASS\",\n\
                  \"lbl\": \"two\", \"meta\": {\"synonyms\": \"not a list\"}},\n\
                {\"id\": \"http://purl.obolibrary.org/obo/DOID_3\", \"type\": \"CLASS\",\n\
                  \"lbl\": \"three\", \"meta\": {\"synonyms\": [\
                    {\"pred\": \"hasOddSynonym\", \"val\": \"odd\"}]}},\n\
                {\"id\": \"http://purl.obolibrary.org/obo/DOID_4\", \"type\": \"CLASS\", \"lbl\": \"four\"}\n\
                ], \"edges\": [\n\
                {\"sub\": \"http://purl.obolibrary.org/obo/DOID_4\", \"pred\": \"is_a\"}\n\
                ]}]}";
    let read = graphs(json);
    let iris: Vec<&str> = read.concepts.iter().map(|c| c.iri.as_str()).collect();
    assert_eq!(
        iris,
        [
            "http://purl.obolibrary.org/obo/DOID_3",
            "http://purl.obolibrary.org/obo/DOID_4"
        ]
    );
    assert_eq!(read.rows, 7);
    let problems: Vec<(u64, RowOutcome, &str)> = read
        .problems
        .iter()
        .map(|p| (p.line, p.outcome, p.message.as_str()))
        .collect();
    let skipped = RowOutcome::Skipped;
    let expected = [
        (2, skipped, "not a JSON object but a string"),
        (3, skipped, "no id"),
        (
            4,
            skipped,
            "\"http://purl.obolibrary.org/obo/DOID_1\": no label",
        ),
        (5, skipped, "DOID_2\": meta.synonyms: invalid type"),
        (
            7,
            RowOutcome::KeptWithNote,
            "unknown scope \"hasOddSynonym\"",
        ),
        (11, skipped, "edge: no obj"),
    ];
    assert_eq!(problems.len(), expected.len(), "{problems:?}");
    for (got, (line, outcome, says)) in problems.iter().zip(expected) {
        assert_eq!((got.0, got.1), (line, outcome), "{got:?}");
        assert!(got.2.contains(says), "{got:?}");
    }
}

#[test]
fn broken_json_is_a_located_error() {
    let broken = "{\"graphs\": [{\"nodes\": [\n  {\"id\": \"x\" \"type\": \"CLASS\"}\n]}]}";
    for (json, line, column, says) in [
        (broken, 2, 14, "expected `,` or `}`"),
        (
            "{\"graphs\": [{\"nodes\": [",
            1,
            23,
            "EOF while parsing a list",
        ),
        ("[]", 1, 1, "an OBO Graphs JSON object"),
        ("{\"graphs\": {}}", 1, 12, "an array of graphs"),
        ("{\"graphs\": []} trailing", 1, 16, "trailing characters"),
        ("", 1, 0, "EOF while parsing a value"),
    ] {
        let error =
            try_read_str(TableFormat::ObographsJson, &[("bad.json", json)]).expect_err(json);
        let location = error.location().unwrap_or_else(|| panic!("{error}"));
        assert_eq!(
            (location.line, location.column),
            (line, column),
            "{json}: {error}"
        );
        let text = error.to_string();
        assert!(
            text.starts_with("bad.json:") && text.contains(says),
            "{text}"
        );
    }
}

#[test]
fn a_document_without_graphs_is_refused() {
    let error = try_read_str(
        TableFormat::ObographsJson,
        &[("x.json", "{\"MONDO:1\": {}}")],
    )
    .expect_err("no graphs");
    assert!(error.to_string().contains("OBO Graphs"), "{error}");
}

#[test]
fn an_overlong_node_stops_the_source_but_long_skipped_sections_do_not() {
    let long = "x".repeat(MAX_ENTRY_BYTES as usize);
    let axioms = format!("{{\"graphs\": [{{\"axioms\": [\"{long}\"], \"nodes\": []}}]}}");
    assert!(graphs(&axioms).problems.is_empty());
    let node = format!("{{\"graphs\": [{{\"nodes\": [{{\"lbl\": \"{long}\"}}]}}]}}");
    let error =
        try_read_str(TableFormat::ObographsJson, &[("big.json", &node)]).expect_err("too long");
    assert!(error.to_string().contains("longer than"), "{error}");
    assert!(error.location().is_some());
}
