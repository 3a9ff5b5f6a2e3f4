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
struct IndexArg {
    /// Index directory.
    #[arg(long, env = "ONTORESOLVE_INDEX", default_value = "index")]
    index: PathBuf,
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
    Add {
        /// Prefixes, e.g. doid go.
        #[arg(required = true)]
        prefixes: Vec<String>,
        /// Download this URL instead of the registry's link (one prefix only).
        #[arg(long, conflicts_with = "file")]
        url: Option<String>,
        /// Add this local file instead of downloading (one prefix only).
        #[arg(long)]
        file: Option<PathBuf>,
        /// The release when the file states none (else the download date).
        #[arg(long)]
        release: Option<String>,
        /// Print the entry and the link; download and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Fetch scheme://host/path as BASE/host/path.
        #[arg(long, env = "ONTORESOLVE_MIRROR", value_name = "BASE")]
        mirror: Option<String>,
        /// Seconds to wait for a connection, an answer or the next bytes.
        #[arg(long, default_value_t = 60)]
        timeout: u64,
        /// Source catalogue.
        #[arg(long, default_value = "ontologies/sources.toml")]
        sources: PathBuf,
        #[command(flatten)]
        index: IndexArg,
    },
    /// Fetch a source's `url` again; when the file changed, install it as a new release
    /// (beside the old one when the catalogue keeps several releases of it, else in its place).
    Update {
        source: String,
        /// The release when the file states none (else the download date).
        #[arg(long)]
        release: Option<String>,
        /// Fetch scheme://host/path as BASE/host/path.
        #[arg(long, env = "ONTORESOLVE_MIRROR", value_name = "BASE")]
        mirror: Option<String>,
        /// Seconds to wait for a connection, an answer or the next bytes.
        #[arg(long, default_value_t = 60)]
        timeout: u64,
        /// Source catalogue.
        #[arg(long, default_value = "ontologies/sources.toml")]
        sources: PathBuf,
        #[command(flatten)]
        index: IndexArg,
    },
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
    Serve {
        #[command(flatten)]
        index: IndexArg,
        /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio, e.g. 127.0.0.1:8765.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        /// Also accept browser requests from this Origin (localhost is always accepted).
        #[arg(long, value_name = "ORIGIN")]
        allow_origin: Vec<String>,
        /// Also accept this Host header (a name or address clients use to reach the server,
        /// e.g. ontoresolve.example.org); loopback names are always accepted.
        #[arg(long, value_name = "HOST")]
        allow_host: Vec<String>,
        /// Source catalogue used when the index must be built first.
        #[arg(long, default_value = "ontologies/sources.toml")]
        sources: PathBuf,
        /// Require this bearer token over HTTP, read from a file (first line). The variable
        /// ONTORESOLVE_AUTH_TOKEN is the alternative.
        #[arg(long, value_name = "FILE")]
        auth_token_file: Option<PathBuf>,
        /// Calls per second per client over HTTP (its address, with its token's tag when a token
        /// is required, so teammates sharing a token each have their own); 0 turns the
        /// limit off.
        #[arg(long, value_name = "N", default_value_t = ontoresolve::mcp::DEFAULT_RATE_LIMIT)]
        rate_limit: u32,
        /// Listen on a non-loopback address without a token (anyone who reaches it may call).
        #[arg(long)]
        insecure_public: bool,
    },
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
    Normalize {
        /// The input file; `-` reads standard input.
        file: PathBuf,
        /// The TSV column holding identifiers: a number from 1, or a header name (the first
        /// line is then read as the header). Default: the whole line.
        #[arg(long)]
        column: Option<String>,
        /// Write here instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
        #[command(flatten)]
        index: IndexArg,
    },
    /// Map identifiers (or names) from a file to other vocabularies, as SSSOM TSV: every
    /// mapping with its evidence, and a sssom:NoTermFound row saying why when there is none.
    /// Input: one value per line, a TSV column (--column), or CSV when the file name ends in
    /// .csv (split at every comma, one pair of quotes stripped: no quoted commas).
    Map {
        /// The input file; `-` reads standard input.
        file: PathBuf,
        /// Target prefixes (MESH,DOID); every vocabulary when absent.
        #[arg(long, value_name = "PREFIX[,PREFIX...]", value_delimiter = ',')]
        to: Vec<String>,
        /// Whether each row is an identifier or a name.
        #[arg(long, value_enum, default_value = "id")]
        by: map::By,
        /// The column holding the values: a number from 1, or a header name (the first line
        /// is then read as the header). Default: the whole line (the first field of CSV).
        #[arg(long)]
        column: Option<String>,
        /// Write here instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Also write predicted (and undecided) mappings.
        #[arg(long)]
        include_predicted: bool,
        /// Leave out mappings inferred by chaining.
        #[arg(long)]
        no_inferred: bool,
        /// Hops an inferred chain may take.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
        max_hops: u8,
        #[command(flatten)]
        index: IndexArg,
    },
    /// Ground every passage of a file as the ground_passage tool does: one TSV row (or JSON
    /// line) per mention, in input order, spans in characters. A passage that cannot be
    /// grounded gives one row with an empty concept and a note.
    Annotate {
        /// The input file; `-` reads standard input.
        file: PathBuf,
        /// `text`: one passage per line (its id is the line number); `pubtator`: title and
        /// abstract blocks, grounded as title, a space, abstract (its id is the PMID).
        #[arg(long, value_enum, default_value = "text")]
        format: annotate::Format,
        /// Candidates only from these source ids, or `id@release` for an older loaded release
        /// (names are read from every source). Default: every current release.
        #[arg(long, value_name = "SOURCE[,SOURCE...]", value_delimiter = ',')]
        sources: Vec<String>,
        /// Write here instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// TSV with a header, or JSON Lines.
        #[arg(long, value_enum, default_value = "tsv")]
        output_format: annotate::OutputFormat,
        #[command(flatten)]
        index: IndexArg,
    },
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
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
    let result = match cli.command {
        Command::Build {
            sources,
            index,
            keep_going,
        } => build::run(sources, index.index, keep_going),
        Command::Check { index } => check::run(&index.index),
        Command::Add {
            prefixes,
            url,
            file,
            release,
            dry_run,
            mirror,
            timeout,
            sources,
            index,
        } => add::run_add(add::AddOptions {
            prefixes,
            url,
            file,
            release,
            dry_run,
            mirror,
            timeout,
            sources,
            index: index.index,
        }),
        Command::Update {
            source,
            release,
            mirror,
            timeout,
            sources,
            index,
        } => add::run_update(add::UpdateOptions {
            source,
            release,
            mirror,
            timeout,
            sources,
            index: index.index,
        }),
        Command::Remove {
            source,
            sources,
            index,
        } => add::run_remove(&source, sources, index.index),
        Command::Serve {
            index,
            http,
            allow_origin,
            allow_host,
            sources,
            auth_token_file,
            rate_limit,
            insecure_public,
        } => serve::run(serve::ServeOptions {
            index: index.index,
            sources,
            http,
            allow_origin,
            allow_host,
            auth_token_file,
            rate_limit,
            insecure_public,
        }),
        Command::Diff {
            source,
            from,
            to,
            format,
            index,
        } => diff::run(
            &source,
            from.as_deref(),
            to.as_deref(),
            format,
            &index.index,
        ),
        Command::Lookup {
            query,
            index,
            json,
            limit,
        } => lookup::run(&query, &index.index, json, limit),
        Command::Normalize {
            file,
            column,
            output,
            index,
        } => normalize::run(normalize::Options {
            file,
            column,
            output,
            index: index.index,
        }),
        Command::Map {
            file,
            to,
            by,
            column,
            output,
            include_predicted,
            no_inferred,
            max_hops,
            index,
        } => map::run(map::Options {
            file,
            to,
            by,
            column,
            output,
            include_predicted,
            no_inferred,
            max_hops,
            index: index.index,
        }),
        Command::Annotate {
            file,
            format,
            sources,
            output,
            output_format,
            index,
        } => annotate::run(annotate::Options {
            file,
            format,
            sources,
            output,
            output_format,
            index: index.index,
        }),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(1)
        }
    }
}
