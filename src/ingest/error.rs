//! Ingest errors: every syntax error names its file, line and column.

use std::fmt;
use std::path::PathBuf;

/// A position in a (decompressed) input file; both numbers start at 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    pub line: u64,
    pub column: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The most characters of a cell a problem message quotes.
pub const MAX_EXCERPT_CHARS: usize = 80;

/// Cell text for a problem message: debug-quoted, cut to [`MAX_EXCERPT_CHARS`].
pub fn excerpt(text: &str) -> String {
    if text.chars().count() <= MAX_EXCERPT_CHARS {
        format!("{text:?}")
    } else {
        let cut: String = text.chars().take(MAX_EXCERPT_CHARS).collect();
        format!("{cut:?}…")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("{}:{location}: syntax error: {message}", file.display())]
    Syntax {
        file: PathBuf,
        location: Location,
        message: String,
    },
    #[error("{}: cannot read: {source}", file.display())]
    Io {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {message}", file.display())]
    Invalid { file: PathBuf, message: String },
    /// The consumer of the triples stopped (for example, the store failed).
    #[error("ingest stopped: {0}")]
    Stopped(String),
}

impl IngestError {
    pub fn location(&self) -> Option<Location> {
        match self {
            IngestError::Syntax { location, .. } => Some(*location),
            _ => None,
        }
    }
}
