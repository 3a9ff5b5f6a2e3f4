//! NLM's MeSH RDF (`meshv:` vocabulary): joins descriptors, supplementary concept records and
//! qualifiers with their concepts, terms and tree numbers into [`Concept`]s.
//!
//! One MeSH record is spread over several nodes: the record points at concepts, concepts at
//! terms, terms carry the labels, and tree numbers carry the hierarchy. Triples come in any
//! order, so [`MeshRdf::observe`] keeps only the edges and literals the join needs, keyed by
//! interned node ids, and [`MeshRdf::finish`] joins them. Year-versioned IRIs
//! (`http://id.nlm.nih.gov/mesh/2020/D000001`) are read as their unversioned form.

mod join;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use oxrdf::{NamedNode, NamedOrBlankNode, Term, Triple};

use super::vocab::{OWL_DEPRECATED, RDF_TYPE, RDFS_LABEL};
use crate::model::{Concept, ConceptKind, Prefixes, SourceIdx};

/// The MeSH id space; every node key is relative to it.
const MESH: &str = "http://id.nlm.nih.gov/mesh/";
/// The MeSH RDF vocabulary (`meshv:`).
const MESHV: &str = "http://id.nlm.nih.gov/mesh/vocab#";
/// Digits of the year segment in year-versioned IRIs (`…/mesh/2020/…`).
const YEAR_DIGITS: usize = 4;
/// Values the join reads per node and relation; real records have at most a few dozen, so
/// this only bounds the join's work on hostile input.
const MAX_VALUES_PER_NODE: usize = 512;
/// Distinct language tags kept; labels in further languages are dropped.
const MAX_LANGS: usize = u16::MAX as usize - 1;
/// Marks a node key holding a whole IRI outside [`MESH`]; `<` cannot occur in an IRI.
const FOREIGN: char = '<';

/// The node-to-node relations the join follows.
#[derive(Clone, Copy)]
enum Rel {
    PrefConcept,
    Concept,
    PrefTerm,
    Term,
    TreeNumber,
    ParentTree,
    Broader,
    PreferredMappedTo,
    MappedTo,
    /// meshv:relatedConcept: a concept of the descriptor that is related to, not narrower
    /// than, the preferred one.
    RelatedConcept,
}
const RELS: usize = 10;

/// The literals the join reads.
#[derive(Clone, Copy)]
enum Lit {
    /// rdfs:label: a record's fallback name (and its translations).
    Name,
    /// meshv:prefLabel of a term.
    PrefLabel,
    /// meshv:altLabel of a term.
    AltLabel,
}
const LITS: usize = 3;

/// A literal: a span of [`MeshRdf::texts`] and a language (0: none, else `langs[lang - 1]`).
#[derive(Clone, Copy)]
struct Text {
    start: u32,
    len: u32,
    lang: u16,
}

/// (node, value) facts of one kind: in arrival order until sealed, then sorted by node. Flat
/// pairs cost 8 to 16 bytes a fact, where a map of vectors costs a vector and an entry a node.
struct Facts<T> {
    items: Vec<(u32, T)>,
}

impl<T> Default for Facts<T> {
    fn default() -> Self {
        Facts { items: Vec::new() }
    }
}

impl<T> Facts<T> {
    /// Sorts by node; the sort is stable, so each node's values stay in arrival order.
    fn seal(&mut self) {
        self.items.sort_by_key(|&(node, _)| node);
    }

    /// A node's values (once sealed).
    fn of(&self, node: u32) -> impl Iterator<Item = &T> {
        let start = self.items.partition_point(|&(n, _)| n < node);
        (self.items.get(start..).unwrap_or(&[]).iter())
            .take_while(move |&&(n, _)| n == node)
            .take(MAX_VALUES_PER_NODE)
            .map(|(_, value)| value)
    }
}

/// What an `rdf:type` makes of a node.
enum Role {
    Record(ConceptKind),
    /// A concept, term, tree number or descriptor/qualifier pair: never a concept itself.
    Part,
}

