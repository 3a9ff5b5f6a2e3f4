//! The join of one MeSH record: its terms' labels, tree numbers, parents and mapped-to
//! headings, from the facts routed to it (`route.rs`).

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use super::route::{Bundle, RecordFact};
use super::{Lit, NodeKey, Rel, push_unique, tree_text};
use crate::model::{
    Concept, ConceptKind, Label, LabelKind, Link, LinkKind, Prefixes, Provenance, SourceIdx, Xref,
    XrefKind,
};

/// The record's concept, with its CURIE and parents but no children; `None` for a node that
/// no `rdf:type` made a record.
pub(super) fn concept(
    bundle: &Bundle,
    source: SourceIdx,
    prefixes: &dyn Prefixes,
) -> Option<Concept> {
    let view = View::of(bundle)?;
    let iri = bundle.key.iri();
    Some(Concept {
        curie: prefixes.compress(&iri),
        iri,
        source,
        labels: view.labels(Provenance { source }),
        parents: view.parents(Provenance { source }),
        obsolete: view.deprecated,
        xrefs: view.xrefs(prefixes, Provenance { source }),
        kind: view.kind,
        tree_numbers: view.tree_numbers(),
        ..Concept::default()
    })
}

/// A literal's text and language.
type Text<'a> = (&'a str, Option<&'a str>);

