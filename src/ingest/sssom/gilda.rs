//! gilda's MeSH mappings: six tab-separated columns and no header,
//! `MESH  C000002  bevonium  CHEBI  CHEBI:135495  bevonium`
//! (subject namespace, id, label; object namespace, id, label).
//!
//! A namespace column prefixes an id that lacks it (`HGNC` + `847` -> `HGNC:847`); an id that
//! already starts with its namespace (`CHEBI:135495`) is kept. The file declares no prefixes,
//! so ids are [`RowId::Curie`]s for the registry to resolve.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::lines::Lines;
use super::{MappingRow, RowId, RowProblem, SssomError, excerpt};
use crate::model::MappingPredicate;

/// gilda's column count.
pub const GILDA_COLUMNS: usize = 6;
/// What a gilda row states.
const GILDA_JUSTIFICATION: &str = "semapv:UnspecifiedMatching";

/// The rows of one gilda mapping file; iterates like [`super::SssomRows`].
pub struct GildaRows {
    lines: Lines,
    path: PathBuf,
}

impl GildaRows {
    pub(super) fn new(reader: Box<dyn BufRead + Send>, path: &Path) -> GildaRows {
        GildaRows {
            lines: Lines::new(reader),
            path: path.to_path_buf(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Iterator for GildaRows {
    type Item = Result<Result<MappingRow, RowProblem>, SssomError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.lines.next_mapping_row(&self.path, gilda_row)
    }
}

fn gilda_row(line: u64, text: &str) -> Result<MappingRow, RowProblem> {
    let cells: Vec<&str> = text.split('\t').map(str::trim).collect();
    let [
        subject_ns,
        subject_id,
        subject_label,
        object_ns,
        object_id,
        object_label,
    ] = cells.as_slice()
    else {
        let message = format!("row has {} cells, not {GILDA_COLUMNS}", cells.len());
        return Err(RowProblem::new(line, message));
    };
    let problem = |message: String| RowProblem::new(line, message);
    let predicate = MappingPredicate::ExactMatch;
    Ok(MappingRow {
        line,
        subject: gilda_id(subject_ns, subject_id, "subject").map_err(problem)?,
        predicate_iri: predicate.iri().map(str::to_string),
        predicate,
        object: gilda_id(object_ns, object_id, "object").map_err(problem)?,
        negated: false,
        justification: GILDA_JUSTIFICATION.to_string(),
        confidence_milli: None,
        author_id: Vec::new(),
        reviewer_id: Vec::new(),
        mapping_tool: None,
        mapping_date: None,
        comment: None,
        subject_label: (!subject_label.is_empty()).then(|| subject_label.to_string()),
        object_label: (!object_label.is_empty()).then(|| object_label.to_string()),
    })
}

/// The CURIE of a namespace and id: the id as written when it starts with `namespace:`, else
/// `namespace:id`.
fn gilda_id(namespace: &str, id: &str, side: &str) -> Result<RowId, String> {
    if namespace.is_empty() || id.is_empty() {
        return Err(format!("empty {side} namespace or id"));
    }
    if namespace.contains(':') || id.contains(char::is_whitespace) {
        return Err(format!(
            "{side} {} {} is not an identifier",
            excerpt(namespace),
            excerpt(id)
        ));
    }
    let has_prefix = id
        .split_once(':')
        .is_some_and(|(prefix, _)| prefix.eq_ignore_ascii_case(namespace));
    Ok(RowId::Curie(if has_prefix {
        id.to_string()
    } else {
        format!("{namespace}:{id}")
    }))
}
