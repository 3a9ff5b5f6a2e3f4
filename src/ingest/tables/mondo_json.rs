//! The compact JSON that cellxgene-ontology-guide ships for OBO ontologies (format
//! `compact-json`; bundled for MONDO): one object keyed by CURIE, each value a term with a
//! `label`, an optional `description`, `synonyms` (without scope), `ancestors` (CURIE → depth,
//! 1 = direct parent), `deprecated`, and optional `replaced_by` and `consider`. The file has no
//! version and no cross-references; `comments` and `term_tracker` are not read.
//!
//! The object is streamed through serde_json's map visitor, one entry at a time, so the file is
//! never held whole. Each entry is read as a small JSON value first, so that a wrong-shaped one
//! (not an object, no label, a key that is not a CURIE) is a [`super::RowProblem`] and the rest
//! still loads; broken JSON syntax stops the source with its line and column. A problem's line
//! is the line of the entry's key (the compact file is one line), and its message starts with
//! the key.
//!
//! Synonyms become skos:altLabel, which claims no scope: the file does not say whether a
//! synonym is exact, related, broad or narrow. A deprecated term may have an empty label (the
//! file's merged terms do); it is loaded without one, for its status and replacements.

use std::collections::BTreeMap;
use std::fmt;
use std::io::BufRead;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::json_stream::{Position, Positioned, field, json_error, valid_iri, value_kind};
use super::{Collector, Row, RowContext, excerpt};
use crate::ingest::IngestError;
use crate::model::{
    Concept, ConceptKind, LabelKind, Link, LinkKind, Prefixes, Replacement, ReplacementKind,
    obo_purl,
};

/// Ancestors at this depth are direct parents.
const PARENT_DEPTH: u64 = 1;
/// How the file abbreviates the OBO PURL space in `consider` (`obo.MONDO_0018037`).
const OBO_DOT: &str = "obo.";

/// Reads one compact-JSON file into `sink`, an entry at a time.
pub(super) fn read_terms(
    file: &Path,
    input: Box<dyn BufRead + Send>,
    sink: &mut Collector,
    prefixes: &dyn Prefixes,
) -> Result<(), IngestError> {
    let position = Position::default();
    let mut json = serde_json::Deserializer::from_reader(Positioned {
        inner: input,
        position: &position,
    });
    let mut stopped = None;
    let terms = Terms {
        file,
        sink,
        prefixes,
        position: &position,
        stopped: &mut stopped,
    };
    let read = (&mut json).deserialize_map(terms);
    let read = read.and_then(|()| json.end());
    if let Some(error) = stopped {
        return Err(error);
    }
    read.map_err(|error| json_error(file, error, &position, "an entry"))
}

/// The map visitor: every entry becomes a concept or a problem in the collector.
struct Terms<'a> {
    file: &'a Path,
    sink: &'a mut Collector,
    prefixes: &'a dyn Prefixes,
    position: &'a Position,
    /// Why the collector stopped the source (too many problems), if it did.
    stopped: &'a mut Option<IngestError>,
}

impl<'de> Visitor<'de> for Terms<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object of terms keyed by CURIE")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        loop {
            self.position.start_entry();
            // Key and value apart, to know the line of the key.
            let Some(key) = map.next_key::<String>()? else {
                return Ok(());
            };
            let line = self.position.line.get();
            let entry = map.next_value::<Entry>()?;
            if let Err(error) = self.entry(&key, line, entry) {
                *self.stopped = Some(error);
                return Err(de::Error::custom("stopped"));
            }
        }
    }
}

impl Terms<'_> {
    fn entry(&mut self, key: &str, line: u64, entry: Entry) -> Result<(), IngestError> {
        self.sink.rows += 1;
        let cx = RowContext {
            file: self.file,
            line,
            source: self.sink.source,
            prefixes: self.prefixes,
        };
        let about = |message: String| format!("{}: {message}", excerpt(key));
        match entry.0.and_then(|term| term_row(key, term, &cx)) {
            Ok(row) => {
                self.sink.add(self.file, line, row.concept)?;
                match row.note {
                    Some(note) => self.sink.note(self.file, line, about(note)),
                    None => Ok(()),
                }
            }
            Err(message) => self.sink.problem(self.file, line, about(message)),
        }
    }
}