/// A record's facts, read by node and relation.
struct View<'a> {
    key: &'a NodeKey,
    kind: ConceptKind,
    deprecated: bool,
    /// Distinct targets per node and relation, in arrival order.
    edges: HashMap<(&'a NodeKey, Rel), Vec<&'a NodeKey>>,
    /// Literals per node and kind, in arrival order.
    lits: HashMap<(&'a NodeKey, Lit), Vec<Text<'a>>>,
    tree_parents: Vec<&'a NodeKey>,
}

impl<'a> View<'a> {
    fn of(bundle: &'a Bundle) -> Option<View<'a>> {
        let key = &bundle.key;
        let mut view = View {
            key,
            kind: ConceptKind::default(),
            deprecated: false,
            edges: HashMap::new(),
            lits: HashMap::new(),
            tree_parents: Vec::new(),
        };
        let mut kind = None;
        for fact in &bundle.facts {
            match fact {
                RecordFact::Record(k) => {
                    kind.get_or_insert(*k);
                }
                RecordFact::Deprecated => view.deprecated = true,
                RecordFact::Edge { from, rel, to } => {
                    let targets = view.edges.entry((from.as_ref().unwrap_or(key), *rel));
                    push_unique(targets.or_default(), to);
                }
                RecordFact::Lit {
                    from,
                    lit,
                    text,
                    lang,
                } => {
                    let texts = view.lits.entry((from.as_ref().unwrap_or(key), *lit));
                    push_unique(texts.or_default(), (&**text, lang.as_deref()));
                }
                RecordFact::TreeParent(parent) => view.tree_parents.push(parent),
            }
        }
        view.kind = kind?;
        Some(view)
    }

    /// The distinct targets of a relation from a node, in arrival order.
    fn rel(&self, from: &'a NodeKey, rel: Rel) -> Vec<&'a NodeKey> {
        self.edges.get(&(from, rel)).cloned().unwrap_or_default()
    }

    /// A node's literals of one kind as (text, language), in arrival order.
    fn lit(&self, from: &'a NodeKey, lit: Lit) -> impl Iterator<Item = Text<'a>> + use<'_, 'a> {
        let texts = self.lits.get(&(from, lit)).map_or(&[][..], Vec::as_slice);
        texts.iter().copied()
    }

    fn tree_numbers(&self) -> Vec<String> {
        let mut numbers: Vec<String> = (self.rel(self.key, Rel::TreeNumber).into_iter())
            .map(|tn| tree_text(tn.as_str()))
            .filter(|text| !text.is_empty())
            .map(str::to_string)
            .collect();
        numbers.sort();
        numbers.dedup();
        numbers
    }

    /// The label of the preferred concept's preferred term, then the record's rdfs:labels in
    /// other languages, then entry terms, then the terms of the other concepts. A text appears
    /// once, under its highest kind; synonyms are sorted, so that the order of the input does
    /// not show.
    fn labels(&self, prov: Provenance) -> Vec<Label> {
        let preferred = self.rel(self.key, Rel::PrefConcept);
        let mut pref_terms: Vec<&NodeKey> = Vec::new();
        for &node in preferred.iter().chain([&self.key]) {
            for term in self.rel(node, Rel::PrefTerm) {
                push_unique(&mut pref_terms, term);
            }
        }
        let mut labels = Labels::new(prov);
        for &term in &pref_terms {
            labels.add_all(self.lit(term, Lit::PrefLabel), LabelKind::Label);
        }
        let covered: HashSet<Option<&str>> = labels.langs().collect();
        for (text, lang) in self.lit(self.key, Lit::Name) {
            if !covered.contains(&lang) {
                labels.add(text, lang, LabelKind::Label);
            }
        }
        let entry_terms = preferred.iter().flat_map(|&c| self.rel(c, Rel::Term));
        for term in pref_terms.iter().copied().chain(entry_terms) {
            labels.add_term(self, term, LabelKind::EntryTerm);
        }
        // A descriptor's other concepts are narrower than its preferred one unless NLM says
        // they are related.
        let related: Vec<&NodeKey> = preferred
            .iter()
            .flat_map(|&c| self.rel(c, Rel::RelatedConcept))
            .collect();
        for concept in self.rel(self.key, Rel::Concept) {
            if preferred.contains(&concept) {
                continue;
            }
            let kind = if related.contains(&concept) {
                LabelKind::RelatedSynonym
            } else {
                LabelKind::NarrowSynonym
            };
            let terms = self.rel(concept, Rel::PrefTerm).into_iter();
            for term in terms.chain(self.rel(concept, Rel::Term)) {
                labels.add_term(self, term, kind);
            }
        }
        let mut labels = labels.out;
        labels.sort_by(|a, b| match (a.kind, b.kind) {
            (LabelKind::Label, LabelKind::Label) => Ordering::Equal,
            (x, y) if x == y => (&a.text, &a.lang).cmp(&(&b.text, &b.lang)),
            (x, y) => rank(x).cmp(&rank(y)),
        });
        labels
    }

    /// Descriptors holding the parent of one of this descriptor's tree numbers, and
    /// meshv:broaderDescriptor targets.
    fn parents(&self, prov: Provenance) -> Vec<Link> {
        let mut parents: Vec<&NodeKey> = Vec::new();
        if self.kind == ConceptKind::Descriptor {
            parents.extend(&self.tree_parents);
        }
        parents.extend(self.rel(self.key, Rel::Broader));
        let mut links: Vec<Link> = (parents.into_iter())
            .filter(|&parent| parent != self.key)
            .map(|parent| Link {
                iri: parent.iri(),
                kind: LinkKind::BroaderDescriptor,
                prov,
            })
            .collect();
        links.sort();
        links.dedup();
        links
    }

    /// meshv:preferredMappedTo / mappedTo targets as CURIEs; a descriptor/qualifier pair
    /// target (`D006896Q000031`) names the descriptor, with the qualifier alongside.
    fn xrefs(&self, prefixes: &dyn Prefixes, prov: Provenance) -> Vec<Xref> {
        let mut xrefs = Vec::new();
        for (rel, kind) in [
            (Rel::PreferredMappedTo, XrefKind::PreferredMappedTo),
            (Rel::MappedTo, XrefKind::MappedTo),
        ] {
            for target in self.rel(self.key, rel) {
                let (iri, qualifier) = split_pair(&target.iri());
                if iri.is_empty() {
                    continue;
                }
                xrefs.push(Xref {
                    target: prefixes.compress(&iri).unwrap_or(iri),
                    kind,
                    qualifier,
                    prov,
                });
            }
        }
        xrefs.sort();
        xrefs.dedup();
        xrefs
    }
}

/// Labels under construction: the first kind a text (with its language) is added under wins.
struct Labels<'a> {
    out: Vec<Label>,
    seen: HashSet<(&'a str, Option<&'a str>)>,
    prov: Provenance,
}

impl<'a> Labels<'a> {
    fn new(prov: Provenance) -> Self {
        Labels {
            out: Vec::new(),
            seen: HashSet::new(),
            prov,
        }
    }

    fn langs(&self) -> impl Iterator<Item = Option<&'a str>> + '_ {
        self.seen.iter().map(|&(_, lang)| lang)
    }

    fn add(&mut self, text: &'a str, lang: Option<&'a str>, kind: LabelKind) {
        if self.seen.insert((text, lang)) {
            self.out.push(Label {
                text: text.to_string(),
                kind,
                lang: lang.map(str::to_string),
                prov: self.prov,
            });
        }
    }

    fn add_all(
        &mut self,
        texts: impl Iterator<Item = (&'a str, Option<&'a str>)>,
        kind: LabelKind,
    ) {
        for (text, lang) in texts {
            self.add(text, lang, kind);
        }
    }

    /// A term's prefLabels and altLabels.
    fn add_term(&mut self, record: &View<'a>, term: &'a NodeKey, kind: LabelKind) {
        self.add_all(record.lit(term, Lit::PrefLabel), kind);
        self.add_all(record.lit(term, Lit::AltLabel), kind);
    }
}

/// The order of label kinds in a record: its name, entry terms, narrower then related
/// concepts' terms.
fn rank(kind: LabelKind) -> u8 {
    match kind {
        LabelKind::Label => 0,
        LabelKind::EntryTerm => 1,
        LabelKind::NarrowSynonym => 2,
        _ => 3,
    }
}

/// A descriptor/qualifier pair IRI (`…/D006896Q000031`) as the descriptor's IRI and the
/// qualifier; any other IRI as itself.
pub(super) fn split_pair(iri: &str) -> (String, Option<String>) {
    let (base, local) = iri.split_at(iri.rfind('/').map_or(0, |slash| slash + 1));
    let is_id = |s: &str, initial: char| {
        s.strip_prefix(initial)
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    if let Some(at) = local.find('Q') {
        let (descriptor, qualifier) = local.split_at(at);
        if is_id(descriptor, 'D') && is_id(qualifier, 'Q') {
            return (format!("{base}{descriptor}"), Some(qualifier.to_string()));
        }
    }
    (iri.to_string(), None)
}
