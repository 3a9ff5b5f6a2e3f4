//! `ontoresolve add` and `remove` against a local HTTP server used as the mirror: the
//! Bioregistry's link for DOID serves the shared data's DOID 2024 file, other paths serve a
//! 404, HTML, a body cut short, or nothing at all.
//!
//! The index is a hard-linked copy of the shared default index beside a copy of the bundled
//! catalogue (its data files linked), so the first add also shows that reuse goes by
//! checksums, not paths.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const DOID_LINK: &str =
    "/github.com/DiseaseOntology/HumanDiseaseOntology/raw/main/src/ontology/doid.obo";

/// What the mirror serves at a path.
#[derive(Clone)]
enum Reply {
    File(Vec<u8>),
    Status(u16),
    /// Declares this many bytes, sends a few, closes.
    CutShort(u64),
    Html,
    /// Accepts and never answers.
    Stall,
}

fn route(path: &str, doid: &[u8]) -> Reply {
    match path {
        DOID_LINK => Reply::File(doid.to_vec()),
        "/bad/gone.obo" => Reply::Status(404),
        "/bad/short.obo" => Reply::CutShort(1_000_000),
        "/bad/page.obo" => Reply::Html,
        "/bad/stall.obo" => Reply::Stall,
        _ => Reply::Status(404),
    }
}

/// Serves on a loopback port until the test binary exits; returns its base URL.
fn mirror(doid: Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind the mirror");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let doid = doid.clone();
            std::thread::spawn(move || answer(stream, &doid));
        }
    });
    base
}

fn answer(mut stream: TcpStream, doid: &[u8]) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).map_or(true, |n| n == 0) || header.trim().is_empty() {
            break;
        }
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
    let head = |status: &str, length: u64, kind: &str| {
        format!(
            "HTTP/1.1 {status}\r\ncontent-length: {length}\r\ncontent-type: {kind}\r\nconnection: close\r\n\r\n"
        )
    };
    let _ = match route(&path, doid) {
        Reply::File(bytes) => stream
            .write_all(head("200 OK", bytes.len() as u64, "application/octet-stream").as_bytes())
            .and_then(|()| stream.write_all(&bytes)),
        Reply::Status(code) => {
            stream.write_all(head(&format!("{code} Not Found"), 0, "text/plain").as_bytes())
        }
        Reply::CutShort(declared) => stream
            .write_all(head("200 OK", declared, "text/plain").as_bytes())
            .and_then(|()| stream.write_all(b"format-version: 1.2\n")),
        Reply::Html => {
            let page = b"<!DOCTYPE html>\n<html><body>Sign in to continue</body></html>\n";
            stream
                .write_all(head("200 OK", page.len() as u64, "text/html").as_bytes())
                .and_then(|()| stream.write_all(page))
        }
        Reply::Stall => {
            std::thread::sleep(std::time::Duration::from_secs(30));
            Ok(())
        }
    };
}

/// A copy of the bundled catalogue (data files linked) and a hard-linked copy of the shared
/// default index.
struct Workspace {
    catalogue: PathBuf,
    index: PathBuf,
    /// One workspace builds at a time: each build takes both cores, and the other tests'
    /// deadlines run meanwhile.
    _turn: std::sync::MutexGuard<'static, ()>,
}

fn workspace(name: &str) -> Workspace {
    let turn = crate::support::heavy_turn();
    let dir = crate::support::scratch(name);
    let ontologies = dir.join("ontologies");
    std::fs::create_dir(&ontologies).expect("create ontologies");
    let bundled = crate::support::repo().join("ontologies");
    for entry in std::fs::read_dir(&bundled)
        .expect("read ontologies")
        .flatten()
    {
        std::os::unix::fs::symlink(entry.path(), ontologies.join(entry.file_name())).expect("link");
    }
    // The catalogue itself is a copy: add and remove rewrite it.
    let catalogue = ontologies.join("sources.toml");
    std::fs::remove_file(&catalogue).expect("unlink catalogue");
    std::fs::copy(bundled.join("sources.toml"), &catalogue).expect("copy catalogue");
    let index = dir.join("index");
    let status = Command::new("cp")
        .arg("-al")
        .arg(crate::support::default_index_dir())
        .arg(&index)
        .status()
        .expect("cp");
    assert!(status.success(), "copying the default index");
    // A hard-linked lock file is the same lock as the shared index's: give the copy its own.
    let _ = std::fs::remove_file(index.join(".build.lock"));
    Workspace {
        catalogue,
        index,
        _turn: turn,
    }
}

impl Workspace {
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
            .args(args)
            .arg("--sources")
            .arg(&self.catalogue)
            .arg("--index")
            .arg(&self.index)
            .env_remove("ONTORESOLVE_MIRROR")
            .output()
            .expect("run ontoresolve")
    }

    fn current(&self) -> String {
        std::fs::read_to_string(self.index.join("CURRENT")).expect("CURRENT")
    }

    fn manifest(&self) -> Value {
        let dir = self.index.join(self.current().trim());
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"))
            .expect("manifest JSON")
    }

    fn lookup_output(&self, query: &str) -> Output {
        Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
            .args(["lookup", query, "--json", "--index"])
            .arg(&self.index)
            .output()
            .expect("lookup")
    }

    fn lookup(&self, query: &str) -> Value {
        let out = self.lookup_output(query);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("lookup JSON")
    }
}

