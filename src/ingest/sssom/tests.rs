//! Hostile and edge-case inputs, as small inline fixtures.

use std::io::Write;
use std::path::Path;

use tempfile::NamedTempFile;

use super::*;

const PREFIXES: &str = "# curie_map:\n#   MONDO: http://purl.obolibrary.org/obo/MONDO_\n#   mesh: http://identifiers.org/mesh/\n";
const COLUMNS: &str =
    "subject_id\tpredicate_id\tobject_id\tmapping_justification\tconfidence\tauthor_id\n";

fn temp_file(content: &[u8]) -> NamedTempFile {
    let mut file = NamedTempFile::new().unwrap();
    file.write_all(content).unwrap();
    file.flush().unwrap();
    file
}

/// Everything a file yields; panics on a fatal error.
fn read_all(path: &Path, external: Option<&Path>) -> (SetHeader, Vec<MappingRow>, Vec<RowProblem>) {
    let rows = open_sssom_tsv(path, external).unwrap();
    let header = rows.header().clone();
    let (mut read, mut problems) = (Vec::new(), Vec::new());
    for row in rows {
        match row.unwrap() {
            Ok(row) => read.push(row),
            Err(problem) => problems.push(problem),
        }
    }
    (header, read, problems)
}

fn read_text(text: &str) -> (SetHeader, Vec<MappingRow>, Vec<RowProblem>) {
    let file = temp_file(text.as_bytes());
    read_all(file.path(), None)
}

fn open_error(text: &str) -> SssomError {
    let file = temp_file(text.as_bytes());
    match open_sssom_tsv(file.path(), None) {
        Ok(_) => panic!("expected an error"),
        Err(error) => error,
    }
}

#[test]
fn a_row_reads_with_expanded_ids_and_predicate_iri() {
    let text = format!(
        "{PREFIXES}{COLUMNS}MONDO:0005148\tskos:exactMatch\tmesh:D003924\tsemapv:ManualMappingCuration\t0.875\torcid:1|orcid:2\n"
    );
    let (_, rows, problems) = read_text(&text);
    assert!(problems.is_empty(), "{problems:?}");
    let row = &rows[0];
    assert_eq!(row.line, 5);
    assert_eq!(
        row.subject,
        RowId::Expanded {
            curie: "MONDO:0005148".into(),
            iri: "http://purl.obolibrary.org/obo/MONDO_0005148".into()
        }
    );
    assert_eq!(row.predicate, MappingPredicate::ExactMatch);
    assert_eq!(
        row.predicate_iri.as_deref(),
        Some("http://www.w3.org/2004/02/skos/core#exactMatch")
    );
    assert_eq!(row.confidence_milli, Some(875));
    assert_eq!(row.author_id, ["orcid:1", "orcid:2"]);
    assert!(!row.negated);
}

#[test]
fn undeclared_prefix_is_reported_with_its_line_and_the_set_still_reads() {
    let text = format!(
        "{PREFIXES}{COLUMNS}MONDO:1\tskos:exactMatch\tfoo:2\tsemapv:LexicalMatching\t\t\n\
         MONDO:3\tskos:exactMatch\tmesh:D4\tsemapv:LexicalMatching\t\t\n\
         MONDO:5\tfoo:rel\tmesh:D6\tsemapv:LexicalMatching\t\t\n"
    );
    let (_, rows, problems) = read_text(&text);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].line, 6);
    assert_eq!(problems.len(), 2);
    assert_eq!(problems[0].line, 5);
    assert_eq!(problems[0].message, "undeclared prefix `foo` in object_id");
    assert_eq!(problems[1].line, 7);
    assert_eq!(
        problems[1].message,
        "undeclared prefix `foo` in predicate_id"
    );
}

#[test]
fn missing_required_column_error_names_it() {
    let error = open_error("subject_id\tpredicate_id\tobject_id\tconfidence\n");
    match error {
        SssomError::MissingColumns(names) => assert_eq!(names, ["mapping_justification"]),
        other => panic!("{other}"),
    }
}

#[test]
fn a_file_without_a_column_header_is_an_error() {
    assert!(matches!(
        open_error("# mapping_set_id: x\n\n"),
        SssomError::NoColumnHeader { .. }
    ));
}

