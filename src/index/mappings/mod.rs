//! The mapping index: for every identifier a mapping names, one record of its mappings from
//! its own side, so that both directions are one lookup.
//!
//! The index is made of segments (`read.rs` reads them as one): one per current source
//! release, holding its cross-references, and one for every mapping set. A segment's bytes
//! depend only on what it holds (a release's cross-references name their source by the
//! segment's place, filled in on reading), so a build takes an unchanged segment from the
//! installed build as it stands.
//!
//! Writer: each statement becomes two entries (the subject's side and the object's, marked
//! inverted), sorted in bounded runs and merged, then grouped into one `MappingNode` per
//! identifier (a record table) with an FST from the identifier to its record. Statements of
//! the same mapping from several sets become one edge with several pieces of evidence. A hub
//! (NCBITaxon's `GC_ID:1` is named by a million xrefs) is written a page of edges at a time,
//! as records in a row, so the writer's memory does not grow with a node's edges.
//!
//! Two small tables share the record ids, so that chaining and cardinality never decode a hub
//! (a MeSH heading with thousands of supplementary records): `hops` holds only the edges a
//! chain may take from the identifier (chaining predicates into another prefix, and the
//! negative statements that block them), `fan_out` the number of distinct identifiers it maps
//! to per prefix.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::counts::MappingIndexCounts;
use super::lexicon::{LexiconWriter, Posting};
use super::runs::RunWriter;
use super::table::TableWriter;
use crate::model::{Evidence, MappingEdge, MappingNode, MappingPredicate, NO_TERM_FOUND};

mod read;

pub use read::{MappingIndex, NodeRead, SegmentRole};

/// Entries held before a run is spilled; mapping entries are a few hundred bytes each.
const MAPPING_RUN_ENTRIES: usize = 1 << 18;
/// Separates the fields of a sort entry; never part of an identifier.
const FIELD: char = '\u{1f}';
/// An identifier longer than this is not indexed (no real one comes close).
pub const MAX_MAPPED_ID_BYTES: usize = 512;

/// Collects statements and writes one segment of the mapping index.
pub struct MappingIndexWriter {
    runs: RunWriter,
    /// The segment's name, which its spilled runs carry.
    segment: String,
    statements: u64,
    error: Option<io::Error>,
}

/// One statement: `subject predicate object`, negated or not, with its evidence.
pub struct Statement<'a> {
    pub subject: &'a str,
    pub predicate: &'a MappingPredicate,
    pub object: &'a str,
    pub negated: bool,
    pub evidence: &'a Evidence,
}

impl MappingIndexWriter {
    /// A writer of segment `segment` that spills its runs into `dir`.
    pub fn spilling(dir: &Path, segment: &str) -> MappingIndexWriter {
        MappingIndexWriter {
            runs: RunWriter::with_run_entries(
                dir,
                &format!("mappings-{segment}"),
                MAPPING_RUN_ENTRIES,
            ),
            segment: segment.to_string(),
            statements: 0,
            error: None,
        }
    }

    /// Statements added so far: what writing the segment will cost.
    pub fn statements(&self) -> u64 {
        self.statements
    }

    /// Spills the entries held in memory, while other segments are filled.
    pub fn park(&mut self) {
        if let Err(e) = self.runs.spill_held() {
            self.error.get_or_insert(e);
        }
    }

    /// Whether an identifier can be indexed: not empty, not too long, no control characters.
    pub fn indexable(id: &str) -> bool {
        !id.is_empty() && id.len() <= MAX_MAPPED_ID_BYTES && !id.chars().any(char::is_control)
    }

    /// Adds one statement; returns false when an identifier cannot be indexed.
    pub fn add(&mut self, statement: &Statement<'_>) -> bool {
        let Statement {
            subject, object, ..
        } = *statement;
        let subject_found = subject != NO_TERM_FOUND;
        let object_found = object != NO_TERM_FOUND;
        let predicate = statement.predicate.curie();
        let indexable =
            Self::indexable(subject) && Self::indexable(object) && Self::indexable(predicate);
        if !indexable || !(subject_found || object_found) {
            return false;
        }
        let evidence = match serde_json::to_string(statement.evidence) {
            Ok(json) => json,
            Err(e) => {
                self.error.get_or_insert(io::Error::other(e));
                return false;
            }
        };
        let negated = u8::from(statement.negated);
        if subject_found {
            self.push(format!(
                "{subject}{FIELD}{object}{FIELD}0{negated}{FIELD}{predicate}{FIELD}{evidence}"
            ));
        }
        if object_found {
            self.push(format!(
                "{object}{FIELD}{subject}{FIELD}1{negated}{FIELD}{predicate}{FIELD}{evidence}"
            ));
        }
        self.statements += 1;
        true
    }

    fn push(&mut self, entry: String) {
        if let Err(e) = self.runs.push(
            entry,
            Posting {
                concept: 0,
                detail: 0,
            },
        ) {
            self.error.get_or_insert(e);
        }
    }

