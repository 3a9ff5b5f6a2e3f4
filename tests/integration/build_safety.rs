//! A failed or interrupted build never damages the index already in place, and the CLI keeps
//! its contract (exit codes, `ONTORESOLVE_INDEX`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ontoresolve::resolve::Resolver;

use crate::support::{build_into, fixtures, repo, scratch};

fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
}

fn temp_builds(index: &Path) -> Vec<String> {
    std::fs::read_dir(index)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".tmp-build-"))
                .collect()
        })
        .unwrap_or_default()
}

fn snapshot(index: &Path) -> (String, Vec<u8>, String) {
    let current = std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT");
    let manifest =
        std::fs::read(index.join(current.trim()).join("manifest.json")).expect("manifest");
    let r = Resolver::open(index).expect("previous index opens");
    let label = r
        .concept(
            r.lexicon()
                .lookup_id("XD:0000004")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("the index reads")
        .preferred_label()
        .map(|l| l.text.clone())
        .expect("label");
    (current, manifest, label)
}

#[test]
fn killed_build_leaves_previous_index_readable_and_unchanged() {
    let dir = scratch("interrupted");
    let index = dir.join("index");
    build_into(&fixtures().join("fixtures.toml"), &index);
    let before = snapshot(&index);

    let mut child = exe()
        .args(["build", "--sources"])
        .arg(repo().join("ontologies/sources.toml"))
        .arg("--index")
        .arg(&index)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn build");
    // Wait until the new build is writing its store, then kill it without warning.
    let started = Instant::now();
    loop {
        let writing = temp_builds(&index)
            .iter()
            .any(|t| index.join(t).join("store").join("CURRENT").exists());
        if writing {
            std::thread::sleep(Duration::from_millis(300));
            break;
        }
        assert!(
            child.try_wait().expect("poll").is_none(),
            "build finished before it could be interrupted"
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "build never started writing"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().expect("kill");
    child.wait().expect("reap");

    assert_eq!(snapshot(&index), before, "the previous index changed");
    assert_eq!(
        temp_builds(&index).len(),
        1,
        "the killed build left its temporary directory"
    );

    // The next build clears the dead build's leftovers.
    build_into(&fixtures().join("fixtures.toml"), &index);
    assert!(temp_builds(&index).is_empty());
}

#[test]
fn cli_exit_codes_and_index_variable() {
    let dir = scratch("cli");
    let index = dir.join("index");
    let status = exe()
        .args(["build", "--sources"])
        .arg(fixtures().join("fixtures.toml"))
        .env("ONTORESOLVE_INDEX", &index)
        .stderr(Stdio::null())
        .status()
        .expect("run build");
    assert_eq!(status.code(), Some(0));
    assert!(
        index.join("CURRENT").is_file(),
        "ONTORESOLVE_INDEX chose the index directory"
    );

    let out = exe()
        .args(["lookup", "xd_0000004"])
        .env("ONTORESOLVE_INDEX", &index)
        .output()
        .expect("run lookup");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("XD:0000004 Lungenentzündung (pneumonia)"),
        "{text}"
    );
    assert!(text.contains("release 2023-07-01"), "{text}");

    let broken = dir.join("broken.toml");
    std::fs::write(
        &broken,
        format!(
            "[[source]]\nid = \"b\"\ntitle = \"b\"\nkind = \"obo\"\npath = \"{}\"\nlicense = \"x\"\nattribution = \"x\"\nhomepage = \"x\"\nscope = \"x\"\n",
            fixtures().join("broken.obo").display()
        ),
    )
    .expect("write");
    let out = exe()
        .args(["build", "--sources"])
        .arg(&broken)
        .arg("--index")
        .arg(&index)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "a failed build exits 1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("broken.obo:10:10"), "{stderr}");

    let usage = exe()
        .args(["build", "--no-such-flag"])
        .output()
        .expect("run");
    assert_eq!(usage.status.code(), Some(2), "a usage error exits 2");
}

#[test]
fn a_source_failing_after_its_triples_reached_the_store_leaves_none() {
    use std::io::Write;
    let dir = scratch("late-failure");
    let file = dir.join("late.nt");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&file).expect("create"));
    for i in 0..250_000 {
        writeln!(
            out,
            "<http://example.org/s{i}> <http://www.w3.org/2000/01/rdf-schema#label> \"label {i}\" ."
        )
        .expect("write");
    }
    writeln!(
        out,
        "<http://example.org/broken> <http://example.org/p> \"unterminated ."
    )
    .expect("write");
    drop(out);
    let catalog =
        crate::support::fixtures_plus_source(&dir, "late", "owl", &file, "format = \"ntriples\"");
    let summary = ontoresolve::build::build(
        &ontoresolve::build::BuildOptions {
            catalog,
            index_dir: dir.join("index"),
            keep_going: true,
        },
        &ontoresolve::build::Silent,
    )
    .expect("keep-going build");
    assert_eq!(summary.manifest.skipped.len(), 1);
    assert!(
        summary.manifest.skipped[0]
            .reason
            .contains("late.nt:250001:"),
        "{}",
        summary.manifest.skipped[0].reason
    );
    let r = Resolver::open(&dir.join("index")).expect("open");
    let rows = r
        .store()
        .expect("store")
        .select("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { <http://example.org/s1> ?p ?o } }")
        .expect("query");
    assert_eq!(
        rows[0][0].1, "\"0\"^^<http://www.w3.org/2001/XMLSchema#integer>",
        "nothing of the failed source was committed"
    );
}

