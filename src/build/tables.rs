//! Reading one table source (MeSH descriptor and supplementary tables, HGNC, NCBI Gene
//! `gene_info`, compact JSON, OBO Graphs JSON): rows become concepts, and each concept is
//! written to the store as triples in the source's named graph, so that answers about it re-run
//! as SPARQL. The release is the file's when it states one (OBO Graphs), else the catalogue's.

use std::borrow::Borrow;
use std::fs;
use std::path::{Path, PathBuf};

use oxrdf::Triple;

use super::read::settled_release;
use super::registry::input_file;
use super::{BuildError, BuildObserver, source_record};
use crate::catalog::SourceSpec;
use crate::index::manifest::SourceRecord;
use crate::ingest::tables::{self, Collected, RowOutcome, RowProblem};
use crate::ingest::{self, Format, IngestError, SourceConcepts, TableFormat, input};
use crate::model::{Concept, Prefixes, SourceCounts, SourceIdx};
use crate::store::{LoadError, StoreWriter, graph_iri};

/// Row problems echoed one by one on stderr; the rest are counted.
const MAX_REPORTED_PROBLEMS: usize = 20;

pub(super) fn ingest_table_source(
    idx: SourceIdx,
    spec: &SourceSpec,
    format: TableFormat,
    files: &[PathBuf],
    sinks: (&dyn Prefixes, &StoreWriter, &Path),
    observer: &dyn BuildObserver,
) -> Result<(SourceRecord, SourceConcepts), BuildError> {
    let (prefixes, store, spill_dir) = sinks;
    let source_err = |error: IngestError| BuildError::Source {
        id: spec.id.clone(),
        error,
    };
    let written: Vec<&Path> = std::iter::once(spec.path.as_path())
        .chain(spec.more_paths.iter().map(PathBuf::as_path))
        .collect();
    let inputs = files
        .iter()
        .zip(&written)
        .map(|(path, written)| input_file(written, path))
        .collect::<Result<Vec<_>, _>>()?;
    observer.source_started(&spec.id, inputs.iter().map(|f| f.bytes).sum());

    let readers = open_readers(files).map_err(source_err)?;
    let spill = Some((spill_dir, ingest::SPILL_CONCEPTS));
    let mut read =
        tables::read_spilling(format, readers, idx, prefixes, spill).map_err(source_err)?;
    // As for RDF and OBO sources: the file's own release (OBO Graphs states one), else the
    // catalogue's.
    let (release, origin) = settled_release(read.release.take(), spec.release.as_deref());
    let graph = graph_iri(&spec.id, &release);
    let store_err = |error| BuildError::SourceStore {
        id: spec.id.clone(),
        error,
    };
    let (concepts, stats, problems) = match read.concepts {
        Collected::Held(concepts, problems) => {
            let stream = concepts.iter().map(Ok::<&Concept, IngestError>);
            let triples = load_concepts(store, &graph, stream, prefixes).map_err(|e| match e {
                LoadError::Store(error) => store_err(error),
                LoadError::Input(error) => source_err(error),
            })?;
            let stats = SourceCounts::of(triples, &concepts);
            (SourceConcepts::held(concepts), stats, problems)
        }
        Collected::Merging(mut merging) => {
            let triples =
                load_concepts(store, &graph, merging.by_ref(), prefixes).map_err(|e| match e {
                    LoadError::Store(error) => store_err(error),
                    LoadError::Input(error) => source_err(error),
                })?;
            merging.finish(triples).map_err(source_err)?
        }
    };
    report_problems(&spec.id, &problems, observer);
    let skipped = problems
        .iter()
        .filter(|p| p.outcome == RowOutcome::Skipped)
        .count() as u64;
    let record = source_record(
        spec,
        Format::Table(format),
        (release, origin),
        graph,
        inputs,
        stats,
        skipped,
    );
    Ok((record, concepts))
}

/// Each table file opened, decompressed when it is gzip or zstd.
fn open_readers(files: &[PathBuf]) -> Result<Vec<tables::TableInput>, IngestError> {
    files
        .iter()
        .map(|path| {
            let io = |source| IngestError::Io {
                file: path.clone(),
                source,
            };
            let file = fs::File::open(path).map_err(io)?;
            let reader = input::open_reader(file).map_err(io)?;
            Ok((path.clone(), reader))
        })
        .collect()
}

/// The concepts' triples into the source's graph, as the concepts are taken; how many there
/// were.
fn load_concepts<C: Borrow<Concept>>(
    store: &StoreWriter,
    graph: &str,
    concepts: impl Iterator<Item = Result<C, IngestError>>,
    prefixes: &dyn Prefixes,
) -> Result<u64, LoadError<IngestError>> {
    let mut triples = 0u64;
    let mut buffer: Vec<Triple> = Vec::new();
    let stream = concepts.flat_map(|concept| {
        buffer.clear();
        let concept = match concept {
            Ok(concept) => concept,
            Err(error) => return vec![Err(error)],
        };
        tables::concept_triples(concept.borrow(), prefixes, &mut buffer);
        triples += buffer.len() as u64;
        buffer.drain(..).map(Ok).collect()
    });
    store.load_graph(graph, stream)?;
    Ok(triples)
}

/// Every row problem goes to the observer, the first few in full.
fn report_problems(id: &str, problems: &[RowProblem], observer: &dyn BuildObserver) {
    for problem in problems.iter().take(MAX_REPORTED_PROBLEMS) {
        let what = match problem.outcome {
            RowOutcome::Skipped => "row skipped",
            RowOutcome::KeptWithNote => "row loaded with a note",
        };
        observer.row_problem(
            id,
            &format!(
                "{what}: {}:{}: {}",
                problem.file.display(),
                problem.line,
                problem.message
            ),
        );
    }
    if problems.len() > MAX_REPORTED_PROBLEMS {
        observer.row_problem(
            id,
            &format!(
                "… and {} more row problems (the manifest counts the skipped rows)",
                problems.len() - MAX_REPORTED_PROBLEMS
            ),
        );
    }
}
