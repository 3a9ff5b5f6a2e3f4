//! The join at the end of a MeSH RDF stream: records with their terms' labels, tree numbers,
//! parents and mapped-to headings.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use super::{Lit, MeshRdf, Rel, iri_of, push_unique};
use crate::model::{
    Concept, ConceptKind, Label, LabelKind, Link, LinkKind, Prefixes, Provenance, Xref, XrefKind,
};

/// The records as concepts, sorted by IRI, with CURIEs, deduplicated items and children.
pub(super) fn finish(mesh: &MeshRdf, prefixes: &dyn Prefixes) -> Vec<Concept> {
    let mut concepts = Vec::with_capacity(mesh.kinds.len());
    let held = finish_each(mesh, prefixes, |concept| {
        concepts.push(concept);
        Ok::<(), std::convert::Infallible>(())
    });
    if let Err(never) = held {
        match never {}
    }
    crate::ingest::fill_children(&mut concepts);
    concepts
}

/// Each record as a concept, in IRI order, with its CURIE and parents but no children, handed
/// to `emit` one at a time, so that the concepts need not be held together.
pub(super) fn finish_each<E>(
    mesh: &MeshRdf,
    prefixes: &dyn Prefixes,
    mut emit: impl FnMut(Concept) -> Result<(), E>,
) -> Result<(), E> {
    let mut keys = vec![""; mesh.nodes.len()];
    for (key, &id) in &mesh.nodes {
        if let Some(slot) = keys.get_mut(id as usize) {
            *slot = key;
        }
    }
    let join = Join {
        mesh,
        keys,
        prov: Provenance {
            source: mesh.source,
        },
    };
    let owners = join.tree_owners();
    // Keys are distinct, so IRIs are too.
    let mut records: Vec<(String, u32, ConceptKind)> = mesh
        .kinds
        .iter()
        .map(|(&id, &kind)| (iri_of(join.key(id)), id, kind))
        .collect();
    records.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (iri, id, kind) in records {
        emit(Concept {
            curie: prefixes.compress(&iri),
            iri,
            source: mesh.source,
            labels: join.labels(id),
            parents: join.parents(id, kind, &owners),
            obsolete: mesh.deprecated.contains(&id),
            xrefs: join.xrefs(id, prefixes),
            kind,
            tree_numbers: join.tree_numbers(id),
            ..Concept::default()
        })?;
    }
    Ok(())
}

/// The stored facts with node ids resolved back to keys, for the join.
struct Join<'a> {
    mesh: &'a MeshRdf,
    keys: Vec<&'a str>,
    prov: Provenance,
}

