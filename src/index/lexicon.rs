//! FST lexicons: sorted keys in an `fst::Map` whose values point into a postings file.
//!
//! Postings file layout, little-endian: the index header (`header.rs`), then for each key
//! `count: u32` and `count` postings of `concept: u32, detail: u16`; the FST's values are
//! offsets into that body. Both files are memory-mapped when read.
//!
//! The FST file has no header of ours: `fst` writes its own (format version and type) and a
//! CRC32C footer, the manifest records its length and checksum, and opening checks that its
//! root address fits its length (the check `fst::Map::new` skips for non-empty FSTs), so a
//! truncated FST fails at open instead of at a lookup.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use fst::{Automaton, IntoStreamer, Map, MapBuilder, Streamer};
use memmap2::Mmap;

use super::counts::LexiconCounts;
use super::header::{FileError, FileProblem, HeadedFile, POSTINGS, write_header};
use super::mmap::map_file;
pub use super::runs::Posting;
use super::runs::RunWriter;

const POSTING_BYTES: usize = 6;

/// Longer fuzzy queries are not searched: the automaton grows with the query, and a label this
/// long is better found by full text.
pub const MAX_FUZZY_KEY_BYTES: usize = 128;

/// Writes one lexicon. Entries are sorted in bounded runs; with a spill directory, full runs go
/// to disk and are merged at the end, so memory does not grow with the number of keys.
pub struct LexiconWriter {
    runs: RunWriter,
    /// The first spill failure; reported by `write`, never swallowed.
    error: Option<io::Error>,
}

impl Default for LexiconWriter {
    fn default() -> Self {
        LexiconWriter {
            runs: RunWriter::in_memory(),
            error: None,
        }
    }
}

impl LexiconWriter {
    /// A writer that spills sorted runs named after `name` into `dir`.
    pub fn spilling(dir: &Path, name: &str) -> LexiconWriter {
        LexiconWriter {
            runs: RunWriter::new(dir, name),
            error: None,
        }
    }

    /// Spills the entries held in memory, so that a writer left waiting for `write` holds
    /// next to nothing.
    pub fn park(&mut self) {
        if let Err(e) = self.runs.spill_held() {
            self.error.get_or_insert(e);
        }
    }

    /// Entries added so far (duplicates included): what writing it will cost.
    pub fn entries(&self) -> u64 {
        self.runs.entries()
    }

    pub fn add(&mut self, key: String, posting: Posting) {
        if let Err(e) = self.runs.push(key, posting) {
            self.error.get_or_insert(e);
        }
    }

    pub fn extend(&mut self, entries: impl IntoIterator<Item = (String, Posting)>) {
        for (key, posting) in entries {
            self.add(key, posting);
        }
    }

    /// Sorts, deduplicates and writes the FST and the postings file.
    pub fn write(self, fst_path: &Path, postings_path: &Path) -> io::Result<LexiconCounts> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut merge = self.runs.into_sorted()?;
        let mut out = PostingsOut::create(fst_path, postings_path)?;
        let mut group: Vec<Posting> = Vec::new();
        let mut next = merge.next_entry()?;
        while let Some((key, posting)) = next {
            group.push(posting);
            next = merge.next_entry()?;
            if next.as_ref().is_none_or(|(k, _)| *k != key) {
                out.flush(&key, &mut group)?;
            }
        }
        out.finish()
    }
}

/// The FST and postings file being written, a key at a time in key order.
struct PostingsOut {
    map: MapBuilder<BufWriter<File>>,
    postings: BufWriter<File>,
    offset: u64,
    counts: LexiconCounts,
}

impl PostingsOut {
    fn create(fst_path: &Path, postings_path: &Path) -> io::Result<PostingsOut> {
        let mut postings = BufWriter::new(File::create(postings_path)?);
        write_header(&mut postings, POSTINGS)?;
        let map =
            MapBuilder::new(BufWriter::new(File::create(fst_path)?)).map_err(io::Error::other)?;
        Ok(PostingsOut {
            map,
            postings,
            offset: 0,
            counts: LexiconCounts::default(),
        })
    }

