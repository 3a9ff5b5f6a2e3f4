//! Gathering one table source's rows into finished concepts. Rows are held by IRI until there
//! are as many as the build's spill size (`ingest::SPILL_CONCEPTS`) (with late parent links, as OBO Graphs' edges), then spilled as
//! a sorted run; the runs are merged back by IRI, so a source of any size is read in bounded
//! memory. Held or merged, each concept is finished the same way: its late parents attached,
//! its format's join applied (MeSH tree numbers), its CURIE set and its lists deduplicated.
//!
//! The first row for an IRI is kept; a later one is a problem, found when it is added or, for
//! rows in different runs, when the runs are merged.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::mesh::TreeJoin;
use super::{MAX_ROW_PROBLEMS, RowOutcome, RowProblem};
use crate::ingest::extract_spill::FinishedWriter;
use crate::ingest::spill::{Merged, Runs};
use crate::ingest::{IngestError, SourceConcepts, dedup_in_order, dedup_sorted};
use crate::model::{Concept, Link, Prefixes, SourceCounts, SourceIdx};

/// Problems and notes of one source's rows, up to [`MAX_ROW_PROBLEMS`].
#[derive(Default)]
pub(super) struct Problems(Vec<RowProblem>);

impl Problems {
    pub(super) fn record(
        &mut self,
        file: &Path,
        line: u64,
        message: impl Into<String>,
        outcome: RowOutcome,
    ) -> Result<(), IngestError> {
        if self.0.len() >= MAX_ROW_PROBLEMS {
            return Err(IngestError::Invalid {
                file: file.to_path_buf(),
                message: format!(
                    "more than {MAX_ROW_PROBLEMS} unreadable rows (the last at line {line}): \
                     is this the right file and format?"
                ),
            });
        }
        self.0.push(RowProblem {
            file: file.to_path_buf(),
            line,
            message: message.into(),
            outcome,
        });
        Ok(())
    }

    pub(super) fn into_vec(self) -> Vec<RowProblem> {
        self.0
    }
}

/// What a format does to each concept once every row is read.
pub(super) enum Join {
    None,
    /// MeSH: parents from tree numbers, which needs every descriptor's tree numbers.
    MeshTrees(TreeJoin),
}

/// Where a row is: its file (by position in the source's files) and line.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct RowAt {
    file: u32,
    line: u64,
}

/// What a run holds about one IRI.
#[derive(Serialize, Deserialize)]
enum Part {
    Row {
        concept: Box<Concept>,
        at: RowAt,
    },
    /// Parent links stated apart from the row (OBO Graphs' edges).
    Parents {
        iri: String,
        parents: Vec<Link>,
    },
}

impl Part {
    fn iri(&self) -> &str {
        match self {
            Part::Row { concept, .. } => &concept.iri,
            Part::Parents { iri, .. } => iri,
        }
    }
}

impl PartialEq for Part {
    fn eq(&self, other: &Self) -> bool {
        self.iri() == other.iri()
    }
}

impl Eq for Part {}

impl PartialOrd for Part {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// By IRI alone; equal parts come back in the order their runs were written, so the first
/// row read comes first.
impl Ord for Part {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.iri().cmp(other.iri())
    }
}

/// Where runs go, and after how many held rows and parent lists.
struct Spill {
    dir: PathBuf,
    runs: Runs<Part>,
    every: usize,
    spilled: bool,
}

/// Concepts and problems gathered over a source's files.
pub(super) struct Collector {
    pub(super) source: SourceIdx,
    /// Data rows (or JSON entries) read, problem rows included.
    pub(super) rows: u64,
    problems: Problems,
    files: Vec<PathBuf>,
    held: BTreeMap<String, (Concept, RowAt)>,
    parents: BTreeMap<String, Vec<Link>>,
    spill: Option<Spill>,
}

impl Collector {
    /// A collector that holds every row (`spill` `None`), or spills under `spill.0` every
    /// `spill.1` rows.
    pub(super) fn new(source: SourceIdx, spill: Option<(&Path, usize)>) -> Self {
        Collector {
            source,
            rows: 0,
            problems: Problems::default(),
            files: Vec::new(),
            held: BTreeMap::new(),
            parents: BTreeMap::new(),
            spill: spill.map(|(dir, every)| Spill {
                dir: dir.to_path_buf(),
                runs: Runs::new(dir, "table-rows"),
                every: every.max(1),
                spilled: false,
            }),
        }
    }

