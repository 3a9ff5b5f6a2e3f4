//! An identifier named by more mappings than one answer reads (NCBITaxon's `GC_ID:1`, cited by
//! every taxon) is answered by its count and a way on, never by reading every page; the
//! identifiers that name it still map to it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ontoresolve::mcp::dto::{MapArgs, MapBatchArgs};
use ontoresolve::mcp::tools::{self, ErrorCode};
use ontoresolve::resolve::Resolver;
use ontoresolve::resolve::mapping::MAX_ANSWER_EDGES;

use crate::support::{build_into, shared_index, single_source_catalog};

/// Taxa citing the hub, and rows of the set matching to `HUB:1`: a few over the bound.
const TAXA: u64 = MAX_ANSWER_EDGES + 40;

/// A taxonomy-shaped OBO file: every taxon cites the genetic code `GC_ID:1`, and one taxon
/// cites `GC_ID:2` as well. Beside it, a mapping set in which every `X:n` is an exact match
/// of `HUB:1`, so that a chain from one of them would run through the hub.
fn taxonomy_with_a_hub() -> &'static Resolver {
    shared_index("mapping-hub", |dir| Some(build_taxonomy(dir)))
        .expect("the taxonomy index is built")
}

fn build_taxonomy(dir: &Path) -> PathBuf {
    let mut obo = String::from("format-version: 1.2\ndata-version: 2026-01-01\nontology: syntax\n");
    for i in 1..=TAXA {
        let _ = write!(
            obo,
            "\n[Term]\nid: SYNTAX:{i}\nname: taxon number {i}\nxref: GC_ID:1\n"
        );
    }
    obo.push_str("xref: GC_ID:2\n");
    let file = dir.join("taxa.obo");
    std::fs::write(&file, obo).expect("write the taxonomy");
    let catalog = single_source_catalog(
        dir,
        "syntax",
        "obo",
        &file,
        "format = \"obo\"\nprefixes = [{ prefix = \"SYNTAX\", uri_prefix = \"http://example.org/synthetic/SYNTAX_\" }]",
    );
    let mut set = String::from(
        "# curie_map:\n#   X: http://example.org/x/\n#   HUB: http://example.org/hub/\n\
         # license: https://creativecommons.org/publicdomain/zero/1.0/\n\
         # mapping_set_id: https://example.org/hub.sssom.tsv\n\
         subject_id\tpredicate_id\tobject_id\tmapping_justification\n",
    );
    for i in 1..=TAXA {
        let _ = writeln!(
            set,
            "X:{i}\tskos:exactMatch\tHUB:1\tsemapv:ManualMappingCuration"
        );
    }
    std::fs::write(dir.join("hub.sssom.tsv"), set).expect("write the set");
    let mut text = std::fs::read_to_string(&catalog).expect("read the catalogue");
    let _ = write!(
        text,
        "\n[[source]]\nid = \"hubset\"\ntitle = \"hubset\"\nkind = \"sssom\"\npath = \"{}\"\nrelease = \"1\"\nlicense = \"CC0\"\nattribution = \"test\"\nhomepage = \"https://example.org\"\nscope = \"test\"\n",
        dir.join("hub.sssom.tsv").display()
    );
    std::fs::write(&catalog, text).expect("write the catalogue");
    let index = dir.join("index");
    build_into(&catalog, &index);
    index
}

fn map_args(identifier: &str) -> MapArgs {
    MapArgs {
        identifier: identifier.into(),
        targets: None,
        include_inferred: None,
        include_predicted: None,
        cursor: None,
    }
}

#[test]
fn a_hub_over_the_bound_is_answered_by_its_count_and_its_citers_still_map_to_it() {
    let r = taxonomy_with_a_hub();

    let hub = r
        .map_identifier("GC_ID:1", &Default::default())
        .expect("the core answers");
    assert_eq!(hub.too_many, Some(TAXA), "counted from its last page alone");
    assert!(hub.candidates.is_empty() && hub.nodes_read.is_empty());

    let error = tools::map_identifier(r, &map_args("GC_ID:1")).expect_err("a hub is refused");
    assert_eq!(error.code, ErrorCode::LimitExceeded);
    assert!(
        error.message.contains(&format!("named by {TAXA} mappings")),
        "{}",
        error.message
    );

    // Its mappings resource says the same, not "no such resource".
    let resource = tools::mappings_document(r, "GC_ID:1").expect_err("the resource is refused");
    assert_eq!(resource.code, ErrorCode::LimitExceeded);

    // A small node of the same prefix answers whole.
    let small = tools::map_identifier(r, &map_args("GC_ID:2")).expect("a small node answers");
    assert_eq!(small.total, 1);

    // Every citer maps to the hub, and the batch says why the hub's own row is empty.
    let batch = tools::map_identifiers(
        r,
        &MapBatchArgs {
            identifiers: vec!["SYNTAX:7".into(), "GC_ID:1".into()],
            targets: None,
            include_inferred: None,
            include_predicted: None,
        },
    )
    .expect("the batch answers");
    let rows = serde_json::to_value(&batch.result).expect("json")["rows"].clone();
    assert_eq!(rows[0]["candidates"][0]["object"], "GC_ID:1", "{rows}");
    assert!(rows[1]["candidates"].as_array().is_none_or(Vec::is_empty));
    let why = rows[1]["error"].as_str().unwrap_or_default();
    assert!(why.contains(&format!("named by {TAXA} mappings")), "{rows}");
}

#[test]
fn the_largest_node_of_the_default_index_still_answers_whole() {
    let r = crate::support::default_index();
    let answer = r
        .map_identifier("MESH:D001203", &Default::default())
        .expect("the core answers");
    assert_eq!(answer.too_many, None);
    assert!(
        answer.candidates.len() > 18_000,
        "18,130 supplementary records map to it: {}",
        answer.candidates.len()
    );
}

#[test]
fn a_chain_never_expands_through_a_hub_and_says_inference_was_limited() {
    let r = taxonomy_with_a_hub();
    let answer = r
        .map_identifier("X:1", &Default::default())
        .expect("the core answers");
    let objects: Vec<&str> = answer
        .candidates
        .iter()
        .map(|c| c.object.as_str())
        .collect();
    assert_eq!(
        objects,
        ["HUB:1"],
        "the direct match, and no chain through the hub"
    );
    assert!(answer.inference_limited);
}
