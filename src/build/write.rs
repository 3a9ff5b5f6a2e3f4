//! Writing the read side of a build: the concept table, the full-text index and the lexicons.

use std::collections::HashSet;
use std::fs;

use rayon::prelude::*;

use super::reuse::Previous;
use super::{BuildError, BuildObserver, io_err};
use crate::index::flags::{ConceptFlags, Flags, FlagsWriter};
use crate::index::fulltext::{DocumentOrigin, origin_of};
use crate::index::manifest::{Counts, SourceRecord};
use crate::index::names::NameRules;
use crate::index::normalize::{id_key, label_key};
use crate::index::spelling::Spelling;
use crate::index::{BuildLayout, FullTextWriter, Lexicon, LexiconWriter, Posting, TableWriter};
use crate::model::{Concept, Prefixes, obo_purl};

/// Where a source release's full-text documents count from.
pub(super) fn document_origin(record: &SourceRecord) -> DocumentOrigin {
    DocumentOrigin {
        origin: origin_of(&record.graph),
        first_concept: record.first_concept,
    }
}

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
    table: TableWriter<Concept>,
    flags: FlagsWriter,
    fulltext: FullTextWriter,
    ids: LexiconWriter,
    labels: LexiconWriter,
    /// Name variant keys, when the catalogue has name rules.
    variants: Option<(LexiconWriter, &'a NameRules)>,
    next: u32,
    /// The source releases whose documents the full text, copied whole from the installed
    /// build, already holds (by origin): their concepts get no document again.
    in_copied_fulltext: HashSet<u64>,
}

/// What a new build takes from the installed one as stored.
pub(super) struct Installed<'p> {
    pub(super) previous: &'p Previous,
    /// The leading concepts carried (see [`IndexWriter::carry`]); 0 for none.
    pub(super) carried: u32,
    /// Every installed source release is reused, so the installed full text holds exactly
    /// the documents they need and is taken whole: tantivy would keep a deleted document in
    /// its statistics until a merge, so a build that drops a release writes it afresh.
    pub(super) fulltext_whole: bool,
}

impl<'p> Installed<'p> {
    /// What the build takes from the installed build as stored, said as it is decided;
    /// `carried` counts the leading sources and concepts carried.
    pub(super) fn plan(
        previous: Option<&'p Previous>,
        reuse: &[Option<SourceRecord>],
        carried: Option<(usize, u32)>,
        observer: &dyn BuildObserver,
    ) -> Option<Installed<'p>> {
        let previous = previous?;
        if let Some((sources, concepts)) = carried {
            observer.stage(&format!(
                "taking the first {sources} sources' {concepts} concepts from the installed build as stored"
            ));
        }
        let fulltext_whole = previous.all_reused(reuse.iter().flatten());
        if fulltext_whole {
            observer.stage(
                "taking the full text whole from the installed build (every installed release is reused)",
            );
        }
        Some(Installed {
            previous,
            carried: carried.map_or(0, |(_, concepts)| concepts),
            fulltext_whole,
        })
    }
}

