//! [`concept_triples`]: a concept read from a table, stated as RDF so that the store (and
//! SPARQL over it) holds what the index serves. The shape follows NLM's MeSH RDF for MeSH and
//! the OBO vocabularies elsewhere.

use oxrdf::{Literal, NamedNode, Term, Triple};

use super::mesh::MESH;
use crate::ingest::vocab::{
    IAO_DEFINITION, IAO_REPLACED_BY, OIO_CONSIDER, OWL_CLASS, OWL_DEPRECATED, RDF_TYPE,
    RDFS_SUBCLASS_OF, SKOS, SKOS_CONCEPT, XSD_BOOLEAN,
};
use crate::model::{Concept, ConceptKind, LinkKind, Prefixes, ReplacementKind, obo_purl};

const MESHV: &str = "http://id.nlm.nih.gov/mesh/vocab#";
/// SO:0000704, gene.
const SO_GENE: &str = "http://purl.obolibrary.org/obo/SO_0000704";
/// RO:0002162, in taxon.
const RO_IN_TAXON: &str = "http://purl.obolibrary.org/obo/RO_0002162";
const LOCUS_TYPE: &str = "urn:ontoresolve:vocab:locusType";

/// Appends the triples that state `concept` (no graph; the caller loads them into the source's
/// graph). Triples whose IRIs are not valid are left out.
pub fn concept_triples(concept: &Concept, prefixes: &dyn Prefixes, out: &mut Vec<Triple>) {
    let Ok(subject) = NamedNode::new(concept.iri.as_str()) else {
        return;
    };
    let mut w = Writer { subject, out };
    let class = match concept.kind {
        ConceptKind::Descriptor => format!("{MESHV}TopicalDescriptor"),
        ConceptKind::SupplementaryRecord => format!("{MESHV}SupplementaryConceptRecord"),
        ConceptKind::Qualifier => format!("{MESHV}Qualifier"),
        ConceptKind::Gene => SO_GENE.to_string(),
        ConceptKind::Class => OWL_CLASS.to_string(),
        ConceptKind::Concept => SKOS_CONCEPT.to_string(),
    };
    w.iri(RDF_TYPE, &class);
    for label in &concept.labels {
        w.text(label.kind.predicate(), &label.text, label.lang.as_deref());
    }
    for definition in &concept.definitions {
        w.text(IAO_DEFINITION, &definition.text, definition.lang.as_deref());
    }
    if concept.obsolete
        && let Ok(boolean) = NamedNode::new(XSD_BOOLEAN)
    {
        let flag = Literal::new_typed_literal("true", boolean);
        w.term(OWL_DEPRECATED, flag.into());
    }
    for replacement in &concept.replacements {
        let predicate = match replacement.kind {
            ReplacementKind::ReplacedBy => IAO_REPLACED_BY,
            ReplacementKind::Consider => OIO_CONSIDER,
        };
        w.iri_or_curie(predicate, &replacement.target, prefixes);
    }
    for tree in &concept.tree_numbers {
        w.iri(&format!("{MESHV}treeNumber"), &format!("{MESH}{tree}"));
    }
    for parent in &concept.parents {
        let predicate = match parent.kind {
            LinkKind::BroaderDescriptor => format!("{MESHV}broaderDescriptor"),
            LinkKind::SubClassOf => RDFS_SUBCLASS_OF.to_string(),
            LinkKind::Broader => format!("{SKOS}broader"),
        };
        w.iri(&predicate, &parent.iri);
    }
    for xref in &concept.xrefs {
        match prefixes.expand(&xref.target) {
            Some(iri) if NamedNode::new(iri.as_str()).is_ok() => w.iri(xref.kind.predicate(), &iri),
            _ => w.text(xref.kind.predicate(), &xref.target, None),
        }
    }
    if let Some(locus_type) = &concept.locus_type {
        w.text(LOCUS_TYPE, locus_type, None);
    }
    if let Some(taxon) = &concept.taxon
        && let Some(iri) = prefixes.expand(taxon).or_else(|| obo_purl(taxon))
    {
        w.iri(RO_IN_TAXON, &iri);
    }
}

struct Writer<'a> {
    subject: NamedNode,
    out: &'a mut Vec<Triple>,
}

