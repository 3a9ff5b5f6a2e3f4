//! `ontoresolve build`: source catalogue → parse (one pass per file) → RDF store, concept table,
//! FST lexicons, full-text index and manifest, written into a temporary directory and switched
//! into place atomically.

use std::fs;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use oxigraph::model::Triple;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::catalog::{Catalog, CatalogError, RegistrySpec, SourceSpec};
use crate::index::manifest::{
    BuildTime, Counts, IdShape, InputFile, MAX_TOP_CONCEPTS, RegistryRecord, RegistrySource,
    ReleaseOrigin, SkippedSource, SourceCounts, SourceRecord,
};
use crate::index::normalize::{id_key, label_key};
use crate::index::{
    BuildLayout, CURRENT, FORMAT_VERSION, FullTextWriter, LexiconWriter, Manifest, Posting,
    TableWriter,
};
use crate::ingest::{self, Extractor, IngestError, StatedRelease, TripleSink};
use crate::model::{Concept, PrefixMap, PrefixRule, Prefixes, SourceIdx, obo_purl};
use crate::registry::{Registry, RegistryData, RegistryError, load_bioregistry};
use crate::store::{LoadError, StoreError, StoreWriter, graph_iri};

/// Triples held back while the release is not yet known; bounds memory on any input.
const RELEASE_WINDOW: usize = 200_000;
const BATCH: usize = 16_384;
const PROGRESS_EVERY: u64 = 65_536;

/// How each identifier key was spelled, kept as the id lexicon's posting detail.
pub mod spelling {
    pub const IRI: u16 = 0;
    pub const CURIE: u16 = 1;
    pub const UNDERSCORE: u16 = 2;
    pub const LOCAL_ID: u16 = 3;
    pub const ALT_ID: u16 = 4;
}

#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub catalog: PathBuf,
    pub index_dir: PathBuf,
    pub keep_going: bool,
}

/// What the build reports while it runs; the CLI draws progress bars from it.
pub trait BuildObserver: Sync {
    fn source_started(&self, _id: &str, _file_bytes: u64) {}
    fn source_progress(&self, _id: &str, _bytes_read: u64, _triples: u64) {}
    fn source_finished(&self, _id: &str, _record: &SourceRecord, _seconds: f64) {}
    fn source_skipped(&self, _id: &str, _reason: &str) {}
    fn stage(&self, _name: &str) {}
}

