//! Header (YAML subset, external `.sssom.yml`) and gilda inputs, as small inline fixtures.

use std::io::Write;

use tempfile::NamedTempFile;

use super::yaml::{self, YamlValue};
use super::*;

const ROW: &str = "subject_id\tpredicate_id\tobject_id\tmapping_justification\n\
                   MONDO:1\tskos:exactMatch\tmesh:D1\tsemapv:LexicalMatching\n";

fn temp_file(content: &str) -> NamedTempFile {
    let mut file = NamedTempFile::new().unwrap();
    file.write_all(content.as_bytes()).unwrap();
    file.flush().unwrap();
    file
}

fn header_of(text: &str) -> Result<SetHeader, SssomError> {
    let file = temp_file(text);
    open_sssom_tsv(file.path(), None).map(|rows| rows.header().clone())
}

fn yaml_lines(text: &str) -> Vec<(u64, String)> {
    (1..).zip(text.lines().map(str::to_string)).collect()
}

#[test]
fn header_with_a_list_joins_its_items_with_pipes() {
    // mp_hp_mgi_all's style: keys at `#`, items and prefixes one space in.
    let text = format!(
        "#mapping_set_id: https://example.org/set\n#creator_id:\n# - orcid:0000-0003-4606-0597\n\
         # - ror:021sy4w91\n#license: https://creativecommons.org/licenses/by/4.0/\n#curie_map:\n\
         # MONDO: http://purl.obolibrary.org/obo/MONDO_\n# mesh: http://identifiers.org/mesh/\n{ROW}"
    );
    let header = header_of(&text).unwrap();
    assert_eq!(
        header.other["creator_id"],
        "orcid:0000-0003-4606-0597|ror:021sy4w91"
    );
    assert_eq!(header.curie_map.len(), 2);
    assert_eq!(
        header.license.as_deref(),
        Some("https://creativecommons.org/licenses/by/4.0/")
    );
}

#[test]
fn quoted_and_continued_header_values_are_unquoted_and_folded() {
    let text = format!(
        "# curie_map:\n#   MONDO: http://purl.obolibrary.org/obo/MONDO_\n#   mesh: http://identifiers.org/mesh/\n\
         #   fma: 'https://example.org/fma?id=FMA:'\n\
         # mapping_set_description: 'Some MP to\n#      EFO mappings, it''s curated'\n\
         # mapping_set_title: \"A \\\"title\\\"\"  # a comment\n\
         # comment: plain text # cut here\n\
         # mapping_set_version: '2024-01-01'\n{ROW}"
    );
    let header = header_of(&text).unwrap();
    assert_eq!(
        header.mapping_set_description.as_deref(),
        Some("Some MP to EFO mappings, it's curated")
    );
    assert_eq!(header.mapping_set_title.as_deref(), Some("A \"title\""));
    assert_eq!(header.other["comment"], "plain text");
    assert_eq!(header.mapping_set_version.as_deref(), Some("2024-01-01"));
    assert_eq!(header.curie_map["fma"], "https://example.org/fma?id=FMA:");
}

#[test]
fn external_yml_supplies_license_and_the_embedded_header_wins() {
    let yml = temp_file(
        "license: https://creativecommons.org/publicdomain/zero/1.0/\n\
         mapping_set_id: https://example.org/external\nmapping_tool: ext_tool\n\
         curie_map:\n  MONDO: http://example.org/wrong/\n  mesh: http://identifiers.org/mesh/\n",
    );
    let tsv = temp_file(&format!(
        "# mapping_set_id: https://example.org/embedded\n# curie_map:\n#   MONDO: http://purl.obolibrary.org/obo/MONDO_\n{ROW}"
    ));
    let rows = open_sssom_tsv(tsv.path(), Some(yml.path())).unwrap();
    let header = rows.header().clone();
    assert_eq!(
        header.license.as_deref(),
        Some("https://creativecommons.org/publicdomain/zero/1.0/")
    );
    assert_eq!(
        header.mapping_set_id.as_deref(),
        Some("https://example.org/embedded")
    );
    assert_eq!(
        header.curie_map["MONDO"],
        "http://purl.obolibrary.org/obo/MONDO_"
    );
    let row = rows.into_iter().next().unwrap().unwrap().unwrap();
    assert_eq!(row.mapping_tool.as_deref(), Some("ext_tool"));
    assert!(
        matches!(row.object, RowId::Expanded { ref iri, .. } if iri == "http://identifiers.org/mesh/D1")
    );
}

