//! Tests on the real tables under the shared data directory (`ONTORESOLVE_SHARED_DATA`, else
//! `../shared/data` beside the crate). Each test skips when its file is absent
//! (`crate::test_data::skip`: it fails instead under `ONTORESOLVE_REQUIRE_DATA`).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

use super::tests::test_prefixes;
use super::*;
use crate::ingest::TableFormat;
use crate::ingest::input::open_reader;
use crate::model::{LabelKind, XrefKind};

use crate::test_data::{shared_data, skip};

/// Reads the named files as one source, or `None` (after saying so) when one is absent.
fn read_real(format: TableFormat, names: &[&str]) -> Option<TableConcepts> {
    let mut inputs = Vec::new();
    for name in names {
        let path = shared_data().join(name);
        let Ok(file) = std::fs::File::open(&path) else {
            skip(&format!("{} is absent", path.display()));
            return None;
        };
        inputs.push((path, open_reader(file).expect("opens")));
    }
    let read = read(format, inputs, crate::model::SourceIdx(0), &test_prefixes()).expect("reads");
    println!(
        "{names:?}: {} rows, {} concepts, {} problems",
        read.rows,
        read.concepts.len(),
        read.problems.len()
    );
    for problem in read.problems.iter().take(10) {
        println!(
            "  {}:{}: {}",
            problem.file.display(),
            problem.line,
            problem.message
        );
    }
    Some(read)
}

/// Every concept becomes triples (a type and a label at least); prints how many.
fn assert_every_concept_has_triples(read: &TableConcepts) {
    let prefixes = test_prefixes();
    let mut total = 0;
    let mut out = Vec::new();
    for concept in &read.concepts {
        out.clear();
        concept_triples(concept, &prefixes, &mut out);
        assert!(out.len() >= 2, "{}", concept.iri);
        total += out.len();
    }
    println!("  {total} triples");
}

fn find<'a>(read: &'a TableConcepts, iri: &str) -> &'a Concept {
    let at = read
        .concepts
        .binary_search_by(|c| c.iri.as_str().cmp(iri))
        .unwrap_or_else(|_| panic!("{iri} is read"));
    &read.concepts[at]
}

fn texts(concept: &Concept, kind: LabelKind) -> Vec<&str> {
    concept
        .labels
        .iter()
        .filter(|l| l.kind == kind)
        .map(|l| l.text.as_str())
        .collect()
}

#[test]
fn real_mesh_descriptors_have_entry_terms_and_resolvable_parents() {
    let Some(read) = read_real(TableFormat::MeshTsv, &["mesh/mesh2024_descriptors.tsv.gz"]) else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.concepts.len() as u64, read.rows);
    let abattoirs = find(&read, "http://id.nlm.nih.gov/mesh/D000003");
    assert_eq!(abattoirs.preferred_label().unwrap().text, "Abattoirs");
    assert!(texts(abattoirs, LabelKind::EntryTerm).contains(&"Slaughter Houses"));
    let abelson = find(&read, "http://id.nlm.nih.gov/mesh/D000011");
    assert!(abelson.xrefs.iter().any(|x| x.target == "NCBITaxon:11788"));
    let descriptors: HashSet<&str> = read.concepts.iter().map(|c| c.iri.as_str()).collect();
    let mut links = 0;
    for concept in &read.concepts {
        for parent in &concept.parents {
            assert!(descriptors.contains(parent.iri.as_str()), "{}", parent.iri);
            links += 1;
        }
        let dotted = concept.tree_numbers.iter().any(|t| t.contains('.'));
        assert_eq!(dotted, !concept.parents.is_empty(), "{}", concept.iri);
    }
    assert!(links > read.concepts.len());
    assert_every_concept_has_triples(&read);
}

#[test]
fn real_mesh_supplementary_records_map_to_descriptors() {
    let Some(read) = read_real(
        TableFormat::MeshTsv,
        &["mesh/mesh2024_supplementary.tsv.gz"],
    ) else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.concepts.len() as u64, read.rows);
    let ackr1 = find(&read, "http://id.nlm.nih.gov/mesh/C483025");
    let tabbed = "ID: 13349 ims\tatypical chemokine receptor 1 (Duffy blood group)";
    assert!(texts(ackr1, LabelKind::EntryTerm).contains(&tabbed));
    let preferred: Vec<&str> = ackr1
        .xrefs
        .iter()
        .filter(|x| x.kind == XrefKind::PreferredMappedTo)
        .map(|x| x.target.as_str())
        .collect();
    assert_eq!(preferred, ["MESH:D004375"]);
    for concept in &read.concepts {
        let preferred = concept
            .xrefs
            .iter()
            .filter(|x| x.kind == XrefKind::PreferredMappedTo);
        assert!(preferred.count() <= 1, "{}", concept.iri);
    }
    assert_every_concept_has_triples(&read);
}