/// Collects what a MeSH RDF stream says, and joins it at the end.
pub struct MeshRdf {
    source: SourceIdx,
    year: Option<String>,
    /// Node key (see [`node_key`]) to node id.
    nodes: HashMap<Box<str>, u32>,
    kinds: HashMap<u32, ConceptKind>,
    deprecated: HashSet<u32>,
    rels: [Facts<u32>; RELS],
    lits: [Facts<Text>; LITS],
    /// Every kept literal's text, end to end: one allocation instead of one a label.
    texts: String,
    langs: Vec<Box<str>>,
    lang_ids: HashMap<Box<str>, u16>,
    /// Key of the last subject typed as a part: its rdfs:label (which sorts after rdf:type)
    /// is not needed, and parts outnumber records.
    last_part: String,
}

impl MeshRdf {
    pub fn new(source: SourceIdx) -> MeshRdf {
        MeshRdf {
            source,
            year: None,
            nodes: HashMap::new(),
            kinds: HashMap::new(),
            deprecated: HashSet::new(),
            rels: Default::default(),
            lits: Default::default(),
            texts: String::new(),
            langs: Vec::new(),
            lang_ids: HashMap::new(),
            last_part: String::new(),
        }
    }

    /// The MeSH year named by year-versioned IRIs (http://id.nlm.nih.gov/mesh/2020/…), if any
    /// were seen.
    pub fn year(&self) -> Option<String> {
        self.year.clone()
    }

    pub fn observe(&mut self, triple: &Triple) {
        let NamedOrBlankNode::NamedNode(subject) = &triple.subject else {
            return;
        };
        let subject = subject.as_str();
        self.note_year(subject);
        let predicate = triple.predicate.as_str();
        match predicate {
            RDF_TYPE => {
                if let Term::NamedNode(class) = &triple.object {
                    self.observe_type(subject, class.as_str());
                }
            }
            RDFS_LABEL => {
                if node_key(subject) != self.last_part.as_str() {
                    self.observe_literal(subject, Lit::Name, &triple.object);
                }
            }
            OWL_DEPRECATED => {
                if let Term::Literal(lit) = &triple.object
                    && matches!(lit.value().trim(), "true" | "1")
                    && let Some(id) = self.intern(subject)
                {
                    self.deprecated.insert(id);
                }
            }
            _ => {
                let Some(local) = predicate.strip_prefix(MESHV) else {
                    return;
                };
                if let Some(lit) = literal_of(local) {
                    self.observe_literal(subject, lit, &triple.object);
                } else if let Some(rel) = relation_of(local)
                    && let Term::NamedNode(object) = &triple.object
                {
                    self.note_year(object.as_str());
                    if let (Some(s), Some(o)) = (self.intern(subject), self.intern(object.as_str()))
                    {
                        let facts = &mut self.rels[rel as usize].items;
                        // Dumps repeat some triples back to back.
                        if facts.last() != Some(&(s, o)) {
                            facts.push((s, o));
                        }
                    }
                }
            }
        }
    }

    fn observe_type(&mut self, subject: &str, class: &str) {
        match class.strip_prefix(MESHV).and_then(role_of) {
            Some(Role::Record(kind)) => {
                if let Some(id) = self.intern(subject) {
                    self.kinds.entry(id).or_insert(kind);
                }
            }
            Some(Role::Part) => {
                let key = node_key(subject);
                // Labels that came just before the type (unsorted input) are dropped now.
                if let Some(&id) = self.nodes.get(key.as_ref()) {
                    let names = &mut self.lits[Lit::Name as usize].items;
                    while names.last().is_some_and(|&(node, _)| node == id) {
                        names.pop();
                    }
                }
                self.last_part.clear();
                self.last_part.push_str(&key);
            }
            None => {}
        }
    }

