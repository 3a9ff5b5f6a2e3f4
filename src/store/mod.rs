//! The RDF store: every triple of every source, in an Oxigraph RocksDB store, one named graph
//! per source release. The only module that opens the store or evaluates SPARQL.

mod algebra;
mod query;
mod shape;

pub use shape::GraphShape;

pub use query::{
    AnswerTerm, MAX_COUNTED_ROWS, MAX_QUERY_BYTES, QueryDataset, QueryFailure, QueryForm,
    QueryRefusal, QueryRows, ReadOnlyQuery, TermKind, parse_read_only,
};

use std::path::Path;

use oxigraph::model::{GraphName, NamedNode, Quad, Triple};
use oxigraph::store::{StorageError, Store};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("RDF store: {0}")]
    Storage(#[from] StorageError),
    #[error("RDF store: invalid graph name: {0}")]
    GraphName(String),
    #[error("RDF store: copying the installed store: {0}")]
    Copy(String),
}

/// Copies a closed RocksDB directory: table files as hard links, the rest as copies; the lock
/// and the info logs are the old store's own.
fn copy_store_files(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir(to)?;
    let mut entries = std::fs::read_dir(from)?.collect::<Result<Vec<_>, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        let text = name.to_string_lossy();
        if text == "LOCK" || text.starts_with("LOG") || !entry.file_type()?.is_file() {
            continue;
        }
        let target = to.join(&name);
        if text.ends_with(".sst") && std::fs::hard_link(entry.path(), &target).is_ok() {
            continue;
        }
        std::fs::copy(entry.path(), &target)?;
    }
    Ok(())
}

/// The named graph holding one source release.
pub fn graph_iri(source_id: &str, release: &str) -> String {
    let mut release_part = String::with_capacity(release.len());
    for b in release.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            release_part.push(b as char);
        } else {
            release_part.push_str(&format!("%{b:02X}"));
        }
    }
    format!("urn:ontoresolve:graph:{source_id}:{release_part}")
}

/// A store being written by a build.
pub struct StoreWriter {
    store: Store,
    /// Each loaded graph's shape, by graph IRI.
    shapes: std::sync::Mutex<std::collections::BTreeMap<String, GraphShape>>,
    /// Whether `finish` compacts: a new store does; a copy of an installed one keeps its
    /// compacted files, which a compaction would rewrite whole.
    compact: bool,
    /// Graphs copied from the installed store: loading one again only walks its triples.
    kept: std::collections::BTreeSet<String>,
}

impl StoreWriter {
    pub fn create(path: &Path) -> Result<Self, StoreError> {
        Ok(StoreWriter {
            store: Store::open(path)?,
            shapes: Default::default(),
            compact: true,
            kept: Default::default(),
        })
    }

    /// A store at `path` holding the graphs `keep` of the installed store at `installed`,
    /// whose shapes are `shapes`. The installed store is never opened: its files are
    /// immutable once its build is installed, so its table files are hard-linked (copied
    /// across file systems) and the small rest is copied, as a RocksDB checkpoint would.
    pub fn from_installed(
        installed: &Path,
        path: &Path,
        keep: &std::collections::BTreeSet<String>,
        shapes: std::collections::BTreeMap<String, GraphShape>,
    ) -> Result<Self, StoreError> {
        copy_store_files(installed, path).map_err(|e| StoreError::Copy(e.to_string()))?;
        let store = Store::open(path)?;
        let graphs = store.named_graphs().collect::<Result<Vec<_>, _>>()?;
        for graph in graphs {
            let name = match &graph {
                oxigraph::model::NamedOrBlankNode::NamedNode(n) => n.as_str(),
                oxigraph::model::NamedOrBlankNode::BlankNode(b) => b.as_str(),
            };
            if !keep.contains(name) {
                store.remove_named_graph(&graph)?;
            }
        }
        Ok(StoreWriter {
            store,
            shapes: std::sync::Mutex::new(shapes),
            compact: false,
            kept: keep.clone(),
        })
    }

    /// Loads one source's triples into `graph` atomically: if the stream fails part-way,
    /// nothing of it is committed.
    pub fn load_graph<E>(
        &self,
        graph: &str,
        triples: impl IntoIterator<Item = Result<Triple, E>>,
    ) -> Result<(), LoadError<E>> {
        let graph = NamedNode::new(graph)
            .map_err(|e| LoadError::Store(StoreError::GraphName(e.to_string())))?;
        let graph_name = graph.as_str().to_string();
        if self.kept.contains(&graph_name) {
            // The same triples are already there; the caller's reading still runs to the end,
            // so its errors and counts are as for a load.
            for triple in triples {
                triple.map_err(LoadError::Input)?;
            }
            return Ok(());
        }
        let graph = GraphName::NamedNode(graph);
        let mut counter = shape::ShapeCounter::default();
        let mut loader = self
            .store
            .bulk_loader()
            .with_max_memory_size_in_megabytes(512);
        loader.load_ok_quads::<LoadError<E>, LoadError<E>>(triples.into_iter().map(|t| {
            t.map(|t| {
                counter.count(&t);
                Quad::new(t.subject, t.predicate, t.object, graph.clone())
            })
            .map_err(LoadError::Input)
        }))?;
        loader.commit().map_err(|e| LoadError::Store(e.into()))?;
        let mut shapes = match self.shapes.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        shapes.insert(graph_name, counter.finish());
        Ok(())
    }