/// One entry's value: a term, or why it is not one. It goes through a [`Value`] (one entry,
/// a few kB) so that a wrong shape is reported and the stream goes on.
struct Entry(Result<Term, String>);

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ok(Entry(Term::from_value(value)))
    }
}

/// The fields of a term that are read; absent and `null` fields are empty.
struct Term {
    label: Option<String>,
    description: Option<String>,
    synonyms: Vec<String>,
    ancestors: BTreeMap<String, u64>,
    deprecated: bool,
    replaced_by: Option<String>,
    consider: Vec<String>,
}

impl Term {
    fn from_value(value: Value) -> Result<Term, String> {
        let Value::Object(mut fields) = value else {
            return Err(format!("not a JSON object but {}", value_kind(&value)));
        };
        Ok(Term {
            label: field(&mut fields, "label")?,
            description: field(&mut fields, "description")?,
            synonyms: field(&mut fields, "synonyms")?.unwrap_or_default(),
            ancestors: field(&mut fields, "ancestors")?.unwrap_or_default(),
            deprecated: field(&mut fields, "deprecated")?.unwrap_or_default(),
            replaced_by: field(&mut fields, "replaced_by")?,
            consider: field(&mut fields, "consider")?.unwrap_or_default(),
        })
    }
}

/// A field of the wanted type, `None` when absent or `null`, an error naming it otherwise.
fn term_row(key: &str, term: Term, cx: &RowContext<'_>) -> Result<Row, String> {
    let iri = curie_iri(key, cx.prefixes)
        .ok_or_else(|| "the key is not a CURIE with a known or OBO-shaped prefix".to_string())?;
    let label = match term.label.as_deref().map(str::trim) {
        None => return Err("no label".into()),
        Some("") if !term.deprecated => return Err("empty label".into()),
        Some(label) => label,
    };
    let mut concept = cx.concept(iri, ConceptKind::Class);
    concept.obsolete = term.deprecated;
    add_labels(&mut concept, label, &term, cx);
    let mut notes = Vec::new();
    add_parents(&mut concept, &term, cx, &mut notes);
    add_replacements(&mut concept, &term, cx, &mut notes);
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(Row { concept, note })
}

/// The label, the synonyms other than the label (as skos:altLabel) and the definition.
fn add_labels(concept: &mut Concept, label: &str, term: &Term, cx: &RowContext<'_>) {
    cx.push_label(concept, label, LabelKind::Label);
    for synonym in term.synonyms.iter().filter(|s| s.trim() != label) {
        cx.push_label(concept, synonym, LabelKind::AltLabel);
    }
    if let Some(text) = term.description.as_deref() {
        cx.push_definition(concept, text);
    }
}

/// Ancestors at depth 1 as subClassOf parents.
fn add_parents(concept: &mut Concept, term: &Term, cx: &RowContext<'_>, notes: &mut Vec<String>) {
    let parents = term
        .ancestors
        .iter()
        .filter(|(_, depth)| **depth == PARENT_DEPTH);
    for (parent, _) in parents {
        match curie_iri(parent, cx.prefixes) {
            Some(iri) => concept.parents.push(Link {
                iri,
                kind: LinkKind::SubClassOf,
                prov: cx.prov(),
            }),
            None => notes.push(format!(
                "parent {} is not a CURIE; left out",
                excerpt(parent)
            )),
        }
    }
}

/// `replaced_by` then `consider`, as IRIs; a target that is no identifier is kept as written.
fn add_replacements(
    concept: &mut Concept,
    term: &Term,
    cx: &RowContext<'_>,
    notes: &mut Vec<String>,
) {
    let targets = term
        .replaced_by
        .iter()
        .map(|t| (ReplacementKind::ReplacedBy, t))
        .chain(term.consider.iter().map(|t| (ReplacementKind::Consider, t)));
    for (kind, written) in targets {
        let written = written.trim();
        if written.is_empty() {
            continue;
        }
        let target = target_iri(written, cx.prefixes).unwrap_or_else(|| {
            notes.push(format!(
                "replacement {} is not an IRI or CURIE; kept as written",
                excerpt(written)
            ));
            written.to_string()
        });
        concept.replacements.push(Replacement {
            kind,
            target,
            prov: cx.prov(),
        });
    }
}

