//! Reading the mapping index: each segment memory-mapped, and the segments read as one. An
//! identifier named in several segments (a source's cross-reference that a mapping set also
//! states) gets one node, its edges merged and ordered as one segment would order them.

use std::io;

use super::{FanOut, MappingFiles, PAGE_EDGES, order_evidence, same_mapping};
use crate::index::header::FileError;
use crate::index::lexicon::Lexicon;
use crate::index::table::Table;
use crate::model::{EvidenceOrigin, MappingEdge, MappingNode};

/// An identifier's mappings, or how many there are when too many to read for one answer.
#[derive(Debug)]
pub enum NodeRead {
    Whole(MappingNode),
    TooMany { edges: u64 },
}

/// What a segment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentRole {
    /// A current source release's cross-references; they name their source by its number
    /// among the current sources (`Manifest::xref_source`), given on reading.
    Release { xref_number: u16 },
    /// Every mapping set's statements.
    MappingSets,
}

/// One segment, memory-mapped.
struct MappingSegment {
    keys: Lexicon,
    table: Table<MappingNode>,
    hops: Table<MappingNode>,
    fan_out: Table<FanOut>,
    role: SegmentRole,
}

/// Which of a segment's node tables to read.
#[derive(Clone, Copy)]
enum Edges {
    All,
    Hops,
}

impl MappingSegment {
    fn open(files: &MappingFiles, role: SegmentRole) -> Result<MappingSegment, FileError> {
        Ok(MappingSegment {
            keys: Lexicon::open(&files.fst, &files.postings)?,
            table: Table::open(&files.data, &files.index)?,
            hops: Table::open(&files.hops_data, &files.hops_index)?,
            fan_out: Table::open(&files.fan_out_data, &files.fan_out_index)?,
            role,
        })
    }

    fn table(&self, edges: Edges) -> &Table<MappingNode> {
        match edges {
            Edges::All => &self.table,
            Edges::Hops => &self.hops,
        }
    }

    /// The record id of `curie`'s last page.
    fn last_page(&self, curie: &str) -> Result<Option<u32>, FileError> {
        Ok(self.keys.get_first(curie)?.map(|p| p.concept))
    }

    /// How many edges the node whose last page is `last` spans: every earlier page holds
    /// exactly `PAGE_EDGES`.
    fn edges_of(&self, which: Edges, last: u32) -> Result<u64, FileError> {
        let page = self.table(which).get(last)?;
        Ok(u64::from(page.earlier_pages) * PAGE_EDGES as u64 + page.edges.len() as u64)
    }

    /// The node whose last page is `last`, pages joined, its evidence numbered for the build.
    fn read(&self, which: Edges, last: u32, curie: &str) -> Result<MappingNode, FileError> {
        let mut node = read_pages(self.table(which), last, curie)?;
        if let SegmentRole::Release { xref_number } = self.role {
            let evidence = node.edges.iter_mut().flat_map(|e| e.evidence.iter_mut());
            for e in evidence.filter(|e| e.origin == EvidenceOrigin::SourceXref) {
                e.set = xref_number;
            }
        }
        Ok(node)
    }
}

/// The mapping index: every segment, read as one.
pub struct MappingIndex {
    segments: Vec<MappingSegment>,
}

impl MappingIndex {
    pub fn open(segments: &[(MappingFiles, SegmentRole)]) -> Result<MappingIndex, FileError> {
        let segments = segments
            .iter()
            .map(|(files, role)| MappingSegment::open(files, *role))
            .collect::<Result<_, _>>()?;
        Ok(MappingIndex { segments })
    }

    /// Each segment that names `curie`, with the record id of its last page there.
    fn found(&self, curie: &str) -> Result<Vec<(&MappingSegment, u32)>, FileError> {
        let mut found = Vec::new();
        for s in &self.segments {
            if let Some(last) = s.last_page(curie)? {
                found.push((s, last));
            }
        }
        Ok(found)
    }

    /// `curie`'s node from the chosen tables of every segment, unless its edges there number
    /// more than `max_edges` in all (then how many: a bound, as one edge may be in several).
    fn read_within(
        &self,
        which: Edges,
        curie: &str,
        max_edges: u64,
    ) -> io::Result<Option<NodeRead>> {
        let found = self.found(curie)?;
        if found.is_empty() {
            return Ok(None);
        }
        if max_edges < u64::MAX {
            let mut edges = 0u64;
            for (segment, last) in &found {
                edges = edges.saturating_add(segment.edges_of(which, *last)?);
            }
            if edges > max_edges {
                return Ok(Some(NodeRead::TooMany { edges }));
            }
        }
        let mut nodes = Vec::with_capacity(found.len());
        for (segment, last) in found {
            nodes.push(segment.read(which, last, curie)?);
        }
        let first = nodes.remove(0);
        Ok(Some(NodeRead::Whole(merge_nodes(first, nodes))))
    }

