//! The command line: argument parsing, progress bars and printing. Thin: every command calls
//! into the library.

mod build;
mod lookup;
mod normalize;
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
        /// Source catalogue used when the index must be built first.
        #[arg(long, default_value = "ontologies/sources.toml")]
        sources: PathBuf,
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
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ONTORESOLVE_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,rmcp::service=error")),
        )
        .init();
    let result = match cli.command {
        Command::Build {
            sources,
            index,
            keep_going,
        } => build::run(sources, index.index, keep_going),
        Command::Serve {
            index,
            http,
            allow_origin,
            sources,
        } => serve::run(index.index, sources, http, allow_origin),
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
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(1)
        }
    }
}
