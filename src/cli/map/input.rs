//! The input of `ontoresolve map`: lines of a file or of standard input, decoded leniently, and
//! the field of each line that holds the identifier or name.
//!
//! Formats: one value per line; a TSV column (`--column`); or CSV when the file name ends in
//! `.csv`. CSV is read simply: a line is split at every comma and each field loses its
//! surrounding spaces and one pair of surrounding double quotes (`""` inside becomes `"`). A
//! quoted field that holds a comma or a line break is therefore not supported.

use std::path::Path;

use anyhow::bail;

/// Rows are cut here so that one huge line cannot exhaust memory; such a row is still reported.
pub use crate::cli::rows::{MAX_ROW_BYTES, Row, Rows};
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
        let (input, size) = crate::cli::rows::open_input(path)?;
        Ok(Input {
            rows: Rows::new(input),
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
