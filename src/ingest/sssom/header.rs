//! Set-level metadata: collecting header lines within limits, turning parsed YAML entries into
//! a [`SetHeader`], reading an external `.sssom.yml`, and the prefixes a CURIE may use.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::lines::{LineText, Lines};
use super::yaml::{self, YamlEntry, YamlLine, YamlValue};
use super::{MAX_HEADER_BYTES, MAX_HEADER_LINES, SetHeader, SssomError};

/// Slots that, set at set level, apply to every row lacking its own value (SSSOM 1.0's
/// propagatable slots plus 1.1's additions).
pub const PROPAGATABLE_SLOTS: &[&str] = &[
    "cardinality_scope",
    "curation_rule",
    "curation_rule_text",
    "mapping_date",
    "mapping_provider",
    "mapping_tool",
    "mapping_tool_id",
    "mapping_tool_version",
    "object_match_field",
    "object_preprocessing",
    "object_source",
    "object_source_version",
    "object_type",
    "predicate_type",
    "similarity_measure",
    "subject_match_field",
    "subject_preprocessing",
    "subject_source",
    "subject_source_version",
    "subject_type",
];

/// Prefixes every SSSOM file may use undeclared (`oboInOwl` as a leniency). A file's own
/// curie_map entry for one of them wins.
pub const BUILT_IN_PREFIXES: &[(&str, &str)] = &[
    ("linkml", "https://w3id.org/linkml/"),
    ("oboInOwl", "http://www.geneontology.org/formats/oboInOwl#"),
    ("owl", "http://www.w3.org/2002/07/owl#"),
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("semapv", "https://w3id.org/semapv/vocab/"),
    ("skos", "http://www.w3.org/2004/02/skos/core#"),
    ("sssom", "https://w3id.org/sssom/"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"),
];

impl SetHeader {
    /// The IRI prefix of a CURIE prefix: declared, else built in.
    pub fn prefix_iri(&self, prefix: &str) -> Option<&str> {
        self.curie_map.get(prefix).map(String::as_str).or_else(|| {
            BUILT_IN_PREFIXES
                .iter()
                .find(|(name, _)| *name == prefix)
                .map(|(_, iri)| *iri)
        })
    }

    /// The CURIE of an IRI, by the longest declared or built-in IRI prefix it starts with.
    pub fn compress(&self, iri: &str) -> Option<String> {
        let declared = self.curie_map.iter().map(|(p, i)| (p.as_str(), i.as_str()));
        declared
            .chain(BUILT_IN_PREFIXES.iter().copied())
            .filter(|(_, base)| !base.is_empty() && iri.starts_with(base))
            .max_by_key(|(_, base)| base.len())
            .map(|(prefix, base)| format!("{prefix}:{}", &iri[base.len()..]))
    }
}

/// Header lines gathered within [`MAX_HEADER_LINES`] and [`MAX_HEADER_BYTES`].
pub(super) struct HeaderLines {
    path: PathBuf,
    lines: Vec<YamlLine>,
    bytes: usize,
}

impl HeaderLines {
    pub(super) fn new(path: &Path) -> Self {
        HeaderLines {
            path: path.to_path_buf(),
            lines: Vec::new(),
            bytes: 0,
        }
    }

    pub(super) fn push(&mut self, line: u64, text: &str) -> Result<(), SssomError> {
        self.bytes += text.len() + 1;
        if self.lines.len() >= MAX_HEADER_LINES || self.bytes > MAX_HEADER_BYTES {
            return Err(header_error(
                &self.path,
                line,
                format!("header longer than {MAX_HEADER_LINES} lines or {MAX_HEADER_BYTES} bytes"),
            ));
        }
        self.lines.push((line, text.to_string()));
        Ok(())
    }

    /// Parses the gathered lines onto `header`, overriding what it already holds.
    pub(super) fn apply_to(self, header: &mut SetHeader) -> Result<(), SssomError> {
        let entries = yaml::parse(&self.lines)
            .map_err(|(line, message)| header_error(&self.path, line, message))?;
        apply(header, entries, &self.path)
    }
}

/// Reads an external `.sssom.yml` (gzipped or not) onto `header`.
pub(super) fn read_external(path: &Path, header: &mut SetHeader) -> Result<(), SssomError> {
    let mut lines = Lines::new(super::open_path(path)?);
    let mut gathered = HeaderLines::new(path);
    loop {
        let line = lines.line();
        let next = lines.next_line().map_err(|source| SssomError::Read {
            path: path.to_path_buf(),
            line,
            source,
        })?;
        match next {
            None => break,
            Some((line, LineText::Text(text))) => gathered.push(line, text)?,
            Some((line, unusable)) => {
                let why = unusable.unusable_reason().unwrap_or_default();
                return Err(header_error(path, line, why));
            }
        }
    }
    gathered.apply_to(header)
}

pub(super) fn header_error(path: &Path, line: u64, message: String) -> SssomError {
    SssomError::Header {
        path: path.to_path_buf(),
        line,
        message,
    }
}

/// Sets each entry's slot; a later entry (and so the embedded header, applied last) wins.
fn apply(header: &mut SetHeader, entries: Vec<YamlEntry>, path: &Path) -> Result<(), SssomError> {
    let mut seen = HashSet::new();
    for entry in entries {
        if !seen.insert(entry.key.clone()) {
            header.notes.push(format!(
                "line {}: `{}` repeated; the last value wins",
                entry.line, entry.key
            ));
        }
        if entry.key == "curie_map" {
            apply_curie_map(header, entry, path)?;
            continue;
        }
        let text = match entry.value {
            YamlValue::Scalar(text) => text,
            YamlValue::List(items) => items.join("|"),
            YamlValue::Map(_) => {
                let note = format!("line {}: `{}` is a map; ignored", entry.line, entry.key);
                header.notes.push(note);
                continue;
            }
            YamlValue::Unsupported(why) => {
                let note = format!("line {}: `{}` ignored: {why}", entry.line, entry.key);
                header.notes.push(note);
                continue;
            }
        };
        if !text.is_empty() {
            set_slot(header, entry.key, text);
        }
    }
    Ok(())
}

fn apply_curie_map(
    header: &mut SetHeader,
    entry: YamlEntry,
    path: &Path,
) -> Result<(), SssomError> {
    match entry.value {
        YamlValue::Map(prefixes) => {
            for (prefix, iri) in prefixes {
                if iri.is_empty() {
                    let note = format!("curie_map: `{prefix}` has no IRI; ignored");
                    header.notes.push(note);
                } else {
                    header.curie_map.insert(prefix, iri);
                }
            }
            Ok(())
        }
        YamlValue::Scalar(text) if text.is_empty() => Ok(()),
        YamlValue::Unsupported(why) => Err(header_error(path, entry.line, why)),
        _ => Err(header_error(
            path,
            entry.line,
            "curie_map is not a map of prefixes".into(),
        )),
    }
}

fn set_slot(header: &mut SetHeader, key: String, text: String) {
    let field = match key.as_str() {
        "mapping_set_id" => &mut header.mapping_set_id,
        "mapping_set_version" => &mut header.mapping_set_version,
        "mapping_set_title" => &mut header.mapping_set_title,
        "mapping_set_description" => &mut header.mapping_set_description,
        "license" => &mut header.license,
        _ if PROPAGATABLE_SLOTS.contains(&key.as_str()) => {
            header.propagated.insert(key, text);
            return;
        }
        _ => {
            header.other.insert(key, text);
            return;
        }
    };
    *field = Some(text);
}
