//! Reading one RDF or OBO source: the parser thread streams triples to the concept extractor
//! and, over a bounded channel, to the store's bulk loader on the other core.

use std::fs;
use std::io::{self, Read, Seek};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use oxrdf::Triple;
use sha2::{Digest, Sha256};

use super::{BuildError, BuildObserver, hex, source_record};
use crate::catalog::{Format, SourceKind, SourceSpec};
use crate::index::manifest::{InputFile, ReleaseOrigin, SourceRecord};
use crate::ingest::mesh_rdf::{MeshRdf, unversioned_triple};
use crate::ingest::{
    self, Extractor, FileRelease, IngestError, Profile, SourceConcepts, StatedRelease, TripleSink,
};
use crate::model::{ConceptKind, Prefixes, SourceIdx};
use crate::store::{LoadError, StoreWriter, graph_iri};

/// Triples held back while the release is not yet known; bounds memory on any input.
const RELEASE_WINDOW: usize = 200_000;
const BATCH: usize = 16_384;
const PROGRESS_EVERY: u64 = 65_536;

/// Hashes the raw bytes of a file as the parser reads them.
struct HashingReader {
    file: fs::File,
    state: Arc<Mutex<Sha256>>,
    read: Arc<AtomicU64>,
}

impl Read for HashingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        if let Ok(mut state) = self.state.lock() {
            state.update(&buf[..n]);
        }
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

pub(super) enum Message {
    Graph(String),
    Triples(Vec<Triple>),
    End,
    Abort,
}

struct BuildSink<'a> {
    extractor: Extractor<'a>,
    tx: SyncSender<Message>,
    source_id: &'a str,
    catalogue_release: Option<&'a str>,
    release: Option<(String, ReleaseOrigin)>,
    pending: Vec<Triple>,
    bytes_read: Arc<AtomicU64>,
    observer: &'a dyn BuildObserver,
    /// MeSH: the store gets year-versioned IRIs unversioned, as the index names the nodes.
    unversion_mesh: bool,
}

/// A source's release: the one its file states, else the catalogue's, else "unknown".
pub(super) fn settled_release(
    stated: Option<FileRelease>,
    catalogue: Option<&str>,
) -> (String, ReleaseOrigin) {
    match (stated, catalogue) {
        (Some(found), _) => (
            found.value,
            ReleaseOrigin::File {
                property: found.property,
            },
        ),
        (None, Some(r)) => (r.to_string(), ReleaseOrigin::Catalogue),
        (None, None) => ("unknown".to_string(), ReleaseOrigin::Unknown),
    }
}

impl BuildSink<'_> {
    fn send(&self, message: Message) -> Result<(), IngestError> {
        self.tx
            .send(message)
            .map_err(|_| IngestError::Stopped("the RDF store stopped accepting triples".into()))
    }

    /// Fixes the release (from the file, else the catalogue) and names the graph.
    fn settle(&mut self) -> Result<(), IngestError> {
        let (release, origin) =
            settled_release(self.extractor.settle_now(), self.catalogue_release);
        self.send(Message::Graph(graph_iri(self.source_id, &release)))?;
        self.release = Some((release, origin));
        let pending = std::mem::take(&mut self.pending);
        for chunk in pending.chunks(BATCH) {
            self.send(Message::Triples(chunk.to_vec()))?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), IngestError> {
        if self.release.is_none() {
            self.settle()?;
        }
        let rest = std::mem::take(&mut self.pending);
        if !rest.is_empty() {
            self.send(Message::Triples(rest))?;
        }
        self.send(Message::End)
    }
}

impl TripleSink for BuildSink<'_> {
    fn triple(&mut self, triple: Triple) -> Result<(), IngestError> {
        self.extractor.observe(&triple);
        let triple = if self.unversion_mesh {
            unversioned_triple(triple)
        } else {
            triple
        };
        self.pending.push(triple);
        if self.release.is_none() {
            if self.extractor.settled_release().is_some() || self.pending.len() >= RELEASE_WINDOW {
                self.settle()?;
            }
        } else if self.pending.len() >= BATCH {
            let batch = std::mem::replace(&mut self.pending, Vec::with_capacity(BATCH));
            self.send(Message::Triples(batch))?;
        }
        let n = self.extractor.triples();
        if n.is_multiple_of(PROGRESS_EVERY) {
            self.observer.source_progress(
                self.source_id,
                self.bytes_read.load(Ordering::Relaxed),
                n,
            );
        }
        Ok(())
    }

    fn stated_release(&mut self, release: StatedRelease) {
        self.extractor.stated_release(release);
    }
}