#[test]
fn a_second_concurrent_build_is_refused() {
    let dir = scratch("busy");
    let index = dir.join("index");
    std::fs::create_dir_all(&index).expect("mkdir");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(index.join(".build.lock"))
        .expect("lock file");
    lock.try_lock().expect("take the lock");
    let err = ontoresolve::build::build(
        &ontoresolve::build::BuildOptions {
            catalog: fixtures().join("fixtures.toml"),
            index_dir: index.clone(),
            keep_going: false,
        },
        &ontoresolve::build::Silent,
    )
    .expect_err("refused while another build holds the lock");
    assert!(
        matches!(err, ontoresolve::build::BuildError::Busy(_)),
        "{err}"
    );
    drop(lock);
    build_into(&fixtures().join("fixtures.toml"), &index);
}

#[test]
fn serve_refuses_an_index_of_another_format_version_instead_of_rebuilding_it() {
    let dir = scratch("other-format");
    let index = dir.join("index");
    let status = exe()
        .args(["build", "--sources"])
        .arg(fixtures().join("fixtures.toml"))
        .arg("--index")
        .arg(&index)
        .stderr(Stdio::null())
        .status()
        .expect("run build");
    assert_eq!(status.code(), Some(0));
    let current = std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT");
    let manifest = index.join(current.trim()).join("manifest.json");
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    let version = format!("\"format_version\": {}", ontoresolve::index::FORMAT_VERSION);
    assert!(text.contains(&version), "{version} in the manifest");
    std::fs::write(&manifest, text.replace(&version, "\"format_version\": 1")).expect("write");

    let out = exe()
        .args(["serve", "--index"])
        .arg(&index)
        .args(["--sources"])
        .arg(fixtures().join("fixtures.toml"))
        .stdin(Stdio::null())
        .output()
        .expect("run serve");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("format version 1") && stderr.contains("ontoresolve build --index"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT"),
        current,
        "nothing was rebuilt under other servers"
    );
}

/// The text of `file`, rewritten by `edit`, put back when the guard drops.
struct Edited {
    file: std::path::PathBuf,
    original: Vec<u8>,
}

impl Edited {
    fn new(file: std::path::PathBuf, edit: impl FnOnce(&str) -> String) -> Edited {
        let original = std::fs::read(&file).expect("read");
        let text = edit(&String::from_utf8_lossy(&original));
        std::fs::write(&file, text).expect("write");
        Edited { file, original }
    }
}

impl Drop for Edited {
    fn drop(&mut self) {
        let _ = std::fs::write(&self.file, &self.original);
    }
}

/// The manifest's text with `name`'s recorded length and checksum those of `bytes`.
fn record_file(manifest: &str, name: &str, bytes: &[u8]) -> String {
    use sha2::Digest;
    let mut value: serde_json::Value = serde_json::from_str(manifest).expect("manifest");
    let files = value["files"].as_array_mut().expect("files");
    let entry = files
        .iter_mut()
        .find(|f| f["name"] == name)
        .expect("the file is recorded");
    entry["bytes"] = bytes.len().into();
    let digest = sha2::Sha256::digest(bytes);
    entry["sha256"] = digest
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        .into();
    serde_json::to_string_pretty(&value).expect("json")
}