/// An observer that reports nothing.
pub struct Silent;
impl BuildObserver for Silent {}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error("prefix registry: {0}")]
    Registry(#[from] RegistryError),
    #[error("source '{id}': {error}")]
    Source { id: String, error: IngestError },
    #[error("source '{id}': file {} is missing", path.display())]
    MissingFile { id: String, path: PathBuf },
    #[error("source '{id}': {error}")]
    SourceStore { id: String, error: StoreError },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: io::Error,
    },
    #[error("full-text index: {0}")]
    FullText(#[from] crate::index::fulltext::FullTextError),
    #[error("no source could be built")]
    Empty,
    #[error("the index would hold {0}")]
    TooLarge(&'static str),
    #[error("another build is writing {}; wait for it to finish", .0.display())]
    Busy(PathBuf),
}

fn io_err(context: impl Into<String>) -> impl FnOnce(io::Error) -> BuildError {
    let context = context.into();
    move |source| BuildError::Io { context, source }
}

/// A finished build.
#[derive(Debug)]
pub struct BuildSummary {
    pub manifest: Manifest,
    pub dir: PathBuf,
}

/// Removes the temporary directory unless the build completed.
struct TempDir {
    path: PathBuf,
    keep: bool,
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

pub fn build(
    options: &BuildOptions,
    observer: &dyn BuildObserver,
) -> Result<BuildSummary, BuildError> {
    let started = Instant::now();
    let catalog = Catalog::load(&options.catalog)?;
    let index_dir = &options.index_dir;
    fs::create_dir_all(index_dir).map_err(io_err(format!("creating {}", index_dir.display())))?;
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(index_dir.join(".build.lock"))
        .map_err(io_err("opening the build lock"))?;
    if lock.try_lock().is_err() {
        return Err(BuildError::Busy(index_dir.clone()));
    }
    remove_stale_temp_dirs(index_dir);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut temp = TempDir {
        path: index_dir.join(format!(".tmp-build-{}-{nanos}", std::process::id())),
        keep: false,
    };
    fs::create_dir(&temp.path).map_err(io_err(format!("creating {}", temp.path.display())))?;
    let layout = BuildLayout::new(&temp.path);

    let (registry_record, registry) = build_registry(&catalog, &layout, observer)?;
    let prefixes: &dyn Prefixes = &registry;
    let store = StoreWriter::create(&layout.store())?;
    let mut records = Vec::new();
    let mut skipped = Vec::new();
    let mut all_concepts: Vec<Vec<Concept>> = Vec::new();
    for spec in &catalog.sources {
        let file = catalog.file(spec);
        if !file.is_file() {
            if !spec.bundled {
                let reason = format!(
                    "not downloaded: run `scripts/fetch-source {}` to fetch it from {}",
                    spec.id,
                    spec.url.as_deref().unwrap_or("its homepage")
                );
                observer.source_skipped(&spec.id, &reason);
                skipped.push(SkippedSource {
                    id: spec.id.clone(),
                    reason,
                });
                continue;
            }
            let error = BuildError::MissingFile {
                id: spec.id.clone(),
                path: spec.path.clone(),
            };
            if options.keep_going {
                observer.source_skipped(&spec.id, &error.to_string());
                skipped.push(SkippedSource {
                    id: spec.id.clone(),
                    reason: error.to_string(),
                });
                continue;
            }
            return Err(error);
        }
        let Ok(idx) = SourceIdx::try_from(records.len()) else {
            return Err(BuildError::TooLarge("more than 65,535 sources"));
        };
        let source_started = Instant::now();
        match ingest_source(idx, spec, &file, prefixes, &store, observer) {
            Ok((record, concepts)) => {
                observer.source_finished(&spec.id, &record, source_started.elapsed().as_secs_f64());
                records.push(record);
                all_concepts.push(concepts);
            }
            Err(error) if options.keep_going => {
                observer.source_skipped(&spec.id, &error.to_string());
                skipped.push(SkippedSource {
                    id: spec.id.clone(),
                    reason: error.to_string(),
                });
            }
            Err(error) => return Err(error),
        }
    }
    if records.is_empty() {
        return Err(BuildError::Empty);
    }
    observer.stage("flushing the RDF store");
    store.finish()?;

    let mut first = 0u32;
    for (record, concepts) in records.iter_mut().zip(&all_concepts) {
        record.first_concept = first;
        record.top_concepts = top_concepts(concepts);
        record.id_shapes = id_shapes(concepts);
        first = u32::try_from(concepts.len())
            .ok()
            .and_then(|n| first.checked_add(n))
            .ok_or(BuildError::TooLarge("more than 4,294,967,295 concepts"))?;
    }
    let counts = write_indexes(&layout, &records, &all_concepts, prefixes, observer)?;

    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        build_id: build_id(&catalog, &records, &registry_record),
        sources: records,
        skipped,
        prefixes: declared_prefixes(&catalog),
        registry: registry_record,
        counts,
        built: BuildTime {
            finished_unix: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            seconds: (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
        },
    };
    manifest
        .write(&layout.manifest())
        .map_err(io_err("writing the manifest"))?;

    observer.stage("switching the index into place");
    let dir = install(index_dir, &temp.path, &manifest)?;
    temp.keep = true;
    Ok(BuildSummary { manifest, dir })
}

/// The prefix map from every source's declared prefixes, in catalogue order.
fn catalog_prefixes(catalog: &Catalog) -> PrefixMap {
    PrefixMap::new(
        catalog
            .sources
            .iter()
            .flat_map(|s| s.prefixes.iter().cloned()),
    )
}

/// Reads the registry inputs, merges the catalogue's prefixes, writes the registry files into
/// the build and opens them: ingest turns IRIs into CURIEs through the same registry that
/// answers queries.
fn build_registry(
    catalog: &Catalog,
    layout: &BuildLayout,
    observer: &dyn BuildObserver,
) -> Result<(RegistryRecord, Registry), BuildError> {
    let (mut data, source) = match &catalog.registry {
        Some(spec) => {
            observer.stage("reading the prefix registry");
            let (data, source) = read_registry(catalog, spec)?;
            (data, Some(source))
        }
        None => (RegistryData::default(), None),
    };
    for spec in &catalog.sources {
        for rule in &spec.prefixes {
            data.add_catalogue_prefix(&spec.id, rule);
        }
    }
    let (records, spellings, uris) = data.finish();
    let counts = crate::index::registry::write(layout, &records, spellings, uris)
        .map_err(io_err("writing the prefix registry"))?;
    let registry = Registry::open(layout).map_err(io_err("opening the prefix registry"))?;
    Ok((RegistryRecord { source, counts }, registry))
}

fn read_registry(
    catalog: &Catalog,
    spec: &RegistrySpec,
) -> Result<(RegistryData, RegistrySource), BuildError> {
    let json_path = catalog.resolve(&spec.json);
    let map_path = catalog.resolve(&spec.prefix_map);
    let open = |path: &Path| -> Result<Box<dyn io::BufRead + Send>, BuildError> {
        let file = fs::File::open(path).map_err(|source| RegistryError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        ingest::input::open_reader(file).map_err(|source| {
            BuildError::Registry(RegistryError::Io {
                path: path.to_path_buf(),
                source,
            })
        })
    };
    let data = load_bioregistry(
        open(&json_path)?,
        &spec.json,
        open(&map_path)?,
        &spec.prefix_map,
    )?;
    let files = [(&spec.json, &json_path), (&spec.prefix_map, &map_path)]
        .into_iter()
        .map(|(written, path)| input_file(written, path))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((
        data,
        RegistrySource {
            id: spec.id.clone(),
            title: spec.title.clone(),
            release: spec.release.clone(),
            files,
            license: spec.license.clone(),
            attribution: spec.attribution.clone(),
            homepage: spec.homepage.clone(),
            url: spec.url.clone(),
        },
    ))
}

/// A file's size and checksum, for the manifest.
fn input_file(written: &Path, path: &Path) -> Result<InputFile, BuildError> {
    let context = format!("reading {}", path.display());
    let mut file = fs::File::open(path).map_err(io_err(context.clone()))?;
    let mut hasher = Sha256::new();
    let bytes = io::copy(&mut file, &mut hasher).map_err(io_err(context))?;
    Ok(InputFile {
        path: written.display().to_string(),
        bytes,
        sha256: hex(&hasher.finalize()),
    })
}

fn build_id(catalog: &Catalog, records: &[SourceRecord], registry: &RegistryRecord) -> String {
    let mut hasher = Sha256::new();
    hasher.update(FORMAT_VERSION.to_le_bytes());
    if let Some(source) = &registry.source {
        hasher.update(source.release.as_bytes());
        for file in &source.files {
            hasher.update(file.sha256.as_bytes());
        }
    }
    for record in records {
        if let Some(spec) = catalog.sources.iter().find(|s| s.id == record.id) {
            hasher.update(serde_json::to_vec(spec).unwrap_or_default());
        }
        hasher.update(record.file.sha256.as_bytes());
        hasher.update(record.release.as_bytes());
    }
    hex(&hasher.finalize())[..16].to_string()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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

enum Message {
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
}

impl BuildSink<'_> {
    fn send(&self, message: Message) -> Result<(), IngestError> {
        self.tx
            .send(message)
            .map_err(|_| IngestError::Stopped("the RDF store stopped accepting triples".into()))
    }

    /// Fixes the release (from the file, else the catalogue) and names the graph.
    fn settle(&mut self) -> Result<(), IngestError> {
        let (release, origin) = match self.extractor.settle_now() {
            Some(found) => (
                found.value,
                ReleaseOrigin::File {
                    property: found.property,
                },
            ),
            None => match self.catalogue_release {
                Some(r) => (r.to_string(), ReleaseOrigin::Catalogue),
                None => ("unknown".to_string(), ReleaseOrigin::Unknown),
            },
        };
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
struct Incoming {
    rx: Receiver<Message>,
    buffer: std::vec::IntoIter<Triple>,
    done: bool,
}

#[derive(Debug)]
struct Aborted;

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

fn ingest_source(
    idx: SourceIdx,
    spec: &SourceSpec,
    file: &Path,
    prefixes: &dyn Prefixes,
    store: &StoreWriter,
    observer: &dyn BuildObserver,
) -> Result<(SourceRecord, Vec<Concept>), BuildError> {
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

    let namespaces = spec.prefixes.iter().map(|p| p.uri_prefix.clone()).collect();
    let extractor = Extractor::new(idx, spec.concept_types(), namespaces, prefixes);
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
        let loaded = match rx.recv() {
            Ok(Message::Graph(graph)) => {
                let incoming = Incoming {
                    rx,
                    buffer: Vec::new().into_iter(),
                    done: false,
                };
                store.load_graph(&graph, incoming).map(|()| graph)
            }
            _ => {
                drop(rx);
                Err(LoadError::Input(Aborted))
            }
        };
        let parsed = parser.join();
        (parsed, loaded)
    });
    // A store failure closes the channel, so the parser sees only "stopped": report the cause.
    let graph = match loaded {
        Ok(graph) => graph,
        Err(LoadError::Store(error)) => {
            return Err(BuildError::SourceStore {
                id: spec.id.clone(),
                error,
            });
        }
        Err(LoadError::Input(Aborted)) => String::new(),
    };
    let (extractor, release) = match parsed {
        Ok(result) => result.map_err(source_err)?,
        Err(_) => {
            return Err(source_err(IngestError::Stopped(
                "the parser thread failed".into(),
            )));
        }
    };
    if graph.is_empty() {
        return Err(source_err(IngestError::Stopped(
            "the triple stream ended early".into(),
        )));
    }
    let (release, release_origin) =
        release.unwrap_or_else(|| ("unknown".to_string(), ReleaseOrigin::Unknown));

    // Parsers may stop before the end (trailing bytes after an XML root); hash the rest.
    let mut hasher = hash.lock().map(|h| h.clone()).unwrap_or_default();
    let consumed = bytes_read.load(Ordering::Relaxed);
    if consumed < file_bytes {
        let mut f = fs::File::open(file).map_err(io_source)?;
        f.seek(io::SeekFrom::Start(consumed)).map_err(io_source)?;
        io::copy(&mut f, &mut hasher).map_err(io_source)?;
    }

    let (concepts, stats) = extractor.finish();
    let record = SourceRecord {
        id: spec.id.clone(),
        title: spec.title.clone(),
        kind: format!("{:?}", spec.kind).to_lowercase(),
        format: spec
            .format
            .clone()
            .unwrap_or_else(|| format!("{format:?}").to_lowercase()),
        release,
        release_origin,
        graph,
        file: InputFile {
            path: spec.path.display().to_string(),
            bytes: file_bytes,
            sha256: hex(&hasher.finalize()),
        },
        license: spec.license.clone(),
        attribution: spec.attribution.clone(),
        homepage: spec.homepage.clone(),
        scope: spec.scope.clone(),
        url: spec.url.clone(),
        first_concept: 0,
        top_concepts: Vec::new(),
        id_shapes: Vec::new(),
        counts: SourceCounts {
            triples: stats.triples,
            concepts: stats.concepts,
            obsolete: stats.obsolete,
            labels: stats.labels,
            definitions: stats.definitions,
            parent_links: stats.parent_links,
            xrefs: stats.xrefs,
            replacements: stats.replacements,
        },
    };
    Ok((record, concepts))
}

/// SKOS top concepts if the source marks any, else live concepts without parents.
fn top_concepts(concepts: &[Concept]) -> Vec<String> {
    let marked: Vec<String> = concepts
        .iter()
        .filter(|c| c.top_concept)
        .map(|c| c.iri.clone())
        .take(MAX_TOP_CONCEPTS)
        .collect();
    if !marked.is_empty() {
        return marked;
    }
    concepts
        .iter()
        .filter(|c| c.parents.is_empty() && !c.obsolete)
        .map(|c| c.iri.clone())
        .take(MAX_TOP_CONCEPTS)
        .collect()
}

/// The shape of local ids per prefix, learned from the concepts' CURIEs.
fn id_shapes(concepts: &[Concept]) -> Vec<IdShape> {
    let mut by_prefix: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for curie in concepts.iter().filter_map(|c| c.curie.as_deref()) {
        if let Some((prefix, local)) = curie.split_once(':') {
            by_prefix.entry(prefix).or_default().push(local);
        }
    }
    by_prefix
        .into_iter()
        .filter_map(|(prefix, locals)| IdShape::observe(prefix, locals))
        .collect()
}

/// Every spelling under which a concept's identifier may be looked up.
pub fn id_keys(concept: &Concept, prefixes: &dyn Prefixes) -> Vec<(String, u16)> {
    let mut keys = vec![(id_key(&concept.iri), spelling::IRI)];
    if let Some(curie) = &concept.curie {
        keys.push((id_key(curie), spelling::CURIE));
        if let Some((prefix, local)) = curie.split_once(':') {
            keys.push((id_key(&format!("{prefix}_{local}")), spelling::UNDERSCORE));
            keys.push((id_key(local), spelling::LOCAL_ID));
        }
    }
    for alt in &concept.alt_ids {
        keys.push((id_key(alt), spelling::ALT_ID));
        if let Some(iri) = prefixes.expand(alt).or_else(|| obo_purl(alt)) {
            keys.push((id_key(&iri), spelling::ALT_ID));
        }
    }
    keys
}

fn write_indexes(
    layout: &BuildLayout,
    records: &[SourceRecord],
    concepts: &[Vec<Concept>],
    prefixes: &dyn Prefixes,
    observer: &dyn BuildObserver,
) -> Result<Counts, BuildError> {
    observer.stage("writing the concept table and full-text index");
    let mut table = TableWriter::create(&layout.concepts_data(), &layout.concepts_index())
        .map_err(io_err("creating the concept table"))?;
    fs::create_dir(layout.fulltext()).map_err(io_err("creating the full-text directory"))?;
    let mut fulltext = FullTextWriter::create(&layout.fulltext())?;
    for (record, list) in records.iter().zip(concepts) {
        for concept in list {
            let id = table
                .push(concept)
                .map_err(io_err("writing the concept table"))?;
            fulltext.add(id, &record.id, concept)?;
        }
    }
    let total = table
        .finish()
        .map_err(io_err("writing the concept table"))?;
    fulltext.finish()?;

    observer.stage("writing the lexicons");
    let flat: Vec<(u32, &Concept)> = concepts
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| (i as u32, c))
        .collect();
    let id_entries: Vec<(String, Posting)> = flat
        .par_iter()
        .flat_map_iter(|(id, c)| {
            id_keys(c, prefixes).into_iter().map(move |(key, detail)| {
                (
                    key,
                    Posting {
                        concept: *id,
                        detail,
                    },
                )
            })
        })
        .collect();
    let label_entries: Vec<(String, Posting)> = flat
        .par_iter()
        .flat_map_iter(|(id, c)| {
            c.labels
                .iter()
                .take(usize::from(u16::MAX))
                .enumerate()
                .map(move |(i, l)| {
                    (
                        label_key(&l.text),
                        Posting {
                            concept: *id,
                            detail: i as u16,
                        },
                    )
                })
        })
        .collect();
    let mut ids = LexiconWriter::default();
    ids.extend(id_entries);
    let id_lexicon = ids
        .write(&layout.ids_fst(), &layout.ids_postings())
        .map_err(io_err("writing the identifier lexicon"))?;
    let mut labels = LexiconWriter::default();
    labels.extend(label_entries);
    let label_lexicon = labels
        .write(&layout.labels_fst(), &layout.labels_postings())
        .map_err(io_err("writing the label lexicon"))?;
    Ok(Counts {
        concepts: u64::from(total),
        triples: records.iter().map(|r| r.counts.triples).sum(),
        id_lexicon,
        label_lexicon,
    })
}

/// Renames the finished build into place, points `CURRENT` at it atomically, and removes
/// builds older than the previous one.
fn install(index_dir: &Path, temp: &Path, manifest: &Manifest) -> Result<PathBuf, BuildError> {
    let previous = fs::read_to_string(index_dir.join(CURRENT))
        .ok()
        .map(|s| s.trim().to_string());
    let mut name = format!(
        "build-{}-{}",
        manifest.build_id, manifest.built.finished_unix
    );
    let mut n = 1;
    while index_dir.join(&name).exists() {
        name = format!(
            "build-{}-{}-{n}",
            manifest.build_id, manifest.built.finished_unix
        );
        n += 1;
    }
    let dir = index_dir.join(&name);
    sync_dir(temp).map_err(io_err("syncing the build"))?;
    fs::rename(temp, &dir).map_err(io_err("moving the build into place"))?;
    let pointer = index_dir.join(format!(".{CURRENT}.{}", std::process::id()));
    fs::write(&pointer, format!("{name}\n")).map_err(io_err("writing CURRENT"))?;
    fs::File::open(&pointer)
        .and_then(|f| f.sync_all())
        .map_err(io_err("writing CURRENT"))?;
    fs::rename(&pointer, index_dir.join(CURRENT)).map_err(io_err("replacing CURRENT"))?;
    sync_dir(index_dir).map_err(io_err("syncing the index directory"))?;
    if let Ok(entries) = fs::read_dir(index_dir) {
        for entry in entries.flatten() {
            let entry_name = entry.file_name().to_string_lossy().into_owned();
            let keep = entry_name == name || Some(&entry_name) == previous.as_ref();
            if entry_name.starts_with("build-") && !keep {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(dir)
}

/// Temporary directories of builds that were killed or crashed. Called with the build lock
/// held, so no other build is writing any of them.
fn remove_stale_temp_dirs(index_dir: &Path) {
    let Ok(entries) = fs::read_dir(index_dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(".tmp-build-")
        {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Makes renames and new files in a directory durable.
fn sync_dir(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

/// The prefix rules declared by a catalogue; used by readers without the catalogue at hand.
pub fn declared_prefixes(catalog: &Catalog) -> Vec<PrefixRule> {
    catalog_prefixes(catalog).rules()
}
