//! A large source's partial concepts spilled while it is read: the extractor hands over what it
//! holds every [`SPILL_CONCEPTS`] concepts, and `finish` merges the runs back into finished
//! concepts, written in IRI order, with their parent links sorted by parent for the children.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::concepts::{ChildEdge, Inverse, SourceConcepts};
use super::spill::{RecordWriter, Runs, TempFile};
use crate::model::{Concept, Link, RelatedClass, SourceCounts, SourceIdx};

/// Partial concepts the extractor holds before it spills them (a few hundred bytes each).
pub const SPILL_CONCEPTS: usize = 100_000;

/// Parent links sorted in memory before a run of them is spilled.
const EDGE_RUN: usize = 500_000;

/// What the stream said about one subject before a spill: its statements so far, and whether
/// it was typed as a concept.
#[derive(Serialize, Deserialize)]
struct Partial {
    typed: bool,
    concept: Concept,
}

impl Partial {
    /// Adds what a later part of the stream said about the same subject.
    fn absorb(&mut self, later: Partial) {
        self.typed |= later.typed;
        let (to, from) = (&mut self.concept, later.concept);
        to.labels.extend(from.labels);
        to.definitions.extend(from.definitions);
        to.parents.extend(from.parents);
        to.children.extend(from.children);
        to.relations.extend(from.relations);
        to.replacements.extend(from.replacements);
        to.xrefs.extend(from.xrefs);
        to.alt_ids.extend(from.alt_ids);
        to.tree_numbers.extend(from.tree_numbers);
        to.obsolete |= from.obsolete;
        to.top_concept |= from.top_concept;
        to.withdrawn |= from.withdrawn;
    }
}

impl PartialEq for Partial {
    fn eq(&self, other: &Self) -> bool {
        self.concept.iri == other.concept.iri
    }
}

impl Eq for Partial {}

impl PartialOrd for Partial {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// By subject alone: one run holds a subject once, and the merge keeps runs in stream order.
impl Ord for Partial {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.concept.iri.cmp(&other.concept.iri)
    }
}

/// The spilled part of a source being read.
pub(crate) struct PartialSpill {
    dir: PathBuf,
    runs: Runs<Partial>,
    /// The first spill failure; `finish` reports it.
    error: Option<io::Error>,
}

impl PartialSpill {
    pub(crate) fn new(dir: &Path) -> PartialSpill {
        PartialSpill {
            dir: dir.to_path_buf(),
            runs: Runs::new(dir, "partial-concepts"),
            error: None,
        }
    }

    /// Where the runs go.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Spills what the extractor held: its partial concepts and the subjects typed as concepts.
    pub(crate) fn add(
        &mut self,
        concepts: HashMap<String, Concept>,
        mut typed: HashSet<String>,
        source: SourceIdx,
    ) {
        if self.error.is_some() {
            return;
        }
        let mut records: Vec<Partial> = Vec::with_capacity(concepts.len() + typed.len());
        for (iri, concept) in concepts {
            records.push(Partial {
                typed: typed.remove(&iri),
                concept,
            });
        }
        records.extend(typed.into_iter().map(|iri| Partial {
            typed: true,
            concept: Concept {
                iri,
                source,
                ..Concept::default()
            },
        }));
        if let Err(error) = self.runs.spill(records) {
            self.error = Some(error);
        }
    }

    /// Merges the runs into finished concepts: `complete` finishes a typed subject's concept,
    /// or refuses it (outside the source's namespaces).
    pub(crate) fn finish(
        self,
        triples: u64,
        mut complete: impl FnMut(Concept) -> Option<Concept>,
    ) -> io::Result<(SourceConcepts, SourceCounts)> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let mut finished = FinishedWriter::create(&self.dir)?;
        let mut pending: Option<Partial> = None;
        let mut emit = |partial: Partial, finished: &mut FinishedWriter| -> io::Result<()> {
            match partial.typed.then(|| complete(partial.concept)).flatten() {
                Some(concept) => finished.write(&concept),
                None => Ok(()),
            }
        };
        for partial in self.runs.merge()? {
            let partial = partial?;
            match &mut pending {
                Some(held) if held.concept.iri == partial.concept.iri => held.absorb(partial),
                _ => {
                    if let Some(done) = pending.replace(partial) {
                        emit(done, &mut finished)?;
                    }
                }
            }
        }
        if let Some(done) = pending {
            emit(done, &mut finished)?;
        }
        finished.into_concepts(triples)
    }
}

