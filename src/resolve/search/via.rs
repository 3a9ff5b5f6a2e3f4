//! Synonyms through mappings: a concept whose name matched leads, by a curated exact mapping,
//! to the concept another source holds for the same thing. MONDO knows "DMD"; MeSH's Duchenne
//! muscular dystrophy is found through MONDO's exact match to it.

use std::collections::HashSet;

use super::{MatchKind, NameCandidate, Stage};
use crate::index::mappings::NodeRead;
use crate::model::{Evidence, EvidenceOrigin, MappingPredicate};
use crate::resolve::{ConceptId, ResolveError, Resolver};

/// How many name-matched concepts are followed through their mappings, best first.
const MAX_VIA_ORIGINS: usize = 32;
/// How many via-mapping candidates one search may add.
const MAX_VIA_CANDIDATES: usize = 128;
/// How far a weaker origin name lowers a via candidate's weight (an origin of weight 0.75
/// lowers it by 0.25 × this).
const VIA_ORIGIN_SPREAD: f64 = 0.04;

/// The mapping a via-mapping candidate was reached by.
#[derive(Clone, Debug, PartialEq)]
pub struct ViaMapping {
    /// The concept whose name matched.
    pub from: ConceptId,
    /// How its name matched.
    pub from_kind: MatchKind,
    /// Always an exact match: nothing weaker stands in for a name.
    pub predicate: MappingPredicate,
    /// The curated statements of the mapping (predictions never lead here).
    pub evidence: Vec<Evidence>,
}

impl Resolver {
    /// Concepts that the name matches of `direct` map to by a curated, not negated exact
    /// mapping, as candidates of their own. A damaged mapping record is an error.
    /// Also says whether a limit cut the stage short (more origins or candidates than
    /// [`MAX_VIA_ORIGINS`] or [`MAX_VIA_CANDIDATES`]).
    pub(super) fn via_mapping_stage(
        &self,
        direct: &[NameCandidate],
    ) -> Result<(Vec<NameCandidate>, bool), ResolveError> {
        // Only names matched as typed lead on: a variant followed through a mapping would
        // stack two approximations under one match kind.
        let mut origins: Vec<&NameCandidate> = direct
            .iter()
            .filter(|c| c.stage == Stage::ExactName)
            .filter(|c| {
                self.files
                    .flags
                    .get(c.concept.0)
                    .is_some_and(|f| f.searchable && !f.obsolete)
            })
            .collect();
        origins.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.concept.cmp(&b.concept)));
        let mut seen_origin = HashSet::new();
        origins.retain(|c| seen_origin.insert(c.concept));
        let direct_ids: HashSet<ConceptId> = direct.iter().map(|c| c.concept).collect();
        let mut out = Vec::new();
        let mut limited = origins.len() > MAX_VIA_ORIGINS;
        for origin in origins.into_iter().take(MAX_VIA_ORIGINS) {
            for (target, evidence) in self.curated_exact_targets(origin.concept)? {
                if direct_ids.contains(&target) {
                    continue;
                }
                if out.len() >= MAX_VIA_CANDIDATES {
                    limited = true;
                    continue;
                }
                let kind = MatchKind::ViaMapping;
                let weight = via_weight(origin.kind);
                let mut candidate =
                    NameCandidate::new(target, Stage::ViaMapping, kind, origin.case_exact);
                candidate.text = origin.text.clone();
                candidate.lang = origin.lang.clone();
                candidate.via = Some(ViaMapping {
                    from: origin.concept,
                    from_kind: origin.kind,
                    predicate: MappingPredicate::ExactMatch,
                    evidence,
                });
                candidate.weight = weight;
                out.push(candidate.scored());
            }
        }
        Ok((out, limited))
    }

    /// The loaded concepts a concept maps to by exact mappings (exact match, equivalent
    /// class, same as) that a person curated or a source states itself, and that evidence;
    /// predictions, lexical matches and targets a negative statement denies are left out.
    pub(super) fn curated_exact_targets(
        &self,
        concept: ConceptId,
    ) -> Result<Vec<(ConceptId, Vec<Evidence>)>, ResolveError> {
        let Some(curie) = self.identity_checked(concept)?.curie else {
            return Ok(Vec::new());
        };
        // The hop table holds only chainable edges (exact among them) and negatives, so a hub
        // identifier's cross-references are never decoded here; a node over the answer bound
        // lends no candidates, as it would give no mapping answer.
        let read = self
            .files
            .mappings
            .hops_within(&curie, crate::resolve::mapping::MAX_ANSWER_EDGES)
            .map_err(|e| ResolveError::MappingIndex(e.to_string()))?;
        let Some(NodeRead::Whole(node)) = read else {
            return Ok(Vec::new());
        };
        let denied: HashSet<&str> = node
            .edges
            .iter()
            .filter(|e| e.negated)
            .map(|e| e.other.as_str())
            .collect();
        let mut out = Vec::new();
        for edge in &node.edges {
            if edge.negated
                || edge.predicate.generalized() != MappingPredicate::ExactMatch
                || denied.contains(edge.other.as_str())
            {
                continue;
            }
            let evidence: Vec<Evidence> = edge
                .evidence
                .iter()
                .filter(|e| {
                    !self.evidence_predicted(e)
                        && (e.curated() || e.origin == EvidenceOrigin::SourceXref)
                })
                .cloned()
                .collect();
            if evidence.is_empty() {
                continue;
            }
            let target = self
                .lookup_id(&edge.other)
                .into_iter()
                .find(|m| m.spelling == crate::resolve::Spelling::Curie)
                .map(|m| m.concept);
            if let Some(target) = target
                && target != concept
            {
                out.push((target, evidence));
            }
        }
        Ok(out)
    }
}

/// A via-mapping candidate's weight: its tier's, less a little for a weaker name at the
/// origin, so a concept reached from another's label ranks above one reached from an alias
/// symbol, and every via candidate stays between synonyms and name variants.
fn via_weight(origin: MatchKind) -> f64 {
    let tier = MatchKind::ViaMapping.weight();
    tier - VIA_ORIGIN_SPREAD * (1.0 - origin.weight())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn via_candidates_rank_by_their_origin_and_stay_in_their_tier() {
        let label = via_weight(MatchKind::Label);
        let alias = via_weight(MatchKind::AliasSymbol);
        assert!(label > alias);
        assert!(label <= MatchKind::ViaMapping.weight());
        assert!(via_weight(MatchKind::RelatedSynonym) > MatchKind::NameVariant.weight());
    }
}