    fn observe_literal(&mut self, subject: &str, lit: Lit, object: &Term) {
        let Term::Literal(literal) = object else {
            return;
        };
        let text = literal.value().trim();
        if text.is_empty() {
            return;
        }
        let Some(lang) = self.lang_id(literal.language()) else {
            return;
        };
        let Some(id) = self.intern(subject) else {
            return;
        };
        if let Some(&(node, last)) = self.lits[lit as usize].items.last()
            && node == id
            && last.lang == lang
            && self.text(&last).0 == text
        {
            return;
        }
        let (Ok(start), Ok(len)) = (u32::try_from(self.texts.len()), u32::try_from(text.len()))
        else {
            return;
        };
        if start.checked_add(len).is_none() {
            return;
        }
        self.texts.push_str(text);
        self.lits[lit as usize]
            .items
            .push((id, Text { start, len, lang }));
    }

    /// The id of a language tag (0 for none); `None` once [`MAX_LANGS`] are known.
    fn lang_id(&mut self, lang: Option<&str>) -> Option<u16> {
        let Some(lang) = lang else { return Some(0) };
        if let Some(&id) = self.lang_ids.get(lang) {
            return Some(id);
        }
        if self.langs.len() >= MAX_LANGS {
            return None;
        }
        self.langs.push(lang.into());
        let id = u16::try_from(self.langs.len()).ok()?;
        self.lang_ids.insert(lang.into(), id);
        Some(id)
    }

    fn note_year(&mut self, iri: &str) {
        if self.year.is_none()
            && let Some(year) = iri.strip_prefix(MESH).and_then(|l| split_year(l).0)
        {
            self.year = Some(year.to_string());
        }
    }

    /// The id of a node; `None` only once ids run out.
    fn intern(&mut self, iri: &str) -> Option<u32> {
        let key = node_key(iri);
        if let Some(&id) = self.nodes.get(key.as_ref()) {
            return Some(id);
        }
        let id = u32::try_from(self.nodes.len()).ok()?;
        self.nodes.insert(key.into(), id);
        Some(id)
    }

    /// The distinct targets of a relation from a node, in arrival order (once sealed).
    fn rel(&self, rel: Rel, id: u32) -> Vec<u32> {
        let mut targets = Vec::new();
        for &target in self.rels[rel as usize].of(id) {
            push_unique(&mut targets, target);
        }
        targets
    }

    /// A node's literals of one kind as (text, language), once sealed.
    fn lit(&self, lit: Lit, id: u32) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.lits[lit as usize].of(id).map(|text| self.text(text))
    }

    fn text(&self, text: &Text) -> (&str, Option<&str>) {
        let start = text.start as usize;
        let lang = (text.lang.checked_sub(1)).and_then(|i| self.langs.get(usize::from(i)));
        let value = self
            .texts
            .get(start..start.saturating_add(text.len as usize));
        (value.unwrap_or(""), lang.map(|l| &**l))
    }

    /// The records as concepts, sorted by IRI, with CURIEs, deduplicated items and children.
    pub fn finish(mut self, prefixes: &dyn Prefixes) -> Vec<Concept> {
        self.seal();
        join::finish(&self, prefixes)
    }

    /// As [`MeshRdf::finish`], but each concept goes to `emit` in IRI order as it is joined,
    /// without its children, so that they are never all held at once.
    pub fn finish_each(
        mut self,
        prefixes: &dyn Prefixes,
        emit: impl FnMut(Concept) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        self.seal();
        join::finish_each(&self, prefixes, emit)
    }

    fn seal(&mut self) {
        self.rels.iter_mut().for_each(Facts::seal);
        self.lits.iter_mut().for_each(Facts::seal);
    }
}

