//! Concept extraction: watches the triple stream of one source and builds [`Concept`]s.
//!
//! It also settles the source's release from the file when the file states one, as early in
//! the stream as it can, so that the store can name the graph without a second pass.

use std::collections::{BTreeMap, HashMap, HashSet};

use oxrdf::{NamedOrBlankNode, Term, Triple};

use super::concepts::SourceConcepts;
use super::vocab::*;
use super::{StatedRelease, dedup_in_order, dedup_sorted};
use crate::model::{
    Concept, ConceptKind, Definition, Label, LabelKind, Link, LinkKind, Prefixes, Provenance,
    Replacement, ReplacementKind, SourceCounts, SourceIdx, Xref, XrefKind, obo_purl,
};

/// Which statement a file's release came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRelease {
    pub value: String,
    pub property: String,
}

/// oboInOwl:ObsoleteClass: a class under it is obsolete.
const OIO_OBSOLETE_CLASS: &str = "http://www.geneontology.org/formats/oboInOwl#ObsoleteClass";

/// Untyped version candidates kept while waiting for a subject's type; bounds memory.
const MAX_UNTYPED_CANDIDATES: usize = 256;

/// How a source's triples become concepts. Most sources describe each concept on its own
/// subject; MeSH spreads one descriptor over concept and term nodes that must be joined.
pub enum Profile {
    /// One subject per concept (OWL, OBO, SKOS).
    Generic,
    /// NLM's MeSH RDF: descriptors, supplementary records and qualifiers joined with their
    /// concepts, terms and tree numbers.
    Mesh(Box<super::mesh_rdf::MeshRdf>),
}

pub struct Extractor<'a> {
    source: SourceIdx,
    profile: Profile,
    /// The kind given to the concepts of a generic source.
    kind: ConceptKind,
    concept_types: Vec<String>,
    namespaces: Vec<String>,
    prefixes: &'a dyn Prefixes,
    concepts: HashMap<String, Concept>,
    typed: HashSet<String>,
    headers: HashMap<String, &'static str>,
    candidates: Vec<(String, &'static str, String)>,
    stated: Option<StatedRelease>,
    settled: Option<Option<FileRelease>>,
    last_subject: Option<String>,
    triples: u64,
    /// Where partial concepts go every `spill_at` concepts; `None` holds them all.
    spill: Option<super::extract_spill::PartialSpill>,
    spill_at: usize,
    /// Restriction pieces, joined into relations when the file ends.
    restrictions: super::restrictions::Restrictions,
}

impl<'a> Extractor<'a> {
    /// `namespaces` limits concepts to IRIs under these URI prefixes (all IRIs when empty).
    pub fn new(
        source: SourceIdx,
        concept_types: Vec<String>,
        namespaces: Vec<String>,
        prefixes: &'a dyn Prefixes,
    ) -> Self {
        Extractor {
            source,
            profile: Profile::Generic,
            kind: ConceptKind::Class,
            concept_types,
            namespaces,
            prefixes,
            concepts: HashMap::new(),
            typed: HashSet::new(),
            headers: HashMap::new(),
            candidates: Vec::new(),
            stated: None,
            settled: None,
            last_subject: None,
            triples: 0,
            spill: None,
            spill_at: super::extract_spill::SPILL_CONCEPTS,
            restrictions: super::restrictions::Restrictions::default(),
        }
    }

    /// Spills partial concepts under `dir` every `every` concepts, so that a large source's
    /// concepts are never all in memory.
    pub fn with_spill(mut self, dir: &std::path::Path, every: usize) -> Self {
        self.spill = Some(super::extract_spill::PartialSpill::new(dir));
        self.spill_at = every.max(1);
        if let Profile::Mesh(mesh) = &mut self.profile {
            // Only a join that has seen nothing yet can start spilling.
            mesh.spill_to(dir);
        }
        self
    }

    /// Sets how triples become concepts, and the kind of a generic source's concepts.
    pub fn with_profile(mut self, profile: Profile, kind: ConceptKind) -> Self {
        self.profile = profile;
        self.kind = kind;
        self
    }

    pub fn triples(&self) -> u64 {
        self.triples
    }

    /// A release stated outside the triples (OBO `data-version`).
    pub fn stated_release(&mut self, release: StatedRelease) {
        self.stated = Some(release);
    }