/// The checksums of the deterministic files of a build (everything but the store and the
/// full-text index, which RocksDB and tantivy lay out as they please).
fn file_checksums(manifest: &Value) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = manifest["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap_or_default().to_string(),
                f["sha256"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    files.sort();
    files
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn doid_file() -> Option<Vec<u8>> {
    let data = crate::support::shared_data()?;
    Some(std::fs::read(data.join("obo/doid-2024-01-31.obo.gz")).expect("read DOID"))
}

#[test]
fn add_doid_through_the_mirror_reuses_the_rest_and_remove_gives_the_index_back() {
    let Some(doid) = doid_file() else { return };
    let base = mirror(doid);
    let ws = workspace("add-doid");
    let before = ws.manifest();
    let catalogue_before = std::fs::read_to_string(&ws.catalogue).expect("catalogue");

    let out = ws.run(&["add", "doid", "--mirror", &base]);
    let log = stderr(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("download_obo"),
        "names the link it took: {log}"
    );
    for reused in ["mesh", "hgnc", "mondo"] {
        assert!(
            log.lines()
                .any(|l| l.trim_start().starts_with(&format!("{reused}:")) && l.contains("reused")),
            "{reused} is reused: {log}"
        );
    }
    assert!(log.contains("from the file's data-version"), "{log}");
    assert!(
        log.contains("from the installed build as stored"),
        "the sources before DOID are carried, not rewritten: {log}"
    );
    let catalogue = std::fs::read_to_string(&ws.catalogue).expect("catalogue");
    assert!(
        catalogue.starts_with(&catalogue_before),
        "the catalogue keeps its text"
    );
    let entry: toml::Table = toml::from_str(&catalogue[catalogue_before.len()..]).expect("entry");
    let entry = &entry["source"].as_array().expect("one entry")[0];
    assert_eq!(entry["id"].as_str(), Some("doid"));
    assert_eq!(entry["license"].as_str(), Some("CC0-1.0"));
    assert_eq!(entry["release"].as_str(), Some("2024-01-31"));
    assert_eq!(
        entry["url"].as_str(),
        Some(&format!("https:/{DOID_LINK}")[..])
    );
    let found = ws.lookup("DOID:9352");
    let text = found.to_string();
    assert!(text.contains("type 2 diabetes mellitus"), "{text}");
    assert!(text.contains("2024-01-31"), "{text}");

    let again = ws.run(&["add", "DOID", "--mirror", &base]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("already in the catalogue"),
        "{}",
        stderr(&again)
    );
    assert!(
        stderr(&again).contains("ontoresolve update doid"),
        "{}",
        stderr(&again)
    );

    let current = ws.current();
    let update = ws.run(&["update", "doid", "--mirror", &base]);
    assert!(update.status.success(), "{}", stderr(&update));
    assert!(stderr(&update).contains("unchanged"), "{}", stderr(&update));
    assert_eq!(ws.current(), current, "an unchanged file builds nothing");

    let removed = ws.run(&["remove", "doid"]);
    assert!(removed.status.success(), "{}", stderr(&removed));
    assert_eq!(
        std::fs::read_to_string(&ws.catalogue).expect("catalogue"),
        catalogue_before
    );
    assert_eq!(
        file_checksums(&ws.manifest()),
        file_checksums(&before),
        "the same index files"
    );
    assert_eq!(ws.manifest()["build_id"], before["build_id"]);
    let gone = ws.lookup_output("DOID:9352");
    assert!(!gone.status.success(), "DOID is no longer loaded");
    assert!(
        stderr(&gone).contains("no concept matches"),
        "{}",
        stderr(&gone)
    );
}

#[test]
fn add_so_from_a_local_obo_graphs_file_reads_its_terms() {
    let Some(data) = crate::support::shared_data() else {
        return;
    };
    let ws = workspace("add-so");
    let file = data.join("obographs/so.json.gz");
    let out = ws.run(&["add", "so", "--file", &file.display().to_string()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let gene = ws.lookup("SO:0000704").to_string();
    assert!(gene.contains("\"gene\""), "{gene}");
    let catalogue = std::fs::read_to_string(&ws.catalogue).expect("catalogue");
    assert!(
        catalogue.contains("format = \"obographs-json\""),
        "{catalogue}"
    );
}

#[test]
fn a_dry_run_names_a_registry_link_and_changes_nothing() {
    let ws = workspace("add-dry-run");
    let catalogue = std::fs::read_to_string(&ws.catalogue).expect("catalogue");
    let current = ws.current();
    // A mirror nobody listens on: a dry run must not fetch.
    let out = ws.run(&["add", "go", "--dry-run", "--mirror", "http://127.0.0.1:9"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains("url = \"http://purl.obolibrary.org/obo/go.obo\""),
        "{printed}"
    );
    assert!(
        stderr(&out).contains("obofoundry.artifacts"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&ws.catalogue).expect("catalogue"),
        catalogue
    );
    assert_eq!(ws.current(), current);
}

#[test]
fn every_bad_add_names_its_cause_and_leaves_catalogue_and_current_alone() {
    let Some(doid) = doid_file() else { return };
    let base = mirror(doid);
    let ws = workspace("add-bad");
    let catalogue = std::fs::read_to_string(&ws.catalogue).expect("catalogue");
    let current = ws.current();
    let url = |path: &str| format!("{base}{path}");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["add".into(), "doidd".into()],
            "unknown prefix 'doidd'; the closest known prefixes are",
        ),
        (
            vec!["add".into(), "abcam".into()],
            "lists no download for abcam; its homepage is https://www.abcam.com",
        ),
        (
            vec!["add".into(), "hp".into()],
            "'hp' is already in the catalogue",
        ),
        (
            vec![
                "add".into(),
                "doid".into(),
                "--url".into(),
                url("/bad/gone.obo"),
            ],
            "HTTP 404 from",
        ),
        (
            vec![
                "add".into(),
                "doid".into(),
                "--url".into(),
                url("/bad/page.obo"),
            ],
            "an HTML page, not OBO",
        ),
        (
            vec![
                "add".into(),
                "doid".into(),
                "--url".into(),
                url("/bad/short.obo"),
            ],
            "the download stopped after 20 bytes of 1000000",
        ),
        (
            vec![
                "add".into(),
                "doid".into(),
                "--timeout".into(),
                "1".into(),
                "--url".into(),
                url("/bad/stall.obo"),
            ],
            "no answer within 1 s",
        ),
        (
            vec![
                "add".into(),
                "doid".into(),
                "--url".into(),
                "http://x.org/doid.ofn".into(),
            ],
            "OWL functional syntax",
        ),
        (
            vec!["remove".into(), "nosuch".into()],
            "'nosuch' is not in the catalogue",
        ),
    ];
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ws.run(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert_eq!(
            std::fs::read_to_string(&ws.catalogue).expect("catalogue"),
            catalogue,
            "{args:?}"
        );
        assert_eq!(ws.current(), current, "{args:?}");
        let strays: Vec<_> = std::fs::read_dir(ws.catalogue.parent().unwrap_or(Path::new(".")))
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.') || n.starts_with("doid"))
            .collect();
        assert!(strays.is_empty(), "{args:?} left {strays:?}");
    }
}

/// The catalogue without the entries whose `path` is `path`, comments and order kept.
fn without_entry(catalogue: &str, path: &str) -> String {
    let mut doc: toml_edit::DocumentMut = catalogue.parse().expect("the catalogue parses");
    let sources = doc["source"]
        .as_array_of_tables_mut()
        .expect("[[source]] entries");
    sources.retain(|t| t.get("path").and_then(|p| p.as_str()) != Some(path));
    doc.to_string()
}

#[test]
fn adding_a_second_mondo_release_rebuilds_neither_mesh_nor_hgnc() {
    let ws = workspace("add-release");
    let full = std::fs::read_to_string(&ws.catalogue).expect("catalogue");
    let older = "mondo-2025-02-04.json.zst";
    let one_release = without_entry(&full, older);
    assert_ne!(
        one_release, full,
        "the bundled catalogue holds MONDO 2025-02-04"
    );
    std::fs::write(&ws.catalogue, &one_release).expect("write catalogue");
    let out = ws.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let releases = |m: &Value| -> Vec<String> {
        m["sources"]
            .as_array()
            .expect("sources")
            .iter()
            .filter(|s| s["id"] == "mondo")
            .filter_map(|s| s["release"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(releases(&ws.manifest()), ["2026-05-05"]);

    std::fs::write(&ws.catalogue, &full).expect("write catalogue");
    let started = std::time::Instant::now();
    let out = ws.run(&["build"]);
    let took = started.elapsed();
    let log = stderr(&out);
    assert!(out.status.success(), "{log}");
    let reused = |prefix: &str| {
        log.lines()
            .any(|l| l.trim_start().starts_with(prefix) && l.contains("reused"))
    };
    for source in ["mesh:", "hgnc:", "hp:", "mondo: release 2026-05-05"] {
        assert!(reused(source), "{source} is reused: {log}");
    }
    assert!(
        !reused("mondo: release 2025-02-04"),
        "the added release is read: {log}"
    );
    // An older release states no mappings: no mapping set is read again.
    assert!(
        log.contains("taking the mapping sets' segment of the mapping index and its")
            && log.contains("writing 0 segment(s) of the mapping index"),
        "the mapping index is taken: {log}"
    );
    let mut both = releases(&ws.manifest());
    both.sort();
    assert_eq!(both, ["2025-02-04", "2026-05-05"]);
    let pinned = ws.lookup("MONDO:0000030@2025-02-04");
    assert!(
        pinned
            .to_string()
            .contains("sleep-related hypermotor epilepsy"),
        "{pinned}"
    );
    eprintln!("adding the MONDO 2025-02-04 release to the default index took {took:?}");
}