impl<'a> IndexWriter<'a> {
    /// A writer for a new build, which starts with what it takes from the installed build
    /// as stored ([`Installed`]).
    pub(super) fn create(
        layout: &'a BuildLayout,
        rules: Option<&'a NameRules>,
        installed: Option<Installed<'_>>,
    ) -> Result<IndexWriter<'a>, BuildError> {
        let table = TableWriter::create(&layout.concepts_data(), &layout.concepts_index())
            .map_err(io_err("creating the concept table"))?;
        let flags = FlagsWriter::create(&layout.concept_flags())
            .map_err(io_err("creating the concept flags"))?;
        fs::create_dir(layout.fulltext()).map_err(io_err("creating the full-text directory"))?;
        let whole = installed.as_ref().filter(|i| i.fulltext_whole);
        let fulltext = match whole {
            Some(i) => {
                FullTextWriter::append_to_copy(&i.previous.layout.fulltext(), &layout.fulltext())?
            }
            None => FullTextWriter::create(&layout.fulltext())?,
        };
        let in_copied_fulltext = whole
            .map(|i| {
                let sources = &i.previous.manifest.sources;
                sources.iter().map(|s| origin_of(&s.graph)).collect()
            })
            .unwrap_or_default();
        let mut writer = IndexWriter {
            layout,
            table,
            flags,
            fulltext,
            ids: LexiconWriter::spilling(&layout.dir, "ids"),
            labels: LexiconWriter::spilling(&layout.dir, "labels"),
            variants: rules.map(|r| (LexiconWriter::spilling(&layout.dir, "variants"), r)),
            next: 0,
            in_copied_fulltext,
        };
        if let Some(i) = installed.filter(|i| i.carried > 0) {
            writer.carry(i.previous, i.carried)?;
        }
        Ok(writer)
    }

    /// Starts the build with the installed build's first `count` concepts, which keep their
    /// ids and source numbers: their records and flags are copied as stored and their
    /// lexicon postings merged in at the end, none decoded or keyed again. Opening
    /// [`Previous`] checked those files against their recorded checksums.
    fn carry(&mut self, previous: &Previous, count: u32) -> Result<(), BuildError> {
        let old = &previous.layout;
        let mut lexicons = vec![
            (old.ids_fst(), old.ids_postings()),
            (old.labels_fst(), old.labels_postings()),
        ];
        if self.variants.is_some() {
            lexicons.push((old.variants_fst(), old.variants_postings()));
        }
        let damaged = |e: crate::index::FileError| BuildError::Io {
            context: "opening the installed build's files".into(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
        };
        self.table
            .copy_leading(previous.table(), count)
            .map_err(io_err("copying the installed concept table"))?;
        let flags = Flags::open(&old.concept_flags(), previous.concept_count()).map_err(damaged)?;
        self.flags
            .copy_leading(&flags, count)
            .map_err(io_err("copying the installed concept flags"))?;
        let mut writers = [Some(&mut self.ids), Some(&mut self.labels), None];
        if let Some((variants, _)) = &mut self.variants {
            writers[2] = Some(variants);
        }
        for ((fst, postings), writer) in lexicons.iter().zip(writers.into_iter().flatten()) {
            writer.carry(Lexicon::open(fst, postings).map_err(damaged)?, count);
        }
        if self.in_copied_fulltext.is_empty() {
            self.add_fulltext_of(previous, count)?;
        }
        self.next = count;
        Ok(())
    }

    /// Full-text documents for the installed build's first `count` concepts, when its full
    /// text cannot be taken whole.
    fn add_fulltext_of(&mut self, previous: &Previous, count: u32) -> Result<(), BuildError> {
        let mut id = 0u32;
        for chunk in previous.read_chunks::<Concept>(0..count) {
            for concept in chunk.map_err(super::reuse::installed_table_error)? {
                let record = previous.manifest.sources.get(usize::from(concept.source.0));
                let (source, from) =
                    record
                        .map(|r| (r.key(), document_origin(r)))
                        .ok_or_else(|| BuildError::Io {
                            context: "reading the installed concept table".into(),
                            source: std::io::Error::new(
                                std::io::ErrorKind::InvalidData,
                                format!("concept {id} names no installed source"),
                            ),
                        })?;
                self.fulltext.add((id, from), &source, &concept)?;
                id += 1;
            }
        }
        Ok(())
    }

    /// The id the next concept written will have.
    pub(super) fn next_concept(&self) -> u32 {
        self.next
    }

    /// Writes a chunk of one source release's concepts (its key and where its documents
    /// start); ids continue from the previous chunk's.
    pub(super) fn add_concepts(
        &mut self,
        (source_id, from): (&str, DocumentOrigin),
        concepts: &[Concept],
        prefixes: &dyn Prefixes,
    ) -> Result<(), BuildError> {
        let first = self.next;
        let documents = !self.in_copied_fulltext.contains(&from.origin);
        for concept in concepts {
            let id = self
                .table
                .push(concept)
                .map_err(io_err("writing the concept table"))?;
            self.flags
                .push(ConceptFlags::of(concept))
                .map_err(io_err("writing the concept flags"))?;
            if documents {
                self.fulltext.add((id, from), source_id, concept)?;
            }
        }
        self.next = u32::try_from(concepts.len())
            .ok()
            .and_then(|n| first.checked_add(n))
            .ok_or(BuildError::TooLarge("more than 4,294,967,295 concepts"))?;
        // Keys go straight to the spilling writers, so a source's keys are never all in
        // memory.
        for (n, chunk) in concepts.chunks(KEY_CHUNK).enumerate() {
            let start = first + (n * KEY_CHUNK) as u32;
            self.add_keys(start, chunk, prefixes);
        }
        Ok(())
    }

    /// `prefixes` is the source's view of the registry, which notes its footprint.
    fn add_keys(&mut self, start: u32, concepts: &[Concept], prefixes: &dyn Prefixes) {
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
        let variants = self.variants.map(|(writer, _)| writer);
        // Label and variant keys are long text, the costly FSTs: each gets a core, and the
        // short identifier keys follow the labels when there are variants.
        let mut ids = Some(self.ids);
        let ids_after_labels = if variants.is_some() { ids.take() } else { None };
        let labels = self.labels;
        let failed = || Err(std::io::Error::other("the writing thread failed"));
        let (id_lexicon, label_lexicon, variant_lexicon) = std::thread::scope(|scope| {
            let label_thread = scope.spawn(|| {
                let label = labels.write(&layout.labels_fst(), &layout.labels_postings());
                let id =
                    ids_after_labels.map(|w| w.write(&layout.ids_fst(), &layout.ids_postings()));
                (label, id)
            });
            let variant_lexicon = variants
                .map(|w| w.write(&layout.variants_fst(), &layout.variants_postings()))
                .transpose();
            let id_here = ids.map(|w| w.write(&layout.ids_fst(), &layout.ids_postings()));
            let (label_lexicon, id_there) =
                label_thread.join().unwrap_or_else(|_| (failed(), None));
            let id_lexicon = id_here.or(id_there).unwrap_or_else(failed);
            (id_lexicon, label_lexicon, variant_lexicon)
        });
        let id_lexicon = id_lexicon.map_err(io_err("writing the identifier lexicon"))?;
        let label_lexicon = label_lexicon.map_err(io_err("writing the label lexicon"))?;
        let variant_lexicon = variant_lexicon
            .map_err(io_err("writing the name variant lexicon"))?
            .unwrap_or_default();
        observer.stage("lexicons written");
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
