//! `ontoresolve add` and `remove`: a source by its prefix into the catalogue and the index,
//! and out again. The work is `ontoresolve::acquire`'s; this prints the plan, the download's
//! progress and what was done.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ontoresolve::acquire::{
    self, AddRequest, DownloadProgress, FetchOptions, FileOrigin, fetch, install, plan,
};
use ontoresolve::catalog::Catalog;
use ontoresolve::catalog::edit::with_source_added;

use super::build::{Progress, print_summary};

#[derive(clap::Args)]
pub struct AddOptions {
    /// Prefixes, e.g. doid go.
    #[arg(required = true)]
    pub prefixes: Vec<String>,
    /// Download this URL instead of the registry's link (one prefix only).
    #[arg(long, conflicts_with = "file")]
    pub url: Option<String>,
    /// Add this local file instead of downloading (one prefix only).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// The release when the file states none (else the download date).
    #[arg(long)]
    pub release: Option<String>,
    /// Print the entry and the link; download and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Fetch scheme://host/path as BASE/host/path.
    #[arg(long, env = "ONTORESOLVE_MIRROR", value_name = "BASE")]
    pub mirror: Option<String>,
    /// Seconds to wait for a connection, an answer or the next bytes.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Source catalogue.
    #[arg(long, default_value = "ontologies/sources.toml")]
    pub sources: PathBuf,
    #[command(flatten)]
    pub index: super::IndexArg,
}

/// A download's progress bar: bytes, total when known, and rate.
struct DownloadBar(Mutex<Option<ProgressBar>>);

impl DownloadProgress for DownloadBar {
    fn started(&self, url: &str, total: Option<u64>) {
        eprintln!("downloading {url}");
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("  [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(bar);
        }
    }
    fn advanced(&self, bytes: u64) {
        if let Ok(slot) = self.0.lock()
            && let Some(bar) = slot.as_ref()
        {
            bar.set_position(bytes);
        }
    }
    fn finished(&self) {
        if let Ok(mut slot) = self.0.lock()
            && let Some(bar) = slot.take()
        {
            bar.finish_and_clear();
        }
    }
}

pub fn run_add(options: AddOptions) -> anyhow::Result<ExitCode> {
    if (options.url.is_some() || options.file.is_some()) && options.prefixes.len() != 1 {
        return Err(acquire::AcquireError::OnePrefix(options.prefixes.len()).into());
    }
    for prefix in &options.prefixes {
        add_one(prefix, &options)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn add_one(prefix: &str, options: &AddOptions) -> anyhow::Result<()> {
    let catalog = Catalog::load(&options.sources)?;
    let request = AddRequest {
        prefix: prefix.to_string(),
        url: options.url.clone(),
        file: options.file.clone(),
        release: options.release.clone(),
        catalogue: options.sources.clone(),
        index: options.index.path.clone(),
        fetch: FetchOptions {
            mirror: options.mirror.clone(),
            timeout: Duration::from_secs(options.timeout.max(1)),
        },
        today: super::map::sssom::today(),
    };
    let (registry, _registry_dir) = acquire::open_registry(&catalog, &options.index.path)?;
    let planned = plan(&request, &catalog, &registry)?;
    match &planned.origin {
        FileOrigin::Link(choice) => eprintln!("{prefix}: taking {}", choice.why),
        FileOrigin::Url(url) => eprintln!("{prefix}: taking {url} (--url)"),
        FileOrigin::File(path) => eprintln!("{prefix}: taking {} (--file)", path.display()),
    }
    if options.dry_run {
        let mut entry = planned.entry.clone();
        entry.path = PathBuf::from(format!(
            "{}-<first 12 of its SHA-256>.{}",
            entry.id,
            planned.format.extension()
        ));
        let appended = with_source_added("", &entry, "What `add` would append:")?;
        writeln!(std::io::stdout().lock(), "{appended}")?;
        eprintln!(
            "{prefix}: dry run: nothing downloaded, the catalogue and the index unchanged; the release would be the file's own, else {} ({})",
            entry.release.as_deref().unwrap_or_default(),
            planned.release_from
        );
        return Ok(());
    }
    let bar = DownloadBar(Mutex::new(None));
    let fetched = fetch(&planned, &request, &catalog, &bar)?;
    let installed = install(planned, fetched, &request, &catalog, &Progress::new())?;
    print_summary(&installed.summary);
    eprintln!(
        "{prefix}: added '{}' ({}), release {} from {}; file {}; catalogue {}",
        installed.entry.id,
        installed.entry.title,
        installed.record.release,
        installed.release_from,
        installed.file.display(),
        options.sources.display()
    );
    Ok(())
}

pub fn run_remove(which: &str, sources: PathBuf, index: PathBuf) -> anyhow::Result<ExitCode> {
    let removed = acquire::remove(&sources, &index, which, &Progress::new())?;
    print_summary(&removed.summary);
    eprintln!(
        "removed {which}: {} catalogue entr{}{}",
        removed.entries,
        if removed.entries == 1 { "y" } else { "ies" },
        removed
            .files
            .iter()
            .map(|f| format!("; deleted {}", f.display()))
            .collect::<String>()
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct UpdateOptions {
    pub source: String,
    /// The release when the file states none (else the download date).
    #[arg(long)]
    pub release: Option<String>,
    /// Fetch scheme://host/path as BASE/host/path.
    #[arg(long, env = "ONTORESOLVE_MIRROR", value_name = "BASE")]
    pub mirror: Option<String>,
    /// Seconds to wait for a connection, an answer or the next bytes.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Source catalogue.
    #[arg(long, default_value = "ontologies/sources.toml")]
    pub sources: PathBuf,
    #[command(flatten)]
    pub index: super::IndexArg,
}

pub fn run_update(options: UpdateOptions) -> anyhow::Result<ExitCode> {
    let request = AddRequest {
        prefix: options.source.clone(),
        url: None,
        file: None,
        release: options.release,
        catalogue: options.sources.clone(),
        index: options.index.path,
        fetch: FetchOptions {
            mirror: options.mirror,
            timeout: Duration::from_secs(options.timeout.max(1)),
        },
        today: super::map::sssom::today(),
    };
    let bar = DownloadBar(Mutex::new(None));
    match acquire::update(&request, &Progress::new(), &bar)? {
        acquire::Updated::Unchanged { url, sha256 } => eprintln!(
            "{}: unchanged: {url} serves the file the catalogue names (SHA-256 {sha256})",
            options.source
        ),
        acquire::Updated::Installed {
            installed,
            kept,
            deleted,
        } => {
            print_summary(&installed.summary);
            eprintln!(
                "{}: release {} (from {}) installed as {}{}{}",
                options.source,
                installed.record.release,
                installed.release_from,
                installed.file.display(),
                kept.map(|r| format!(", beside release {r}"))
                    .unwrap_or_default(),
                deleted
                    .map(|f| format!(", replacing {} (deleted)", f.display()))
                    .unwrap_or_default(),
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