#[test]
fn a_header_line_that_is_not_yaml_is_an_error_at_its_line() {
    let error = header_of(&format!(
        "# mapping_set_id: x\n# This file was made by hand\n{ROW}"
    ))
    .unwrap_err();
    match error {
        SssomError::Header { line, message, .. } => {
            assert_eq!(line, 2);
            assert!(message.contains("expected `key: value`"), "{message}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn an_unterminated_quote_in_the_header_is_an_error() {
    let error = header_of(&format!("# mapping_set_title: 'open\n{ROW}")).unwrap_err();
    assert!(
        matches!(error, SssomError::Header { line: 1, .. }),
        "{error}"
    );
}

#[test]
fn a_curie_map_nested_deeper_is_an_error_but_other_structures_are_noted_and_ignored() {
    let nested = "# curie_map:\n#   MONDO:\n#     iri: http://x/\n";
    let error = header_of(&format!("{nested}{ROW}")).unwrap_err();
    assert!(
        matches!(error, SssomError::Header { line: 1, .. }),
        "{error}"
    );
    let extensions = "# extension_definitions:\n#   - slot_name: ext_x\n#     property: ex:x\n\
                      # curie_map:\n#   MONDO: http://purl.obolibrary.org/obo/MONDO_\n#   mesh: http://identifiers.org/mesh/\n";
    let header = header_of(&format!("{extensions}{ROW}")).unwrap();
    assert_eq!(header.notes.len(), 1);
    assert!(header.notes[0].contains("extension_definitions"));
    assert_eq!(header.curie_map.len(), 2);
}

#[test]
fn a_header_over_the_line_limit_is_refused() {
    let mut text = String::new();
    for i in 0..=MAX_HEADER_LINES {
        text.push_str(&format!("# key_{i}: value\n"));
    }
    text.push_str(ROW);
    let error = header_of(&text).unwrap_err();
    assert!(matches!(error, SssomError::Header { .. }), "{error}");
}

#[test]
fn yaml_subset_reads_flow_lists_block_scalars_and_skips_comments() {
    let entries = yaml::parse(&yaml_lines(
        "---\n## a comment\nsee_also: [a, 'b, c']\ndescription: >\n  one\n  two\nempty:\n",
    ))
    .unwrap();
    let values: Vec<(&str, &YamlValue)> =
        entries.iter().map(|e| (e.key.as_str(), &e.value)).collect();
    assert_eq!(
        values,
        [
            (
                "see_also",
                &YamlValue::List(vec!["a".into(), "b, c".into()])
            ),
            ("description", &YamlValue::Scalar("one two".into())),
            ("empty", &YamlValue::Scalar(String::new())),
        ]
    );
}

fn gilda_rows(text: &str) -> (Vec<MappingRow>, Vec<RowProblem>) {
    let file = temp_file(text);
    let (mut rows, mut problems) = (Vec::new(), Vec::new());
    for row in open_gilda_tsv(file.path()).unwrap() {
        match row.unwrap() {
            Ok(row) => rows.push(row),
            Err(problem) => problems.push(problem),
        }
    }
    (rows, problems)
}

#[test]
fn gilda_namespaces_prefix_bare_ids_and_keep_prefixed_ones() {
    let (rows, problems) = gilda_rows(
        "MESH\tC000002\tbevonium\tCHEBI\tCHEBI:135495\tbevonium\n\
         MESH\tD1\tx\tHGNC\t847\tGENE\n\nMESH\tD2\ty\tFPLX\tX\tX\n",
    );
    assert!(problems.is_empty(), "{problems:?}");
    let ids: Vec<(&RowId, &RowId)> = rows.iter().map(|r| (&r.subject, &r.object)).collect();
    let curie = |s: &str| RowId::Curie(s.into());
    assert_eq!(
        ids,
        [
            (&curie("MESH:C000002"), &curie("CHEBI:135495")),
            (&curie("MESH:D1"), &curie("HGNC:847")),
            (&curie("MESH:D2"), &curie("FPLX:X")),
        ]
    );
    assert_eq!(rows[0].predicate, MappingPredicate::ExactMatch);
    assert_eq!(rows[0].justification, "semapv:UnspecifiedMatching");
    assert_eq!(rows[0].subject_label.as_deref(), Some("bevonium"));
    assert_eq!(rows[0].mapping_tool, None);
    assert_eq!(rows[2].line, 4);
}

#[test]
fn gilda_rows_with_wrong_cell_counts_or_empty_ids_are_problems() {
    let (rows, problems) = gilda_rows("MESH\tC1\tx\tCHEBI\n\tC2\tx\tCHEBI\tCHEBI:1\ty\n");
    assert!(rows.is_empty());
    assert_eq!(problems[0].message, "row has 4 cells, not 6");
    assert_eq!(problems[1].message, "empty subject namespace or id");
}