/// A descriptor's or record's names, tree numbers and `Kind target` mapped-to headings.
type Summary = (BTreeSet<String>, BTreeSet<String>, BTreeSet<String>);

#[test]
fn real_mesh_rows_agree_with_mesh_tsv_to_rdf() {
    // Rows of each file compared; `ONTORESOLVE_MESH_COMPARE_ROWS` raises it for a fuller run.
    let limit: usize = std::env::var("ONTORESOLVE_MESH_COMPARE_ROWS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3000);
    let tool = shared_data().join("../tools/mesh-tsv-to-rdf");
    let mesh_dir = shared_data().join("mesh");
    if !tool.exists() || !mesh_dir.exists() {
        skip(&format!(
            "{} or {} is absent",
            tool.display(),
            mesh_dir.display()
        ));
        return;
    }
    let out = tempfile::NamedTempFile::new().expect("temp file");
    let status = std::process::Command::new("python3")
        .arg(&tool)
        .arg(out.path())
        .args(["--data".as_ref(), mesh_dir.as_os_str()])
        .args(["--limit", &limit.to_string()])
        .status();
    if !status.is_ok_and(|s| s.success()) {
        skip(&format!("cannot run python3 {}", tool.display()));
        return;
    }
    let theirs = summarize_rdf(&std::fs::read_to_string(out.path()).expect("reads"));
    let mut inputs = Vec::new();
    for name in [
        "mesh2024_descriptors.tsv.gz",
        "mesh2024_supplementary.tsv.gz",
    ] {
        let file = std::fs::File::open(mesh_dir.join(name)).expect("opens");
        let head: Vec<u8> = open_reader(file)
            .expect("opens")
            .split(b'\n')
            .take(limit)
            .flat_map(|line| line.expect("reads").into_iter().chain([b'\n']))
            .collect();
        let reader: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(head));
        inputs.push((PathBuf::from(name), reader));
    }
    let read = read(
        TableFormat::MeshTsv,
        inputs,
        crate::model::SourceIdx(0),
        &test_prefixes(),
    )
    .expect("reads");
    // The first rows alone leave some parents out; nothing else may go wrong.
    let unjoined = |p: &RowProblem| p.message.contains("no descriptor holds its parent");
    assert!(read.problems.iter().all(unjoined), "{:?}", read.problems);
    assert_eq!(read.concepts.len(), theirs.len());
    for concept in &read.concepts {
        let names = concept.labels.iter().map(|l| l.text.clone()).collect();
        let trees = concept.tree_numbers.iter().cloned().collect();
        let mapped = concept
            .xrefs
            .iter()
            .filter(|x| matches!(x.kind, XrefKind::PreferredMappedTo | XrefKind::MappedTo))
            .map(|x| format!("{:?} {}", x.kind, x.target.trim_start_matches("MESH:")))
            .collect();
        let ours: Summary = (names, trees, mapped);
        assert_eq!(Some(&ours), theirs.get(&concept.iri), "{}", concept.iri);
    }
}

/// The same summary from the tool's N-Triples: names through preferredConcept and its terms.
fn summarize_rdf(ntriples: &str) -> HashMap<String, Summary> {
    let meshv = "http://id.nlm.nih.gov/mesh/vocab#";
    let mut edges: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let mut records = BTreeSet::new();
    for triple in oxttl::NTriplesParser::new().for_slice(ntriples.as_bytes()) {
        let triple = triple.expect("valid N-Triples");
        let s = triple
            .subject
            .to_string()
            .trim_matches(['<', '>'])
            .to_string();
        let p = triple.predicate.as_str().to_string();
        let o = match &triple.object {
            oxrdf::Term::NamedNode(n) => n.as_str().to_string(),
            oxrdf::Term::Literal(l) => l.value().to_string(),
            other => other.to_string(),
        };
        let id = s.strip_prefix(mesh::MESH).unwrap_or("");
        if p == format!("{meshv}identifier") && id.starts_with(['D', 'C']) {
            records.insert(s.clone());
        }
        edges.entry(s).or_default().push((p, o));
    }
    let objects = |s: &str, p: &str| -> Vec<String> {
        let p = format!("{meshv}{p}");
        edges
            .get(s)
            .into_iter()
            .flatten()
            .filter(|(q, _)| *q == p)
            .map(|(_, o)| o.clone())
            .collect()
    };
    let mut out = HashMap::new();
    for record in records {
        let mut names = BTreeSet::new();
        for concept in objects(&record, "preferredConcept") {
            for term in objects(&concept, "preferredTerm")
                .into_iter()
                .chain(objects(&concept, "term"))
            {
                names.extend(objects(&term, "prefLabel"));
            }
        }
        let trees = objects(&record, "treeNumber")
            .iter()
            .map(|t| t.trim_start_matches(mesh::MESH).to_string())
            .collect();
        let mut mapped = BTreeSet::new();
        for (p, kind) in [
            ("preferredMappedTo", "PreferredMappedTo"),
            ("mappedTo", "MappedTo"),
        ] {
            for target in objects(&record, p) {
                mapped.insert(format!("{kind} {}", target.trim_start_matches(mesh::MESH)));
            }
        }
        out.insert(record, (names, trees, mapped));
    }
    out
}

