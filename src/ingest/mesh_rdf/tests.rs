//! The MeSH RDF join on NLM's sample files (skipped when absent) and on small hostile inputs.

use oxttl::{NTriplesParser, TurtleParser};

use super::*;
use crate::model::{Label, LabelKind, LinkKind, PrefixMap, PrefixRule, Provenance, XrefKind};

const SOURCE: SourceIdx = SourceIdx(7);
const SAMPLES: &str = "hhs-meshrdf_webui_src_test_resources_samples.nt";
const SUBSET_2020: &str = "nxontology-data_mesh2020-subset.nt";
/// Turtle prefixes for the inline cases.
const TTL_PREFIXES: &str = "@prefix m: <http://id.nlm.nih.gov/mesh/> .\n\
    @prefix v: <http://id.nlm.nih.gov/mesh/vocab#> .\n\
    @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
    @prefix owl: <http://www.w3.org/2002/07/owl#> .\n";

fn prefixes() -> PrefixMap {
    PrefixMap::new([PrefixRule {
        prefix: "MESH".into(),
        uri_prefix: MESH.into(),
    }])
}

fn run(triples: impl IntoIterator<Item = Triple>) -> (Option<String>, Vec<Concept>) {
    let mut mesh = MeshRdf::new(SOURCE);
    for triple in triples {
        mesh.observe(&triple);
    }
    (mesh.year(), mesh.finish(&prefixes()).expect("joined"))
}

fn turtle(body: &str) -> Vec<Triple> {
    let text = format!("{TTL_PREFIXES}{body}");
    TurtleParser::new()
        .for_reader(text.as_bytes())
        .collect::<Result<_, _>>()
        .expect("inline Turtle parses")
}

/// The triples of a shared sample file, or `None` (after saying so) when it is absent.
fn sample(name: &str) -> Option<Vec<Triple>> {
    let path = crate::test_data::shared_data().join("mesh/rdf").join(name);
    let Ok(file) = std::fs::File::open(&path) else {
        crate::test_data::skip(&format!("{} is absent", path.display()));
        return None;
    };
    let triples = NTriplesParser::new()
        .for_reader(std::io::BufReader::new(file))
        .collect::<Result<Vec<_>, _>>()
        .expect("sample parses");
    Some(triples)
}

fn find<'a>(concepts: &'a [Concept], local: &str) -> &'a Concept {
    let iri = format!("{MESH}{local}");
    concepts
        .iter()
        .find(|c| c.iri == iri)
        .unwrap_or_else(|| panic!("{iri} is a concept"))
}

fn texts(concept: &Concept, kind: LabelKind) -> Vec<&str> {
    let mut texts: Vec<&str> = (concept.labels.iter())
        .filter(|l| l.kind == kind)
        .map(|l| l.text.as_str())
        .collect();
    texts.sort();
    texts
}

fn parent_locals(concept: &Concept) -> Vec<&str> {
    (concept.parents.iter())
        .map(|p| p.iri.strip_prefix(MESH).unwrap_or(&p.iri))
        .collect()
}

fn count(concepts: &[Concept], kind: ConceptKind) -> usize {
    concepts.iter().filter(|c| c.kind == kind).count()
}

#[test]
fn calcimycin_is_named_by_its_preferred_term_with_narrower_terms_and_trees() {
    let Some(triples) = sample(SAMPLES) else {
        return;
    };
    let (year, concepts) = run(triples);
    assert_eq!(year, None);
    let d = find(&concepts, "D000001");
    assert_eq!(d.kind, ConceptKind::Descriptor);
    assert_eq!(d.curie.as_deref(), Some("MESH:D000001"));
    assert_eq!(
        d.labels.first(),
        Some(&Label {
            text: "Calcimycin".into(),
            kind: LabelKind::Label,
            lang: Some("en".into()),
            prov: Provenance { source: SOURCE },
        })
    );
    assert_eq!(texts(d, LabelKind::Label), ["Calcimycin"]);
    // Its preferred concept M0000001 has no term besides the preferred one.
    assert!(texts(d, LabelKind::EntryTerm).is_empty());
    assert_eq!(
        texts(d, LabelKind::NarrowSynonym),
        [
            "A 23187",
            "A-23187",
            "A23187",
            "A23187, Antibiotic",
            "Antibiotic A23187"
        ]
    );
    assert_eq!(d.tree_numbers, ["D03.438.221.173"]);
}

