//! Mappings between identifiers: the predicate and its chaining rules, one piece of evidence for
//! a statement, and the per-identifier record the mapping index stores.
//!
//! The chaining rules are SSSOM's (`mapping-commons/sssom`, chaining-rules): they are
//! structural, not reasoning, and anything they do not name does not chain.

use serde::{Deserialize, Serialize};

/// The object of a row that says "looked, found nothing" (`sssom:NoTermFound`).
pub const NO_TERM_FOUND: &str = "sssom:NoTermFound";

/// A mapping predicate. Predicates outside SSSOM's rules keep their CURIE and never chain.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MappingPredicate {
    ExactMatch,
    CloseMatch,
    BroadMatch,
    NarrowMatch,
    RelatedMatch,
    EquivalentClass,
    SubClassOf,
    SameAs,
    /// oboInOwl:hasDbXref: a cross-reference that states no meaning; never chains.
    DbXref,
    SeeAlso,
    /// Any other predicate, as a CURIE (`RO:0002205`, `debio:0000003`).
    Other(String),
}

/// A standard predicate: its CURIE, its IRI, and the value.
type KnownPredicate = (&'static str, &'static str, fn() -> MappingPredicate);

/// Predicates SSSOM files name, by CURIE and IRI.
const KNOWN: &[KnownPredicate] = &[
    (
        "skos:exactMatch",
        "http://www.w3.org/2004/02/skos/core#exactMatch",
        || MappingPredicate::ExactMatch,
    ),
    (
        "skos:closeMatch",
        "http://www.w3.org/2004/02/skos/core#closeMatch",
        || MappingPredicate::CloseMatch,
    ),
    (
        "skos:broadMatch",
        "http://www.w3.org/2004/02/skos/core#broadMatch",
        || MappingPredicate::BroadMatch,
    ),
    (
        "skos:narrowMatch",
        "http://www.w3.org/2004/02/skos/core#narrowMatch",
        || MappingPredicate::NarrowMatch,
    ),
    (
        "skos:relatedMatch",
        "http://www.w3.org/2004/02/skos/core#relatedMatch",
        || MappingPredicate::RelatedMatch,
    ),
    (
        "owl:equivalentClass",
        "http://www.w3.org/2002/07/owl#equivalentClass",
        || MappingPredicate::EquivalentClass,
    ),
    (
        "rdfs:subClassOf",
        "http://www.w3.org/2000/01/rdf-schema#subClassOf",
        || MappingPredicate::SubClassOf,
    ),
    ("owl:sameAs", "http://www.w3.org/2002/07/owl#sameAs", || {
        MappingPredicate::SameAs
    }),
    (
        "oboInOwl:hasDbXref",
        "http://www.geneontology.org/formats/oboInOwl#hasDbXref",
        || MappingPredicate::DbXref,
    ),
    (
        "rdfs:seeAlso",
        "http://www.w3.org/2000/01/rdf-schema#seeAlso",
        || MappingPredicate::SeeAlso,
    ),
];

impl MappingPredicate {
    /// Reads a predicate written as a CURIE (any case of the standard prefixes) or an IRI.
    pub fn parse(written: &str) -> MappingPredicate {
        for (curie, iri, make) in KNOWN {
            if written.eq_ignore_ascii_case(curie) || written == *iri {
                return make();
            }
        }
        MappingPredicate::Other(written.to_string())
    }

    /// The predicate as a CURIE, as SSSOM writes it.
    pub fn curie(&self) -> &str {
        if let MappingPredicate::Other(curie) = self {
            return curie;
        }
        KNOWN
            .iter()
            .find(|(_, _, make)| make() == *self)
            .map_or("", |(curie, _, _)| curie)
    }