    /// The release the file states, once it can no longer change; `None` until then.
    pub fn settled_release(&mut self) -> Option<&Option<FileRelease>> {
        if self.settled.is_none() {
            if let Profile::Mesh(mesh) = &self.profile
                && let Some(year) = mesh.year()
            {
                // NLM's year-versioned IRIs (http://id.nlm.nih.gov/mesh/2020/…) name the release.
                self.settled = Some(Some(FileRelease {
                    value: year,
                    property: "MeSH year-versioned IRIs".to_string(),
                }));
            } else if let Some(stated) = &self.stated {
                self.settled = Some(Some(FileRelease {
                    value: normalize_release(&stated.value),
                    property: stated.property.to_string(),
                }));
            } else if let Some(best) = self.best_candidate() {
                // Statements about one subject arrive together; once the stream has moved past
                // the ontology header, its version statements are complete.
                let moved_on = self.last_subject.as_deref() != Some(best.0.as_str());
                if moved_on {
                    self.settled = Some(Some(FileRelease {
                        value: best.1,
                        property: best.2.to_string(),
                    }));
                }
            }
        }
        self.settled.as_ref()
    }

    /// Settles the release at the end of the window or of the input: what was found, or none.
    pub fn settle_now(&mut self) -> Option<FileRelease> {
        if self.settled_release().is_none() {
            let best = self.best_candidate();
            self.settled = Some(best.map(|(_, value, property)| FileRelease {
                value,
                property: property.to_string(),
            }));
        }
        self.settled.clone().flatten()
    }

    /// The best version statement on a typed ontology or scheme: (subject, release, property).
    fn best_candidate(&self) -> Option<(String, String, &'static str)> {
        let rank = |property: &str, value: &str| match property {
            "owl:versionIRI" if find_date(value).is_some() => 0,
            "owl:versionInfo" => 1,
            "dcterms:modified" => 2,
            _ => 3,
        };
        self.candidates
            .iter()
            .filter(|(subject, property, _)| match self.headers.get(subject) {
                Some(&"scheme") => true,
                Some(_) => *property != "dcterms:modified",
                None => false,
            })
            .min_by_key(|(_, property, value)| rank(property, value))
            .map(|(subject, property, value)| {
                let release = if *property == "owl:versionIRI" {
                    find_date(value).map(str::to_string).unwrap_or_else(|| {
                        value
                            .trim_end_matches('/')
                            .rsplit('/')
                            .next()
                            .unwrap_or(value)
                            .to_string()
                    })
                } else {
                    normalize_release(value)
                };
                (subject.clone(), release, *property)
            })
    }

    pub fn observe(&mut self, triple: &Triple) {
        self.triples += 1;
        if let Profile::Mesh(mesh) = &mut self.profile {
            mesh.observe(triple);
            return;
        }
        if (self.concepts.len() >= self.spill_at || self.typed.len() >= self.spill_at)
            && let Some(spill) = &mut self.spill
        {
            spill.add(
                std::mem::take(&mut self.concepts),
                std::mem::take(&mut self.typed),
                self.source,
            );
        }
        let NamedOrBlankNode::NamedNode(subject) = &triple.subject else {
            // Blank nodes nest inside a subject's description; they do not end it.
            self.restrictions.observe(triple);
            return;
        };
        if matches!(triple.object, Term::BlankNode(_)) && triple.predicate.as_str() != RDF_TYPE {
            self.restrictions.observe(triple);
            // Anonymous nodes (restrictions, axioms) are not parents, xrefs or replacements, and
            // their ids differ between runs.
            if self.last_subject.as_deref() != Some(subject.as_str()) {
                self.last_subject = Some(subject.as_str().to_string());
            }
            return;
        }
        let s = subject.as_str();
        if self.last_subject.as_deref() != Some(s) {
            self.last_subject = Some(s.to_string());
        }
        let p = triple.predicate.as_str();
        if self.observe_header(s, p, &triple.object) {
            return;
        }
        let prov = Provenance {
            source: self.source,
        };
        // Only concepts' data is kept: other subjects (properties, imported classes) stay in the
        // store but never take memory here.
        let narrower_or_top = matches!(
            p,
            "http://www.w3.org/2004/02/skos/core#narrower"
                | "http://www.w3.org/2004/02/skos/core#hasTopConcept"
        );
        if !narrower_or_top && !self.in_namespace(s) {
            return;
        }
        if let Some(kind) = label_kind(p) {
            if let Term::Literal(lit) = &triple.object {
                let text = lit.value().trim();
                if !text.is_empty() {
                    self.concept(s).labels.push(Label {
                        text: text.to_string(),
                        kind,
                        lang: lit.language().map(str::to_string),
                        prov,
                    });
                }
            }
            return;
        }
        if let Some(kind) = xref_kind(p) {
            let target = term_text(&triple.object);
            if !target.is_empty() {
                self.concept(s).xrefs.push(Xref {
                    target,
                    kind,
                    qualifier: None,
                    prov,
                });
            }
            return;
        }
        self.observe_relation(s, p, &triple.object, prov);
    }

