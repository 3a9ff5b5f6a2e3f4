//! What the streaming JSON readers (`mondo_json`, `obographs`) share: an input that counts
//! lines and the current entry's bytes, so that an entry is read as a small JSON value of at
//! most [`MAX_ENTRY_BYTES`] and a problem names its line; serde_json errors as located ingest
//! errors; and the field readers of an entry.

use std::cell::Cell;
use std::io::{self, Read};
use std::path::Path;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::ingest::{IngestError, Location};

/// An entry longer than this stops the source, because an entry is held whole while it is
/// read; the largest real ones are a few kB.
pub(super) const MAX_ENTRY_BYTES: u64 = 1 << 20;

/// A serde_json error as an ingest error: syntax and shape errors with their line and column.
pub(super) fn json_error(
    file: &Path,
    error: serde_json::Error,
    position: &Position,
    entry: &str,
) -> IngestError {
    let location = Location {
        line: error.line() as u64,
        column: error.column() as u64,
    };
    if position.over_limit.get() {
        return IngestError::Syntax {
            file: file.to_path_buf(),
            location,
            message: format!("{entry} longer than {MAX_ENTRY_BYTES} bytes"),
        };
    }
    if error.is_io() {
        return IngestError::Io {
            file: file.to_path_buf(),
            source: io::Error::from(error),
        };
    }
    // serde_json's text ends with the position, which the error states on its own.
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    IngestError::Syntax {
        file: file.to_path_buf(),
        location,
        message: text.strip_suffix(&suffix).unwrap_or(&text).to_string(),
    }
}

/// Where the JSON reader is, shared by the reader (which counts) and the visitors.
pub(super) struct Position {
    /// The line of the next byte to read, from 1.
    pub(super) line: Cell<u64>,
    /// Bytes read since the current entry began; `None` between entries (sections skipped
    /// unread may be long).
    entry_bytes: Cell<Option<u64>>,
    /// The current entry went past [`MAX_ENTRY_BYTES`].
    over_limit: Cell<bool>,
}

impl Default for Position {
    fn default() -> Self {
        Position {
            line: Cell::new(1),
            entry_bytes: Cell::new(None),
            over_limit: Cell::new(false),
        }
    }
}

impl Position {
    pub(super) fn start_entry(&self) {
        self.entry_bytes.set(Some(0));
    }

    pub(super) fn end_entry(&self) {
        self.entry_bytes.set(None);
    }
}

/// The input, counting lines and the current entry's bytes. serde_json reads it a byte at a
/// time, so the count is exact.
pub(super) struct Positioned<'a, R> {
    pub(super) inner: R,
    pub(super) position: &'a Position,
}

impl<R: Read> Read for Positioned<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let read = buf.get(..n).unwrap_or_default();
        let newlines = read.iter().filter(|&&b| b == b'\n').count() as u64;
        let position = self.position;
        position.line.set(position.line.get() + newlines);
        if let Some(bytes) = position.entry_bytes.get() {
            let bytes = bytes + n as u64;
            position.entry_bytes.set(Some(bytes));
            if bytes > MAX_ENTRY_BYTES {
                position.over_limit.set(true);
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("an entry longer than {MAX_ENTRY_BYTES} bytes"),
                ));
            }
        }
        Ok(n)
    }
}

pub(super) fn field<T: DeserializeOwned>(
    fields: &mut Map<String, Value>,
    name: &str,
) -> Result<Option<T>, String> {
    fields
        .remove(name)
        .filter(|value| !value.is_null())
        .map(|value| serde_json::from_value(value).map_err(|e| format!("{name}: {e}")))
        .transpose()
}

pub(super) fn value_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(super) fn valid_iri(iri: String) -> Option<String> {
    oxiri::Iri::parse(iri.as_str()).is_ok().then_some(iri)
}
