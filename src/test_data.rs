//! For unit tests on the real data under the shared data directory: where it is, and the one
//! way a test skips when its file is absent (it fails instead under `ONTORESOLVE_REQUIRE_DATA`,
//! as the integration tests do, so that CI never passes on data it did not read).

use std::path::PathBuf;

/// `ONTORESOLVE_SHARED_DATA`, else `../shared/data` beside the crate.
pub fn shared_data() -> PathBuf {
    std::env::var_os("ONTORESOLVE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// Says why a test is skipped; panics when real data is required.
pub fn skip(why: &str) {
    assert!(
        std::env::var_os("ONTORESOLVE_REQUIRE_DATA").is_none(),
        "{why}, and ONTORESOLVE_REQUIRE_DATA is set"
    );
    println!("SKIPPED: {why}");
}
