//! Readers that turn MeSH, HGNC and NCBI Gene tables, the compact JSON of OBO ontologies
//! (MONDO) and OBO Graphs JSON into [`Concept`]s, one row (or JSON entry) at a time, and
//! [`concept_triples`], which states a concept as RDF for the store.
//!
//! A bad row becomes a [`RowProblem`] and the rest of the source still loads. Only I/O errors,
//! a header without the expected columns, broken JSON syntax, and an input that is mostly not
//! the expected table are fatal.

mod collect;
mod gene_info;
mod hgnc;
mod json_stream;
mod mesh;
mod mondo_json;
mod obographs;
#[cfg(test)]
mod real_data;
mod triples;

use crate::ingest::error::excerpt;
use std::collections::HashMap;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

pub use collect::{Collected, Merging};
use collect::{Collector, Join};
pub use triples::concept_triples;

use super::{FileRelease, IngestError, TableFormat};
use crate::model::{
    Concept, ConceptKind, Definition, Label, LabelKind, Prefixes, Provenance, SourceIdx,
};

/// Longer lines are reported and skipped rather than buffered; the longest real row is ~3 kB.
const MAX_LINE_BYTES: usize = 1 << 20;
/// More bad rows than this means the input is not this table (wrong format or file): stop
/// instead of collecting a problem per line.
const MAX_ROW_PROBLEMS: usize = 100_000;

/// A row that could not be read, or was read with a note; the rest of the source still loads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowProblem {
    pub file: PathBuf,
    pub line: u64,
    pub message: String,
    /// What became of the row.
    pub outcome: RowOutcome,
}

/// What became of a row with a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOutcome {
    /// The row was not loaded.
    Skipped,
    /// The row was loaded; part of it was not (an unreadable cross-reference, a note without a
    /// replacement, a tree number whose parent is not in the file).
    KeptWithNote,
}

/// What a table source yielded.
#[derive(Clone, Debug, Default)]
pub struct TableConcepts {
    pub concepts: Vec<Concept>,
    pub problems: Vec<RowProblem>,
    /// Data rows (or JSON entries) read (header and blank lines excluded), problem rows
    /// included.
    pub rows: u64,
    /// The release the first file stating one states (OBO Graphs' version IRI or
    /// owl:versionInfo); `None` for formats that state none.
    pub release: Option<FileRelease>,
}

/// One table file: its path (for errors) and its opened, decompressed bytes.
pub type TableInput = (PathBuf, Box<dyn BufRead + Send>);

/// What a table source yielded, its concepts finished or being merged.
pub struct TableRead<'p> {
    pub concepts: Collected<'p>,
    /// Data rows (or JSON entries) read (header and blank lines excluded), problem rows
    /// included.
    pub rows: u64,
    /// As [`TableConcepts::release`].
    pub release: Option<FileRelease>,
}

/// Reads every file of one table source, in order, into concepts sorted by IRI, each with its
/// CURIE (prefixes.compress(iri)), deduplicated items and children filled in from parents.
/// Every concept is held in memory: for tests and small tables; see [`read_spilling`].
pub fn read(
    format: TableFormat,
    inputs: Vec<TableInput>,
    source: SourceIdx,
    prefixes: &dyn Prefixes,
) -> Result<TableConcepts, IngestError> {
    let read = read_spilling(format, inputs, source, prefixes, None)?;
    let (concepts, problems) = read.concepts.into_all()?;
    Ok(TableConcepts {
        concepts,
        problems,
        rows: read.rows,
        release: read.release,
    })
}

