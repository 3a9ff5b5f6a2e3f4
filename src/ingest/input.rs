//! Opening input files: gzip detection, UTF-8 BOM skipping, byte counting for progress, and a
//! line index that turns a byte offset back into a line and column.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

use flate2::read::MultiGzDecoder;

use super::error::Location;

/// How many recent newline offsets to keep; parsers lag the reader by at most a buffer.
const LINE_WINDOW: usize = 1 << 16;

/// Wraps raw file bytes for parsing: decompresses gzip (detected by its magic number) and
/// skips a UTF-8 byte-order mark.
pub fn open_reader<R: Read + Send + 'static>(raw: R) -> io::Result<Box<dyn BufRead + Send>> {
    let mut raw = BufReader::with_capacity(256 * 1024, raw);
    let is_gzip = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let mut reader: Box<dyn BufRead + Send> = if is_gzip {
        Box::new(BufReader::with_capacity(
            256 * 1024,
            MultiGzDecoder::new(raw),
        ))
    } else {
        Box::new(raw)
    };
    if reader.fill_buf()?.starts_with(&[0xEF, 0xBB, 0xBF]) {
        reader.consume(3);
    }
    Ok(reader)
}

/// Consumes the rest of the current line (through its newline) without buffering it: how a
/// line reader skips a line over its length limit.
pub fn skip_rest_of_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(at) => {
                reader.consume(at + 1);
                return Ok(());
            }
            None => {
                let len = available.len();
                reader.consume(len);
            }
        }
    }
}

/// A shared view of where recent lines start, so that a parser's byte offset can be reported as
/// a line and column without holding the whole file.
#[derive(Clone, Default)]
pub struct LineIndex(Arc<std::sync::Mutex<LineState>>);

#[derive(Default)]
struct LineState {
    offset: u64,
    newlines_before_window: u64,
    window: VecDeque<u64>,
}

impl LineIndex {
    /// The line and column (both from 1, column in bytes) of a byte offset.
    pub fn locate(&self, offset: u64) -> Location {
        let Ok(state) = self.0.lock() else {
            return Location { line: 0, column: 0 };
        };
        let before = state.window.partition_point(|&nl| nl < offset);
        let line_start = match before.checked_sub(1) {
            Some(i) => state.window[i] + 1,
            None => 0,
        };
        Location {
            line: state.newlines_before_window + before as u64 + 1,
            column: offset.saturating_sub(line_start) + 1,
        }
    }
}

/// A reader that records newline offsets into a [`LineIndex`].
pub struct TrackedReader<R> {
    inner: R,
    index: LineIndex,
}

impl<R: Read> TrackedReader<R> {
    pub fn new(inner: R) -> (Self, LineIndex) {
        let index = LineIndex::default();
        (
            TrackedReader {
                inner,
                index: index.clone(),
            },
            index,
        )
    }
}

impl<R: Read> Read for TrackedReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Ok(mut state) = self.index.0.lock() {
            let base = state.offset;
            for (i, &b) in buf[..n].iter().enumerate() {
                if b == b'\n' {
                    state.window.push_back(base + i as u64);
                    if state.window.len() > LINE_WINDOW {
                        state.window.pop_front();
                        state.newlines_before_window += 1;
                    }
                }
            }
            state.offset += n as u64;
        }
        Ok(n)
    }
}
