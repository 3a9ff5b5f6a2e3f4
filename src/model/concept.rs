//! The concept model: what ingest extracts from triples and what the index serves.

use serde::{Deserialize, Serialize};

/// Index of a source in the manifest's source table; the manifest gives its id and release.
/// Serialized as the bare number, so the concept table's format is that of a `u16`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SourceIdx(pub u16);

impl SourceIdx {
    /// The source's position in the manifest's source table.
    pub fn slot(self) -> usize {
        usize::from(self.0)
    }
}

impl TryFrom<usize> for SourceIdx {
    type Error = std::num::TryFromIntError;

    fn try_from(slot: usize) -> Result<Self, Self::Error> {
        u16::try_from(slot).map(SourceIdx)
    }
}

impl std::fmt::Display for SourceIdx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Where an item came from: the source (and through it, the release).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Provenance {
    pub source: SourceIdx,
}

/// The kind of a label, keeping the vocabulary that asserted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelKind {
    /// skos:prefLabel. Ranks first: in SKOS it is the authoritative name.
    PrefLabel,
    /// rdfs:label (OWL, OBO `name`).
    Label,
    /// skos:altLabel.
    AltLabel,
    /// skos:hiddenLabel.
    HiddenLabel,
    /// skos:notation.
    Notation,
    /// oboInOwl:hasExactSynonym.
    ExactSynonym,
    /// oboInOwl:hasRelatedSynonym (and the old oboInOwl:hasSynonym).
    RelatedSynonym,
    /// oboInOwl:hasBroadSynonym.
    BroadSynonym,
    /// oboInOwl:hasNarrowSynonym; for MeSH, a term of a narrower concept of the descriptor.
    NarrowSynonym,
    /// A gene's approved (official) symbol: the gene's name as the authority gives it.
    ApprovedSymbol,
    /// A gene's alias symbol: another symbol in use for the same gene.
    AliasSymbol,
    /// A symbol the gene had before; it may now belong to another gene.
    PreviousSymbol,
    /// A gene's approved full name.
    ApprovedName,
    /// A MeSH entry term: a term of the descriptor's preferred concept other than its label.
    EntryTerm,
}

impl LabelKind {
    /// Whether this kind names the concept (as opposed to a synonym or code).
    pub fn is_primary(self) -> bool {
        matches!(
            self,
            LabelKind::Label | LabelKind::PrefLabel | LabelKind::ApprovedSymbol
        )
    }

    /// Every kind, in rank order.
    pub const ALL: [LabelKind; 14] = [
        LabelKind::PrefLabel,
        LabelKind::Label,
        LabelKind::ApprovedSymbol,
        LabelKind::ApprovedName,
        LabelKind::EntryTerm,
        LabelKind::ExactSynonym,
        LabelKind::AltLabel,
        LabelKind::AliasSymbol,
        LabelKind::PreviousSymbol,
        LabelKind::NarrowSynonym,
        LabelKind::BroadSynonym,
        LabelKind::RelatedSynonym,
        LabelKind::HiddenLabel,
        LabelKind::Notation,
    ];

