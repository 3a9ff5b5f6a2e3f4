//! Format versions of the text files a build holds (`manifest.json`, `schema.json`,
//! `name-rules.toml`), read before anything else in the file, so that a file written by a
//! newer ontoresolve is called newer, never "damaged": a newer file may have fields this
//! binary does not know, and parsing it whole first would blame the file for the binary's
//! age. The binary files carry theirs in their header (`header.rs`).
//!
//! Any change to a file's fields changes its version; `tests/integration/index_formats.rs`
//! holds each file's fields to the version recorded beside them.

use serde::Deserialize;

/// The version of `name-rules.toml`'s fields (its `format` key). The rules' own `version`
/// names their content; this names their shape.
pub const RULES_FORMAT: u32 = 1;

/// How a file's format version compares with the one this binary reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionMismatch {
    #[error(
        "written by a newer ontoresolve (format {found}, this binary reads up to {supported}): upgrade, or rebuild with this binary (`ontoresolve build`)"
    )]
    Newer { found: u32, supported: u32 },
    #[error(
        "format version {found}, this binary reads {supported}: rebuild it (`ontoresolve build`)"
    )]
    Older { found: u32, supported: u32 },
}

/// `Ok` when `found` is the version this binary reads.
pub fn compare(found: u32, supported: u32) -> Result<(), VersionMismatch> {
    match found.cmp(&supported) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Greater => Err(VersionMismatch::Newer { found, supported }),
        std::cmp::Ordering::Less => Err(VersionMismatch::Older { found, supported }),
    }
}

/// Why a text file's version could not be read or does not fit.
#[derive(Debug, thiserror::Error)]
pub enum VersionReadError {
    /// The file does not even say its version: damage, or not such a file.
    #[error("no format version can be read: {0}")]
    Unreadable(String),
    #[error(transparent)]
    Mismatch(#[from] VersionMismatch),
}

/// Reads only `format_version` of a JSON object (every other field is skipped unparsed) and
/// compares it.
pub fn check_json(bytes: &[u8], supported: u32) -> Result<(), VersionReadError> {
    #[derive(Deserialize)]
    struct Probe {
        format_version: u32,
    }
    let probe: Probe =
        serde_json::from_slice(bytes).map_err(|e| VersionReadError::Unreadable(e.to_string()))?;
    Ok(compare(probe.format_version, supported)?)
}

/// Reads only the `format` key of a TOML document and compares it.
pub fn check_toml(text: &str, supported: u32) -> Result<(), VersionReadError> {
    #[derive(Deserialize)]
    struct Probe {
        format: Option<toml::Value>,
    }
    let probe: Probe =
        toml::from_str(text).map_err(|e| VersionReadError::Unreadable(e.to_string()))?;
    let found = match probe.format {
        Some(toml::Value::Integer(n)) => u32::try_from(n).ok(),
        _ => None,
    };
    let found = found.ok_or_else(|| {
        VersionReadError::Unreadable("it has no `format = N` key (a whole number)".into())
    })?;
    Ok(compare(found, supported)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_version_is_told_apart_from_an_older_one() {
        assert_eq!(compare(3, 3), Ok(()));
        assert!(
            compare(4, 3)
                .unwrap_err()
                .to_string()
                .contains("newer ontoresolve (format 4, this binary reads up to 3)")
        );
        assert!(
            compare(2, 3)
                .unwrap_err()
                .to_string()
                .contains("rebuild it")
        );
    }

    #[test]
    fn the_version_is_read_before_fields_this_binary_does_not_know() {
        let newer = br#"{"format_version": 99, "a_field_from_the_future": {"x": [1]}}"#;
        assert!(matches!(
            check_json(newer, 14),
            Err(VersionReadError::Mismatch(VersionMismatch::Newer {
                found: 99,
                ..
            }))
        ));
        assert!(matches!(
            check_json(b"{\"format_version\": 14", 14),
            Err(VersionReadError::Unreadable(_))
        ));
        let rules = "format = 2\nversion = \"x\"\nunknown_table = { a = 1 }\n";
        assert!(matches!(
            check_toml(rules, 1),
            Err(VersionReadError::Mismatch(VersionMismatch::Newer {
                found: 2,
                ..
            }))
        ));
        assert!(matches!(
            check_toml("version = \"x\"", 1),
            Err(VersionReadError::Unreadable(_))
        ));
        assert!(check_toml("format = 1", 1).is_ok());
    }
}