/// The store's view of the channel: triples until `End`; anything else fails the load so that
/// nothing of a broken source is committed.
pub(super) struct Incoming {
    rx: Receiver<Message>,
    buffer: std::vec::IntoIter<Triple>,
    done: bool,
}

#[derive(Debug)]
pub(super) struct Aborted;

impl Iterator for Incoming {
    type Item = Result<Triple, Aborted>;
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(t) = self.buffer.next() {
                return Some(Ok(t));
            }
            if self.done {
                return None;
            }
            match self.rx.recv() {
                Ok(Message::Triples(batch)) => self.buffer = batch.into_iter(),
                Ok(Message::End) => {
                    self.done = true;
                    return None;
                }
                Ok(Message::Graph(_)) | Ok(Message::Abort) | Err(_) => {
                    self.done = true;
                    return Some(Err(Aborted));
                }
            }
        }
    }
}

pub(super) fn ingest_source(
    idx: SourceIdx,
    spec: &SourceSpec,
    file: &Path,
    prefixes: &dyn Prefixes,
    store: &StoreWriter,
    spill_dir: &Path,
    observer: &dyn BuildObserver,
) -> Result<(SourceRecord, SourceConcepts), BuildError> {
    let source_err = |error: IngestError| BuildError::Source {
        id: spec.id.clone(),
        error,
    };
    let io_source = |source: io::Error| {
        source_err(IngestError::Io {
            file: file.to_path_buf(),
            source,
        })
    };
    let format = spec.format().ok_or_else(|| {
        source_err(IngestError::Invalid {
            file: file.to_path_buf(),
            message: "unknown format".into(),
        })
    })?;
    let file_bytes = fs::metadata(file).map_err(io_source)?.len();
    observer.source_started(&spec.id, file_bytes);

    let hash = Arc::new(Mutex::new(Sha256::new()));
    let bytes_read = Arc::new(AtomicU64::new(0));
    let raw = HashingReader {
        file: fs::File::open(file).map_err(io_source)?,
        state: hash.clone(),
        read: bytes_read.clone(),
    };
    let input = ingest::input::open_reader(raw).map_err(io_source)?;

    let extractor =
        extractor_for(idx, spec, prefixes).with_spill(spill_dir, ingest::SPILL_CONCEPTS);
    let opened = Opened {
        input,
        file,
        format,
        bytes_read: &bytes_read,
    };
    let (extractor, release, graph) =
        parse_and_load(spec, opened, extractor, prefixes, store, observer)?;
    let (release, release_origin) =
        release.unwrap_or_else(|| ("unknown".to_string(), ReleaseOrigin::Unknown));

    let sha256 = whole_file_digest(&hash, bytes_read.load(Ordering::Relaxed), file_bytes, file)
        .map_err(io_source)?;
    let ontology_iri = extractor.ontology_iri();
    let (concepts, stats) = extractor.finish().map_err(|e| BuildError::Io {
        context: format!(
            "{}: spilling its concepts under {}",
            spec.id,
            spill_dir.display()
        ),
        source: e,
    })?;
    let files = vec![InputFile {
        path: spec.path.display().to_string(),
        bytes: file_bytes,
        sha256,
    }];
    let mut record = source_record(
        spec,
        format,
        (release, release_origin),
        graph,
        files,
        stats,
        0,
    );
    record.ontology_iri = ontology_iri;
    Ok((record, concepts))
}

/// What a parsed source leaves: its extractor (holding the concepts), the release settled
/// from the file, and the graph its triples were loaded into.
type Parsed<'a> = (Extractor<'a>, Option<(String, ReleaseOrigin)>, String);

/// An opened input file, counting the bytes read for progress.
struct Opened<'f> {
    input: Box<dyn io::BufRead + Send>,
    file: &'f Path,
    format: Format,
    bytes_read: &'f Arc<AtomicU64>,
}

