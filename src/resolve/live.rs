//! The build a server answers from, swapped when a new build is installed: each request takes
//! one snapshot (an `Arc<Resolver>`) and finishes on it, so a reload never mixes two builds in
//! one answer, and the old build's lease is released when its last request ends. Listeners
//! learn of each switch through a watch channel carrying the served build's id.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use tokio::sync::watch;

use super::Resolver;
use crate::index::{OpenError, active_build};

/// The current build of an index directory, or one fixed build.
pub struct LiveIndex {
    /// The index directory watched for new builds; `None` for a fixed build.
    dir: Option<PathBuf>,
    current: RwLock<Arc<Resolver>>,
    switched: watch::Sender<BuildSwitch>,
}

/// The build now served, as listeners see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildSwitch {
    pub build_id: String,
    /// The loaded sources or their releases differ from the previous build's, so tool
    /// descriptions and instructions changed too.
    pub sources_changed: bool,
}

fn sources_signature(r: &Resolver) -> Vec<(String, String)> {
    r.manifest()
        .sources
        .iter()
        .map(|s| (s.id.clone(), s.release.clone()))
        .collect()
}

/// What a reload check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reload {
    Unchanged,
    /// A new build is now served: its build id.
    Switched {
        build_id: String,
    },
}

impl LiveIndex {
    /// A build that is never swapped.
    pub fn fixed(resolver: Arc<Resolver>) -> LiveIndex {
        let (switched, _) = watch::channel(BuildSwitch {
            build_id: resolver.manifest().build_id.clone(),
            sources_changed: false,
        });
        LiveIndex {
            dir: None,
            current: RwLock::new(resolver),
            switched,
        }
    }

    /// The current build of `index_dir`, reloadable.
    pub fn watching(index_dir: &Path, resolver: Arc<Resolver>) -> LiveIndex {
        let (switched, _) = watch::channel(BuildSwitch {
            build_id: resolver.manifest().build_id.clone(),
            sources_changed: false,
        });
        LiveIndex {
            dir: Some(index_dir.to_path_buf()),
            current: RwLock::new(resolver),
            switched,
        }
    }

    /// Tells of every switch to a new build: the receiver sees the served build's id.
    pub fn switches(&self) -> watch::Receiver<BuildSwitch> {
        self.switched.subscribe()
    }

    /// The snapshot to answer one request from.
    pub fn current(&self) -> Arc<Resolver> {
        match self.current.read() {
            Ok(guard) => guard.clone(),
            // A panic while swapping cannot leave a half-written Arc: the old one stays valid.
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Opens the build `CURRENT` names when it is not the one served, and swaps it in.
    /// Blocking: opening maps files. On error the old build keeps being served.
    pub fn reload_if_changed(&self) -> Result<Reload, OpenError> {
        let Some(dir) = &self.dir else {
            return Ok(Reload::Unchanged);
        };
        let wanted = active_build(dir)?;
        if wanted.dir == self.current().build_dir() {
            return Ok(Reload::Unchanged);
        }
        let next = Arc::new(Resolver::open(dir)?);
        let build_id = next.manifest().build_id.clone();
        let sources_changed = sources_signature(&next) != sources_signature(&self.current());
        match self.current.write() {
            Ok(mut guard) => *guard = next,
            Err(poisoned) => *poisoned.into_inner() = next,
        }
        self.switched.send_replace(BuildSwitch {
            build_id: build_id.clone(),
            sources_changed,
        });
        Ok(Reload::Switched { build_id })
    }
}
