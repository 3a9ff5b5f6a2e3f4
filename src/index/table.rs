//! Record tables: records addressable by their dense id (concepts, prefix records).
//!
//! Both files start with the index header (`header.rs`). The data file's body holds the
//! records (JSON, one after another); the index file's body holds `n + 1` little-endian u64
//! offsets into the data body, from 0 to the data body's length. Both are memory-mapped when
//! read, and opening checks that the two fit together.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::header::{FileError, FileProblem, HeadedFile, TABLE_DATA, TABLE_INDEX, write_header};

const OFFSET_BYTES: usize = 8;

pub struct TableWriter<T> {
    data: BufWriter<File>,
    offsets: Vec<u64>,
    position: u64,
    index_path: PathBuf,
    records: PhantomData<fn(&T)>,
}

impl<T: Serialize> TableWriter<T> {
    pub fn create(data_path: &Path, index_path: &Path) -> io::Result<Self> {
        let mut data = BufWriter::new(File::create(data_path)?);
        write_header(&mut data, TABLE_DATA)?;
        Ok(TableWriter {
            data,
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
        write_header(&mut index, TABLE_INDEX)?;
        for offset in &self.offsets {
            index.write_all(&offset.to_le_bytes())?;
        }
        index.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        Ok((self.offsets.len() - 1) as u32)
    }
}

pub struct Table<T> {
    data: HeadedFile,
    offsets: HeadedFile,
    /// The data file, named when a record cannot be read.
    data_path: PathBuf,
    records: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Table<T> {
    /// Opens both files, checking their headers, that the offsets file holds whole offsets
    /// starting at 0, and that the last one is the data body's length (a truncated or
    /// mismatched data file fails here, not at its first lookup).
    pub fn open(data_path: &Path, index_path: &Path) -> Result<Table<T>, FileError> {
        let table = Table {
            data: HeadedFile::open(data_path, TABLE_DATA)?,
            offsets: HeadedFile::open(index_path, TABLE_INDEX)?,
            data_path: data_path.to_path_buf(),
            records: PhantomData,
        };
        let offsets_len = table.offsets.body().len();
        let damaged_index =
            |what: String| FileError::new(index_path, FileProblem::Inconsistent(what));
        if offsets_len == 0 || !offsets_len.is_multiple_of(OFFSET_BYTES) {
            return Err(damaged_index(format!(
                "its body is {offsets_len} bytes, not a whole number of at least one offset"
            )));
        }
        if table.offset(0) != Some(0) {
            return Err(damaged_index("its first offset is not 0".into()));
        }
        let data_len = table.data.body().len() as u64;
        let end = table.offset(table.len()).unwrap_or(u64::MAX);
        if end != data_len {
            let index_name = index_path.file_name().unwrap_or_default().to_string_lossy();
            return Err(FileError::new(
                data_path,
                FileProblem::Inconsistent(format!(
                    "its body has {data_len} bytes, but {index_name} says its records end at byte {end}"
                )),
            ));
        }
        Ok(table)
    }

    pub fn len(&self) -> u32 {
        (self.offsets.body().len() / OFFSET_BYTES).saturating_sub(1) as u32
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn offset(&self, i: u32) -> Option<u64> {
        let at = (i as usize).checked_mul(OFFSET_BYTES)?;
        let bytes: [u8; OFFSET_BYTES] = self
            .offsets
            .body()
            .get(at..at.checked_add(OFFSET_BYTES)?)?
            .try_into()
            .ok()?;
        Some(u64::from_le_bytes(bytes))
    }

    /// An error naming the data file: the record with this id is not what it must be.
    pub fn damaged(&self, id: u32, what: &'static str) -> FileError {
        FileError::new(&self.data_path, FileProblem::Record { id, what })
    }

    /// The record with this id; an error naming the data file when the id is out of range or
    /// the record is damaged: ids come from the index itself, so neither is "not found".
    pub fn get(&self, id: u32) -> Result<T, FileError> {
        self.get_part(id)
    }

    /// Part of the record with this id, as a type that reads only some of its fields (the
    /// rest is parsed past, never built), with the errors of [`Table::get`].
    pub fn get_part<P: DeserializeOwned>(&self, id: u32) -> Result<P, FileError> {
        let damaged =
            |what: &'static str| FileError::new(&self.data_path, FileProblem::Record { id, what });
        let start = self.offset(id).ok_or_else(|| damaged("is out of range"))?;
        let end = id
            .checked_add(1)
            .and_then(|next| self.offset(next))
            .ok_or_else(|| damaged("is out of range"))?;
        let bytes = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(start, end)| self.data.body().get(start..end))
            .ok_or_else(|| damaged("lies beyond the data file"))?;
        serde_json::from_slice(bytes).map_err(|_| damaged("cannot be decoded"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(dir: &Path, records: &[&str]) -> (PathBuf, PathBuf) {
        let data = dir.join("t.dat");
        let index = dir.join("t.idx");
        let mut writer = TableWriter::<String>::create(&data, &index).expect("create");
        for record in records {
            writer.push(&record.to_string()).expect("push");
        }
        writer.finish().expect("finish");
        (data, index)
    }

    #[test]
    fn records_are_read_back_past_the_header() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (data, index) = written(dir.path(), &["a", "bc", ""]);
        let table = Table::<String>::open(&data, &index).expect("open");
        assert_eq!(table.len(), 3);
        assert_eq!(table.get(1).expect("read"), "bc");
        assert_eq!(table.get(2).expect("read"), "");
        let error = table.get(3).expect_err("out of range");
        assert_eq!(error.path, data);
        assert_eq!(
            error.problem,
            FileProblem::Record {
                id: 3,
                what: "is out of range"
            }
        );
    }

    #[test]
    fn a_truncated_data_file_fails_at_open_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (data, index) = written(dir.path(), &["first", "second"]);
        let bytes = std::fs::read(&data).expect("read");
        std::fs::write(&data, &bytes[..bytes.len() - 3]).expect("truncate");
        let error = Table::<String>::open(&data, &index)
            .err()
            .expect("a truncated table is damaged");
        assert_eq!(error.path, data);
        assert!(
            matches!(error.problem, FileProblem::Inconsistent(_)),
            "{error}"
        );
    }

    #[test]
    fn a_truncated_offsets_file_fails_at_open_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (data, index) = written(dir.path(), &["first", "second"]);
        let bytes = std::fs::read(&index).expect("read");
        for len in [
            bytes.len() - 8,
            bytes.len() - 5,
            super::super::header::HEADER_BYTES,
        ] {
            std::fs::write(&index, &bytes[..len]).expect("truncate");
            let error = Table::<String>::open(&data, &index)
                .err()
                .expect("a truncated offsets file is damaged");
            assert!(
                error.to_string().contains("t.dat") || error.to_string().contains("t.idx"),
                "{len} bytes: {error}"
            );
        }
        std::fs::write(&index, b"").expect("empty");
        let error = Table::<String>::open(&data, &index)
            .err()
            .expect("an empty offsets file is damaged");
        assert_eq!(error.path, index);
    }

    #[test]
    fn a_record_that_cannot_be_decoded_is_an_error_not_absence() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (data, index) = written(dir.path(), &["first", "second"]);
        let mut bytes = std::fs::read(&data).expect("read");
        let last = bytes.len() - 1;
        bytes[last] = b'{';
        std::fs::write(&data, bytes).expect("damage");
        let table = Table::<String>::open(&data, &index).expect("lengths still fit");
        assert_eq!(table.get(0).expect("first is intact"), "first");
        let error = table.get(1).expect_err("second is damaged");
        assert_eq!(
            error.problem,
            FileProblem::Record {
                id: 1,
                what: "cannot be decoded"
            }
        );
    }
}
