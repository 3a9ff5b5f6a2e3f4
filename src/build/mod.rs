//! `ontoresolve build`: source catalogue → read each source once → RDF store, concept table,
//! FST lexicons, full-text index and manifest, written into a temporary directory and switched
//! into place atomically.
//!
//! The stages live in their own files: `registry` (the prefix registry first), `read` (RDF and
//! OBO sources, streamed to the extractor and the store), `tables` (MeSH and gene tables),
//! `sources` (each concept source read or reused, then written a chunk at a time), `write`
//! (concept table, full text, lexicons) and `install` (lock, temporary directory,
//! atomic switch of `CURRENT`).

mod footprint;
mod install;
mod manifest;
mod mapping_reuse;
mod mapping_segments;
mod mappings;
mod read;
mod registry;
mod reuse;
mod sources;
mod tables;
mod write;

use std::io;
use std::path::PathBuf;
use std::time::Instant;

use sha2::{Digest, Sha256};

use crate::catalog::{Catalog, CatalogError, SourceSpec};
use crate::index::confidence::ModelFile;
use crate::index::manifest::ModelRecord;
use crate::index::manifest::{
    Counts, IndexFileRecord, NameRulesRecord, SkippedSource, SourceRecord,
};
use crate::index::names::NameRules;
use crate::index::{BuildLayout, Manifest};
use crate::ingest::{Format, IngestError};
use crate::model::{PrefixMap, PrefixRule};
use crate::registry::{Registry, RegistryError};
use crate::store::{StoreError, StoreWriter};

use sources::{read_concept_sources, source_record};
pub use write::id_keys;

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
    /// A source taken from the installed build unread (its entry and files are unchanged).
    fn source_reused(&self, _id: &str, _record: &SourceRecord) {}
    /// A table row that could not be read (or was read with a note); the rest of the source
    /// still loads.
    fn row_problem(&self, _id: &str, _problem: &str) {}
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
    #[error("mapping set '{id}': {source}")]
    MappingSet {
        id: String,
        #[source]
        source: crate::ingest::sssom::SssomError,
    },
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
    #[error("name rules {}: {message}", path.display())]
    NameRules { path: PathBuf, message: String },
    #[error("confidence model {}: {message}", path.display())]
    ConfidenceModel { path: PathBuf, message: String },
    #[error(
        "source '{id}': two entries are both release '{release}' once read (a file states its own release); give each entry a file of another release"
    )]
    ReleaseClash { id: String, release: String },
    #[error(
        "source '{id}': {path} is not the file the catalogue's sha256 names ({expected}); fetch it again with `ontoresolve update {id}`"
    )]
    ChangedFile {
        id: String,
        path: String,
        expected: String,
    },
    #[error("no source could be built")]
    Empty,
    #[error("the index would hold {0}")]
    TooLarge(&'static str),
    #[error("another build is writing {}; wait for it to finish", .0.display())]
    Busy(PathBuf),
    #[error(
        "a source could not be taken from the installed build, and the build had counted on it; build again"
    )]
    TakenSourceFailed,
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

