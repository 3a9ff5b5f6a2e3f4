//! `ontoresolve annotate` on the bundled catalogue's index: the NCBI disease develop set in
//! PubTator format (from the shared data) gives one row per mention, in passage order, with
//! character spans into `title + " " + abstract`, the same mentions the `ground_passage` tool
//! gives; text input counts empty lines and gives character (not byte) spans; an oversized
//! passage gives a note row; an unknown source exits 2 naming the loaded ones.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

use ontoresolve::mcp::dto::PassageArgs;
use ontoresolve::mcp::tools;

use crate::support::{Missing, default_index, default_index_dir, scratch, shared_data, skip};

/// The TSV header, in order.
const COLUMNS: [&str; 13] = [
    "passage",
    "start",
    "end",
    "text",
    "concept",
    "label",
    "source",
    "match_kind",
    "confidence",
    "abbreviation_of",
    "coordinated_with",
    "candidates",
    "note",
];

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ontoresolve")
}

/// Runs `annotate` with these arguments on the default index.
fn annotate(args: &[&str]) -> Output {
    Command::new(binary())
        .arg("annotate")
        .args(args)
        .arg("--index")
        .arg(default_index_dir())
        .env("ONTORESOLVE_LOG", "error")
        .output()
        .expect("run ontoresolve annotate")
}

fn succeeded(out: Output) -> Output {
    assert!(
        out.status.success(),
        "annotate failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 scratch path")
}

/// Undoes the TSV escapes of backslash, tab, CR and LF.
fn unescape(cell: &str) -> String {
    let mut out = String::new();
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The rows of a TSV output by column name, values unescaped; checks the header.
fn tsv_rows(stdout: &[u8]) -> Vec<BTreeMap<String, String>> {
    let text = String::from_utf8(stdout.to_vec()).expect("UTF-8 output");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(COLUMNS.join("\t").as_str()), "header");
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), COLUMNS.len(), "cells of {line:?}");
            COLUMNS
                .iter()
                .zip(cells)
                .map(|(k, v)| (k.to_string(), unescape(v)))
                .collect()
        })
        .collect()
}

fn json_rows(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .expect("UTF-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON object"))
        .collect()
}

/// The characters `start..end` of a text.
fn chars(text: &str, start: usize, end: usize) -> String {
    text.chars()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect()
}

fn number(row: &BTreeMap<String, String>, column: &str) -> usize {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column} is no number: {row:?}"))
}

/// One PubTator document, read here independently of the command.
struct Document {
    pmid: String,
    /// Title, a space, abstract.
    text: String,
    /// Gold mention spans.
    gold: Vec<(usize, usize)>,
}

fn read_pubtator(path: &Path) -> Vec<Document> {
    let text = std::fs::read_to_string(path).expect("read the corpus");
    let mut docs: Vec<Document> = Vec::new();
    let mut title = String::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.splitn(3, '|').collect();
        match parts.as_slice() {
            [_, "t", t] => title = t.to_string(),
            [pmid, "a", a] => docs.push(Document {
                pmid: pmid.to_string(),
                text: format!("{title} {a}"),
                gold: Vec::new(),
            }),
            _ => {
                let cells: Vec<&str> = line.split('\t').collect();
                if let ([_, start, end, ..], Some(doc)) = (cells.as_slice(), docs.last_mut())
                    && let (Ok(start), Ok(end)) = (start.parse(), end.parse())
                {
                    doc.gold.push((start, end));
                }
            }
        }
    }
    docs
}

/// The develop set, annotated once as TSV and once as JSON and shared by the tests that read
/// them; `None` when the shared data is absent.
struct Develop {
    docs: Vec<Document>,
    tsv: Vec<BTreeMap<String, String>>,
    tsv_stderr: String,
    json: Vec<Value>,
}

fn develop() -> Option<&'static Develop> {
    static DEVELOP: OnceLock<Option<Develop>> = OnceLock::new();
    DEVELOP
        .get_or_init(|| {
            let corpus = shared_data()?.join("corpora/ncbi-disease/NCBIdevelopset_corpus.txt");
            if !corpus.is_file() {
                skip(
                    Missing::Data,
                    format_args!("{} not found", corpus.display()),
                );
                return None;
            }
            let dir = scratch("annotate-develop");
            let output = dir.join("develop.tsv");
            let corpus = path_str(&corpus);
            let tsv = succeeded(annotate(&[
                corpus,
                "--format",
                "pubtator",
                "-o",
                path_str(&output),
            ]));
            let json = succeeded(annotate(&[
                corpus,
                "--format",
                "pubtator",
                "--output-format",
                "json",
            ]));
            Some(Develop {
                docs: read_pubtator(Path::new(corpus)),
                tsv: tsv_rows(&std::fs::read(&output).expect("read the output")),
                tsv_stderr: String::from_utf8_lossy(&tsv.stderr).into_owned(),
                json: json_rows(&json.stdout),
            })
        })
        .as_ref()
}

