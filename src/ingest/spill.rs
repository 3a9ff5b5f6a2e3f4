//! Records of one large source spilled to disk in sorted runs and merged back in order, so
//! that reading a source never holds all of its concepts (or their parent links) in memory.
//!
//! A run file is a sequence of records, each a little-endian `u32` length and the record as
//! JSON. The files live in the build's temporary directory and are deleted when the runs are
//! dropped.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A record longer than this is refused on reading: no concept is this large, and it bounds
/// what a damaged run file can make the reader allocate.
const MAX_RECORD_BYTES: usize = 1 << 28;

/// Sorted run files of records of type `T`, compared by `Ord`; records that compare equal
/// come back in the order their runs were written.
pub(crate) struct Runs<T> {
    dir: PathBuf,
    name: String,
    files: Vec<TempFile>,
    records: PhantomData<fn(T) -> T>,
}

/// A spilled file, deleted when dropped.
pub(crate) struct TempFile(pub(crate) PathBuf);

impl TempFile {
    /// A new file name under `dir`, unique within this process.
    pub(crate) fn under(dir: &Path, name: &str) -> TempFile {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        TempFile(dir.join(format!("{name}.{}.{n}.run", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl<T: Serialize + DeserializeOwned + Ord> Runs<T> {
    pub(crate) fn new(dir: &Path, name: &str) -> Runs<T> {
        Runs {
            dir: dir.to_path_buf(),
            name: name.to_string(),
            files: Vec::new(),
            records: PhantomData,
        }
    }

    /// Sorts `records` and writes them as the next run.
    pub(crate) fn spill(&mut self, mut records: Vec<T>) -> io::Result<()> {
        records.sort();
        let file = TempFile::under(&self.dir, &self.name);
        let mut out = RecordWriter::create(&file.0)?;
        for record in &records {
            out.write(record)?;
        }
        out.finish()?;
        self.files.push(file);
        Ok(())
    }

    /// Every record of every run, in order.
    pub(crate) fn merge(self) -> io::Result<Merged<T>> {
        let mut readers = Vec::with_capacity(self.files.len());
        let mut heap = BinaryHeap::new();
        for (run, file) in self.files.iter().enumerate() {
            let mut reader = RecordReader::open(&file.0)?;
            if let Some(first) = reader.next_record()? {
                heap.push(Reverse(Head { record: first, run }));
            }
            readers.push(reader);
        }
        Ok(Merged {
            readers,
            heap,
            _files: self.files,
        })
    }
}

/// Records sorted on their way through: held in memory up to a cap, then spilled as sorted
/// runs (when given a directory), and read back once in order.
pub(crate) struct Sorter<T> {
    held: Vec<T>,
    cap: usize,
    runs: Option<Runs<T>>,
}

impl<T: Serialize + DeserializeOwned + Ord> Sorter<T> {
    /// Spills to `dir` every `cap` records; without a directory every record is held.
    pub(crate) fn new(dir: Option<&Path>, name: &str, cap: usize) -> Sorter<T> {
        Sorter {
            held: Vec::new(),
            cap: cap.max(1),
            runs: dir.map(|dir| Runs::new(dir, name)),
        }
    }

    pub(crate) fn push(&mut self, record: T) -> io::Result<()> {
        self.held.push(record);
        if self.held.len() >= self.cap
            && let Some(runs) = &mut self.runs
        {
            runs.spill(std::mem::take(&mut self.held))?;
        }
        Ok(())
    }

    /// Every record pushed, in order; equal records in the order they were pushed.
    pub(crate) fn sorted(self) -> io::Result<Box<dyn Iterator<Item = io::Result<T>>>>
    where
        T: 'static,
    {
        match self.runs {
            Some(mut runs) if !runs.files.is_empty() => {
                runs.spill(self.held)?;
                Ok(Box::new(runs.merge()?))
            }
            _ => {
                let mut held = self.held;
                held.sort();
                Ok(Box::new(held.into_iter().map(Ok)))
            }
        }
    }
}

/// The smallest unread record of one run.
struct Head<T> {
    record: T,
    run: usize,
}

impl<T: Ord> Ord for Head<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.record
            .cmp(&other.record)
            .then(self.run.cmp(&other.run))
    }
}

impl<T: Ord> PartialOrd for Head<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Ord> PartialEq for Head<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T: Ord> Eq for Head<T> {}

/// The runs merged: records in order, ties in run order.
pub(crate) struct Merged<T> {
    readers: Vec<RecordReader<T>>,
    heap: BinaryHeap<Reverse<Head<T>>>,
    _files: Vec<TempFile>,
}

impl<T: DeserializeOwned + Ord> Merged<T> {
    /// The next record without taking it.
    pub(crate) fn peek(&self) -> Option<&T> {
        self.heap.peek().map(|Reverse(head)| &head.record)
    }
}

impl<T: DeserializeOwned + Ord> Iterator for Merged<T> {
    type Item = io::Result<T>;

    fn next(&mut self) -> Option<io::Result<T>> {
        let Reverse(Head { record, run }) = self.heap.pop()?;
        let refill = match self.readers.get_mut(run) {
            Some(reader) => reader.next_record(),
            None => Ok(None),
        };
        match refill {
            Ok(Some(next)) => self.heap.push(Reverse(Head { record: next, run })),
            Ok(None) => {}
            Err(error) => return Some(Err(error)),
        }
        Some(Ok(record))
    }
}

/// Writes length-prefixed JSON records.
pub(crate) struct RecordWriter {
    out: BufWriter<File>,
    buffer: Vec<u8>,
}

impl RecordWriter {
    pub(crate) fn create(path: &Path) -> io::Result<RecordWriter> {
        Ok(RecordWriter {
            out: BufWriter::with_capacity(1 << 20, File::create(path)?),
            buffer: Vec::new(),
        })
    }

    pub(crate) fn write<T: Serialize>(&mut self, record: &T) -> io::Result<()> {
        self.buffer.clear();
        serde_json::to_writer(&mut self.buffer, record).map_err(io::Error::other)?;
        let len = u32::try_from(self.buffer.len())
            .map_err(|_| io::Error::other("a spilled record over 4 GiB"))?;
        self.out.write_all(&len.to_le_bytes())?;
        self.out.write_all(&self.buffer)
    }

    pub(crate) fn finish(self) -> io::Result<()> {
        self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    }
}

/// Reads the records a [`RecordWriter`] wrote.
pub(crate) struct RecordReader<T> {
    input: BufReader<File>,
    buffer: Vec<u8>,
    records: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> RecordReader<T> {
    pub(crate) fn open(path: &Path) -> io::Result<RecordReader<T>> {
        Ok(RecordReader {
            input: BufReader::with_capacity(1 << 20, File::open(path)?),
            buffer: Vec::new(),
            records: PhantomData,
        })
    }

    pub(crate) fn next_record(&mut self) -> io::Result<Option<T>> {
        let mut len = [0u8; 4];
        match self.input.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_RECORD_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a spilled record longer than any concept: the run file is damaged",
            ));
        }
        self.buffer.resize(len, 0);
        self.input.read_exact(&mut self.buffer)?;
        serde_json::from_slice(&self.buffer)
            .map(Some)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
}

impl<T: DeserializeOwned> Iterator for RecordReader<T> {
    type Item = io::Result<T>;

    fn next(&mut self) -> Option<io::Result<T>> {
        self.next_record().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_in_order_with_ties_in_run_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut runs: Runs<(u32, String)> = Runs::new(dir.path(), "t");
        runs.spill(vec![(3, "c".into()), (1, "a".into())])
            .expect("spill");
        runs.spill(vec![(2, "b".into()), (1, "a".into())])
            .expect("spill");
        let merged: Vec<(u32, String)> = runs
            .merge()
            .expect("merge")
            .collect::<io::Result<_>>()
            .expect("read");
        assert_eq!(
            merged,
            vec![
                (1, "a".into()),
                (1, "a".into()),
                (2, "b".into()),
                (3, "c".into())
            ]
        );
    }

    #[test]
    fn a_sorter_past_its_cap_spills_and_gives_every_record_back_in_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut sorter: Sorter<(u32, u32)> = Sorter::new(Some(dir.path()), "t", 2);
        for record in [(3, 0), (1, 1), (2, 2), (1, 3), (3, 4)] {
            sorter.push(record).expect("push");
        }
        assert!(
            std::fs::read_dir(dir.path()).expect("dir").count() >= 2,
            "it spilled"
        );
        let sorted: Vec<(u32, u32)> = (sorter.sorted().expect("merge"))
            .collect::<io::Result<_>>()
            .expect("read");
        assert_eq!(sorted, vec![(1, 1), (1, 3), (2, 2), (3, 0), (3, 4)]);
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    }

    #[test]
    fn merged_runs_delete_their_files_when_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut runs: Runs<u32> = Runs::new(dir.path(), "t");
        runs.spill(vec![1, 2]).expect("spill");
        let merged = runs.merge().expect("merge");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
        drop(merged);
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    }

    #[test]
    fn a_damaged_record_length_is_an_error_not_an_allocation() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bad.run");
        std::fs::write(&path, u32::MAX.to_le_bytes()).expect("write");
        let mut reader: RecordReader<u32> = RecordReader::open(&path).expect("open");
        assert!(reader.next_record().is_err());
    }
}