    /// The predicate IRI that states a label of this kind in the RDF store. Sources read from
    /// tables (MeSH, HGNC, NCBI Gene) are written with these predicates.
    pub fn predicate(self) -> &'static str {
        match self {
            LabelKind::Label => "http://www.w3.org/2000/01/rdf-schema#label",
            LabelKind::PrefLabel => "http://www.w3.org/2004/02/skos/core#prefLabel",
            LabelKind::AltLabel => "http://www.w3.org/2004/02/skos/core#altLabel",
            LabelKind::HiddenLabel => "http://www.w3.org/2004/02/skos/core#hiddenLabel",
            LabelKind::Notation => "http://www.w3.org/2004/02/skos/core#notation",
            LabelKind::ExactSynonym => {
                "http://www.geneontology.org/formats/oboInOwl#hasExactSynonym"
            }
            LabelKind::RelatedSynonym => {
                "http://www.geneontology.org/formats/oboInOwl#hasRelatedSynonym"
            }
            LabelKind::BroadSynonym => {
                "http://www.geneontology.org/formats/oboInOwl#hasBroadSynonym"
            }
            LabelKind::NarrowSynonym => {
                "http://www.geneontology.org/formats/oboInOwl#hasNarrowSynonym"
            }
            LabelKind::ApprovedSymbol => "urn:ontoresolve:vocab:approvedSymbol",
            LabelKind::AliasSymbol => "urn:ontoresolve:vocab:aliasSymbol",
            LabelKind::PreviousSymbol => "urn:ontoresolve:vocab:previousSymbol",
            LabelKind::ApprovedName => "urn:ontoresolve:vocab:approvedName",
            LabelKind::EntryTerm => "urn:ontoresolve:vocab:entryTerm",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Label {
    pub text: String,
    pub kind: LabelKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    pub prov: Provenance,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Definition {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    pub prov: Provenance,
}

/// How a hierarchy link was asserted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// rdfs:subClassOf (OWL, OBO `is_a`).
    SubClassOf,
    /// skos:broader, or skos:narrower read backwards.
    Broader,
    /// MeSH: a descriptor whose tree number is the parent of one of this descriptor's.
    BroaderDescriptor,
}

/// A parent or child of a concept.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Link {
    pub iri: String,
    pub kind: LinkKind,
    pub prov: Provenance,
}

/// A class related to another by an existential restriction, as OWL states part_of:
/// `C rdfs:subClassOf [owl:onProperty P; owl:someValuesFrom X]`. On C it names X; read
/// backwards (on X), it names C.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RelatedClass {
    /// The property's IRI (`http://purl.obolibrary.org/obo/BFO_0000050` for part_of).
    pub property: String,
    /// The property's label, when the file gives it one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property_label: Option<String>,
    pub iri: String,
    pub prov: Provenance,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplacementKind {
    /// IAO:0100001, oboInOwl:replacedBy, dcterms:isReplacedBy: use this instead.
    ReplacedBy,
    /// oboInOwl:consider: a candidate, not a decision.
    Consider,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Replacement {
    pub kind: ReplacementKind,
    /// The replacement's IRI when it could be expanded, otherwise the text as written.
    pub target: String,
    pub prov: Provenance,
}

/// The predicate that asserted a cross-reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum XrefKind {
    /// oboInOwl:hasDbXref (OBO `xref`): an unqualified database cross-reference.
    DbXref,
    ExactMatch,
    CloseMatch,
    BroadMatch,
    NarrowMatch,
    RelatedMatch,
    /// RO:0002205 (has gene product): the target is the gene's product (UniProt).
    HasGeneProduct,
    /// RO:HOM0000017 (in orthology relationship with): the same gene in another species.
    Ortholog,
    /// meshv:preferredMappedTo: the heading a supplementary record is indexed under first.
    PreferredMappedTo,
    /// meshv:mappedTo: another heading a supplementary record is indexed under.
    MappedTo,
}

impl XrefKind {
    pub const ALL: [XrefKind; 10] = [
        XrefKind::DbXref,
        XrefKind::ExactMatch,
        XrefKind::CloseMatch,
        XrefKind::BroadMatch,
        XrefKind::NarrowMatch,
        XrefKind::RelatedMatch,
        XrefKind::HasGeneProduct,
        XrefKind::Ortholog,
        XrefKind::PreferredMappedTo,
        XrefKind::MappedTo,
    ];

    /// The predicate as a CURIE, as SSSOM writes it.
    pub fn curie(self) -> &'static str {
        match self {
            XrefKind::DbXref => "oboInOwl:hasDbXref",
            XrefKind::ExactMatch => "skos:exactMatch",
            XrefKind::CloseMatch => "skos:closeMatch",
            XrefKind::BroadMatch => "skos:broadMatch",
            XrefKind::NarrowMatch => "skos:narrowMatch",
            XrefKind::RelatedMatch => "skos:relatedMatch",
            XrefKind::HasGeneProduct => "RO:0002205",
            XrefKind::Ortholog => "RO:HOM0000017",
            XrefKind::PreferredMappedTo => "meshv:preferredMappedTo",
            XrefKind::MappedTo => "meshv:mappedTo",
        }
    }

