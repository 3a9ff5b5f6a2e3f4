//! A damaged index is an error that names the file, never an empty answer: `ontoresolve
//! check` finds every damaged file (exit 1), opening the index (and so `serve`) refuses a
//! missing, truncated or foreign file, and a record that cannot be read fails the lookup.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use ontoresolve::index::{FileProblem, OpenError};
use ontoresolve::resolve::{ConceptId, NameQuery, ResolveError, Resolver};

use crate::support::{build_into, fixtures, scratch};

fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create copy");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// A fresh copy of one sound fixture index (built once per test binary): the index directory
/// and its active build directory.
fn sound_index(name: &str) -> (PathBuf, PathBuf) {
    static PRISTINE: OnceLock<PathBuf> = OnceLock::new();
    let pristine = PRISTINE.get_or_init(|| {
        let dir = scratch("check-pristine");
        build_into(&fixtures().join("fixtures.toml"), &dir.join("index"));
        dir.join("index")
    });
    let index = scratch(&format!("check-{name}")).join("index");
    copy_dir(pristine, &index);
    let current = std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT");
    let build = index.join(current.trim());
    (index, build)
}

fn check(index: &Path) -> (Option<i32>, String, String) {
    let out: Output = exe()
        .arg("check")
        .arg("--index")
        .arg(index)
        .output()
        .expect("run check");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn truncate(path: &Path, by: usize) {
    let bytes = std::fs::read(path).expect("read");
    std::fs::write(path, &bytes[..bytes.len().saturating_sub(by)]).expect("truncate");
}

fn flip_byte(path: &Path, at: usize) {
    let mut bytes = std::fs::read(path).expect("read");
    bytes[at] ^= 0x20;
    std::fs::write(path, bytes).expect("flip");
}

/// The file an open error names, and its problem.
fn open_failure(index: &Path) -> (PathBuf, FileProblem) {
    match Resolver::open(index) {
        Err(OpenError::DamagedFile(e)) => (e.path, e.problem),
        Err(other) => panic!("expected a damaged file, got: {other}"),
        Ok(_) => panic!("a damaged index opened"),
    }
}

#[test]
fn check_passes_a_sound_index_and_lists_every_file() {
    let (index, build) = sound_index("sound");
    let (code, stdout, stderr) = check(&index);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    for file in [
        &segment(&build, "concepts", "dat"),
        &segment(&build, "concepts", "idx"),
        "concepts.flags",
        &segment(&build, "labels", "fst"),
        &segment(&build, "labels", "postings"),
        "registry.dat",
        "mapping-hops-sets.idx",
        "fulltext/",
        "store/",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok") && l.contains(file)),
            "no ok line for {file}:\n{stdout}"
        );
    }
    assert!(!stdout.contains("DAMAGED"), "{stdout}");
    assert!(stdout.contains("sound:"), "{stdout}");
    // The manifest records every file a reader maps, with its length.
    let r = Resolver::open(&index).expect("open");
    for record in &r.manifest().files {
        let len = std::fs::metadata(build.join(&record.name))
            .expect("recorded file exists")
            .len();
        assert_eq!(len, record.bytes, "{}", record.name);
        assert_eq!(record.sha256.len(), 64);
    }
    assert!(
        r.manifest()
            .file(&segment(&build, "concepts", "dat"))
            .is_some()
    );
    assert!(r.manifest().file("manifest.json").is_none());
}

#[test]
fn a_truncated_table_file_fails_check_and_open_naming_it() {
    let (index, build) = sound_index("truncated-table");
    let table = segment(&build, "concepts", "dat");
    truncate(&build.join(&table), 10);
    let (code, stdout, stderr) = check(&index);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.contains(&table))
        .unwrap_or_else(|| panic!("{table} not named:\n{stdout}"));
    assert!(
        line.starts_with("DAMAGED") && line.contains("the manifest records"),
        "{line}"
    );
    assert!(
        stdout.contains("damaged: 1 of") && stderr.contains(&table),
        "{stdout}\n{stderr}"
    );
    let (path, problem) = open_failure(&index);
    assert_eq!(path, build.join(&table));
    assert!(matches!(problem, FileProblem::Length { .. }), "{problem}");
}