pub fn build(
    options: &BuildOptions,
    observer: &dyn BuildObserver,
) -> Result<BuildSummary, BuildError> {
    let started = Instant::now();
    let catalog = Catalog::load(&options.catalog)?;
    let index_dir = &options.index_dir;
    let (_lock, mut temp) = install::begin(index_dir)?;
    let layout = BuildLayout::new(&temp.path);

    let (registry_record, registry) = registry::build_registry(&catalog, &layout, observer)?;
    let (rules_record, rules) = read_name_rules(&catalog, &layout)?;
    let model_record = read_confidence_model(&catalog, &layout)?;
    let (loadable, mut skipped) = loadable_sources(&catalog, options, observer)?;
    let previous = reuse::Previous::open(
        index_dir,
        &catalog,
        (&registry_record, &registry),
        rules_record.as_ref(),
    )
    .inspect_err(|why| observer.stage(&format!("reading every source: {why}")));
    let reuse = reuse_plan(&catalog, &loadable, previous.as_ref().ok(), observer)?;
    let mapping_set_inputs = mapping_reuse::set_inputs(&catalog, &registry_record)?;
    let taken_sets = mapping_reuse::takeable_sets(
        &catalog,
        previous.as_ref().ok(),
        &mapping_set_inputs,
        observer,
    );
    let store = open_store(&layout, &catalog, previous.as_ref().ok(), &reuse, observer)?;
    let carried = carried_prefix(&catalog, &loadable, &reuse, previous.as_ref().ok());
    let installed = write::Installed::plan(
        previous.as_ref().ok(),
        &reuse,
        carried.as_ref().map(|c| (c.sources, c.concepts)),
        observer,
    );
    let fulltext_whole = installed.as_ref().is_some_and(|i| i.fulltext_whole);
    let mut writer = write::IndexWriter::create(&layout, rules.as_ref(), installed)?;
    let mut mappings = mappings::MappingBuilder::new(&layout, &registry);
    let mut sinks = Sinks {
        spill_dir: &layout.dir,
        registry: &registry,
        store: &store,
        writer: &mut writer,
        mappings: &mut mappings,
    };
    let read = SourcePlan {
        loadable: &loadable,
        reuse: &reuse,
        previous: previous.as_ref().ok(),
        carried: carried.as_ref().map_or(0, |c| c.sources),
    };
    let records =
        read_concept_sources(&catalog, options, observer, &mut sinks, &read, &mut skipped)?;
    // Only a reused source that failed under keep_going could go missing: its documents are
    // in the copied full text.
    if fulltext_whole
        && previous
            .as_ref()
            .is_ok_and(|p| !p.all_reused(records.iter()))
    {
        return Err(BuildError::TakenSourceFailed);
    }
    // Files hard-linked from the installed build keep the checksums it recorded.
    let linked = (previous.as_ref().ok()).map(|p| (p.layout.clone(), p.manifest.clone()));
    gather_mapping_sets(
        &catalog,
        (taken_sets, previous.as_ref().ok()),
        (&mut mappings, &store),
        options,
        observer,
        &mut skipped,
    )?;
    observer.stage("flushing the RDF store");
    write_graph_shapes(store, &layout)?;

    // The installed build stays leased while its files are taken.
    let (counts, mapped, files) = finish_files(
        writer,
        mappings,
        &records,
        (&layout, linked.as_ref().map(|(l, m)| (l, m))),
        rules_record.is_some(),
        observer,
    )?;
    drop(previous);
    let manifest = manifest::ManifestParts {
        records,
        skipped,
        registry: registry_record,
        rules: rules_record,
        model: model_record,
        counts,
        mapped,
        files,
        mapping_set_inputs,
    }
    .into_manifest(&catalog, started);
    let dir = write_and_install(index_dir, &mut temp, &manifest, observer)?;
    Ok(BuildSummary { manifest, dir })
}

/// Writes the manifest into the new build, then switches the build into place: the last
/// step, after which the temporary directory is the index's and is kept.
fn write_and_install(
    index_dir: &std::path::Path,
    temp: &mut install::TempDir,
    manifest: &Manifest,
    observer: &dyn BuildObserver,
) -> Result<PathBuf, BuildError> {
    manifest
        .write(&BuildLayout::new(&temp.path).manifest())
        .map_err(io_err("writing the manifest"))?;
    observer.stage("switching the index into place");
    let dir = install::install(index_dir, &temp.path, manifest)?;
    temp.keep = true;
    Ok(dir)
}

/// The mapping sets: the installed build's segment when it may be taken (`taken`), else every
/// set of the catalogue read; a set skipped under `keep_going` joins `skipped`.
fn gather_mapping_sets(
    catalog: &Catalog,
    (taken, installed): (
        Option<mapping_reuse::TakenMappings>,
        Option<&reuse::Previous>,
    ),
    (mappings, store): (&mut mappings::MappingBuilder, &StoreWriter),
    options: &BuildOptions,
    observer: &dyn BuildObserver,
    skipped: &mut Vec<SkippedSource>,
) -> Result<(), BuildError> {
    if let (Some(taken), Some(installed)) = (taken, installed) {
        skipped.extend(taken.skipped.iter().cloned());
        mappings.take_sets(taken, &installed.layout);
        return Ok(());
    }
    let keep_going = options.keep_going;
    for spec in catalog.sources.iter().filter(|s| is_mapping_set(s)) {
        if let Some(reason) =
            read_mapping_set(catalog, spec, mappings, store, observer, keep_going)?
        {
            skipped.push(SkippedSource {
                id: spec.id.clone(),
                reason,
            });
        }
    }
    Ok(())
}

