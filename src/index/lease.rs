//! Leases on build directories: every process reading a build holds a shared advisory lock on
//! its `.lease` file, and a build removes an old build directory only after taking that lock
//! exclusively. The kernel drops a dead reader's lock, so a crash never pins a build forever.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::path::Path;

const LEASE_FILE: &str = ".lease";

/// A reader's claim on one build directory, released when dropped.
#[derive(Debug)]
pub struct Lease {
    _file: File,
}

/// Why a lease could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    #[error("the build is being removed")]
    Removing,
    #[error("cannot open the lease file: {0}")]
    Io(#[from] io::Error),
}

impl Lease {
    /// Takes a shared lease on `build_dir`. Fails when a build is removing the directory.
    pub fn take(build_dir: &Path) -> Result<Lease, LeaseError> {
        // Read-only: a server may not be allowed to write the build directory, and the build
        // created the file before installing the directory (`create`).
        let file = OpenOptions::new()
            .read(true)
            .open(build_dir.join(LEASE_FILE))?;
        match file.try_lock_shared() {
            Ok(()) => Ok(Lease { _file: file }),
            Err(TryLockError::WouldBlock) => Err(LeaseError::Removing),
            Err(TryLockError::Error(e)) => Err(LeaseError::Io(e)),
        }
    }
}

/// Creates the lease file of a build directory being written, before it is installed, so no
/// reader ever has to create it.
pub fn create(build_dir: &Path) -> io::Result<()> {
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(build_dir.join(LEASE_FILE))
        .map(|_| ())
}

/// An exclusive claim on a build directory no reader holds, for removing it; `None` while any
/// process reads the build.
pub fn claim_unused(build_dir: &Path) -> Option<File> {
    let file = match OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(build_dir.join(LEASE_FILE))
    {
        Ok(f) => f,
        Err(_) => return None,
    };
    file.try_lock().ok().map(|()| file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leased_build_cannot_be_claimed_until_the_lease_is_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(
            matches!(Lease::take(dir.path()), Err(LeaseError::Io(_))),
            "a build without its lease file is not silently leased"
        );
        create(dir.path()).expect("create");
        let lease = Lease::take(dir.path()).expect("lease");
        let second = Lease::take(dir.path()).expect("leases are shared");
        assert!(claim_unused(dir.path()).is_none());
        drop(lease);
        assert!(
            claim_unused(dir.path()).is_none(),
            "one reader still holds it"
        );
        drop(second);
        let claim = claim_unused(dir.path()).expect("no reader left");
        assert!(matches!(Lease::take(dir.path()), Err(LeaseError::Removing)));
        drop(claim);
        assert!(Lease::take(dir.path()).is_ok());
    }
}