#[test]
fn a_flipped_byte_in_a_postings_file_fails_check_naming_it() {
    let (index, build) = sound_index("flipped-postings");
    let name = segment(&build, "labels", "postings");
    let postings = build.join(&name);
    let len = std::fs::metadata(&postings).expect("stat").len() as usize;
    flip_byte(&postings, len / 2);
    let (code, stdout, stderr) = check(&index);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    let damaged: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("DAMAGED"))
        .collect();
    assert_eq!(damaged.len(), 1, "{stdout}");
    assert!(
        damaged[0].contains(&name) && damaged[0].contains("checksum mismatch"),
        "{stdout}"
    );
    // Opening stays cheap: it checks lengths and headers, not every byte.
    assert!(Resolver::open(&index).is_ok());
}

/// Sets the count of every posting list in a postings file to one that runs past its end:
/// the file keeps its length and header, so the open passes, but no list can be read.
fn overrun_postings(path: &Path) {
    const HEADER: usize = 16;
    const POSTING: usize = 6;
    let mut bytes = std::fs::read(path).expect("read postings");
    let mut at = HEADER;
    while at + 4 <= bytes.len() {
        let count = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        at += 4 + count * POSTING;
    }
    std::fs::write(path, bytes).expect("write postings");
}

#[test]
fn a_posting_list_that_runs_past_its_file_fails_the_search_instead_of_matching_nothing() {
    let (index, build) = sound_index("overrun-postings");
    let name = segment(&build, "labels", "postings");
    let label = {
        let r = Resolver::open(&index).expect("open");
        let in_segment = |id: ConceptId| {
            let concept = r.concept(id).expect("the record");
            let release = r.source_of(&concept).expect("its release");
            let origin = ontoresolve::index::fulltext::origin_of(&release.graph);
            (name == format!("labels-{origin:016x}.postings"))
                .then(|| concept.preferred_label().map(|l| l.text.clone()))
                .flatten()
        };
        (r.concept_ids().find_map(in_segment)).expect("a labelled concept of that release")
    };
    overrun_postings(&build.join(&name));
    let r = Resolver::open(&index).expect("lengths and headers still fit");
    let error = r
        .find_by_name(&NameQuery {
            text: &label,
            sources: None,
            include_obsolete: true,
            full_text_beside_names: false,
            wanted: ontoresolve::resolve::FULL_TEXT_DEPTH,
        })
        .expect_err("a name whose postings cannot be read is no answer");
    assert!(
        error.to_string().contains(&name) && error.to_string().contains("lies beyond the file"),
        "{error}"
    );
    let error = (r.lexicon().lookup_label(&label)).expect_err("an exact name fails too");
    assert!(error.to_string().contains(&name), "{error}");
}

/// The registry is read whole when the index opens: damage there fails the open, so that no
/// prefix later goes missing from an answer.
#[test]
fn a_registry_posting_list_that_runs_past_its_file_fails_the_open_naming_it() {
    let (index, build) = sound_index("overrun-registry");
    overrun_postings(&build.join("registry.spellings.postings"));
    let (path, problem) = open_failure(&index);
    assert!(
        path.ends_with("registry.spellings.postings"),
        "{}: {problem}",
        path.display()
    );
}

#[test]
fn a_truncated_file_makes_serve_refuse_naming_it_instead_of_serving_or_rebuilding() {
    let (index, build) = sound_index("truncated-serve");
    let name = segment(&build, "labels", "fst");
    truncate(&build.join(&name), 3);
    let (path, _) = open_failure(&index);
    assert_eq!(path, build.join(&name));
    let current = std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT");
    let out = exe()
        .args(["serve", "--index"])
        .arg(&index)
        .arg("--sources")
        .arg(fixtures().join("fixtures.toml"))
        .stdin(Stdio::null())
        .output()
        .expect("run serve");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&name) && stderr.contains("damaged index file"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing was served");
    assert_eq!(
        std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT"),
        current,
        "a damaged index is not rebuilt behind the operator's back"
    );
}