    /// Merges the entries and writes the record table and its FST.
    /// `predicted` lists the mapping sets whose statements are predictions: they do not count
    /// in the fan-out.
    pub fn finish(
        self,
        layout: &MappingFiles,
        predicted: &[u16],
    ) -> io::Result<MappingIndexCounts> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut merge = self.runs.into_sorted()?;
        let mut tables = Tables {
            nodes: TableWriter::create(&layout.data, &layout.index)?,
            hops: TableWriter::create(&layout.hops_data, &layout.hops_index)?,
            fan_out: TableWriter::create(&layout.fan_out_data, &layout.fan_out_index)?,
        };
        let mut keys =
            LexiconWriter::spilling(&layout.spill, &format!("mapping-keys-{}", self.segment));
        let mut counts = MappingIndexCounts {
            statements: self.statements,
            ..MappingIndexCounts::default()
        };
        let mut node: Option<NodePages> = None;
        while let Some((entry, _)) = merge.next_entry()? {
            let (id, edge, evidence) = parse_entry(&entry)?;
            if node.as_ref().is_some_and(|n| n.curie != id)
                && let Some(done) = node.take()
            {
                done.finish(&mut tables, &mut keys, &mut counts)?;
            }
            let current = node.get_or_insert_with(|| NodePages::new(id, predicted));
            current.add(edge, evidence, &mut tables, &mut counts)?;
        }
        if let Some(done) = node.take() {
            done.finish(&mut tables, &mut keys, &mut counts)?;
        }
        tables.nodes.finish()?;
        tables.hops.finish()?;
        tables.fan_out.finish()?;
        keys.write(&layout.fst, &layout.postings)?;
        Ok(counts)
    }
}

fn same_mapping(a: &MappingEdge, b: &MappingEdge) -> bool {
    a.other == b.other
        && a.inverted == b.inverted
        && a.negated == b.negated
        && a.predicate == b.predicate
}

struct Tables {
    nodes: TableWriter<MappingNode>,
    hops: TableWriter<MappingNode>,
    fan_out: TableWriter<FanOut>,
}

/// Distinct identifiers an identifier maps to (positive exact statements) in one prefix, with
/// the first of them, so that segments merge without counting one target twice when it is
/// the only one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrefixFanOut {
    #[serde(rename = "p")]
    pub prefix: String,
    #[serde(rename = "n")]
    pub count: u32,
    #[serde(rename = "f")]
    pub first: String,
}

/// A record of the fan-out table: one entry per prefix, in prefix order.
pub type FanOut = Vec<PrefixFanOut>;

/// Evidence in origin and set order, then line; a statement repeated in one file counts once.
pub(crate) fn order_evidence(evidence: &mut Vec<Evidence>) {
    evidence.sort_by(|a, b| {
        (a.origin, a.set, a.line)
            .cmp(&(b.origin, b.set, b.line))
            .then_with(|| a.cmp(b))
    });
    evidence.dedup();
}

fn prefix_of(curie: &str) -> &str {
    curie.split_once(':').map_or(curie, |(p, _)| p)
}

/// The edges a chain may take from an identifier: chaining predicates into another prefix, and
/// the negative statements that block them.
fn is_hop(own_prefix: &str, edge: &MappingEdge) -> bool {
    edge.other != NO_TERM_FOUND
        && prefix_of(&edge.other) != own_prefix
        && (edge.negated || edge.predicate.may_chain())
}

/// Edges a node record holds at most: a hub's further edges go to further records.
const PAGE_EDGES: usize = 16_384;

/// One identifier's edges as they arrive from the merge (grouped by identifier, then by the
/// other identifier), written a page of records at a time.
struct NodePages<'p> {
    curie: String,
    /// The edge whose evidence is still arriving.
    edge: Option<MappingEdge>,
    page: Vec<MappingEdge>,
    earlier_pages: u32,
    /// Distinct exact targets per prefix (with the first), and the last one counted (edges
    /// to one identifier arrive together).
    fan_out: std::collections::BTreeMap<String, (u32, String)>,
    last_counted: Option<String>,
    predicted: &'p [u16],
}

