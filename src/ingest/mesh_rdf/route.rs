//! Routes MeSH RDF facts to the records they describe, in passes over sorted runs.
//!
//! Each pass reads facts grouped by one node and files what it learns under the node the next
//! pass groups by:
//! 1. by concept (or record): who owns it; its term, related-concept and tree-number edges go
//!    to its owners and to itself when it is a record; a descriptor's tree numbers are noted;
//! 2. by term (or tree number): its labels go to the records that own it; a tree number's
//!    parents (stated, else its number minus the last segment) are noted by their text;
//! 3. by tree-number text: the descriptors holding a text become the parents of the
//!    descriptors whose tree numbers have it as parent;
//!
//! and the records' own facts, with everything routed to them, come out one record at a time.
//! Every fact keeps its arrival number, so that the join sees a record's facts in input order.

use std::io;
use std::iter::Peekable;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Lit, MAX_VALUES_PER_NODE, NodeKey, Rel, push_unique, tree_text};
use crate::ingest::spill::Sorter;
use crate::model::ConceptKind;

/// Facts a pass holds before spilling them as a sorted run.
pub(super) const RUN_FACTS: usize = 1 << 18;
/// Facts one group keeps; real nodes have a few dozen, so this only bounds hostile input.
const MAX_GROUP_FACTS: usize = 1 << 16;

/// A fact filed under the node (or text) a pass groups by, with its arrival number.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(super) struct Keyed<K, F>(K, u64, F);

/// What the first pass reads about a concept or record.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(super) enum ConceptFact {
    /// A record that points at this node as one of its concepts.
    Owner(NodeKey),
    /// This node is a record of this kind.
    Record(ConceptKind),
    Edge(Rel, NodeKey),
}

/// What the second pass reads about a term or tree number.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(super) enum TermFact {
    /// A record whose labels include this term's.
    Owner(NodeKey),
    /// A descriptor that holds this tree number.
    TreeOf(NodeKey),
    Lit(Lit, Box<str>, Option<Box<str>>),
    ParentTree(NodeKey),
}

/// What the third pass reads about a tree number's text.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
enum TreeFact {
    /// A descriptor holding a tree number with this text.
    HeldBy(NodeKey),
    /// A descriptor with a tree number whose parent has this text.
    ParentOf(NodeKey),
}

/// What the join reads about a record: its own facts, and those of its concepts and terms
/// (`from` names the node a routed fact is about; `None` is the record itself).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(super) enum RecordFact {
    Record(ConceptKind),
    Deprecated,
    Edge {
        from: Option<NodeKey>,
        rel: Rel,
        to: NodeKey,
    },
    Lit {
        from: Option<NodeKey>,
        lit: Lit,
        text: Box<str>,
        lang: Option<Box<str>>,
    },
    /// A descriptor that holds the parent of one of this record's tree numbers.
    TreeParent(NodeKey),
}

/// One record's facts, in arrival order; a group with no record type is a part's.
pub(super) struct Bundle {
    pub(super) key: NodeKey,
    pub(super) facts: Vec<RecordFact>,
}

/// The sorted facts of every pass.
pub(super) struct Stages {
    concepts: Sorter<Keyed<NodeKey, ConceptFact>>,
    terms: Sorter<Keyed<NodeKey, TermFact>>,
    trees: Sorter<Keyed<Box<str>, TreeFact>>,
    records: Sorter<Keyed<NodeKey, RecordFact>>,
}

impl Stages {
    /// Spilling under `dir` every `run` facts (holding every fact without a directory).
    pub(super) fn new(dir: Option<&Path>, run: usize) -> Stages {
        Stages {
            concepts: Sorter::new(dir, "mesh-concepts", run),
            terms: Sorter::new(dir, "mesh-terms", run),
            trees: Sorter::new(dir, "mesh-trees", run),
            records: Sorter::new(dir, "mesh-records", run),
        }
    }

    pub(super) fn record_type(
        &mut self,
        node: NodeKey,
        seq: u64,
        kind: ConceptKind,
    ) -> io::Result<()> {
        self.concepts
            .push(Keyed(node.clone(), seq, ConceptFact::Record(kind)))?;
        self.record(node, seq, RecordFact::Record(kind))
    }