    /// Flushes and compacts: the bulk loader leaves many small files behind, and a compacted
    /// store is several times smaller on disk and faster to open.
    /// Returns each loaded graph's shape.
    pub fn finish(self) -> Result<std::collections::BTreeMap<String, GraphShape>, StoreError> {
        self.store.flush()?;
        if self.compact {
            self.store.optimize()?;
        }
        Ok(match self.shapes.into_inner() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        })
    }
}

/// Why loading a graph stopped: the input or the store.
#[derive(Debug)]
pub enum LoadError<E> {
    Input(E),
    Store(StoreError),
}

impl<E> From<StorageError> for LoadError<E> {
    fn from(e: StorageError) -> Self {
        LoadError::Store(e.into())
    }
}

/// A built store opened read-only; several processes may share it.
#[derive(Clone)]
pub struct StoreReader {
    store: Store,
}

impl StoreReader {
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Ok(StoreReader {
            store: Store::open_read_only(path)?,
        })
    }

    /// Number of quads in a named graph.
    pub fn graph_len(&self, graph: &str) -> Result<usize, StoreError> {
        let graph = NamedNode::new(graph).map_err(|e| StoreError::GraphName(e.to_string()))?;
        let mut n = 0;
        for quad in self
            .store
            .quads_for_pattern(None, None, None, Some(graph.as_ref().into()))
        {
            quad?;
            n += 1;
        }
        Ok(n)
    }

    /// The triples with `iri` as subject in `graph`, as Turtle.
    pub fn subject_turtle(&self, iri: &str, graph: &str) -> Result<String, StoreError> {
        let subject = NamedNode::new(iri).map_err(|e| StoreError::GraphName(e.to_string()))?;
        let graph = NamedNode::new(graph).map_err(|e| StoreError::GraphName(e.to_string()))?;
        let mut serializer = oxttl::TurtleSerializer::new()
            .with_prefix("rdfs", "http://www.w3.org/2000/01/rdf-schema#")
            .and_then(|s| s.with_prefix("owl", "http://www.w3.org/2002/07/owl#"))
            .and_then(|s| s.with_prefix("skos", "http://www.w3.org/2004/02/skos/core#"))
            .and_then(|s| {
                s.with_prefix("oboInOwl", "http://www.geneontology.org/formats/oboInOwl#")
            })
            .and_then(|s| s.with_prefix("obo", "http://purl.obolibrary.org/obo/"))
            .map_err(|e| StoreError::GraphName(e.to_string()))?
            .for_writer(Vec::new());
        for quad in self.store.quads_for_pattern(
            Some(subject.as_ref().into()),
            None,
            None,
            Some(graph.as_ref().into()),
        ) {
            let quad = quad?;
            serializer
                .serialize_triple(oxigraph::model::TripleRef::new(
                    quad.subject.as_ref(),
                    quad.predicate.as_ref(),
                    quad.object.as_ref(),
                ))
                .map_err(|e| StoreError::Storage(StorageError::Io(e)))?;
        }
        let bytes = serializer
            .finish()
            .map_err(|e| StoreError::Storage(StorageError::Io(e)))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Runs a SPARQL SELECT and returns its rows as variable → term strings, in order.
    pub fn select(&self, query: &str) -> Result<Vec<Vec<(String, String)>>, SparqlError> {
        use oxigraph::sparql::{QueryResults, SparqlEvaluator};
        let results = SparqlEvaluator::new()
            .parse_query(query)
            .map_err(|e| SparqlError::Parse(e.to_string()))?
            .on_store(&self.store)
            .execute()
            .map_err(|e| SparqlError::Evaluation(e.to_string()))?;
        let QueryResults::Solutions(solutions) = results else {
            return Err(SparqlError::NotSelect);
        };
        let mut rows = Vec::new();
        for solution in solutions {
            let solution = solution.map_err(|e| SparqlError::Evaluation(e.to_string()))?;
            rows.push(
                solution
                    .iter()
                    .map(|(var, term)| (var.as_str().to_string(), term.to_string()))
                    .collect(),
            );
        }
        Ok(rows)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SparqlError {
    #[error("SPARQL syntax error: {0}")]
    Parse(String),
    #[error("SPARQL evaluation failed: {0}")]
    Evaluation(String),
    #[error("only SELECT queries are supported here")]
    NotSelect,
}