#[test]
fn real_hgnc_table_reads_withdrawals_and_symbols() {
    let Some(read) = read_real(TableFormat::HgncTsv, &["genes/hgnc_entries.tsv.gz"]) else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.concepts.len() as u64, read.rows);
    let hgnc = |n: u32| find(&read, &format!("http://identifiers.org/hgnc/{n}"));
    let dfna2 = hgnc(2792);
    assert!(dfna2.withdrawn && dfna2.obsolete);
    let targets: Vec<&str> = dfna2
        .replacements
        .iter()
        .map(|r| r.target.as_str())
        .collect();
    assert_eq!(
        targets,
        [
            "http://identifiers.org/hgnc/4285",
            "http://identifiers.org/hgnc/6298"
        ]
    );
    let abc1 = hgnc(24);
    assert!(abc1.withdrawn);
    assert_eq!(texts(abc1, LabelKind::ApprovedSymbol), ["ABC1"]);
    assert_eq!(texts(hgnc(10884), LabelKind::ApprovedSymbol), ["GEMIN2"]);
    assert!(texts(hgnc(10884), LabelKind::PreviousSymbol).contains(&"SIP1"));
    for (n, symbol) in [(10784, "SCAF11"), (14881, "ZEB2")] {
        assert_eq!(texts(hgnc(n), LabelKind::ApprovedSymbol), [symbol]);
        assert!(
            texts(hgnc(n), LabelKind::AliasSymbol).contains(&"SIP1"),
            "{symbol}"
        );
    }
    let withdrawn = read.concepts.iter().filter(|c| c.withdrawn).count();
    assert_eq!(withdrawn, 3381 + 1795);
    assert_every_concept_has_triples(&read);
}

#[test]
fn real_gene_info_reads_tp53() {
    let Some(read) = read_real(
        TableFormat::GeneInfo,
        &["genes/Homo_sapiens.gene_info-2020-01-29.gz"],
    ) else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.concepts.len() as u64, read.rows);
    let tp53 = find(&read, "https://www.ncbi.nlm.nih.gov/gene/7157");
    assert_eq!(texts(tp53, LabelKind::ApprovedSymbol), ["TP53"]);
    assert!(
        tp53.xrefs
            .iter()
            .any(|x| x.target == "HGNC:11998" && x.kind == XrefKind::ExactMatch)
    );
    assert_every_concept_has_triples(&read);
}