    /// Writes one key with its postings and empties `group`.
    fn flush(&mut self, key: &str, group: &mut Vec<Posting>) -> io::Result<()> {
        self.map
            .insert(key.as_bytes(), self.offset)
            .map_err(io::Error::other)?;
        self.postings
            .write_all(&(group.len() as u32).to_le_bytes())?;
        for p in group.iter() {
            self.postings.write_all(&p.concept.to_le_bytes())?;
            self.postings.write_all(&p.detail.to_le_bytes())?;
        }
        self.offset += 4 + (group.len() * POSTING_BYTES) as u64;
        self.counts.keys += 1;
        self.counts.postings += group.len() as u64;
        group.clear();
        Ok(())
    }

    fn finish(self) -> io::Result<LexiconCounts> {
        self.map
            .into_inner()
            .map_err(io::Error::other)?
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()?;
        self.postings
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()?;
        Ok(self.counts)
    }
}

/// A key found by fuzzy search, with its edit distance to the query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzyHit {
    pub key: String,
    pub distance: u8,
    pub postings: Vec<Posting>,
}

/// A point part-way along the lexicon's keys (see [`Lexicon::walk`]); valid only for the
/// lexicon that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyWalk {
    addr: fst::raw::CompiledAddr,
    output: u64,
}

pub struct Lexicon {
    map: Map<Mmap>,
    postings: HeadedFile,
    /// Named when a posting list the FST points at cannot be read.
    postings_path: PathBuf,
    /// Unique per opened lexicon, so that a thread's walk memo never outlives its lexicon.
    id: u64,
}

/// Where the last longest-prefix walk on this thread ended: the matched key and its FST node.
/// Consecutive IRIs usually share their namespace, so the next walk can start there.
struct WalkMemo {
    lexicon: u64,
    key: Vec<u8>,
    addr: fst::raw::CompiledAddr,
    output: u64,
}

thread_local! {
    static WALK_MEMO: std::cell::RefCell<Option<WalkMemo>> = const { std::cell::RefCell::new(None) };
}

