//! `ontoresolve build`, with a progress bar per source on stderr.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle};
use ontoresolve::build::{BuildObserver, BuildOptions, build};
use ontoresolve::index::manifest::{ReleaseOrigin, SourceRecord};

pub(super) struct Progress {
    bar: Mutex<Option<(ProgressBar, Instant)>>,
}

impl Progress {
    pub(super) fn new() -> Progress {
        Progress {
            bar: Mutex::new(None),
        }
    }

    fn clear(&self) {
        if let Ok(mut slot) = self.bar.lock()
            && let Some((bar, _)) = slot.take()
        {
            bar.finish_and_clear();
        }
    }
}

impl BuildObserver for Progress {
    fn source_started(&self, id: &str, file_bytes: u64) {
        let bar = ProgressBar::with_draw_target(Some(file_bytes), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{prefix:>12} [{bar:30}] {bytes}/{total_bytes} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.set_prefix(id.to_string());
        if let Ok(mut slot) = self.bar.lock() {
            *slot = Some((bar, Instant::now()));
        }
    }

    fn source_progress(&self, _id: &str, bytes_read: u64, triples: u64) {
        if let Ok(slot) = self.bar.lock()
            && let Some((bar, started)) = slot.as_ref()
        {
            let rate = triples as f64 / started.elapsed().as_secs_f64().max(1e-3);
            bar.set_position(bytes_read);
            bar.set_message(format!("{triples} triples, {rate:.0} triples/s"));
        }
    }

    fn source_finished(&self, id: &str, record: &SourceRecord, seconds: f64) {
        self.clear();
        let origin = match &record.release_origin {
            ReleaseOrigin::File { property } => format!("from the file's {property}"),
            ReleaseOrigin::Catalogue => "from the catalogue".to_string(),
            ReleaseOrigin::Unknown => "not stated anywhere".to_string(),
        };
        let c = &record.counts;
        eprintln!(
            "{id:>12}: release {} ({origin}); {} triples, {} concepts ({} obsolete), {} labels, {} xrefs, {} rows skipped; {} in {seconds:.1}s ({:.0} triples/s)",
            record.release,
            c.triples,
            c.concepts,
            c.obsolete,
            c.labels,
            c.xrefs,
            c.skipped_rows,
            HumanBytes(record.files.iter().map(|f| f.bytes).sum::<u64>()),
            c.triples as f64 / seconds.max(1e-3),
        );
    }

    fn source_reused(&self, id: &str, record: &SourceRecord) {
        self.clear();
        eprintln!(
            "{id:>12}: release {} reused from the installed build (entry and files unchanged); {} concepts",
            record.release, record.counts.concepts
        );
    }

    fn source_skipped(&self, id: &str, reason: &str) {
        self.clear();
        eprintln!("{id:>12}: skipped: {reason}");
    }

    fn row_problem(&self, id: &str, problem: &str) {
        self.clear();
        eprintln!("{id:>12}: {problem}");
    }

    fn stage(&self, name: &str) {
        eprintln!("{:>12}  {name}", "");
    }
}

pub fn run(sources: PathBuf, index_dir: PathBuf, keep_going: bool) -> anyhow::Result<ExitCode> {
    let observer = Progress::new();
    let options = BuildOptions {
        catalog: sources,
        index_dir,
        keep_going,
    };
    let summary = build(&options, &observer)?;
    print_summary(&summary);
    Ok(ExitCode::SUCCESS)
}

/// The one line a finished build prints.
pub(super) fn print_summary(summary: &ontoresolve::build::BuildSummary) {
    let m = &summary.manifest;
    eprintln!(
        "built {} in {:.1}s: {} sources, {} mapping set files, {} concepts, {} triples, {} identifier keys, {} label keys, {} mapping statements in {} segments{}",
        summary.dir.display(),
        m.built.seconds,
        m.sources.len(),
        m.mapping_sets.len(),
        m.counts.concepts,
        m.counts.triples,
        m.counts.id_lexicon.keys,
        m.counts.label_lexicon.keys,
        m.counts.mappings.statements,
        m.mapping_segments.len(),
        if m.skipped.is_empty() {
            String::new()
        } else {
            format!("; {} skipped", m.skipped.len())
        }
    );
}
