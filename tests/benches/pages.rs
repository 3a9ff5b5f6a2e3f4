//! Concept page latency in-process, part by part, on a built index: the record
//! (`get_concept`), the mappings (`map_identifier`, inference on), the path to the root, and
//! the whole page as `/concept/{curie}` answers it, over concepts of every loaded source.
//! `scripts/bench-pages` measures the same pages over HTTP.

use std::path::PathBuf;
use std::time::Instant;

use axum::http::Uri;
use ontoresolve::mcp::dto::{IdentifierArgs, MapArgs};
use ontoresolve::mcp::tools;
use ontoresolve::resolve::Resolver;

#[path = "timing.rs"]
mod timing;
use timing::report;

fn main() {
    let index = std::env::var_os("ONTORESOLVE_BENCH_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("index"));
    let r = Resolver::open(&index)
        .expect("a built index (ontoresolve build, or ONTORESOLVE_BENCH_INDEX)");
    let mut ids = vec!["MONDO:0005148".to_string()];
    for prefix in ["MONDO:", "HP:", "MESH:D", "HGNC:"] {
        let all = (r.lexicon().complete_identifier(prefix, 400)).expect("the index reads");
        ids.extend(all.into_iter().step_by(4));
    }
    let (mut record, mut maps, mut root, mut page, mut bytes) =
        (vec![], vec![], vec![], vec![], 0usize);
    for _ in 0..3 {
        for id in &ids {
            let t = Instant::now();
            let args = IdentifierArgs {
                identifier: id.clone(),
                release: None,
            };
            let _ = tools::get_concept(&r, &args);
            record.push(t.elapsed());
            let t = Instant::now();
            let args = MapArgs {
                identifier: id.clone(),
                targets: None,
                include_inferred: Some(true),
                include_predicted: Some(false),
                cursor: None,
            };
            let _ = tools::map_identifier(&r, &args);
            maps.push(t.elapsed());
            let t = Instant::now();
            if let Some(m) = r.lexicon().lookup_id(id).expect("the index reads").first() {
                let _ = r
                    .browsing()
                    .path_to_root(m.concept)
                    .expect("the index reads");
            }
            root.push(t.elapsed());
            let uri: Uri = format!("/concept/{id}").parse().expect("a path");
            let t = Instant::now();
            let response = ontoresolve::pages::concept_response(&r, &uri, Some("text/html"));
            page.push(t.elapsed());
            bytes += usize::from(response.status().is_success());
        }
    }
    println!("{} concepts, {} pages answered 200", ids.len(), bytes / 3);
    let first = |all: &[std::time::Duration]| all.iter().step_by(ids.len()).copied().collect();
    report("MONDO:0005148: get_concept", first(&record));
    report("MONDO:0005148: map_identifier", first(&maps));
    report("MONDO:0005148: path to the root", first(&root));
    report("MONDO:0005148: whole page", first(&page));
    report("get_concept (tool)", record);
    report("map_identifier, inference on (tool)", maps);
    report("path to the root (core)", root);
    report("concept page, whole (HTML)", page);
}
