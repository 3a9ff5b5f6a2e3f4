//! Opening input files: gzip and zstd detection, UTF-8 BOM skipping, byte counting for progress, and a
//! line index that turns a byte offset back into a line and column.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

use flate2::read::MultiGzDecoder;

use super::error::Location;

/// How many recent newline offsets to keep; parsers lag the reader by at most a buffer.
const LINE_WINDOW: usize = 1 << 16;
/// Read buffer of the raw file and of the decompressed stream.
const BUFFER_BYTES: usize = 256 * 1024;
/// The first bytes of a gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// The first bytes of a zstd frame (0xFD2FB528, little-endian).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Wraps raw file bytes for parsing: decompresses gzip or zstd (detected by their magic
/// numbers; concatenated members or frames are read through) and skips a UTF-8 byte-order
/// mark.
pub fn open_reader<R: Read + Send + 'static>(raw: R) -> io::Result<Box<dyn BufRead + Send>> {
    let mut raw = BufReader::with_capacity(BUFFER_BYTES, raw);
    let head = raw.fill_buf()?;
    let (is_gzip, is_zstd) = (head.starts_with(&GZIP_MAGIC), head.starts_with(&ZSTD_MAGIC));
    let mut reader: Box<dyn BufRead + Send> = if is_gzip {
        Box::new(BufReader::with_capacity(
            BUFFER_BYTES,
            MultiGzDecoder::new(raw),
        ))
    } else if is_zstd {
        Box::new(BufReader::with_capacity(
            BUFFER_BYTES,
            zstd::stream::read::Decoder::with_buffer(raw)?,
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

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn read_all(bytes: Vec<u8>) -> String {
        let mut text = String::new();
        open_reader(io::Cursor::new(bytes))
            .expect("opens")
            .read_to_string(&mut text)
            .expect("reads");
        text
    }

    #[test]
    fn plain_gzip_and_zstd_inputs_read_the_same_and_lose_their_bom() {
        let text = "\u{feff}line one\nline two\n";
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gzip.write_all(text.as_bytes()).expect("compresses");
        let gzip = gzip.finish().expect("compresses");
        let zstd = zstd::stream::encode_all(text.as_bytes(), 3).expect("compresses");
        assert!(zstd.starts_with(&ZSTD_MAGIC));
        for bytes in [text.as_bytes().to_vec(), gzip, zstd] {
            assert_eq!(read_all(bytes), "line one\nline two\n");
        }
    }

    #[test]
    fn concatenated_zstd_frames_are_read_through() {
        let mut bytes = zstd::stream::encode_all(&b"first\n"[..], 3).expect("compresses");
        bytes.extend(zstd::stream::encode_all(&b"second\n"[..], 3).expect("compresses"));
        assert_eq!(read_all(bytes), "first\nsecond\n");
    }

    #[test]
    fn corrupt_zstd_is_an_error_not_a_panic() {
        let mut bytes = ZSTD_MAGIC.to_vec();
        bytes.extend([0xff; 32]);
        let mut text = String::new();
        let read =
            open_reader(io::Cursor::new(bytes)).and_then(|mut r| r.read_to_string(&mut text));
        assert!(read.is_err());
    }
}
