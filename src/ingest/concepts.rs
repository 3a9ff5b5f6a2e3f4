//! One source's concepts as a reader hands them to the build: held in memory when the source
//! is small, or on disk in IRI order with their children joined on the way out, and always
//! taken a bounded chunk at a time.

use std::io;

use serde::{Deserialize, Serialize};

use super::spill::{Merged, RecordReader, TempFile};
use crate::model::{Concept, Link, RelatedClass};

/// A parent link or a relation seen from its target (`parent`): the concept that states it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct ChildEdge {
    pub parent: String,
    pub child: Inverse,
}

/// What an edge adds to its target: a child, or a class related to it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) enum Inverse {
    Child(Link),
    Related(RelatedClass),
}

/// A source's concepts, sorted by IRI, each with its children.
pub struct SourceConcepts {
    len: usize,
    from: Origin,
}

enum Origin {
    Held(std::vec::IntoIter<Concept>),
    Spilled {
        reader: RecordReader<Concept>,
        edges: Merged<ChildEdge>,
        _file: TempFile,
    },
    Chunks(Box<dyn Iterator<Item = io::Result<Vec<Concept>>> + Send>),
}

impl SourceConcepts {
    /// Concepts already in memory, with their children.
    pub fn held(concepts: Vec<Concept>) -> SourceConcepts {
        SourceConcepts {
            len: concepts.len(),
            from: Origin::Held(concepts.into_iter()),
        }
    }

    /// `len` concepts written to `file` in IRI order without children, joined with `edges`
    /// (every parent link, sorted by parent) as they are read back.
    pub(crate) fn spilled(
        len: usize,
        file: TempFile,
        edges: Merged<ChildEdge>,
    ) -> io::Result<Self> {
        Ok(SourceConcepts {
            len,
            from: Origin::Spilled {
                reader: RecordReader::open(&file.0)?,
                edges,
                _file: file,
            },
        })
    }

    /// `len` concepts produced a chunk at a time by `chunks` (a reused source's old records).
    pub fn from_chunks(
        len: usize,
        chunks: Box<dyn Iterator<Item = io::Result<Vec<Concept>>> + Send>,
    ) -> SourceConcepts {
        SourceConcepts {
            len,
            from: Origin::Chunks(chunks),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next concepts, at most `size` of them (a chunk source gives its own chunks);
    /// `None` when all were taken.
    pub fn next_chunk(&mut self, size: usize) -> Option<io::Result<Vec<Concept>>> {
        match &mut self.from {
            Origin::Held(rest) => {
                let chunk: Vec<Concept> = rest.take(size.max(1)).collect();
                (!chunk.is_empty()).then_some(Ok(chunk))
            }
            Origin::Chunks(chunks) => chunks.next(),
            Origin::Spilled { reader, edges, .. } => {
                let mut chunk = Vec::new();
                while chunk.len() < size.max(1) {
                    match next_joined(reader, edges) {
                        Ok(Some(concept)) => chunk.push(concept),
                        Ok(None) => break,
                        Err(error) => return Some(Err(error)),
                    }
                }
                (!chunk.is_empty()).then_some(Ok(chunk))
            }
        }
    }

    /// Every concept in memory at once: for tests and small sources only.
    pub fn collect_all(mut self) -> io::Result<Vec<Concept>> {
        let mut all = Vec::with_capacity(self.len);
        while let Some(chunk) = self.next_chunk(1 << 16) {
            all.extend(chunk?);
        }
        Ok(all)
    }
}

/// The next spilled concept with its children: the edges whose parent sorts before it name
/// parents outside the source and are passed over, as `fill_children` passes them over.
fn next_joined(
    reader: &mut RecordReader<Concept>,
    edges: &mut Merged<ChildEdge>,
) -> io::Result<Option<Concept>> {
    let Some(mut concept) = reader.next_record()? else {
        return Ok(None);
    };
    while let Some(edge) = edges.peek() {
        match edge.parent.as_str().cmp(concept.iri.as_str()) {
            std::cmp::Ordering::Greater => break,
            order => {
                let taken = edges.next().transpose()?;
                if let (std::cmp::Ordering::Equal, Some(edge)) = (order, taken) {
                    match edge.child {
                        Inverse::Child(link) => concept.children.push(link),
                        Inverse::Related(related) => concept.related_from.push(related),
                    }
                }
            }
        }
    }
    Ok(Some(concept))
}