static NEXT_LEXICON_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Lexicon {
    pub fn open(fst_path: &Path, postings_path: &Path) -> Result<Lexicon, FileError> {
        let map = open_fst(fst_path).map_err(|problem| FileError::new(fst_path, problem))?;
        Ok(Lexicon {
            map,
            postings: HeadedFile::open(postings_path, POSTINGS)?,
            postings_path: postings_path.to_path_buf(),
            id: NEXT_LEXICON_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Its keys, and its postings as the postings file's length gives them.
    pub fn counts(&self) -> LexiconCounts {
        let keys = self.map.len() as u64;
        let body = self.postings.body().len() as u64;
        LexiconCounts {
            keys,
            postings: body.saturating_sub(4 * keys) / POSTING_BYTES as u64,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The bytes of the posting list at `offset`; one lying beyond the postings file is
    /// damage naming the file, never "no match".
    fn posting_list(&self, offset: u64) -> Result<&[u8], FileError> {
        usize::try_from(offset)
            .ok()
            .and_then(|start| {
                let bytes = self.postings.body();
                let count: [u8; 4] = bytes.get(start..start.checked_add(4)?)?.try_into().ok()?;
                let body = start + 4;
                let len = (u32::from_le_bytes(count) as usize).checked_mul(POSTING_BYTES)?;
                bytes.get(body..body.checked_add(len)?)
            })
            .ok_or_else(|| {
                FileError::new(
                    &self.postings_path,
                    FileProblem::Inconsistent(format!(
                        "the posting list at offset {offset} lies beyond the file"
                    )),
                )
            })
    }

    fn postings_at(&self, offset: u64) -> Result<Vec<Posting>, FileError> {
        Ok(self
            .posting_list(offset)?
            .chunks_exact(POSTING_BYTES)
            .map(decode_posting)
            .collect())
    }

    /// Where a walk along the keys starts: before any byte.
    pub fn walk_start(&self) -> KeyWalk {
        KeyWalk {
            addr: self.map.as_fst().root().addr(),
            output: 0,
        }
    }

    /// The walk extended by `bytes`, or `None` when no key continues so. Scanning text word
    /// by word this way costs one step per byte, whatever the number of keys.
    pub fn walk(&self, from: KeyWalk, bytes: &[u8]) -> Option<KeyWalk> {
        let fst = self.map.as_fst();
        let mut node = fst.node(from.addr);
        let mut output = fst::raw::Output::new(from.output);
        for &byte in bytes {
            let transition = node.transition(node.find_input(byte)?);
            output = output.cat(transition.out);
            node = fst.node(transition.addr);
        }
        Some(KeyWalk {
            addr: node.addr(),
            output: output.value(),
        })
    }

    /// Whether the bytes walked so far are a whole key.
    pub fn walk_is_key(&self, at: KeyWalk) -> bool {
        self.map.as_fst().node(at.addr).is_final()
    }

    /// The first posting of an exact key, without collecting the rest.
    pub fn get_first(&self, key: &str) -> Result<Option<Posting>, FileError> {
        match self.map.get(key.as_bytes()) {
            Some(offset) => self.first_posting_at(offset),
            None => Ok(None),
        }
    }

    /// The postings of an exact key.
    pub fn get(&self, key: &str) -> Result<Vec<Posting>, FileError> {
        match self.map.get(key.as_bytes()) {
            Some(offset) => self.postings_at(offset),
            None => Ok(Vec::new()),
        }
    }

    /// Keys within `max_distance` edits (1 or 2; a transposition counts as one) of `key`, closest
    /// first, then in key order, at most `limit` keys.
    ///
    /// Distance 1 searches every key. With distance 2, a key whose first character differs
    /// from the query's is found only within one edit: two edits at the start would reach
    /// nearly every key, and a typo rarely changes a name's first letter.
    pub fn fuzzy(
        &self,
        key: &str,
        max_distance: u8,
        limit: usize,
    ) -> Result<Vec<FuzzyHit>, FileError> {
        if key.len() > MAX_FUZZY_KEY_BYTES {
            return Ok(Vec::new());
        }
        let mut hits = near::near_keys(self.map.as_fst(), key, max_distance);
        hits.sort();
        hits.truncate(limit);
        hits.into_iter()
            .map(|(distance, key, offset)| {
                Ok(FuzzyHit {
                    key: String::from_utf8_lossy(&key).into_owned(),
                    distance,
                    postings: self.postings_at(offset)?,
                })
            })
            .collect()
    }

    /// The longest key that is a prefix of `text`: its length in bytes and its first posting.
    /// Walks the FST once along `text`, so the cost grows with `text`, not with the number of
    /// keys.
    pub fn longest_prefix_of(&self, text: &str) -> Result<Option<(usize, Posting)>, FileError> {
        let fst = self.map.as_fst();
        let bytes = text.as_bytes();
        // Resume from this thread's last match when `text` starts with that key: any longer
        // match must extend it, and shorter ones lose to it.
        let resumed = WALK_MEMO.with_borrow(|memo| {
            memo.as_ref()
                .filter(|m| m.lexicon == self.id && bytes.starts_with(&m.key))
                .map(|m| (m.key.len(), m.addr, m.output))
        });
        let (start, mut node, mut output, mut best) = match resumed {
            Some((len, addr, out)) => {
                let node = fst.node(addr);
                let value = fst::raw::Output::new(out).cat(node.final_output()).value();
                (
                    len,
                    node,
                    fst::raw::Output::new(out),
                    Some((len, value, addr, out)),
                )
            }
            None => (0, fst.root(), fst::raw::Output::zero(), None),
        };
        for (i, &byte) in bytes.iter().enumerate().skip(start) {
            let Some(at) = node.find_input(byte) else {
                break;
            };
            let transition = node.transition(at);
            output = output.cat(transition.out);
            node = fst.node(transition.addr);
            if node.is_final() {
                let value = output.cat(node.final_output()).value();
                best = Some((i + 1, value, transition.addr, output.value()));
            }
        }
        let Some((len, offset, addr, out)) = best else {
            return Ok(None);
        };
        if resumed.is_none_or(|(resumed_len, ..)| resumed_len != len) {
            WALK_MEMO.with_borrow_mut(|memo| {
                *memo = Some(WalkMemo {
                    lexicon: self.id,
                    key: bytes[..len].to_vec(),
                    addr,
                    output: out,
                })
            });
        }
        Ok(self.first_posting_at(offset)?.map(|p| (len, p)))
    }

    fn first_posting_at(&self, offset: u64) -> Result<Option<Posting>, FileError> {
        Ok(self
            .posting_list(offset)?
            .get(..POSTING_BYTES)
            .map(decode_posting))
    }

    /// Keys starting with `prefix`, in key order, at most `limit`.
    pub fn prefixed(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<(String, Vec<Posting>)>, FileError> {
        let automaton = fst::automaton::Str::new(prefix).starts_with();
        let mut stream = self.map.search(automaton).into_stream();
        let mut out = Vec::new();
        while let Some((k, offset)) = stream.next() {
            if out.len() >= limit {
                break;
            }
            out.push((
                String::from_utf8_lossy(k).into_owned(),
                self.postings_at(offset)?,
            ));
        }
        Ok(out)
    }

    /// Checks that the postings file is whole lists naming records under `records`, one list
    /// per key: for a small lexicon (the registry's), read whole once when it opens, so that
    /// its reads cannot meet damage later. Which list each key points at is the FST's part,
    /// under its checksum (`ontoresolve check`).
    pub fn verify_postings(&self, records: u32) -> Result<(), FileError> {
        let damaged =
            |what: String| FileError::new(&self.postings_path, FileProblem::Inconsistent(what));
        let body_len = self.postings.body().len() as u64;
        let (mut lists, mut at) = (0usize, 0u64);
        while at < body_len {
            let list = self.posting_list(at)?;
            if let Some(p) = (list.chunks_exact(POSTING_BYTES).map(decode_posting))
                .find(|p| p.concept >= records)
            {
                return Err(damaged(format!(
                    "a posting names record {} of {records}",
                    p.concept
                )));
            }
            lists += 1;
            at += 4 + list.len() as u64;
        }
        if lists != self.map.len() {
            return Err(damaged(format!(
                "{lists} posting lists for {} keys",
                self.map.len()
            )));
        }
        Ok(())
    }
}

/// Maps an FST file and checks its layout (not its checksum).
fn open_fst(path: &Path) -> Result<Map<Mmap>, FileProblem> {
    let bytes = map_file(path).map_err(|e| FileError::io(path, &e).problem)?;
    let map = Map::new(bytes).map_err(|e| FileProblem::Inconsistent(format!("not an FST: {e}")))?;
    check_fst_layout(map.as_fst().as_bytes())?;
    Ok(map)
}

/// Checks an FST file's layout and recomputes its own CRC32C: reads every byte.
pub fn verify_fst_file(path: &Path) -> Result<(), FileProblem> {
    open_fst(path)?
        .as_fst()
        .verify()
        .map_err(|e| FileProblem::Inconsistent(format!("FST checksum: {e}")))
}

/// One posting from its `POSTING_BYTES` bytes.
fn decode_posting(c: &[u8]) -> Posting {
    Posting {
        concept: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
        detail: u16::from_le_bytes([c[4], c[5]]),
    }
}

/// Checks what `fst::Map::new` leaves unchecked: the format version with a checksum, and that
/// the root node's address fits the file's length (for a non-empty FST the root is the last
/// node, followed by 20 bytes: key count, root address, checksum).
fn check_fst_layout(bytes: &[u8]) -> Result<(), FileProblem> {
    let read_u64 = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(
            bytes.get(at..at.checked_add(8)?)?.try_into().ok()?,
        ))
    };
    let too_short =
        || FileProblem::Inconsistent(format!("{} bytes, too short for an FST", bytes.len()));
    let version = read_u64(0).ok_or_else(too_short)?;
    if version != fst::raw::VERSION {
        return Err(FileProblem::Inconsistent(format!(
            "FST format version {version}, this program writes {}",
            fst::raw::VERSION
        )));
    }
    let len = bytes.len() as u64;
    let root = bytes
        .len()
        .checked_sub(12)
        .and_then(read_u64)
        .ok_or_else(too_short)?;
    const EMPTY_FST_BYTES: u64 = 36;
    let fits = if root == 0 {
        len == EMPTY_FST_BYTES
    } else {
        root.checked_add(21) == Some(len)
    };
    if !fits {
        return Err(FileProblem::Inconsistent(format!(
            "truncated or damaged FST: its root address {root} does not fit its {len} bytes"
        )));
    }
    Ok(())
}

mod near;
mod segments;
pub use segments::{LexiconKind, ReleaseSpan, SegmentWalk, SegmentedLexicon};
#[cfg(test)]
mod tests;
