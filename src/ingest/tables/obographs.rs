//! OBO Graphs JSON (format `obographs-json`), the JSON most OBO Foundry ontologies publish:
//! `{"graphs": [{"id", "meta", "nodes": […], "edges": […], …}, …]}`. Only the first graph is
//! the ontology; later graphs are its imports and are skipped unread.
//!
//! Per node of the first graph: `id` (an IRI), `type`, `lbl` (the label), and in `meta`:
//! `definition.val`, `synonyms` (`pred` names the scope, as OBO's EXACT, RELATED, BROAD,
//! NARROW), `xrefs` (oboInOwl:hasDbXref, as written, as the OBO reader keeps them),
//! `deprecated`, and `basicPropertyValues` for replaced_by (IAO:0100001, oboInOwl:replacedBy),
//! oboInOwl:consider and oboInOwl:hasAlternativeId. Nodes that are not `CLASS` (properties,
//! individuals) or whose IRI the prefixes cannot compress are counted and skipped without a
//! note. Edges with `pred` `is_a` are parents (rdfs:subClassOf); other predicates, part_of
//! included, are not read: the model has no link kind for them (nor does the OBO reader read
//! `relationship`). Edges usually follow the nodes, so parents go to the collector apart from
//! their nodes, which attaches them when it finishes the concepts (and drops those of subjects
//! it never read).
//!
//! The release is the first graph's `meta.version` (its version IRI) or owl:versionInfo in its
//! `meta.basicPropertyValues`, ranked as the RDF reader ranks them.
//!
//! Streaming, as in `mondo_json`: serde_json visitors walk the document, and each node, edge
//! and the graph's `meta` is read as a small JSON value (at most `json_stream::MAX_ENTRY_BYTES`), so that a
//! wrong-shaped one is a [`super::RowProblem`] at the line where it starts and the rest loads.
//! Everything else (axioms, import graphs) is skipped with `IgnoredAny`, never held. Broken
//! JSON syntax stops the source with its line and column. `rows` counts the first graph's nodes
//! and edges.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use serde::Deserialize;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess,
    Visitor,
};
use serde_json::{Map, Value};

use super::json_stream::{Position, Positioned, field, json_error, valid_iri, value_kind};
use super::{Collector, Row, RowContext, excerpt};
use crate::ingest::extract::normalize_release;
use crate::ingest::vocab::{
    IAO_REPLACED_BY, OBO_IN_OWL, OIO_ALT_ID, OIO_CONSIDER, OIO_REPLACED_BY, OWL_VERSION_INFO,
};
use crate::ingest::{FileRelease, IngestError};
use crate::model::{
    Concept, ConceptKind, LabelKind, Link, LinkKind, Prefixes, Provenance, Replacement,
    ReplacementKind, Xref, XrefKind, obo_purl,
};

/// The node type that is a concept.
const CLASS: &str = "CLASS";
/// The edge predicate of a parent link.
const IS_A: &str = "is_a";
const OWL_THING: &str = "http://www.w3.org/2002/07/owl#Thing";

/// Reads one OBO Graphs file into `sink`, a node at a time; returns the release it states.
pub(super) fn read_graph(
    file: &Path,
    input: Box<dyn BufRead + Send>,
    sink: &mut Collector,
    prefixes: &dyn Prefixes,
) -> Result<Option<FileRelease>, IngestError> {
    let position = Position::default();
    let mut json = serde_json::Deserializer::from_reader(Positioned {
        inner: input,
        position: &position,
    });
    let mut graph = FirstGraph {
        file,
        sink,
        prefixes,
        position: &position,
        stopped: None,
        found_graphs: false,
        version_iri: None,
        version_info: None,
    };
    let read = (&mut json).deserialize_map(Document(&mut graph));
    let read = read.and_then(|()| json.end());
    if let Some(error) = graph.stopped.take() {
        return Err(error);
    }
    read.map_err(|error| json_error(file, error, &position, "a node, edge or meta"))?;
    if !graph.found_graphs {
        return Err(IngestError::Invalid {
            file: file.to_path_buf(),
            message: "no \"graphs\" array: is this OBO Graphs JSON?".into(),
        });
    }
    Ok(graph.release())
}

/// What the first graph yields while it is read.
struct FirstGraph<'a> {
    file: &'a Path,
    sink: &'a mut Collector,
    prefixes: &'a dyn Prefixes,
    position: &'a Position,
    /// Why the collector stopped the source (too many problems), if it did.
    stopped: Option<IngestError>,
    found_graphs: bool,
    version_iri: Option<String>,
    version_info: Option<String>,
}

/// The top-level object: its `graphs`; anything else is skipped.
struct Document<'g, 'a>(&'g mut FirstGraph<'a>);