impl<'p> NodePages<'p> {
    fn new(curie: &str, predicted: &'p [u16]) -> NodePages<'p> {
        NodePages {
            curie: curie.to_string(),
            edge: None,
            page: Vec::new(),
            earlier_pages: 0,
            fan_out: Default::default(),
            last_counted: None,
            predicted,
        }
    }

    /// One statement's side: more evidence for the current edge, or a new edge.
    fn add(
        &mut self,
        edge: MappingEdge,
        evidence: Evidence,
        tables: &mut Tables,
        counts: &mut MappingIndexCounts,
    ) -> io::Result<()> {
        if let Some(current) = &mut self.edge
            && same_mapping(current, &edge)
        {
            current.evidence.push(evidence);
            return Ok(());
        }
        let mut edge = edge;
        edge.evidence.push(evidence);
        if let Some(done) = self.edge.replace(edge) {
            self.complete(done, counts);
            if self.page.len() >= PAGE_EDGES {
                self.write_page(tables, Vec::new())?;
                self.earlier_pages += 1;
            }
        }
        Ok(())
    }

    /// An edge whose evidence is all in: sorted, counted and put on the page.
    fn complete(&mut self, mut edge: MappingEdge, counts: &mut MappingIndexCounts) {
        order_evidence(&mut edge.evidence);
        // Each mapping is counted once, from its subject's side.
        if !edge.inverted || edge.other == NO_TERM_FOUND {
            counts.mappings += 1;
        }
        if self.counts_in_fan_out(&edge) && self.last_counted.as_ref() != Some(&edge.other) {
            self.fan_out
                .entry(prefix_of(&edge.other).to_string())
                .or_insert_with(|| (0, edge.other.clone()))
                .0 += 1;
            self.last_counted = Some(edge.other.clone());
        }
        self.page.push(edge);
    }

    /// A positive exact (or equivalent) statement that is not only a prediction.
    fn counts_in_fan_out(&self, edge: &MappingEdge) -> bool {
        let stated = |e: &Evidence| {
            e.origin != crate::model::EvidenceOrigin::MappingSet || !self.predicted.contains(&e.set)
        };
        !edge.negated
            && edge.other != NO_TERM_FOUND
            && edge.predicate.generalized() == MappingPredicate::ExactMatch
            && edge.evidence.iter().any(stated)
    }

    /// Writes the page as one record in each table (the fan-out only with the last page);
    /// returns the record id.
    fn write_page(&mut self, tables: &mut Tables, fan_out: FanOut) -> io::Result<u32> {
        let own = prefix_of(&self.curie);
        let hops = MappingNode {
            curie: self.curie.clone(),
            edges: self
                .page
                .iter()
                .filter(|e| is_hop(own, e))
                .cloned()
                .collect(),
            earlier_pages: self.earlier_pages,
        };
        let node = MappingNode {
            curie: self.curie.clone(),
            edges: std::mem::take(&mut self.page),
            earlier_pages: self.earlier_pages,
        };
        let id = tables.nodes.push(&node)?;
        tables.hops.push(&hops)?;
        tables.fan_out.push(&fan_out)?;
        Ok(id)
    }

    /// Writes the last page, with the fan-out, and keys the identifier to it.
    fn finish(
        mut self,
        tables: &mut Tables,
        keys: &mut LexiconWriter,
        counts: &mut MappingIndexCounts,
    ) -> io::Result<()> {
        if let Some(done) = self.edge.take() {
            self.complete(done, counts);
        }
        counts.identifiers += 1;
        let fan_out = std::mem::take(&mut self.fan_out)
            .into_iter()
            .map(|(prefix, (count, first))| PrefixFanOut {
                prefix,
                count,
                first,
            })
            .collect();
        let id = self.write_page(tables, fan_out)?;
        keys.add(
            std::mem::take(&mut self.curie),
            Posting {
                concept: id,
                detail: 0,
            },
        );
        Ok(())
    }
}

fn parse_entry(entry: &str) -> io::Result<(&str, MappingEdge, Evidence)> {
    let damaged = || io::Error::new(io::ErrorKind::InvalidData, "damaged mapping run entry");
    let mut fields = entry.splitn(5, FIELD);
    let id = fields.next().ok_or_else(damaged)?;
    let other = fields.next().ok_or_else(damaged)?;
    let flags = fields.next().ok_or_else(damaged)?.as_bytes();
    let predicate = fields.next().ok_or_else(damaged)?;
    let evidence = fields.next().ok_or_else(damaged)?;
    let [inverted, negated] = flags else {
        return Err(damaged());
    };
    let evidence: Evidence = serde_json::from_str(evidence).map_err(|_| damaged())?;
    let edge = MappingEdge {
        other: other.to_string(),
        predicate: MappingPredicate::parse(predicate),
        inverted: *inverted == b'1',
        negated: *negated == b'1',
        evidence: Vec::new(),
    };
    Ok((id, edge, evidence))
}

/// Where one segment's files are.
#[derive(Clone, Debug)]
pub struct MappingFiles {
    /// Where sorted runs may be spilled while writing.
    pub spill: PathBuf,
    pub data: PathBuf,
    pub index: PathBuf,
    pub hops_data: PathBuf,
    pub hops_index: PathBuf,
    pub fan_out_data: PathBuf,
    pub fan_out_index: PathBuf,
    pub fst: PathBuf,
    pub postings: PathBuf,
}

impl MappingFiles {
    /// Every file of the segment.
    pub fn all(&self) -> [&PathBuf; 8] {
        [
            &self.data,
            &self.index,
            &self.hops_data,
            &self.hops_index,
            &self.fan_out_data,
            &self.fan_out_index,
            &self.fst,
            &self.postings,
        ]
    }
}

#[cfg(test)]
mod tests;