#[test]
fn over_long_line_is_a_problem_and_reading_resumes_at_the_next_line() {
    let mut text = format!("{PREFIXES}{COLUMNS}MONDO:1\tskos:exactMatch\tmesh:D");
    text.push_str(&"9".repeat(MAX_LINE_BYTES + 10));
    text.push_str("\tsemapv:LexicalMatching\t\t\nMONDO:3\tskos:exactMatch\tmesh:D4\tsemapv:LexicalMatching\t\t\n");
    let (_, rows, problems) = read_text(&text);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, 5);
    assert!(problems[0].message.contains("longer than"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].line, 6);
}

#[test]
fn bad_confidence_modifier_and_empty_cells_skip_the_row() {
    let text = format!(
        "{PREFIXES}subject_id\tpredicate_id\tpredicate_modifier\tobject_id\tmapping_justification\tconfidence\n\
         MONDO:1\tskos:exactMatch\t\tmesh:D1\tsemapv:LexicalMatching\t1.5\n\
         MONDO:2\tskos:exactMatch\t\tmesh:D2\tsemapv:LexicalMatching\thigh\n\
         MONDO:3\tskos:exactMatch\tMaybe\tmesh:D3\tsemapv:LexicalMatching\t\n\
         MONDO:4\tskos:exactMatch\t\t\tsemapv:LexicalMatching\t\n\
         MONDO:5\tskos:exactMatch\n\
         MONDO:6\tskos:exactMatch\tNot\tmesh:D6\tsemapv:LexicalMatching\t0\n"
    );
    let (_, rows, problems) = read_text(&text);
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "confidence \"1.5\" is not a number in [0, 1]",
            "confidence \"high\" is not a number in [0, 1]",
            "predicate_modifier \"Maybe\" is neither `Not` nor empty",
            "empty object_id",
            "row has 2 cells; the required columns need 5",
        ]
    );
    assert_eq!(rows.len(), 1);
    assert!(rows[0].negated);
    assert_eq!(rows[0].confidence_milli, Some(0));
}

#[test]
fn a_row_missing_only_trailing_optional_cells_reads_them_as_empty() {
    let text =
        format!("{PREFIXES}{COLUMNS}MONDO:1\tskos:exactMatch\tmesh:D1\tsemapv:LexicalMatching\n");
    let (_, rows, problems) = read_text(&text);
    assert!(problems.is_empty());
    assert_eq!(rows[0].confidence_milli, None);
    assert!(rows[0].author_id.is_empty());
}

