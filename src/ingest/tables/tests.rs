//! Helpers shared by the table readers' tests, and tests of what all formats share: line
//! reading, duplicate rows, limits and the finishing of concepts.

use std::io::BufRead;
use std::path::PathBuf;

use super::*;
use crate::ingest::TableFormat;
use crate::model::{PrefixMap, PrefixRule};

/// MESH, HGNC and NCBIGene, as the registry spells them.
pub(super) fn test_prefixes() -> PrefixMap {
    PrefixMap::new(
        [
            ("MESH", "http://id.nlm.nih.gov/mesh/"),
            ("HGNC", "http://identifiers.org/hgnc/"),
            ("NCBIGene", "https://www.ncbi.nlm.nih.gov/gene/"),
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
