//! Lookup latency benchmark: index open time, exact identifier and label lookups, fuzzy lookups
//! (distance 1 and 2) and full text on the HPO index, and fuzzy distance 2 on a lexicon of a
//! million real MeSH labels. Prints p50 and p99 per operation; `scripts/bench` runs it.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ontoresolve::build::{BuildOptions, Silent, build};
use ontoresolve::index::normalize::label_key;
use ontoresolve::index::{Lexicon, LexiconWriter, Posting};
use ontoresolve::resolve::Resolver;

#[path = "timing.rs"]
mod timing;
use timing::report;

fn time_each<T>(inputs: &[T], mut f: impl FnMut(&T)) -> Vec<Duration> {
    for input in inputs.iter().take(200) {
        f(input);
    }
    inputs
        .iter()
        .map(|input| {
            let t = Instant::now();
            f(input);
            t.elapsed()
        })
        .collect()
}

fn hpo_index() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-hpo");
    if Resolver::open(&dir).is_err() {
        let catalog = dir.join("hp.toml");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(
            &catalog,
            format!(
                "[[source]]\nid = \"hp\"\ntitle = \"HPO\"\nkind = \"obo\"\npath = \"{}\"\nprefixes = [{{ prefix = \"HP\", uri_prefix = \"http://purl.obolibrary.org/obo/HP_\" }}]\nlicense = \"x\"\nattribution = \"x\"\nhomepage = \"x\"\nscope = \"x\"\n",
                Path::new(env!("CARGO_MANIFEST_DIR")).join("ontologies/hp-2025-01-16.obo.gz").display()
            ),
        )
        .expect("write catalogue");
        build(
            &BuildOptions {
                catalog,
                index_dir: dir.clone(),
                keep_going: false,
            },
            &Silent,
        )
        .expect("build HPO");
    }
    dir
}

/// Drops one character from the middle and swaps two others: distance 1 or 2 from the original.
fn misspell(text: &str, edits: usize) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.len() > 6 {
        chars.remove(chars.len() / 2);
        if edits > 1 {
            chars.swap(1, 2);
        }
    }
    chars.into_iter().collect()
}

fn main() {
    let index = std::env::var_os("ONTORESOLVE_BENCH_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(hpo_index);
    let opens: Vec<Duration> = (0..30)
        .map(|_| {
            let t = Instant::now();
            let r = Resolver::open(&index).expect("open");
            let d = t.elapsed();
            drop(r);
            d
        })
        .collect();
    report("open index (memory-mapped)", opens);

    let r = Resolver::open(&index).expect("open");
    let concepts: Vec<_> = (r.concept_ids().map(|i| r.concept(i)))
        .collect::<Result<_, _>>()
        .expect("the index reads");
    let curies: Vec<String> = concepts.iter().filter_map(|c| c.curie.clone()).collect();
    let iris: Vec<String> = concepts.iter().map(|c| c.iri.clone()).collect();
    let labels: Vec<String> = concepts
        .iter()
        .filter_map(|c| c.preferred_label().map(|l| l.text.clone()))
        .collect();
    report(
        "exact identifier lookup (CURIE)",
        time_each(&curies, |q| {
            assert!(
                !r.lexicon()
                    .lookup_id(q)
                    .expect("the index reads")
                    .is_empty()
            )
        }),
    );
    report(
        "exact identifier lookup (IRI)",
        time_each(&iris, |q| {
            assert!(
                !r.lexicon()
                    .lookup_id(q)
                    .expect("the index reads")
                    .is_empty()
            )
        }),
    );
    report(
        "exact label lookup",
        time_each(&labels, |q| {
            assert!(
                !r.lexicon()
                    .lookup_label(q)
                    .expect("the index reads")
                    .is_empty()
            )
        }),
    );
    let typos1: Vec<String> = labels.iter().take(5000).map(|l| misspell(l, 1)).collect();
    let typos2: Vec<String> = labels.iter().take(5000).map(|l| misspell(l, 2)).collect();
    report(
        "fuzzy lookup d<=1 (this index)",
        time_each(&typos1, |q| {
            r.lexicon().fuzzy(q, 1, 10).expect("the index reads");
        }),
    );
    report(
        "fuzzy lookup d<=2 (this index)",
        time_each(&typos2, |q| {
            r.lexicon().fuzzy(q, 2, 10).expect("the index reads");
        }),
    );
    report(
        "full-text search top 10 (this index)",
        time_each(&labels[..2000.min(labels.len())], |q| {
            r.lexicon().search(q, None, 10).expect("search");
        }),
    );

    if let Some(mesh) = mesh_labels() {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-million");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let mut writer = LexiconWriter::default();
        for (i, label) in mesh.iter().enumerate() {
            writer.add(
                label_key(label),
                Posting {
                    concept: i as u32,
                    detail: 0,
                },
            );
        }
        let t = Instant::now();
        let counts = writer
            .write(&dir.join("labels.fst"), &dir.join("labels.postings"))
            .expect("write");
        println!(
            "million-label lexicon: {} keys written in {:.1?}",
            counts.keys,
            t.elapsed()
        );
        let lexicon =
            Lexicon::open(&dir.join("labels.fst"), &dir.join("labels.postings")).expect("open");
        let step = mesh.len() / 3000;
        let queries: Vec<String> = mesh
            .iter()
            .step_by(step.max(1))
            .map(|l| label_key(&misspell(l, 2)))
            .collect();
        report(
            &format!("fuzzy lookup d<=2 ({} keys)", lexicon.len()),
            time_each(&queries, |q| {
                lexicon.fuzzy(q, 2, 10).expect("the index reads");
            }),
        );
        let exact: Vec<String> = mesh
            .iter()
            .step_by(step.max(1))
            .map(|l| label_key(l))
            .collect();
        report(
            &format!("exact label key ({} keys)", lexicon.len()),
            time_each(&exact, |q| {
                assert!(!lexicon.get(q).expect("the index reads").is_empty());
            }),
        );
    }
}

/// Every MeSH 2024 label and entry term, topped up to a million with reversed-word variants.
fn mesh_labels() -> Option<Vec<String>> {
    let data = std::env::var_os("ONTORESOLVE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    let mut labels = Vec::new();
    for file in [
        "mesh/mesh2024_descriptors.tsv.gz",
        "mesh/mesh2024_supplementary.tsv.gz",
    ] {
        let Ok(f) = std::fs::File::open(data.join(file)) else {
            eprintln!(
                "SKIPPED million-label benchmark: {} not found",
                data.join(file).display()
            );
            return None;
        };
        for line in std::io::BufReader::new(flate2::read::GzDecoder::new(f))
            .lines()
            .map_while(Result::ok)
        {
            let cols: Vec<&str> = line.split('\t').collect();
            if let Some(label) = cols.get(1) {
                labels.push(label.to_string());
            }
            if let Some(terms) = cols.get(2) {
                labels.extend(
                    terms
                        .split('|')
                        .filter(|t| !t.is_empty())
                        .map(str::to_string),
                );
            }
        }
    }
    let real = labels.len();
    let mut i = 0;
    while labels.len() < 1_000_000 && i < real {
        let reversed: Vec<&str> = labels[i].split_whitespace().rev().collect();
        if reversed.len() > 1 {
            labels.push(reversed.join(" "));
        }
        i += 1;
    }
    println!(
        "million-label lexicon: {real} real MeSH labels, {} in all",
        labels.len()
    );
    Some(labels)
}
