//! `ontoresolve serve`: the MCP server over stdio (default) or Streamable HTTP. Builds the index
//! first when there is none, so the first run on a fresh clone works. An index of another
//! format version is refused, never rebuilt: servers of the other version may be reading it.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use ontoresolve::index::OpenError;
use ontoresolve::mcp::{HttpOptions, serve_http, serve_stdio};
use ontoresolve::resolve::Resolver;

fn open_or_build(index: &Path, sources: &Path) -> anyhow::Result<Resolver> {
    match Resolver::open(index) {
        Ok(r) => Ok(r),
        Err(OpenError::Version {
            path,
            found,
            expected,
        }) => anyhow::bail!(
            "the index at {} has format version {found} and this program reads {expected}; \
             rebuild it with `ontoresolve build --index {}` (servers of the other version keep \
             serving the build they opened until they restart)",
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

pub fn run(
    index: PathBuf,
    sources: PathBuf,
    http: Option<SocketAddr>,
    allow_origin: Vec<String>,
) -> anyhow::Result<ExitCode> {
    let resolver = Arc::new(open_or_build(&index, &sources)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    match http {
        None => runtime.block_on(serve_stdio(resolver))?,
        Some(addr) => {
            if !addr.ip().is_loopback() {
                eprintln!(
                    "warning: listening on {addr}, reachable from other machines; ontoresolve has no authentication yet, prefer 127.0.0.1"
                );
            }
            eprintln!("ontoresolve: MCP over Streamable HTTP at http://{addr}/mcp");
            runtime.block_on(serve_http(
                resolver,
                HttpOptions {
                    addr,
                    extra_origins: allow_origin,
                    max_body_bytes: 1 << 20,
                },
            ))?
        }
    }
    Ok(ExitCode::SUCCESS)
}
