//! Reading one table source (MeSH descriptor and supplementary tables, HGNC, NCBI Gene
//! `gene_info`, compact JSON, OBO Graphs JSON): rows become concepts, and each concept is
//! written to the store as triples in the source's named graph, so that answers about it re-run
//! as SPARQL. The release is the file's when it states one (OBO Graphs), else the catalogue's.

use std::fs;
use std::path::{Path, PathBuf};

use oxrdf::Triple;

use super::read::settled_release;
use super::registry::input_file;
use super::{BuildError, BuildObserver, source_record};
use crate::catalog::SourceSpec;
use crate::index::manifest::SourceRecord;
use crate::ingest::tables::{self, RowOutcome, RowProblem};
use crate::ingest::{Format, IngestError, TableFormat, input};
use crate::model::SourceCounts;
use crate::model::{Concept, Prefixes, SourceIdx};
use crate::store::{LoadError, StoreError, StoreWriter, graph_iri};

/// Row problems echoed one by one on stderr; the rest are counted.
const MAX_REPORTED_PROBLEMS: usize = 20;

pub(super) fn ingest_table_source(
    idx: SourceIdx,
    spec: &SourceSpec,
    format: TableFormat,
    files: &[PathBuf],
    prefixes: &dyn Prefixes,
    store: &StoreWriter,
    observer: &dyn BuildObserver,
) -> Result<(SourceRecord, Vec<Concept>), BuildError> {
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
    let mut read = tables::read(format, readers, idx, prefixes).map_err(source_err)?;
    report_problems(&spec.id, &read.problems, observer);
    // As for RDF and OBO sources: the file's own release (OBO Graphs states one), else the
    // catalogue's.
    let (release, origin) = settled_release(read.release.take(), spec.release.as_deref());
    let graph = graph_iri(&spec.id, &release);
    let triples = load_concepts(store, &graph, &read.concepts, prefixes).map_err(|error| {
        BuildError::SourceStore {
            id: spec.id.clone(),
            error,
        }
    })?;
    let concepts = read.concepts;
    let stats = SourceCounts::of(triples, &concepts);
    let record = source_record(
        spec,
        Format::Table(format),
        (release, origin),
        graph,
        inputs,
        stats,
        read.problems
            .iter()
            .filter(|p| p.outcome == RowOutcome::Skipped)
            .count() as u64,
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

/// The concepts' triples into the source's graph; how many there were.
fn load_concepts(
    store: &StoreWriter,
    graph: &str,
    concepts: &[Concept],
    prefixes: &dyn Prefixes,
) -> Result<u64, StoreError> {
    let mut triples = 0u64;
    let mut buffer: Vec<Triple> = Vec::new();
    let stream = concepts.iter().flat_map(|concept| {
        buffer.clear();
        tables::concept_triples(concept, prefixes, &mut buffer);
        triples += buffer.len() as u64;
        std::mem::take(&mut buffer)
            .into_iter()
            .map(Ok::<Triple, std::convert::Infallible>)
    });
    store.load_graph(graph, stream).map_err(|e| match e {
        LoadError::Store(error) => error,
        LoadError::Input(never) => match never {},
    })?;
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