#[test]
fn annotate_on_the_develop_set_writes_mentions_in_passage_order_with_spans_into_the_passage() {
    let Some(develop) = develop() else { return };
    assert_eq!(develop.docs.len(), 100);
    assert!(
        develop.tsv_stderr.contains("100 passages")
            && develop.tsv_stderr.contains("passages with problems: 0"),
        "summary: {}",
        develop.tsv_stderr
    );
    assert!(
        develop.tsv.len() > 500,
        "only {} mentions",
        develop.tsv.len()
    );
    let position: BTreeMap<&str, usize> = develop
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.pmid.as_str(), i))
        .collect();
    let mut last = (0, 0);
    for row in &develop.tsv {
        let doc = position[row["passage"].as_str()];
        let (start, end) = (number(row, "start"), number(row, "end"));
        assert!((doc, start) >= last, "out of order: {row:?} after {last:?}");
        last = (doc, start);
        let text = &develop.docs[doc].text;
        assert_eq!(chars(text, start, end), row["text"], "{row:?}");
        let candidates: Vec<&str> = row["candidates"].split('|').collect();
        assert_eq!(candidates[0], row["concept"], "{row:?}");
        // Only a span the model doubts has a note, saying so.
        assert!(
            row["note"].is_empty() || row["note"].starts_with("uncertain"),
            "{row:?}"
        );
    }
    let abbreviations: Vec<&BTreeMap<String, String>> = develop
        .tsv
        .iter()
        .filter(|r| !r["abbreviation_of"].is_empty())
        .collect();
    assert!(
        abbreviations
            .iter()
            .any(|r| r["text"] == "G6PD" && r["abbreviation_of"].contains("glucose-6-phosphate")),
        "no G6PD row carries its long form: {abbreviations:?}"
    );
}

#[test]
fn annotate_spans_on_pubtator_input_meet_the_gold_annotations_offsets() {
    let Some(develop) = develop() else { return };
    let found: HashSet<(&str, usize, usize)> = develop
        .tsv
        .iter()
        .map(|r| (r["passage"].as_str(), number(r, "start"), number(r, "end")))
        .collect();
    let gold: Vec<(&str, usize, usize)> = develop
        .docs
        .iter()
        .flat_map(|d| d.gold.iter().map(|&(s, e)| (d.pmid.as_str(), s, e)))
        .collect();
    let met = gold.iter().filter(|g| found.contains(g)).count();
    // 607 of 787 (0.77) were met when this floor was set.
    assert!(
        met * 4 >= gold.len() * 3,
        "only {met} of {} gold spans have a row with the same offsets, under 0.75",
        gold.len()
    );
}

#[test]
fn annotate_json_rows_are_the_mentions_the_ground_passage_tool_gives() {
    let Some(develop) = develop() else { return };
    assert_eq!(develop.json.len(), develop.tsv.len(), "TSV and JSON rows");
    let mut by_passage: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for row in &develop.json {
        // Only a span the model doubts has a note: it is kept, as uncertain.
        assert!(
            row.get("note")
                .is_none_or(|n| n.as_str().is_some_and(|n| n.starts_with("uncertain"))),
            "{row}"
        );
        let passage = row["passage"].as_str().expect("passage is a string");
        by_passage.entry(passage).or_default().push(row);
    }
    let mut total = 0;
    for doc in &develop.docs {
        let answer = tools::ground_passage(
            default_index(),
            &PassageArgs {
                text: doc.text.clone(),
                sources: None,
                limit: Some(10),
                groups: None,
            },
        )
        .expect("the tool answers");
        let answer = serde_json::to_value(&answer).expect("json");
        // Mentions and uncertain spans, in text order: annotate drops neither.
        let mut want: Vec<Value> = ["mentions", "uncertain"]
            .iter()
            .flat_map(|k| answer["result"][*k].as_array().cloned().unwrap_or_default())
            .collect();
        want.sort_by_key(|m| (m["start"].as_u64(), m["end"].as_u64()));
        total += want.len();
        let got = by_passage
            .get(doc.pmid.as_str())
            .cloned()
            .unwrap_or_default();
        assert_eq!(got.len(), want.len(), "mentions of {}", doc.pmid);
        for (g, w) in got.iter().zip(&want) {
            for field in ["start", "end", "text"] {
                assert_eq!(g[field], w[field], "{field} in {}: {g} vs {w}", doc.pmid);
            }
            let tool: Vec<&Value> = w["candidates"]
                .as_array()
                .map(|c| c.iter().map(|c| &c["concept"]["curie"]).collect())
                .unwrap_or_default();
            let ours: Vec<&Value> = g["candidates"]
                .as_array()
                .map(|c| c.iter().take(tool.len()).map(|c| &c["curie"]).collect())
                .unwrap_or_default();
            assert_eq!(ours, tool, "candidates in {}", doc.pmid);
            assert_eq!(
                g.get("coordinated_with"),
                w.get("coordinated_with").map(|c| &c["text"]),
                "{g}"
            );
            assert_eq!(g["concept"], *tool[0], "{g}");
        }
    }
    assert_eq!(
        develop.json.len(),
        total,
        "rows against the tool's mentions"
    );
}

