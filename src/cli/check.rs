//! `ontoresolve check`: whether the active build's files are still the ones the build wrote.
//!
//! Every file the manifest records is re-read in full (length, header, SHA-256; an FST also
//! against its own CRC), tantivy checks the full-text index against its footers, the RDF store
//! is opened read-only, and the index is opened as `serve` opens it. One line per file goes to
//! stdout (`ok` or `DAMAGED` with the problem), then a summary; progress goes to stderr. Exit
//! 0 when everything is sound, 1 when anything is damaged, with the damaged files named in
//! the summary and again on stderr.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use ontoresolve::index::integrity::{self, FileReport};
use ontoresolve::index::{FORMAT_VERSION, Manifest, active_build, format};
use ontoresolve::resolve::Resolver;
use ontoresolve::store::StoreReader;

/// Files at least this large get a progress line on stderr while they are read.
const ANNOUNCED_BYTES: u64 = 16 << 20;

/// One line of the report on stdout. A reader that went away ("check | head") does not
/// change the verdict, which the exit code carries; `println!` would panic.
fn say(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// What `check` found: one entry per damaged file or part.
#[derive(Default)]
struct Findings {
    checked: usize,
    damaged: Vec<String>,
}

impl Findings {
    fn ok(&mut self, name: &str, detail: &str) {
        self.checked += 1;
        say(format_args!("ok       {name}{detail}"));
    }

    fn damaged(&mut self, name: &str, problem: &dyn std::fmt::Display) {
        self.checked += 1;
        say(format_args!("DAMAGED  {name}: {problem}"));
        self.damaged.push(name.to_string());
    }
}

pub fn run(index: &Path) -> anyhow::Result<ExitCode> {
    let layout = active_build(index).context("cannot find the active build")?;
    eprintln!("checking {}", layout.dir.display());
    let mut findings = Findings::default();
    let manifest_path = layout.manifest();
    let bytes = match std::fs::read(&manifest_path) {
        Ok(bytes) => bytes,
        Err(e) => {
            findings.damaged("manifest.json", &e);
            return Ok(summary(&layout.dir, &findings));
        }
    };
    // Another version is not damage: say which, before parsing fields it may not share.
    match format::check_json(&bytes, FORMAT_VERSION) {
        Ok(()) => {}
        Err(format::VersionReadError::Mismatch(mismatch)) => anyhow::bail!(
            "{}: {mismatch} (`ontoresolve build --index {}`)",
            manifest_path.display(),
            index.display()
        ),
        Err(unreadable) => {
            findings.damaged("manifest.json", &unreadable);
            return Ok(summary(&layout.dir, &findings));
        }
    }
    let manifest = match Manifest::parse(&bytes) {
        Ok(manifest) => manifest,
        Err(e) => {
            findings.damaged("manifest.json", &e);
            return Ok(summary(&layout.dir, &findings));
        }
    };
    findings.ok("manifest.json", &format!(" (build {})", manifest.build_id));
    let announce = |name: &str, bytes: u64| {
        if bytes >= ANNOUNCED_BYTES {
            eprintln!("  reading {name} ({} MiB)", bytes >> 20);
        }
    };
    for FileReport {
        name,
        bytes,
        problem,
        ..
    } in integrity::verify_files(&layout, &manifest, &announce)
    {
        match problem {
            None => findings.ok(&name, &format!(" ({} bytes)", bytes.unwrap_or(0))),
            Some(problem) => findings.damaged(&name, &problem),
        }
    }
    eprintln!("  checking the full-text index");
    match integrity::verify_fulltext(&layout.fulltext()) {
        Ok(damaged) if damaged.is_empty() => findings.ok("fulltext/", " (tantivy checksums)"),
        Ok(damaged) => {
            for path in damaged {
                let name = path
                    .strip_prefix(&layout.dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                findings.damaged(&name, &"does not match its tantivy checksum");
            }
        }
        Err(e) => findings.damaged("fulltext/", &e),
    }
    eprintln!("  opening the RDF store");
    match StoreReader::open(&layout.store()) {
        Ok(_) => findings.ok("store/", " (opens read-only)"),
        Err(e) => findings.damaged("store/", &e),
    }
    // Opening as `serve` does checks how the files fit together; with a damaged file it
    // would only repeat that file's problem.
    if findings.damaged.is_empty() {
        match Resolver::open(index) {
            Ok(_) => findings.ok("index", " (opens as serve opens it)"),
            // A file of another format (a rules file from a newer ontoresolve) is not damage.
            Err(e @ ontoresolve::index::OpenError::Format { .. }) => {
                anyhow::bail!("{e} (`ontoresolve build --index {}`)", index.display())
            }
            Err(e) => findings.damaged("index", &e),
        }
    }
    Ok(summary(&layout.dir, &findings))
}

fn summary(dir: &Path, findings: &Findings) -> ExitCode {
    if findings.damaged.is_empty() {
        say(format_args!(
            "sound: all {} files and parts of {} are as built",
            findings.checked,
            dir.display()
        ));
        return ExitCode::SUCCESS;
    }
    let damaged = findings.damaged.join(", ");
    say(format_args!(
        "damaged: {} of {} checked in {}: {damaged}",
        findings.damaged.len(),
        findings.checked,
        dir.display()
    ));
    eprintln!(
        "error: damaged index files in {}: {damaged}; rebuild with `ontoresolve build`",
        dir.display()
    );
    ExitCode::from(1)
}
