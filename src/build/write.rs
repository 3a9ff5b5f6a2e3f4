//! Writing the read side of a build: the concept table, the full-text index and the lexicons.

use std::fs;

use rayon::prelude::*;

use super::{BuildError, BuildObserver, io_err};
use crate::index::flags::{ConceptFlags, FlagsWriter};
use crate::index::manifest::{Counts, SourceRecord};
use crate::index::names::NameRules;
use crate::index::normalize::{id_key, label_key};
use crate::index::spelling::Spelling;
use crate::index::{BuildLayout, FullTextWriter, LexiconWriter, Posting, TableWriter};
use crate::model::{Concept, Prefixes, obo_purl};

/// Every spelling under which a concept's identifier may be looked up.
pub fn id_keys(concept: &Concept, prefixes: &dyn Prefixes) -> Vec<(String, u16)> {
    let mut keys = vec![(id_key(&concept.iri), Spelling::Iri.detail())];
    if let Some(curie) = &concept.curie {
        keys.push((id_key(curie), Spelling::Curie.detail()));
        if let Some((prefix, local)) = curie.split_once(':') {
            keys.push((
                id_key(&format!("{prefix}_{local}")),
                Spelling::Underscore.detail(),
            ));
            keys.push((id_key(local), Spelling::LocalId.detail()));
        }
    }
    for alt in &concept.alt_ids {
        keys.push((id_key(alt), Spelling::AltId.detail()));
        if let Some(iri) = prefixes.expand(alt).or_else(|| obo_purl(alt)) {
            keys.push((id_key(&iri), Spelling::AltId.detail()));
        }
    }
    keys
}

/// Concepts written (and their lexicon keys generated) at once.
pub(super) const KEY_CHUNK: usize = 65_536;

/// The read side of a build, written one source at a time as each source is read, so that
/// a source's concepts are dropped before the next one is read and lexicon keys are spilled
/// in sorted runs.
pub(super) struct IndexWriter<'a> {
    layout: &'a BuildLayout,
    prefixes: &'a dyn Prefixes,
    table: TableWriter<Concept>,
    flags: FlagsWriter,
    fulltext: FullTextWriter,
    ids: LexiconWriter,
    labels: LexiconWriter,
    /// Name variant keys, when the catalogue has name rules.
    variants: Option<(LexiconWriter, &'a NameRules)>,
    next: u32,
}

impl<'a> IndexWriter<'a> {
    pub(super) fn create(
        layout: &'a BuildLayout,
        prefixes: &'a dyn Prefixes,
        rules: Option<&'a NameRules>,
    ) -> Result<IndexWriter<'a>, BuildError> {
        let table = TableWriter::create(&layout.concepts_data(), &layout.concepts_index())
            .map_err(io_err("creating the concept table"))?;
        let flags = FlagsWriter::create(&layout.concept_flags())
            .map_err(io_err("creating the concept flags"))?;
        fs::create_dir(layout.fulltext()).map_err(io_err("creating the full-text directory"))?;
        let fulltext = FullTextWriter::create(&layout.fulltext())?;
        Ok(IndexWriter {
            layout,
            prefixes,
            table,
            flags,
            fulltext,
            ids: LexiconWriter::spilling(&layout.dir, "ids"),
            labels: LexiconWriter::spilling(&layout.dir, "labels"),
            variants: rules.map(|r| (LexiconWriter::spilling(&layout.dir, "variants"), r)),
            next: 0,
        })
    }

    /// The id the next concept written will have.
    pub(super) fn next_concept(&self) -> u32 {
        self.next
    }

    /// Writes a chunk of one source's concepts; ids continue from the previous chunk's.
    pub(super) fn add_concepts(
        &mut self,
        source_id: &str,
        concepts: &[Concept],
    ) -> Result<(), BuildError> {
        let first = self.next;
        for concept in concepts {
            let id = self
                .table
                .push(concept)
                .map_err(io_err("writing the concept table"))?;
            self.flags
                .push(ConceptFlags::of(concept))
                .map_err(io_err("writing the concept flags"))?;
            self.fulltext.add(id, source_id, concept)?;
        }
        self.next = u32::try_from(concepts.len())
            .ok()
            .and_then(|n| first.checked_add(n))
            .ok_or(BuildError::TooLarge("more than 4,294,967,295 concepts"))?;
        // Keys go straight to the spilling writers, so a source's keys are never all in
        // memory.
        for (n, chunk) in concepts.chunks(KEY_CHUNK).enumerate() {
            let start = first + (n * KEY_CHUNK) as u32;
            self.add_keys(start, chunk);
        }
        Ok(())
    }

    fn add_keys(&mut self, start: u32, concepts: &[Concept]) {
        let prefixes = self.prefixes;
        let id_entries: Vec<(String, Posting)> = concepts
            .par_iter()
            .enumerate()
            .flat_map_iter(|(i, c)| {
                let concept = start + i as u32;
                id_keys(c, prefixes)
                    .into_iter()
                    .map(move |(key, detail)| (key, Posting { concept, detail }))
            })
            .collect();
        self.ids.extend(id_entries);
        let label_entries: Vec<(String, Posting)> =
            concepts
                .par_iter()
                .enumerate()
                .flat_map_iter(|(i, c)| {
                    let concept = start + i as u32;
                    c.labels.iter().take(usize::from(u16::MAX)).enumerate().map(
                        move |(detail, l)| {
                            (
                                label_key(&l.text),
                                Posting {
                                    concept,
                                    detail: detail as u16,
                                },
                            )
                        },
                    )
                })
                .collect();
        self.labels.extend(label_entries);
        if let Some((writer, rules)) = &mut self.variants {
            let rules: &NameRules = rules;
            let variant_entries: Vec<(String, Posting)> = concepts
                .par_iter()
                .enumerate()
                .flat_map_iter(|(i, c)| {
                    let concept = start + i as u32;
                    c.labels
                        .iter()
                        .take(usize::from(u16::MAX))
                        .enumerate()
                        .flat_map(move |(detail, l)| {
                            rules
                                .variants(&l.text)
                                .into_iter()
                                .filter(|v| !v.key.is_empty())
                                .map(move |v| {
                                    let detail = detail as u16;
                                    (v.key, Posting { concept, detail })
                                })
                        })
                })
                .collect();
            writer.extend(variant_entries);
        }
    }

    pub(super) fn finish(
        self,
        records: &[SourceRecord],
        observer: &dyn BuildObserver,
    ) -> Result<Counts, BuildError> {
        observer.stage("writing the concept table and full-text index");
        let total = self
            .table
            .finish()
            .map_err(io_err("writing the concept table"))?;
        self.flags
            .finish()
            .map_err(io_err("writing the concept flags"))?;
        self.fulltext.finish()?;
        observer.stage("writing the lexicons");
        let layout = self.layout;
        let id_lexicon = self
            .ids
            .write(&layout.ids_fst(), &layout.ids_postings())
            .map_err(io_err("writing the identifier lexicon"))?;
        let label_lexicon = self
            .labels
            .write(&layout.labels_fst(), &layout.labels_postings())
            .map_err(io_err("writing the label lexicon"))?;
        let variant_lexicon = match self.variants {
            Some((writer, _)) => writer
                .write(&layout.variants_fst(), &layout.variants_postings())
                .map_err(io_err("writing the name variant lexicon"))?,
            None => Default::default(),
        };
        Ok(Counts {
            variant_lexicon,
            concepts: u64::from(total),
            triples: records.iter().map(|r| r.counts.triples).sum(),
            id_lexicon,
            label_lexicon,
            mappings: Default::default(),
        })
    }
}