/// The IRI of `PREFIX:local`, through the registry, else the OBO PURL convention; `None` for
/// anything else.
fn curie_iri(curie: &str, prefixes: &dyn Prefixes) -> Option<String> {
    let (prefix, local) = curie.split_once(':')?;
    if prefix.is_empty()
        || local.is_empty()
        || local.starts_with("//")
        || curie.contains(char::is_whitespace)
    {
        return None;
    }
    let iri = prefixes.expand(curie).or_else(|| obo_purl(curie))?;
    valid_iri(iri)
}

/// A replacement's IRI: a CURIE, an IRI, or the file's `obo.PREFIX_local`.
fn target_iri(text: &str, prefixes: &dyn Prefixes) -> Option<String> {
    if let Some(local) = text.strip_prefix(OBO_DOT) {
        return obo_purl(&local.replacen('_', ":", 1)).and_then(valid_iri);
    }
    if text.contains("://") {
        return valid_iri(text.to_string());
    }
    curie_iri(text, prefixes)
}

#[cfg(test)]
mod tests {
    use super::super::json_stream::MAX_ENTRY_BYTES;
    use super::super::tests::{read_str, try_read_str};
    use super::super::{RowOutcome, TableConcepts, concept_triples};
    use super::*;
    use crate::ingest::TableFormat;
    use crate::ingest::vocab::{IAO_REPLACED_BY, OWL_DEPRECATED};

    const MONDO: &str = "http://purl.obolibrary.org/obo/MONDO_";

    fn mondo(json: &str) -> TableConcepts {
        read_str(TableFormat::CompactJson, &[("mondo.json", json)])
    }