impl<'de> Visitor<'de> for Document<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an OBO Graphs JSON object with a \"graphs\" array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "graphs" && !self.0.found_graphs {
                self.0.found_graphs = true;
                map.next_value_seed(Graphs(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// The `graphs` array: the first is read, the rest (imports) skipped.
struct Graphs<'g, 'a>(&'g mut FirstGraph<'a>);

impl<'de> DeserializeSeed<'de> for Graphs<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Graphs<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of graphs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if seq.next_element_seed(Graph(&mut *self.0))?.is_some() {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
        }
        Ok(())
    }
}

/// The first graph: its `nodes`, `edges` and `meta`; axioms and the rest are skipped.
struct Graph<'g, 'a>(&'g mut FirstGraph<'a>);

impl<'de> DeserializeSeed<'de> for Graph<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Graph<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a graph object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let graph = self.0;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "nodes" => map.next_value_seed(Entries(&mut *graph, EntryKind::Node))?,
                "edges" => map.next_value_seed(Entries(&mut *graph, EntryKind::Edge))?,
                "meta" => {
                    graph.position.start_entry();
                    let (line, meta) = map.next_value_seed(Located(graph.position))?;
                    graph.position.end_entry();
                    graph
                        .graph_meta(line, meta)
                        .map_err(|e| graph.stop::<A::Error>(e))?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
enum EntryKind {
    Node,
    Edge,
}

/// The `nodes` or `edges` array, an entry at a time.
struct Entries<'g, 'a>(&'g mut FirstGraph<'a>, EntryKind);

impl<'de> DeserializeSeed<'de> for Entries<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Entries<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of nodes or edges")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Entries(graph, kind) = self;
        loop {
            graph.position.start_entry();
            let next = seq.next_element_seed(Located(graph.position))?;
            graph.position.end_entry();
            let Some((line, value)) = next else {
                return Ok(());
            };
            let read = match kind {
                EntryKind::Node => graph.node(line, value),
                EntryKind::Edge => graph.edge(line, value),
            };
            read.map_err(|e| graph.stop::<A::Error>(e))?;
        }
    }
}

/// One entry as a JSON value, with the line it starts on. serde_json has already read the
/// entry's first byte when it calls this, so the line is that byte's.
struct Located<'a>(&'a Position);

impl<'de> DeserializeSeed<'de> for Located<'_> {
    type Value = (u64, Value);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let line = self.0.line.get();
        Ok((line, Value::deserialize(deserializer)?))
    }
}

impl FirstGraph<'_> {
    /// Keeps the collector's error and stops the JSON reader.
    fn stop<E: de::Error>(&mut self, error: IngestError) -> E {
        self.stopped = Some(error);
        E::custom("stopped")
    }

    fn node(&mut self, line: u64, value: Value) -> Result<(), IngestError> {
        self.sink.rows += 1;
        let id = value.get("id").and_then(Value::as_str).map(excerpt);
        let about = |message: String| match &id {
            Some(id) => format!("{id}: {message}"),
            None => message,
        };
        let cx = RowContext {
            file: self.file,
            line,
            source: self.sink.source,
            prefixes: self.prefixes,
        };
        match node_row(value, &cx) {
            Ok(None) => Ok(()),
            Ok(Some(row)) => {
                self.sink.add(self.file, line, row.concept)?;
                match row.note {
                    Some(note) => self.sink.note(self.file, line, about(note)),
                    None => Ok(()),
                }
            }
            Err(message) => self.sink.problem(self.file, line, about(message)),
        }
    }

    fn edge(&mut self, line: u64, value: Value) -> Result<(), IngestError> {
        self.sink.rows += 1;
        match parent_edge(value) {
            Ok(Some((subject, parent))) => {
                let prov = Provenance {
                    source: self.sink.source,
                };
                let parent = Link {
                    iri: parent,
                    kind: LinkKind::SubClassOf,
                    prov,
                };
                self.sink.add_parent(subject, parent)
            }
            Ok(None) => Ok(()),
            Err(message) => self
                .sink
                .problem(self.file, line, format!("edge: {message}")),
        }
    }

    /// The version statements of the graph's `meta`; a wrong shape is noted, and the
    /// catalogue's release then applies.
    fn graph_meta(&mut self, line: u64, value: Value) -> Result<(), IngestError> {
        match graph_versions(value) {
            Ok((iri, info)) => {
                self.version_iri = iri;
                self.version_info = info;
                Ok(())
            }
            Err(message) => {
                let message = format!("graph meta: {message}; no release read from it");
                self.sink.note(self.file, line, message)
            }
        }
    }

    /// As the RDF reader ranks a file's version statements (`Extractor::best_candidate`): a
    /// version IRI that names a date, then owl:versionInfo, then the version IRI's last segment.
    fn release(&self) -> Option<FileRelease> {
        let stated = |value: &Option<String>| {
            let value = value.as_deref().map(str::trim)?;
            (!value.is_empty()).then(|| value.to_string())
        };
        let of = |value: String, property: &str| {
            Some(FileRelease {
                value,
                property: property.to_string(),
            })
        };
        match (stated(&self.version_iri), stated(&self.version_info)) {
            // normalize_release changes a value only when it finds a date in it.
            (Some(iri), _) if normalize_release(&iri) != iri => {
                of(normalize_release(&iri), "owl:versionIRI")
            }
            (_, Some(info)) => of(normalize_release(&info), "owl:versionInfo"),
            (Some(iri), None) => {
                let last = iri.trim_end_matches('/').rsplit('/').next().unwrap_or(&iri);
                of(last.to_string(), "owl:versionIRI")
            }
            (None, None) => None,
        }
    }
}

