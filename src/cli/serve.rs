//! `ontoresolve serve`: the MCP server over stdio (default) or Streamable HTTP. Builds the index
//! first when there is none, so the first run on a fresh clone works. An index of another
//! format version is refused, never rebuilt: servers of the other version may be reading it.
//! While serving, a new build installed in the index directory is picked up within a second.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use ontoresolve::index::OpenError;
use ontoresolve::mcp::{HttpOptions, serve_http, serve_stdio};
use ontoresolve::resolve::Resolver;
use ontoresolve::resolve::live::{LiveIndex, Reload};

/// How often the index directory's `CURRENT` is read for a new build.
const RELOAD_POLL: Duration = Duration::from_millis(500);
/// The shortest bearer token accepted: a guessable token is no access control.
const MIN_TOKEN_CHARS: usize = 24;
/// The environment variable holding the HTTP bearer token.
const TOKEN_VARIABLE: &str = "ONTORESOLVE_AUTH_TOKEN";

#[derive(clap::Args)]
pub struct ServeOptions {
    #[command(flatten)]
    pub index: super::IndexArg,
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio, e.g. 127.0.0.1:8765.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,
    /// Also accept browser requests from this Origin (localhost is always accepted).
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// Also accept this Host header (a name or address clients use to reach the server,
    /// e.g. ontoresolve.example.org); loopback names are always accepted.
    #[arg(long, value_name = "HOST")]
    pub allow_host: Vec<String>,
    /// Source catalogue used when the index must be built first.
    #[arg(long, default_value = "ontologies/sources.toml")]
    pub sources: PathBuf,
    /// Require this bearer token over HTTP, read from a file (first line). The variable
    /// ONTORESOLVE_AUTH_TOKEN is the alternative.
    #[arg(long, value_name = "FILE")]
    pub auth_token_file: Option<PathBuf>,
    /// Calls per second per client over HTTP (its address, with its token's tag when a token
    /// is required, so teammates sharing a token each have their own); 0 turns the
    /// limit off.
    #[arg(long, value_name = "N", default_value_t = ontoresolve::mcp::DEFAULT_RATE_LIMIT)]
    pub rate_limit: u32,
    /// Listen on a non-loopback address without a token (anyone who reaches it may call).
    #[arg(long)]
    pub insecure_public: bool,
}

fn open_or_build(index: &Path, sources: &Path) -> anyhow::Result<Resolver> {
    match Resolver::open(index) {
        Ok(r) => Ok(r),
        Err(OpenError::Format { path, mismatch }) => anyhow::bail!(
            "{}: {mismatch}; to rebuild: `ontoresolve build --index {}` (servers of the other \
             version keep serving the build they opened until they restart)",
            path.display(),
            index.display()
        ),
        Err(OpenError::NotBuilt(_)) => {
            eprintln!(
                "no usable index at {}: building it from {} first",
                index.display(),
                sources.display()
            );
            super::build::run(sources.to_path_buf(), index.to_path_buf(), false)?;
            Resolver::open(index).context("cannot open the index just built")
        }
        Err(e) => Err(e).context("cannot open the index"),
    }
}

/// The token from the file or the environment; an empty one is refused, never "no auth".
fn auth_token(file: Option<&Path>) -> anyhow::Result<Option<String>> {
    let token = match file {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the token file {}", path.display()))?
                .lines()
                .next()
                .unwrap_or_default()
                .trim()
                .to_string(),
        ),
        None => std::env::var(TOKEN_VARIABLE)
            .ok()
            .map(|t| t.trim().to_string()),
    };
    match token {
        Some(t) if t.len() < MIN_TOKEN_CHARS => anyhow::bail!(
            "the bearer token has {} characters; use at least {MIN_TOKEN_CHARS} random ones (e.g. `head -c 32 /dev/urandom | base64`) in the token file or {TOKEN_VARIABLE}",
            t.len()
        ),
        other => Ok(other),
    }
}

/// Reads `CURRENT` every [`RELOAD_POLL`] and swaps in a new build; a build that fails to open
/// is reported once and the old one keeps serving.
async fn watch_for_builds(index: Arc<LiveIndex>) {
    let mut last_error: Option<String> = None;
    loop {
        tokio::time::sleep(RELOAD_POLL).await;
        let live = index.clone();
        match tokio::task::spawn_blocking(move || live.reload_if_changed()).await {
            Ok(Ok(Reload::Switched { build_id })) => {
                last_error = None;
                tracing::info!(target: "ontoresolve::reload", build = %build_id, "now serving a new build");
            }
            Ok(Ok(Reload::Unchanged)) => last_error = None,
            Ok(Err(e)) => {
                let message = e.to_string();
                if last_error.as_ref() != Some(&message) {
                    tracing::warn!(target: "ontoresolve::reload", error = %message, "the new build cannot be opened; still serving the old one");
                    last_error = Some(message);
                }
            }
            Err(e) => {
                tracing::warn!(target: "ontoresolve::reload", error = %e, "reload check failed")
            }
        }
    }
}

pub fn run(options: ServeOptions) -> anyhow::Result<ExitCode> {
    let token = match options.http {
        Some(_) => auth_token(options.auth_token_file.as_deref())?,
        None => None,
    };
    if let Some(addr) = options.http
        && !addr.ip().is_loopback()
        && token.is_none()
        && !options.insecure_public
    {
        anyhow::bail!(
            "refusing to listen on {addr} without a token: anyone who reaches it could call. \
             Give --auth-token-file FILE (or {TOKEN_VARIABLE}), listen on 127.0.0.1, or pass \
             --insecure-public to accept that"
        );
    }
    let resolver = Arc::new(open_or_build(&options.index.path, &options.sources)?);
    let index = Arc::new(LiveIndex::watching(&options.index.path, resolver));
    // Over stdio one client sends one request at a time: its framing, rmcp and the replies
    // run on one thread, so a call wakes no other worker (index work still runs on the
    // blocking pool). HTTP serves many clients on every core.
    let mut builder = match options.http {
        None => tokio::runtime::Builder::new_current_thread(),
        Some(_) => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = builder
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.spawn(watch_for_builds(index.clone()));
    match options.http {
        None => runtime.block_on(serve_stdio(index))?,
        Some(addr) => {
            if !addr.ip().is_loopback() && token.is_none() {
                eprintln!("warning: listening on {addr} without a token (--insecure-public)");
            }
            let mut http = HttpOptions::new(addr);
            http.extra_origins = options.allow_origin;
            http.extra_hosts = options.allow_host;
            http.auth_token = token;
            http.rate_limit = options.rate_limit;
            // Announced only once the port is open: a script or test may wait for this line,
            // and with port 0 it is the only place the chosen port is told.
            runtime.block_on(serve_http(index, http, |bound| {
                eprintln!("ontoresolve: MCP over Streamable HTTP at http://{bound}/mcp");
                eprintln!("ontoresolve: pages for people at http://{bound}/");
            }))?
        }
    }
    Ok(ExitCode::SUCCESS)
}
