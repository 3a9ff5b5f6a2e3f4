//! Helpers shared by the table readers' tests, and tests of what all formats share: line
//! reading, duplicate rows, limits and the finishing of concepts.

use std::io::BufRead;
use std::path::PathBuf;

use super::*;
use crate::ingest::TableFormat;
use crate::model::{PrefixMap, PrefixRule};

/// MESH, HGNC, NCBIGene and SO, as the registry spells them.
pub(super) fn test_prefixes() -> PrefixMap {
    PrefixMap::new(
        [
            ("MESH", "http://id.nlm.nih.gov/mesh/"),
            ("HGNC", "http://identifiers.org/hgnc/"),
            ("NCBIGene", "https://www.ncbi.nlm.nih.gov/gene/"),
            ("SO", "http://purl.obolibrary.org/obo/SO_"),
        ]
        .map(|(prefix, uri_prefix)| PrefixRule {
            prefix: prefix.into(),
            uri_prefix: uri_prefix.into(),
        }),
    )
}

pub(super) fn try_read_str(
    format: TableFormat,
    files: &[(&str, &str)],
) -> Result<TableConcepts, IngestError> {
    let inputs = files
        .iter()
        .map(|(name, text)| {
            let reader: Box<dyn BufRead + Send> =
                Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
            (PathBuf::from(name), reader)
        })
        .collect();
    read(format, inputs, crate::model::SourceIdx(3), &test_prefixes())
}

pub(super) fn read_str(format: TableFormat, files: &[(&str, &str)]) -> TableConcepts {
    try_read_str(format, files).expect("reads")
}

#[test]
fn lines_end_with_lf_or_crlf_and_blank_lines_are_not_rows() {
    let read = read_str(
        TableFormat::MeshTsv,
        &[("m", "D1\tOne\t\tA01\r\n\n  \nD2\tTwo\t\tA01.100\t\n")],
    );
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    assert_eq!(read.rows, 2);
    assert_eq!(read.concepts[1].parents.len(), 1);
    assert_eq!(read.concepts[0].source, crate::model::SourceIdx(3));
}

#[test]
fn overlong_and_non_utf8_lines_are_problems_with_their_line() {
    let mut bytes = b"D1\tOne\t\tA01\t\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    bytes.extend(b"\nD2\t\xff\t\tA02\t\nD3\tThree\t\tA03\t\n");
    let reader: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(bytes));
    let read = read(
        TableFormat::MeshTsv,
        vec![(PathBuf::from("m"), reader)],
        crate::model::SourceIdx(0),
        &test_prefixes(),
    )
    .expect("reads");
    assert_eq!(read.concepts.len(), 2);
    let lines: Vec<u64> = read.problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, [2, 3]);
    assert!(read.problems[0].message.contains("longer than"));
    assert!(read.problems[1].message.contains("UTF-8"));
}

#[test]
fn later_row_for_the_same_id_is_a_problem_and_the_first_is_kept() {
    let read = read_str(
        TableFormat::MeshTsv,
        &[
            ("a", "D1\tFirst\t\tA01\t\n"),
            ("b", "D1\tSecond\t\tA02\t\n"),
        ],
    );
    assert_eq!(read.concepts.len(), 1);
    assert_eq!(read.concepts[0].labels[0].text, "First");
    assert_eq!(read.problems[0].file, PathBuf::from("b"));
    assert_eq!(read.problems[0].line, 1);
}

#[test]
fn files_of_one_source_join_across_files() {
    let read = read_str(
        TableFormat::MeshTsv,
        &[
            ("descriptors", "D2\tChild\t\tA01.100\t\n"),
            ("more", "D1\tRoot\t\tA01\t\n"),
            ("scr", "C1\tDrug\t\tD2\n"),
        ],
    );
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let iris: Vec<&str> = read.concepts.iter().map(|c| c.iri.as_str()).collect();
    assert_eq!(
        iris,
        [
            "http://id.nlm.nih.gov/mesh/C1",
            "http://id.nlm.nih.gov/mesh/D1",
            "http://id.nlm.nih.gov/mesh/D2"
        ],
        "sorted by IRI"
    );
    assert_eq!(read.concepts[1].children[0].iri, iris[2]);
}

#[test]
fn too_many_bad_rows_stop_the_source() {
    let garbage = "not a table row\n".repeat(MAX_ROW_PROBLEMS + 1);
    let error = try_read_str(TableFormat::MeshTsv, &[("junk", &garbage)]).unwrap_err();
    assert!(error.to_string().contains("right file"), "{error}");
}

/// `files` read twice, holding every row and spilling a run every `every` rows.
fn read_held_and_spilled(
    format: TableFormat,
    files: &[(PathBuf, Vec<u8>)],
    every: usize,
) -> (TableConcepts, TableConcepts) {
    let inputs = || -> Vec<TableInput> {
        files
            .iter()
            .map(|(name, bytes)| {
                let reader = crate::ingest::input::open_reader(std::io::Cursor::new(bytes.clone()))
                    .expect("opens");
                (name.clone(), reader)
            })
            .collect()
    };
    let held = read(
        format,
        inputs(),
        crate::model::SourceIdx(3),
        &test_prefixes(),
    )
    .expect("held");
    let dir = tempfile::tempdir().expect("temp dir");
    let prefixes = test_prefixes();
    let spilled = read_spilling(
        format,
        inputs(),
        crate::model::SourceIdx(3),
        &prefixes,
        Some((dir.path(), every)),
    )
    .expect("spilled");
    assert!(
        matches!(spilled.concepts, Collected::Merging(_)),
        "more rows than {every}: spilled"
    );
    let (rows, release) = (spilled.rows, spilled.release.clone());
    let (concepts, problems) = spilled.concepts.into_all().expect("merged");
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert!(left.is_empty(), "spill files are deleted: {left:?}");
    let spilled = TableConcepts {
        concepts,
        problems,
        rows,
        release,
    };
    (held, spilled)
}