/// As [`read`], but with `spill` (a directory and a row count) the rows are spilled to disk in
/// sorted runs every that many rows, and the concepts come back merged as they are taken.
pub fn read_spilling<'p>(
    format: TableFormat,
    inputs: Vec<TableInput>,
    source: SourceIdx,
    prefixes: &'p dyn Prefixes,
    spill: Option<(&Path, usize)>,
) -> Result<TableRead<'p>, IngestError> {
    let mut sink = Collector::new(source, spill);
    let mut release = None;
    let mut join = Join::None;
    match format {
        TableFormat::MeshTsv => {
            let mut reader = mesh::MeshReader::default();
            for (file, input) in inputs {
                read_rows(&file, input, &mut sink, &mut reader, prefixes)?;
            }
            join = Join::MeshTrees(reader.into_join());
        }
        TableFormat::HgncTsv => {
            for (file, input) in inputs {
                let mut reader = hgnc::HgncReader::default();
                read_rows(&file, input, &mut sink, &mut reader, prefixes)?;
            }
        }
        TableFormat::GeneInfo => {
            for (file, input) in inputs {
                let mut reader = gene_info::GeneInfoReader::default();
                read_rows(&file, input, &mut sink, &mut reader, prefixes)?;
            }
        }
        TableFormat::CompactJson => {
            for (file, input) in inputs {
                mondo_json::read_terms(&file, input, &mut sink, prefixes)?;
            }
        }
        TableFormat::ObographsJson => {
            for (file, input) in inputs {
                let stated = obographs::read_graph(&file, input, &mut sink, prefixes)?;
                release = release.or(stated);
            }
        }
    }
    let rows = sink.rows;
    Ok(TableRead {
        concepts: sink.finish(join, prefixes)?,
        rows,
        release,
    })
}

/// What a format reader makes of one data row.
struct Row {
    concept: Concept,
    /// Something wrong with a row that is kept anyway.
    note: Option<String>,
}

/// Where a row is, and what it needs to become a concept.
struct RowContext<'a> {
    file: &'a Path,
    line: u64,
    source: SourceIdx,
    prefixes: &'a dyn Prefixes,
}

impl RowContext<'_> {
    fn prov(&self) -> Provenance {
        Provenance {
            source: self.source,
        }
    }

    /// Adds `text`, trimmed, as a label of `kind` with the row's provenance; nothing when it
    /// is empty.
    fn push_label(&self, concept: &mut Concept, text: &str, kind: LabelKind) {
        let text = text.trim();
        if !text.is_empty() {
            concept.labels.push(Label {
                text: text.to_string(),
                kind,
                lang: None,
                prov: self.prov(),
            });
        }
    }

    /// Adds `text`, trimmed, as a definition; nothing when it is empty.
    fn push_definition(&self, concept: &mut Concept, text: &str) {
        let text = text.trim();
        if !text.is_empty() {
            concept.definitions.push(Definition {
                text: text.to_string(),
                lang: None,
                prov: self.prov(),
            });
        }
    }

    fn concept(&self, iri: String, kind: ConceptKind) -> Concept {
        Concept {
            iri,
            source: self.source,
            kind,
            ..Concept::default()
        }
    }

    /// A gene of `taxon` (a CURIE); its locus type when the cell states one.
    fn gene(&self, iri: String, taxon: String, locus_type: &str) -> Concept {
        Concept {
            taxon: Some(taxon),
            locus_type: (!locus_type.is_empty()).then(|| locus_type.to_string()),
            ..self.concept(iri, ConceptKind::Gene)
        }
    }
}