fn open_error(index: &Path) -> String {
    match Resolver::open(index) {
        Ok(_) => panic!("the index opened"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_index_from_a_newer_binary_is_called_newer_and_a_truncated_one_damaged() {
    let dir = scratch("newer-format");
    std::fs::copy(
        repo().join("ontologies/name-rules.toml"),
        dir.join("rules.toml"),
    )
    .expect("copy rules");
    let catalog = crate::support::single_source_catalog(
        &dir,
        "hem",
        "skos",
        &repo().join("ontologies/health-economics-metrics.derived.skos.ttl"),
        "\n[names]\nrules = \"rules.toml\"\n",
    );
    let index = dir.join("index");
    build_into(&catalog, &index);
    let current = std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT");
    let build = index.join(current.trim());
    assert!(Resolver::open(&index).is_ok(), "the build opens as written");
    let supported = ontoresolve::index::FORMAT_VERSION;
    let newer = supported + 1;
    let newer_words =
        format!("newer ontoresolve (format {newer}, this binary reads up to {supported})");

    // A future manifest: another version, a field this binary does not know, and a field it
    // needs gone.
    {
        let _manifest = Edited::new(build.join("manifest.json"), |text| {
            text.replace(
                &format!("\"format_version\": {supported}"),
                &format!("\"format_version\": {newer}, \"sources_v2\": {{\"x\": [1]}}"),
            )
            .replace("\"build_id\"", "\"build_digest\"")
        });
        let error = open_error(&index);
        assert!(error.contains(&newer_words), "{error}");
        assert!(
            error.contains("manifest.json") && !error.contains("damaged"),
            "{error}"
        );
        let out = exe()
            .args(["serve", "--index"])
            .arg(&index)
            .stdin(Stdio::null())
            .output()
            .expect("run serve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains(&newer_words) && stderr.contains("upgrade"),
            "{stderr}"
        );
        let out = exe()
            .args(["check", "--index"])
            .arg(&index)
            .output()
            .expect("check");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&newer_words), "{stderr}");
    }

    // The rules file alone from the future: a new format with a table this binary lacks,
    // recorded in the manifest as the newer binary would.
    {
        let rules = build.join("name-rules.toml");
        let _rules = Edited::new(rules.clone(), |text| {
            text.replacen("format = 1", "format = 2\nsuffix_rules = { x = \"y\" }", 1)
        });
        let written = std::fs::read(&rules).expect("rules");
        let _manifest = Edited::new(build.join("manifest.json"), |text| {
            record_file(text, "name-rules.toml", &written)
        });
        let error = open_error(&index);
        assert!(
            error.contains("newer ontoresolve (format 2, this binary reads up to 1)")
                && error.contains("name-rules.toml")
                && !error.contains("damaged"),
            "{error}"
        );
        let out = exe()
            .args(["check", "--index"])
            .arg(&index)
            .output()
            .expect("check");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stderr.contains("newer ontoresolve (format 2") && !stdout.contains("DAMAGED"),
            "{stdout}\n{stderr}"
        );
    }
    // An older manifest is still "rebuild it".
    {
        let _manifest = Edited::new(build.join("manifest.json"), |text| {
            text.replace(
                &format!("\"format_version\": {supported}"),
                "\"format_version\": 3",
            )
        });
        let error = open_error(&index);
        assert!(
            error.contains("format version 3") && error.contains("rebuild it"),
            "{error}"
        );
    }
    // Damage stays damage, naming the file.
    {
        let _manifest = Edited::new(build.join("manifest.json"), |text| {
            text[..text.len() / 2].to_string()
        });
        let error = open_error(&index);
        assert!(
            error.contains("damaged") && error.contains("manifest.json"),
            "{error}"
        );
    }
    {
        let _rules = Edited::new(build.join("name-rules.toml"), |text| {
            text[..text.len() / 3].to_string()
        });
        let error = open_error(&index);
        assert!(
            error.contains("damaged") && error.contains("name-rules.toml"),
            "{error}"
        );
    }
    assert!(Resolver::open(&index).is_ok(), "every edit was put back");
}

#[test]
fn a_missing_model_fails_the_build_and_one_that_does_not_fit_fails_the_open_naming_it() {
    let dir = scratch("model-fit");
    let extra = "\n[confidence]\nmodel = \"model.toml\"\n";
    let catalog = crate::support::single_source_catalog(
        &dir,
        "hem",
        "skos",
        &repo().join("ontologies/health-economics-metrics.derived.skos.ttl"),
        extra,
    );
    let options = ontoresolve::build::BuildOptions {
        catalog: catalog.clone(),
        index_dir: dir.join("index"),
        keep_going: false,
    };
    let missing = ontoresolve::build::build(&options, &ontoresolve::build::Silent)
        .expect_err("no model file, no build")
        .to_string();
    assert!(missing.contains("model.toml"), "{missing}");

    std::fs::copy(
        repo().join("ontologies/confidence-model.toml"),
        dir.join("model.toml"),
    )
    .expect("copy the model");
    let index = dir.join("index");
    build_into(&catalog, &index);
    let current = std::fs::read_to_string(index.join("CURRENT")).expect("CURRENT");
    let build = index.join(current.trim());
    assert!(Resolver::open(&index).is_ok(), "the build opens as written");
    // Other bytes than the manifest records: refused, naming the file.
    {
        let _model = Edited::new(build.join("confidence-model.toml"), |text| {
            text.replacen("bias = ", "bias = 1", 1)
        });
        let error = open_error(&index);
        assert!(error.contains("confidence-model.toml"), "{error}");
    }
    // A model weighing a feature this binary does not compute: refused, naming the feature.
    {
        let _model = Edited::new(build.join("confidence-model.toml"), |text| {
            text.replacen(
                "[candidate.weights]\n",
                "[candidate.weights]\nnew_signal = 1.0\n",
                1,
            )
        });
        let bytes = std::fs::read(build.join("confidence-model.toml")).expect("model");
        let _manifest = Edited::new(build.join("manifest.json"), |text| {
            let digest: String = <sha2::Sha256 as sha2::Digest>::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let value: serde_json::Value = serde_json::from_str(text).expect("manifest");
            let old = value["confidence_model"]["sha256"]
                .as_str()
                .expect("sha")
                .to_string();
            text.replace(&old, &digest)
        });
        let error = open_error(&index);
        assert!(error.contains("new_signal"), "{error}");
    }
    assert!(Resolver::open(&index).is_ok(), "every edit was put back");
}