    /// A subject's type, or an ontology or scheme header's release property; `true` when the
    /// triple was one of these and needs nothing more.
    fn observe_header(&mut self, s: &str, p: &str, object: &Term) -> bool {
        match p {
            RDF_TYPE => {
                if let Term::NamedNode(class) = object {
                    let class = class.as_str();
                    if class == OWL_ONTOLOGY {
                        self.headers.insert(s.to_string(), "ontology");
                    } else if class == SKOS_CONCEPT_SCHEME {
                        self.headers.insert(s.to_string(), "scheme");
                    } else if self.concept_types.iter().any(|t| t == class) {
                        self.typed.insert(s.to_string());
                    }
                }
                true
            }
            OWL_VERSION_IRI | OWL_VERSION_INFO | DCTERMS_MODIFIED => {
                let property = match p {
                    OWL_VERSION_IRI => "owl:versionIRI",
                    OWL_VERSION_INFO => "owl:versionInfo",
                    _ => "dcterms:modified",
                };
                let known = self.headers.contains_key(s);
                if known || self.candidates.len() < MAX_UNTYPED_CANDIDATES {
                    self.candidates
                        .push((s.to_string(), property, term_text(object)));
                }
                true
            }
            _ => false,
        }
    }

    /// Definitions, parents, children, obsolescence, replacements, alternative ids and top
    /// concepts of a concept in the namespace.
    fn observe_relation(&mut self, s: &str, p: &str, object: &Term, prov: Provenance) {
        match p {
            IAO_DEFINITION | "http://www.w3.org/2004/02/skos/core#definition" => {
                if let Term::Literal(lit) = object {
                    self.concept(s).definitions.push(Definition {
                        text: lit.value().to_string(),
                        lang: lit.language().map(str::to_string),
                        prov,
                    });
                }
            }
            RDFS_SUBCLASS_OF | "http://www.w3.org/2004/02/skos/core#broader" => {
                // The OBO-in-OWL way of marking a class obsolete: under oboInOwl:ObsoleteClass.
                if matches!(object, Term::NamedNode(n) if n.as_str() == OIO_OBSOLETE_CLASS) {
                    self.concept(s).obsolete = true;
                }
                self.observe_parent(s, p, object, prov)
            }
            "http://www.w3.org/2004/02/skos/core#narrower" => {
                if let Term::NamedNode(child) = object
                    && self.in_namespace(child.as_str())
                {
                    self.concept(child.as_str()).parents.push(Link {
                        iri: s.to_string(),
                        kind: LinkKind::Broader,
                        prov,
                    });
                }
            }
            OWL_DEPRECATED => {
                if let Term::Literal(lit) = object
                    && matches!(
                        lit.value().trim().to_ascii_lowercase().as_str(),
                        "true" | "1"
                    )
                {
                    self.concept(s).obsolete = true;
                }
            }
            IAO_REPLACED_BY | OIO_REPLACED_BY | DCTERMS_IS_REPLACED_BY | OIO_CONSIDER => {
                self.observe_replacement(s, p, object, prov)
            }
            OIO_ALT_ID => {
                let text = term_text(object);
                if !text.is_empty() {
                    self.concept(s).alt_ids.push(text);
                }
            }
            "http://www.w3.org/2004/02/skos/core#topConceptOf" => {
                self.concept(s).top_concept = true
            }
            "http://www.w3.org/2004/02/skos/core#hasTopConcept" => {
                if let Term::NamedNode(top) = object
                    && self.in_namespace(top.as_str())
                {
                    self.concept(top.as_str()).top_concept = true;
                }
            }
            _ => {}
        }
    }