    pub(super) fn concept(&mut self, node: NodeKey, seq: u64, fact: ConceptFact) -> io::Result<()> {
        self.concepts.push(Keyed(node, seq, fact))
    }

    pub(super) fn term(&mut self, node: NodeKey, seq: u64, fact: TermFact) -> io::Result<()> {
        self.terms.push(Keyed(node, seq, fact))
    }

    pub(super) fn record(&mut self, node: NodeKey, seq: u64, fact: RecordFact) -> io::Result<()> {
        self.records.push(Keyed(node, seq, fact))
    }

    /// Runs the passes and gives each node's bundle, in IRI order.
    pub(super) fn route(mut self) -> io::Result<impl Iterator<Item = io::Result<Bundle>>> {
        for group in groups(self.concepts.sorted()?) {
            let (node, facts) = group?;
            by_concept(
                &node,
                facts,
                &mut self.terms,
                &mut self.trees,
                &mut self.records,
            )?;
        }
        for group in groups(self.terms.sorted()?) {
            let (node, facts) = group?;
            by_term(&node, facts, &mut self.trees, &mut self.records)?;
        }
        for group in groups(self.trees.sorted()?) {
            let (_, facts) = group?;
            by_tree_text(facts, &mut self.records)?;
        }
        Ok(groups(self.records.sorted()?).map(|group| {
            group.map(|(key, facts)| Bundle {
                key,
                facts: facts.into_iter().map(|(_, fact)| fact).collect(),
            })
        }))
    }
}

/// Pass 1 at one concept or record.
fn by_concept(
    node: &NodeKey,
    facts: Vec<(u64, ConceptFact)>,
    terms: &mut Sorter<Keyed<NodeKey, TermFact>>,
    trees: &mut Sorter<Keyed<Box<str>, TreeFact>>,
    records: &mut Sorter<Keyed<NodeKey, RecordFact>>,
) -> io::Result<()> {
    let mut owners: Vec<&NodeKey> = Vec::new();
    let mut kind = None;
    for (_, fact) in &facts {
        match fact {
            ConceptFact::Owner(owner) => push_unique(&mut owners, owner),
            ConceptFact::Record(k) => {
                kind.get_or_insert(*k);
            }
            ConceptFact::Edge(..) => {}
        }
    }
    let mut trees_held: Vec<&NodeKey> = Vec::new();
    for (seq, fact) in &facts {
        let ConceptFact::Edge(rel, to) = fact else {
            continue;
        };
        let (seq, rel) = (*seq, *rel);
        if kind.is_some() {
            records.push(Keyed(
                node.clone(),
                seq,
                RecordFact::Edge {
                    from: None,
                    rel,
                    to: to.clone(),
                },
            ))?;
        }
        match rel {
            Rel::PrefTerm | Rel::Term => {
                let readers = kind.map(|_| node).into_iter().chain(owners.iter().copied());
                for reader in readers {
                    terms.push(Keyed(to.clone(), seq, TermFact::Owner(reader.clone())))?;
                }
            }
            Rel::TreeNumber if kind == Some(ConceptKind::Descriptor) => {
                if trees_held.len() < MAX_VALUES_PER_NODE && !trees_held.contains(&to) {
                    trees_held.push(to);
                    let text: Box<str> = tree_text(to.as_str()).into();
                    if !text.is_empty() {
                        trees.push(Keyed(text, seq, TreeFact::HeldBy(node.clone())))?;
                    }
                    terms.push(Keyed(to.clone(), seq, TermFact::TreeOf(node.clone())))?;
                }
                continue;
            }
            Rel::RelatedConcept => {}
            _ => continue,
        }
        for owner in &owners {
            let from = Some(node.clone());
            records.push(Keyed(
                (*owner).clone(),
                seq,
                RecordFact::Edge {
                    from,
                    rel,
                    to: to.clone(),
                },
            ))?;
        }
    }
    Ok(())
}

