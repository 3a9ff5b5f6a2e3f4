//! The files of a built index and their readers: FST lexicons with postings, the concept table,
//! the tantivy full-text index and the manifest. Only this module touches fst, tantivy or
//! memmap2.
//!
//! On disk, `index/CURRENT` names the active build directory; a build writes a new directory
//! and then replaces `CURRENT` atomically, so readers never see a half-written index.

pub mod concepts;
pub mod confidence;
pub mod counts;
pub mod flags;
pub mod format;
pub mod fulltext;
pub mod header;
pub mod integrity;
pub mod lease;
pub mod lexicon;
pub mod manifest;
pub mod mappings;
mod mmap;
pub mod names;
pub mod normalize;
pub mod registry;
mod runs;
pub mod schema;
pub mod spelling;
pub mod table;

use std::path::{Path, PathBuf};

pub use counts::{LexiconCounts, MappingIndexCounts, RegistryCounts};
pub use fulltext::{FullText, FullTextWriter, TextHit};
pub use header::FORMAT_VERSION;
pub use header::{FileError, FileProblem};
pub use lexicon::{
    FuzzyHit, KeyWalk, Lexicon, LexiconKind, LexiconWriter, Posting, ReleaseSpan, SegmentWalk,
    SegmentedLexicon,
};
pub use manifest::Manifest;
pub use registry::RegistryFiles;
pub use table::{Table, TableWriter};

/// The name of the file in the index directory that names the active build.
pub const CURRENT: &str = "CURRENT";

/// Paths of the files inside one build directory.
#[derive(Clone, Debug)]
pub struct BuildLayout {
    pub dir: PathBuf,
}