    /// The predicate IRI, as the RDF store holds it.
    pub fn predicate(self) -> &'static str {
        match self {
            XrefKind::DbXref => "http://www.geneontology.org/formats/oboInOwl#hasDbXref",
            XrefKind::ExactMatch => "http://www.w3.org/2004/02/skos/core#exactMatch",
            XrefKind::CloseMatch => "http://www.w3.org/2004/02/skos/core#closeMatch",
            XrefKind::BroadMatch => "http://www.w3.org/2004/02/skos/core#broadMatch",
            XrefKind::NarrowMatch => "http://www.w3.org/2004/02/skos/core#narrowMatch",
            XrefKind::RelatedMatch => "http://www.w3.org/2004/02/skos/core#relatedMatch",
            XrefKind::HasGeneProduct => "http://purl.obolibrary.org/obo/RO_0002205",
            XrefKind::Ortholog => "http://purl.obolibrary.org/obo/RO_HOM0000017",
            XrefKind::PreferredMappedTo => "http://id.nlm.nih.gov/mesh/vocab#preferredMappedTo",
            XrefKind::MappedTo => "http://id.nlm.nih.gov/mesh/vocab#mappedTo",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Xref {
    /// As written: a CURIE for db xrefs and table columns, an IRI for RDF mapping properties.
    pub target: String,
    pub kind: XrefKind,
    /// A MeSH qualifier that came with the target (`D006896Q000031` maps to D006896 with
    /// qualifier Q000031).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub prov: Provenance,
}

/// What sort of thing a concept is; decides how it is searched and shown.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ConceptKind {
    /// An OWL or OBO class.
    #[default]
    Class,
    /// A SKOS concept.
    Concept,
    /// A MeSH descriptor (main heading).
    Descriptor,
    /// A MeSH supplementary concept record (SCR).
    SupplementaryRecord,
    /// A MeSH qualifier (subheading): resolvable by identifier, never a search candidate.
    Qualifier,
    /// A gene.
    Gene,
}

impl ConceptKind {
    /// Whether name searches may return concepts of this kind.
    pub fn searchable(self) -> bool {
        self != ConceptKind::Qualifier
    }
}

/// Whether a concept is in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConceptStatus {
    Current,
    /// Deprecated by its source (owl:deprecated, OBO is_obsolete).
    Obsolete,
    /// Withdrawn by its authority (an HGNC symbol or entry withdrawn).
    Withdrawn,
}

impl ConceptStatus {
    /// A concept's status from its flags: withdrawn implies obsolete.
    pub fn of(obsolete: bool, withdrawn: bool) -> Self {
        match (obsolete, withdrawn) {
            (_, true) => ConceptStatus::Withdrawn,
            (true, false) => ConceptStatus::Obsolete,
            (false, false) => ConceptStatus::Current,
        }
    }
}

/// The name to show among `labels`: the first rdfs:label or skos:prefLabel, English or
/// untagged first.
fn preferred_label(labels: &[Label]) -> Option<&Label> {
    let primary = || labels.iter().filter(|l| l.kind.is_primary());
    primary()
        .find(|l| matches!(l.lang.as_deref(), None | Some("en")))
        .or_else(|| primary().next())
        .or_else(|| labels.first())
}

/// One concept as asserted by one source release.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Concept {
    pub iri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curie: Option<String>,
    pub source: SourceIdx,
    #[serde(default)]
    pub labels: Vec<Label>,
    #[serde(default)]
    pub definitions: Vec<Definition>,
    #[serde(default)]
    pub parents: Vec<Link>,
    #[serde(default)]
    pub children: Vec<Link>,
    /// Classes this one is related to by a restriction (part_of X), and those related to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<RelatedClass>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related_from: Vec<RelatedClass>,
    #[serde(default)]
    pub obsolete: bool,
    #[serde(default)]
    pub replacements: Vec<Replacement>,
    #[serde(default)]
    pub xrefs: Vec<Xref>,
    /// Alternative identifiers (oboInOwl:hasAlternativeId, OBO `alt_id`), as written.
    #[serde(default)]
    pub alt_ids: Vec<String>,
    /// skos:topConceptOf / skos:hasTopConcept.
    #[serde(default)]
    pub top_concept: bool,
    #[serde(default)]
    pub kind: ConceptKind,
    /// Obsolete because its authority withdrew it (implies `obsolete`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
    /// MeSH tree numbers (a descriptor can sit in several trees).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tree_numbers: Vec<String>,
    /// A gene's locus type (HGNC "gene with protein product", NCBI "protein-coding").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locus_type: Option<String>,
    /// NCBI taxon of a gene, as `NCBITaxon:9606`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taxon: Option<String>,
}

