//! The concept model: what ingest extracts from triples and what the index serves.

use serde::{Deserialize, Serialize};

/// Index of a source in the manifest's source table; the manifest gives its id and release.
pub type SourceIdx = u16;

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
    /// oboInOwl:hasNarrowSynonym.
    NarrowSynonym,
}

impl LabelKind {
    /// Whether this kind names the concept (as opposed to a synonym or code).
    pub fn is_primary(self) -> bool {
        matches!(self, LabelKind::Label | LabelKind::PrefLabel)
    }

    /// Stable snake_case name, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            LabelKind::Label => "label",
            LabelKind::PrefLabel => "pref_label",
            LabelKind::AltLabel => "alt_label",
            LabelKind::HiddenLabel => "hidden_label",
            LabelKind::Notation => "notation",
            LabelKind::ExactSynonym => "exact_synonym",
            LabelKind::RelatedSynonym => "related_synonym",
            LabelKind::BroadSynonym => "broad_synonym",
            LabelKind::NarrowSynonym => "narrow_synonym",
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
}

/// A parent or child of a concept.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Link {
    pub iri: String,
    pub kind: LinkKind,
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
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Xref {
    /// As written: a CURIE for db xrefs, an IRI for SKOS mapping properties.
    pub target: String,
    pub kind: XrefKind,
    pub prov: Provenance,
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
}

impl Concept {
    /// The name to show: the first rdfs:label or skos:prefLabel, English or untagged first.
    pub fn preferred_label(&self) -> Option<&Label> {
        let primary = || self.labels.iter().filter(|l| l.kind.is_primary());
        primary()
            .find(|l| matches!(l.lang.as_deref(), None | Some("en")))
            .or_else(|| primary().next())
            .or_else(|| self.labels.first())
    }

    /// The replacements of the given kind.
    pub fn replacements_of(&self, kind: ReplacementKind) -> impl Iterator<Item = &Replacement> {
        self.replacements.iter().filter(move |r| r.kind == kind)
    }
}