/// `{"val": …}`: a definition or a cross-reference.
#[derive(Deserialize)]
struct Text {
    #[serde(default)]
    val: Option<String>,
}

/// `{"pred": …, "val": …}`: a synonym or a property value.
#[derive(Deserialize)]
struct PredicateValue {
    pred: String,
    #[serde(default)]
    val: Option<String>,
}

/// The fields of a node's `meta` that are read; absent and `null` fields are empty.
#[derive(Default)]
struct Meta {
    definition: Option<Text>,
    synonyms: Vec<PredicateValue>,
    xrefs: Vec<Text>,
    deprecated: bool,
    property_values: Vec<PredicateValue>,
}

impl Meta {
    fn from_value(value: Value) -> Result<Meta, String> {
        let Value::Object(mut fields) = value else {
            return Err(format!("meta is not an object but {}", value_kind(&value)));
        };
        let fields = &mut fields;
        Ok(Meta {
            definition: meta_field(fields, "definition")?,
            synonyms: meta_field(fields, "synonyms")?.unwrap_or_default(),
            xrefs: meta_field(fields, "xrefs")?.unwrap_or_default(),
            deprecated: meta_field(fields, "deprecated")?.unwrap_or_default(),
            property_values: meta_field(fields, "basicPropertyValues")?.unwrap_or_default(),
        })
    }
}

/// A field of a node's `meta`, its error naming it as `meta.name`.
fn meta_field<T: DeserializeOwned>(
    fields: &mut Map<String, Value>,
    name: &str,
) -> Result<Option<T>, String> {
    field(fields, name).map_err(|e| format!("meta.{e}"))
}

/// A field of the wanted type, `None` when absent or `null`, an error naming it otherwise.
/// The concept of a class node; `None` for a node that is not a class or lies outside the
/// prefixes; notes on the parts left out.
fn node_row(value: Value, cx: &RowContext<'_>) -> Result<Option<Row>, String> {
    let Value::Object(mut fields) = value else {
        return Err(format!("not a JSON object but {}", value_kind(&value)));
    };
    let id: String = field(&mut fields, "id")?.ok_or("no id")?;
    let node_type: Option<String> = field(&mut fields, "type")?;
    if node_type.as_deref() != Some(CLASS) || cx.prefixes.compress(&id).is_none() {
        return Ok(None);
    }
    let iri = valid_iri(id).ok_or("the id is not an IRI")?;
    let label: Option<String> = field(&mut fields, "lbl")?;
    let meta = match field::<Value>(&mut fields, "meta")? {
        Some(meta) => Meta::from_value(meta)?,
        None => Meta::default(),
    };
    let label = match label.as_deref().map(str::trim) {
        None if !meta.deprecated => return Err("no label".into()),
        Some("") if !meta.deprecated => return Err("empty label".into()),
        label => label.unwrap_or_default(),
    };
    let mut concept = cx.concept(iri, ConceptKind::Class);
    concept.obsolete = meta.deprecated;
    let mut notes = Vec::new();
    add_labels(&mut concept, label, &meta, cx, &mut notes);
    add_xrefs(&mut concept, &meta, cx);
    add_property_values(&mut concept, &meta, cx, &mut notes);
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(Some(Row { concept, note }))
}

/// The label, the synonyms with their scopes, and the definition.
fn add_labels(
    concept: &mut Concept,
    label: &str,
    meta: &Meta,
    cx: &RowContext<'_>,
    notes: &mut Vec<String>,
) {
    cx.push_label(concept, label, LabelKind::Label);
    for synonym in &meta.synonyms {
        let text = synonym.val.as_deref().map(str::trim).unwrap_or_default();
        if text.is_empty() {
            continue;
        }
        match synonym_kind(&synonym.pred) {
            Some(kind) => cx.push_label(concept, text, kind),
            None => notes.push(format!(
                "synonym {} has the unknown scope {}; left out",
                excerpt(text),
                excerpt(&synonym.pred)
            )),
        }
    }
    if let Some(text) = meta.definition.as_ref().and_then(|d| d.val.as_deref()) {
        cx.push_definition(concept, text);
    }
}