#[test]
fn a_file_with_the_wrong_magic_is_named_by_open_and_check() {
    let (index, build) = sound_index("wrong-magic");
    let file = build.join("mappings-sets.dat");
    let mut bytes = std::fs::read(&file).expect("read");
    bytes[..8].copy_from_slice(b"ORPOSTNG");
    std::fs::write(&file, bytes).expect("write");
    let (path, problem) = open_failure(&index);
    assert_eq!(path, file);
    assert_eq!(
        problem,
        FileProblem::WrongMagic {
            expected: "record table data",
            found: "ORPOSTNG".into()
        }
    );
    let (code, stdout, _) = check(&index);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("DAMAGED  mappings-sets.dat: not a record table data file")),
        "{stdout}"
    );
}

#[test]
fn a_zero_length_file_is_named_not_read_as_empty() {
    let (index, build) = sound_index("zero-length");
    std::fs::write(build.join("concepts.flags"), b"").expect("empty it");
    let (path, problem) = open_failure(&index);
    assert_eq!(path, build.join("concepts.flags"));
    assert!(
        matches!(problem, FileProblem::Length { found: 0, .. }),
        "{problem}"
    );
    let (code, stdout, _) = check(&index);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("DAMAGED  concepts.flags") && l.contains("truncated")),
        "{stdout}"
    );
}

#[test]
fn a_missing_file_or_one_the_manifest_leaves_out_is_named() {
    let (index, build) = sound_index("missing");
    std::fs::remove_file(build.join("registry.idx")).expect("remove");
    let (path, problem) = open_failure(&index);
    assert_eq!(
        (path, problem),
        (build.join("registry.idx"), FileProblem::Missing)
    );

    let (index, build) = sound_index("unrecorded");
    let manifest_path = build.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest_path).expect("read")).expect("json");
    let files = manifest["files"].as_array_mut().expect("files");
    let ids = segment(&build, "ids", "postings");
    files.retain(|f| f["name"] != ids.as_str());
    std::fs::write(&manifest_path, manifest.to_string()).expect("write");
    let (path, problem) = open_failure(&index);
    assert_eq!(
        (path, problem),
        (build.join(&ids), FileProblem::NotRecorded)
    );
    let (code, stdout, _) = check(&index);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!("DAMAGED  {ids}: the manifest does not record it")),
        "{stdout}"
    );
}

#[test]
fn a_damaged_full_text_file_fails_check() {
    let (index, build) = sound_index("fulltext");
    let mut segment_files: Vec<(u64, PathBuf)> = std::fs::read_dir(build.join("fulltext"))
        .expect("read fulltext")
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().ends_with(".json"))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| (e.metadata().expect("stat").len(), e.path()))
        .collect();
    segment_files.sort();
    let (len, largest) = segment_files.pop().expect("a segment file");
    flip_byte(&largest, len as usize / 2);
    let (code, stdout, stderr) = check(&index);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    let name = largest
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("DAMAGED") && l.contains(&name)),
        "{name} not named:\n{stdout}"
    );
}

/// A damaged concept record: its id, its label, its release's table segment (data file name)
/// and its place there.
struct DamagedRecord {
    id: ConceptId,
    name: String,
    segment: String,
    row: usize,
}

/// Damages the concept record of `curie` in place in its release's table segment (its first
/// byte, `{`, becomes a letter: the same length, no longer JSON).
fn damage_record(index: &Path, build: &Path, curie: &str) -> DamagedRecord {
    let (id, name, origin, row) = {
        let r = Resolver::open(index).expect("open");
        let id = r.lexicon().lookup_id(curie).expect("the index reads")[0].concept;
        let concept = r.concept(id).expect("the record");
        let name = (concept.preferred_label())
            .map(|l| l.text.clone())
            .expect("label");
        let release = r.source_of(&concept).expect("its release");
        let origin = ontoresolve::index::fulltext::origin_of(&release.graph);
        (id, name, origin, id.row() - release.first_concept as usize)
    };
    let segment = format!("concepts-{origin:016x}.dat");
    let offsets = std::fs::read(build.join(segment.replace(".dat", ".idx"))).expect("offsets");
    let at = 16 + row * 8;
    let start = u64::from_le_bytes(offsets[at..at + 8].try_into().expect("8 bytes")) as usize;
    let data = build.join(&segment);
    let mut bytes = std::fs::read(&data).expect("read data");
    assert_eq!(bytes[16 + start], b'{');
    bytes[16 + start] = b'X';
    std::fs::write(&data, bytes).expect("write");
    DamagedRecord {
        id,
        name,
        segment,
        row,
    }
}