#[test]
fn problem_messages_stay_short_however_long_the_cell() {
    let long = "x".repeat(5_000);
    let text = format!(
        "{PREFIXES}{COLUMNS}{long}:1\tskos:exactMatch\tmesh:D1\tsemapv:LexicalMatching\t\t\n\
         MONDO:1\tskos:exactMatch\tmesh:D1\tsemapv:LexicalMatching\t{long}\t\n"
    );
    let (_, _, problems) = read_text(&text);
    assert_eq!(problems.len(), 2);
    for problem in problems {
        assert!(problem.message.chars().count() <= MAX_MESSAGE_CHARS);
        assert!(problem.message.contains('…'), "{}", problem.message);
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// Rows until the first fatal error, and that error.
fn read_until_error(bytes: &[u8]) -> (usize, Option<SssomError>) {
    let file = temp_file(bytes);
    let rows = match open_sssom_tsv(file.path(), None) {
        Ok(rows) => rows,
        Err(error) => return (0, Some(error)),
    };
    let mut count = 0;
    for row in rows {
        match row {
            Ok(_) => count += 1,
            Err(error) => return (count, Some(error)),
        }
    }
    (count, None)
}

#[test]
fn truncated_gzip_is_an_error_not_a_clean_end() {
    let mut text = format!("{PREFIXES}{COLUMNS}");
    for i in 0..20_000u64 {
        let d = i.wrapping_mul(2_654_435_761) % 1_000_000;
        text.push_str(&format!(
            "MONDO:{i}\tskos:exactMatch\tmesh:D{d}\tsemapv:LexicalMatching\t\t\n"
        ));
    }
    let whole = gzip(text.as_bytes());
    let (read, error) = read_until_error(&whole);
    assert_eq!(read, 20_000);
    assert!(error.is_none(), "{error:?}");
    let (read, error) = read_until_error(&whole[..whole.len() / 2]);
    assert!(read > 0 && read < 20_000, "{read}");
    assert!(matches!(error, Some(SssomError::Read { .. })), "{error:?}");
    let (read, error) = read_until_error(&whole[..whole.len() - 4]);
    assert!(
        error.is_some(),
        "a missing trailer passed after {read} rows"
    );
}

#[test]
fn no_term_found_and_built_in_prefixes_need_no_declaration() {
    let text = "subject_id\tpredicate_id\tobject_id\tmapping_justification\n\
                sssom:NoTermFound\toboInOwl:hasDbXref\towl:Thing\thttps://w3id.org/semapv/vocab/LexicalMatching\n";
    let (_, rows, problems) = read_text(text);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(rows[0].subject, RowId::NoTermFound);
    assert_eq!(rows[0].predicate, MappingPredicate::DbXref);
    assert_eq!(
        rows[0].object,
        RowId::Expanded {
            curie: "owl:Thing".into(),
            iri: "http://www.w3.org/2002/07/owl#Thing".into()
        }
    );
    assert_eq!(rows[0].justification, "semapv:LexicalMatching");
}

#[test]
fn an_iri_id_is_compressed_by_the_longest_declared_prefix() {
    let text = format!(
        "# curie_map:\n#   obo: http://purl.obolibrary.org/obo/\n{}{COLUMNS}\
         http://purl.obolibrary.org/obo/MONDO_1\tskos:exactMatch\thttp://example.org/x\tsemapv:LexicalMatching\n",
        &PREFIXES["# curie_map:\n".len()..]
    );
    let (_, rows, problems) = read_text(&text);
    assert!(rows.is_empty());
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0]
            .message
            .contains("IRI no declared prefix covers")
    );
    let text = text.replace("http://example.org/x", "mesh:D1");
    let (_, rows, _) = read_text(&text);
    assert_eq!(
        rows[0].subject,
        RowId::Expanded {
            curie: "MONDO:1".into(),
            iri: "http://purl.obolibrary.org/obo/MONDO_1".into()
        }
    );
}

#[test]
fn set_level_mapping_tool_and_date_fill_rows_lacking_them() {
    let text = format!(
        "{PREFIXES}# mapping_tool: rdf_matcher\n# mapping_date: 2024-01-01\n\
         subject_id\tpredicate_id\tobject_id\tmapping_justification\tmapping_tool\n\
         MONDO:1\tskos:exactMatch\tmesh:D1\tsemapv:LexicalMatching\t\n\
         MONDO:2\tskos:exactMatch\tmesh:D2\tsemapv:LexicalMatching\tother_tool\n"
    );
    let (header, rows, _) = read_text(&text);
    assert_eq!(header.propagated["mapping_tool"], "rdf_matcher");
    assert_eq!(rows[0].mapping_tool.as_deref(), Some("rdf_matcher"));
    assert_eq!(rows[1].mapping_tool.as_deref(), Some("other_tool"));
    assert_eq!(rows[1].mapping_date.as_deref(), Some("2024-01-01"));
}

#[test]
fn quoted_cells_written_by_csv_writers_are_unquoted() {
    let text = format!(
        "{PREFIXES}subject_id\tpredicate_id\tobject_id\tmapping_justification\tcomment\n\
         MONDO:1\tskos:exactMatch\tmesh:D1\tsemapv:LexicalMatching\t\"say \"\"hi\"\", then\"\n"
    );
    let (_, rows, _) = read_text(&text);
    assert_eq!(rows[0].comment.as_deref(), Some("say \"hi\", then"));
}

#[test]
fn a_comment_line_after_the_column_header_is_a_problem_not_a_row() {
    let text = format!(
        "{PREFIXES}{COLUMNS}# stray\n\nMONDO:1\tskos:exactMatch\tmesh:D1\tsemapv:LexicalMatching\n"
    );
    let (_, rows, problems) = read_text(&text);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, 5);
    assert_eq!(rows[0].line, 7);
}
