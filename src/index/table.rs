//! Record tables: records addressable by their dense id (concepts, prefix records).
//!
//! The data file holds the records (JSON, one after another); the index file holds `n + 1`
//! little-endian u64 offsets into it. Both are memory-mapped when read.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use std::marker::PhantomData;

use memmap2::Mmap;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::mmap::map_file;

pub struct TableWriter<T> {
    data: BufWriter<File>,
    offsets: Vec<u64>,
    position: u64,
    index_path: std::path::PathBuf,
    records: PhantomData<fn(&T)>,
}

impl<T: Serialize> TableWriter<T> {
    pub fn create(data_path: &Path, index_path: &Path) -> io::Result<Self> {
        Ok(TableWriter {
            data: BufWriter::new(File::create(data_path)?),
            offsets: vec![0],
            position: 0,
            index_path: index_path.to_path_buf(),
            records: PhantomData,
        })
    }

    /// Appends a record; its id is the number of records before it.
    pub fn push(&mut self, record: &T) -> io::Result<u32> {
        let bytes = serde_json::to_vec(record).map_err(io::Error::other)?;
        self.data.write_all(&bytes)?;
        self.position += bytes.len() as u64;
        self.offsets.push(self.position);
        Ok((self.offsets.len() - 2) as u32)
    }

    pub fn finish(self) -> io::Result<u32> {
        self.data
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()?;
        let mut index = BufWriter::new(File::create(&self.index_path)?);
        for offset in &self.offsets {
            index.write_all(&offset.to_le_bytes())?;
        }
        index.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        Ok((self.offsets.len() - 1) as u32)
    }
}

pub struct Table<T> {
    data: Mmap,
    offsets: Mmap,
    records: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Table<T> {
    pub fn open(data_path: &Path, index_path: &Path) -> io::Result<Table<T>> {
        let table = Table {
            data: map_file(data_path)?,
            offsets: map_file(index_path)?,
            records: PhantomData,
        };
        if !table.offsets.len().is_multiple_of(8) || table.offsets.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "record offsets file is damaged",
            ));
        }
        Ok(table)
    }

    pub fn len(&self) -> u32 {
        (self.offsets.len() / 8).saturating_sub(1) as u32
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn offset(&self, i: u32) -> Option<usize> {
        let at = i as usize * 8;
        let bytes: [u8; 8] = self.offsets.get(at..at + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(bytes) as usize)
    }

    /// The record with this id; an error when the id is out of range or the record is
    /// damaged, for callers that got the id from the index itself.
    pub fn get_checked(&self, id: u32) -> io::Result<T> {
        let damaged =
            |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("record {id}: {what}"));
        let start = self.offset(id).ok_or_else(|| damaged("out of range"))?;
        let end = id
            .checked_add(1)
            .and_then(|next| self.offset(next))
            .ok_or_else(|| damaged("out of range"))?;
        let bytes = self
            .data
            .get(start..end)
            .ok_or_else(|| damaged("beyond the data file"))?;
        serde_json::from_slice(bytes).map_err(|_| damaged("cannot be decoded"))
    }

    /// The record with this id; `None` when the id is out of range or the record is damaged.
    pub fn get(&self, id: u32) -> Option<T> {
        let start = self.offset(id)?;
        let end = self.offset(id.checked_add(1)?)?;
        serde_json::from_slice(self.data.get(start..end)?).ok()
    }
}
