//! Sorted runs for lexicon keys: entries are sorted in bounded batches, spilled to temporary
//! files, and merged back in key order, so that a build never holds every key in memory.
//!
//! Run file layout, little-endian: for each entry `key_len: u32`, the key's bytes,
//! `concept: u32`, `detail: u16`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

/// One occurrence of a key: the concept, and a detail whose meaning depends on the lexicon
/// (the label's position in the concept for the label lexicon, the spelling kind for ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Posting {
    pub concept: u32,
    pub detail: u16,
}

/// Entries sorted in memory before a run is spilled (about 64 bytes each).
pub const RUN_ENTRIES: usize = 1 << 20;

/// Keys longer than this are not indexed: no identifier or label is this long, and it bounds
/// what a damaged run file can make the reader allocate.
pub const MAX_KEY_BYTES: usize = 1 << 16;

/// Collects entries and spills them as sorted runs under `dir`.
pub struct RunWriter {
    /// Where full runs go; `None` keeps everything in memory (small lexicons, tests).
    dir: Option<PathBuf>,
    name: String,
    buffer: Vec<(String, Posting)>,
    runs: Vec<PathBuf>,
    /// Entries held before a run is spilled.
    run_entries: usize,
    /// Entries pushed so far.
    pushed: u64,
}

impl RunWriter {
    pub fn new(dir: &Path, name: &str) -> RunWriter {
        RunWriter {
            dir: Some(dir.to_path_buf()),
            name: name.to_string(),
            buffer: Vec::new(),
            runs: Vec::new(),
            run_entries: RUN_ENTRIES,
            pushed: 0,
        }
    }

    /// A spilling writer whose runs hold `run_entries` entries: smaller runs for long keys.
    pub fn with_run_entries(dir: &Path, name: &str, run_entries: usize) -> RunWriter {
        RunWriter {
            run_entries: run_entries.max(1),
            ..RunWriter::new(dir, name)
        }
    }

    /// A writer that never spills.
    pub fn in_memory() -> RunWriter {
        RunWriter {
            dir: None,
            name: String::new(),
            buffer: Vec::new(),
            runs: Vec::new(),
            run_entries: RUN_ENTRIES,
            pushed: 0,
        }
    }

    pub fn push(&mut self, key: String, posting: Posting) -> io::Result<()> {
        if key.is_empty() || key.len() > MAX_KEY_BYTES {
            return Ok(());
        }
        self.buffer.push((key, posting));
        self.pushed += 1;
        if self.buffer.len() >= self.run_entries && self.dir.is_some() {
            self.spill()?;
        }
        Ok(())
    }

    /// Entries pushed so far, duplicates included.
    pub fn entries(&self) -> u64 {
        self.pushed
    }

    /// Spills what is held in memory, if anything and if this writer spills at all.
    pub fn spill_held(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() || self.dir.is_none() {
            return Ok(());
        }
        self.spill()?;
        self.buffer = Vec::new();
        Ok(())
    }

    fn spill(&mut self) -> io::Result<()> {
        self.buffer.par_sort_unstable();
        self.buffer.dedup();
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let path = dir.join(format!("{}.run{}", self.name, self.runs.len()));
        let mut out = BufWriter::new(File::create(&path)?);
        for (key, posting) in self.buffer.drain(..) {
            out.write_all(&(key.len() as u32).to_le_bytes())?;
            out.write_all(key.as_bytes())?;
            out.write_all(&posting.concept.to_le_bytes())?;
            out.write_all(&posting.detail.to_le_bytes())?;
        }
        out.flush()?;
        self.runs.push(path);
        self.buffer.shrink_to(self.run_entries);
        Ok(())
    }

