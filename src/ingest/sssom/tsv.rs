//! The SSSOM TSV stream: the embedded `#` YAML header, the column header line, then rows.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::header::{HeaderLines, header_error};
use super::lines::{LineText, Lines};
use super::row::Columns;
use super::{MappingRow, RowProblem, SetHeader, SssomError};

/// The rows of one SSSOM TSV file, read as they are iterated.
///
/// Yields `Ok(Ok(row))`, `Ok(Err(problem))` for a skipped row, or `Err(error)` once, when a
/// read fails (a truncated gzip among others); iteration ends after an error.
pub struct SssomRows {
    lines: Lines,
    path: PathBuf,
    header: SetHeader,
    columns: Columns,
}

impl SssomRows {
    /// Reads the embedded header and the column header line from `reader`, on top of `header`
    /// (an external header's slots, which the embedded ones override).
    pub(super) fn start(
        reader: Box<dyn BufRead + Send>,
        path: &Path,
        mut header: SetHeader,
    ) -> Result<SssomRows, SssomError> {
        let mut lines = Lines::new(reader);
        let mut gathered = HeaderLines::new(path);
        let columns = loop {
            let line = lines.line();
            let next = lines.next_line().map_err(|source| SssomError::Read {
                path: path.to_path_buf(),
                line,
                source,
            })?;
            match next {
                None => {
                    return Err(SssomError::NoColumnHeader {
                        path: path.to_path_buf(),
                    });
                }
                Some((line, LineText::Text(text))) => match text.strip_prefix('#') {
                    Some(yaml) => gathered.push(line, yaml)?,
                    None if text.trim().is_empty() => {}
                    None => break Columns::parse(text, path, line)?,
                },
                Some((line, unusable)) => {
                    let why = unusable.unusable_reason().unwrap_or_default();
                    return Err(header_error(path, line, why));
                }
            }
        };
        gathered.apply_to(&mut header)?;
        Ok(SssomRows {
            lines,
            path: path.to_path_buf(),
            header,
            columns,
        })
    }

    /// The set-level metadata, external and embedded merged.
    pub fn header(&self) -> &SetHeader {
        &self.header
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Iterator for SssomRows {
    type Item = Result<Result<MappingRow, RowProblem>, SssomError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (columns, header) = (&self.columns, &self.header);
        self.lines.next_mapping_row(&self.path, |line, text| {
            if text.starts_with('#') {
                return Err(RowProblem::new(
                    line,
                    "a `#` line after the column header; skipped",
                ));
            }
            columns.row(line, text, header)
        })
    }
}