/// Finished concepts written in IRI order as they complete, and their parent links spilled
/// for the children: a large source's concepts, on disk, for [`SourceConcepts::spilled`].
pub(crate) struct FinishedWriter {
    file: TempFile,
    out: RecordWriter,
    edges: Runs<ChildEdge>,
    edge_buffer: Vec<ChildEdge>,
    counts: SourceCounts,
}

impl FinishedWriter {
    pub(crate) fn create(dir: &Path) -> io::Result<FinishedWriter> {
        let file = TempFile::under(dir, "concepts");
        let out = RecordWriter::create(&file.0)?;
        Ok(FinishedWriter {
            file,
            out,
            edges: Runs::new(dir, "child-edges"),
            edge_buffer: Vec::new(),
            counts: SourceCounts::default(),
        })
    }

    /// The next finished concept; concepts come in IRI order.
    pub(crate) fn write(&mut self, concept: &Concept) -> io::Result<()> {
        for parent in &concept.parents {
            self.edge_buffer.push(ChildEdge {
                parent: parent.iri.clone(),
                child: Inverse::Child(Link {
                    iri: concept.iri.clone(),
                    kind: parent.kind,
                    prov: parent.prov,
                }),
            });
        }
        for relation in &concept.relations {
            self.edge_buffer.push(ChildEdge {
                parent: relation.iri.clone(),
                child: Inverse::Related(RelatedClass {
                    property: relation.property.clone(),
                    property_label: relation.property_label.clone(),
                    iri: concept.iri.clone(),
                    prov: relation.prov,
                }),
            });
        }
        if self.edge_buffer.len() >= EDGE_RUN {
            self.edges.spill(std::mem::take(&mut self.edge_buffer))?;
        }
        self.counts.count(concept);
        self.out.write(concept)
    }

