//! Our own small fixtures: SKOS in Turtle and RDF/XML, OWL, OBO, and one broken file per format.

use std::path::Path;

use ontoresolve::build::{BuildError, BuildOptions, Silent, build};
use ontoresolve::index::manifest::ReleaseOrigin;
use ontoresolve::ingest::IngestError;
use ontoresolve::model::{LabelKind, ReplacementKind, XrefKind};
use ontoresolve::resolve::{ConceptId, Resolver};

use crate::support::{
    Expect::*, build_into, check, fixtures, scratch, shared_index, single_source_catalog,
};

fn index() -> &'static Resolver {
    shared_index("fixtures", |dir| {
        build_into(&fixtures().join("fixtures.toml"), dir);
        Some(dir.to_path_buf())
    })
    .expect("fixtures build")
}

const ECON: &str = "http://example.org/econ/";
const XO: &str = "http://purl.obolibrary.org/obo/XO_";
const XD: &str = "http://purl.obolibrary.org/obo/XD_";

#[test]
fn releases_come_from_the_file_or_the_catalogue() {
    let m = index().manifest();
    let release = |id: &str| {
        let s = m.source(id).expect("source present");
        (s.release.as_str(), s.release_origin.clone())
    };
    let file = |p: &str| ReleaseOrigin::File {
        property: p.to_string(),
    };
    assert_eq!(release("econ-ttl"), ("2.1", file("owl:versionInfo")));
    assert_eq!(release("econ-rdf"), ("2.1", file("owl:versionInfo")));
    assert_eq!(release("xo"), ("2024-03-05", file("owl:versionIRI")));
    assert_eq!(release("xd"), ("2023-07-01", file("data-version")));
    assert!(m.source("xd").expect("xd").graph.ends_with("xd:2023-07-01"));
}

#[test]
fn both_skos_syntaxes_give_the_same_concepts() {
    let r = index();
    let m = r.manifest();
    let ttl = m.source("econ-ttl").expect("ttl");
    let rdf = m.source("econ-rdf").expect("rdf");
    assert_eq!(ttl.counts.concepts, 5);
    assert_eq!(ttl.counts, rdf.counts);
    for i in 0..ttl.counts.concepts as u32 {
        let a = r
            .concept(ConceptId(ttl.first_concept + i))
            .expect("ttl concept");
        let b = r
            .concept(ConceptId(rdf.first_concept + i))
            .expect("rdf concept");
        assert_eq!(
            (a.iri, a.labels.len(), a.parents.len(), a.obsolete),
            (b.iri, b.labels.len(), b.parents.len(), b.obsolete)
        );
    }
}

#[test]
fn skos_concepts_carry_labels_parents_xrefs_and_replacements() {
    let r = index();
    let id = r
        .lexicon()
        .lookup_id(&format!("{ECON}health-economics"))
        .expect("the index reads")[0]
        .concept;
    let d = r.details(id).expect("details");
    let c = &d.concept;
    let kinds: Vec<(&str, LabelKind, Option<&str>)> = c
        .labels
        .iter()
        .map(|l| (l.text.as_str(), l.kind, l.lang.as_deref()))
        .collect();
    assert!(
        kinds.contains(&("Gesundheitsökonomie", LabelKind::PrefLabel, Some("de"))),
        "{kinds:?}"
    );
    assert!(kinds.contains(&("Economics of health", LabelKind::AltLabel, Some("en"))));
    assert!(kinds.contains(&("helth economics", LabelKind::HiddenLabel, Some("en"))));
    let mut parents: Vec<&str> = d.parents.iter().map(|p| p.iri.as_str()).collect();
    parents.sort();
    assert_eq!(
        parents,
        [format!("{ECON}economics"), format!("{ECON}health")],
        "broader plus inverse narrower"
    );
    assert_eq!(
        d.parents
            .iter()
            .find(|p| p.iri.ends_with("/health"))
            .and_then(|p| p.label.as_deref()),
        Some("Health")
    );
    assert_eq!(
        d.children
            .iter()
            .map(|c| c.iri.as_str())
            .collect::<Vec<_>>(),
        [format!("{ECON}cua")]
    );
    let xrefs: Vec<(XrefKind, &str)> = c
        .xrefs
        .iter()
        .map(|x| (x.kind, x.target.as_str()))
        .collect();
    assert!(xrefs.contains(&(XrefKind::ExactMatch, "http://zbw.eu/stw/descriptor/11157-5")));
    assert!(xrefs.contains(&(
        XrefKind::CloseMatch,
        "http://www.wikidata.org/entity/Q1128453"
    )));
    assert_eq!(d.source_id, "econ-ttl");
    assert_eq!(d.release, "2.1");

    let old = r
        .lexicon()
        .lookup_id(&format!("{ECON}cost-utility"))
        .expect("the index reads")[0]
        .concept;
    let old = r.concept(old).expect("obsolete concept");
    assert!(old.obsolete);
    let (_, live) = r
        .replacement_of(&old)
        .expect("the index reads")
        .expect("replacement");
    assert_eq!(live.iri, format!("{ECON}cua"));
    let top = r
        .concept(
            r.lexicon()
                .lookup_id(&format!("{ECON}economics"))
                .expect("the index reads")[0]
                .concept,
        )
        .expect("top");
    assert!(top.top_concept);
}

