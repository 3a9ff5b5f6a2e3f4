//! Concept flags: four bytes per concept (its source, whether it is obsolete, whether name
//! searches may return it), so that filtering hundreds of candidates never decodes their
//! records.
//!
//! Layout: the index header (`header.rs`), then one little-endian u32 per concept id: bits 0-15
//! the source index, bit 16 obsolete, bit 17 searchable, bits 18-21 the semantic group's code
//! (0: a supplementary record's, read from its mapped heading), bits 22-23 the facet's (0: none). Memory-mapped when read.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use super::header::{CONCEPT_FLAGS, FileError, FileProblem, HeadedFile, write_header};
use crate::model::{Concept, Facet, SemanticGroup, SourceIdx};

const OBSOLETE: u32 = 1 << 16;
const SEARCHABLE: u32 = 1 << 17;
const GROUP_SHIFT: u32 = 18;
const GROUP_MASK: u32 = 0xf;
const FACET_SHIFT: u32 = 22;
const FACET_MASK: u32 = 0x3;
const BYTES: usize = 4;

/// What a name search needs to know of a concept before decoding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConceptFlags {
    pub source: SourceIdx,
    pub obsolete: bool,
    pub searchable: bool,
    /// `None`: read from the concept's mapped heading.
    pub group: Option<SemanticGroup>,
    pub facet: Option<Facet>,
}

impl ConceptFlags {
    pub fn of(concept: &Concept, default_group: SemanticGroup) -> ConceptFlags {
        let group = SemanticGroup::of_concept(concept, default_group);
        ConceptFlags {
            source: concept.source,
            obsolete: concept.obsolete,
            searchable: concept.kind.searchable(),
            group,
            facet: group.and_then(|g| Facet::of_trees(g, &concept.tree_numbers)),
        }
    }

    fn encode(self) -> u32 {
        u32::from(self.source.0)
            | if self.obsolete { OBSOLETE } else { 0 }
            | if self.searchable { SEARCHABLE } else { 0 }
            | (u32::from(self.group.map_or(0, SemanticGroup::code)) & GROUP_MASK) << GROUP_SHIFT
            | (u32::from(self.facet.map_or(0, Facet::code)) & FACET_MASK) << FACET_SHIFT
    }

    fn decode(bits: u32) -> ConceptFlags {
        ConceptFlags {
            source: SourceIdx((bits & 0xffff) as u16),
            obsolete: bits & OBSOLETE != 0,
            searchable: bits & SEARCHABLE != 0,
            group: SemanticGroup::from_code(((bits >> GROUP_SHIFT) & GROUP_MASK) as u8),
            facet: Facet::from_code(((bits >> FACET_SHIFT) & FACET_MASK) as u8),
        }
    }
}

/// Appends one concept's flags per call, in concept-id order.
pub struct FlagsWriter {
    out: BufWriter<File>,
}

impl FlagsWriter {
    pub fn create(path: &Path) -> io::Result<FlagsWriter> {
        let mut out = BufWriter::new(File::create(path)?);
        write_header(&mut out, CONCEPT_FLAGS)?;
        Ok(FlagsWriter { out })
    }

    pub fn push(&mut self, flags: ConceptFlags) -> io::Result<()> {
        self.out.write_all(&flags.encode().to_le_bytes())
    }

    /// Appends the flags of the first `count` concepts of `flags` as they are stored.
    pub fn copy_leading(&mut self, flags: &Flags, count: u32) -> io::Result<()> {
        let bytes = (count as usize)
            .checked_mul(BYTES)
            .and_then(|end| flags.file.body().get(..end))
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    "fewer concept flags than concepts",
                )
            })?;
        self.out.write_all(bytes)
    }

    pub fn finish(self) -> io::Result<()> {
        self.out
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()
    }
}

/// The flags of every concept, memory-mapped.
pub struct Flags {
    file: HeadedFile,
}

impl Flags {
    /// Opens the file; its body must be four bytes per concept.
    pub fn open(path: &Path, concepts: u32) -> Result<Flags, FileError> {
        let file = HeadedFile::open(path, CONCEPT_FLAGS)?;
        let expected = concepts as usize * BYTES;
        if file.body().len() != expected {
            return Err(FileError::new(
                path,
                FileProblem::Inconsistent(format!(
                    "its body has {} bytes for {concepts} concepts (expected {expected})",
                    file.body().len()
                )),
            ));
        }
        Ok(Flags { file })
    }

    pub fn get(&self, id: u32) -> Option<ConceptFlags> {
        let start = (id as usize).checked_mul(BYTES)?;
        let bytes: [u8; BYTES] = self
            .file
            .body()
            .get(start..start.checked_add(BYTES)?)?
            .try_into()
            .ok()?;
        Some(ConceptFlags::decode(u32::from_le_bytes(bytes)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_round_trip_and_a_short_file_is_damaged() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("concepts.flags");
        let mut writer = FlagsWriter::create(&path).expect("create");
        let a = ConceptFlags {
            source: SourceIdx(7),
            obsolete: true,
            searchable: true,
            group: Some(SemanticGroup::Other),
            facet: Some(Facet::SignOrCondition),
        };
        let b = ConceptFlags {
            source: SourceIdx(65535),
            obsolete: false,
            searchable: false,
            group: None,
            facet: None,
        };
        writer.push(a).expect("push");
        writer.push(b).expect("push");
        writer.finish().expect("finish");
        let flags = Flags::open(&path, 2).expect("open");
        assert_eq!(flags.get(0), Some(a));
        assert_eq!(flags.get(1), Some(b));
        assert_eq!(flags.get(2), None);
        let error = Flags::open(&path, 3)
            .err()
            .expect("a file of the wrong length is damaged");
        assert_eq!(error.path, path);
        assert!(error.to_string().contains("for 3 concepts"), "{error}");
    }
}