    /// The written concepts with their children joined on the way out, and their counts
    /// (with `triples`).
    pub(crate) fn into_concepts(
        mut self,
        triples: u64,
    ) -> io::Result<(SourceConcepts, SourceCounts)> {
        self.out.finish()?;
        self.edges.spill(std::mem::take(&mut self.edge_buffer))?;
        self.counts.triples = triples;
        let len = usize::try_from(self.counts.concepts).unwrap_or(usize::MAX);
        let concepts = SourceConcepts::spilled(len, self.file, self.edges.merge()?)?;
        Ok((concepts, self.counts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{Extractor, IngestError, StatedRelease, TripleSink};
    use crate::model::{PrefixMap, PrefixRule};

    struct Feed<'a>(Extractor<'a>);

    impl TripleSink for Feed<'_> {
        fn triple(&mut self, triple: oxrdf::Triple) -> Result<(), IngestError> {
            self.0.observe(&triple);
            Ok(())
        }
        fn stated_release(&mut self, release: StatedRelease) {
            self.0.stated_release(release);
        }
    }

    /// The bundled HPO read with or without spilling every `every` concepts.
    fn read_hpo(spill: Option<(&Path, usize)>) -> (Vec<Concept>, SourceCounts) {
        let prefixes = PrefixMap::new([PrefixRule {
            prefix: "HP".into(),
            uri_prefix: "http://purl.obolibrary.org/obo/HP_".into(),
        }]);
        let types = vec![crate::ingest::vocab::OWL_CLASS.to_string()];
        let namespaces = vec!["http://purl.obolibrary.org/obo/HP_".to_string()];
        let mut extractor = Extractor::new(SourceIdx(7), types, namespaces, &prefixes);
        if let Some((dir, every)) = spill {
            extractor = extractor.with_spill(dir, every);
        }
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("ontologies/hp-2025-01-16.obo.gz");
        let input = crate::ingest::input::open_reader(std::fs::File::open(&file).expect("HPO"))
            .expect("gzip");
        let mut feed = Feed(extractor);
        crate::ingest::parse(
            input,
            &file,
            crate::ingest::Format::Obo,
            None,
            &prefixes,
            &mut feed,
        )
        .expect("parse HPO");
        let (concepts, counts) = feed.0.finish().expect("finish");
        (concepts.collect_all().expect("read back"), counts)
    }

    /// Three classes, the first part_of the second by a restriction, read with or without
    /// spilling after every concept.
    fn read_part_of(spill: Option<&Path>) -> Vec<Concept> {
        let owl = r#"<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
         xmlns:owl="http://www.w3.org/2002/07/owl#">
  <owl:Class rdf:about="http://x.org/Cavity">
    <rdfs:subClassOf>
      <owl:Restriction>
        <owl:onProperty rdf:resource="http://purl.obolibrary.org/obo/BFO_0000050"/>
        <owl:someValuesFrom rdf:resource="http://x.org/Abdomen"/>
      </owl:Restriction>
    </rdfs:subClassOf>
  </owl:Class>
  <owl:Class rdf:about="http://x.org/Abdomen"/>
  <owl:Class rdf:about="http://x.org/Other"/>
</rdf:RDF>"#;
        let prefixes = PrefixMap::default();
        let types = vec![crate::ingest::vocab::OWL_CLASS.to_string()];
        let mut extractor = Extractor::new(SourceIdx(0), types, Vec::new(), &prefixes);
        if let Some(dir) = spill {
            extractor = extractor.with_spill(dir, 1);
        }
        let mut feed = Feed(extractor);
        crate::ingest::parse(
            owl.as_bytes(),
            Path::new("part_of.owl"),
            crate::ingest::Format::Rdf(crate::ingest::RdfSyntax::RdfXml),
            None,
            &prefixes,
            &mut feed,
        )
        .expect("parse");
        let (concepts, _) = feed.0.finish().expect("finish");
        concepts.collect_all().expect("read back")
    }

    #[test]
    fn a_restriction_names_its_filler_and_the_filler_names_it_back_when_spilled_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let held = read_part_of(None);
        let spilled = read_part_of(Some(dir.path()));
        assert_eq!(held, spilled);
        let named = |iri: &str| held.iter().find(|c| c.iri == iri).expect(iri);
        let cavity = named("http://x.org/Cavity");
        assert_eq!(cavity.relations.len(), 1);
        assert_eq!(cavity.relations[0].iri, "http://x.org/Abdomen");
        assert!(cavity.parents.is_empty(), "a restriction is no is_a parent");
        let abdomen = named("http://x.org/Abdomen");
        assert_eq!(abdomen.related_from.len(), 1);
        assert_eq!(abdomen.related_from[0].iri, "http://x.org/Cavity");
        assert!(named("http://x.org/Other").related_from.is_empty());
    }

    #[test]
    fn a_spilled_source_gives_the_concepts_of_one_held_in_memory() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (held, held_counts) = read_hpo(None);
        let (spilled, spilled_counts) = read_hpo(Some((dir.path(), 1_000)));
        assert!(held.len() > 15_000, "HPO has its terms: {}", held.len());
        assert_eq!(held_counts, spilled_counts);
        assert_eq!(held.len(), spilled.len());
        let with_children = held.iter().filter(|c| !c.children.is_empty()).count();
        assert!(with_children > 1_000, "{with_children}");
        for (h, s) in held.iter().zip(&spilled) {
            assert_eq!(h, s, "{}", h.iri);
        }
        drop(spilled);
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
        assert!(left.is_empty(), "spill files are deleted: {left:?}");
    }
}
