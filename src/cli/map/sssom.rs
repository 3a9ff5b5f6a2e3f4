//! SSSOM rows as `ontoresolve map` writes them: the columns, one cell's escaping, and what the
//! rows use (prefixes, mapping sets, sources) so that the header can declare all of it.

use std::collections::BTreeSet;

use ontoresolve::model::{Evidence, EvidenceOrigin};
use ontoresolve::resolve::Resolver;

/// The object (and the subject, for input that is no identifier) of a "found nothing" row.
pub const NO_TERM_FOUND: &str = "sssom:NoTermFound";
/// The justification of rows that state no match.
pub const UNSPECIFIED: &str = "semapv:UnspecifiedMatching";
/// Longest raw input kept in `subject_label`.
pub const MAX_INPUT_LABEL_CHARS: usize = 200;

/// The justifications sssom-schema accepts; any other one an evidence carries is written as
/// `semapv:UnspecifiedMatching`, with the original in the comment.
const JUSTIFICATIONS: &[&str] = &[
    "semapv:MappingReview",
    "semapv:ManualMappingCuration",
    "semapv:LogicalReasoning",
    "semapv:LexicalMatching",
    "semapv:CompositeMatching",
    "semapv:UnspecifiedMatching",
    "semapv:SemanticSimilarityThresholdMatching",
    "semapv:LexicalSimilarityThresholdMatching",
    "semapv:MappingChaining",
    "semapv:MappingInversion",
    "semapv:StructuralMatching",
    "semapv:InstanceBasedMatching",
    "semapv:BackgroundKnowledgeBasedMatching",
];

/// The columns, in order.
pub const COLUMNS: &[&str] = &[
    "subject_id",
    "subject_label",
    "subject_type",
    "predicate_id",
    "predicate_modifier",
    "object_id",
    "object_label",
    "mapping_justification",
    "confidence",
    "mapping_cardinality",
    "author_id",
    "reviewer_id",
    "mapping_tool",
    "mapping_date",
    "mapping_source",
    "subject_source_version",
    "object_source_version",
    "comment",
];

/// One SSSOM row; empty strings are empty cells.
#[derive(Clone, Debug, Default)]
pub struct SssomRow {
    pub subject_id: String,
    pub subject_label: String,
    /// `rdfs literal` for a name mapped by `--by label` (then `subject_id` is empty).
    pub subject_type: &'static str,
    pub predicate_id: String,
    /// `Not` for a negative statement.
    pub predicate_modifier: &'static str,
    pub object_id: String,
    pub object_label: String,
    pub mapping_justification: String,
    pub confidence: Option<f64>,
    pub mapping_cardinality: &'static str,
    pub author_id: Vec<String>,
    pub reviewer_id: Vec<String>,
    pub mapping_tool: String,
    pub mapping_date: String,
    pub mapping_source: String,
    pub subject_source_version: String,
    pub object_source_version: String,
    pub comment: String,
}

impl SssomRow {
    /// The row as one TSV line (with its line end), and its CURIE prefixes noted in `seen`.
    pub fn line(&self, seen: &mut Seen) -> String {
        for curie in [
            &self.subject_id,
            &self.predicate_id,
            &self.object_id,
            &self.mapping_justification,
            &self.mapping_source,
        ]
        .into_iter()
        .chain(&self.author_id)
        .chain(&self.reviewer_id)
        {
            seen.note_curie(curie);
        }
        let confidence = self
            .confidence
            .map(|c| format!("{c:.3}"))
            .unwrap_or_default();
        let cells: [&str; 18] = [
            &self.subject_id,
            &self.subject_label,
            self.subject_type,
            &self.predicate_id,
            self.predicate_modifier,
            &self.object_id,
            &self.object_label,
            &self.mapping_justification,
            &confidence,
            self.mapping_cardinality,
            &self.author_id.join("|"),
            &self.reviewer_id.join("|"),
            &self.mapping_tool,
            &self.mapping_date,
            &self.mapping_source,
            &self.subject_source_version,
            &self.object_source_version,
            &self.comment,
        ];
        let mut line = String::with_capacity(256);
        for (i, text) in cells.iter().enumerate() {
            if i > 0 {
                line.push('\t');
            }
            push_cell(&mut line, text);
        }
        line.push('\n');
        line
    }
}

/// A cell on one line: control characters (tab, line breaks) become spaces, and a cell holding
/// a double quote is quoted with the quotes doubled, as pandas (and so sssom-py) reads TSV.
fn push_cell(line: &mut String, text: &str) {
    let clean = |c: char| if c.is_control() { ' ' } else { c };
    if text.contains('"') {
        line.push('"');
        for c in text.chars().map(clean) {
            if c == '"' {
                line.push('"');
            }
            line.push(c);
        }
        line.push('"');
    } else {
        line.extend(text.chars().map(clean));
    }
}

