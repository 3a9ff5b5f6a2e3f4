//! `scripts/eval-grounding` on the NCBI Disease develop set: the command runs the real binary
//! over MCP stdio on the bundled catalogue's index and reports recall@1/@10 of `find_concepts`
//! beside the plain MeSH dictionary, with latency. It fails when recall drops below a floor set
//! just under the develop-set figures, and (with `ONTORESOLVE_REQUIRE_DATA`) when the corpus is
//! missing; the figures are printed for the CI log.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::support::{Missing, default_index_dir, repo, scratch, shared_data, skip};

/// Floors for `find_concepts` with `sources=["mesh"]` on the develop set, just under its
/// figures (recall@10 0.799, recall@1 0.732 when they were set, confidence model 1fb2a53ec1c9):
/// a drop in grounding fails CI.
const RECALL_AT_10_FLOOR: f64 = 0.785;
const RECALL_AT_1_FLOOR: f64 = 0.72;
/// Ceilings on how badly the first candidate's stated `confidence` is calibrated on the
/// develop set: ECE 0.031 and 3.7 % of answers stated >= 0.9 wrong when set (the hand-set score
/// it replaced: 0.178 and 3.6 %).
const ECE_CEILING: f64 = 0.05;
const WRONG_AT_0_9_CEILING: f64 = 0.045;

/// Runs `scripts/eval-grounding` with `flags` on a corpus of the shared data, against the
/// default index, in scratch directory `name` (where `--misses` and `--reliability` write): its
/// scratch directory, its printed report (kept as `report.txt`, which scripts/test prints after
/// the tests, so the figures are in every CI log) and its JSON figures. `None`, having skipped,
/// when the corpus is absent.
fn run_eval(name: &str, corpus: &str, flags: &[&str]) -> Option<(PathBuf, String, Value)> {
    let corpus = shared_data()?.join(corpus);
    if !corpus.is_file() {
        skip(
            Missing::Data,
            format_args!("{} not found", corpus.display()),
        );
        return None;
    }
    let dir = scratch(name);
    let json = dir.join("eval.json");
    let mut command = Command::new("python3");
    command
        .arg(repo().join("scripts/eval-grounding"))
        .arg("--index")
        .arg(default_index_dir())
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_ontoresolve"))
        .arg("--corpus")
        .arg(&corpus)
        .arg("--json")
        .arg(&json)
        .env("ONTORESOLVE_LOG", "error");
    for flag in flags {
        match *flag {
            "--misses" => command.arg(flag).arg(dir.join("misses.tsv")),
            "--reliability" => command.arg(flag).arg(&dir),
            _ => command.arg(flag),
        };
    }
    let out = command
        .output()
        .expect("run python3 scripts/eval-grounding");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "eval-grounding {flags:?} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    std::fs::write(dir.join("report.txt"), stdout.as_bytes()).expect("write the report");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("read the JSON report"))
            .expect("the JSON report parses");
    Some((dir, stdout, report))
}

fn number(value: &Value, path: &str) -> f64 {
    value
        .pointer(path)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("no number at {path} in {value:#}"))
}

#[test]
fn grounding_on_the_develop_set_stays_above_its_recall_floor_and_reports_latency() {
    let Some((dir, stdout, report)) = run_eval(
        "eval-grounding",
        "corpora/ncbi-disease/NCBIdevelopset_corpus.txt",
        &["--misses"],
    ) else {
        return;
    };
    let misses = dir.join("misses.tsv");
    let corpora = report["corpora"].as_array().expect("corpora");
    assert_eq!(corpora.len(), 1, "{report:#}");
    let figures = &corpora[0];
    assert_eq!(figures["corpus_file"], "NCBIdevelopset_corpus.txt");
    let mentions = number(figures, "/mentions");
    assert!(mentions > 700.0, "only {mentions} mentions with MeSH gold");
    assert!(number(figures, "/distinct_texts") >= 1.0);
    for system in ["ontoresolve", "baseline"] {
        let at1 = number(figures, &format!("/{system}/recall_at_1"));
        let at10 = number(figures, &format!("/{system}/recall_at_10"));
        assert!((0.0..=1.0).contains(&at1), "{system} recall@1 {at1}");
        assert!((0.0..=1.0).contains(&at10), "{system} recall@10 {at10}");
        assert!(
            at1 <= at10,
            "{system}: recall@1 {at1} above recall@10 {at10}"
        );
    }
    let at10 = number(figures, "/ontoresolve/recall_at_10");
    let at1 = number(figures, "/ontoresolve/recall_at_1");
    assert!(
        at10 >= RECALL_AT_10_FLOOR && at1 >= RECALL_AT_1_FLOOR,
        "grounding dropped: recall@10 {at10:.3} (floor {RECALL_AT_10_FLOOR}), recall@1 {at1:.3} \
         (floor {RECALL_AT_1_FLOOR})\n{stdout}"
    );
    let (ece, wrong) = (
        number(figures, "/calibration/ece"),
        number(figures, "/calibration/stated_at_least_0_9_wrong_share"),
    );
    assert!(
        ece <= ECE_CEILING && wrong <= WRONG_AT_0_9_CEILING,
        "calibration worse: ECE {ece:.3} (ceiling {ECE_CEILING}), stated >= 0.9 wrong {wrong:.3} \
         (ceiling {WRONG_AT_0_9_CEILING})\n{stdout}"
    );
    let p50 = number(figures, "/latency_ms/p50");
    let p99 = number(figures, "/latency_ms/p99");
    assert!(0.0 < p50 && p50 <= p99, "latency p50 {p50} p99 {p99}");
    assert_eq!(number(figures, "/latency_ms/calls"), mentions);
    assert!(number(&report, "/wall_time_s") > 0.0);
    assert!(
        std::fs::read_to_string(&misses)
            .expect("read the misses")
            .starts_with("corpus\tpmid\tmention\t"),
        "the misses TSV has its header"
    );

    eprintln!(
        "eval-grounding on {}: {mentions} mentions ({} distinct texts); find_concepts recall@1 {:.3} \
         recall@10 {:.3}; plain MeSH dictionary recall@1 {:.3} recall@10 {:.3}; find_concepts p50 \
         {p50:.2} ms p99 {p99:.2} ms; tool errors {}; wall time {:.1} s",
        figures["corpus_file"].as_str().unwrap_or("?"),
        figures["distinct_texts"],
        number(figures, "/ontoresolve/recall_at_1"),
        number(figures, "/ontoresolve/recall_at_10"),
        number(figures, "/baseline/recall_at_1"),
        number(figures, "/baseline/recall_at_10"),
        figures["ontoresolve"]["tool_errors"],
        number(&report, "/wall_time_s"),
    );
}