    /// The predicate IRI, for the standard ones.
    pub fn iri(&self) -> Option<&'static str> {
        KNOWN
            .iter()
            .find(|(_, _, make)| make() == *self)
            .map(|(_, iri, _)| *iri)
    }

    /// SSSOM's generalisation: equivalentClass and sameAs read as exactMatch, subClassOf as
    /// broadMatch (the subject is narrower than the object).
    pub fn generalized(&self) -> MappingPredicate {
        match self {
            MappingPredicate::EquivalentClass | MappingPredicate::SameAs => {
                MappingPredicate::ExactMatch
            }
            MappingPredicate::SubClassOf => MappingPredicate::BroadMatch,
            other => other.clone(),
        }
    }

    /// The predicate read from the object's side: narrow and broad swap, the symmetric ones
    /// stay. `None` when the inverse is not known (other predicates).
    pub fn inverse(&self) -> Option<MappingPredicate> {
        Some(match self.generalized() {
            MappingPredicate::BroadMatch => MappingPredicate::NarrowMatch,
            MappingPredicate::NarrowMatch => MappingPredicate::BroadMatch,
            MappingPredicate::Other(_) => return None,
            symmetric => symmetric,
        })
    }

    /// The predicate of `self` followed by `next`, by SSSOM's chaining rules; `None` when the
    /// two do not chain.
    pub fn compose(&self, next: &MappingPredicate) -> Option<MappingPredicate> {
        use MappingPredicate::*;
        match (self.generalized(), next.generalized()) {
            (ExactMatch, ExactMatch) => Some(ExactMatch),
            (NarrowMatch, NarrowMatch) => Some(NarrowMatch),
            (BroadMatch, BroadMatch) => Some(BroadMatch),
            (ExactMatch, p @ (NarrowMatch | BroadMatch | CloseMatch | RelatedMatch)) => Some(p),
            (p @ (NarrowMatch | BroadMatch | CloseMatch | RelatedMatch), ExactMatch) => Some(p),
            _ => None,
        }
    }

    /// Whether this predicate may be a hop of an inferred chain at all.
    pub fn may_chain(&self) -> bool {
        use MappingPredicate::*;
        matches!(
            self.generalized(),
            ExactMatch | NarrowMatch | BroadMatch | CloseMatch | RelatedMatch
        )
    }

    /// How closely the predicate ties the two identifiers; higher ranks first.
    pub fn strength(&self) -> u8 {
        use MappingPredicate::*;
        match self.generalized() {
            ExactMatch => 6,
            CloseMatch => 5,
            NarrowMatch | BroadMatch => 4,
            RelatedMatch => 3,
            DbXref => 2,
            SeeAlso => 1,
            _ => 0,
        }
    }
}

/// Where a piece of evidence comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceOrigin {
    /// A row of a mapping set (SSSOM, gilda).
    MappingSet,
    /// A cross-reference inside a loaded source (OBO xref, skos:*Match, MeSH mapped-to, gene
    /// table columns).
    SourceXref,
}

/// One statement of one mapping, as its set or source made it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Evidence {
    /// Index of the mapping set (`Manifest::mapping_sets`) or, for a source's own
    /// cross-reference, of the source among the build's current sources
    /// (`Manifest::xref_source`), by `origin`.
    #[serde(rename = "s")]
    pub set: u16,
    #[serde(rename = "o")]
    pub origin: EvidenceOrigin,
    /// The semapv justification as a CURIE.
    #[serde(rename = "j")]
    pub justification: String,
    /// Stated confidence in thousandths (0..=1000), so that evidence stays hashable.
    #[serde(rename = "c", default, skip_serializing_if = "Option::is_none")]
    pub confidence_milli: Option<u16>,
    #[serde(rename = "a", default, skip_serializing_if = "Vec::is_empty")]
    pub author_id: Vec<String>,
    #[serde(rename = "r", default, skip_serializing_if = "Vec::is_empty")]
    pub reviewer_id: Vec<String>,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    pub mapping_tool: Option<String>,
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    pub mapping_date: Option<String>,
    /// The predicate as the source wrote it, when it was read as another one (MeSH
    /// `meshv:preferredMappedTo` is stated as skos:broadMatch).
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    pub source_predicate: Option<String>,
    /// The row's line in its file, or the concept's IRI for a source xref: where to look.
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(rename = "m", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

impl Evidence {
    pub fn confidence(&self) -> Option<f64> {
        self.confidence_milli.map(|c| f64::from(c) / 1000.0)
    }

    /// Whether a person curated or reviewed this statement.
    pub fn curated(&self) -> bool {
        matches!(
            self.justification.as_str(),
            "semapv:ManualMappingCuration" | "semapv:MappingReview"
        ) || !self.reviewer_id.is_empty()
    }
}

/// A confidence in 0..=1 as thousandths; `None` for values out of range or not a number.
pub fn confidence_milli(value: f64) -> Option<u16> {
    (0.0..=1.0)
        .contains(&value)
        .then(|| (value * 1000.0).round() as u16)
}

/// One mapping as the index holds it from one identifier's side: the other identifier, the
/// predicate as stated (`inverted` when this identifier was the statement's object), and every
/// statement of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MappingEdge {
    #[serde(rename = "x")]
    pub other: String,
    #[serde(rename = "p")]
    pub predicate: MappingPredicate,
    /// This identifier is the object of the statements.
    #[serde(rename = "i", default, skip_serializing_if = "std::ops::Not::not")]
    pub inverted: bool,
    /// `predicate_modifier: Not`: the statements say these two do NOT match.
    #[serde(rename = "n", default, skip_serializing_if = "std::ops::Not::not")]
    pub negated: bool,
    #[serde(rename = "e")]
    pub evidence: Vec<Evidence>,
}