/// One table format: an optional header line, then one concept per row.
trait RowReader {
    /// Whether the first line is a header.
    fn has_header(&self) -> bool;
    fn header(&mut self, file: &Path, line: &str) -> Result<(), IngestError>;
    /// The row's concept, or why the row is skipped.
    fn row(&mut self, text: &str, cx: &RowContext<'_>) -> Result<Row, String>;
}

fn read_rows(
    file: &Path,
    input: Box<dyn BufRead + Send>,
    sink: &mut Collector,
    format: &mut dyn RowReader,
    prefixes: &dyn Prefixes,
) -> Result<(), IngestError> {
    let mut lines = Lines::new(input);
    let mut need_header = format.has_header();
    let io = |source| IngestError::Io {
        file: file.to_path_buf(),
        source,
    };
    while let Some((line, text)) = lines.next_line().map_err(io)? {
        if need_header {
            let text = text.map_err(|message| IngestError::Invalid {
                file: file.to_path_buf(),
                message: format!("header line: {message}"),
            })?;
            format.header(file, text)?;
            need_header = false;
            continue;
        }
        let text = match text {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => text,
            Err(message) => {
                sink.rows += 1;
                sink.problem(file, line, message)?;
                continue;
            }
        };
        sink.rows += 1;
        let cx = RowContext {
            file,
            line,
            source: sink.source,
            prefixes,
        };
        match format.row(text, &cx) {
            Ok(row) => {
                sink.add(file, line, row.concept)?;
                if let Some(note) = row.note {
                    sink.note(file, line, note)?;
                }
            }
            Err(message) => sink.problem(file, line, message)?,
        }
    }
    if need_header {
        return Err(IngestError::Invalid {
            file: file.to_path_buf(),
            message: "the file is empty: no header line".into(),
        });
    }
    Ok(())
}

/// A line's text, or why it cannot be read (too long, not UTF-8).
type LineText<'a> = Result<&'a str, String>;

/// Reads physical lines with a length bound, so one huge line cannot exhaust memory.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line: u64,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            line: 0,
        }
    }

    /// The next line (1-based number, text without its line ending), or why its text is
    /// unusable; `None` at the end of the input.
    fn next_line(&mut self) -> io::Result<Option<(u64, LineText<'_>)>> {
        self.buf.clear();
        let n = (&mut self.reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.buf.len() > MAX_LINE_BYTES && self.buf.last() != Some(&b'\n') {
            crate::ingest::input::skip_rest_of_line(&mut self.reader)?;
            return Ok(Some((
                self.line,
                Err(format!("line longer than {MAX_LINE_BYTES} bytes")),
            )));
        }
        let mut bytes = self.buf.as_slice();
        if let Some(rest) = bytes.strip_suffix(b"\n") {
            bytes = rest.strip_suffix(b"\r").unwrap_or(rest);
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|e| format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1));
        Ok(Some((self.line, text)))
    }
}

/// A row's tab-separated cells, when there are as many as the header names.
fn split_row(text: &str, count: usize) -> Result<Vec<&str>, String> {
    let fields: Vec<&str> = text.split('\t').collect();
    if fields.len() != count {
        return Err(format!(
            "expected {count} columns as in the header, found {}",
            fields.len()
        ));
    }
    Ok(fields)
}

/// Column positions from a header line, by name; a leading `#` (gene_info) is ignored.
struct Header {
    index: HashMap<String, usize>,
    count: usize,
}

impl Header {
    fn parse(line: &str) -> Self {
        let line = line.strip_prefix('#').unwrap_or(line);
        let mut index = HashMap::new();
        let mut count = 0;
        for (i, name) in line.split('\t').enumerate() {
            index.entry(name.trim().to_string()).or_insert(i);
            count = i + 1;
        }
        Header { index, count }
    }

    /// The positions of `names`; an error naming every one that is missing.
    fn require<const N: usize>(
        &self,
        file: &Path,
        names: [&str; N],
    ) -> Result<[usize; N], IngestError> {
        let found = names.map(|name| self.index.get(name).copied());
        let missing: Vec<&str> = names
            .iter()
            .zip(&found)
            .filter(|(_, at)| at.is_none())
            .map(|(name, _)| *name)
            .collect();
        if !missing.is_empty() {
            return Err(IngestError::Invalid {
                file: file.to_path_buf(),
                message: format!("header lacks the columns: {}", missing.join(", ")),
            });
        }
        // Every position was found; the fallback never occurs.
        Ok(found.map(|at| at.unwrap_or(usize::MAX)))
    }

    fn optional(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }
}

/// Splits a cell holding a list, trimming items and dropping empty ones.
fn list<'a>(cell: &'a str, separators: &'a [char]) -> impl Iterator<Item = &'a str> + 'a {
    cell.split(separators)
        .map(str::trim)
        .filter(|item| !item.is_empty())
}

/// A CURIE in the registry's canonical spelling when the registry knows its prefix, else as
/// written.
fn normalize_curie(prefixes: &dyn Prefixes, curie: &str) -> String {
    prefixes
        .expand(curie)
        .and_then(|iri| prefixes.compress(&iri))
        .unwrap_or_else(|| curie.to_string())
}

#[cfg(test)]
mod tests;