#[test]
fn terms_of_the_preferred_concept_are_entry_terms() {
    let Some(triples) = sample(SAMPLES) else {
        return;
    };
    let (_, concepts) = run(triples);
    let d = find(&concepts, "D000082");
    assert_eq!(texts(d, LabelKind::Label), ["Acetaminophen"]);
    let entry = texts(d, LabelKind::EntryTerm);
    assert!(
        entry.contains(&"Paracetamol") && entry.contains(&"APAP"),
        "{entry:?}"
    );
    assert!(!entry.contains(&"Acetaminophen"));
    let narrow = texts(d, LabelKind::NarrowSynonym);
    assert!(narrow.iter().all(|t| !entry.contains(t)), "{narrow:?}");
    // M0000114 and M0000116 are related to the preferred concept, not narrower than it.
    let related = texts(d, LabelKind::RelatedSynonym);
    assert!(!related.is_empty(), "{:?}", d.labels);
    assert!(related.iter().all(|t| !narrow.contains(t)), "{related:?}");
}

#[test]
fn a_parent_tree_number_held_by_another_descriptor_makes_it_a_parent() {
    let Some(triples) = sample(SAMPLES) else {
        return;
    };
    // The file also states meshv:broaderDescriptor; without it the tree numbers must agree.
    let broader = format!("{MESHV}broaderDescriptor");
    let (tree_only, _) =
        (triples.iter().cloned()).partition::<Vec<_>, _>(|t| t.predicate.as_str() != broader);
    let (_, concepts) = run(tree_only);
    // D005138 (Eyebrows) A01.456.505.420.338 has parent A01.456.505.420, held by D005123 (Eye).
    let eyebrows = find(&concepts, "D005138");
    assert_eq!(parent_locals(eyebrows), ["D005123"]);
    let eye = find(&concepts, "D005123");
    assert_eq!(parent_locals(eye), ["D005145", "D012679"]);
    assert!(eye.children.iter().any(|c| c.iri.ends_with("/D005138")));
    let (_, stated) = run(triples);
    let parents = |cs: &[Concept]| cs.iter().map(|c| c.parents.clone()).collect::<Vec<_>>();
    assert_eq!(parents(&concepts), parents(&stated));
    let links = concepts
        .iter()
        .flat_map(|c| c.parents.iter().chain(&c.children));
    for link in links {
        assert_eq!(link.kind, LinkKind::BroaderDescriptor);
        assert_eq!(link.prov.source, SOURCE);
    }
}

#[test]
fn a_supplementary_record_maps_to_its_descriptor_and_qualifier() {
    let Some(triples) = sample(SAMPLES) else {
        return;
    };
    let (_, concepts) = run(triples);
    let scr = find(&concepts, "C003820");
    assert_eq!(scr.kind, ConceptKind::SupplementaryRecord);
    assert_eq!(texts(scr, LabelKind::Label), ["Z 4000"]);
    let xref = |kind: XrefKind| scr.xrefs.iter().find(|x| x.kind == kind).expect("xref");
    let preferred = xref(XrefKind::PreferredMappedTo);
    assert_eq!(preferred.target, "MESH:D006896");
    assert_eq!(preferred.qualifier.as_deref(), Some("Q000031"));
    assert_eq!(preferred.prov, Provenance { source: SOURCE });
    let other = xref(XrefKind::MappedTo);
    assert_eq!(
        (other.target.as_str(), other.qualifier.as_deref()),
        ("MESH:D004338", None)
    );
}

#[test]
fn only_records_become_concepts() {
    let Some(triples) = sample(SAMPLES) else {
        return;
    };
    let mut mesh = MeshRdf::new(SOURCE);
    for triple in &triples {
        mesh.observe(triple);
    }
    let concepts = mesh.finish(&prefixes()).expect("joined");
    assert_eq!(concepts.len(), 62);
    for c in &concepts {
        let local = c.iri.strip_prefix(MESH).unwrap_or(&c.iri);
        assert!(local.starts_with('D') || local.starts_with('C'), "{local}");
        assert!(!local.contains('Q') && !local.contains('.'), "{local}");
        assert_eq!(c.source, SOURCE);
        assert!(!c.obsolete);
    }
}

#[test]
fn year_versioned_iris_are_unversioned_and_name_the_year() {
    let Some(triples) = sample(SUBSET_2020) else {
        return;
    };
    let (year, concepts) = run(triples);
    assert_eq!(year.as_deref(), Some("2020"));
    assert!(!concepts.is_empty());
    let iris = concepts.iter().flat_map(|c| {
        let links = c.parents.iter().chain(&c.children).map(|l| l.iri.as_str());
        std::iter::once(c.iri.as_str()).chain(links)
    });
    for iri in iris {
        assert!(iri.starts_with(MESH) && !iri.contains("/2020/"), "{iri}");
    }
    // No parentTreeNumber here: C11.204's parent C11 (Eye Diseases) is derived.
    assert!(parent_locals(find(&concepts, "D003316")).contains(&"D005128"));
    let scr = find(&concepts, "C000598941");
    assert_eq!(texts(scr, LabelKind::Label), ["Keratoactinomycosis"]);
    let targets: Vec<&str> = scr.xrefs.iter().map(|x| x.target.as_str()).collect();
    assert!(targets.contains(&"MESH:D003320"), "{targets:?}");
}

