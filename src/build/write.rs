//! Writing the read side of a build: the concept table, the full-text index and the lexicons,
//! the table and lexicons a segment per source release.

use std::cmp::Reverse;
use std::collections::HashSet;
use std::fs;
use std::sync::Mutex;

use rayon::prelude::*;

use super::reuse::Previous;
use super::{BuildError, BuildObserver, io_err};
use crate::index::flags::{ConceptFlags, Flags, FlagsWriter};
use crate::index::fulltext::{DocumentOrigin, origin_of};
use crate::index::manifest::{Counts, SourceRecord};
use crate::index::names::NameRules;
use crate::index::normalize::{id_key, label_key};
use crate::index::spelling::Spelling;
use crate::index::{
    BuildLayout, FullTextWriter, Lexicon, LexiconCounts, LexiconKind, LexiconWriter, Posting,
    TableWriter,
};
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
    /// The concept table segment of the release being written, unless it was taken as stored.
    table: Option<TableWriter<Concept>>,
    flags: FlagsWriter,
    fulltext: FullTextWriter,
    rules: Option<&'a NameRules>,
    /// The keys of the release being written, unless its segments were taken as stored.
    release: Option<ReleaseKeys>,
    /// Releases whose keys are all added, their lexicon segments written by `finish`.
    parked: Vec<ReleaseKeys>,
    /// What the segments taken as stored hold: ids, labels, variants.
    taken: [LexiconCounts; 3],
    /// The releases whose segments were taken as stored.
    taken_releases: usize,
    next: u32,
    /// The source releases whose documents the full text, copied whole from the installed
    /// build, already holds (by origin): their concepts get no document again.
    in_copied_fulltext: HashSet<u64>,
}

