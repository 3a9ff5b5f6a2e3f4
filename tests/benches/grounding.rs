//! Grounding latency on a built index (the default catalogue): every mention of the NCBI
//! disease corpus develop set through the core name search and through `find_concepts` as
//! the MCP tool shapes it (with and without a sources filter), and the JSON it writes.
//! Prints p50 and p99 per step. `scripts/bench-grounding` runs it beside the stdio figures of
//! `scripts/eval-grounding`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ontoresolve::mcp::dto::FindArgs;
use ontoresolve::mcp::tools;
use ontoresolve::resolve::{NameQuery, Resolver};

#[path = "timing.rs"]
mod timing;
use timing::report;

/// Mention texts of a PubTator file, in order, each once (as `stdio_peer.py` reads them).
fn mentions(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the NCBI disease corpus");
    let mut seen = std::collections::HashSet::new();
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (fields.len() == 6).then(|| fields[3].to_string())
        })
        .filter(|text| seen.insert(text.clone()))
        .collect()
}

fn time_each(texts: &[String], mut f: impl FnMut(&str)) -> Vec<Duration> {
    for text in texts {
        f(text);
    }
    texts
        .iter()
        .map(|text| {
            let t = Instant::now();
            f(text);
            t.elapsed()
        })
        .collect()
}

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let index = std::env::var_os("ONTORESOLVE_BENCH_INDEX")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("index"));
    let data = std::env::var_os("ONTORESOLVE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/data"));
    let corpus = data.join("corpora/ncbi-disease/NCBIdevelopset_corpus.txt");
    if !corpus.is_file() {
        println!("SKIPPED: {} not found", corpus.display());
        return;
    }
    let r = Resolver::open(&index)
        .expect("a built index (ontoresolve build, or ONTORESOLVE_BENCH_INDEX)");
    // One exact name, asked again and again: the cheapest question, where overhead shows.
    let exact = vec!["Abnormality of body height".to_string(); 2000];
    let core = time_each(&exact, |text| {
        r.find_by_name(&NameQuery {
            text,
            sources: None,
            include_obsolete: false,
            full_text_beside_names: false,
            // The first page of find_concepts.
            wanted: 10,
        })
        .expect("search");
    });
    report("find_by_name (core), an exact name", core);
    let tool = time_each(&exact, |text| {
        let answer = tools::find_concepts(
            &r,
            &FindArgs {
                text: text.into(),
                sources: None,
                include_obsolete: None,
                limit: None,
                cursor: None,
            },
        )
        .expect("find_concepts");
        serde_json::to_vec(&answer).expect("json");
    });
    report("find_concepts + JSON, an exact name", tool);
    let texts = mentions(&corpus);
    println!("{} distinct mentions of {}", texts.len(), corpus.display());
    // The costly stages alone, as the search runs them when no name matched.
    let full_text = time_each(&texts, |text| {
        r.lexicon()
            .search(text, None, ontoresolve::resolve::FULL_TEXT_DEPTH)
            .expect("full text");
    });
    report("full text alone, 200 deep (its cap)", full_text);
    let near = time_each(&texts, |text| {
        // The edits the search allows: two past seven characters, one past three.
        let edits = match text.chars().count() {
            0..=3 => return,
            4..=7 => 1,
            _ => 2,
        };
        r.lexicon().fuzzy(text, edits, 50).expect("near spellings");
    });
    report("near spellings alone, all sources", near);
    let mesh = vec!["mesh".to_string()];
    for (name, sources) in [("all sources", None), ("sources=mesh", Some(&mesh))] {
        let core = time_each(&texts, |text| {
            r.find_by_name(&NameQuery {
                text,
                sources: sources.map(|s| s.as_slice()),
                include_obsolete: false,
                full_text_beside_names: false,
                // The first page of find_concepts.
                wanted: 10,
            })
            .expect("search");
        });
        report(&format!("find_by_name (core), {name}"), core);
        let args = |text: &str| FindArgs {
            text: text.into(),
            sources: sources.cloned(),
            include_obsolete: None,
            limit: Some(10),
            cursor: None,
        };
        let tool = time_each(&texts, |text| {
            tools::find_concepts(&r, &args(text)).expect("find_concepts");
        });
        report(&format!("find_concepts (tool), {name}"), tool);
        let json = time_each(&texts, |text| {
            let answer = tools::find_concepts(&r, &args(text)).expect("find_concepts");
            serde_json::to_vec(&answer).expect("json");
        });
        report(&format!("find_concepts + JSON, {name}"), json);
    }
}
