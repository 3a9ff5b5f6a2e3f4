//! Tests on the real mapping sets under the shared data directory (`ONTORESOLVE_SHARED_DATA`,
//! else `../shared/data` beside the crate). Each test skips when its files are
//! absent (`crate::test_data::skip`: it fails instead under `ONTORESOLVE_REQUIRE_DATA`).

use std::path::PathBuf;

use super::*;

use crate::test_data::{shared_data, skip};

/// What one file yielded.
struct ReadSet {
    header: SetHeader,
    rows: Vec<MappingRow>,
    problems: Vec<RowProblem>,
}

/// The path of a shared file, or `None` (after saying so) when it is absent.
fn shared_file(name: &str) -> Option<PathBuf> {
    let path = shared_data().join(name);
    if path.is_file() {
        return Some(path);
    }
    skip(&format!("{} is absent", path.display()));
    None
}

fn collect(
    name: &str,
    header: SetHeader,
    rows: impl Iterator<Item = Result<Result<MappingRow, RowProblem>, SssomError>>,
) -> ReadSet {
    let mut read = ReadSet {
        header,
        rows: Vec::new(),
        problems: Vec::new(),
    };
    for row in rows {
        match row.unwrap() {
            Ok(row) => read.rows.push(row),
            Err(problem) => read.problems.push(problem),
        }
    }
    println!(
        "{name}: {} rows, {} problems",
        read.rows.len(),
        read.problems.len()
    );
    for problem in read.problems.iter().take(5) {
        println!("  line {}: {}", problem.line, problem.message);
    }
    read
}

fn read_sssom(name: &str) -> Option<ReadSet> {
    let path = shared_file(name)?;
    let rows = open_sssom_tsv(&path, None).unwrap();
    let header = rows.header().clone();
    Some(collect(name, header, rows))
}

fn find<'a>(read: &'a ReadSet, subject: &str, object: &str) -> &'a MappingRow {
    let curie = |id: &RowId| match id {
        RowId::Expanded { curie, .. } | RowId::Curie(curie) => curie.clone(),
        RowId::NoTermFound => crate::model::NO_TERM_FOUND.to_string(),
    };
    read.rows
        .iter()
        .find(|r| curie(&r.subject) == subject && curie(&r.object) == object)
        .unwrap_or_else(|| panic!("{subject} -> {object} is read"))
}

#[test]
fn mondo_exact_mesh_set_reads_every_row_with_mesh_expanded_through_identifiers_org() {
    let Some(read) = read_sssom("sssom/mondo-2026-08-04/mondo_exactmatch_mesh.sssom.tsv.gz") else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.rows.len(), 8181);
    let header = &read.header;
    assert_eq!(header.curie_map["mesh"], "http://identifiers.org/mesh/");
    assert!(
        header
            .mapping_set_id
            .as_deref()
            .unwrap()
            .ends_with("mondo_exactmatch_mesh.sssom.tsv")
    );
    assert!(
        header
            .mapping_set_version
            .as_deref()
            .unwrap()
            .contains("2026-08-04")
    );
    assert_eq!(
        header.license.as_deref(),
        Some("https://creativecommons.org/publicdomain/zero/1.0/")
    );
    assert_eq!(header.propagated["subject_source"], "infores:mondo");
    let row = find(&read, "MONDO:0005148", "mesh:D003924");
    assert_eq!(row.line, 1006);
    assert_eq!(row.predicate, MappingPredicate::ExactMatch);
    assert_eq!(row.justification, "semapv:ManualMappingCuration");
    assert_eq!(
        row.subject_label.as_deref(),
        Some("type 2 diabetes mellitus")
    );
    assert!(
        matches!(&row.object, RowId::Expanded { iri, .. } if iri == "http://identifiers.org/mesh/D003924")
    );
}

#[test]
fn every_mondo_set_reads_without_problem_rows() {
    let dir = shared_data().join("sssom/mondo-2026-08-04");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        skip(&format!("{} is absent", dir.display()));
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".sssom.tsv.gz"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 33);
    let mut total = 0;
    for name in &names {
        let read = read_sssom(&format!("sssom/mondo-2026-08-04/{name}")).unwrap();
        assert!(read.problems.is_empty(), "{name}");
        assert!(!read.rows.is_empty(), "{name}");
        assert!(read.header.license.is_some(), "{name}");
        total += read.rows.len();
    }
    println!("{} MONDO sets: {total} rows, 0 problems", names.len());
}

#[test]
fn biomappings_negative_rows_are_negated_and_debio_predicates_expand() {
    let Some(read) = read_sssom("sssom/biomappings-0.6.0/negative.sssom.tsv") else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.rows.len(), 1887);
    assert!(read.rows.iter().all(|r| r.negated));
    assert_eq!(read.header.license, None);
    let row = find(&read, "mesh:D003924", "doid:0050524");
    assert_eq!(row.predicate, MappingPredicate::ExactMatch);
    assert_eq!(row.author_id, ["orcid:0000-0003-1307-2508"]);
    // The file declares `debio`, so its predicate expands and the row reads.
    assert_eq!(
        read.header.curie_map["debio"],
        "https://biopragmatics.github.io/debio/"
    );
    let debio = find(&read, "reactome:R-BTA-1266738", "mesh:D015509");
    assert_eq!(
        debio.predicate,
        MappingPredicate::Other("debio:0000003".into())
    );
    assert_eq!(
        debio.predicate_iri.as_deref(),
        Some("https://biopragmatics.github.io/debio/0000003")
    );
}