    pub(super) fn problem(
        &mut self,
        file: &Path,
        line: u64,
        message: impl Into<String>,
    ) -> Result<(), IngestError> {
        self.problems
            .record(file, line, message, RowOutcome::Skipped)
    }

    pub(super) fn note(
        &mut self,
        file: &Path,
        line: u64,
        message: impl Into<String>,
    ) -> Result<(), IngestError> {
        self.problems
            .record(file, line, message, RowOutcome::KeptWithNote)
    }

    /// Keeps the first row for an IRI; a later one is a problem.
    pub(super) fn add(
        &mut self,
        file: &Path,
        line: u64,
        concept: Concept,
    ) -> Result<(), IngestError> {
        if self.held.contains_key(&concept.iri) {
            let message = format!("{} appears again; the first row is kept", concept.iri);
            return self.problem(file, line, message);
        }
        let at = RowAt {
            file: self.file_number(file),
            line,
        };
        self.held.insert(concept.iri.clone(), (concept, at));
        self.spill_if_full()
    }

    /// A parent link of `iri` stated apart from its row; dropped at the end if no row has it.
    pub(super) fn add_parent(&mut self, iri: String, parent: Link) -> Result<(), IngestError> {
        self.parents.entry(iri).or_default().push(parent);
        self.spill_if_full()
    }

    fn file_number(&mut self, file: &Path) -> u32 {
        if self.files.last().map(PathBuf::as_path) != Some(file) {
            self.files.push(file.to_path_buf());
        }
        u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
    }

    fn spill_if_full(&mut self) -> Result<(), IngestError> {
        match &self.spill {
            Some(spill) if self.held.len() + self.parents.len() >= spill.every => self.spill_held(),
            _ => Ok(()),
        }
    }

    fn spill_held(&mut self) -> Result<(), IngestError> {
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        let rows = std::mem::take(&mut self.held).into_values();
        let parents = std::mem::take(&mut self.parents).into_iter();
        let parts: Vec<Part> = rows
            .map(|(concept, at)| Part::Row {
                concept: Box::new(concept),
                at,
            })
            .chain(parents.map(|(iri, parents)| Part::Parents { iri, parents }))
            .collect();
        spill
            .runs
            .spill(parts)
            .map_err(|e| spill_error(&spill.dir, e))?;
        spill.spilled = true;
        Ok(())
    }

    /// The finished concepts: in memory when nothing was spilled, else merged from the runs as
    /// they are taken.
    pub(super) fn finish<'p>(
        mut self,
        join: Join,
        prefixes: &'p dyn Prefixes,
    ) -> Result<Collected<'p>, IngestError> {
        if self.spill.as_ref().is_some_and(|s| s.spilled) {
            self.spill_held()?;
        }
        match self.spill.take() {
            Some(spill) if spill.spilled => {
                let merged = spill.runs.merge().map_err(|e| spill_error(&spill.dir, e))?;
                let out =
                    FinishedWriter::create(&spill.dir).map_err(|e| spill_error(&spill.dir, e))?;
                Ok(Collected::Merging(Box::new(Merging {
                    merged,
                    out,
                    dir: spill.dir,
                    files: self.files,
                    problems: self.problems,
                    join,
                    prefixes,
                })))
            }
            _ => self.finish_held(&join, prefixes),
        }
    }

    fn finish_held<'p>(
        self,
        join: &Join,
        prefixes: &dyn Prefixes,
    ) -> Result<Collected<'p>, IngestError> {
        let mut problems = self.problems;
        let mut parents = self.parents;
        let mut concepts = Vec::with_capacity(self.held.len());
        for (iri, (concept, _)) in self.held {
            let late = parents.remove(&iri).unwrap_or_default();
            concepts.push(finish_concept(
                concept,
                late,
                join,
                prefixes,
                &mut problems,
            )?);
        }
        crate::ingest::fill_children(&mut concepts);
        Ok(Collected::Held(concepts, problems.into_vec()))
    }
}

/// A source's finished concepts.
pub enum Collected<'p> {
    /// Every concept, with its children, and the rows' problems.
    Held(Vec<Concept>, Vec<RowProblem>),
    /// Concepts merged from spilled runs as they are taken; see [`Merging::finish`].
    Merging(Box<Merging<'p>>),
}