#[test]
fn real_mondo_compact_json_reads_every_term() {
    // The bundled copy, the same bytes as the shared data's
    // obo/mondo-json/MONDO-ontology-v2026-05-05.json.zst (an absolute path joins as itself).
    let bundled =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ontologies/mondo-2026-05-05.json.zst");
    let Some(read) = read_real(TableFormat::CompactJson, &[&bundled.to_string_lossy()]) else {
        return;
    };
    assert_eq!((read.rows, read.concepts.len()), (31_958, 31_958));
    // Only two `consider` targets (`hgnc.…`) are no identifier; their terms load.
    assert_eq!(read.problems.len(), 2, "{:?}", read.problems);
    for problem in &read.problems {
        assert_eq!(problem.outcome, RowOutcome::KeptWithNote);
        assert!(problem.message.contains("\"hgnc."), "{}", problem.message);
    }
    let mondo = |local: &str| {
        find(
            &read,
            &format!("http://purl.obolibrary.org/obo/MONDO_{local}"),
        )
    };
    let dmd = mondo("0010679");
    assert_eq!(dmd.curie.as_deref(), Some("MONDO:0010679"));
    assert_eq!(
        texts(dmd, LabelKind::Label),
        ["Duchenne muscular dystrophy"]
    );
    let synonyms = texts(dmd, LabelKind::AltLabel);
    assert!(synonyms.contains(&"DMD"), "{synonyms:?}");
    assert!(!synonyms.contains(&"Duchenne muscular dystrophy"));
    let parents: Vec<&str> = dmd.parents.iter().map(|l| l.iri.as_str()).collect();
    assert_eq!(parents, ["http://purl.obolibrary.org/obo/MONDO_0700285"]);
    let replaced = mondo("0000002");
    assert!(replaced.obsolete);
    let targets: Vec<&str> = replaced
        .replacements
        .iter()
        .map(|r| r.target.as_str())
        .collect();
    assert_eq!(targets, ["http://purl.obolibrary.org/obo/MONDO_0009299"]);

    let count = |keep: &dyn Fn(&Concept) -> bool| read.concepts.iter().filter(|c| keep(c)).count();
    assert_eq!(count(&|c| c.obsolete), 3968);
    assert_eq!(count(&|c| !c.definitions.is_empty()), 19_909);
    // Deprecated merged terms have an empty label: loaded without one, for the replacement.
    assert_eq!(count(&|c| c.labels.is_empty()), 74);
    assert!(
        read.concepts
            .iter()
            .filter(|c| c.labels.is_empty())
            .all(|c| c.obsolete)
    );
    assert_eq!(
        count(&|c| !c.obsolete && c.parents.is_empty()),
        4,
        "the roots"
    );
    let terms: HashSet<&str> = read.concepts.iter().map(|c| c.iri.as_str()).collect();
    let links: Vec<&str> = read
        .concepts
        .iter()
        .flat_map(|c| &c.parents)
        .map(|l| l.iri.as_str())
        .collect();
    assert_eq!(links.len(), 41_908);
    assert!(links.iter().all(|iri| terms.contains(iri)));
    let alt_labels: usize = read
        .concepts
        .iter()
        .map(|c| texts(c, LabelKind::AltLabel).len())
        .sum();
    assert_eq!(alt_labels, 62_096);
    assert_every_concept_has_triples(&read);
}

#[test]
fn real_doid_obographs_reads_the_first_graph_with_its_release() {
    let Some(read) = read_real(
        TableFormat::ObographsJson,
        &["obographs/doid-2018-07-05.json.gz"],
    ) else {
        return;
    };
    // The first graph: 11,305 classes and 23 properties, 11,345 edges; the 12 import graphs
    // after it (another 6,037 classes, 17,342 in all) are not read.
    assert_eq!((read.rows, read.concepts.len()), (11_328 + 11_345, 11_305));
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let release = read.release.as_ref().expect("the file states its release");
    assert_eq!(
        (release.value.as_str(), release.property.as_str()),
        ("2018-07-05", "owl:versionIRI")
    );
    let doid = |local: &str| {
        find(
            &read,
            &format!("http://purl.obolibrary.org/obo/DOID_{local}"),
        )
    };
    let wegener = doid("12132");
    assert_eq!(wegener.curie.as_deref(), Some("DOID:12132"));
    assert_eq!(
        texts(wegener, LabelKind::Label),
        ["Wegener's granulomatosis"]
    );
    assert!(texts(wegener, LabelKind::ExactSynonym).contains(&"Wegener granulomatosis"));
    assert!(
        wegener
            .xrefs
            .iter()
            .any(|x| x.target == "MESH:D014890" && x.kind == XrefKind::DbXref)
    );
    assert_eq!(wegener.parents.len(), 4);
    assert!(
        wegener.definitions[0]
            .text
            .starts_with("An autoimmune disease")
    );

    let count = |keep: &dyn Fn(&Concept) -> bool| read.concepts.iter().filter(|c| keep(c)).count();
    assert_eq!(count(&|c| c.obsolete), 2399);
    assert_eq!(count(&|c| !c.definitions.is_empty()), 5815);
    assert_eq!(
        count(&|c| !c.obsolete && c.parents.is_empty()),
        1,
        "the root"
    );
    let alt_ids: usize = read.concepts.iter().map(|c| c.alt_ids.len()).sum();
    assert_eq!(alt_ids, 1630);
    let links: usize = read.concepts.iter().map(|c| c.parents.len()).sum();
    assert_eq!(links, 10_173);
    assert!(read.concepts.iter().all(|c| c.iri.contains("/DOID_")));
    assert_every_concept_has_triples(&read);
}
