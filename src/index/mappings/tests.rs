//! The mapping index's writer and reader on small hand-made segments: hubs over pages, fan-out,
//! hops, and segments read as one.

use super::*;
use crate::model::EvidenceOrigin;

fn evidence(set: u16) -> Evidence {
    Evidence {
        set,
        origin: EvidenceOrigin::MappingSet,
        justification: "semapv:ManualMappingCuration".into(),
        confidence_milli: None,
        author_id: Vec::new(),
        reviewer_id: Vec::new(),
        mapping_tool: None,
        mapping_date: None,
        source_predicate: None,
        line: Some(u64::from(set) + 10),
        comment: None,
    }
}

#[test]
fn a_pair_stated_by_two_sets_is_one_edge_on_each_side() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut writer = MappingIndexWriter::spilling(dir.path(), "test");
    let exact = MappingPredicate::ExactMatch;
    for set in [0, 1] {
        assert!(writer.add(&Statement {
            subject: "MESH:C000089",
            predicate: &exact,
            object: "CHEBI:28646",
            negated: false,
            evidence: &evidence(set),
        }));
    }
    assert!(writer.add(&Statement {
        subject: "MESH:C000089",
        predicate: &exact,
        object: NO_TERM_FOUND,
        negated: false,
        evidence: &evidence(2),
    }));
    let files = crate::index::BuildLayout::new(dir.path()).mapping_segment("test");
    let counts = writer.finish(&files, &[]).expect("finish");
    assert_eq!(counts.identifiers, 2);
    assert_eq!(counts.statements, 3);
    assert_eq!(counts.mappings, 2);
    let index = MappingIndex::open(&[(files, SegmentRole::MappingSets)]).expect("open");
    let mesh = index.node("MESH:C000089").expect("read").expect("node");
    let chebi_edge = mesh
        .edges
        .iter()
        .find(|e| e.other == "CHEBI:28646")
        .expect("edge");
    assert_eq!(chebi_edge.evidence.len(), 2);
    assert!(!chebi_edge.inverted);
    let chebi = index.node("CHEBI:28646").expect("read").expect("node");
    assert!(chebi.edges[0].inverted);
    assert_eq!(chebi.edges[0].evidence.len(), 2);
    assert!(index.node("CHEBI:1").expect("read").is_none());
    assert_eq!(
        index.fan_out("MESH:C000089").expect("read"),
        vec![("CHEBI".to_string(), 1)]
    );
    let hops = index.hops("MESH:C000089").expect("read").expect("node");
    assert_eq!(hops.edges.len(), 1, "the NoTermFound row is no hop");
    assert!(index.node(NO_TERM_FOUND).expect("read").is_none());
}