/// Parses the file on one thread while the other loads its triples into the store: the
/// extractor holding the concepts, the release settled from the file, and the graph loaded.
fn parse_and_load<'a>(
    spec: &'a SourceSpec,
    opened: Opened<'_>,
    extractor: Extractor<'a>,
    prefixes: &dyn Prefixes,
    store: &StoreWriter,
    observer: &'a dyn BuildObserver,
) -> Result<Parsed<'a>, BuildError> {
    let source_err = |error: IngestError| BuildError::Source {
        id: spec.id.clone(),
        error,
    };
    let Opened {
        input,
        file,
        format,
        bytes_read,
    } = opened;
    let (tx, rx) = sync_channel::<Message>(8);
    let (parsed, loaded) = std::thread::scope(|scope| {
        let parser = scope.spawn(|| {
            let mut sink = BuildSink {
                extractor,
                tx,
                source_id: &spec.id,
                catalogue_release: spec.release.as_deref(),
                release: None,
                pending: Vec::new(),
                bytes_read: bytes_read.clone(),
                observer,
                unversion_mesh: spec.kind == SourceKind::Mesh,
            };
            let result = ingest::parse(
                input,
                file,
                format,
                spec.base_iri.as_deref(),
                prefixes,
                &mut sink,
            )
            .and_then(|()| sink.finish());
            if result.is_err() {
                let _ = sink.tx.send(Message::Abort);
            }
            result.map(|()| (sink.extractor, sink.release))
        });
        let loaded = load_streamed(rx, store);
        let parsed = parser.join();
        (parsed, loaded)
    });
    // A store failure closes the channel, so the parser sees only "stopped": report the cause.
    let graph = match loaded {
        Ok(graph) => Some(graph),
        Err(LoadError::Store(error)) => {
            return Err(BuildError::SourceStore {
                id: spec.id.clone(),
                error,
            });
        }
        Err(LoadError::Input(Aborted)) => None,
    };
    let Ok(parsed) = parsed else {
        return Err(source_err(IngestError::Stopped(
            "the parser thread failed".into(),
        )));
    };
    let (extractor, release) = parsed.map_err(source_err)?;
    let Some(graph) = graph.filter(|g| !g.is_empty()) else {
        return Err(source_err(IngestError::Stopped(
            "the triple stream ended early".into(),
        )));
    };
    Ok((extractor, release, graph))
}

/// The loader's side of the channel: the first message names the graph, the rest stream its
/// triples into the store. The graph's name, or `Aborted` when the parser stopped first.
fn load_streamed(rx: Receiver<Message>, store: &StoreWriter) -> Result<String, LoadError<Aborted>> {
    match rx.recv() {
        Ok(Message::Graph(graph)) => {
            let incoming = Incoming {
                rx,
                buffer: Vec::new().into_iter(),
                done: false,
            };
            store.load_graph(&graph, incoming).map(|()| graph)
        }
        _ => Err(LoadError::Input(Aborted)),
    }
}

/// The extractor for a source's kind: MeSH's RDF has a profile of its own.
fn extractor_for<'a>(
    idx: SourceIdx,
    spec: &SourceSpec,
    prefixes: &'a dyn Prefixes,
) -> Extractor<'a> {
    let namespaces = spec.prefixes.iter().map(|p| p.uri_prefix.clone()).collect();
    let (profile, kind) = match spec.kind {
        SourceKind::Mesh => (
            Profile::Mesh(Box::new(MeshRdf::new(idx))),
            ConceptKind::Descriptor,
        ),
        SourceKind::Skos => (Profile::Generic, ConceptKind::Concept),
        SourceKind::Obo | SourceKind::Owl | SourceKind::Gene | SourceKind::Sssom => {
            (Profile::Generic, ConceptKind::Class)
        }
    };
    Extractor::new(idx, ingest::concept_types(spec), namespaces, prefixes)
        .with_profile(profile, kind)
}

/// The SHA-256 of the whole file, from the digest of what the parser read. Parsers may stop
/// before the end (trailing bytes after an XML root), so the rest is read and hashed here.
fn whole_file_digest(
    hash: &Mutex<Sha256>,
    consumed: u64,
    file_bytes: u64,
    file: &Path,
) -> io::Result<String> {
    let mut hasher = hash.lock().map(|h| h.clone()).unwrap_or_default();
    if consumed < file_bytes {
        let mut f = fs::File::open(file)?;
        f.seek(io::SeekFrom::Start(consumed))?;
        io::copy(&mut f, &mut hasher)?;
    }
    Ok(hex(&hasher.finalize()))
}