/// What the written rows use, for the header.
#[derive(Debug, Default)]
pub struct Seen {
    pub prefixes: BTreeSet<String>,
    /// Mapping sets (by index in the manifest) whose statements the rows cite.
    pub sets: BTreeSet<u16>,
    /// Sources (by evidence number, `Manifest::xref_source`) whose cross-references the rows
    /// cite.
    pub xref_sources: BTreeSet<u16>,
    /// Sources (by index) whose concepts gave labels or versions.
    pub label_sources: BTreeSet<u16>,
}

impl Seen {
    pub fn note_curie(&mut self, curie: &str) {
        if let Some(prefix) = curie_prefix(curie)
            && !self.prefixes.contains(prefix)
        {
            self.prefixes.insert(prefix.to_string());
        }
    }

    pub fn note_evidence(&mut self, evidence: &Evidence) {
        match evidence.origin {
            EvidenceOrigin::MappingSet => self.sets.insert(evidence.set),
            EvidenceOrigin::SourceXref => self.xref_sources.insert(evidence.set),
        };
    }

    pub fn merge(&mut self, other: Seen) {
        self.prefixes.extend(other.prefixes);
        self.sets.extend(other.sets);
        self.xref_sources.extend(other.xref_sources);
        self.label_sources.extend(other.label_sources);
    }
}

/// The prefix of a CURIE; `None` for IRIs (which need no prefix) and for empty text.
pub fn curie_prefix(text: &str) -> Option<&str> {
    if is_iri(text) {
        return None;
    }
    text.split_once(':')
        .map(|(p, _)| p)
        .filter(|p| !p.is_empty())
}

pub fn is_iri(text: &str) -> bool {
    text.starts_with("http://") || text.starts_with("https://")
}

/// Whether text can stand in an entity-reference cell: an http(s) IRI, or `prefix:local` with
/// a prefix of letters, digits, `_`, `-` and `.` starting with a letter or `_`, and no spaces
/// or pipes anywhere.
pub fn is_reference(text: &str) -> bool {
    if text.is_empty() || text.contains(|c: char| c.is_whitespace() || c == '|' || c == '"') {
        return false;
    }
    if is_iri(text) {
        return true;
    }
    let Some((prefix, local)) = text.split_once(':') else {
        return false;
    };
    let mut chars = prefix.chars();
    !local.is_empty()
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// A CURIE with its prefix in the registry's canonical spelling (`mesh:D1` → `MESH:D1`), so
/// that one namespace never appears under two prefixes; other text is returned as it is.
pub fn canonical_curie(r: &Resolver, curie: &str) -> String {
    let Some(prefix) = curie_prefix(curie) else {
        return curie.to_string();
    };
    match r.canonical_prefix(prefix) {
        Some(canonical) if canonical != prefix => {
            format!("{canonical}{}", &curie[prefix.len()..])
        }
        _ => curie.to_string(),
    }
}

/// A justification sssom-schema accepts, or `semapv:UnspecifiedMatching`.
pub fn valid_justification(written: &str) -> Option<&'static str> {
    JUSTIFICATIONS.iter().copied().find(|j| *j == written)
}

/// A date as SSSOM writes it (`YYYY-MM-DD`), or `None`.
pub fn valid_date(written: &str) -> Option<&str> {
    let date = written.get(..10).unwrap_or(written);
    let b = date.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    shape.then_some(date)
}

/// Raw input as a label: trimmed and cut to [`MAX_INPUT_LABEL_CHARS`].
pub fn input_label(text: &str) -> String {
    text.trim().chars().take(MAX_INPUT_LABEL_CHARS).collect()
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_on_one_line_and_quotes_are_doubled() {
        let mut line = String::new();
        push_cell(&mut line, "a\tb\nc");
        assert_eq!(line, "a b c");
        line.clear();
        push_cell(&mut line, r#"say "x""#);
        assert_eq!(line, r#""say ""x""""#);
    }

    #[test]
    fn references_are_curies_or_http_iris() {
        assert!(is_reference("orcid:0000-0002-2627-0696"));
        assert!(is_reference("https://w3id.org/x"));
        assert!(!is_reference("Charles Hoyt"));
        assert!(!is_reference("a|b:c"));
        assert!(!is_reference("1x:2"));
        assert_eq!(curie_prefix("https://x.org/a:b"), None);
        assert_eq!(curie_prefix("MESH:D1"), Some("MESH"));
    }

    #[test]
    fn dates_are_iso_days() {
        assert_eq!(valid_date("2026-04-12"), Some("2026-04-12"));
        assert_eq!(valid_date("2026-04-12T10:00:00"), Some("2026-04-12"));
        assert_eq!(valid_date("April 2026"), None);
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }
}