impl Collected<'_> {
    /// Every concept in memory, with its children, and the rows' problems.
    pub fn into_all(self) -> Result<(Vec<Concept>, Vec<RowProblem>), IngestError> {
        match self {
            Collected::Held(concepts, problems) => Ok((concepts, problems)),
            Collected::Merging(merging) => {
                let (concepts, _, problems) = merging.finish(0)?;
                let concepts = concepts.collect_all().map_err(|e| {
                    IngestError::Stopped(format!("reading spilled concepts back: {e}"))
                })?;
                Ok((concepts, problems))
            }
        }
    }
}

/// Spilled runs merged into finished concepts, one IRI at a time, each also written to disk
/// for the index; children are joined when they are read back.
pub struct Merging<'p> {
    merged: Merged<Part>,
    out: FinishedWriter,
    dir: PathBuf,
    files: Vec<PathBuf>,
    problems: Problems,
    join: Join,
    prefixes: &'p dyn Prefixes,
}

impl Merging<'_> {
    /// The next finished concept, or `None` once every IRI was merged.
    fn next_concept(&mut self) -> Result<Option<Concept>, IngestError> {
        let dir = self.dir.clone();
        let spilled = |e| spill_error(&dir, e);
        while let Some(first) = self.merged.next() {
            let first = first.map_err(spilled)?;
            let iri = first.iri().to_string();
            let mut row = None;
            let mut late = Vec::new();
            let mut part = Some(first);
            while let Some(taken) = part {
                match taken {
                    Part::Row { concept, .. } if row.is_none() => row = Some(*concept),
                    Part::Row { at, .. } => {
                        let file = self
                            .files
                            .get(at.file as usize)
                            .cloned()
                            .unwrap_or_default();
                        let message = format!("{iri} appears again; the first row is kept");
                        self.problems
                            .record(&file, at.line, message, RowOutcome::Skipped)?;
                    }
                    Part::Parents { parents, .. } => late.extend(parents),
                }
                part = match self.merged.peek() {
                    Some(next) if next.iri() == iri => {
                        self.merged.next().transpose().map_err(spilled)?
                    }
                    _ => None,
                };
            }
            if let Some(concept) = row {
                let concept =
                    finish_concept(concept, late, &self.join, self.prefixes, &mut self.problems)?;
                self.out.write(&concept).map_err(spilled)?;
                return Ok(Some(concept));
            }
        }
        Ok(None)
    }

    /// Once every concept was taken: the concepts for the index, their counts with `triples`,
    /// and the rows' problems.
    pub fn finish(
        mut self,
        triples: u64,
    ) -> Result<(SourceConcepts, SourceCounts, Vec<RowProblem>), IngestError> {
        // Anything not taken yet is finished first, so the counts are whole.
        while self.next_concept()?.is_some() {}
        let dir = self.dir;
        let (concepts, counts) = self
            .out
            .into_concepts(triples)
            .map_err(|e| spill_error(&dir, e))?;
        Ok((concepts, counts, self.problems.into_vec()))
    }
}

impl Iterator for Merging<'_> {
    type Item = Result<Concept, IngestError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_concept().transpose()
    }
}

/// A row's concept made whole: late parents, the format's join, its CURIE, no repeats.
fn finish_concept(
    mut concept: Concept,
    late_parents: Vec<Link>,
    join: &Join,
    prefixes: &dyn Prefixes,
    problems: &mut Problems,
) -> Result<Concept, IngestError> {
    concept.parents.extend(late_parents);
    if let Join::MeshTrees(trees) = join {
        trees.join(&mut concept, problems)?;
    }
    concept.curie = prefixes.compress(&concept.iri);
    dedup_in_order(&mut concept.labels);
    dedup_in_order(&mut concept.definitions);
    // Replacements keep the order the note names them in.
    dedup_in_order(&mut concept.replacements);
    dedup_sorted(&mut concept.parents);
    dedup_sorted(&mut concept.xrefs);
    dedup_sorted(&mut concept.alt_ids);
    dedup_sorted(&mut concept.tree_numbers);
    Ok(concept)
}

fn spill_error(dir: &Path, error: io::Error) -> IngestError {
    IngestError::Stopped(format!("spilling rows under {}: {error}", dir.display()))
}