#[test]
fn biomappings_positive_reads_all_12441_rows() {
    let Some(read) = read_sssom("sssom/biomappings-0.6.0/positive.sssom.tsv") else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.rows.len(), 12_441);
    assert!(
        read.rows
            .iter()
            .all(|r| !r.negated && !r.author_id.is_empty())
    );
}

#[test]
fn biomappings_predictions_carry_confidence_and_mapping_tool() {
    let Some(read) = read_sssom("sssom/biomappings-0.6.0/predictions.sssom.tsv.gz") else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.rows.len(), 85_053);
    let row = find(&read, "afpo:0000136", "mesh:C000725694");
    assert_eq!(row.confidence_milli, Some(778));
    assert_eq!(row.mapping_tool.as_deref(), Some("sssom-curator"));
    assert_eq!(row.mapping_date.as_deref(), Some("2026-08-12"));
    assert_eq!(row.justification, "semapv:LexicalMatching");
}

#[test]
fn biomappings_unsure_rows_carry_reviewers() {
    let Some(read) = read_sssom("sssom/biomappings-0.6.0/unsure.sssom.tsv") else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.rows.len(), 110);
    let row = find(&read, "apollosv:00000596", "go:0044403");
    assert_eq!(row.reviewer_id, ["orcid:0000-0003-4423-4370"]);
    assert_eq!(row.mapping_tool.as_deref(), Some("mira"));
    // Its 0.0 is in reviewer_agreement; the confidence cell is empty.
    assert_eq!(row.confidence_milli, None);
}

#[test]
fn pistoia_hp_doid_reads_equivalent_class_with_confidence_and_set_level_provider() {
    let Some(read) = read_sssom("sssom/mh_mapping_initiative/hp_doid_pistoia.sssom.tsv") else {
        return;
    };
    assert!(read.problems.is_empty());
    assert_eq!(read.rows.len(), 1291);
    let header = &read.header;
    assert_eq!(
        header.mapping_set_description.as_deref(),
        Some("The Pistoia Ontology Mappings: hp_doid")
    );
    assert!(header.propagated["mapping_provider"].starts_with("https://www.pistoiaalliance.org/"));
    let row = find(&read, "HP:0000011", "DOID:12143");
    assert_eq!(row.predicate, MappingPredicate::EquivalentClass);
    assert_eq!(row.confidence_milli, Some(1000));
    assert_eq!(row.justification, "semapv:UnspecifiedMatching");
}

#[test]
fn every_mouse_human_set_reads_with_its_header() {
    let dir = shared_data().join("sssom/mh_mapping_initiative");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        skip(&format!("{} is absent", dir.display()));
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".sssom.tsv"))
        .collect();
    names.sort();
    for name in &names {
        let read = read_sssom(&format!("sssom/mh_mapping_initiative/{name}")).unwrap();
        assert!(read.problems.is_empty(), "{name}");
        assert!(read.header.mapping_set_id.is_some(), "{name}");
        assert!(
            read.header.notes.is_empty(),
            "{name}: {:?}",
            read.header.notes
        );
    }
    let Some(mgi) = read_sssom("sssom/mh_mapping_initiative/mp_hp_mgi_all.sssom.tsv") else {
        return;
    };
    assert_eq!(mgi.header.other["creator_id"].split('|').count(), 5);
    assert_eq!(mgi.header.curie_map.len(), 8);
    let efo = read_sssom("sssom/mh_mapping_initiative/mp_efo_impc.sssom.tsv").unwrap();
    let description = efo.header.mapping_set_description.unwrap();
    assert!(description.starts_with("Some Mammalian Phenotype Ontology (MP) to Experimental"));
}

#[test]
fn gilda_mesh_mappings_prefix_bare_ids_from_namespace_columns() {
    let Some(path) = shared_file("sssom/gilda-1.6.1/mesh_mappings.tsv") else {
        return;
    };
    let read = collect(
        "gilda mesh_mappings",
        SetHeader::default(),
        open_gilda_tsv(&path).unwrap(),
    );
    assert!(read.problems.is_empty());
    assert_eq!(read.rows.len(), 32_067);
    let row = find(&read, "MESH:C000089", "CHEBI:28646");
    assert_eq!(row.line, 10);
    assert_eq!(row.object_label.as_deref(), Some("ammeline"));
    let gene = find(&read, "MESH:C000628217", "HGNC:847");
    assert_eq!(gene.object_label.as_deref(), Some("ATP5PF"));
    assert!(read.rows.iter().all(|r| matches!(
        (&r.subject, &r.object),
        (RowId::Curie(s), RowId::Curie(o)) if s.starts_with("MESH:") && o.contains(':')
    )));
}