#[test]
fn qualifiers_come_out_as_qualifiers_named_by_their_preferred_term() {
    let (_, concepts) = run(turtle(
        "m:Q000031 a v:Qualifier ; rdfs:label \"analogs & derivatives\"@en ;
            v:preferredConcept m:M0000001 ; v:treeNumber m:Y10.050 .
         m:M0000001 a v:Concept ; v:preferredTerm m:T1 ; v:term m:T2 .
         m:T1 a v:Term ; v:prefLabel \"analogs & derivatives\"@en .
         m:T2 a v:Term ; v:prefLabel \"analogs\"@en .",
    ));
    assert_eq!(concepts.len(), 1);
    let q = find(&concepts, "Q000031");
    assert_eq!(q.kind, ConceptKind::Qualifier);
    assert_eq!(texts(q, LabelKind::Label), ["analogs & derivatives"]);
    assert_eq!(texts(q, LabelKind::EntryTerm), ["analogs"]);
    assert_eq!(q.tree_numbers, ["Y10.050"]);
    assert!(q.parents.is_empty());
}

#[test]
fn a_term_without_label_falls_back_to_the_record_label() {
    let (_, concepts) = run(turtle(
        "m:D1 a v:TopicalDescriptor ; rdfs:label \"Fallback\"@en , \"Repli\"@fr ;
            v:preferredConcept m:M1 ; v:concept m:M2 .
         m:M1 v:preferredTerm m:T1 ; v:term m:T1b .
         m:T1b v:prefLabel \"   \" .
         m:M2 v:preferredTerm m:T2 .",
    ));
    let d = find(&concepts, "D1");
    assert_eq!(texts(d, LabelKind::Label), ["Fallback", "Repli"]);
    assert_eq!(d.labels.len(), 2);
}

#[test]
fn a_cycle_of_parent_tree_numbers_ends() {
    let (_, concepts) = run(turtle(
        "m:D1 a v:TopicalDescriptor ; v:treeNumber m:A01.1 .
         m:D2 a v:TopicalDescriptor ; v:treeNumber m:A01.2 , m:A01.3 .
         m:A01.1 v:parentTreeNumber m:A01.2 .
         m:A01.2 v:parentTreeNumber m:A01.1 .
         m:A01.3 v:parentTreeNumber m:A01.3 .",
    ));
    assert_eq!(parent_locals(find(&concepts, "D1")), ["D2"]);
    assert_eq!(parent_locals(find(&concepts, "D2")), ["D1"]);
}

#[test]
fn a_tree_number_without_a_dot_is_a_root() {
    let (_, concepts) = run(turtle(
        "m:D1 a v:TopicalDescriptor ; v:treeNumber m:C01 , <http://id.nlm.nih.gov/mesh/> .
         m:D2 a v:TopicalDescriptor ; v:treeNumber m:C01.100 ; v:broaderDescriptor m:D9 .",
    ));
    let root = find(&concepts, "D1");
    assert_eq!(root.tree_numbers, ["C01"]);
    assert!(root.parents.is_empty());
    assert_eq!(parent_locals(find(&concepts, "D2")), ["D1", "D9"]);
}

#[test]
fn triples_in_reverse_order_give_the_same_concepts() {
    let triples = turtle(
        "m:D1 a v:TopicalDescriptor ; rdfs:label \"One\"@en ; v:preferredConcept m:M1 ;
            v:concept m:M2 ; v:treeNumber m:B01.1 .
         m:D2 a v:CheckTag ; v:treeNumber m:B01 .
         m:M1 a v:Concept ; rdfs:label \"One\"@en ; v:preferredTerm m:T1 .
         m:M2 a v:Concept ; v:preferredTerm m:T2 .
         m:T1 a v:Term ; v:prefLabel \"One\"@en ; v:altLabel \"Uno\"@en .
         m:T2 a v:Term ; v:prefLabel \"Smaller one\"@en .
         m:B01.1 a v:TreeNumber ; rdfs:label \"B01.1\" ; v:parentTreeNumber m:B01 .
         m:C5 a v:SCR_Chemical ; v:preferredMappedTo m:D1Q000031 ; v:mappedTo m:D2 .
         m:D1Q000031 a v:AllowedDescriptorQualifierPair ; rdfs:label \"One/analogs\" .",
    );
    let (_, forward) = run(triples.iter().cloned());
    let (_, backward) = run(triples.into_iter().rev());
    assert_eq!(forward, backward);
    assert_eq!(forward.len(), 3);
    let d = find(&forward, "D1");
    assert_eq!(texts(d, LabelKind::EntryTerm), ["Uno"]);
    assert_eq!(texts(d, LabelKind::NarrowSynonym), ["Smaller one"]);
    assert_eq!(parent_locals(d), ["D2"]);
    assert_eq!(find(&forward, "C5").xrefs.len(), 2);
}

