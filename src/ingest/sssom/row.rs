//! One SSSOM TSV row into a [`MappingRow`]: columns found by name, identifiers checked against
//! the set's prefixes, set-level `mapping_tool` and `mapping_date` propagated.

use std::borrow::Cow;
use std::path::Path;

use super::{
    MAX_COLUMNS, MAX_EXCERPT_CHARS, MappingRow, RowId, RowProblem, SetHeader, SssomError,
    cut_chars, excerpt,
};
use crate::model::{MappingPredicate, NO_TERM_FOUND, confidence_milli};

/// The columns every SSSOM file must have.
pub const REQUIRED_COLUMNS: [&str; 4] = [
    "subject_id",
    "predicate_id",
    "object_id",
    "mapping_justification",
];

/// Where a semapv justification may be written as a full IRI.
const SEMAPV_IRIS: [&str; 2] = [
    "https://w3id.org/semapv/vocab/",
    "http://w3id.org/semapv/vocab/",
];
const NO_TERM_FOUND_IRI: &str = "https://w3id.org/sssom/NoTermFound";

/// Column positions of the slots a [`MappingRow`] holds; other columns are ignored.
pub(super) struct Columns {
    subject: usize,
    predicate: usize,
    object: usize,
    justification: usize,
    modifier: Option<usize>,
    confidence: Option<usize>,
    author: Option<usize>,
    reviewer: Option<usize>,
    tool: Option<usize>,
    date: Option<usize>,
    comment: Option<usize>,
    subject_label: Option<usize>,
    object_label: Option<usize>,
    /// One past the last required column: a shorter row lacks a required cell.
    required_len: usize,
}

impl Columns {
    /// Reads the column header line; any order, unknown columns ignored, the first of a
    /// repeated name used.
    pub(super) fn parse(text: &str, path: &Path, line: u64) -> Result<Columns, SssomError> {
        let names: Vec<&str> = text.split('\t').map(str::trim).collect();
        if names.len() > MAX_COLUMNS {
            return Err(SssomError::BadColumnHeader {
                path: path.to_path_buf(),
                line,
                message: format!("{} columns, more than {MAX_COLUMNS}", names.len()),
            });
        }
        let find = |name: &str| names.iter().position(|n| unquote(n) == name);
        let missing: Vec<String> = REQUIRED_COLUMNS
            .iter()
            .filter(|name| find(name).is_none())
            .map(|name| name.to_string())
            .collect();
        let [
            Some(subject),
            Some(predicate),
            Some(object),
            Some(justification),
        ] = REQUIRED_COLUMNS.map(find)
        else {
            return Err(SssomError::MissingColumns(missing));
        };
        Ok(Columns {
            subject,
            predicate,
            object,
            justification,
            modifier: find("predicate_modifier"),
            confidence: find("confidence"),
            author: find("author_id"),
            reviewer: find("reviewer_id"),
            tool: find("mapping_tool"),
            date: find("mapping_date"),
            comment: find("comment"),
            subject_label: find("subject_label"),
            object_label: find("object_label"),
            required_len: 1 + subject.max(predicate).max(object).max(justification),
        })
    }

    /// Reads one data row. A row shorter than the header line reads its missing trailing
    /// optional cells as empty; one lacking a required cell is a problem.
    pub(super) fn row(
        &self,
        line: u64,
        text: &str,
        header: &SetHeader,
    ) -> Result<MappingRow, RowProblem> {
        let cells: Vec<&str> = text.split('\t').collect();
        if cells.len() < self.required_len {
            let message = format!(
                "row has {} cells; the required columns need {}",
                cells.len(),
                self.required_len
            );
            return Err(RowProblem::new(line, message));
        }
        let cell = |at: Option<usize>| -> Cow<'_, str> {
            at.and_then(|at| cells.get(at))
                .map_or(Cow::Borrowed(""), |text| unquote(text.trim()))
        };
        let problem = |message: String| RowProblem::new(line, message);
        let (predicate, predicate_iri) =
            predicate(&cell(Some(self.predicate)), header).map_err(problem)?;
        Ok(MappingRow {
            line,
            subject: row_id(&cell(Some(self.subject)), "subject_id", header).map_err(problem)?,
            predicate,
            predicate_iri,
            object: row_id(&cell(Some(self.object)), "object_id", header).map_err(problem)?,
            negated: negated(&cell(self.modifier)).map_err(problem)?,
            justification: justification(&cell(Some(self.justification))).map_err(problem)?,
            confidence_milli: confidence(&cell(self.confidence)).map_err(problem)?,
            author_id: list(&cell(self.author)),
            reviewer_id: list(&cell(self.reviewer)),
            mapping_tool: text_or_set_level(&cell(self.tool), header, "mapping_tool"),
            mapping_date: text_or_set_level(&cell(self.date), header, "mapping_date"),
            comment: non_empty(&cell(self.comment)),
            subject_label: non_empty(&cell(self.subject_label)),
            object_label: non_empty(&cell(self.object_label)),
        })
    }
}