impl<'a> Join<'a> {
    fn key(&self, id: u32) -> &'a str {
        self.keys.get(id as usize).copied().unwrap_or("")
    }

    /// Tree number text to the descriptors that hold it.
    fn tree_owners(&self) -> HashMap<&'a str, Vec<u32>> {
        let mut owners: HashMap<&str, Vec<u32>> = HashMap::new();
        for (&id, &kind) in &self.mesh.kinds {
            if kind != ConceptKind::Descriptor {
                continue;
            }
            for tn in self.mesh.rel(Rel::TreeNumber, id) {
                let text = tree_text(self.key(tn));
                if !text.is_empty() {
                    owners.entry(text).or_default().push(id);
                }
            }
        }
        owners
    }

    fn tree_numbers(&self, id: u32) -> Vec<String> {
        let mut numbers: Vec<String> = (self.mesh.rel(Rel::TreeNumber, id).into_iter())
            .map(|tn| tree_text(self.key(tn)))
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
    fn labels(&self, id: u32) -> Vec<Label> {
        let mesh = self.mesh;
        let preferred = mesh.rel(Rel::PrefConcept, id);
        let mut pref_terms: Vec<u32> = Vec::new();
        for &node in preferred.iter().chain([&id]) {
            for term in mesh.rel(Rel::PrefTerm, node) {
                push_unique(&mut pref_terms, term);
            }
        }
        let mut labels = Labels::new(self.prov);
        for &term in &pref_terms {
            labels.add_all(mesh.lit(Lit::PrefLabel, term), LabelKind::Label);
        }
        let covered: HashSet<Option<&str>> = labels.langs().collect();
        for (text, lang) in mesh.lit(Lit::Name, id) {
            if !covered.contains(&lang) {
                labels.add(text, lang, LabelKind::Label);
            }
        }
        let entry_terms = preferred.iter().flat_map(|&c| mesh.rel(Rel::Term, c));
        for term in pref_terms.iter().copied().chain(entry_terms) {
            labels.add_term(mesh, term, LabelKind::EntryTerm);
        }
        // A descriptor's other concepts are narrower than its preferred one unless NLM says
        // they are related.
        let related: Vec<u32> = preferred
            .iter()
            .flat_map(|&c| mesh.rel(Rel::RelatedConcept, c))
            .collect();
        for concept in mesh.rel(Rel::Concept, id) {
            if preferred.contains(&concept) {
                continue;
            }
            let kind = if related.contains(&concept) {
                LabelKind::RelatedSynonym
            } else {
                LabelKind::NarrowSynonym
            };
            let terms = mesh.rel(Rel::PrefTerm, concept).into_iter();
            for term in terms.chain(mesh.rel(Rel::Term, concept)) {
                labels.add_term(mesh, term, kind);
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
    fn parents(&self, id: u32, kind: ConceptKind, owners: &HashMap<&str, Vec<u32>>) -> Vec<Link> {
        let mesh = self.mesh;
        let mut parents: Vec<u32> = Vec::new();
        let trees = match kind {
            ConceptKind::Descriptor => mesh.rel(Rel::TreeNumber, id),
            _ => Vec::new(),
        };
        for tn in trees {
            let stated = mesh.rel(Rel::ParentTree, tn);
            let parent_texts: Vec<&str> = if stated.is_empty() {
                // No parentTreeNumber: the parent is the tree number minus its last segment.
                (tree_text(self.key(tn)).rsplit_once('.'))
                    .map(|(parent, _)| parent)
                    .into_iter()
                    .collect()
            } else {
                stated.iter().map(|&p| tree_text(self.key(p))).collect()
            };
            for text in parent_texts.into_iter().filter(|t| !t.is_empty()) {
                for &owner in owners.get(text).map_or(&[][..], Vec::as_slice) {
                    parents.push(owner);
                }
            }
        }
        parents.extend(mesh.rel(Rel::Broader, id));
        let mut links: Vec<Link> = (parents.into_iter())
            .filter(|&parent| parent != id)
            .map(|parent| Link {
                iri: iri_of(self.key(parent)),
                kind: LinkKind::BroaderDescriptor,
                prov: self.prov,
            })
            .collect();
        links.sort();
        links.dedup();
        links
    }

    /// meshv:preferredMappedTo / mappedTo targets as CURIEs; a descriptor/qualifier pair
    /// target (`D006896Q000031`) names the descriptor, with the qualifier alongside.
    fn xrefs(&self, id: u32, prefixes: &dyn Prefixes) -> Vec<Xref> {
        let mut xrefs = Vec::new();
        for (rel, kind) in [
            (Rel::PreferredMappedTo, XrefKind::PreferredMappedTo),
            (Rel::MappedTo, XrefKind::MappedTo),
        ] {
            for target in self.mesh.rel(rel, id) {
                let iri = iri_of(self.key(target));
                let (iri, qualifier) = split_pair(&iri);
                if iri.is_empty() {
                    continue;
                }
                xrefs.push(Xref {
                    target: prefixes.compress(&iri).unwrap_or(iri),
                    kind,
                    qualifier,
                    prov: self.prov,
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
    fn add_term(&mut self, mesh: &'a MeshRdf, term: u32, kind: LabelKind) {
        self.add_all(mesh.lit(Lit::PrefLabel, term), kind);
        self.add_all(mesh.lit(Lit::AltLabel, term), kind);
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

/// A tree number's text: the last path segment of its IRI (`D03.633.100`).
fn tree_text(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
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