#[test]
fn a_hub_named_by_more_edges_than_a_page_reads_back_whole_with_its_fan_out_and_hops() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut writer = MappingIndexWriter::spilling(dir.path(), "test");
    let (xref, exact) = (MappingPredicate::DbXref, MappingPredicate::ExactMatch);
    let mut add = |subject: &str, predicate: &MappingPredicate, set: u16| {
        assert!(writer.add(&Statement {
            subject,
            predicate,
            object: "GC_ID:1",
            negated: false,
            evidence: &evidence(set),
        }));
    };
    let xrefs = 2 * PAGE_EDGES + 100;
    for i in 0..xrefs {
        add(&format!("SYNTAX:{i}"), &xref, 0);
    }
    let exacts = PAGE_EDGES + 7;
    for i in 0..exacts {
        add(&format!("X:{i}"), &exact, 0);
    }
    add("X:5", &exact, 1);
    add("X:7", &xref, 0);
    let files = crate::index::BuildLayout::new(dir.path()).mapping_segment("test");
    let counts = writer.finish(&files, &[]).expect("finish");
    assert_eq!(counts.identifiers as usize, 1 + xrefs + exacts);
    assert_eq!(counts.mappings as usize, xrefs + exacts + 1);
    let index = MappingIndex::open(&[(files, SegmentRole::MappingSets)]).expect("open");
    let hub_edges = xrefs + exacts + 1;
    assert_eq!(
        index.records() as usize,
        counts.identifiers as usize - 1 + hub_edges.div_ceil(PAGE_EDGES),
        "the hub spans a record per page"
    );
    let hub = index.node("GC_ID:1").expect("read").expect("node");
    assert_eq!(hub.earlier_pages, 0, "pages are joined on reading");
    match index.node_within("GC_ID:1", hub_edges as u64 - 1) {
        Ok(Some(NodeRead::TooMany { edges })) => assert_eq!(edges, hub_edges as u64),
        other => panic!("a hub over the bound is counted, not read: {other:?}"),
    }
    assert!(matches!(
        index.node_within("GC_ID:1", hub_edges as u64),
        Ok(Some(NodeRead::Whole(n))) if n.edges.len() == hub_edges
    ));
    assert_eq!(hub.edges.len(), hub_edges);
    assert!(hub.edges.iter().all(|e| e.inverted));
    let others: Vec<&str> = hub.edges.iter().map(|e| e.other.as_str()).collect();
    assert!(others.is_sorted(), "edges in identifier order across pages");
    let x5 = hub.edges.iter().find(|e| e.other == "X:5").expect("X:5");
    assert_eq!(x5.evidence.len(), 2, "two sets' evidence on one edge");
    assert_eq!(
        index.fan_out("GC_ID:1").expect("read"),
        vec![("X".to_string(), exacts as u32)],
        "distinct exact targets, X:7 once"
    );
    let hops = index.hops("GC_ID:1").expect("read").expect("hops");
    assert_eq!(
        hops.edges.len(),
        exacts,
        "exact matches chain, xrefs do not"
    );
    assert!(
        matches!(
            index.hops_within("GC_ID:1", PAGE_EDGES as u64),
            Ok(Some(NodeRead::TooMany { .. }))
        ),
        "a hub's hops are not read past the bound"
    );
    assert!(matches!(
        index.hops_within("GC_ID:1", hub_edges as u64),
        Ok(Some(NodeRead::Whole(n))) if n.edges.len() == exacts
    ));
    // Records after the hub's pages still line up across the three tables.
    let after = index.node("X:5").expect("read").expect("node");
    assert_eq!(after.edges.len(), 1);
    assert_eq!(
        index.fan_out("X:5").expect("read"),
        vec![("GC_ID".to_string(), 1)]
    );
    assert_eq!(
        index.hops("X:5").expect("read").expect("hops").edges.len(),
        1
    );
}

fn xref_evidence() -> Evidence {
    Evidence {
        origin: EvidenceOrigin::SourceXref,
        line: None,
        ..evidence(0)
    }
}

/// Writes one segment named `name` of these statements `(subject, object, evidence)`.
fn segment(dir: &Path, name: &str, statements: &[(&str, &str, Evidence)]) -> MappingFiles {
    let mut writer = MappingIndexWriter::spilling(dir, name);
    for (subject, object, evidence) in statements {
        assert!(writer.add(&Statement {
            subject,
            predicate: &MappingPredicate::ExactMatch,
            object,
            negated: false,
            evidence,
        }));
    }
    let files = crate::index::BuildLayout::new(dir).mapping_segment(name);
    writer.finish(&files, &[]).expect("finish");
    files
}

#[test]
fn segments_read_as_one_index_with_a_shared_mapping_as_one_edge_and_xrefs_numbered_by_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let release = segment(
        dir.path(),
        "release",
        &[
            ("MONDO:1", "DOID:1", xref_evidence()),
            ("MONDO:2", "DOID:2", xref_evidence()),
        ],
    );
    let sets = segment(
        dir.path(),
        "sets",
        &[
            ("MONDO:1", "DOID:1", evidence(0)),
            ("MONDO:3", "DOID:2", evidence(1)),
            ("MONDO:1", "CHEBI:9", evidence(1)),
        ],
    );
    let index = MappingIndex::open(&[
        (release, SegmentRole::Release { xref_number: 3 }),
        (sets, SegmentRole::MappingSets),
    ])
    .expect("open");
    let mondo = index.node("MONDO:1").expect("read").expect("node");
    let others: Vec<&str> = mondo.edges.iter().map(|e| e.other.as_str()).collect();
    assert_eq!(
        others,
        ["CHEBI:9", "DOID:1"],
        "one edge per mapping, in order"
    );
    let doid = &mondo.edges[1].evidence;
    assert_eq!(doid.len(), 2, "the xref and the set's row: {doid:?}");
    assert!(
        doid.iter()
            .any(|e| e.origin == EvidenceOrigin::SourceXref && e.set == 3),
        "a release's xref names its source by the segment's place: {doid:?}"
    );
    // DOID:1 is mapped from MONDO:1 alone, though both segments say so; DOID:2 from two.
    assert_eq!(
        index.fan_out("DOID:1").expect("read"),
        [("MONDO".to_string(), 1)]
    );
    assert_eq!(
        index.fan_out("DOID:2").expect("read"),
        [("MONDO".to_string(), 2)]
    );
    match index.node_within("MONDO:1", 2) {
        Ok(Some(NodeRead::TooMany { edges: 3 })) => {}
        other => panic!("three edges over the segments exceed two: {other:?}"),
    }
    assert!(index.contains("MONDO:3").expect("read") && !index.contains("MONDO:4").expect("read"));
    assert_eq!(
        index.complete("MONDO:", 10).expect("read"),
        ["MONDO:1", "MONDO:2", "MONDO:3"]
    );
}

