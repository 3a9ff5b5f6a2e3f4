//! Normalization throughput: one core, a file of one million mixed identifier spellings built
//! from real data (every HPO id in six spellings; every Bioregistry prefix's example under its
//! prefix, synonyms, doubled prefixes and URI prefixes; malformed and unknown ones). Prints
//! identifiers per second for registry normalization alone and for the full resolution
//! (normalization plus the index lookup). `scripts/bench` runs it.

use ontoresolve::model::WireName;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use ontoresolve::build::{BuildOptions, Silent, build};
use ontoresolve::resolve::Resolver;

const TARGET: usize = 1_000_000;

fn default_index() -> PathBuf {
    if let Some(dir) = std::env::var_os("ONTORESOLVE_BENCH_DEFAULT_INDEX") {
        return PathBuf::from(dir);
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-default");
    if Resolver::open(&dir).is_err() {
        build(
            &BuildOptions {
                catalog: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ontologies/sources.toml"),
                index_dir: dir.clone(),
                keep_going: false,
            },
            &Silent,
        )
        .expect("build the default index");
    }
    dir
}

/// Every spelling generated from the index and its registry, cycled up to `TARGET` lines.
fn spellings(r: &Resolver) -> Vec<String> {
    let mut base = Vec::new();
    for id in r.concept_ids() {
        let c = r.concept(id).expect("the index reads");
        let Some(curie) = c.curie.clone() else {
            continue;
        };
        let (prefix, local) = curie.split_once(':').unwrap_or((&curie, ""));
        base.push(curie.clone());
        base.push(curie.to_lowercase());
        base.push(format!("{prefix}_{local}"));
        base.push(c.iri.clone());
        base.push(c.iri.replacen("http://", "https://", 1));
        base.push(format!("https://identifiers.org/{curie}"));
    }
    let registry = r.registry();
    for id in registry.record_ids() {
        let Some(record) = registry.record(id) else {
            continue;
        };
        let Some(example) = &record.example else {
            continue;
        };
        base.push(format!("{}:{example}", record.preferred));
        base.push(format!("{}:{example}", record.prefix.to_uppercase()));
        base.push(format!("{0}:{0}:{example}", record.preferred));
        base.push(format!("  {}:{example}\t", record.prefix));
        for synonym in record.synonyms.iter().take(3) {
            base.push(format!("{synonym}:{example}"));
        }
        for uri in record.uri_prefixes.iter().take(4) {
            base.push(format!("{uri}{example}"));
        }
        base.push(format!("{}:{example}#bad id", record.preferred));
        base.push(format!("{}x:{example}", record.prefix));
    }
    base.push("0000118".into());
    base.push("not an identifier".into());
    base.iter().cycle().take(TARGET).cloned().collect()
}

fn main() {
    let index = default_index();
    let r = Resolver::open(&index).expect("open the default index");
    // The spellings go through a file, as a batch job reads them.
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("normalize-1M.txt");
    {
        let mut out = BufWriter::new(std::fs::File::create(&file).expect("create"));
        for line in spellings(&r) {
            writeln!(out, "{}", line.replace('\n', " ")).expect("write");
        }
    }
    let lines: Vec<String> = BufReader::new(std::fs::File::open(&file).expect("open"))
        .lines()
        .map_while(Result::ok)
        .collect();
    let distinct = lines.iter().collect::<std::collections::HashSet<_>>().len();
    println!(
        "{} spellings ({distinct} distinct), {} registry records",
        lines.len(),
        r.registry().len()
    );
    // Warm-up: decode every record and compile its pattern once.
    for line in lines.iter().take(distinct.min(lines.len())) {
        std::hint::black_box(r.registry().normalize(line));
    }
    for round in 1..=3 {
        let started = Instant::now();
        let mut identified = 0usize;
        for line in &lines {
            let n = r.registry().normalize(line);
            identified += usize::from(n.identified().is_some());
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "normalize (registry only), one core, round {round}: {:>10.0} ids/s  ({:.0} ns/id, {identified} with a known prefix)",
            lines.len() as f64 / secs,
            secs * 1e9 / lines.len() as f64
        );
    }
    let started = Instant::now();
    let mut found = 0usize;
    for line in &lines {
        let (_, outcome) = r.resolve_identifier(line).expect("sound index");
        found += usize::from(outcome.wire_name() == "found");
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "resolve_identifier (normalize + index), one core: {:>10.0} ids/s  ({:.0} ns/id, {found} found)",
        lines.len() as f64 / secs,
        secs * 1e9 / lines.len() as f64
    );
    println!("input file: {}", file.display());
}