impl MappingEdge {
    /// The predicate read from this identifier's side.
    pub fn predicate_from_here(&self) -> Option<MappingPredicate> {
        if self.inverted {
            self.predicate.inverse()
        } else {
            Some(self.predicate.generalized())
        }
    }
}

/// Every mapping that names one identifier, as subject or object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MappingNode {
    pub curie: String,
    pub edges: Vec<MappingEdge>,
    /// A hub's edges (an identifier that a million xrefs name) are written as several records
    /// in a row, so that the build never holds them at once: the last record, the one its key
    /// names, counts the records before it.
    #[serde(rename = "k", default, skip_serializing_if = "is_zero")]
    pub earlier_pages: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::MappingPredicate::*;
    use super::*;

    #[test]
    fn exact_composed_with_narrow_is_narrow_both_ways() {
        assert_eq!(ExactMatch.compose(&NarrowMatch), Some(NarrowMatch));
        assert_eq!(NarrowMatch.compose(&ExactMatch), Some(NarrowMatch));
        assert_eq!(ExactMatch.compose(&RelatedMatch), Some(RelatedMatch));
        assert_eq!(EquivalentClass.compose(&ExactMatch), Some(ExactMatch));
        assert_eq!(SubClassOf.compose(&BroadMatch), Some(BroadMatch));
    }

    #[test]
    fn related_close_and_xref_do_not_chain_with_themselves() {
        assert_eq!(RelatedMatch.compose(&RelatedMatch), None);
        assert_eq!(CloseMatch.compose(&CloseMatch), None);
        assert_eq!(DbXref.compose(&ExactMatch), None);
        assert_eq!(ExactMatch.compose(&DbXref), None);
        assert_eq!(NarrowMatch.compose(&BroadMatch), None);
        assert!(!DbXref.may_chain());
        assert!(!Other("RO:0002205".into()).may_chain());
    }

    #[test]
    fn inversion_swaps_narrow_and_broad_only() {
        assert_eq!(NarrowMatch.inverse(), Some(BroadMatch));
        assert_eq!(SubClassOf.inverse(), Some(NarrowMatch));
        assert_eq!(ExactMatch.inverse(), Some(ExactMatch));
        assert_eq!(Other("debio:0000003".into()).inverse(), None);
    }

    #[test]
    fn predicates_read_from_curies_and_iris_and_keep_unknown_ones() {
        assert_eq!(MappingPredicate::parse("skos:exactMatch"), ExactMatch);
        assert_eq!(
            MappingPredicate::parse("http://www.w3.org/2004/02/skos/core#broadMatch"),
            BroadMatch
        );
        assert_eq!(
            MappingPredicate::parse("oboinowl:hasDbXref").curie(),
            "oboInOwl:hasDbXref"
        );
        assert_eq!(
            MappingPredicate::parse("debio:0000003"),
            Other("debio:0000003".into())
        );
        assert_eq!(confidence_milli(0.875), Some(875));
        assert_eq!(confidence_milli(1.5), None);
        assert_eq!(confidence_milli(f64::NAN), None);
    }
}