#[test]
fn a_concept_record_that_cannot_be_decoded_fails_the_lookup_instead_of_finding_nothing() {
    let (index, build) = sound_index("damaged-record");
    let DamagedRecord {
        id,
        name,
        segment,
        row,
    } = damage_record(&index, &build, "XD:0000004");
    let r = Resolver::open(&index).expect("lengths and headers still fit");
    let named = |e: &ResolveError| e.to_string().contains(&segment);
    let error = r
        .resolve_identifier("XD:0000004")
        .expect_err("a damaged record is no answer");
    assert!(
        named(&error) && error.to_string().contains(&format!("record {row}")),
        "{error}"
    );
    let error = r
        .find_by_name(&NameQuery {
            text: &name,
            sources: None,
            include_obsolete: true,
            full_text_beside_names: false,
            wanted: ontoresolve::resolve::FULL_TEXT_DEPTH,
        })
        .expect_err("a name search that meets the damaged record fails");
    assert!(named(&error), "{error}");
    assert!(r.concept(id).is_err());
    assert!(r.lexicon().lookup_label(&name).is_err());
}

/// Over MCP, a damaged record met on a path that cannot carry the error (a concept's child,
/// listed in its details and its resource; the record itself, read for its mappings resource)
/// fails the request instead of leaving the child out or reading as "no such resource";
/// a question that does not meet it is still answered.
#[test]
fn a_damaged_record_met_inside_an_answer_fails_the_request_not_just_the_log() {
    let (index, build) = sound_index("damaged-child");
    let damaged = damage_record(&index, &build, "XD:0000004");
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let requests = [
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_concept","arguments":{{"identifier":"XD:0000003"}},{meta}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{{"uri":"ontoresolve://concept/XD:0000003",{meta}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"get_concept","arguments":{{"identifier":"XD:0000001"}},{meta}}}}}"#
        ),
        // The mappings resource reads the damaged record itself: damage, not "no such resource".
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{{"uri":"ontoresolve://mappings/XD:0000004",{meta}}}}}"#
        ),
    ];
    let mut child = exe()
        .args(["serve", "--index"])
        .arg(&index)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all((requests.join("\n") + "\n").as_bytes())
            .expect("write");
    }
    let out = child
        .wait_with_output()
        .expect("serve ends at end of input");
    let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let by_id = |id: u64| {
        answers
            .iter()
            .find(|a| a["id"] == id)
            .unwrap_or_else(|| panic!("no answer {id}: {answers:?}"))
    };
    let details = by_id(1);
    assert_eq!(details["result"]["isError"], true, "{details}");
    assert!(
        details["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("\"index_damaged\"")),
        "{details}"
    );
    let resource = by_id(2);
    assert_eq!(
        resource["error"]["data"]["code"], "index_damaged",
        "{resource}"
    );
    let mappings = by_id(4);
    assert_eq!(
        mappings["error"]["data"]["code"], "index_damaged",
        "{mappings}"
    );
    let sound = by_id(3);
    assert_eq!(
        sound["result"]["structuredContent"]["result"]["concept"]["curie"], "XD:0000001",
        "{sound}"
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains(&damaged.segment),
        "the log names the file: {log}"
    );
}

/// The name of the first (in name order) release segment file of a concept lexicon, such as
/// `labels-<origin>.fst`.
fn segment(build: &std::path::Path, kind: &str, extension: &str) -> String {
    let mut names: Vec<String> = std::fs::read_dir(build)
        .expect("read the build directory")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(&format!("{kind}-")) && n.ends_with(&format!(".{extension}")))
        .collect();
    names.sort();
    names.into_iter().next().expect("a lexicon segment")
}
