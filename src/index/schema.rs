//! `schema.json`: each named graph's shape as the build counted it (`store::GraphShape`),
//! read by `describe_schema`. It carries the build's format version, read first.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::store::GraphShape;

/// Every named graph's shape, by graph IRI.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct GraphShapes {
    pub graphs: BTreeMap<String, GraphShape>,
}

#[derive(Debug, thiserror::Error)]
pub enum SchemaFileError {
    #[error("{}: {source}", path.display())]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Version {
        path: std::path::PathBuf,
        source: super::format::VersionReadError,
    },
    #[error("{}: not a schema file: {source}", path.display())]
    Format {
        path: std::path::PathBuf,
        source: serde_json::Error,
    },
}

impl GraphShapes {
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        #[derive(Serialize)]
        struct OnDisk<'a> {
            format_version: u32,
            graphs: &'a BTreeMap<String, GraphShape>,
        }
        let on_disk = OnDisk {
            format_version: super::FORMAT_VERSION,
            graphs: &self.graphs,
        };
        let text = serde_json::to_string_pretty(&on_disk).map_err(std::io::Error::other)?;
        std::fs::write(path, text)
    }

    pub fn read(path: &Path) -> Result<GraphShapes, SchemaFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| SchemaFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        super::format::check_json(text.as_bytes(), super::FORMAT_VERSION).map_err(|source| {
            SchemaFileError::Version {
                path: path.to_path_buf(),
                source,
            }
        })?;
        serde_json::from_str(&text).map_err(|source| SchemaFileError::Format {
            path: path.to_path_buf(),
            source,
        })
    }
}
