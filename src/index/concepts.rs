//! The concept table in segments: one record table per source release
//! (`concepts-<origin>.dat`, `.idx`), read as one table over the build's dense concept ids.
//!
//! A release's records hold the source number of the build that wrote them, so a later build
//! takes a segment as stored only for a release that keeps its number and first id (the
//! leading releases it carries); any other release's records are written again.

use std::path::PathBuf;

use serde::de::DeserializeOwned;

use super::header::{FileError, FileProblem};
use super::manifest::SourceRecord;
use super::table::Table;
use super::{BuildLayout, fulltext};
use crate::model::Concept;

/// One release's records and the build-wide id of its first.
struct Segment {
    first: u32,
    table: Table<Concept>,
}

/// Every release's concept records, addressed by build-wide id.
pub struct ConceptTable {
    segments: Vec<Segment>,
    len: u32,
    /// Named when an id lies beyond every segment.
    index_path: PathBuf,
}

impl ConceptTable {
    /// Opens each release's segment in manifest order, checking that each holds as many
    /// records as its release counts and starts where the one before ends.
    pub fn open(layout: &BuildLayout, sources: &[SourceRecord]) -> Result<ConceptTable, FileError> {
        let mut segments = Vec::with_capacity(sources.len());
        let mut next: u32 = 0;
        let mut index_path = layout.dir.clone();
        for source in sources {
            let (data, index) = layout.concept_segment(fulltext::origin_of(&source.graph));
            let table = Table::open(&data, &index)?;
            if source.first_concept != next || u64::from(table.len()) != source.counts.concepts {
                return Err(FileError::new(
                    &index,
                    FileProblem::Inconsistent(format!(
                        "it holds {} records from concept {next}; the manifest says {} from concept {}",
                        table.len(),
                        source.counts.concepts,
                        source.first_concept
                    )),
                ));
            }
            next = next.checked_add(table.len()).ok_or_else(|| {
                FileError::new(
                    &index,
                    FileProblem::Inconsistent("more than 4,294,967,295 concepts".into()),
                )
            })?;
            index_path = index;
            segments.push(Segment {
                first: source.first_concept,
                table,
            });
        }
        Ok(ConceptTable {
            segments,
            len: next,
            index_path,
        })
    }

    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// An error naming the concept table: the record with this id is not what it must be.
    pub fn damaged(&self, id: u32, what: &'static str) -> FileError {
        FileError::new(&self.index_path, FileProblem::Record { id, what })
    }

    /// The segment holding `id` and the id's place in it.
    fn locate(&self, id: u32) -> Result<(&Table<Concept>, u32), FileError> {
        let after = self.segments.partition_point(|s| s.first <= id);
        (id < self.len)
            .then(|| after.checked_sub(1))
            .flatten()
            .and_then(|at| self.segments.get(at))
            .map(|s| (&s.table, id - s.first))
            .ok_or_else(|| {
                FileError::new(
                    &self.index_path,
                    FileProblem::Record {
                        id,
                        what: "is out of range",
                    },
                )
            })
    }

    /// The record with this id; an error naming its segment when it is damaged or the id is
    /// out of range: ids come from the index itself, so neither is "not found".
    pub fn get(&self, id: u32) -> Result<Concept, FileError> {
        self.get_part(id)
    }

    /// Part of the record with this id, as a type that reads only some of its fields, with
    /// the errors of [`ConceptTable::get`].
    pub fn get_part<P: DeserializeOwned>(&self, id: u32) -> Result<P, FileError> {
        let (table, local) = self.locate(id)?;
        table.get_part(local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::TableWriter;

    /// A release record naming `graph` with `concepts` concepts from `first`.
    fn release(graph: &str, first: u32, concepts: u64) -> SourceRecord {
        serde_json::from_value(serde_json::json!({
            "id": "x", "title": "x", "kind": "obo", "format": "obo", "release": "1",
            "release_origin": "catalogue", "current": true, "graph": graph, "files": [],
            "license": "", "attribution": "", "homepage": "", "scope": "",
            "first_concept": first,
            "counts": { "triples": 0, "concepts": concepts, "obsolete": 0, "labels": 0,
                        "definitions": 0, "parent_links": 0, "xrefs": 0, "replacements": 0 }
        }))
        .expect("a release record")
    }

    fn write_segment(layout: &BuildLayout, graph: &str, iris: &[&str]) {
        let (data, index) = layout.concept_segment(fulltext::origin_of(graph));
        let mut writer = TableWriter::<Concept>::create(&data, &index).expect("create");
        for iri in iris {
            let concept = Concept {
                iri: iri.to_string(),
                ..Concept::default()
            };
            writer.push(&concept).expect("push");
        }
        writer.finish().expect("finish");
    }

    #[test]
    fn ids_run_across_release_segments_and_an_id_beyond_them_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let layout = BuildLayout::new(dir.path());
        write_segment(&layout, "urn:a", &["a0", "a1"]);
        write_segment(&layout, "urn:b", &["b0"]);
        let sources = [release("urn:a", 0, 2), release("urn:b", 2, 1)];
        let table = ConceptTable::open(&layout, &sources).expect("open");
        assert_eq!(table.len(), 3);
        let iris: Vec<String> = (0..3)
            .map(|id| table.get(id).expect("a record").iri)
            .collect();
        assert_eq!(iris, ["a0", "a1", "b0"]);
        let beyond = table.get(3).expect_err("no record 3");
        assert!(beyond.to_string().contains("out of range"), "{beyond}");
    }

    #[test]
    fn a_segment_that_holds_other_than_its_release_counts_fails_to_open_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let layout = BuildLayout::new(dir.path());
        write_segment(&layout, "urn:a", &["a0", "a1"]);
        let error = ConceptTable::open(&layout, &[release("urn:a", 0, 3)])
            .err()
            .expect("a count that differs");
        let (_, index) = layout.concept_segment(fulltext::origin_of("urn:a"));
        assert_eq!(error.path, index);
        assert!(error.to_string().contains("holds 2 records"), "{error}");
    }
}