/// What a release being begun takes from the installed build as stored.
#[derive(Clone, Copy)]
pub(super) enum TakenFrom<'l> {
    /// Nothing: its records and keys are written.
    Nothing,
    /// Its lexicon segments, whose postings count from the release's first concept; its
    /// records are written again (a release that moved is numbered anew).
    Lexicons(&'l BuildLayout),
    /// Its lexicon segments and its concept table segment: a carried release, whose source
    /// number and first id are those it had there.
    Everything(&'l BuildLayout),
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
            table: None,
            flags,
            fulltext,
            rules,
            release: None,
            parked: Vec::new(),
            taken: Default::default(),
            taken_releases: 0,
            next: 0,
            in_copied_fulltext,
        };
        if let Some(i) = installed.filter(|i| i.carried > 0) {
            writer.carry(i.previous, i.carried)?;
        }
        Ok(writer)
    }

    /// Starts the build with the installed build's first `count` concepts, which keep their
    /// ids and source numbers: their flags are copied as stored, no record decoded or keyed
    /// again (their sources' table and lexicon segments are taken by [`Self::begin_release`]).
    /// Opening [`Previous`] checked those files against their recorded checksums.
    fn carry(&mut self, previous: &Previous, count: u32) -> Result<(), BuildError> {
        let old = &previous.layout;
        let flags = Flags::open(&old.concept_flags(), previous.concept_count())
            .map_err(installed_file_error)?;
        self.flags
            .copy_leading(&flags, count)
            .map_err(io_err("copying the installed concept flags"))?;
        if self.in_copied_fulltext.is_empty() {
            self.add_fulltext_of(previous, count)?;
        }
        self.next = count;
        Ok(())
    }

    /// The lexicon kinds this build writes.
    fn kinds(&self) -> &'static [LexiconKind] {
        match self.rules {
            Some(_) => &[LexiconKind::Ids, LexiconKind::Labels, LexiconKind::Variants],
            None => &[LexiconKind::Ids, LexiconKind::Labels],
        }
    }

    /// Starts a source release: its records go to a concept table segment of its own and its
    /// keys to lexicon segments of its own (postings counted from its first concept), except
    /// what it takes from the installed build as stored (`taken`), where no key is made.
    pub(super) fn begin_release(
        &mut self,
        origin: u64,
        taken: TakenFrom<'_>,
    ) -> Result<(), BuildError> {
        self.end_release()?;
        let (data, index) = self.layout.concept_segment(origin);
        match taken {
            TakenFrom::Everything(old) => {
                let (old_data, old_index) = old.concept_segment(origin);
                for (from, to) in [(&old_data, &data), (&old_index, &index)] {
                    super::mapping_reuse::link_or_copy(from, to)
                        .map_err(io_err("taking an installed concept table segment"))?;
                }
            }
            TakenFrom::Nothing | TakenFrom::Lexicons(_) => {
                let table = TableWriter::create(&data, &index)
                    .map_err(io_err("creating a concept table segment"))?;
                self.table = Some(table);
            }
        }
        match taken {
            TakenFrom::Nothing => {
                let spill = |kind: LexiconKind| {
                    let name = format!("{}-{origin:016x}", kind.name());
                    LexiconWriter::spilling(&self.layout.dir, &name)
                };
                self.release = Some(ReleaseKeys {
                    origin,
                    first: self.next,
                    ids: spill(LexiconKind::Ids),
                    labels: spill(LexiconKind::Labels),
                    variants: self.rules.map(|_| spill(LexiconKind::Variants)),
                });
                Ok(())
            }
            TakenFrom::Lexicons(old) | TakenFrom::Everything(old) => {
                self.take_lexicon_segments(old, origin)
            }
        }
    }

    /// Takes a release's lexicon segments from the installed build `old`, as stored.
    fn take_lexicon_segments(&mut self, old: &BuildLayout, origin: u64) -> Result<(), BuildError> {
        for (at, &kind) in self.kinds().iter().enumerate() {
            let (old_fst, old_postings) = old.lexicon_segment(kind, origin);
            let (fst, postings) = self.layout.lexicon_segment(kind, origin);
            for (from, to) in [(&old_fst, &fst), (&old_postings, &postings)] {
                super::mapping_reuse::link_or_copy(from, to)
                    .map_err(io_err("taking an installed lexicon segment"))?;
            }
            let counts = Lexicon::open(&fst, &postings)
                .map_err(installed_file_error)?
                .counts();
            self.taken[at].keys += counts.keys;
            self.taken[at].postings += counts.postings;
        }
        self.taken_releases += 1;
        Ok(())
    }

    /// Ends the release being written: its concept table segment is finished, and its keys
    /// wait, spilled, for `finish`.
    pub(super) fn end_release(&mut self) -> Result<(), BuildError> {
        if let Some(table) = self.table.take() {
            table
                .finish()
                .map_err(io_err("writing a concept table segment"))?;
        }
        if let Some(mut release) = self.release.take() {
            release.park();
            self.parked.push(release);
        }
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
        group: crate::model::SemanticGroup,
    ) -> Result<(), BuildError> {
        let first = self.next;
        let documents = !self.in_copied_fulltext.contains(&from.origin);
        let table = (self.table.as_mut()).ok_or_else(|| BuildError::Io {
            context: "writing the concept table".into(),
            source: std::io::Error::other("concepts of a release that was not begun"),
        })?;
        for (at, concept) in concepts.iter().enumerate() {
            table
                .push(concept)
                .map_err(io_err("writing a concept table segment"))?;
            let id = first.saturating_add(at as u32);
            self.flags
                .push(ConceptFlags::of(concept, group))
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
        // memory. A segment counts its postings from its release's first concept.
        let Some(release) = &mut self.release else {
            return Ok(());
        };
        let first = first - release.first;
        for (n, chunk) in concepts.chunks(KEY_CHUNK).enumerate() {
            let start = first + (n * KEY_CHUNK) as u32;
            release.add_keys(start, chunk, (prefixes, self.rules));
        }
        Ok(())
    }

    pub(super) fn finish(
        mut self,
        records: &[SourceRecord],
        observer: &dyn BuildObserver,
    ) -> Result<Counts, BuildError> {
        self.end_release()?;
        observer.stage("writing the concept flags and full-text index");
        let total = self.next;
        self.flags
            .finish()
            .map_err(io_err("writing the concept flags"))?;
        self.fulltext.finish()?;
        let (read, taken) = (self.parked.len(), self.taken_releases);
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        observer.stage(&format!(
            "writing the lexicon segments of {read} release{} read anew ({taken} taken as stored)",
            plural(read)
        ));
        let written = write_segments(self.layout, self.parked)?;
        observer.stage("lexicons written");
        let [mut id_lexicon, mut label_lexicon, mut variant_lexicon] = self.taken;
        for (kind, counts) in written {
            let total = match kind {
                LexiconKind::Ids => &mut id_lexicon,
                LexiconKind::Labels => &mut label_lexicon,
                LexiconKind::Variants => &mut variant_lexicon,
            };
            total.keys += counts.keys;
            total.postings += counts.postings;
        }
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

/// One source release's keys, for its lexicon segments.
struct ReleaseKeys {
    origin: u64,
    /// The build-wide id of its first concept.
    first: u32,
    ids: LexiconWriter,
    labels: LexiconWriter,
    /// Name variant keys, when the catalogue has name rules.
    variants: Option<LexiconWriter>,
}

impl ReleaseKeys {
    /// Keys of `concepts`, the first numbered `start` in the release. `prefixes` is the
    /// source's view of the registry, which notes its footprint.
    fn add_keys(
        &mut self,
        start: u32,
        concepts: &[Concept],
        (prefixes, rules): (&dyn Prefixes, Option<&NameRules>),
    ) {
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
        if let (Some(writer), Some(rules)) = (&mut self.variants, rules) {
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

    fn park(&mut self) {
        self.ids.park();
        self.labels.park();
        if let Some(variants) = &mut self.variants {
            variants.park();
        }
    }
}

/// Writes the parked releases' lexicon segments, the largest first, a core each; what each
/// written segment holds. Each segment is its own files, so the order changes no byte.
fn write_segments(
    layout: &BuildLayout,
    parked: Vec<ReleaseKeys>,
) -> Result<Vec<(LexiconKind, LexiconCounts)>, BuildError> {
    let mut jobs: Vec<(LexiconKind, u64, LexiconWriter)> = Vec::new();
    for release in parked {
        let origin = release.origin;
        jobs.push((LexiconKind::Ids, origin, release.ids));
        jobs.push((LexiconKind::Labels, origin, release.labels));
        if let Some(variants) = release.variants {
            jobs.push((LexiconKind::Variants, origin, variants));
        }
    }
    jobs.sort_by_key(|(.., writer)| Reverse(writer.entries()));
    let count = jobs.len();
    let jobs = Mutex::new(jobs.into_iter());
    let written = Mutex::new(Vec::new());
    let work = || {
        loop {
            let next = jobs.lock().ok().and_then(|mut jobs| jobs.next());
            let Some((kind, origin, writer)) = next else {
                break;
            };
            let (fst, postings) = layout.lexicon_segment(kind, origin);
            let result = writer.write(&fst, &postings).map(|counts| (kind, counts));
            if let Ok(mut written) = written.lock() {
                written.push(result);
            }
        }
    };
    std::thread::scope(|scope| {
        let other = scope.spawn(work);
        work();
        let _ = other.join();
    });
    let written = written.into_inner().unwrap_or_default();
    if written.len() != count {
        return Err(BuildError::Io {
            context: "writing the lexicons".into(),
            source: std::io::Error::other("a writing thread failed"),
        });
    }
    (written.into_iter())
        .map(|r| r.map_err(io_err("writing a lexicon segment")))
        .collect()
}

/// An installed file that cannot be opened as its build wrote it.
fn installed_file_error(e: crate::index::FileError) -> BuildError {
    BuildError::Io {
        context: "opening the installed build's files".into(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
    }
}
