//! Adding a source by its prefix (`ontoresolve add`), and removing one (`remove`): the
//! registry's record gives the link (`links`), the file is downloaded beside the catalogue
//! (`download`) and checked to be what its link says (`sniff`), the catalogue gains an entry
//! written from the record (`catalog::edit`), and the index is rebuilt, reusing every other
//! source (`build::reuse`).
//!
//! Nothing is half-done on failure: the catalogue is replaced only after the build is
//! installed, the build switches `CURRENT` only when complete, and a failed add removes the
//! file it downloaded.

pub mod download;
pub mod links;
mod plan;
mod remove;
mod sniff;
mod staging;

use std::path::{Path, PathBuf};

pub use download::{DownloadProgress, FetchOptions};
pub use plan::{
    AddPlan, AddRequest, Fetched, FileOrigin, Installed, Updated, fetch, install, plan, update,
};
pub use remove::{Removed, remove};
pub use sniff::{Compression, Sniffed, sniff};

use crate::build::BuildError;
use crate::catalog::CatalogError;
use crate::catalog::edit::EditError;

#[derive(Debug, thiserror::Error)]
pub enum AcquireError {
    #[error("unknown prefix '{written}'{}", closest_note(.closest))]
    UnknownPrefix {
        written: String,
        closest: Vec<String>,
    },
    #[error(
        "the registry lists no download for {prefix}; its homepage is {homepage}; download the file yourself and add it with --file"
    )]
    NoLink { prefix: String, homepage: String },
    #[error("no link of {prefix} is in a format we read ({}); we read {}; download another format yourself and add it with --file", list_unreadable(.links), links::FORMAT_ORDER)]
    UnreadableLinks {
        prefix: String,
        links: Vec<(String, &'static str)>,
    },
    #[error("'{id}' is already in the catalogue {}; `ontoresolve update {id}` fetches its link again", .catalogue.display())]
    AlreadyCatalogued { id: String, catalogue: PathBuf },
    #[error("'{0}' is not in the catalogue")]
    NotCatalogued(String),
    #[error(
        "'{0}' has no `url` in the catalogue to fetch again; add the new file with `ontoresolve add {0} --file`"
    )]
    NoUrl(String),
    #[error("HTTP {status} from {url}")]
    Status { status: u16, url: String },
    #[error("{url}: no answer within {seconds} s")]
    Timeout { url: String, seconds: f64 },
    #[error("{url}: {message}")]
    Connection { url: String, message: String },
    #[error("{url}: the download stopped after {got} bytes{}", .expected.map(|e| format!(" of {e}")).unwrap_or_default())]
    CutShort {
        url: String,
        got: u64,
        expected: Option<u64>,
    },
    #[error("not a URL: {0}")]
    BadUrl(String),
    #[error("{url}:1:1: {found}, not {expected} (it starts `{excerpt}`)")]
    NotTheFormat {
        url: String,
        expected: &'static str,
        found: &'static str,
        excerpt: String,
    },
    #[error("--url and --file take one prefix; {0} were given")]
    OnePrefix(usize),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Catalogue(#[from] CatalogError),
    #[error("editing the catalogue: {0}")]
    Edit(#[from] EditError),
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// The prefix registry to read a prefix through: the installed build's, else the catalogue's
/// written alone into a temporary directory (kept alive by the returned guard).
pub fn open_registry(
    catalog: &crate::catalog::Catalog,
    index: &Path,
) -> Result<(crate::registry::Registry, Option<tempfile::TempDir>), AcquireError> {
    if let Ok(layout) = crate::index::active_build(index)
        && let Ok(registry) = crate::registry::Registry::open(&layout)
    {
        return Ok((registry, None));
    }
    let dir =
        tempfile::tempdir().map_err(|e| AcquireError::io("creating a temporary directory", e))?;
    let registry = crate::build::registry_alone(catalog, dir.path())?;
    Ok((registry, Some(dir)))
}

impl AcquireError {
    fn io(context: impl Into<String>, source: std::io::Error) -> AcquireError {
        AcquireError::Io {
            context: context.into(),
            source,
        }
    }
}

fn closest_note(closest: &[String]) -> String {
    if closest.is_empty() {
        String::new()
    } else {
        format!("; the closest known prefixes are {}", closest.join(", "))
    }
}

fn list_unreadable(links: &[(String, &'static str)]) -> String {
    links
        .iter()
        .map(|(url, what)| format!("{url} is {what}"))
        .collect::<Vec<_>>()
        .join("; ")
}