#[test]
fn annotate_text_counts_an_empty_line_and_gives_character_spans_on_a_unicode_line() {
    let lines = [
        "Huntington disease (HD) is inherited; HD patients develop chorea.",
        "",
        "Ménière’s patients — “breast cancer” and Huntington disease.",
    ];
    let dir = scratch("annotate-text");
    let input = dir.join("passages.txt");
    std::fs::write(&input, lines.join("\n") + "\n").expect("write input");
    let out = succeeded(annotate(&[path_str(&input)]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("3 passages"), "{stderr}");
    let rows = tsv_rows(&out.stdout);
    assert!(rows.iter().all(|r| r["passage"] != "2"), "{rows:?}");
    for row in &rows {
        let line = number(row, "passage");
        let text = lines[line - 1];
        assert_eq!(
            chars(text, number(row, "start"), number(row, "end")),
            row["text"]
        );
    }
    let hd: Vec<_> = rows
        .iter()
        .filter(|r| r["passage"] == "1" && r["text"] == "HD")
        .collect();
    assert_eq!(hd.len(), 2, "{rows:?}");
    assert!(
        hd.iter()
            .all(|r| r["abbreviation_of"] == "Huntington disease")
    );
    let unicode = lines[2];
    let breast = rows
        .iter()
        .find(|r| r["passage"] == "3" && r["text"] == "breast cancer")
        .unwrap_or_else(|| panic!("no 'breast cancer' on line 3: {rows:?}"));
    let byte = unicode.find("breast cancer").expect("in the line");
    let start = unicode[..byte].chars().count();
    assert!(start < byte, "the line has multi-byte characters before it");
    assert_eq!(number(breast, "start"), start, "{breast:?}");
}

#[test]
fn annotate_writes_one_note_row_for_a_passage_over_the_size_limit_and_grounds_the_rest() {
    let dir = scratch("annotate-oversized");
    let input = dir.join("passages.txt");
    let long = "breast cancer ".repeat(2_000);
    std::fs::write(
        &input,
        format!("breast cancer\n{long}\nHuntington disease\n"),
    )
    .expect("write");
    let out = succeeded(annotate(&[path_str(&input), "--output-format", "json"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("passages with problems: 1"), "{stderr}");
    let rows = json_rows(&out.stdout);
    let oversized: Vec<&Value> = rows.iter().filter(|r| r["passage"] == "2").collect();
    assert_eq!(oversized.len(), 1, "{rows:?}");
    assert!(oversized[0].get("concept").is_none(), "{}", oversized[0]);
    let note = oversized[0]["note"].as_str().unwrap_or("");
    assert!(note.contains("20480"), "{note}");
    for passage in ["1", "3"] {
        assert!(
            rows.iter()
                .any(|r| r["passage"] == passage && r["concept"].is_string()),
            "no mention on line {passage}: {rows:?}"
        );
    }
}

#[test]
fn annotate_refuses_an_unknown_source_with_exit_2_naming_the_loaded_ones() {
    let dir = scratch("annotate-bad-source");
    let input = dir.join("passages.txt");
    std::fs::write(&input, "breast cancer\n").expect("write input");
    let out = annotate(&[path_str(&input), "--sources", "mesh,nosuchsource"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "nothing is written");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nosuchsource"), "{stderr}");
    for source in &default_index().manifest().sources {
        assert!(
            stderr.contains(&source.id),
            "{} not named: {stderr}",
            source.id
        );
    }
}

#[test]
fn annotate_with_sources_keeps_candidates_to_those_sources() {
    let dir = scratch("annotate-sources");
    let input = dir.join("passages.txt");
    std::fs::write(
        &input,
        "Seizures and breast cancer in Huntington disease.\n",
    )
    .expect("write");
    let out = succeeded(annotate(&[path_str(&input), "--sources", "hp"]));
    let rows = tsv_rows(&out.stdout);
    assert!(!rows.is_empty());
    for row in &rows {
        assert_eq!(row["source"], "hp", "{row:?}");
        assert!(
            row["candidates"].split('|').all(|c| c.starts_with("HP:")),
            "{row:?}"
        );
    }
}