impl BuildLayout {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        BuildLayout { dir: dir.into() }
    }
    pub fn manifest(&self) -> PathBuf {
        self.dir.join("manifest.json")
    }
    /// Each named graph's shape (`schema::GraphShapes`).
    pub fn schema(&self) -> PathBuf {
        self.dir.join("schema.json")
    }
    pub fn store(&self) -> PathBuf {
        self.dir.join("store")
    }
    /// One source release's segment of a concept lexicon (its FST and postings), named by
    /// the release's origin (`fulltext::origin_of` its graph), so the names do not change
    /// when the release moves in the catalogue.
    pub fn lexicon_segment(&self, kind: LexiconKind, origin: u64) -> (PathBuf, PathBuf) {
        let stem = format!("{}-{origin:016x}", kind.name());
        (
            self.dir.join(format!("{stem}.fst")),
            self.dir.join(format!("{stem}.postings")),
        )
    }
    /// Every segment file of the concept lexicons for these releases (by origin).
    pub fn lexicon_files(&self, origins: &[u64], with_name_rules: bool) -> Vec<PathBuf> {
        let kinds: &[LexiconKind] = if with_name_rules {
            &[LexiconKind::Ids, LexiconKind::Labels, LexiconKind::Variants]
        } else {
            &[LexiconKind::Ids, LexiconKind::Labels]
        };
        let mut files = Vec::new();
        for &origin in origins {
            for &kind in kinds {
                let (fst, postings) = self.lexicon_segment(kind, origin);
                files.extend([fst, postings]);
            }
        }
        files
    }
    /// The build's copy of the confidence model.
    pub fn confidence_model(&self) -> PathBuf {
        self.dir.join("confidence-model.toml")
    }
    /// The build's copy of the name variant rules.
    pub fn name_rules(&self) -> PathBuf {
        self.dir.join("name-rules.toml")
    }
    pub fn concept_flags(&self) -> PathBuf {
        self.dir.join("concepts.flags")
    }
    /// A source release's segment of the concept table (`origin` as for its lexicon
    /// segments): records, then offsets.
    pub fn concept_segment(&self, origin: u64) -> (PathBuf, PathBuf) {
        let stem = format!("concepts-{origin:016x}");
        (
            self.dir.join(format!("{stem}.dat")),
            self.dir.join(format!("{stem}.idx")),
        )
    }
    /// Every segment file of the concept table for these releases (by origin).
    pub fn concept_files(&self, origins: &[u64]) -> Vec<PathBuf> {
        (origins.iter())
            .flat_map(|&origin| <[PathBuf; 2]>::from(self.concept_segment(origin)))
            .collect()
    }
    pub fn fulltext(&self) -> PathBuf {
        self.dir.join("fulltext")
    }
    pub fn registry_spellings_fst(&self) -> PathBuf {
        self.dir.join("registry.spellings.fst")
    }
    pub fn registry_spellings_postings(&self) -> PathBuf {
        self.dir.join("registry.spellings.postings")
    }
    pub fn registry_uris_fst(&self) -> PathBuf {
        self.dir.join("registry.uris.fst")
    }
    pub fn registry_uris_postings(&self) -> PathBuf {
        self.dir.join("registry.uris.postings")
    }
    pub fn registry_data(&self) -> PathBuf {
        self.dir.join("registry.dat")
    }
    pub fn registry_index(&self) -> PathBuf {
        self.dir.join("registry.idx")
    }
    /// The prefix registry's files, all written together.
    pub fn registry_files(&self) -> [PathBuf; 6] {
        [
            self.registry_spellings_fst(),
            self.registry_spellings_postings(),
            self.registry_uris_fst(),
            self.registry_uris_postings(),
            self.registry_data(),
            self.registry_index(),
        ]
    }
    /// The files of a build this program writes itself, whose length and checksum the
    /// manifest records: everything but the manifest, `fulltext/` (tantivy keeps its own
    /// checksums, and its file names are not the same from build to build) and `store/`
    /// (RocksDB's). `sources` are the build's releases: each has its concept table and lexicon segments, each
    /// current one its mapping segment ([`mapping_segments`]); the name variant files exist
    /// only when the build had name rules.
    pub fn recorded_files(
        &self,
        sources: &[manifest::SourceRecord],
        with_name_rules: bool,
    ) -> Vec<PathBuf> {
        let mut files = vec![self.concept_flags(), self.schema()];
        files.extend(self.registry_files());
        files.extend(self.concept_files(&release_origins(sources)));
        for (name, _) in mapping_segments(sources) {
            files.extend(self.mapping_segment(&name).all().into_iter().cloned());
        }
        if with_name_rules {
            files.push(self.name_rules());
        }
        files.extend(self.lexicon_files(&release_origins(sources), with_name_rules));
        files
    }

    /// One segment of the mapping index ([`mapping_segments`] names them).
    pub fn mapping_segment(&self, name: &str) -> mappings::MappingFiles {
        let file = |stem: &str, ext: &str| self.dir.join(format!("{stem}-{name}.{ext}"));
        mappings::MappingFiles {
            spill: self.dir.clone(),
            data: file("mappings", "dat"),
            index: file("mappings", "idx"),
            hops_data: file("mapping-hops", "dat"),
            hops_index: file("mapping-hops", "idx"),
            fan_out_data: file("mapping-fanout", "dat"),
            fan_out_index: file("mapping-fanout", "idx"),
            fst: file("mappings", "fst"),
            postings: file("mappings", "postings"),
        }
    }
}

/// The name of the mapping index's segment that holds every mapping set.
pub const MAPPING_SETS_SEGMENT: &str = "sets";

/// The mapping index's segments, in reading order: one per current source release (named by
/// its origin, as its lexicon segments), holding its cross-references, then the mapping sets'.
pub fn mapping_segments(
    sources: &[manifest::SourceRecord],
) -> Vec<(String, mappings::SegmentRole)> {
    let current = sources.iter().filter(|s| s.current);
    let mut segments: Vec<(String, mappings::SegmentRole)> = current
        .zip(0..=u16::MAX)
        .map(|(source, xref_number)| {
            (
                release_segment_name(&source.graph),
                mappings::SegmentRole::Release { xref_number },
            )
        })
        .collect();
    segments.push((
        MAPPING_SETS_SEGMENT.to_string(),
        mappings::SegmentRole::MappingSets,
    ));
    segments
}

