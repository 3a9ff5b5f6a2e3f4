//! `ontoresolve map` on the bundled catalogue's index: a 1,000-row file of real identifiers
//! (MeSH, MONDO, HGNC, HP) mixed with malformed, unknown-prefix, obsolete and unmapped ones,
//! to SSSOM TSV; checked row by row, and by sssom-py (`/var/tmp/ontoresolve-venv`, or the
//! Python of `ONTORESOLVE_PYTHON`) when it is installed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use crate::support::{default_index, default_index_dir, python_with, repo, scratch};

/// Input rows of the large test.
const INPUT_ROWS: usize = 1_000;
/// Real identifiers taken from each loaded source.
const PER_SOURCE: usize = 200;

/// Inputs with a known answer, and the line each is written on.
const SPECIAL: &[(usize, &str)] = &[
    (1, "MONDO:0005148"),
    (2, "HP:abc"),
    (3, "not an id"),
    (4, ""),
    (5, "FOO:123"),
    (6, "HP:0000535"),
    (7, "HP:9999999"),
    (500, "HP:abc"),
    (1_000, "MONDO:0005148"),
];

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ontoresolve")
}

/// Validates with `sssom validate`, and checks that sssom-py keeps every row: it drops rows
/// it finds malformed with only a log line, so the count matters as much as the exit code.
fn validate_with_sssom_py(path: &Path, rows: usize) {
    let Some(python) = python_with("sssom") else {
        return;
    };
    let cli = python.with_file_name("sssom");
    let out = Command::new(&cli)
        .arg("validate")
        .arg(path)
        .output()
        .expect("run sssom validate");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "sssom validate failed:\n{stderr}");
    assert!(
        !stderr.contains("not well-formed") && !stderr.contains("ERROR"),
        "sssom validate complained:\n{stderr}"
    );
    let script = "import sys\n\
        from sssom.parsers import parse_sssom_table, to_mapping_set_document\n\
        msdf = parse_sssom_table(sys.argv[1])\n\
        print(len(to_mapping_set_document(msdf).mapping_set.mappings))\n";
    let out = Command::new(&python)
        .args(["-c", script])
        .arg(path)
        .output()
        .expect("run sssom-py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.trim(),
        rows.to_string(),
        "sssom-py kept another number of rows than were written"
    );
}

/// A parsed SSSOM TSV: the curie map's prefixes and the rows by column name.
struct Sssom {
    prefixes: BTreeSet<String>,
    rows: Vec<BTreeMap<String, String>>,
}

impl Sssom {
    fn read(path: &Path) -> Sssom {
        let text = std::fs::read_to_string(path).expect("read the output");
        let mut prefixes = BTreeSet::new();
        let mut lines = text.lines();
        let mut in_map = false;
        let columns: Vec<String> = loop {
            let line = lines.next().expect("a column line after the header");
            let Some(yaml) = line.strip_prefix('#') else {
                break line.split('\t').map(str::to_string).collect();
            };
            if yaml.starts_with("   ") && in_map {
                let key = yaml.trim().split(": ").next().unwrap_or("");
                prefixes.insert(key.trim_matches('"').to_string());
            } else {
                in_map = yaml.trim() == "curie_map:";
            }
        };
        let rows = lines
            .map(|line| {
                columns
                    .iter()
                    .cloned()
                    .zip(line.split('\t').map(str::to_string))
                    .collect()
            })
            .collect();
        Sssom { prefixes, rows }
    }

    /// Rows whose comment starts with `input line N;`.
    fn for_line(&self, n: usize) -> Vec<&BTreeMap<String, String>> {
        let start = format!("input line {n};");
        self.rows
            .iter()
            .filter(|r| r["comment"].starts_with(&start))
            .collect()
    }
}

/// Evenly spaced identifiers of one loaded source.
fn source_ids(id: &str) -> Vec<String> {
    let r = default_index();
    let source = r.manifest().source(id).expect("source loaded");
    let step = (source.counts.concepts as usize / PER_SOURCE).max(1);
    (0..PER_SOURCE)
        .filter_map(|i| {
            r.concept(ontoresolve::resolve::ConceptId(
                source.first_concept + (i * step) as u32,
            ))
            .expect("the index reads")
            .curie
        })
        .collect()
}

/// The bundled MONDO→MeSH set, which the default index loads.
const MONDO_MESH_SET: &str = "ontologies/sssom/mondo/mondo_exactmatch_mesh.sssom.tsv.gz";

/// Evenly spaced (MONDO id, MeSH id as the set writes it, e.g. `mesh:D004194`) pairs of the
/// bundled MONDO→MeSH set.
fn mondo_and_mesh_ids() -> Vec<(String, String)> {
    let file = std::fs::File::open(repo().join(MONDO_MESH_SET)).expect("open the MONDO set");
    let text = std::io::read_to_string(flate2::read::GzDecoder::new(file)).expect("read it");
    let pairs: Vec<(String, String)> = text
        .lines()
        .filter(|l| l.starts_with("MONDO:"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            Some((cells.first()?.to_string(), cells.get(3)?.to_string()))
        })
        .collect();
    let step = (pairs.len() / PER_SOURCE).max(1);
    pairs.into_iter().step_by(step).take(PER_SOURCE).collect()
}