/// Writes the lexicons, tables and mapping index, then records every file's length and
/// checksum: the counts, mapping sets and file list the manifest states.
fn finish_files(
    writer: write::IndexWriter,
    mappings: mappings::MappingBuilder,
    records: &[SourceRecord],
    (layout, linked): (&BuildLayout, Option<(&BuildLayout, &Manifest)>),
    has_rules: bool,
    observer: &dyn BuildObserver,
) -> Result<(Counts, mappings::MappingsWritten, Vec<IndexFileRecord>), BuildError> {
    // The mapping index and the lexicons share no file: each is written on its own core.
    let (written, mapped) = std::thread::scope(|scope| {
        let mapped = scope.spawn(|| {
            let mapped = mappings.finish(layout, observer);
            observer.stage("mapping index written");
            mapped
        });
        let written = writer.finish(records, observer);
        (written, mapped.join())
    });
    let mut counts = written?;
    let mapped = mapped.map_err(|_| BuildError::Io {
        context: "writing the mapping index".into(),
        source: io::Error::other("the writing thread failed"),
    })??;
    // Readers find the segments from the releases: the written ones must be those.
    let expected = crate::index::mapping_segments(records);
    if !expected
        .iter()
        .map(|(name, _)| name)
        .eq(mapped.segments.iter().map(|s| &s.name))
    {
        return Err(BuildError::Io {
            context: "writing the mapping index".into(),
            source: io::Error::other("its segments are not those of the current releases"),
        });
    }
    counts.mappings = mapped.counts;
    // The store holds the sets' axioms too.
    counts.triples += mapped.sets.iter().map(|s| s.counts.triples).sum::<u64>();
    observer.stage("recording the index files' lengths and checksums");
    let files = crate::index::integrity::record_files(layout, records, has_rules, linked)
        .map_err(|e| io_err("recording the index files' checksums")(e.into()))?;
    Ok((counts, mapped, files))
}

/// The catalogue's prefix registry written alone into `dir` and opened, for commands that read
/// prefixes before any build (`ontoresolve add` on a fresh clone).
pub fn registry_alone(
    catalog: &Catalog,
    dir: &std::path::Path,
) -> Result<crate::registry::Registry, BuildError> {
    let layout = BuildLayout::new(dir);
    Ok(registry::build_registry(catalog, &layout, &Silent)?.1)
}

/// Finishes the store and writes each graph's shape beside it, for `describe_schema`.
fn write_graph_shapes(store: StoreWriter, layout: &BuildLayout) -> Result<(), BuildError> {
    let shapes = store.finish()?;
    crate::index::schema::GraphShapes { graphs: shapes }
        .write(&layout.schema())
        .map_err(io_err("writing the graph shapes"))
}

fn is_mapping_set(spec: &SourceSpec) -> bool {
    matches!(spec.format(), Some(Format::Mappings(_)))
}

/// Where every concept source is written as it is read.
struct Sinks<'s, 'b> {
    /// Where a large source's concepts are spilled while it is read.
    spill_dir: &'b std::path::Path,
    /// The registry; each source read sees it through its own [`footprint::PrefixUse`].
    registry: &'b Registry,
    store: &'s StoreWriter,
    writer: &'s mut write::IndexWriter<'b>,
    mappings: &'s mut mappings::MappingBuilder<'b>,
}

/// Which concept sources the build loads (by catalogue position) and, of those, which it takes
/// from the installed build unread.
struct SourcePlan<'p> {
    loadable: &'p [bool],
    reuse: &'p [Option<SourceRecord>],
    previous: Option<&'p reuse::Previous>,
    /// How many leading loaded sources are carried as stored (`reuse::Previous::carried_prefix`).
    carried: usize,
}

/// The leading sources a build takes from the installed build as stored.
struct Carried {
    sources: usize,
    concepts: u32,
}

/// What the build can carry from the installed build (`reuse::Previous::carried_prefix`), if
/// anything.
fn carried_prefix(
    catalog: &Catalog,
    loadable: &[bool],
    reuse: &[Option<SourceRecord>],
    previous: Option<&reuse::Previous>,
) -> Option<Carried> {
    let previous = previous?;
    let in_load_order: Vec<Option<&SourceRecord>> = (0..catalog.sources.len())
        .filter(|at| loadable[*at])
        .map(|at| reuse[at].as_ref())
        .collect();
    match previous.carried_prefix(&in_load_order) {
        (0, _) => None,
        (sources, concepts) => Some(Carried { sources, concepts }),
    }
}

