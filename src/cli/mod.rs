//! The command line: argument parsing, progress bars and printing, and the batch commands
//! (`normalize`, `map`, `lookup`) that stream whole files through the library's answers. The
//! answers themselves come from `resolve`; commands only read, parallelize and write.

mod add;
mod annotate;
mod build;
mod check;
mod diff;
mod lookup;
mod map;
mod normalize;
mod rows;
mod serve;
mod train;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "ontoresolve",
    version,
    about = "Ontology and identifier resolution for AI agents"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone)]
pub struct IndexArg {
    /// Index directory.
    #[arg(
        long = "index",
        value_name = "INDEX",
        env = "ONTORESOLVE_INDEX",
        default_value = "index"
    )]
    pub path: PathBuf,
}

#[derive(Subcommand)]
enum Command {
    /// Build the index from the source catalogue.
    Build {
        /// Source catalogue.
        #[arg(long, default_value = "ontologies/sources.toml")]
        sources: PathBuf,
        #[command(flatten)]
        index: IndexArg,
        /// Skip a source that fails instead of failing the build.
        #[arg(long)]
        keep_going: bool,
    },
    /// Add an ontology by its prefix (any spelling the registry knows): download the best
    /// link the Bioregistry lists (OBO, then OBO Graphs JSON, then OWL/RDF), write its
    /// catalogue entry, and build, reusing every other source.
    Add(add::AddOptions),
    /// Fetch a source's `url` again; when the file changed, install it as a new release
    /// (beside the old one when the catalogue keeps several releases of it, else in its place).
    Update(add::UpdateOptions),
    /// Drop a source (`doid`, or one release: `doid@2024-01-31`) from the catalogue and the
    /// index; files it downloaded (`bundled = false`) are deleted.
    Remove {
        source: String,
        /// Source catalogue.
        #[arg(long, default_value = "ontologies/sources.toml")]
        sources: PathBuf,
        #[command(flatten)]
        index: IndexArg,
    },
    /// Verify the active build: every file's length and checksum, the full-text index's own
    /// checksums, that the RDF store opens. One line per file on stdout; exit 0 when sound,
    /// 1 when anything is damaged.
    Check {
        #[command(flatten)]
        index: IndexArg,
    },
    /// Serve MCP over stdio (default) or Streamable HTTP; builds the index first if missing.
    Serve(serve::ServeOptions),
    /// The changes between two loaded releases of a source (KGCL change types, OAK's field
    /// names). Default: the current release against the one before it.
    Diff {
        /// The source id, e.g. mondo.
        source: String,
        /// The earlier release.
        #[arg(long)]
        from: Option<String>,
        /// The later release.
        #[arg(long)]
        to: Option<String>,
        #[arg(long, value_enum, default_value = "json")]
        format: diff::DiffFormat,
        #[command(flatten)]
        index: IndexArg,
    },
    /// Look up an identifier or a name and print what the index knows.
    Lookup {
        /// An identifier (CURIE, IRI, OBO id) or a name.
        query: String,
        #[command(flatten)]
        index: IndexArg,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// At most this many candidates for name searches.
        #[arg(long, default_value_t = 10)]
        limit: usize,
    },
    /// Normalize identifiers from a file: one per line, or one TSV column. Writes TSV (line,
    /// input, curie, iri, outcome, steps) with one row per input row.
    Normalize(normalize::Options),
    /// Map identifiers (or names) from a file to other vocabularies, as SSSOM TSV: every
    /// mapping with its evidence, and a sssom:NoTermFound row saying why when there is none.
    /// Input: one value per line, a TSV column (--column), or CSV when the file name ends in
    /// .csv (split at every comma, one pair of quotes stripped: no quoted commas).
    Map(map::Options),
    /// Ground every passage of a file as the ground_passage tool does: one TSV row (or JSON
    /// line) per mention, in input order, spans in characters. A passage that cannot be
    /// grounded gives one row with an empty concept and a note.
    Annotate(annotate::Options),
    /// Fit the confidence model from the corpora's training sets (a fifth of each set aside
    /// to calibrate) and write the model file; the same inputs give the same bytes. Reports
    /// the development sets, and with --ablation each feature switched off.
    Train(train::Options),
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    let result = match cli.command {
        Command::Build {
            sources,
            index,
            keep_going,
        } => build::run(sources, index.path, keep_going),
        Command::Check { index } => check::run(&index.path),
        Command::Add(options) => add::run_add(options),
        Command::Update(options) => add::run_update(options),
        Command::Remove {
            source,
            sources,
            index,
        } => add::run_remove(&source, sources, index.path),
        Command::Serve(options) => serve::run(options),
        Command::Diff {
            source,
            from,
            to,
            format,
            index,
        } => diff::run(&source, from.as_deref(), to.as_deref(), format, &index.path),
        Command::Lookup {
            query,
            index,
            json,
            limit,
        } => lookup::run(&query, &index.path, json, limit),
        Command::Normalize(options) => normalize::run(options),
        Command::Map(options) => map::run(options),
        Command::Annotate(options) => annotate::run(options),
        Command::Train(options) => train::run(options),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(1)
        }
    }
}

/// Logs go to stderr (stdout may be the MCP channel), filtered by `ONTORESOLVE_LOG`.
fn init_logging() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ONTORESOLVE_LOG").unwrap_or_else(|_| {
                tracing_subscriber::EnvFilter::new(
                    "warn,rmcp::service=error,ontoresolve::access=info,ontoresolve::reload=info",
                )
            }),
        )
        .init();
}