impl Writer<'_> {
    fn term(&mut self, predicate: &str, object: Term) {
        if let Ok(predicate) = NamedNode::new(predicate) {
            self.out
                .push(Triple::new(self.subject.clone(), predicate, object));
        }
    }

    fn iri(&mut self, predicate: &str, object: &str) {
        if let Ok(object) = NamedNode::new(object) {
            self.term(predicate, object.into());
        }
    }

    /// A literal, language-tagged when `lang` is a valid tag (plain otherwise).
    fn text(&mut self, predicate: &str, text: &str, lang: Option<&str>) {
        let literal = lang
            .and_then(|lang| Literal::new_language_tagged_literal(text, lang).ok())
            .unwrap_or_else(|| Literal::new_simple_literal(text));
        self.term(predicate, literal.into());
    }

    /// An IRI object: the target when it is an IRI, else the target expanded as a CURIE;
    /// text when neither works.
    fn iri_or_curie(&mut self, predicate: &str, target: &str, prefixes: &dyn Prefixes) {
        // Every `PREFIX:local` parses as an IRI, so only IRIs with an authority or a URN
        // count as IRIs here.
        let is_iri = target.contains("://") || target.starts_with("urn:");
        let iri = if is_iri {
            Some(target.to_string())
        } else {
            prefixes.expand(target)
        };
        match iri.and_then(|iri| NamedNode::new(iri).ok()) {
            Some(node) => self.term(predicate, node.into()),
            None => self.text(predicate, target, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{read_str, test_prefixes};
    use super::*;
    use crate::ingest::TableFormat;

    fn triples_of(concept: &Concept) -> Vec<(String, String)> {
        let mut out = Vec::new();
        concept_triples(concept, &test_prefixes(), &mut out);
        assert!(
            out.iter()
                .all(|t| t.subject.to_string() == format!("<{}>", concept.iri))
        );
        out.into_iter()
            .map(|t| (t.predicate.as_str().to_string(), t.object.to_string()))
            .collect()
    }

    fn has(triples: &[(String, String)], predicate: &str, object: &str) -> bool {
        triples.iter().any(|(p, o)| p == predicate && o == object)
    }

    #[test]
    fn descriptor_triples_state_type_labels_trees_and_parents() {
        let read = read_str(
            TableFormat::MeshTsv,
            &[("m", "D1\tRoot\t\tA01\t\nD2\tChild\tKid\tA01.100\t\n")],
        );
        let triples = triples_of(&read.concepts[1]);
        let mesh = |local: &str| format!("<http://id.nlm.nih.gov/mesh/{local}>");
        assert!(has(
            &triples,
            RDF_TYPE,
            &format!("<{MESHV}TopicalDescriptor>")
        ));
        assert!(has(
            &triples,
            "http://www.w3.org/2000/01/rdf-schema#label",
            "\"Child\""
        ));
        assert!(has(&triples, "urn:ontoresolve:vocab:entryTerm", "\"Kid\""));
        assert!(has(
            &triples,
            &format!("{MESHV}treeNumber"),
            &mesh("A01.100")
        ));
        assert!(has(
            &triples,
            &format!("{MESHV}broaderDescriptor"),
            &mesh("D1")
        ));
        assert_eq!(triples.len(), 5);
    }

    #[test]
    fn scr_mapped_to_becomes_iri_objects() {
        let read = read_str(
            TableFormat::MeshTsv,
            &[("m", "C1\tDrug\t\tD006896Q000031,D2\n")],
        );
        let triples = triples_of(&read.concepts[0]);
        assert!(has(
            &triples,
            &format!("{MESHV}preferredMappedTo"),
            "<http://id.nlm.nih.gov/mesh/D006896>"
        ));
        assert!(has(
            &triples,
            &format!("{MESHV}mappedTo"),
            "<http://id.nlm.nih.gov/mesh/D2>"
        ));
    }

    #[test]
    fn gene_triples_state_status_replacements_xrefs_and_taxon() {
        let mut gene = Concept {
            iri: "http://identifiers.org/hgnc/2792".into(),
            kind: ConceptKind::Gene,
            obsolete: true,
            withdrawn: true,
            locus_type: Some("unknown".into()),
            taxon: Some("NCBITaxon:9606".into()),
            ..Concept::default()
        };
        let prov = crate::model::Provenance {
            source: crate::model::SourceIdx(0),
        };
        gene.replacements.push(crate::model::Replacement {
            kind: ReplacementKind::ReplacedBy,
            target: "http://identifiers.org/hgnc/4285".into(),
            prov,
        });
        for target in ["NCBIGene:7157", "IMGT/GENE-DB:TP53"] {
            gene.xrefs.push(crate::model::Xref {
                target: target.into(),
                kind: crate::model::XrefKind::DbXref,
                qualifier: None,
                prov,
            });
        }
        gene.labels.push(crate::model::Label {
            text: "Gen".into(),
            kind: crate::model::LabelKind::AliasSymbol,
            lang: Some("de".into()),
            prov,
        });
        let triples = triples_of(&gene);
        assert!(has(&triples, RDF_TYPE, &format!("<{SO_GENE}>")));
        let boolean = format!("\"true\"^^<{XSD_BOOLEAN}>");
        assert!(has(&triples, OWL_DEPRECATED, &boolean));
        assert!(has(
            &triples,
            IAO_REPLACED_BY,
            "<http://identifiers.org/hgnc/4285>"
        ));
        let xref = crate::model::XrefKind::DbXref.predicate();
        assert!(has(
            &triples,
            xref,
            "<https://www.ncbi.nlm.nih.gov/gene/7157>"
        ));
        assert!(has(&triples, xref, "\"IMGT/GENE-DB:TP53\""));
        assert!(has(&triples, LOCUS_TYPE, "\"unknown\""));
        let taxon = "<http://purl.obolibrary.org/obo/NCBITaxon_9606>";
        assert!(has(&triples, RO_IN_TAXON, taxon));
        assert!(has(
            &triples,
            "urn:ontoresolve:vocab:aliasSymbol",
            "\"Gen\"@de"
        ));
    }

    #[test]
    fn invalid_iris_are_left_out_without_panicking() {
        let concept = Concept {
            iri: "not an iri".into(),
            ..Concept::default()
        };
        assert!(triples_of(&concept).is_empty());
        let mut concept = Concept {
            iri: "http://example.org/x".into(),
            tree_numbers: vec!["bad tree".into()],
            ..Concept::default()
        };
        concept.replacements.push(crate::model::Replacement {
            kind: ReplacementKind::Consider,
            target: "not an iri".into(),
            prov: crate::model::Provenance {
                source: crate::model::SourceIdx(0),
            },
        });
        let triples = triples_of(&concept);
        assert!(has(&triples, RDF_TYPE, &format!("<{OWL_CLASS}>")));
        assert!(has(&triples, OIO_CONSIDER, "\"not an iri\""));
        assert_eq!(triples.len(), 2);
    }
}