/// The input of the large test: real identifiers, with [`SPECIAL`] on their lines.
fn thousand_rows() -> Vec<String> {
    let mut real: Vec<String> = Vec::new();
    for (mondo, mesh) in mondo_and_mesh_ids() {
        real.push(mondo);
        real.push(mesh);
    }
    real.extend(source_ids("mesh"));
    real.extend(source_ids("hgnc"));
    real.extend(source_ids("hp"));
    (1..=INPUT_ROWS)
        .map(|line| match SPECIAL.iter().find(|(l, _)| *l == line) {
            Some((_, text)) => text.to_string(),
            None => real[line % real.len()].clone(),
        })
        .collect()
}

/// Runs the binary and returns its output; panics unless it succeeds.
fn run_map(args: &[&str]) -> Output {
    let out = Command::new(binary())
        .arg("map")
        .args(args)
        .arg("--index")
        .arg(default_index_dir())
        .env("ONTORESOLVE_LOG", "error")
        .output()
        .expect("run ontoresolve map");
    assert!(
        out.status.success(),
        "map failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The large test's output, mapped once and shared by the tests that read it.
fn mapped_thousand() -> &'static (PathBuf, Sssom) {
    static MAPPED: OnceLock<(PathBuf, Sssom)> = OnceLock::new();
    MAPPED.get_or_init(|| {
        let dir = scratch("map-cli-thousand");
        let input = dir.join("ids.txt");
        std::fs::write(&input, thousand_rows().join("\n") + "\n").expect("write input");
        let output = dir.join("ids.sssom.tsv");
        let out = run_map(&[path_str(&input), "-o", path_str(&output)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("1000 input rows") && stderr.contains("rows written"),
            "no summary on stderr:\n{stderr}"
        );
        let parsed = Sssom::read(&output);
        (output, parsed)
    })
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 scratch path")
}

#[test]
fn map_writes_at_least_one_row_per_input_line() {
    let (_, sssom) = mapped_thousand();
    let missing: Vec<usize> = (1..=INPUT_ROWS)
        .filter(|n| sssom.for_line(*n).is_empty())
        .collect();
    assert!(missing.is_empty(), "input lines without a row: {missing:?}");
    assert!(
        sssom
            .rows
            .iter()
            .all(|r| r["comment"].starts_with("input line ")),
        "a row's comment does not start with its input line"
    );
}

#[test]
fn map_cites_the_mondo_set_for_mondo_to_mesh_exact_match() {
    let (_, sssom) = mapped_thousand();
    for line in [1, 1_000] {
        let rows = sssom.for_line(line);
        let row = rows
            .iter()
            .find(|r| r["object_id"] == "MESH:D003924")
            .unwrap_or_else(|| panic!("no MESH:D003924 row for line {line}: {rows:?}"));
        assert_eq!(row["subject_id"], "MONDO:0005148");
        assert_eq!(row["predicate_id"], "skos:exactMatch");
        assert_eq!(row["mapping_justification"], "semapv:ManualMappingCuration");
        assert!(
            row["mapping_source"].contains("mondo_exactmatch_mesh"),
            "{row:?}"
        );
        assert!(
            row["comment"].contains("mondo-sssom/mondo_exactmatch_mesh"),
            "{row:?}"
        );
    }
}

#[test]
fn map_writes_malformed_and_unknown_prefix_input_as_no_term_found_with_the_raw_input() {
    let (_, sssom) = mapped_thousand();
    for (line, raw, reason) in [
        (2, "HP:abc", "malformed"),
        (3, "not an id", "malformed"),
        (4, "", "malformed"),
        (5, "FOO:123", "unknown_prefix"),
        (500, "HP:abc", "malformed"),
    ] {
        let rows = sssom.for_line(line);
        assert_eq!(rows.len(), 1, "line {line}: {rows:?}");
        let row = rows[0];
        assert_eq!(row["subject_id"], "sssom:NoTermFound", "line {line}");
        assert_eq!(row["subject_label"], raw, "line {line}");
        assert_eq!(row["object_id"], "sssom:NoTermFound", "line {line}");
        assert_eq!(row["predicate_id"], "skos:exactMatch", "line {line}");
        assert_eq!(row["mapping_justification"], "semapv:UnspecifiedMatching");
        assert!(
            row["comment"].starts_with(&format!("input line {line}; {reason}")),
            "line {line}: {}",
            row["comment"]
        );
    }
}

#[test]
fn map_names_both_replacements_of_an_obsolete_identifier_and_keeps_unmapped_ids() {
    let (_, sssom) = mapped_thousand();
    let rows = sssom.for_line(6);
    let row = rows
        .iter()
        .find(|r| r["object_id"] == "sssom:NoTermFound")
        .unwrap_or_else(|| panic!("no NoTermFound row for HP:0000535: {rows:?}"));
    assert_eq!(row["subject_id"], "HP:0000535");
    for wanted in ["obsolete; replaced by", "HP:0045074", "HP:0045075"] {
        assert!(row["comment"].contains(wanted), "{}", row["comment"]);
    }
    let rows = sssom.for_line(7);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["subject_id"], "HP:9999999");
    assert_eq!(rows[0]["object_id"], "sssom:NoTermFound");
    assert!(rows[0]["comment"].contains("unmapped"), "{rows:?}");
}

#[test]
fn map_declares_every_prefix_it_uses_in_the_curie_map() {
    let (_, sssom) = mapped_thousand();
    let mut missing = BTreeSet::new();
    for row in &sssom.rows {
        let references = [
            "subject_id",
            "predicate_id",
            "object_id",
            "mapping_justification",
        ]
        .iter()
        .map(|c| row[*c].as_str())
        .chain(row["author_id"].split('|'))
        .chain(row["reviewer_id"].split('|'))
        .chain(std::iter::once(row["mapping_source"].as_str()));
        for reference in references.filter(|r| !r.is_empty() && !r.starts_with("http")) {
            let prefix = reference.split(':').next().unwrap_or("");
            if !sssom.prefixes.contains(prefix) {
                missing.insert(prefix.to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "prefixes missing from curie_map: {missing:?}"
    );
}

#[test]
fn map_output_validates_with_sssom_py() {
    let (path, sssom) = mapped_thousand();
    validate_with_sssom_py(path, sssom.rows.len());
}

#[test]
fn map_by_label_gives_mesh_objects_for_names_as_literal_subjects() {
    let dir = scratch("map-cli-label");
    let input = dir.join("names.txt");
    std::fs::write(&input, "breast cancer\nSeizures\nSeizurres\nzzqqxx\n\n").expect("write input");
    let output = dir.join("names.sssom.tsv");
    run_map(&[
        path_str(&input),
        "--by",
        "label",
        "--to",
        "MESH",
        "-o",
        path_str(&output),
    ]);
    let sssom = Sssom::read(&output);
    let breast = sssom.for_line(1);
    assert!(
        breast.iter().any(|r| r["object_id"].starts_with("MESH:")
            && r["subject_id"].is_empty()
            && r["subject_type"] == "rdfs literal"
            && r["subject_label"] == "breast cancer"),
        "no MeSH row for 'breast cancer': {breast:?}"
    );
    let seizures = sssom.for_line(2);
    assert!(
        seizures.iter().any(|r| r["object_id"] == "MESH:D012640"
            && r["predicate_id"] == "skos:exactMatch"
            && r["mapping_justification"] == "semapv:LexicalMatching"),
        "no exact MeSH row for 'Seizures': {seizures:?}"
    );
    // A near spelling claims no more than a related match, with the candidate's confidence.
    let typo = sssom.for_line(3);
    assert!(
        typo.iter().any(|r| r["object_id"] == "MESH:D012640"
            && r["predicate_id"] == "skos:relatedMatch"
            && r["confidence"]
                .parse::<f64>()
                .is_ok_and(|c| (0.0..1.0).contains(&c))),
        "no related MeSH row for 'Seizurres': {typo:?}"
    );
    for line in [4, 5] {
        let rows = sssom.for_line(line);
        assert_eq!(rows.len(), 1, "line {line}: {rows:?}");
        assert_eq!(rows[0]["object_id"], "sssom:NoTermFound");
    }
    validate_with_sssom_py(&output, sssom.rows.len());
}

#[test]
fn map_reads_a_csv_column_by_its_header_name_and_keeps_file_line_numbers() {
    let dir = scratch("map-cli-csv");
    let input = dir.join("ids.csv");
    std::fs::write(&input, "name,id\n\"diabetes\",\"MONDO:0005148\"\nshort\n").expect("write");
    let out = run_map(&[path_str(&input), "--column", "id", "--to", "mesh"]);
    let path = dir.join("out.sssom.tsv");
    std::fs::write(&path, &out.stdout).expect("write output");
    let sssom = Sssom::read(&path);
    assert!(
        sssom
            .for_line(2)
            .iter()
            .all(|r| r["object_id"].starts_with("MESH:")),
        "{:?}",
        sssom.rows
    );
    assert!(!sssom.for_line(2).is_empty());
    let short = sssom.for_line(3);
    assert_eq!(short.len(), 1);
    assert!(short[0]["comment"].contains("no column 2"), "{short:?}");
    assert!(sssom.for_line(1).is_empty(), "the header is no input row");
}

#[test]
fn map_rejects_an_unknown_target_prefix_before_writing_anything() {
    let dir = scratch("map-cli-bad-target");
    let input = dir.join("ids.txt");
    std::fs::write(&input, "HP:0000118\n").expect("write input");
    let output = dir.join("out.sssom.tsv");
    let out = Command::new(binary())
        .args(["map", path_str(&input), "--to", "MESH,NOSUCHPREFIX", "-o"])
        .arg(&output)
        .arg("--index")
        .arg(default_index_dir())
        .output()
        .expect("run ontoresolve map");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("NOSUCHPREFIX"), "{stderr}");
    assert!(!output.exists(), "an output file was created");
}