#[test]
fn owl_classes_carry_synonyms_definitions_and_named_parents_only() {
    let r = index();
    let d = r
        .details(
            r.lexicon()
                .lookup_id("XO:0000004")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("details");
    assert_eq!(
        d.concept.preferred_label().map(|l| l.text.as_str()),
        Some("increased size of an organ")
    );
    assert_eq!(
        d.concept.definitions[0].text,
        "A size that is greater than normal, in an organ."
    );
    let labels: Vec<(&str, LabelKind)> = d
        .concept
        .labels
        .iter()
        .map(|l| (l.text.as_str(), l.kind))
        .collect();
    assert!(labels.contains(&("enlarged organ", LabelKind::ExactSynonym)));
    assert!(labels.contains(&("organomegaly", LabelKind::RelatedSynonym)));
    assert_eq!(
        d.parents.len(),
        2,
        "the restriction is not a parent: {:?}",
        d.parents
    );
    assert_eq!(d.concept.xrefs[0].target, "UMLS:C0000001");
    let obsolete = r
        .concept(
            r.lexicon()
                .lookup_id("XO:0000006")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("obsolete");
    assert!(obsolete.obsolete);
    assert_eq!(
        r.replacement_of(&obsolete)
            .expect("the index reads")
            .map(|(_, c)| c.iri),
        Some(format!("{XO}0000004"))
    );
    let edam_style = r
        .concept(
            r.lexicon()
                .lookup_id("XO:0000007")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("obsolete");
    assert_eq!(
        edam_style
            .replacements_of(ReplacementKind::ReplacedBy)
            .map(|x| x.target.as_str())
            .collect::<Vec<_>>(),
        [format!("{XO}0000003")],
        "a CURIE literal in oboInOwl:replacedBy expands to the IRI"
    );
}

#[test]
fn obo_terms_become_obo_in_owl() {
    let r = index();
    let d = r
        .details(
            r.lexicon()
                .lookup_id("XD:0000004")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("details");
    let c = &d.concept;
    assert_eq!(
        c.preferred_label().map(|l| l.text.as_str()),
        Some("Lungenentzündung (pneumonia)")
    );
    assert_eq!(c.definitions[0].text, "An \"infectious\" lung disease.");
    assert_eq!(d.parents.len(), 2);
    assert_eq!(c.alt_ids, ["XD:0000099"]);
    let xrefs: Vec<&str> = c.xrefs.iter().map(|x| x.target.as_str()).collect();
    assert_eq!(xrefs, ["ICD10CM:J18.9", "MESH:D011014"]);
    let kinds: Vec<LabelKind> = c.labels.iter().map(|l| l.kind).collect();
    assert!(
        kinds.contains(&LabelKind::RelatedSynonym) && kinds.contains(&LabelKind::NarrowSynonym)
    );
    let old = r
        .concept(
            r.lexicon()
                .lookup_id("XD:0000005")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("obsolete");
    assert!(old.obsolete);
    let targets: Vec<(ReplacementKind, String)> = old
        .replacements
        .iter()
        .map(|x| (x.kind, x.target.clone()))
        .collect();
    assert_eq!(
        targets,
        [
            (ReplacementKind::ReplacedBy, format!("{XD}0000004")),
            (ReplacementKind::Consider, format!("{XD}0000003"))
        ],
        "consider is written as a CURIE and expanded"
    );
}

#[test]
fn lookups_by_identifier_name_and_near_spelling() {
    check(
        index(),
        &[
            (
                "XD:0000004",
                Id("http://purl.obolibrary.org/obo/XD_0000004"),
            ),
            (
                "xd:0000004",
                Id("http://purl.obolibrary.org/obo/XD_0000004"),
            ),
            (
                "XD_0000004",
                Id("http://purl.obolibrary.org/obo/XD_0000004"),
            ),
            (
                " <http://purl.obolibrary.org/obo/XD_0000004> ",
                Id("http://purl.obolibrary.org/obo/XD_0000004"),
            ),
            (
                "XD:0000099",
                Id("http://purl.obolibrary.org/obo/XD_0000004"),
            ),
            (
                "econ:health-economics",
                Id("http://example.org/econ/health-economics"),
            ),
            ("XD:0000404", NoId),
            (
                "pulmonary disease",
                Label("http://purl.obolibrary.org/obo/XD_0000003", "exact_synonym"),
            ),
            (
                "LUNG-DISEASE",
                Label("http://purl.obolibrary.org/obo/XD_0000003", "label"),
            ),
            (
                "Gesundheitsökonomie",
                Label("http://example.org/econ/health-economics", "pref_label"),
            ),
            (
                "Œdème de la cornée",
                Label("http://purl.obolibrary.org/obo/XO_0000005", "label"),
            ),
            (
                "enlargd organ",
                Fuzzy("http://purl.obolibrary.org/obo/XO_0000004", 1),
            ),
            (
                "Gesundheitsokonomi",
                Fuzzy("http://example.org/econ/health-economics", 2),
            ),
            (
                "scarce resources",
                Text("http://example.org/econ/economics"),
            ),
        ],
    );
}

fn build_err(catalog: &Path, dir: &Path) -> BuildError {
    match build(
        &BuildOptions {
            catalog: catalog.to_path_buf(),
            index_dir: dir.join("index"),
            keep_going: false,
        },
        &Silent,
    ) {
        Ok(_) => panic!("build of {} should fail", catalog.display()),
        Err(e) => e,
    }
}

#[test]
fn syntax_errors_name_source_file_line_and_column() {
    let cases = [
        ("broken.ttl", "skos", "", 4, 11),
        ("broken.nt", "skos", "format = \"ntriples\"", 2, 47),
        // RDF/XML positions point just past the offending markup.
        ("broken.rdf", "owl", "format = \"rdfxml\"", 8, 42),
        ("broken.obo", "obo", "", 10, 10),
    ];
    let mut failures = Vec::new();
    for (name, kind, extra, line, column) in cases {
        let dir = scratch(&format!("broken-{name}"));
        let file = fixtures().join(name);
        let catalog = single_source_catalog(&dir, "broken", kind, &file, extra);
        let error = build_err(&catalog, &dir);
        let message = error.to_string();
        match &error {
            BuildError::Source {
                id,
                error:
                    IngestError::Syntax {
                        file: f, location, ..
                    },
            } => {
                if id != "broken"
                    || f != &file
                    || (location.line, location.column) != (line, column)
                {
                    failures.push(format!(
                        "{name}: got {message}, want line {line} column {column}"
                    ));
                }
                assert!(
                    message.contains(&format!("{}:{line}:{column}", file.display())),
                    "{message}"
                );
                assert!(message.starts_with("source 'broken'"), "{message}");
            }
            other => failures.push(format!("{name}: not a syntax error: {other}")),
        }
        assert!(
            !dir.join("index/CURRENT").exists(),
            "{name}: a failed build installs nothing"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn keep_going_skips_a_broken_source_and_says_so() {
    let dir = scratch("keep-going");
    let catalog = crate::support::fixtures_plus_source(
        &dir,
        "broken",
        "skos",
        &fixtures().join("broken.ttl"),
        "",
    );
    assert!(matches!(
        build_err(&catalog, &dir),
        BuildError::Source { .. }
    ));
    let summary = build(
        &BuildOptions {
            catalog: catalog.clone(),
            index_dir: dir.join("index"),
            keep_going: true,
        },
        &Silent,
    )
    .expect("keep-going build succeeds");
    assert_eq!(summary.manifest.sources.len(), 4);
    assert_eq!(summary.manifest.skipped.len(), 1);
    assert_eq!(summary.manifest.skipped[0].id, "broken");
    assert!(
        summary.manifest.skipped[0]
            .reason
            .contains("broken.ttl:4:11"),
        "{}",
        summary.manifest.skipped[0].reason
    );
    let r = Resolver::open(&dir.join("index")).expect("open");
    assert!(
        !r.lexicon()
            .lookup_id("XD:0000004")
            .expect("the index reads")
            .is_empty()
    );
}

#[test]
fn builds_are_deterministic() {
    let a = scratch("determinism-a");
    let b = scratch("determinism-b");
    let sa = build_into(&fixtures().join("fixtures.toml"), &a);
    let sb = build_into(&fixtures().join("fixtures.toml"), &b);
    let files: Vec<String> = std::fs::read_dir(&sa.dir)
        .expect("read the build directory")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| {
            ["ids-", "labels-", "concepts-"]
                .iter()
                .any(|k| n.starts_with(k))
        })
        .collect();
    assert!(files.len() >= 6, "a segment per release: {files:?}");
    for file in &files {
        let x = std::fs::read(sa.dir.join(file)).expect("read a");
        let y = std::fs::read(sb.dir.join(file)).expect("read b");
        assert!(
            x == y,
            "{file} differs between two builds of the same inputs"
        );
    }
    // The written manifests differ only in the build time.
    let without_time = |dir: &std::path::Path| {
        let mut m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("read"))
                .expect("json");
        m.as_object_mut().expect("object").remove("built");
        m
    };
    assert_eq!(without_time(&sa.dir), without_time(&sb.dir));
    assert_eq!(sa.manifest.build_id.len(), 16);
}

#[test]
fn get_concept_says_when_several_sources_hold_the_identifier() {
    use ontoresolve::mcp::dto::IdentifierArgs;
    use ontoresolve::mcp::tools::get_concept;
    let args = IdentifierArgs {
        identifier: format!("{ECON}health-economics"),
        release: None,
    };
    let answer = get_concept(index(), &args).expect("answer");
    // The Turtle and RDF/XML schemes both hold this IRI: one is shown, both are counted.
    assert_eq!(
        (answer.total, answer.returned, answer.truncated),
        (2, 1, true)
    );
    assert!(
        answer
            .cursor
            .is_some_and(|c| c.contains("resolve_identifier"))
    );
}