    fn read_whole(&self, which: Edges, curie: &str) -> io::Result<Option<MappingNode>> {
        Ok(match self.read_within(which, curie, u64::MAX)? {
            Some(NodeRead::Whole(node)) => Some(node),
            Some(NodeRead::TooMany { .. }) | None => None,
        })
    }

    /// The edges a chain may take from `curie` and its negative statements.
    pub fn hops(&self, curie: &str) -> io::Result<Option<MappingNode>> {
        self.read_whole(Edges::Hops, curie)
    }

    /// How many distinct identifiers `curie` maps to, per prefix, in prefix order. Exact
    /// within a segment; across segments a prefix whose only target is the same in each
    /// counts one, and otherwise the counts add up (what matters is one or more than one).
    pub fn fan_out(&self, curie: &str) -> io::Result<Vec<(String, u32)>> {
        let mut merged: std::collections::BTreeMap<String, (u32, Option<String>)> =
            Default::default();
        for (segment, last) in self.found(curie)? {
            for entry in segment.fan_out.get(last)? {
                let sole = (entry.count == 1).then_some(entry.first);
                match merged.get_mut(&entry.prefix) {
                    Some((count, only)) if *count == 1 && only.is_some() && *only == sole => {}
                    Some((count, only)) => {
                        *count = count.saturating_add(entry.count);
                        *only = None;
                    }
                    None => {
                        merged.insert(entry.prefix, (entry.count, sole));
                    }
                }
            }
        }
        Ok(merged.into_iter().map(|(p, (n, _))| (p, n)).collect())
    }

    /// Every mapping that names `curie` (a normalized CURIE), or `None` when none does. A
    /// record the index points at but cannot read is an error, never "no mappings".
    pub fn node(&self, curie: &str) -> io::Result<Option<MappingNode>> {
        self.read_whole(Edges::All, curie)
    }

    /// Every mapping that names `curie`, unless more than `max_edges` do: then only how many
    /// (read from the last of its records in each segment, without joining earlier pages).
    pub fn node_within(&self, curie: &str, max_edges: u64) -> io::Result<Option<NodeRead>> {
        self.read_within(Edges::All, curie, max_edges)
    }

    /// The edges a chain may take from `curie`, unless its node spans more than `max_edges`
    /// edges (hops are a subset of them; `TooMany` then counts the earlier pages' edges and
    /// the last page's hops).
    pub fn hops_within(&self, curie: &str, max_edges: u64) -> io::Result<Option<NodeRead>> {
        self.read_within(Edges::Hops, curie, max_edges)
    }

    /// Whether any mapping names `curie`.
    pub fn contains(&self, curie: &str) -> Result<bool, FileError> {
        for s in &self.segments {
            if s.last_page(curie)?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Identifiers with mappings that start with `prefix`, for completion, in order.
    pub fn complete(&self, prefix: &str, limit: usize) -> Result<Vec<String>, FileError> {
        let mut keys = Vec::new();
        for s in &self.segments {
            keys.extend(
                s.keys
                    .prefixed(prefix, limit)?
                    .into_iter()
                    .map(|(key, _)| key),
            );
        }
        keys.sort_unstable();
        keys.dedup();
        keys.truncate(limit);
        Ok(keys)
    }

    /// Records over every segment's node table, for tests of the layout.
    #[cfg(test)]
    pub(super) fn records(&self) -> u32 {
        self.segments.iter().map(|s| s.table.len()).sum()
    }
}

/// The order a segment writes an identifier's edges in: by the other identifier, direction,
/// negation and predicate (its sort entries' order).
fn edge_order(a: &MappingEdge, b: &MappingEdge) -> std::cmp::Ordering {
    (a.other.as_str(), a.inverted, a.negated, a.predicate.curie()).cmp(&(
        b.other.as_str(),
        b.inverted,
        b.negated,
        b.predicate.curie(),
    ))
}

/// One node from the same identifier's nodes in several segments: the same mapping stated in
/// several becomes one edge with all their evidence.
fn merge_nodes(mut node: MappingNode, others: Vec<MappingNode>) -> MappingNode {
    if others.is_empty() {
        return node;
    }
    let mut edges = std::mem::take(&mut node.edges);
    edges.extend(others.into_iter().flat_map(|n| n.edges));
    edges.sort_by(edge_order);
    for edge in edges {
        match node.edges.last_mut() {
            Some(last) if same_mapping(last, &edge) => {
                last.evidence.extend(edge.evidence);
                order_evidence(&mut last.evidence);
            }
            _ => node.edges.push(edge),
        }
    }
    node
}

/// A node's record at `last` with the records of its earlier pages, edges in written order.
fn read_pages(
    table: &Table<MappingNode>,
    last: u32,
    curie: &str,
) -> Result<MappingNode, FileError> {
    let mut node = table.get(last)?;
    if node.earlier_pages == 0 {
        return Ok(node);
    }
    let first = last
        .checked_sub(node.earlier_pages)
        .ok_or_else(|| table.damaged(last, "counts more earlier pages than records before it"))?;
    let mut edges = Vec::new();
    for id in first..last {
        let page = table.get(id)?;
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