    fn find<'a>(read: &'a TableConcepts, local: &str) -> &'a Concept {
        let iri = format!("{MONDO}{local}");
        read.concepts
            .iter()
            .find(|c| c.iri == iri)
            .unwrap_or_else(|| panic!("{iri} is read"))
    }

    fn labels(concept: &Concept) -> Vec<(&str, LabelKind)> {
        concept
            .labels
            .iter()
            .map(|l| (l.text.as_str(), l.kind))
            .collect()
    }

    const SAMPLE: &str = r#"{
  "MONDO:0000001": {"ancestors": {}, "label": "disease",
    "description": "A disposition to undergo pathological processes.",
    "synonyms": ["disease", "disorder", "condition", "disorder"], "deprecated": false},
  "MONDO:0000004": {"ancestors": {"MONDO:0002816": 1, "MONDO:0000001": 2},
    "label": "adrenocortical insufficiency", "synonyms": ["adrenal insufficiency"],
    "deprecated": false, "comments": ["a comment"], "term_tracker": "https://example.org/1"},
  "MONDO:0002816": {"ancestors": {"MONDO:0000001": 1}, "label": "adrenal gland disease",
    "deprecated": false},
  "MONDO:0000002": {"ancestors": {}, "label": "obsolete 46,XX sex reversal",
    "deprecated": true, "replaced_by": "MONDO:0009299"},
  "MONDO:0000038": {"ancestors": {}, "label": "obsolete x", "deprecated": true,
    "consider": ["obo.MONDO_0018037", "http://purl.obolibrary.org/obo/HP_0000001", "hgnc.123"]},
  "MONDO:0002393": {"ancestors": {}, "label": "", "deprecated": true,
    "replaced_by": "HP:0003061"}
}"#;

    #[test]
    fn terms_have_labels_synonyms_definitions_and_parents() {
        let read = mondo(SAMPLE);
        assert_eq!(read.rows, 6);
        assert_eq!(read.concepts.len(), 6);
        let disease = find(&read, "0000001");
        assert_eq!(disease.kind, ConceptKind::Class);
        assert_eq!(disease.curie.as_deref(), Some("MONDO:0000001"));
        assert_eq!(
            labels(disease),
            [
                ("disease", LabelKind::Label),
                ("disorder", LabelKind::AltLabel),
                ("condition", LabelKind::AltLabel),
            ],
            "the label is not repeated as a synonym; duplicates go"
        );
        assert_eq!(
            disease.definitions[0].text,
            "A disposition to undergo pathological processes."
        );
        assert!(!disease.obsolete);
        let parents = |c: &Concept| -> Vec<(String, LinkKind)> {
            c.parents.iter().map(|l| (l.iri.clone(), l.kind)).collect()
        };
        let insufficiency = find(&read, "0000004");
        assert_eq!(
            parents(insufficiency),
            [(format!("{MONDO}0002816"), LinkKind::SubClassOf)],
            "only depth 1 is a parent"
        );
        let gland = find(&read, "0002816");
        assert_eq!(gland.children[0].iri, insufficiency.iri);
        assert_eq!(disease.children[0].iri, gland.iri);
    }

    #[test]
    fn deprecated_terms_are_obsolete_with_their_replacements() {
        let read = mondo(SAMPLE);
        let replaced = find(&read, "0000002");
        assert!(replaced.obsolete && !replaced.withdrawn);
        assert_eq!(replaced.replacements.len(), 1);
        assert_eq!(replaced.replacements[0].kind, ReplacementKind::ReplacedBy);
        assert_eq!(replaced.replacements[0].target, format!("{MONDO}0009299"));

        let consider = find(&read, "0000038");
        let targets: Vec<(ReplacementKind, &str)> = consider
            .replacements
            .iter()
            .map(|r| (r.kind, r.target.as_str()))
            .collect();
        assert_eq!(
            targets,
            [
                (
                    ReplacementKind::Consider,
                    "http://purl.obolibrary.org/obo/MONDO_0018037"
                ),
                (
                    ReplacementKind::Consider,
                    "http://purl.obolibrary.org/obo/HP_0000001"
                ),
                (ReplacementKind::Consider, "hgnc.123"),
            ]
        );
        // The unreadable target is kept as written, and said so.
        assert_eq!(read.problems.len(), 1, "{:?}", read.problems);
        let note = &read.problems[0];
        assert_eq!(note.outcome, RowOutcome::KeptWithNote);
        assert!(
            note.message.starts_with("\"MONDO:0000038\": "),
            "{}",
            note.message
        );
        assert!(note.message.contains("hgnc.123"), "{}", note.message);

        let unlabelled = find(&read, "0002393");
        assert!(unlabelled.obsolete && unlabelled.labels.is_empty());
        assert_eq!(
            unlabelled.replacements[0].target,
            "http://purl.obolibrary.org/obo/HP_0003061"
        );
    }

    #[test]
    fn triples_state_alt_labels_obsolete_status_and_replacements() {
        let read = mondo(SAMPLE);
        let prefixes = super::super::tests::test_prefixes();
        let triples = |local: &str| {
            let mut out = Vec::new();
            concept_triples(find(&read, local), &prefixes, &mut out);
            out.into_iter()
                .map(|t| (t.predicate.as_str().to_string(), t.object.to_string()))
                .collect::<Vec<_>>()
        };
        let has = |triples: &[(String, String)], p: &str, o: &str| {
            triples.iter().any(|(tp, to)| tp == p && to == o)
        };
        let insufficiency = triples("0000004");
        let alt = LabelKind::AltLabel.predicate();
        assert!(has(&insufficiency, alt, "\"adrenal insufficiency\""));
        let subclass = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
        assert!(has(&insufficiency, subclass, &format!("<{MONDO}0002816>")));
        let obsolete = triples("0000002");
        let boolean = "\"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>";
        assert!(has(&obsolete, OWL_DEPRECATED, boolean));
        assert!(has(
            &obsolete,
            IAO_REPLACED_BY,
            &format!("<{MONDO}0009299>")
        ));
    }

    #[test]
    fn bad_entries_are_skipped_with_their_key_and_line_and_the_rest_loads() {
        let json = "{\n\"MONDO:1\": \"not an object\",\n\"MONDO:2\": {\"deprecated\": false},\n\
                    \"not a curie\": {\"label\": \"x\"},\n\
                    \"MONDO:3\": {\"label\": \"three\", \"synonyms\": \"not a list\"},\n\
                    \"MONDO:4\": {\"label\": \"  \"},\n\
                    \"MONDO:5\": {\"label\": \"five\", \"ancestors\": {\"MONDO:1\": \"one\"}},\n\
                    \"MONDO:6\": {\"label\": \"six\"},\n\
                    \"MONDO:6\": {\"label\": \"six again\"}\n}";
        let read = mondo(json);
        assert_eq!(read.rows, 8);
        assert_eq!(read.concepts.len(), 1);
        assert_eq!(read.concepts[0].labels[0].text, "six");
        let problems: Vec<(u64, &str)> = read
            .problems
            .iter()
            .map(|p| (p.line, p.message.as_str()))
            .collect();
        assert_eq!(problems.len(), 7, "{problems:?}");
        assert!(
            read.problems
                .iter()
                .all(|p| p.outcome == RowOutcome::Skipped)
        );
        let lines: Vec<u64> = problems.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7, 9]);
        for (at, expected) in [
            (0, "\"MONDO:1\": not a JSON object but a string"),
            (1, "\"MONDO:2\": no label"),
            (2, "\"not a curie\": the key is not a CURIE"),
            (3, "\"MONDO:3\": synonyms: invalid type"),
            (4, "\"MONDO:4\": empty label"),
            (5, "\"MONDO:5\": ancestors: invalid type"),
            (6, "appears again"),
        ] {
            assert!(problems[at].1.contains(expected), "{:?}", problems[at]);
        }
    }

    #[test]
    fn malformed_json_is_a_located_error() {
        let broken =
            "{\n  \"MONDO:1\": {\"label\": \"one\"},\n  \"MONDO:2\": {\"label\" \"two\"}\n}";
        for (json, line, column, says) in [
            (broken, 3, 23, "expected `:`"),
            (
                "{\"MONDO:1\": {\"label\": \"one\"}",
                1,
                28,
                "EOF while parsing an object",
            ),
            ("[]", 1, 1, "expected a JSON object of terms keyed by CURIE"),
            ("{} trailing", 1, 4, "trailing characters"),
            ("", 1, 0, "EOF while parsing a value"),
        ] {
            let error =
                try_read_str(TableFormat::CompactJson, &[("bad.json", json)]).expect_err(json);
            let location = error.location().unwrap_or_else(|| panic!("{error}"));
            assert_eq!(
                (location.line, location.column),
                (line, column),
                "{json}: {error}"
            );
            let text = error.to_string();
            assert!(
                text.starts_with("bad.json:") && text.contains(says),
                "{text}"
            );
            assert!(!text.contains(" at line "), "{text}");
        }
    }

    #[test]
    fn too_many_bad_entries_stop_the_source() {
        let entries: Vec<String> = (0..=super::super::MAX_ROW_PROBLEMS)
            .map(|n| format!("\"MONDO:{n}\": {n}"))
            .collect();
        let json = format!("{{{}}}", entries.join(","));
        let error = try_read_str(TableFormat::CompactJson, &[("junk.json", &json)])
            .expect_err("too many problems");
        assert!(error.to_string().contains("right file"), "{error}");
    }

    #[test]
    fn an_overlong_entry_stops_the_source_with_its_position() {
        let long = "x".repeat(MAX_ENTRY_BYTES as usize);
        let json = format!("{{\"MONDO:1\": {{\"label\": \"{long}\"}}}}");
        let error =
            try_read_str(TableFormat::CompactJson, &[("big.json", &json)]).expect_err("too long");
        assert!(error.to_string().contains("longer than"), "{error}");
        assert!(error.location().is_some());
    }

    #[test]
    fn plain_and_zstd_input_read_alike() {
        let zstd = zstd::stream::encode_all(SAMPLE.as_bytes(), 3).expect("compresses");
        for bytes in [SAMPLE.as_bytes().to_vec(), zstd] {
            let input =
                crate::ingest::input::open_reader(std::io::Cursor::new(bytes)).expect("opens");
            let read = super::super::read(
                TableFormat::CompactJson,
                vec![("mondo.json.zst".into(), input)],
                crate::model::SourceIdx(0),
                &super::super::tests::test_prefixes(),
            )
            .expect("reads");
            assert_eq!(read.concepts.len(), 6);
            assert_eq!(read.concepts[0].curie.as_deref(), Some("MONDO:0000001"));
        }
    }
}