fn bundled(name: &str) -> (PathBuf, Vec<u8>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("ontologies")
        .join(name);
    let bytes = std::fs::read(&path).expect("bundled file");
    (path, bytes)
}

fn assert_same_concepts(held: &TableConcepts, spilled: &TableConcepts) {
    assert_eq!(held.rows, spilled.rows);
    assert_eq!(held.concepts.len(), spilled.concepts.len());
    for (h, s) in held.concepts.iter().zip(&spilled.concepts) {
        assert_eq!(h, s, "{}", h.iri);
    }
    let sorted = |t: &TableConcepts| {
        let mut p: Vec<String> = t
            .problems
            .iter()
            .map(|p| format!("{}:{}: {}", p.file.display(), p.line, p.message))
            .collect();
        p.sort();
        p
    };
    assert_eq!(sorted(held), sorted(spilled));
}

#[test]
fn bundled_mesh_spilled_in_runs_gives_the_concepts_held_in_memory() {
    let files = [
        bundled("mesh2024_descriptors.tsv.gz"),
        bundled("mesh2024_supplementary.tsv.gz"),
    ];
    let (held, spilled) = read_held_and_spilled(TableFormat::MeshTsv, &files, 50_000);
    assert!(held.concepts.len() > 350_000, "{}", held.concepts.len());
    let with_parents = held
        .concepts
        .iter()
        .filter(|c| !c.parents.is_empty())
        .count();
    let with_children = held
        .concepts
        .iter()
        .filter(|c| !c.children.is_empty())
        .count();
    assert!(
        with_parents > 25_000 && with_children > 5_000,
        "{with_parents} {with_children}"
    );
    assert_same_concepts(&held, &spilled);
}

#[test]
fn bundled_hgnc_and_mondo_spilled_in_runs_give_the_concepts_held_in_memory() {
    for (format, name) in [
        (TableFormat::HgncTsv, "hgnc_entries.tsv.gz"),
        (TableFormat::CompactJson, "mondo-2026-05-05.json.zst"),
    ] {
        let (held, spilled) = read_held_and_spilled(format, &[bundled(name)], 7_000);
        assert!(
            held.concepts.len() > 20_000,
            "{name}: {}",
            held.concepts.len()
        );
        assert_same_concepts(&held, &spilled);
    }
}

#[test]
fn a_row_repeated_in_a_later_run_is_a_problem_at_its_line_and_the_first_is_kept() {
    let files = [
        (
            PathBuf::from("a"),
            b"D1\tFirst\t\tA01\t\nD2\tChild\t\tA01.100\t\n".to_vec(),
        ),
        (
            PathBuf::from("b"),
            b"D3\tOther\t\tB01\t\nD1\tSecond\t\tA02\t\n".to_vec(),
        ),
    ];
    let (held, spilled) = read_held_and_spilled(TableFormat::MeshTsv, &files, 1);
    for read in [&held, &spilled] {
        assert_eq!(read.concepts.len(), 3);
        assert_eq!(read.concepts[0].labels[0].text, "First");
        assert_eq!(
            read.concepts[0].tree_numbers,
            ["A01"],
            "the later row's trees are not kept"
        );
        assert_eq!(read.concepts[0].children.len(), 1, "D2 is D1's child");
        assert_eq!(read.problems.len(), 1, "{:?}", read.problems);
        assert_eq!(read.problems[0].file, PathBuf::from("b"));
        assert_eq!(read.problems[0].line, 2);
        assert!(read.problems[0].message.contains("appears again"));
    }
}

#[test]
fn obographs_edges_in_a_later_run_than_their_node_still_give_its_parents() {
    let json = r#"{"graphs":[{"id":"http://purl.obolibrary.org/obo/so.owl",
      "nodes":[
        {"id":"http://purl.obolibrary.org/obo/SO_0000001","type":"CLASS","lbl":"region"},
        {"id":"http://purl.obolibrary.org/obo/SO_0000704","type":"CLASS","lbl":"gene"},
        {"id":"http://purl.obolibrary.org/obo/SO_0000110","type":"CLASS","lbl":"sequence_feature"}],
      "edges":[
        {"sub":"http://purl.obolibrary.org/obo/SO_0000704","pred":"is_a","obj":"http://purl.obolibrary.org/obo/SO_0000001"},
        {"sub":"http://purl.obolibrary.org/obo/SO_0000001","pred":"is_a","obj":"http://purl.obolibrary.org/obo/SO_0000110"},
        {"sub":"http://purl.obolibrary.org/obo/SO_9999999","pred":"is_a","obj":"http://purl.obolibrary.org/obo/SO_0000110"}]}]}"#;
    let files = [(PathBuf::from("so.json"), json.as_bytes().to_vec())];
    let (held, spilled) = read_held_and_spilled(TableFormat::ObographsJson, &files, 1);
    for read in [&held, &spilled] {
        let iris: Vec<&str> = read.concepts.iter().map(|c| c.iri.as_str()).collect();
        assert_eq!(
            iris.len(),
            3,
            "an edge of an unread subject makes no concept: {iris:?}"
        );
        let gene = &read.concepts[2];
        assert_eq!(
            gene.parents[0].iri,
            "http://purl.obolibrary.org/obo/SO_0000001"
        );
        assert_eq!(
            read.concepts[0].children.len(),
            1,
            "region has gene as its child"
        );
    }
    assert_same_concepts(&held, &spilled);
}
