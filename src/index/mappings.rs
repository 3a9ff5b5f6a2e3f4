//! The mapping index: for every identifier a mapping names, one record of its mappings from
//! its own side, so that both directions are one lookup.
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

use super::counts::MappingIndexCounts;
use super::header::FileError;
use super::lexicon::{Lexicon, LexiconWriter, Posting};
use super::runs::RunWriter;
use super::table::{Table, TableWriter};
use crate::model::{Evidence, MappingEdge, MappingNode, MappingPredicate, NO_TERM_FOUND};

/// Entries held before a run is spilled; mapping entries are a few hundred bytes each.
const MAPPING_RUN_ENTRIES: usize = 1 << 18;
/// Separates the fields of a sort entry; never part of an identifier.
const FIELD: char = '\u{1f}';
/// An identifier longer than this is not indexed (no real one comes close).
pub const MAX_MAPPED_ID_BYTES: usize = 512;

/// Collects statements and writes the mapping index.
pub struct MappingIndexWriter {
    runs: RunWriter,
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
    /// A writer that spills its runs into `dir`.
    pub fn spilling(dir: &Path) -> MappingIndexWriter {
        MappingIndexWriter {
            runs: RunWriter::with_run_entries(dir, "mappings", MAPPING_RUN_ENTRIES),
            statements: 0,
            error: None,
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
        let mut keys = LexiconWriter::spilling(&layout.spill, "mapping-keys");
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

/// Distinct identifiers an identifier maps to (positive statements), per prefix.
pub type FanOut = Vec<(String, u32)>;

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
    /// Distinct exact targets per prefix, and the last one counted (edges to one identifier
    /// arrive together).
    fan_out: std::collections::BTreeMap<String, u32>,
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
        // Evidence in set order, then line; a statement repeated in one file counts once.
        edge.evidence.sort_by(|a, b| {
            (a.origin, a.set, a.line)
                .cmp(&(b.origin, b.set, b.line))
                .then_with(|| a.cmp(b))
        });
        edge.evidence.dedup();
        // Each mapping is counted once, from its subject's side.
        if !edge.inverted || edge.other == NO_TERM_FOUND {
            counts.mappings += 1;
        }
        if self.counts_in_fan_out(&edge) && self.last_counted.as_ref() != Some(&edge.other) {
            *self
                .fan_out
                .entry(prefix_of(&edge.other).to_string())
                .or_default() += 1;
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
        let fan_out = std::mem::take(&mut self.fan_out).into_iter().collect();
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

/// An identifier's mappings, or how many there are when too many to read for one answer.
#[derive(Debug)]
pub enum NodeRead {
    Whole(MappingNode),
    TooMany { edges: u64 },
}

/// Where the mapping index's files are.
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
    /// Every file of the mapping index.
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

/// The mapping index, memory-mapped.
pub struct MappingIndex {
    keys: Lexicon,
    table: Table<MappingNode>,
    hops: Table<MappingNode>,
    fan_out: Table<FanOut>,
}

impl MappingIndex {
    pub fn open(files: &MappingFiles) -> Result<MappingIndex, FileError> {
        Ok(MappingIndex {
            keys: Lexicon::open(&files.fst, &files.postings)?,
            table: Table::open(&files.data, &files.index)?,
            hops: Table::open(&files.hops_data, &files.hops_index)?,
            fan_out: Table::open(&files.fan_out_data, &files.fan_out_index)?,
        })
    }

    /// The edges a chain may take from `curie` and its negative statements.
    pub fn hops(&self, curie: &str) -> io::Result<Option<MappingNode>> {
        let Some(posting) = self.keys.get_first(curie) else {
            return Ok(None);
        };
        Ok(Some(read_pages(&self.hops, posting.concept, curie)?))
    }

    /// How many distinct identifiers `curie` maps to, per prefix.
    pub fn fan_out(&self, curie: &str) -> io::Result<FanOut> {
        let Some(posting) = self.keys.get_first(curie) else {
            return Ok(Vec::new());
        };
        Ok(self.fan_out.get_checked(posting.concept)?)
    }

    /// Every mapping that names `curie` (a normalized CURIE), or `None` when none does. A
    /// record the index points at but cannot read is an error, never "no mappings".
    pub fn node(&self, curie: &str) -> io::Result<Option<MappingNode>> {
        let Some(posting) = self.keys.get_first(curie) else {
            return Ok(None);
        };
        Ok(Some(read_pages(&self.table, posting.concept, curie)?))
    }

    /// Every mapping that names `curie`, unless more than `max_edges` do: then only how many
    /// (read from the last of its records, without joining the earlier pages).
    pub fn node_within(&self, curie: &str, max_edges: u64) -> io::Result<Option<NodeRead>> {
        read_within(&self.keys, &self.table, curie, max_edges)
    }

    /// The edges a chain may take from `curie`, unless its node spans more than `max_edges`
    /// edges (hops are a subset of them; `TooMany` then counts the earlier pages' edges and
    /// the last page's hops).
    pub fn hops_within(&self, curie: &str, max_edges: u64) -> io::Result<Option<NodeRead>> {
        read_within(&self.keys, &self.hops, curie, max_edges)
    }

    /// Whether any mapping names `curie`.
    pub fn contains(&self, curie: &str) -> bool {
        self.keys.get_first(curie).is_some()
    }

    /// Identifiers with mappings that start with `prefix`, for completion.
    pub fn complete(&self, prefix: &str, limit: usize) -> Vec<String> {
        self.keys
            .prefixed(prefix, limit)
            .into_iter()
            .map(|(key, _)| key)
            .collect()
    }
}

/// The record keyed by `curie` in `table`, pages joined, unless its node has more than
/// `max_edges` edges: every earlier page holds exactly `PAGE_EDGES` of the node's edges.
fn read_within(
    keys: &Lexicon,
    table: &Table<MappingNode>,
    curie: &str,
    max_edges: u64,
) -> io::Result<Option<NodeRead>> {
    let Some(posting) = keys.get_first(curie) else {
        return Ok(None);
    };
    let last = table.get_checked(posting.concept)?;
    let edges = u64::from(last.earlier_pages) * PAGE_EDGES as u64 + last.edges.len() as u64;
    if edges > max_edges {
        return Ok(Some(NodeRead::TooMany { edges }));
    }
    Ok(Some(NodeRead::Whole(read_pages(
        table,
        posting.concept,
        curie,
    )?)))
}

/// A node's record at `last` with the records of its earlier pages, edges in written order.
fn read_pages(
    table: &Table<MappingNode>,
    last: u32,
    curie: &str,
) -> Result<MappingNode, FileError> {
    let mut node = table.get_checked(last)?;
    if node.earlier_pages == 0 {
        return Ok(node);
    }
    let first = last
        .checked_sub(node.earlier_pages)
        .ok_or_else(|| table.damaged(last, "counts more earlier pages than records before it"))?;
    let mut edges = Vec::new();
    for id in first..last {
        let page = table.get_checked(id)?;
        if page.curie != curie || page.earlier_pages != id - first {
            return Err(table.damaged(id, "is not the earlier page its identifier's record names"));
        }
        edges.extend(page.edges);
    }
    edges.append(&mut node.edges);
    node.edges = edges;
    node.earlier_pages = 0;
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::EvidenceOrigin;

    fn evidence(set: u16) -> Evidence {
        Evidence {
            set,
            origin: EvidenceOrigin::MappingSet,
            justification: "semapv:ManualMappingCuration".into(),
            confidence_milli: None,
            author_id: Vec::new(),
            reviewer_id: Vec::new(),
            mapping_tool: None,
            mapping_date: None,
            source_predicate: None,
            line: Some(u64::from(set) + 10),
            comment: None,
        }
    }

    #[test]
    fn a_pair_stated_by_two_sets_is_one_edge_on_each_side() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut writer = MappingIndexWriter::spilling(dir.path());
        let exact = MappingPredicate::ExactMatch;
        for set in [0, 1] {
            assert!(writer.add(&Statement {
                subject: "MESH:C000089",
                predicate: &exact,
                object: "CHEBI:28646",
                negated: false,
                evidence: &evidence(set),
            }));
        }
        assert!(writer.add(&Statement {
            subject: "MESH:C000089",
            predicate: &exact,
            object: NO_TERM_FOUND,
            negated: false,
            evidence: &evidence(2),
        }));
        let files = crate::index::BuildLayout::new(dir.path()).mappings();
        let counts = writer.finish(&files, &[]).expect("finish");
        assert_eq!(counts.identifiers, 2);
        assert_eq!(counts.statements, 3);
        assert_eq!(counts.mappings, 2);
        let index = MappingIndex::open(&files).expect("open");
        let mesh = index.node("MESH:C000089").expect("read").expect("node");
        let chebi_edge = mesh
            .edges
            .iter()
            .find(|e| e.other == "CHEBI:28646")
            .expect("edge");
        assert_eq!(chebi_edge.evidence.len(), 2);
        assert!(!chebi_edge.inverted);
        let chebi = index.node("CHEBI:28646").expect("read").expect("node");
        assert!(chebi.edges[0].inverted);
        assert_eq!(chebi.edges[0].evidence.len(), 2);
        assert!(index.node("CHEBI:1").expect("read").is_none());
        assert_eq!(
            index.fan_out("MESH:C000089").expect("read"),
            vec![("CHEBI".to_string(), 1)]
        );
        let hops = index.hops("MESH:C000089").expect("read").expect("node");
        assert_eq!(hops.edges.len(), 1, "the NoTermFound row is no hop");
        assert!(index.node(NO_TERM_FOUND).expect("read").is_none());
    }

    #[test]
    fn a_hub_named_by_more_edges_than_a_page_reads_back_whole_with_its_fan_out_and_hops() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut writer = MappingIndexWriter::spilling(dir.path());
        let (xref, exact) = (MappingPredicate::DbXref, MappingPredicate::ExactMatch);
        let mut add = |subject: &str, predicate: &MappingPredicate, set: u16| {
            assert!(writer.add(&Statement {
                subject,
                predicate,
                object: "GC_ID:1",
                negated: false,
                evidence: &evidence(set),
            }));
        };
        let xrefs = 2 * PAGE_EDGES + 100;
        for i in 0..xrefs {
            add(&format!("SYNTAX:{i}"), &xref, 0);
        }
        let exacts = PAGE_EDGES + 7;
        for i in 0..exacts {
            add(&format!("X:{i}"), &exact, 0);
        }
        add("X:5", &exact, 1);
        add("X:7", &xref, 0);
        let files = crate::index::BuildLayout::new(dir.path()).mappings();
        let counts = writer.finish(&files, &[]).expect("finish");
        assert_eq!(counts.identifiers as usize, 1 + xrefs + exacts);
        assert_eq!(counts.mappings as usize, xrefs + exacts + 1);
        let index = MappingIndex::open(&files).expect("open");
        let hub_edges = xrefs + exacts + 1;
        assert_eq!(
            index.table.len() as usize,
            counts.identifiers as usize - 1 + hub_edges.div_ceil(PAGE_EDGES),
            "the hub spans a record per page"
        );
        let hub = index.node("GC_ID:1").expect("read").expect("node");
        assert_eq!(hub.earlier_pages, 0, "pages are joined on reading");
        match index.node_within("GC_ID:1", hub_edges as u64 - 1) {
            Ok(Some(NodeRead::TooMany { edges })) => assert_eq!(edges, hub_edges as u64),
            other => panic!("a hub over the bound is counted, not read: {other:?}"),
        }
        assert!(matches!(
            index.node_within("GC_ID:1", hub_edges as u64),
            Ok(Some(NodeRead::Whole(n))) if n.edges.len() == hub_edges
        ));
        assert_eq!(hub.edges.len(), hub_edges);
        assert!(hub.edges.iter().all(|e| e.inverted));
        let others: Vec<&str> = hub.edges.iter().map(|e| e.other.as_str()).collect();
        assert!(others.is_sorted(), "edges in identifier order across pages");
        let x5 = hub.edges.iter().find(|e| e.other == "X:5").expect("X:5");
        assert_eq!(x5.evidence.len(), 2, "two sets' evidence on one edge");
        assert_eq!(
            index.fan_out("GC_ID:1").expect("read"),
            vec![("X".to_string(), exacts as u32)],
            "distinct exact targets, X:7 once"
        );
        let hops = index.hops("GC_ID:1").expect("read").expect("hops");
        assert_eq!(
            hops.edges.len(),
            exacts,
            "exact matches chain, xrefs do not"
        );
        assert!(
            matches!(
                index.hops_within("GC_ID:1", PAGE_EDGES as u64),
                Ok(Some(NodeRead::TooMany { .. }))
            ),
            "a hub's hops are not read past the bound"
        );
        assert!(matches!(
            index.hops_within("GC_ID:1", hub_edges as u64),
            Ok(Some(NodeRead::Whole(n))) if n.edges.len() == exacts
        ));
        // Records after the hub's pages still line up across the three tables.
        let after = index.node("X:5").expect("read").expect("node");
        assert_eq!(after.edges.len(), 1);
        assert_eq!(
            index.fan_out("X:5").expect("read"),
            vec![("GC_ID".to_string(), 1)]
        );
        assert_eq!(
            index.hops("X:5").expect("read").expect("hops").edges.len(),
            1
        );
    }
}
