//! Mapping latency benchmark on a built index (the default catalogue: MONDO, biomappings and
//! gilda sets, HPO, MeSH and HGNC xrefs): `map_identifier` in the core and as the MCP tool
//! shapes it, inference on, over identifiers of every mapped vocabulary. Prints p50 and p99;
//! writes the identifiers to `bench-results/mapping-ids.txt` for `ontoresolve map`.
//! `scripts/bench-mapping` runs it beside sssom-py.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ontoresolve::mcp::dto::MapArgs;
use ontoresolve::mcp::tools;
use ontoresolve::resolve::Resolver;
use ontoresolve::resolve::mapping::MapOptions;

#[path = "timing.rs"]
mod timing;
use timing::report;

/// Every `step`-th mapped identifier of each prefix, `per_prefix` at most.
fn sample(r: &Resolver, per_prefix: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for prefix in ["MONDO:", "MESH:D", "MESH:C", "HGNC:", "HP:"] {
        let all =
            (r.lexicon().complete_mapped(prefix, 1_000_000)).expect("the mapping index reads");
        let step = (all.len() / per_prefix).max(1);
        ids.extend(all.into_iter().step_by(step).take(per_prefix));
    }
    ids
}

fn main() {
    let index = std::env::var_os("ONTORESOLVE_BENCH_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("index"));
    let r = Resolver::open(&index)
        .expect("a built index (ontoresolve build, or ONTORESOLVE_BENCH_INDEX)");
    let ids = sample(&r, 20_000);
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-results");
    std::fs::create_dir_all(&out).expect("bench-results");
    std::fs::write(out.join("mapping-ids.txt"), ids.join("\n") + "\n").expect("write ids");
    println!("{} identifiers sampled from the mapping index", ids.len());
    let options = MapOptions::default();
    let timed: Vec<&String> = ids.iter().step_by(10).collect();
    for id in timed.iter().take(200) {
        let _ = r.map_identifier(id, &options);
    }
    let mut candidates = 0usize;
    let mut slowest: Vec<(Duration, &String, usize)> = Vec::new();
    let core: Vec<Duration> = timed
        .iter()
        .map(|id| {
            let t = Instant::now();
            let answer = r.map_identifier(id, &options).expect("map");
            let elapsed = t.elapsed();
            candidates += answer.candidates.len();
            slowest.push((elapsed, id, answer.candidates.len()));
            elapsed
        })
        .collect();
    report("map_identifier (core, inference on)", core);
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    for (elapsed, id, n) in slowest.iter().take(5) {
        println!("  slowest: {id} {elapsed:.1?} ({n} candidates)");
    }
    println!(
        "  {:.1} candidates per identifier",
        candidates as f64 / timed.len() as f64
    );
    let mcp: Vec<Duration> = timed
        .iter()
        .map(|id| {
            let args = MapArgs {
                identifier: (*id).clone(),
                targets: None,
                include_inferred: None,
                include_predicted: None,
                cursor: None,
            };
            let t = Instant::now();
            let answer = tools::map_identifier(&r, &args).expect("tool");
            let _json = serde_json::to_vec(&answer).expect("json");
            t.elapsed()
        })
        .collect();
    report("map_identifier tool + JSON (in-process)", mcp);
    let t = Instant::now();
    for id in &ids {
        let _ = r.map_identifier(id, &options);
    }
    let all = t.elapsed();
    println!(
        "{} identifiers, one core, core only: {:.2?} ({:.0} ids/s)",
        ids.len(),
        all,
        ids.len() as f64 / all.as_secs_f64()
    );
}
