//! Downloading one link: through a mirror when one is set, over HTTPS with rustls, following
//! redirects, with a timeout on connecting and on every wait for bytes. The body goes to a
//! hidden temporary file beside the catalogue, hashed as it is written; a body shorter than
//! its `Content-Length` is an error, never a file.

use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::AcquireError;

/// How links are fetched.
#[derive(Clone, Debug)]
pub struct FetchOptions {
    /// Fetch `scheme://host/path` as `BASE/host/path` (`--mirror`, `ONTORESOLVE_MIRROR`).
    pub mirror: Option<String>,
    /// The longest wait for a connection, a response or the next bytes of the body.
    pub timeout: Duration,
}

/// What a download reports while it runs; the CLI draws a progress bar from it.
pub trait DownloadProgress {
    fn started(&self, _url: &str, _total: Option<u64>) {}
    fn advanced(&self, _bytes: u64) {}
    fn finished(&self) {}
}

/// A finished download, still under its temporary name.
pub struct Downloaded {
    pub file: tempfile::NamedTempFile,
    pub sha256: String,
    pub bytes: u64,
    /// The address fetched (the mirror's, when one is set).
    pub fetched: String,
}

/// Temporary files of downloads start with this; a later `add` removes stale ones.
pub const TEMP_PREFIX: &str = ".ontoresolve-download-";

/// The address to fetch for `url`: itself, or its path under the mirror.
pub fn mirrored(url: &str, mirror: Option<&str>) -> Result<String, AcquireError> {
    let Some(base) = mirror else {
        return Ok(url.to_string());
    };
    let Some((_, rest)) = url.split_once("://") else {
        return Err(AcquireError::BadUrl(url.to_string()));
    };
    Ok(format!("{}/{rest}", base.trim_end_matches('/')))
}

/// Downloads `url` into a temporary file in `dir`.
pub fn download(
    url: &str,
    options: &FetchOptions,
    dir: &Path,
    progress: &dyn DownloadProgress,
) -> Result<Downloaded, AcquireError> {
    let fetched = mirrored(url, options.mirror.as_deref())?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(options.timeout))
        .timeout_recv_response(Some(options.timeout))
        .timeout_per_read(Some(options.timeout))
        .max_redirects(10)
        .http_status_as_error(false)
        .user_agent(concat!("ontoresolve/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let response = agent
        .get(&fetched)
        .call()
        .map_err(|e| fetch_error(&fetched, options, e))?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(AcquireError::Status {
            status,
            url: fetched,
        });
    }
    let total = response
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    progress.started(&fetched, total);
    let mut file = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
        .map_err(|e| AcquireError::io(format!("creating a file in {}", dir.display()), e))?;
    let mut body = response
        .into_body()
        .into_with_config()
        .limit(u64::MAX)
        .reader();
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = match body.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(body_error(&fetched, options, bytes, total, e)),
        };
        hasher.update(&buffer[..n]);
        file.write_all(&buffer[..n]).map_err(|e| {
            AcquireError::io(format!("writing the download to {}", dir.display()), e)
        })?;
        bytes += n as u64;
        progress.advanced(bytes);
    }
    if let Some(expected) = total.filter(|&t| t != bytes) {
        return Err(AcquireError::CutShort {
            url: fetched,
            got: bytes,
            expected: Some(expected),
        });
    }
    file.as_file()
        .sync_all()
        .map_err(|e| AcquireError::io(format!("writing the download to {}", dir.display()), e))?;
    progress.finished();
    Ok(Downloaded {
        file,
        sha256: crate::build::hex(&hasher.finalize()),
        bytes,
        fetched,
    })
}

fn fetch_error(url: &str, options: &FetchOptions, error: ureq::Error) -> AcquireError {
    match error {
        ureq::Error::Timeout(_) => AcquireError::Timeout {
            url: url.to_string(),
            seconds: options.timeout.as_secs_f64(),
        },
        ureq::Error::BadUri(_) | ureq::Error::Http(_) => AcquireError::BadUrl(url.to_string()),
        other => AcquireError::Connection {
            url: url.to_string(),
            message: other.to_string(),
        },
    }
}

/// A body that stopped: a stall past the timeout, or a connection closed early.
fn body_error(
    url: &str,
    options: &FetchOptions,
    got: u64,
    expected: Option<u64>,
    error: std::io::Error,
) -> AcquireError {
    let timed_out = error.kind() == std::io::ErrorKind::TimedOut
        || error
            .get_ref()
            .and_then(|e| e.downcast_ref::<ureq::Error>())
            .is_some_and(|e| matches!(e, ureq::Error::Timeout(_)));
    if timed_out {
        return AcquireError::Timeout {
            url: url.to_string(),
            seconds: options.timeout.as_secs_f64(),
        };
    }
    AcquireError::CutShort {
        url: url.to_string(),
        got,
        expected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_serves_a_link_under_its_host_and_path() {
        let url = "https://github.com/DiseaseOntology/HumanDiseaseOntology/raw/main/src/ontology/doid.obo";
        assert_eq!(
            mirrored(url, Some("http://127.0.0.1:8000/")).unwrap(),
            "http://127.0.0.1:8000/github.com/DiseaseOntology/HumanDiseaseOntology/raw/main/src/ontology/doid.obo"
        );
        assert_eq!(mirrored(url, None).unwrap(), url);
        assert!(mirrored("doid.obo", Some("http://m")).is_err());
    }
}