/// Floors for `ground_passage` with `sources=["mesh"]` on the develop set, just under its
/// figures when they were set (mention F1 0.847, concept F1 0.813, recall@10 in context 0.871).
const PASSAGE_MENTION_F1_FLOOR: f64 = 0.84;
const PASSAGE_CONCEPT_F1_FLOOR: f64 = 0.805;
const PASSAGE_RECALL_AT_10_FLOOR: f64 = 0.865;

#[test]
fn passages_on_the_develop_set_stay_above_their_floors_and_beat_the_plain_dictionary() {
    let Some((_, stdout, report)) = run_eval(
        "eval-passages",
        "corpora/ncbi-disease/NCBIdevelopset_corpus.txt",
        &["--passages"],
    ) else {
        return;
    };
    let figures = &report["corpora"][0];
    assert_eq!(
        number(figures, "/ontoresolve ground_passage/abstracts"),
        100.0
    );
    assert!(number(figures, "/ontoresolve ground_passage/gold_mentions") > 700.0);
    assert_eq!(number(figures, "/tool_errors"), 0.0);
    let ours = |path: &str| number(figures, &format!("/ontoresolve ground_passage{path}"));
    let plain = |path: &str| number(figures, &format!("/plain dictionary tagger{path}"));
    let (mention, concept, at10) = (
        ours("/mention/f1"),
        ours("/concept/f1"),
        ours("/recall_at_10"),
    );
    assert!(
        mention >= PASSAGE_MENTION_F1_FLOOR
            && concept >= PASSAGE_CONCEPT_F1_FLOOR
            && at10 >= PASSAGE_RECALL_AT_10_FLOOR,
        "passage grounding dropped: mention F1 {mention:.3} (floor {PASSAGE_MENTION_F1_FLOOR}), \
         concept F1 {concept:.3} (floor {PASSAGE_CONCEPT_F1_FLOOR}), recall@10 {at10:.3} \
         (floor {PASSAGE_RECALL_AT_10_FLOOR})\n{stdout}"
    );
    assert!(
        mention > plain("/mention/f1") && concept > plain("/concept/f1"),
        "no better than a plain dictionary:\n{stdout}"
    );
    // The mentions' stated confidence (ECE 0.030, 5.5 % of those stated >= 0.9 wrong when
    // set): it must not get worse.
    let (ece, wrong) = (
        ours("/calibration/ece"),
        ours("/calibration/stated_at_least_0_9_wrong_share"),
    );
    assert!(
        ece <= 0.045 && wrong <= 0.07,
        "passage calibration worse: ECE {ece:.3}, stated >= 0.9 wrong {wrong:.3}\n{stdout}"
    );
    let (p50, p99) = (
        number(figures, "/latency_ms/p50"),
        number(figures, "/latency_ms/p99"),
    );
    assert!(0.0 < p50 && p50 <= p99, "latency p50 {p50} p99 {p99}");
    eprintln!("{stdout}");
}

/// Floors for `find_concepts` with `sources=["mesh"]` on the BC5CDR development set (chemicals
/// and diseases, a corpus the name rules were not written for), just under its figures when
/// set: recall@1 0.781, recall@10 0.829; chemicals recall@1 0.814, diseases 0.740.
const BC5CDR_RECALL_AT_1_FLOOR: f64 = 0.77;
const BC5CDR_RECALL_AT_10_FLOOR: f64 = 0.82;
const BC5CDR_CHEMICAL_AT_1_FLOOR: f64 = 0.805;
const BC5CDR_DISEASE_AT_1_FLOOR: f64 = 0.73;
/// Calibration ceilings there: ECE 0.026 and 4.4 % of answers stated >= 0.9 wrong when set
/// (about 3 % of the gold ids are retired from MeSH 2024).
const BC5CDR_ECE_CEILING: f64 = 0.035;
const BC5CDR_WRONG_AT_0_9_CEILING: f64 = 0.05;