/// The name of a source release's mapping segment: its origin in hex.
pub fn release_segment_name(graph: &str) -> String {
    format!("{:016x}", fulltext::origin_of(graph))
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("no index at {}: run `ontoresolve build` first", .0.display())]
    NotBuilt(PathBuf),
    #[error("index at {}: {message}", path.display())]
    Damaged { path: PathBuf, message: String },
    /// A file of the build is missing, truncated, of another kind or version, or does not fit
    /// the manifest: the error names it.
    #[error(
        "damaged index file {0}; `ontoresolve check` lists every damaged file, `ontoresolve build` rebuilds the index"
    )]
    DamagedFile(FileError),
    /// A file of another format version: older ("rebuild it") or written by a newer binary.
    #[error("index file {}: {mismatch}", path.display())]
    Format {
        path: PathBuf,
        mismatch: format::VersionMismatch,
    },
}

// By hand rather than `#[from]`, which would also make the file error the source and print
// it twice in an error chain.
impl From<FileError> for OpenError {
    fn from(error: FileError) -> OpenError {
        match error.problem {
            FileProblem::Version(mismatch) => OpenError::Format {
                path: error.path,
                mismatch,
            },
            _ => OpenError::DamagedFile(error),
        }
    }
}

impl OpenError {
    /// A text file whose format version did not read or does not fit: damaged, or of
    /// another version.
    fn of_version(path: &Path, error: format::VersionReadError) -> OpenError {
        match error {
            format::VersionReadError::Mismatch(mismatch) => OpenError::Format {
                path: path.to_path_buf(),
                mismatch,
            },
            format::VersionReadError::Unreadable(message) => {
                FileError::new(path, FileProblem::Inconsistent(message)).into()
            }
        }
    }
}

/// The build directory an index directory points at: the one named in `CURRENT`, or the
/// directory itself when it is a build directory.
pub fn active_build(index_dir: &Path) -> Result<BuildLayout, OpenError> {
    if index_dir.join("manifest.json").is_file() {
        return Ok(BuildLayout::new(index_dir));
    }
    let current = index_dir.join(CURRENT);
    let name = std::fs::read_to_string(&current)
        .map_err(|_| OpenError::NotBuilt(index_dir.to_path_buf()))?;
    let name = name.trim();
    if name.is_empty() || name.contains('/') || name.starts_with('.') {
        return Err(OpenError::Damaged {
            path: current,
            message: "CURRENT does not name a build directory".into(),
        });
    }
    Ok(BuildLayout::new(index_dir.join(name)))
}

/// The memory-mapped parts of a build, opened read-only.
pub struct IndexFiles {
    pub layout: BuildLayout,
    pub manifest: Manifest,
    pub ids: SegmentedLexicon,
    pub labels: SegmentedLexicon,
    /// Name variant keys and the rules that made them, when the build had rules.
    pub variants: Option<(SegmentedLexicon, names::NameRules)>,
    /// The confidence model, when the build was given one.
    pub confidence: Option<confidence::ModelFile>,
    pub table: concepts::ConceptTable,
    pub flags: flags::Flags,
    pub fulltext: FullText,
    pub mappings: mappings::MappingIndex,
}

