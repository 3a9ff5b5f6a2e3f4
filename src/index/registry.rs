//! The prefix registry's files: two FST lexicons and a record table.
//!
//! - `registry.spellings.fst`: every spelling of every prefix, lower-cased, to its record; the
//!   posting detail carries [`SPELLING_DEPRECATED`] when the registry deprecates that spelling.
//! - `registry.uris.fst`: every URI prefix (scheme and host in lower case, with its http/https
//!   twin marked [`URI_TWIN`]) to its record, for longest-prefix matching.
//! - `registry.dat` / `registry.idx`: the [`PrefixRecord`]s, by record id.

use std::io;

use super::counts::{LexiconCounts, RegistryCounts};
use super::header::FileError;
use super::{BuildLayout, Lexicon, LexiconWriter, Posting, Table, TableWriter};
use crate::model::PrefixRecord;

/// Posting detail bit: this spelling is a prefix the registry deprecates.
pub const SPELLING_DEPRECATED: u16 = 1;

/// Posting detail bit: this spelling is only a record's banana; it counts in its own letter
/// case and before a local id that fits.
pub const SPELLING_BANANA: u16 = 2;

/// Posting detail bit: this URI prefix is the other-scheme (http/https) twin of one the
/// registry or catalogue writes.
pub const URI_TWIN: u16 = 1;

/// A spelling or URI prefix and the record it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyEntry {
    pub key: String,
    pub record: u32,
    pub detail: u16,
}

/// Writes the registry files of a build. Keys must already be resolved to one record each.
pub fn write(
    layout: &BuildLayout,
    records: &[PrefixRecord],
    spellings: Vec<KeyEntry>,
    uris: Vec<KeyEntry>,
) -> io::Result<RegistryCounts> {
    let mut table = TableWriter::create(&layout.registry_data(), &layout.registry_index())?;
    for record in records {
        table.push(record)?;
    }
    table.finish()?;
    let spellings = write_keys(
        spellings,
        &layout.registry_spellings_fst(),
        &layout.registry_spellings_postings(),
    )?;
    let uris = write_keys(
        uris,
        &layout.registry_uris_fst(),
        &layout.registry_uris_postings(),
    )?;
    Ok(RegistryCounts {
        records: records.len() as u64,
        spellings: spellings.keys,
        uri_prefixes: uris.keys,
        patterns: records.iter().filter(|r| r.pattern.is_some()).count() as u64,
    })
}

fn write_keys(
    entries: Vec<KeyEntry>,
    fst: &std::path::Path,
    postings: &std::path::Path,
) -> io::Result<LexiconCounts> {
    let mut writer = LexiconWriter::default();
    writer.extend(entries.into_iter().map(|e| {
        (
            e.key,
            Posting {
                concept: e.record,
                detail: e.detail,
            },
        )
    }));
    writer.write(fst, postings)
}

/// The registry files of a build, memory-mapped.
pub struct RegistryFiles {
    pub spellings: Lexicon,
    pub uris: Lexicon,
    pub records: Table<PrefixRecord>,
}

impl RegistryFiles {
    pub fn open(layout: &BuildLayout) -> Result<RegistryFiles, FileError> {
        Ok(RegistryFiles {
            spellings: Lexicon::open(
                &layout.registry_spellings_fst(),
                &layout.registry_spellings_postings(),
            )?,
            uris: Lexicon::open(
                &layout.registry_uris_fst(),
                &layout.registry_uris_postings(),
            )?,
            records: Table::open(&layout.registry_data(), &layout.registry_index())?,
        })
    }
}