    /// `rdfs:subClassOf` or `skos:broader`: a named parent other than `owl:Thing`.
    fn observe_parent(&mut self, s: &str, p: &str, object: &Term, prov: Provenance) {
        let Term::NamedNode(parent) = object else {
            return;
        };
        if parent.as_str() == "http://www.w3.org/2002/07/owl#Thing" {
            return;
        }
        let kind = if p == RDFS_SUBCLASS_OF {
            LinkKind::SubClassOf
        } else {
            LinkKind::Broader
        };
        self.concept(s).parents.push(Link {
            iri: parent.as_str().to_string(),
            kind,
            prov,
        });
    }

    /// A replacement or a `consider`: an IRI, or a CURIE or OBO id written as a literal.
    fn observe_replacement(&mut self, s: &str, p: &str, object: &Term, prov: Provenance) {
        let kind = if p == OIO_CONSIDER {
            ReplacementKind::Consider
        } else {
            ReplacementKind::ReplacedBy
        };
        let target = match object {
            Term::NamedNode(n) => n.as_str().to_string(),
            other => {
                let text = term_text(other);
                self.prefixes
                    .expand(text.trim())
                    .or_else(|| obo_purl(text.trim()))
                    .unwrap_or(text)
            }
        };
        if !target.trim().is_empty() {
            self.concept(s)
                .replacements
                .push(Replacement { target, kind, prov });
        }
    }

    fn concept(&mut self, iri: &str) -> &mut Concept {
        let source = self.source;
        self.concepts
            .entry(iri.to_string())
            .or_insert_with(|| Concept {
                iri: iri.to_string(),
                source,
                ..Concept::default()
            })
    }

    /// The IRI of the ontology (or concept scheme) the file describes itself as: the first,
    /// by IRI, when it names several.
    pub fn ontology_iri(&self) -> Option<String> {
        let mut headers: Vec<&String> = self
            .headers
            .iter()
            .filter(|(_, kind)| **kind == "ontology")
            .map(|(iri, _)| iri)
            .collect();
        if headers.is_empty() {
            headers = self.headers.keys().collect();
        }
        headers.into_iter().min().cloned()
    }

    fn in_namespace(&self, iri: &str) -> bool {
        self.namespaces.is_empty()
            || self
                .namespaces
                .iter()
                .any(|ns| iri.starts_with(ns.as_str()))
    }

    /// The typed concepts, sorted by IRI, with CURIEs, deduplicated items and children; an
    /// error only when spilled concepts cannot be written or read back.
    pub fn finish(mut self) -> std::io::Result<(SourceConcepts, SourceCounts)> {
        if let Profile::Mesh(mesh) = std::mem::replace(&mut self.profile, Profile::Generic) {
            if let Some(spill) = &self.spill {
                // Joined one record at a time onto disk: the join's facts are held, the
                // concepts are not.
                let mut out = super::extract_spill::FinishedWriter::create(spill.dir())?;
                mesh.finish_each(self.prefixes, |concept| out.write(&concept))?;
                return out.into_concepts(self.triples);
            }
            let concepts = mesh.finish(self.prefixes)?;
            let stats = SourceCounts::of(self.triples, &concepts);
            return Ok((SourceConcepts::held(concepts), stats));
        }
        self.join_restrictions();
        let typed = std::mem::take(&mut self.typed);
        if let Some(mut spill) = self.spill.take() {
            spill.add(std::mem::take(&mut self.concepts), typed, self.source);
            return spill.finish(self.triples, |concept| self.complete(concept));
        }
        let mut concepts: BTreeMap<String, Concept> = BTreeMap::new();
        for iri in typed {
            let concept = self.concepts.remove(&iri).unwrap_or_else(|| Concept {
                iri: iri.clone(),
                source: self.source,
                ..Concept::default()
            });
            if let Some(concept) = self.complete(concept) {
                concepts.insert(iri, concept);
            }
        }
        let mut concepts: Vec<Concept> = concepts.into_values().collect();
        super::fill_children(&mut concepts);
        let stats = SourceCounts::of(self.triples, &concepts);
        Ok((SourceConcepts::held(concepts), stats))
    }