impl IndexFiles {
    pub fn open(index_dir: &Path) -> Result<Self, OpenError> {
        let layout = active_build(index_dir)?;
        let manifest_path = layout.manifest();
        // The version first: a newer manifest may have fields this binary cannot parse.
        let bytes = std::fs::read(&manifest_path).map_err(|e| FileError::io(&manifest_path, &e))?;
        format::check_json(&bytes, FORMAT_VERSION)
            .map_err(|e| OpenError::of_version(&manifest_path, e))?;
        let manifest = Manifest::parse(&bytes).map_err(|e| {
            FileError::new(&manifest_path, FileProblem::Inconsistent(e.to_string()))
        })?;
        // Cheap before anything is mapped: every recorded file is there with its length.
        if manifest.files.is_empty() {
            let problem = FileProblem::Inconsistent("it records no index files".into());
            return Err(FileError::new(&manifest_path, problem).into());
        }
        integrity::verify_lengths(&layout, &manifest)?;
        let ids = open_segments(&layout, &manifest, LexiconKind::Ids)?;
        let labels = open_segments(&layout, &manifest, LexiconKind::Labels)?;
        let variants = match &manifest.name_rules {
            None => None,
            Some(_) => {
                let path = layout.name_rules();
                let text = std::fs::read_to_string(&path).map_err(|e| FileError::io(&path, &e))?;
                let rules = names::NameRules::from_toml(&text).map_err(|e| match e {
                    names::RulesError::Version(v) => OpenError::of_version(&path, v),
                    other => {
                        FileError::new(&path, FileProblem::Inconsistent(other.to_string())).into()
                    }
                })?;
                let lexicon = open_segments(&layout, &manifest, LexiconKind::Variants)?;
                Some((lexicon, rules))
            }
        };
        let confidence = match &manifest.confidence_model {
            None => None,
            Some(record) => Some(open_model(&layout.confidence_model(), record)?),
        };
        let table = concepts::ConceptTable::open(&layout, &manifest.sources)?;
        if u64::from(table.len()) != manifest.counts.concepts {
            let problem = FileProblem::Inconsistent(format!(
                "its releases hold {} concepts, the manifest counts {}",
                table.len(),
                manifest.counts.concepts
            ));
            return Err(FileError::new(&manifest_path, problem).into());
        }
        let flags = flags::Flags::open(&layout.concept_flags(), table.len())?;
        let origins: Vec<fulltext::DocumentOrigin> = manifest
            .sources
            .iter()
            .map(|s| fulltext::DocumentOrigin {
                origin: fulltext::origin_of(&s.graph),
                first_concept: s.first_concept,
            })
            .collect();
        let fulltext =
            FullText::open(&layout.fulltext(), &origins).map_err(|e| OpenError::Damaged {
                path: layout.fulltext(),
                message: e.to_string(),
            })?;
        let segments: Vec<_> = mapping_segments(&manifest.sources)
            .into_iter()
            .map(|(name, role)| (layout.mapping_segment(&name), role))
            .collect();
        let mappings = mappings::MappingIndex::open(&segments)?;
        Ok(IndexFiles {
            mappings,
            layout,
            manifest,
            ids,
            labels,
            variants,
            confidence,
            table,
            flags,
            fulltext,
        })
    }
}

/// The origin of each source release, in concept order (a manifest's `sources`).
pub fn release_origins(sources: &[manifest::SourceRecord]) -> Vec<u64> {
    (sources.iter())
        .map(|s| fulltext::origin_of(&s.graph))
        .collect()
}

/// A concept lexicon over the segments of every source release the manifest lists.
fn open_segments(
    layout: &BuildLayout,
    manifest: &Manifest,
    kind: LexiconKind,
) -> Result<SegmentedLexicon, OpenError> {
    let mut files = Vec::new();
    for source in &manifest.sources {
        let count = u32::try_from(source.counts.concepts).map_err(|_| {
            let problem = FileProblem::Inconsistent(format!(
                "source {} counts {} concepts, more than an index holds",
                source.key(),
                source.counts.concepts
            ));
            FileError::new(&layout.manifest(), problem)
        })?;
        let span = ReleaseSpan {
            first: source.first_concept,
            count,
        };
        files.push((
            layout.lexicon_segment(kind, fulltext::origin_of(&source.graph)),
            span,
        ));
    }
    let segments = files
        .iter()
        .map(|((f, p), span)| ((f.as_path(), p.as_path()), *span));
    Ok(SegmentedLexicon::open(segments)?)
}

/// The build's confidence model: the file the manifest records (its checksum), of this
/// binary's format.
fn open_model(
    path: &Path,
    record: &manifest::ModelRecord,
) -> Result<confidence::ModelFile, OpenError> {
    use sha2::Digest;
    let text = std::fs::read_to_string(path).map_err(|e| FileError::io(path, &e))?;
    let sha: String = sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if sha != record.sha256 {
        let problem =
            FileProblem::Inconsistent("its checksum is not the one the manifest records".into());
        return Err(FileError::new(path, problem).into());
    }
    confidence::ModelFile::from_toml(&text).map_err(|e| match e {
        confidence::ModelFileError::Version(v) => OpenError::of_version(path, v),
        other => FileError::new(path, FileProblem::Inconsistent(other.to_string())).into(),
    })
}