/// Which concept sources have their files: a source with a missing file is skipped (with why)
/// when it is not bundled or with `keep_going`, and fails the build otherwise.
fn loadable_sources(
    catalog: &Catalog,
    options: &BuildOptions,
    observer: &dyn BuildObserver,
) -> Result<(Vec<bool>, Vec<SkippedSource>), BuildError> {
    let mut skipped = Vec::new();
    let mut loadable = vec![false; catalog.sources.len()];
    for (at, spec) in catalog.sources.iter().enumerate() {
        if is_mapping_set(spec) {
            continue;
        }
        let files = catalog.files(spec);
        match missing_file(catalog, spec, &files, options.keep_going, observer)? {
            Some(reason) => skipped.push(SkippedSource {
                id: spec.id.clone(),
                reason,
            }),
            None => loadable[at] = true,
        }
    }
    Ok((loadable, skipped))
}

/// The installed record each loadable source reuses, by catalogue position.
fn reuse_plan(
    catalog: &Catalog,
    loadable: &[bool],
    previous: Option<&reuse::Previous>,
    observer: &dyn BuildObserver,
) -> Result<Vec<Option<SourceRecord>>, BuildError> {
    let mut plan = vec![None; catalog.sources.len()];
    let Some(previous) = previous else {
        return Ok(plan);
    };
    observer.stage("checking which sources the installed build already holds");
    for (at, spec) in catalog.sources.iter().enumerate() {
        if !loadable[at] {
            continue;
        }
        let current = catalog.is_current(at, |i| loadable[i]);
        let Some(record) = previous.reusable(spec, &catalog.files(spec), current)? else {
            continue;
        };
        if let Some(rule) = previous.new_prefix_touching(record) {
            observer.stage(&format!(
                "{}: reading it again, as the prefix {} → {} may change how it reads",
                spec.id, rule.prefix, rule.uri_prefix
            ));
            continue;
        }
        plan[at] = Some(record.clone());
    }
    Ok(plan)
}

/// A new store, or a copy of the installed one with the reused sources' graphs when any is
/// reused.
fn open_store(
    layout: &BuildLayout,
    catalog: &Catalog,
    previous: Option<&reuse::Previous>,
    reuse: &[Option<SourceRecord>],
    observer: &dyn BuildObserver,
) -> Result<StoreWriter, BuildError> {
    let Some(previous) = previous else {
        return Ok(StoreWriter::create(&layout.store())?);
    };
    // The graphs of reused sources and of mapping sets whose files did not change.
    let mut keep = previous.unchanged_set_graphs(catalog)?;
    if !keep.is_empty() {
        observer.stage(&format!(
            "keeping {} unchanged mapping-set graphs from the installed store",
            keep.len()
        ));
    }
    keep.extend(reuse.iter().flatten().map(|r| r.graph.clone()));
    if keep.is_empty() {
        return Ok(StoreWriter::create(&layout.store())?);
    }
    Ok(StoreWriter::from_installed(
        &previous.store(),
        &layout.store(),
        &keep,
        previous.shapes_of(&keep).graphs,
    )?)
}

/// Why a source whose file is absent is skipped: it is not bundled (fetch it), or
/// `keep_going` is set. A bundled file that is missing is an error otherwise. `None` when
/// every file is there.
fn missing_file(
    catalog: &Catalog,
    spec: &SourceSpec,
    files: &[PathBuf],
    keep_going: bool,
    observer: &dyn BuildObserver,
) -> Result<Option<String>, BuildError> {
    let Some(missing) = files.iter().find(|f| !f.is_file()) else {
        return Ok(None);
    };
    let reason = if spec.bundled {
        let error = BuildError::MissingFile {
            id: spec.id.clone(),
            path: missing
                .strip_prefix(&catalog.dir)
                .unwrap_or(missing)
                .to_path_buf(),
        };
        if !keep_going {
            return Err(error);
        }
        error.to_string()
    } else {
        format!(
            "not downloaded: run `scripts/fetch-source {}` to fetch it from {}",
            spec.id,
            spec.url.as_deref().unwrap_or("its homepage")
        )
    };
    observer.source_skipped(&spec.id, &reason);
    Ok(Some(reason))
}