/// One statement of the split-versus-whole test: the segment it belongs to (0 and 1 are
/// releases, 2 the sets), subject, predicate, object, negated.
type Stated = (usize, String, MappingPredicate, String, bool);

fn stated_evidence(segment: usize, numbered: bool) -> Evidence {
    match segment {
        0 | 1 => Evidence {
            // A release segment is written unnumbered; the whole index numbers it.
            set: if numbered { segment as u16 } else { 0 },
            ..xref_evidence()
        },
        _ => evidence(7),
    }
}

fn write_statements(
    files: &MappingFiles,
    dir: &Path,
    name: &str,
    statements: &[&Stated],
    numbered: bool,
) {
    let mut writer = MappingIndexWriter::spilling(dir, name);
    for (segment, subject, predicate, object, negated) in statements {
        assert!(writer.add(&Statement {
            subject,
            predicate,
            object,
            negated: *negated,
            evidence: &stated_evidence(*segment, numbered),
        }));
    }
    writer.finish(files, &[]).expect("finish");
}

#[test]
fn segments_answer_as_one_index_of_the_same_statements_would() {
    let (exact, xref, broad) = (
        MappingPredicate::ExactMatch,
        MappingPredicate::DbXref,
        MappingPredicate::BroadMatch,
    );
    let s = |segment: usize, subject: &str, p: &MappingPredicate, object: &str, negated: bool| {
        (
            segment,
            subject.to_string(),
            p.clone(),
            object.to_string(),
            negated,
        )
    };
    let mut statements: Vec<Stated> = vec![
        s(0, "MONDO:1", &exact, "DOID:1", false),
        s(1, "MONDO:1", &exact, "DOID:1", false),
        s(2, "MONDO:1", &exact, "DOID:1", false),
        s(2, "MONDO:1", &exact, "DOID:2", true),
        s(1, "DOID:2", &broad, "MONDO:1", false),
        s(0, "MONDO:2", &xref, NO_TERM_FOUND, false),
        s(2, "MONDO:2", &exact, "MESH:D1", false),
        s(1, "MESH:D1", &exact, "MONDO:3", false),
    ];
    // A hub over several pages in two segments.
    for i in 0..(PAGE_EDGES + 5) {
        statements.push(s(i % 2, &format!("X:{i}"), &xref, "GC_ID:1", false));
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let layout = crate::index::BuildLayout::new(dir.path());
    let whole = layout.mapping_segment("whole");
    write_statements(
        &whole,
        dir.path(),
        "whole",
        &statements.iter().collect::<Vec<_>>(),
        true,
    );
    let mut parts = Vec::new();
    for (segment, role) in [
        SegmentRole::Release { xref_number: 0 },
        SegmentRole::Release { xref_number: 1 },
        SegmentRole::MappingSets,
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("part{segment}");
        let files = layout.mapping_segment(&name);
        let own: Vec<&Stated> = statements.iter().filter(|t| t.0 == segment).collect();
        write_statements(&files, dir.path(), &name, &own, false);
        parts.push((files, role));
    }
    let whole = MappingIndex::open(&[(whole, SegmentRole::MappingSets)]).expect("open");
    let split = MappingIndex::open(&parts).expect("open");
    let mut ids: Vec<&str> = statements
        .iter()
        .flat_map(|t| [t.1.as_str(), t.3.as_str()])
        .filter(|id| *id != NO_TERM_FOUND)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let many = |fan_out: Vec<(String, u32)>| -> Vec<(String, bool)> {
        fan_out.into_iter().map(|(p, n)| (p, n > 1)).collect()
    };
    for id in ids {
        assert_eq!(
            whole.node(id).expect("read"),
            split.node(id).expect("read"),
            "{id}"
        );
        assert_eq!(
            whole.hops(id).expect("read"),
            split.hops(id).expect("read"),
            "{id}"
        );
        assert_eq!(
            many(whole.fan_out(id).expect("read")),
            many(split.fan_out(id).expect("read")),
            "{id}"
        );
    }
    assert_eq!(
        whole.complete("X:1", 5).expect("read"),
        split.complete("X:1", 5).expect("read")
    );
}
