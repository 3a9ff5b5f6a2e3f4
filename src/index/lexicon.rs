//! FST lexicons: sorted keys in an `fst::Map` whose values point into a postings file.
//!
//! Postings file layout, little-endian: for each key, `count: u32` then `count` postings of
//! `concept: u32, detail: u16`. Both files are memory-mapped when read.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::OnceLock;

use fst::{Automaton, IntoStreamer, Map, MapBuilder, Streamer};
use levenshtein_automata::{Distance, LevenshteinAutomatonBuilder};
use memmap2::Mmap;
use rayon::slice::ParallelSliceMut;

use super::mmap::map_file;

/// One occurrence of a key: the concept, and a detail whose meaning depends on the lexicon
/// (the label's position in the concept for the label lexicon, the spelling kind for ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Posting {
    pub concept: u32,
    pub detail: u16,
}

const POSTING_BYTES: usize = 6;

#[derive(Default)]
pub struct LexiconWriter {
    entries: Vec<(String, Posting)>,
}

/// What a written lexicon holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LexiconCounts {
    pub keys: u64,
    pub postings: u64,
}

impl LexiconWriter {
    pub fn add(&mut self, key: String, posting: Posting) {
        if !key.is_empty() {
            self.entries.push((key, posting));
        }
    }

    pub fn extend(&mut self, entries: impl IntoIterator<Item = (String, Posting)>) {
        for (key, posting) in entries {
            self.add(key, posting);
        }
    }

    /// Sorts, deduplicates and writes the FST and the postings file.
    pub fn write(mut self, fst_path: &Path, postings_path: &Path) -> io::Result<LexiconCounts> {
        self.entries.par_sort_unstable();
        self.entries.dedup();
        let mut postings = BufWriter::new(File::create(postings_path)?);
        let mut map =
            MapBuilder::new(BufWriter::new(File::create(fst_path)?)).map_err(io::Error::other)?;
        let mut offset: u64 = 0;
        let mut counts = LexiconCounts::default();
        let mut i = 0;
        while i < self.entries.len() {
            let key = &self.entries[i].0;
            let end = i + self.entries[i..].partition_point(|(k, _)| k == key);
            let group = &self.entries[i..end];
            map.insert(key.as_bytes(), offset)
                .map_err(io::Error::other)?;
            postings.write_all(&(group.len() as u32).to_le_bytes())?;
            for (_, p) in group {
                postings.write_all(&p.concept.to_le_bytes())?;
                postings.write_all(&p.detail.to_le_bytes())?;
            }
            offset += 4 + (group.len() * POSTING_BYTES) as u64;
            counts.keys += 1;
            counts.postings += group.len() as u64;
            i = end;
        }
        map.finish().map_err(io::Error::other)?;
        postings
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()?;
        Ok(counts)
    }
}

/// A key found by fuzzy search, with its edit distance to the query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzyHit {
    pub key: String,
    pub distance: u8,
    pub postings: Vec<Posting>,
}

pub struct Lexicon {
    map: Map<Mmap>,
    postings: Mmap,
}

fn automaton_builder(distance: u8) -> &'static LevenshteinAutomatonBuilder {
    static ONE: OnceLock<LevenshteinAutomatonBuilder> = OnceLock::new();
    static TWO: OnceLock<LevenshteinAutomatonBuilder> = OnceLock::new();
    match distance {
        0 | 1 => ONE.get_or_init(|| LevenshteinAutomatonBuilder::new(1, true)),
        _ => TWO.get_or_init(|| LevenshteinAutomatonBuilder::new(2, true)),
    }
}

impl Lexicon {
    pub fn open(fst_path: &Path, postings_path: &Path) -> io::Result<Lexicon> {
        let map = Map::new(map_file(fst_path)?)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        Ok(Lexicon {
            map,
            postings: map_file(postings_path)?,
        })
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Builds the Levenshtein tables ahead of the first fuzzy query.
    pub fn warm_up() {
        automaton_builder(1);
        automaton_builder(2);
    }

    fn postings_at(&self, offset: u64) -> Vec<Posting> {
        let bytes: &[u8] = &self.postings;
        let start = offset as usize;
        let Some(count) = bytes
            .get(start..start + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
        else {
            return Vec::new();
        };
        let body = start + 4;
        let Some(body) = bytes.get(body..body + count as usize * POSTING_BYTES) else {
            return Vec::new();
        };
        body.chunks_exact(POSTING_BYTES)
            .map(|c| Posting {
                concept: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                detail: u16::from_le_bytes([c[4], c[5]]),
            })
            .collect()
    }

    /// The postings of an exact key.
    pub fn get(&self, key: &str) -> Vec<Posting> {
        match self.map.get(key.as_bytes()) {
            Some(offset) => self.postings_at(offset),
            None => Vec::new(),
        }
    }

    /// Keys within `max_distance` edits (1 or 2; a transposition counts as one) of `key`, closest
    /// first, at most `limit` keys.
    pub fn fuzzy(&self, key: &str, max_distance: u8, limit: usize) -> Vec<FuzzyHit> {
        let dfa = automaton_builder(max_distance).build_dfa(key);
        let mut stream = self.map.search_with_state(&dfa).into_stream();
        let mut hits = Vec::new();
        while let Some((k, offset, state)) = stream.next() {
            let Distance::Exact(distance) = dfa.distance(state) else {
                continue;
            };
            if distance > max_distance {
                continue;
            }
            hits.push((distance, String::from_utf8_lossy(k).into_owned(), offset));
        }
        hits.sort();
        hits.truncate(limit);
        hits.into_iter()
            .map(|(distance, key, offset)| FuzzyHit {
                key,
                distance,
                postings: self.postings_at(offset),
            })
            .collect()
    }

    /// Keys starting with `prefix`, in key order, at most `limit`.
    pub fn prefixed(&self, prefix: &str, limit: usize) -> Vec<(String, Vec<Posting>)> {
        let automaton = fst::automaton::Str::new(prefix).starts_with();
        let mut stream = self.map.search(automaton).into_stream();
        let mut out = Vec::new();
        while let Some((k, offset)) = stream.next() {
            if out.len() >= limit {
                break;
            }
            out.push((
                String::from_utf8_lossy(k).into_owned(),
                self.postings_at(offset),
            ));
        }
        out
    }
}