/// Reads every file of one mapping-set entry. A set whose file is absent is skipped when it
/// is not bundled (or with `keep_going`); the reason is returned.
fn read_mapping_set(
    catalog: &Catalog,
    spec: &SourceSpec,
    mappings: &mut mappings::MappingBuilder<'_>,
    store: &StoreWriter,
    observer: &dyn BuildObserver,
    keep_going: bool,
) -> Result<Option<String>, BuildError> {
    let Some(Format::Mappings(format)) = spec.format() else {
        return Ok(None);
    };
    let files = catalog.files(spec);
    if let Some(reason) = missing_file(catalog, spec, &files, keep_going, observer)? {
        return Ok(Some(reason));
    }
    let started = Instant::now();
    observer.source_started(&spec.id, 0);
    let written: Vec<&std::path::Path> = std::iter::once(spec.path.as_path())
        .chain(spec.more_paths.iter().map(|p| p.as_path()))
        .collect();
    let before = mappings.sets.len();
    // A set that fails part-way fails the build even with keep_going: its first rows are
    // already in the mapping index.
    for (file, written) in files.iter().zip(written) {
        mappings.add_set(
            spec,
            format,
            file,
            written,
            files.len() > 1,
            store,
            observer,
        )?;
    }
    let rows: u64 = mappings.sets[before..].iter().map(|s| s.counts.rows).sum();
    observer.stage(&format!(
        "mapping set {}: {} files, {rows} rows in {:.1} s",
        spec.id,
        files.len(),
        started.elapsed().as_secs_f64()
    ));
    Ok(None)
}

/// The catalogue's name variant rules, parsed and copied into the build; `None` when the
/// catalogue has none.
fn read_name_rules(
    catalog: &Catalog,
    layout: &BuildLayout,
) -> Result<(Option<NameRulesRecord>, Option<NameRules>), BuildError> {
    let Some(spec) = &catalog.names else {
        return Ok((None, None));
    };
    let path = catalog.dir.join(&spec.rules);
    let text = std::fs::read_to_string(&path)
        .map_err(io_err(format!("reading the name rules {}", path.display())))?;
    let rules = NameRules::from_toml(&text).map_err(|e| BuildError::NameRules {
        path: path.clone(),
        message: e.to_string(),
    })?;
    std::fs::write(layout.name_rules(), &text).map_err(io_err("copying the name rules"))?;
    let record = NameRulesRecord {
        file: spec.rules.display().to_string(),
        version: rules.version.clone(),
        sha256: hex(&Sha256::digest(text.as_bytes())),
    };
    Ok((Some(record), Some(rules)))
}

/// The catalogue's confidence model, checked and copied into the build; `None` when the
/// catalogue has none. A missing or damaged model file fails the build and names it.
fn read_confidence_model(
    catalog: &Catalog,
    layout: &BuildLayout,
) -> Result<Option<ModelRecord>, BuildError> {
    let Some(spec) = &catalog.confidence else {
        return Ok(None);
    };
    let path = catalog.dir.join(&spec.model);
    let text = std::fs::read_to_string(&path).map_err(io_err(format!(
        "reading the confidence model {}",
        path.display()
    )))?;
    let model = ModelFile::from_toml(&text).map_err(|e| BuildError::ConfidenceModel {
        path: path.clone(),
        message: e.to_string(),
    })?;
    std::fs::write(layout.confidence_model(), &text)
        .map_err(io_err("copying the confidence model"))?;
    Ok(Some(ModelRecord {
        file: spec.model.display().to_string(),
        version: model.version,
        sha256: hex(&Sha256::digest(text.as_bytes())),
        trained_on: model
            .trained_on
            .iter()
            .map(|c| crate::index::manifest::TrainedOn {
                id: c.id.clone(),
                citation: c.citation.clone(),
            })
            .collect(),
        mention_threshold: model.mention_threshold,
        learned_names: model.learned_names.len() as u64,
    }))
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

/// The SHA-256 of a file, as the manifest records it.
pub fn file_sha256(path: &std::path::Path) -> Result<String, BuildError> {
    Ok(registry::input_file(path, path)?.sha256)
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The prefix rules declared by a catalogue; used by readers without the catalogue at hand.
pub fn declared_prefixes(catalog: &Catalog) -> Vec<PrefixRule> {
    catalog_prefixes(catalog).rules()
}