#[test]
fn grounding_on_the_bc5cdr_development_set_stays_above_its_floors_by_type() {
    let Some((dir, stdout, report)) = run_eval(
        "eval-grounding-bc5cdr",
        "corpora/bc5cdr/CDR_DevelopmentSet.PubTator.txt",
        &["--reliability"],
    ) else {
        return;
    };
    let figures = &report["corpora"][0];
    assert!(number(figures, "/mentions") > 9000.0, "{figures:#}");
    assert_eq!(number(figures, "/ontoresolve/tool_errors"), 0.0);
    let at1 = number(figures, "/ontoresolve/recall_at_1");
    let at10 = number(figures, "/ontoresolve/recall_at_10");
    let chemical = number(figures, "/by_type/Chemical/recall_at_1");
    let disease = number(figures, "/by_type/Disease/recall_at_1");
    assert!(
        at1 >= BC5CDR_RECALL_AT_1_FLOOR
            && at10 >= BC5CDR_RECALL_AT_10_FLOOR
            && chemical >= BC5CDR_CHEMICAL_AT_1_FLOOR
            && disease >= BC5CDR_DISEASE_AT_1_FLOOR,
        "grounding dropped on BC5CDR: recall@1 {at1:.3}, @10 {at10:.3}, chemicals @1 \
         {chemical:.3}, diseases @1 {disease:.3}\n{stdout}"
    );
    assert!(
        at1 > number(figures, "/baseline/recall_at_1"),
        "no better than a plain dictionary:\n{stdout}"
    );
    let (ece, wrong) = (
        number(figures, "/calibration/ece"),
        number(figures, "/calibration/stated_at_least_0_9_wrong_share"),
    );
    assert!(
        ece <= BC5CDR_ECE_CEILING && wrong <= BC5CDR_WRONG_AT_0_9_CEILING,
        "calibration worse on BC5CDR: ECE {ece:.3} (ceiling {BC5CDR_ECE_CEILING}), stated >= 0.9 \
         wrong {wrong:.3} (ceiling {BC5CDR_WRONG_AT_0_9_CEILING})\n{stdout}"
    );
    // The reliability diagram, drawn from the same bins.
    let diagram = std::fs::read(dir.join("CDR_DevelopmentSet.PubTator.reliability.png"))
        .expect("the reliability diagram is written");
    assert!(diagram.starts_with(b"\x89PNG\r\n\x1a\n") && diagram.len() > 500);
    eprintln!("{stdout}");
}

/// Floors for `ground_passage` with `sources=["mesh"]` on the BC5CDR development set, each
/// group scored apart, just under the figures when set: diseases mention F1 0.787, concept F1
/// 0.786; chemicals 0.849, 0.825 (confidence model 1fb2a53ec1c9). Ceilings on the mentions'
/// calibration there: ECE 0.032 / 0.036 (issue 46 asks at most 0.05), stated >= 0.9 wrong
/// 8.3 % / 4.7 % (it aims at 2 %).
const BC5CDR_PASSAGE_FLOORS: [(&str, f64, f64, f64, f64); 2] = [
    ("disease", 0.78, 0.78, 0.05, 0.10),
    ("chemical", 0.84, 0.815, 0.05, 0.05),
];

#[test]
fn passages_on_the_bc5cdr_development_set_stay_above_their_floors_for_each_group() {
    let Some((_, stdout, report)) = run_eval(
        "eval-passages-bc5cdr",
        "corpora/bc5cdr/CDR_DevelopmentSet.PubTator.txt",
        &["--passages"],
    ) else {
        return;
    };
    let figures = &report["corpora"][0];
    assert_eq!(number(figures, "/tool_errors"), 0.0);
    for (group, mention_floor, concept_floor, ece_ceiling, wrong_ceiling) in BC5CDR_PASSAGE_FLOORS {
        let ours = |path: &str| {
            number(
                figures,
                &format!("/by_group/{group}/ontoresolve ground_passage{path}"),
            )
        };
        assert!(ours("/gold_mentions") > 4000.0, "{group}");
        let (mention, concept) = (ours("/mention/f1"), ours("/concept/f1"));
        let (ece, wrong) = (
            ours("/calibration/ece"),
            ours("/calibration/stated_at_least_0_9_wrong_share"),
        );
        assert!(
            mention >= mention_floor
                && concept >= concept_floor
                && ece <= ece_ceiling
                && wrong <= wrong_ceiling,
            "{group}: mention F1 {mention:.3} (floor {mention_floor}), concept F1 {concept:.3} \
             (floor {concept_floor}), ECE {ece:.3} (ceiling {ece_ceiling}), stated >= 0.9 wrong \
             {wrong:.3} (ceiling {wrong_ceiling})\n{stdout}"
        );
    }
    eprintln!("{stdout}");
}