/// Pass 2 at one term or tree number.
fn by_term(
    node: &NodeKey,
    facts: Vec<(u64, TermFact)>,
    trees: &mut Sorter<Keyed<Box<str>, TreeFact>>,
    records: &mut Sorter<Keyed<NodeKey, RecordFact>>,
) -> io::Result<()> {
    let (mut owners, mut held_by, mut stated) = (Vec::new(), Vec::new(), Vec::new());
    for (seq, fact) in &facts {
        match fact {
            TermFact::Owner(owner) => push_unique(&mut owners, owner),
            TermFact::TreeOf(descriptor) => push_unique(&mut held_by, (descriptor, *seq)),
            TermFact::ParentTree(parent) => push_unique(&mut stated, tree_text(parent.as_str())),
            TermFact::Lit(..) => {}
        }
    }
    for (seq, fact) in &facts {
        let TermFact::Lit(lit, text, lang) = fact else {
            continue;
        };
        for &owner in &owners {
            let from = Some(node.clone());
            let (lit, text, lang) = (*lit, text.clone(), lang.clone());
            records.push(Keyed(
                owner.clone(),
                *seq,
                RecordFact::Lit {
                    from,
                    lit,
                    text,
                    lang,
                },
            ))?;
        }
    }
    if held_by.is_empty() {
        return Ok(());
    }
    // No parentTreeNumber: the parent is the tree number minus its last segment.
    let derived = tree_text(node.as_str())
        .rsplit_once('.')
        .map(|(parent, _)| parent);
    let parents: Vec<&str> = if stated.is_empty() {
        derived.into_iter().collect()
    } else {
        stated
    };
    for text in parents.into_iter().filter(|t| !t.is_empty()) {
        for &(descriptor, seq) in &held_by {
            trees.push(Keyed(
                text.into(),
                seq,
                TreeFact::ParentOf(descriptor.clone()),
            ))?;
        }
    }
    Ok(())
}

/// Pass 3 at one tree-number text.
fn by_tree_text(
    facts: Vec<(u64, TreeFact)>,
    records: &mut Sorter<Keyed<NodeKey, RecordFact>>,
) -> io::Result<()> {
    let (mut holders, mut children) = (Vec::new(), Vec::new());
    for (seq, fact) in &facts {
        match fact {
            TreeFact::HeldBy(descriptor) => push_unique(&mut holders, descriptor),
            TreeFact::ParentOf(descriptor) => push_unique(&mut children, (descriptor, *seq)),
        }
    }
    for (child, seq) in children {
        for &holder in &holders {
            records.push(Keyed(
                child.clone(),
                seq,
                RecordFact::TreeParent(holder.clone()),
            ))?;
        }
    }
    Ok(())
}

/// The facts of a sorted stream grouped by key, each group in arrival order without repeats.
fn groups<K: PartialEq, F: PartialEq>(sorted: SortedFacts<K, F>) -> Groups<K, F> {
    Groups {
        sorted: sorted.peekable(),
    }
}

/// A pass's facts as its sorter gives them back.
type SortedFacts<K, F> = Box<dyn Iterator<Item = io::Result<Keyed<K, F>>>>;

struct Groups<K, F> {
    sorted: Peekable<SortedFacts<K, F>>,
}

impl<K: PartialEq, F: PartialEq> Iterator for Groups<K, F> {
    type Item = io::Result<(K, Vec<(u64, F)>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let Keyed(key, seq, fact) = match self.sorted.next()? {
            Ok(first) => first,
            Err(error) => return Some(Err(error)),
        };
        let mut group = vec![(seq, fact)];
        while let Some(Ok(Keyed(next, ..))) = self.sorted.peek()
            && *next == key
        {
            let Some(Ok(Keyed(_, seq, fact))) = self.sorted.next() else {
                break;
            };
            // Dumps repeat some triples, and a fact routed along two paths arrives twice.
            if group.len() < MAX_GROUP_FACTS {
                push_unique_last(&mut group, (seq, fact));
            }
        }
        if let Some(Err(_)) = self.sorted.peek()
            && let Some(Err(error)) = self.sorted.next()
        {
            return Some(Err(error));
        }
        Some(Ok((key, group)))
    }
}

/// Pushes unless the value repeats the last one (sorted input puts repeats side by side).
fn push_unique_last<T: PartialEq>(values: &mut Vec<T>, value: T) {
    if values.last() != Some(&value) {
        values.push(value);
    }
}
