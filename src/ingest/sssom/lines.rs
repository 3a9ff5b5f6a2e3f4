//! Physical lines with a length bound: an over-long line is reported and skipped up to its
//! newline without being buffered, so one huge line cannot exhaust memory.

use std::io::{self, BufRead};
use std::path::Path;

use super::{MAX_LINE_BYTES, MappingRow, RowProblem, SssomError};

/// A line's text (line ending removed), or why it has none.
pub(super) enum LineText<'a> {
    Text(&'a str),
    TooLong,
    NotUtf8 { byte: usize },
}

impl LineText<'_> {
    /// Why the line is unusable, for a message.
    pub(super) fn unusable_reason(&self) -> Option<String> {
        match self {
            LineText::Text(_) => None,
            LineText::TooLong => Some(format!("line longer than {MAX_LINE_BYTES} bytes")),
            LineText::NotUtf8 { byte } => Some(format!("invalid UTF-8 at byte {byte}")),
        }
    }
}

/// Reads lines of at most [`MAX_LINE_BYTES`] bytes, counting them from 1.
pub(super) struct Lines {
    reader: Box<dyn BufRead + Send>,
    buf: Vec<u8>,
    line: u64,
    /// The line in `buf` was cut at the bound.
    too_long: bool,
    /// A read failed; no further lines.
    failed: bool,
}

impl Lines {
    pub(super) fn new(reader: Box<dyn BufRead + Send>) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            line: 0,
            too_long: false,
            failed: false,
        }
    }

    /// The number of the last line returned (0 before the first).
    pub(super) fn line(&self) -> u64 {
        self.line
    }

    /// The next line with its number, or `None` at the end of the input.
    pub(super) fn next_line(&mut self) -> io::Result<Option<(u64, LineText<'_>)>> {
        Ok(self.advance()?.then(|| self.current()))
    }

    /// The next line that is not blank, for the row readers. A read error comes once, naming
    /// the file and line, and ends the rows: a truncated file never looks like a clean end.
    pub(super) fn next_row_line(
        &mut self,
        path: &Path,
    ) -> Option<Result<(u64, LineText<'_>), SssomError>> {
        if self.failed {
            return None;
        }
        loop {
            match self.advance() {
                Ok(false) => return None,
                Ok(true) if self.is_blank() => continue,
                Ok(true) => return Some(Ok(self.current())),
                Err(source) => {
                    self.failed = true;
                    return Some(Err(SssomError::Read {
                        path: path.to_path_buf(),
                        line: self.line,
                        source,
                    }));
                }
            }
        }
    }

    /// The next row, read by `parse` when its line is text; a line that is not (too long,
    /// not UTF-8) is a row problem, and a read error ends the rows.
    pub(super) fn next_mapping_row(
        &mut self,
        path: &Path,
        parse: impl FnOnce(u64, &str) -> Result<MappingRow, RowProblem>,
    ) -> Option<Result<Result<MappingRow, RowProblem>, SssomError>> {
        let next = match self.next_row_line(path)? {
            Ok(next) => next,
            Err(e) => return Some(Err(e)),
        };
        let row = match next {
            (line, LineText::Text(text)) => parse(line, text),
            (line, unusable) => Err(RowProblem::new(
                line,
                unusable.unusable_reason().unwrap_or_default(),
            )),
        };
        Some(Ok(row))
    }

    /// Reads the next line into `buf`; false at the end of the input.
    fn advance(&mut self) -> io::Result<bool> {
        self.buf.clear();
        self.too_long = false;
        let found_newline = self.fill_until_newline()?;
        if self.buf.is_empty() && !found_newline {
            return Ok(false);
        }
        self.line += 1;
        if self.buf.len() > MAX_LINE_BYTES {
            self.too_long = true;
            if !found_newline {
                crate::ingest::input::skip_rest_of_line(&mut self.reader)?;
            }
        }
        Ok(true)
    }

    fn is_blank(&self) -> bool {
        !self.too_long && std::str::from_utf8(&self.buf).is_ok_and(|t| t.trim().is_empty())
    }

    /// The line `advance` read.
    fn current(&self) -> (u64, LineText<'_>) {
        if self.too_long {
            return (self.line, LineText::TooLong);
        }
        let bytes = self.buf.strip_suffix(b"\r").unwrap_or(&self.buf);
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => LineText::Text(text),
            Err(e) => LineText::NotUtf8 {
                byte: e.valid_up_to() + 1,
            },
        };
        (self.line, text)
    }

    /// Appends to `buf` up to the next newline (consumed, not stored) or one byte past the
    /// bound; returns whether the newline was reached.
    fn fill_until_newline(&mut self) -> io::Result<bool> {
        loop {
            let available = self.reader.fill_buf()?;
            if available.is_empty() {
                return Ok(false);
            }
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.buf.len());
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(available.len()).min(room);
            self.buf.extend_from_slice(&available[..take]);
            if newline == Some(take) {
                self.reader.consume(take + 1);
                return Ok(true);
            }
            self.reader.consume(take);
            if self.buf.len() > MAX_LINE_BYTES {
                return Ok(false);
            }
        }
    }
}