    /// Every entry in key order, duplicates removed. Spilled runs are deleted when the merge
    /// is dropped.
    pub fn into_sorted(mut self) -> io::Result<Merge> {
        self.buffer.par_sort_unstable();
        self.buffer.dedup();
        let mut sources: Vec<Source> = Vec::with_capacity(self.runs.len() + 1);
        for path in &self.runs {
            sources.push(Source::Run(BufReader::new(File::open(path)?)));
        }
        sources.push(Source::Memory(std::mem::take(&mut self.buffer).into_iter()));
        let mut heap = BinaryHeap::new();
        for (i, source) in sources.iter_mut().enumerate() {
            if let Some(entry) = source.next_entry()? {
                heap.push(Reverse((entry, i)));
            }
        }
        Ok(Merge {
            sources,
            heap,
            last: None,
            runs: self.runs,
        })
    }
}

enum Source {
    Run(BufReader<File>),
    Memory(std::vec::IntoIter<(String, Posting)>),
}

impl Source {
    fn next_entry(&mut self) -> io::Result<Option<(String, Posting)>> {
        match self {
            Source::Memory(entries) => Ok(entries.next()),
            Source::Run(reader) => read_entry(reader),
        }
    }
}

fn read_entry(reader: &mut impl Read) -> io::Result<Option<(String, Posting)>> {
    let mut len = [0u8; 4];
    match reader.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_KEY_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "damaged key run: key too long",
        ));
    }
    let mut key = vec![0u8; len];
    reader.read_exact(&mut key)?;
    let mut concept = [0u8; 4];
    reader.read_exact(&mut concept)?;
    let mut detail = [0u8; 2];
    reader.read_exact(&mut detail)?;
    let key = String::from_utf8(key)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "damaged key run: not UTF-8"))?;
    Ok(Some((
        key,
        Posting {
            concept: u32::from_le_bytes(concept),
            detail: u16::from_le_bytes(detail),
        },
    )))
}

/// A k-way merge of sorted runs.
pub struct Merge {
    sources: Vec<Source>,
    heap: BinaryHeap<Reverse<((String, Posting), usize)>>,
    last: Option<(String, Posting)>,
    runs: Vec<PathBuf>,
}

impl Merge {
    /// The next entry in key order, skipping duplicates across runs.
    pub fn next_entry(&mut self) -> io::Result<Option<(String, Posting)>> {
        while let Some(Reverse((entry, i))) = self.heap.pop() {
            if let Some(source) = self.sources.get_mut(i)
                && let Some(next) = source.next_entry()?
            {
                self.heap.push(Reverse((next, i)));
            }
            if self.last.as_ref() == Some(&entry) {
                continue;
            }
            self.last = Some(entry.clone());
            return Ok(Some(entry));
        }
        Ok(None)
    }
}

impl Drop for Merge {
    fn drop(&mut self) {
        for path in &self.runs {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(concept: u32) -> Posting {
        Posting { concept, detail: 0 }
    }

    #[test]
    fn spilled_runs_merge_in_key_order_without_duplicates() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut writer = RunWriter::new(dir.path(), "k");
        // Three runs' worth of entries, interleaved and repeated.
        let total = RUN_ENTRIES * 2 + 10;
        for i in 0..total {
            let n = (i * 7919) % (total / 2);
            writer
                .push(format!("key{n:08}"), posting(n as u32))
                .expect("push");
        }
        assert_eq!(writer.runs.len(), 2);
        let mut merge = writer.into_sorted().expect("merge");
        let mut previous: Option<(String, Posting)> = None;
        let mut count = 0;
        while let Some(entry) = merge.next_entry().expect("entry") {
            if let Some(p) = &previous {
                assert!(p < &entry, "{p:?} before {entry:?}");
            }
            previous = Some(entry);
            count += 1;
        }
        assert_eq!(count, total / 2);
        drop(merge);
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    }

    #[test]
    fn a_damaged_run_is_an_error_not_a_short_lexicon() {
        let bytes = [0xff, 0xff, 0xff, 0x7f, 1, 2];
        assert!(read_entry(&mut &bytes[..]).is_err());
        let truncated = [3, 0, 0, 0, b'a'];
        assert!(read_entry(&mut &truncated[..]).is_err());
    }
}
