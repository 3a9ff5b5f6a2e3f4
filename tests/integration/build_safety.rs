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
        .concept(r.lookup_id("XD:0000004")[0].concept)
        .and_then(|c| c.preferred_label().map(|l| l.text.clone()))
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