/// A cell as written, or its content when the writer quoted it (`"a ""b"""` -> `a "b"`).
fn unquote(cell: &str) -> Cow<'_, str> {
    match cell.strip_prefix('"').and_then(|c| c.strip_suffix('"')) {
        Some(inner) if inner.contains("\"\"") => Cow::Owned(inner.replace("\"\"", "\"")),
        Some(inner) => Cow::Borrowed(inner),
        None => Cow::Borrowed(cell),
    }
}

/// A subject or object cell: a CURIE with a known prefix, an IRI the prefixes compress, or
/// `sssom:NoTermFound`.
fn row_id(cell: &str, column: &str, header: &SetHeader) -> Result<RowId, String> {
    if cell.is_empty() {
        return Err(format!("empty {column}"));
    }
    if cell == NO_TERM_FOUND || cell == NO_TERM_FOUND_IRI {
        return Ok(RowId::NoTermFound);
    }
    if cell.contains(char::is_whitespace) {
        return Err(format!("{column} {} contains whitespace", excerpt(cell)));
    }
    if is_iri(cell) {
        let curie = header.compress(cell).ok_or_else(|| {
            format!(
                "{column} {} is an IRI no declared prefix covers",
                excerpt(cell)
            )
        })?;
        let iri = cell.to_string();
        return Ok(RowId::Expanded { curie, iri });
    }
    let iri = expand(cell, column, header)?;
    Ok(RowId::Expanded {
        curie: cell.to_string(),
        iri,
    })
}

/// The IRI of a CURIE through the declared or built-in prefixes.
fn expand(curie: &str, column: &str, header: &SetHeader) -> Result<String, String> {
    let Some((prefix, local)) = curie.split_once(':').filter(|(p, _)| !p.is_empty()) else {
        return Err(format!("{column} {} is not a CURIE", excerpt(curie)));
    };
    match header.prefix_iri(prefix) {
        Some(base) => Ok(format!("{base}{local}")),
        None => Err(format!(
            "undeclared prefix `{}` in {column}",
            cut_chars(prefix.to_string(), MAX_EXCERPT_CHARS)
        )),
    }
}

fn is_iri(cell: &str) -> bool {
    cell.starts_with("http://") || cell.starts_with("https://")
}

fn predicate(cell: &str, header: &SetHeader) -> Result<(MappingPredicate, Option<String>), String> {
    if cell.is_empty() {
        return Err("empty predicate_id".into());
    }
    let iri = if is_iri(cell) {
        cell.to_string()
    } else {
        expand(cell, "predicate_id", header)?
    };
    Ok((MappingPredicate::parse(cell), Some(iri)))
}

fn negated(cell: &str) -> Result<bool, String> {
    match cell {
        "" => Ok(false),
        "Not" => Ok(true),
        other => Err(format!(
            "predicate_modifier {} is neither `Not` nor empty",
            excerpt(other)
        )),
    }
}

/// The justification as a CURIE; a full semapv IRI is compressed.
fn justification(cell: &str) -> Result<String, String> {
    if cell.is_empty() {
        return Err("empty mapping_justification".into());
    }
    for iri in SEMAPV_IRIS {
        if let Some(term) = cell.strip_prefix(iri) {
            return Ok(format!("semapv:{term}"));
        }
    }
    Ok(cell.to_string())
}

fn confidence(cell: &str) -> Result<Option<u16>, String> {
    if cell.is_empty() {
        return Ok(None);
    }
    let milli = cell.parse::<f64>().ok().and_then(confidence_milli);
    milli
        .map(Some)
        .ok_or_else(|| format!("confidence {} is not a number in [0, 1]", excerpt(cell)))
}

/// A multi-valued cell split on `|`, empty items dropped.
fn list(cell: &str) -> Vec<String> {
    cell.split('|')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_string)
        .collect()
}

fn non_empty(cell: &str) -> Option<String> {
    (!cell.is_empty()).then(|| cell.to_string())
}

fn text_or_set_level(cell: &str, header: &SetHeader, slot: &str) -> Option<String> {
    non_empty(cell).or_else(|| header.propagated.get(slot).cloned())
}
