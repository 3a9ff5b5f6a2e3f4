//! Input rows for the batch commands (`normalize`, `map`, `annotate`): lines decoded leniently (a row that
//! is not UTF-8 is still a row), cut at [`MAX_ROW_BYTES`] so that one huge line cannot exhaust
//! memory, with their line number and the bytes they took for progress.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use anyhow::Context as _;

/// Rows are cut here so that one huge line cannot exhaust memory; such a row is still reported.
pub const MAX_ROW_BYTES: usize = 64 * 1024;

/// How much of an input file is read at a time.
const READ_BUFFER_BYTES: usize = 1 << 20;

/// A batch command's input (`-` is standard input), and its size when it is a file, for
/// progress.
pub fn open_input(path: &Path) -> anyhow::Result<(Box<dyn BufRead + Send>, Option<u64>)> {
    if path == Path::new("-") {
        return Ok((Box::new(BufReader::new(io::stdin())), None));
    }
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let size = file.metadata().ok().map(|m| m.len());
    Ok((
        Box::new(BufReader::with_capacity(READ_BUFFER_BYTES, file)),
        size,
    ))
}

/// Lines of the input, decoded leniently: a row that is not UTF-8 is still a row.
pub struct Rows {
    input: Box<dyn BufRead + Send>,
    /// Lines read so far.
    pub line: u64,
}

/// One input row.
pub struct Row {
    /// 1-based line number.
    pub line: u64,
    /// The text without the line ending (and without a byte-order mark on line 1), cut at
    /// [`MAX_ROW_BYTES`].
    pub text: String,
    /// Bytes the row took in the input.
    pub bytes: u64,
    /// The row was longer than [`MAX_ROW_BYTES`]; the rest was skipped.
    pub too_long: bool,
}

impl Rows {
    pub fn new(input: Box<dyn BufRead + Send>) -> Rows {
        Rows { input, line: 0 }
    }

    pub fn next_row(&mut self) -> io::Result<Option<Row>> {
        let mut bytes = Vec::new();
        let mut consumed = 0u64;
        let mut too_long = false;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let (chunk, ends) = match buf.iter().position(|b| *b == b'\n') {
                Some(i) => (&buf[..=i], true),
                None => (buf, false),
            };
            // Room for the row and its line ending (CRLF), which is removed below.
            let room = (MAX_ROW_BYTES + 2).saturating_sub(bytes.len());
            if chunk.len() > room {
                bytes.extend_from_slice(&chunk[..room]);
                too_long = true;
            } else {
                bytes.extend_from_slice(chunk);
            }
            let n = chunk.len();
            consumed += n as u64;
            self.input.consume(n);
            if ends {
                break;
            }
        }
        if consumed == 0 {
            return Ok(None);
        }
        self.line += 1;
        while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            bytes.pop();
        }
        if bytes.len() > MAX_ROW_BYTES {
            bytes.truncate(MAX_ROW_BYTES);
            too_long = true;
        }
        let text = match (self.line, bytes.strip_prefix(b"\xEF\xBB\xBF")) {
            (1, Some(rest)) => String::from_utf8_lossy(rest).into_owned(),
            _ => String::from_utf8_lossy(&bytes).into_owned(),
        };
        Ok(Some(Row {
            line: self.line,
            text,
            bytes: consumed,
            too_long,
        }))
    }
}