/// The label kind of a synonym predicate, as the RDF and OBO readers map the oboInOwl ones.
fn synonym_kind(pred: &str) -> Option<LabelKind> {
    Some(match pred.strip_prefix(OBO_IN_OWL).unwrap_or(pred) {
        "hasExactSynonym" => LabelKind::ExactSynonym,
        "hasRelatedSynonym" | "hasSynonym" => LabelKind::RelatedSynonym,
        "hasBroadSynonym" => LabelKind::BroadSynonym,
        "hasNarrowSynonym" => LabelKind::NarrowSynonym,
        _ => return None,
    })
}

/// Cross-references as oboInOwl:hasDbXref, as written (the OBO reader's `xref`).
fn add_xrefs(concept: &mut Concept, meta: &Meta, cx: &RowContext<'_>) {
    let targets = meta.xrefs.iter().filter_map(|x| x.val.as_deref());
    for target in targets.map(str::trim).filter(|t| !t.is_empty()) {
        concept.xrefs.push(Xref {
            target: target.to_string(),
            kind: XrefKind::DbXref,
            qualifier: None,
            prov: cx.prov(),
        });
    }
}

/// replaced_by and consider as IRIs (a target that is no identifier is kept as written, with
/// a note), alternative ids as CURIEs.
fn add_property_values(
    concept: &mut Concept,
    meta: &Meta,
    cx: &RowContext<'_>,
    notes: &mut Vec<String>,
) {
    for value in &meta.property_values {
        let text = value.val.as_deref().map(str::trim).unwrap_or_default();
        if text.is_empty() {
            continue;
        }
        let kind = match value.pred.as_str() {
            IAO_REPLACED_BY | OIO_REPLACED_BY => ReplacementKind::ReplacedBy,
            OIO_CONSIDER => ReplacementKind::Consider,
            OIO_ALT_ID => {
                concept.alt_ids.push(alt_id(text, cx.prefixes));
                continue;
            }
            _ => continue,
        };
        let target = target_iri(text, cx.prefixes).unwrap_or_else(|| {
            notes.push(format!(
                "replacement {} is not an IRI or CURIE; kept as written",
                excerpt(text)
            ));
            text.to_string()
        });
        concept.replacements.push(Replacement {
            kind,
            target,
            prov: cx.prov(),
        });
    }
}

/// An alternative id as OBO writes it (`DOID:8965`): an IRI is compressed when it can be.
fn alt_id(text: &str, prefixes: &dyn Prefixes) -> String {
    if text.contains("://")
        && let Some(curie) = prefixes.compress(text)
    {
        return curie;
    }
    text.to_string()
}

/// A replacement's IRI: an IRI as it is, a CURIE through the registry, else the OBO PURL
/// convention (as the OBO reader expands `replaced_by`).
fn target_iri(text: &str, prefixes: &dyn Prefixes) -> Option<String> {
    if text.contains("://") {
        return valid_iri(text.to_string());
    }
    if text.contains(char::is_whitespace) {
        return None;
    }
    prefixes
        .expand(text)
        .or_else(|| obo_purl(text))
        .and_then(valid_iri)
}

/// The (subject, parent) of an `is_a` edge; `None` for other predicates and owl:Thing.
fn parent_edge(value: Value) -> Result<Option<(String, String)>, String> {
    let Value::Object(mut fields) = value else {
        return Err(format!("not a JSON object but {}", value_kind(&value)));
    };
    let mut required = |name| -> Result<String, String> {
        field(&mut fields, name)?.ok_or_else(|| format!("no {name}"))
    };
    let (subject, pred, object) = (required("sub")?, required("pred")?, required("obj")?);
    if pred != IS_A || object == OWL_THING {
        return Ok(None);
    }
    let parent = valid_iri(object.clone())
        .ok_or_else(|| format!("the parent {} is not an IRI", excerpt(&object)))?;
    Ok(Some((subject, parent)))
}

/// The graph meta's version IRI and owl:versionInfo.
fn graph_versions(value: Value) -> Result<(Option<String>, Option<String>), String> {
    let Value::Object(mut fields) = value else {
        return Err(format!("not a JSON object but {}", value_kind(&value)));
    };
    let iri: Option<String> = field(&mut fields, "version")?;
    let values: Vec<PredicateValue> =
        field(&mut fields, "basicPropertyValues")?.unwrap_or_default();
    let info = values
        .into_iter()
        .find(|v| v.pred == OWL_VERSION_INFO && v.val.is_some())
        .and_then(|v| v.val);
    Ok((iri, info))
}

#[cfg(test)]
mod tests;