#[test]
fn a_deprecated_descriptor_is_obsolete() {
    let (_, concepts) = run(turtle(
        "m:D1 a v:TopicalDescriptor ; owl:deprecated true .
         m:D2 a v:TopicalDescriptor ; owl:deprecated false .",
    ));
    assert!(find(&concepts, "D1").obsolete);
    assert!(!find(&concepts, "D2").obsolete);
}

#[test]
fn pair_targets_split_only_when_shaped_like_a_pair() {
    let pair = |iri: &str| join::split_pair(iri);
    assert_eq!(
        pair("http://id.nlm.nih.gov/mesh/D006896Q000031"),
        (
            "http://id.nlm.nih.gov/mesh/D006896".to_string(),
            Some("Q000031".to_string())
        )
    );
    for iri in ["http://x/DQ1", "http://x/D1Q", "http://x/C1Q2", "D1Q2x", ""] {
        assert_eq!(pair(iri), (iri.to_string(), None));
    }
    assert_eq!(split_year("2020/D1"), (Some("2020"), "D1"));
    assert_eq!(split_year("202/D1"), (None, "202/D1"));
    assert_eq!(split_year("2020"), (None, "2020"));
}

#[test]
fn sample_files_yield_their_records() {
    // (file, descriptors, supplementary records, qualifiers, parent links, xrefs)
    let expected = [(SAMPLES, 43, 19, 0, 6, 40), (SUBSET_2020, 8, 1, 0, 8, 2)];
    for (name, descriptors, scrs, qualifiers, parents, xrefs) in expected {
        let Some(triples) = sample(name) else { return };
        let (_, concepts) = run(triples);
        let sum = |f: fn(&Concept) -> usize| concepts.iter().map(f).sum::<usize>();
        let counts = (
            count(&concepts, ConceptKind::Descriptor),
            count(&concepts, ConceptKind::SupplementaryRecord),
            count(&concepts, ConceptKind::Qualifier),
            sum(|c| c.parents.len()),
            sum(|c| c.xrefs.len()),
        );
        assert_eq!(
            counts,
            (descriptors, scrs, qualifiers, parents, xrefs),
            "{name}"
        );
        assert!(concepts.iter().all(|c| !c.labels.is_empty()), "{name}");
    }
}

#[test]
fn records_joined_from_spilled_runs_one_at_a_time_give_the_concepts_held_in_memory() {
    let mut inputs = vec![turtle(
        "m:D1 a v:TopicalDescriptor ; rdfs:label \"One\"@en ; v:treeNumber m:B01.1 .
         m:D2 a v:CheckTag ; v:treeNumber m:B01 .
         m:B01.1 a v:TreeNumber ; v:parentTreeNumber m:B01 .
         m:C5 a v:SCR_Chemical ; rdfs:label \"Five\" ; v:mappedTo m:D2 .",
    )];
    inputs.extend(sample(SAMPLES));
    for triples in inputs {
        let (_, held) = run(triples.iter().cloned());
        let dir = tempfile::tempdir().expect("temp dir");
        let mut mesh = MeshRdf::new(SOURCE);
        // A run every few facts: every pass reads back merged runs.
        mesh.spill_every(dir.path(), 5);
        triples.iter().for_each(|t| mesh.observe(t));
        let mut out =
            crate::ingest::extract_spill::FinishedWriter::create(dir.path()).expect("creates");
        mesh.finish_each(&prefixes(), |concept| out.write(&concept))
            .expect("written");
        let (concepts, counts) = out.into_concepts(7).expect("read back");
        let streamed = concepts.collect_all().expect("read back");
        assert_eq!(counts.concepts as usize, held.len());
        assert!(
            held.iter().any(|c| !c.children.is_empty()),
            "children are joined"
        );
        assert_eq!(held, streamed);
        assert_eq!(
            std::fs::read_dir(dir.path()).expect("dir").count(),
            0,
            "no run is left behind"
        );
    }
}