impl Concept {
    /// The name to show: the first rdfs:label or skos:prefLabel, English or untagged first.
    pub fn preferred_label(&self) -> Option<&Label> {
        preferred_label(&self.labels)
    }

    pub fn status(&self) -> ConceptStatus {
        ConceptStatus::of(self.obsolete, self.withdrawn)
    }

    /// Moves the concept to another source index (a later build numbers sources anew): the
    /// concept and every statement its source made.
    pub fn renumber_source(&mut self, to: SourceIdx) {
        let from = self.source;
        let moved = |prov: &mut Provenance| {
            if prov.source == from {
                prov.source = to;
            }
        };
        self.labels.iter_mut().for_each(|l| moved(&mut l.prov));
        self.definitions.iter_mut().for_each(|d| moved(&mut d.prov));
        self.parents.iter_mut().for_each(|l| moved(&mut l.prov));
        self.children.iter_mut().for_each(|l| moved(&mut l.prov));
        self.relations.iter_mut().for_each(|l| moved(&mut l.prov));
        self.related_from
            .iter_mut()
            .for_each(|l| moved(&mut l.prov));
        self.replacements
            .iter_mut()
            .for_each(|r| moved(&mut r.prov));
        self.xrefs.iter_mut().for_each(|x| moved(&mut x.prov));
        self.source = to;
    }

    /// The replacements of the given kind.
    pub fn replacements_of(&self, kind: ReplacementKind) -> impl Iterator<Item = &Replacement> {
        self.replacements.iter().filter(move |r| r.kind == kind)
    }
}

/// A concept record's labels alone: what a name search reads of every concept a name's
/// postings point at (the rest of the record is parsed past, never built).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ConceptLabels {
    #[serde(default)]
    pub labels: Vec<Label>,
}

/// A concept record's identifiers and cross-references alone: what a name search reads to
/// join candidates that are one entity, and to follow mappings from a CURIE.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ConceptIdentity {
    pub iri: String,
    #[serde(default)]
    pub curie: Option<String>,
    #[serde(default)]
    pub xrefs: Vec<Xref>,
}

/// What a listing shows of a concept (identifiers, source, labels, status, kind), read
/// without its definitions, links and cross-references.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ConceptHead {
    pub iri: String,
    #[serde(default)]
    pub curie: Option<String>,
    pub source: SourceIdx,
    #[serde(default)]
    pub labels: Vec<Label>,
    #[serde(default)]
    pub obsolete: bool,
    #[serde(default)]
    pub kind: ConceptKind,
    #[serde(default)]
    pub withdrawn: bool,
}

/// What a listing shows of a concept, borrowed from a whole record or from its head.
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a> {
    pub iri: &'a str,
    pub curie: Option<&'a str>,
    pub source: SourceIdx,
    pub labels: &'a [Label],
    pub status: ConceptStatus,
    pub kind: ConceptKind,
}

impl Shown<'_> {
    pub fn preferred_label(&self) -> Option<&Label> {
        preferred_label(self.labels)
    }
}

impl<'a> From<&'a Concept> for Shown<'a> {
    fn from(c: &'a Concept) -> Self {
        Shown {
            iri: &c.iri,
            curie: c.curie.as_deref(),
            source: c.source,
            labels: &c.labels,
            status: c.status(),
            kind: c.kind,
        }
    }
}

impl<'a> From<&'a ConceptHead> for Shown<'a> {
    fn from(c: &'a ConceptHead) -> Self {
        Shown {
            iri: &c.iri,
            curie: c.curie.as_deref(),
            source: c.source,
            labels: &c.labels,
            status: ConceptStatus::of(c.obsolete, c.withdrawn),
            kind: c.kind,
        }
    }
}
