//! The input of `ontoresolve map`: lines of a file or of standard input, decoded leniently, and
//! the field of each line that holds the identifier or name.
//!
//! Formats: one value per line; a TSV column (`--column`); or CSV when the file name ends in
//! `.csv`. CSV is read simply: a line is split at every comma and each field loses its
//! surrounding spaces and one pair of surrounding double quotes (`""` inside becomes `"`). A
//! quoted field that holds a comma or a line break is therefore not supported.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, bail};

/// Rows are cut here so that one huge line cannot exhaust memory; such a row is still reported.
pub const MAX_ROW_BYTES: usize = 64 * 1024;
/// Read buffer of the input file.
const READ_BUFFER_BYTES: usize = 1 << 20;

/// How a line splits into fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The whole line is the value, unless `--column` picks a TSV field.
    Lines,
    Csv,
}

/// Which field holds the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    WholeLine,
    /// 0-based field number.
    Field(usize),
}

/// The open input: its rows, its size when known, and how to read a value from a row.
pub struct Input {
    pub rows: Rows,
    pub size: Option<u64>,
    pub format: Format,
}

impl Input {
    pub fn open(path: &Path) -> anyhow::Result<Input> {
        let format = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
        {
            Format::Csv
        } else {
            Format::Lines
        };
        let (input, size): (Box<dyn BufRead + Send>, Option<u64>) = if path == Path::new("-") {
            (Box::new(BufReader::new(io::stdin())), None)
        } else {
            let file =
                File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            let size = file.metadata().ok().map(|m| m.len());
            (
                Box::new(BufReader::with_capacity(READ_BUFFER_BYTES, file)),
                size,
            )
        };
        Ok(Input {
            rows: Rows { input, line: 0 },
            size,
            format,
        })
    }

    /// The column `--column` names: a number from 1, or a header name (the first line is then
    /// read as the header and is no input row). CSV without `--column` reads its first field.
    pub fn column(&mut self, written: Option<&str>) -> anyhow::Result<(Column, u64)> {
        let default = match self.format {
            Format::Lines => Column::WholeLine,
            Format::Csv => Column::Field(0),
        };
        let Some(written) = written else {
            return Ok((default, 0));
        };
        if let Ok(n) = written.parse::<usize>() {
            if n == 0 {
                bail!("--column counts from 1");
            }
            return Ok((Column::Field(n - 1), 0));
        }
        let Some(header) = self.rows.next_row()? else {
            bail!("the input is empty: no header with a column named '{written}'");
        };
        match fields(&header.text, self.format).position(|f| f == written.trim()) {
            Some(i) => Ok((Column::Field(i), header.bytes)),
            None => bail!("the header has no column named '{written}'"),
        }
    }
}

/// The fields of a line: TSV fields (trimmed) or simple CSV fields (trimmed, unquoted).
fn fields(text: &str, format: Format) -> Box<dyn Iterator<Item = String> + '_> {
    match format {
        Format::Lines => Box::new(text.split('\t').map(|f| f.trim().to_string())),
        Format::Csv => Box::new(text.split(',').map(unquote)),
    }
}

fn unquote(field: &str) -> String {
    let trimmed = field.trim();
    match trimmed
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    {
        Some(inner) => inner.replace("\"\"", "\""),
        None => trimmed.to_string(),
    }
}

/// The value of one row, or `None` when the row has no such column.
pub fn value(text: &str, format: Format, column: Column) -> Option<String> {
    match column {
        Column::WholeLine => Some(text.to_string()),
        Column::Field(i) => fields(text, format).nth(i),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_lose_spaces_and_one_pair_of_quotes() {
        let line = r#" "HP:0000001" ,MONDO:0005148,"say ""hi""""#;
        assert_eq!(
            value(line, Format::Csv, Column::Field(0)).as_deref(),
            Some("HP:0000001")
        );
        assert_eq!(
            value(line, Format::Csv, Column::Field(2)).as_deref(),
            Some(r#"say "hi""#)
        );
        assert_eq!(value(line, Format::Csv, Column::Field(3)), None);
    }

    #[test]
    fn tsv_columns_and_whole_lines() {
        assert_eq!(
            value("a\tb ", Format::Lines, Column::Field(1)).as_deref(),
            Some("b")
        );
        assert_eq!(
            value("a\tb", Format::Lines, Column::WholeLine).as_deref(),
            Some("a\tb")
        );
    }
}