fn role_of(class: &str) -> Option<Role> {
    Some(match class {
        "Qualifier" => Role::Record(ConceptKind::Qualifier),
        "SupplementaryConceptRecord" => Role::Record(ConceptKind::SupplementaryRecord),
        c if c.starts_with("SCR_") => Role::Record(ConceptKind::SupplementaryRecord),
        "PublicationType" | "CheckTag" => Role::Record(ConceptKind::Descriptor),
        c if c.ends_with("Descriptor") => Role::Record(ConceptKind::Descriptor),
        "Concept" | "Term" | "TreeNumber" => Role::Part,
        c if c.ends_with("Pair") => Role::Part,
        _ => return None,
    })
}

fn relation_of(local: &str) -> Option<Rel> {
    Some(match local {
        "preferredConcept" => Rel::PrefConcept,
        "concept" => Rel::Concept,
        "preferredTerm" => Rel::PrefTerm,
        "term" => Rel::Term,
        "treeNumber" => Rel::TreeNumber,
        "parentTreeNumber" => Rel::ParentTree,
        "broaderDescriptor" => Rel::Broader,
        "preferredMappedTo" => Rel::PreferredMappedTo,
        "mappedTo" => Rel::MappedTo,
        "relatedConcept" => Rel::RelatedConcept,
        _ => return None,
    })
}

fn literal_of(local: &str) -> Option<Lit> {
    match local {
        "prefLabel" => Some(Lit::PrefLabel),
        "altLabel" => Some(Lit::AltLabel),
        _ => None,
    }
}

fn push_unique<T: PartialEq>(values: &mut Vec<T>, value: T) {
    if values.len() < MAX_VALUES_PER_NODE && !values.contains(&value) {
        values.push(value);
    }
}

/// A MeSH IRI without its year segment (`…/mesh/2020/D000001` → `…/mesh/D000001`), when it
/// has one.
pub fn unversioned(iri: &str) -> Option<String> {
    let local = iri.strip_prefix(MESH)?;
    match split_year(local) {
        (Some(_), rest) => Some(format!("{MESH}{rest}")),
        (None, _) => None,
    }
}

/// The triple with year-versioned MeSH IRIs unversioned, so that the store names each node
/// as the index does and every answer's SPARQL re-runs.
pub fn unversioned_triple(triple: Triple) -> Triple {
    let subject = match &triple.subject {
        NamedOrBlankNode::NamedNode(n) => unversioned(n.as_str())
            .map(|iri| NamedOrBlankNode::NamedNode(NamedNode::new_unchecked(iri))),
        _ => None,
    };
    let object = match &triple.object {
        Term::NamedNode(n) => {
            unversioned(n.as_str()).map(|iri| Term::NamedNode(NamedNode::new_unchecked(iri)))
        }
        _ => None,
    };
    if subject.is_none() && object.is_none() {
        return triple;
    }
    Triple::new(
        subject.unwrap_or(triple.subject),
        triple.predicate,
        object.unwrap_or(triple.object),
    )
}

/// A local part's year segment (`2020/D000001` → `2020`), and the part without it.
fn split_year(local: &str) -> (Option<&str>, &str) {
    let year = local.get(..YEAR_DIGITS);
    let rest = local.get(YEAR_DIGITS..).and_then(|r| r.strip_prefix('/'));
    match (year, rest) {
        (Some(year), Some(rest)) if year.bytes().all(|b| b.is_ascii_digit()) => (Some(year), rest),
        _ => (None, local),
    }
}

/// The key a node is interned under: its local part in the MeSH id space without a year
/// segment (short, and the same across years), else the whole IRI marked [`FOREIGN`].
fn node_key(iri: &str) -> Cow<'_, str> {
    match iri.strip_prefix(MESH) {
        Some(local) => Cow::Borrowed(split_year(local).1),
        None => Cow::Owned(format!("{FOREIGN}{iri}")),
    }
}

/// The (unversioned) IRI of a node key.
fn iri_of(key: &str) -> String {
    match key.strip_prefix(FOREIGN) {
        Some(iri) => iri.to_string(),
        None => format!("{MESH}{key}"),
    }
}

#[cfg(test)]
mod tests;