    /// Adds each restriction's relation to its class.
    fn join_restrictions(&mut self) {
        let restrictions = std::mem::take(&mut self.restrictions);
        if restrictions.overflowed {
            tracing::warn!(
                pieces = super::restrictions::MAX_PIECES,
                "the file states more restriction pieces than are read; some part_of and like relations are left out"
            );
        }
        let prov = Provenance {
            source: self.source,
        };
        for relation in restrictions.finish() {
            if !self.in_namespace(&relation.subject) {
                continue;
            }
            // The property's label, if its statements are held (a property in the namespace).
            let property_label = self.concepts.get(&relation.property).and_then(|p| {
                let mut labels: Vec<&str> = p
                    .labels
                    .iter()
                    .filter(|l| l.kind == LabelKind::Label)
                    .map(|l| l.text.as_str())
                    .collect();
                labels.sort_unstable();
                labels.first().map(|l| l.to_string())
            });
            self.concept(&relation.subject)
                .relations
                .push(crate::model::RelatedClass {
                    property: relation.property,
                    property_label,
                    iri: relation.filler,
                    prov,
                });
        }
    }

    /// A typed subject's concept finished: its CURIE, kind and deduplicated statements; `None`
    /// outside the source's namespaces.
    fn complete(&self, mut concept: Concept) -> Option<Concept> {
        if !self.in_namespace(&concept.iri) {
            return None;
        }
        concept.curie = self.prefixes.compress(&concept.iri);
        dedup_in_order(&mut concept.labels);
        dedup_in_order(&mut concept.definitions);
        dedup_sorted(&mut concept.parents);
        dedup_sorted(&mut concept.relations);
        dedup_sorted(&mut concept.xrefs);
        dedup_sorted(&mut concept.replacements);
        dedup_sorted(&mut concept.alt_ids);
        concept.kind = self.kind;
        Some(concept)
    }
}

fn label_kind(predicate: &str) -> Option<LabelKind> {
    Some(match predicate {
        RDFS_LABEL => LabelKind::Label,
        OIO_EXACT_SYNONYM => LabelKind::ExactSynonym,
        OIO_RELATED_SYNONYM | "http://www.geneontology.org/formats/oboInOwl#hasSynonym" => {
            LabelKind::RelatedSynonym
        }
        OIO_BROAD_SYNONYM => LabelKind::BroadSynonym,
        OIO_NARROW_SYNONYM => LabelKind::NarrowSynonym,
        _ => match predicate.strip_prefix(SKOS)? {
            "prefLabel" => LabelKind::PrefLabel,
            "altLabel" => LabelKind::AltLabel,
            "hiddenLabel" => LabelKind::HiddenLabel,
            "notation" => LabelKind::Notation,
            _ => return None,
        },
    })
}

fn xref_kind(predicate: &str) -> Option<XrefKind> {
    Some(match predicate {
        OIO_DB_XREF => XrefKind::DbXref,
        _ => match predicate.strip_prefix(SKOS)? {
            "exactMatch" => XrefKind::ExactMatch,
            "closeMatch" => XrefKind::CloseMatch,
            "broadMatch" => XrefKind::BroadMatch,
            "narrowMatch" => XrefKind::NarrowMatch,
            "relatedMatch" => XrefKind::RelatedMatch,
            _ => return None,
        },
    })
}

fn term_text(term: &Term) -> String {
    match term {
        Term::NamedNode(n) => n.as_str().to_string(),
        Term::Literal(l) => l.value().trim().to_string(),
        Term::BlankNode(b) => b.to_string(),
    }
}

/// The first `YYYY-MM-DD` in a string.
fn find_date(value: &str) -> Option<&str> {
    let bytes = value.as_bytes();
    (0..bytes.len().saturating_sub(9)).find_map(|i| {
        let window = &bytes[i..i + 10];
        let shape = window.iter().enumerate().all(|(j, b)| match j {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        });
        let bounded = i == 0 || !bytes[i - 1].is_ascii_digit();
        (shape && bounded).then(|| &value[i..i + 10])
    })
}

/// A date inside a version string (`hp/releases/2025-01-16`) is the release; otherwise the
/// trimmed string is.
pub fn normalize_release(value: &str) -> String {
    find_date(value).unwrap_or(value.trim()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_normalize_to_dates() {
        assert_eq!(normalize_release("hp/releases/2025-01-16"), "2025-01-16");
        assert_eq!(normalize_release(" 9.16 "), "9.16");
        assert_eq!(
            normalize_release("http://purl.obolibrary.org/obo/pato/releases/2025-05-14/pato.owl"),
            "2025-05-14"
        );
        assert_eq!(find_date("12025-01-16"), None);
    }
}
