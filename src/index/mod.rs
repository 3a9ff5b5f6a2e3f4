//! The files of a built index and their readers: FST lexicons with postings, the concept table,
//! the tantivy full-text index and the manifest. Only this module touches fst, tantivy or
//! memmap2.
//!
//! On disk, `index/CURRENT` names the active build directory; a build writes a new directory
//! and then replaces `CURRENT` atomically, so readers never see a half-written index.

pub mod flags;
pub mod fulltext;
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
pub mod table;

use std::path::{Path, PathBuf};

use crate::model::Concept;

/// How each identifier key was spelled, kept as the id lexicon's posting detail.
pub mod spelling {
    pub const IRI: u16 = 0;
    pub const CURIE: u16 = 1;
    pub const UNDERSCORE: u16 = 2;
    pub const LOCAL_ID: u16 = 3;
    pub const ALT_ID: u16 = 4;
}

pub use fulltext::{FullText, FullTextWriter, TextHit};
pub use lexicon::{FuzzyHit, Lexicon, LexiconCounts, LexiconWriter, Posting};
pub use manifest::{FORMAT_VERSION, Manifest};
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
    pub fn ids_fst(&self) -> PathBuf {
        self.dir.join("ids.fst")
    }
    pub fn ids_postings(&self) -> PathBuf {
        self.dir.join("ids.postings")
    }
    pub fn labels_fst(&self) -> PathBuf {
        self.dir.join("labels.fst")
    }
    pub fn labels_postings(&self) -> PathBuf {
        self.dir.join("labels.postings")
    }
    pub fn variants_fst(&self) -> PathBuf {
        self.dir.join("variants.fst")
    }
    pub fn variants_postings(&self) -> PathBuf {
        self.dir.join("variants.postings")
    }
    /// The build's copy of the name variant rules.
    pub fn name_rules(&self) -> PathBuf {
        self.dir.join("name-rules.toml")
    }
    pub fn concept_flags(&self) -> PathBuf {
        self.dir.join("concepts.flags")
    }
    pub fn concepts_data(&self) -> PathBuf {
        self.dir.join("concepts.dat")
    }
    pub fn concepts_index(&self) -> PathBuf {
        self.dir.join("concepts.idx")
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
    pub fn mappings(&self) -> mappings::MappingFiles {
        mappings::MappingFiles {
            spill: self.dir.clone(),
            data: self.dir.join("mappings.dat"),
            index: self.dir.join("mappings.idx"),
            hops_data: self.dir.join("mapping-hops.dat"),
            hops_index: self.dir.join("mapping-hops.idx"),
            fan_out_data: self.dir.join("mapping-fanout.dat"),
            fan_out_index: self.dir.join("mapping-fanout.idx"),
            fst: self.dir.join("mappings.fst"),
            postings: self.dir.join("mappings.postings"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("no index at {}: run `ontoresolve build` first", .0.display())]
    NotBuilt(PathBuf),
    #[error("index at {}: {message}", path.display())]
    Damaged { path: PathBuf, message: String },
    #[error("index at {} has format version {found}, this program reads {expected}: rebuild it", path.display())]
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
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
    pub ids: Lexicon,
    pub labels: Lexicon,
    /// Name variant keys and the rules that made them, when the build had rules.
    pub variants: Option<(Lexicon, names::NameRules)>,
    pub table: Table<Concept>,
    pub flags: flags::Flags,
    pub fulltext: FullText,
    pub mappings: mappings::MappingIndex,
}

impl IndexFiles {
    pub fn open(index_dir: &Path) -> Result<Self, OpenError> {
        let layout = active_build(index_dir)?;
        let damaged = |e: &dyn std::fmt::Display| OpenError::Damaged {
            path: layout.dir.clone(),
            message: e.to_string(),
        };
        let manifest = Manifest::read(&layout.manifest()).map_err(|e| damaged(&e))?;
        if manifest.format_version != FORMAT_VERSION {
            return Err(OpenError::Version {
                path: layout.dir.clone(),
                found: manifest.format_version,
                expected: FORMAT_VERSION,
            });
        }
        let ids =
            Lexicon::open(&layout.ids_fst(), &layout.ids_postings()).map_err(|e| damaged(&e))?;
        let labels = Lexicon::open(&layout.labels_fst(), &layout.labels_postings())
            .map_err(|e| damaged(&e))?;
        let variants = match &manifest.name_rules {
            None => None,
            Some(_) => {
                let text = std::fs::read_to_string(layout.name_rules())
                    .map_err(|e| damaged(&format!("{}: {e}", layout.name_rules().display())))?;
                let rules = names::NameRules::from_toml(&text)
                    .map_err(|e| damaged(&format!("{}: {e}", layout.name_rules().display())))?;
                let lexicon = Lexicon::open(&layout.variants_fst(), &layout.variants_postings())
                    .map_err(|e| damaged(&e))?;
                Some((lexicon, rules))
            }
        };
        let table = Table::open(&layout.concepts_data(), &layout.concepts_index())
            .map_err(|e| damaged(&e))?;
        let flags =
            flags::Flags::open(&layout.concept_flags(), table.len()).map_err(|e| damaged(&e))?;
        let fulltext = FullText::open(&layout.fulltext()).map_err(|e| damaged(&e))?;
        let mappings = mappings::MappingIndex::open(&layout.mappings()).map_err(|e| damaged(&e))?;
        Ok(IndexFiles {
            mappings,
            layout,
            manifest,
            ids,
            labels,
            variants,
            table,
            flags,
            fulltext,
        })
    }
}
