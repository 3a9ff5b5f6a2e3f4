//! Synonyms through mappings: a concept whose name matched leads, by a curated exact mapping,
//! to the concept another source holds for the same thing. MONDO knows "DMD"; MeSH's Duchenne
//! muscular dystrophy is found through MONDO's exact match to it.
//!
//! A matched concept with no such mapping to a loaded concept may still reach one through a
//! short chain of them (MONDO's "xanthoma" → DOID → MeSH): exact composed with exact is exact,
//! so the chain is followed, a bounded number of records per search, and named in the answer.

use std::collections::HashSet;

use super::NameSearcher;
use super::{MatchKind, NameCandidate, Stage};
use crate::index::mappings::NodeRead;
use crate::model::{
    Evidence, EvidenceOrigin, MappingEdge, MappingNode, MappingPredicate, XrefKind,
};
use crate::resolve::{ConceptId, ResolveError};

/// How many name-matched concepts are followed through their mappings, best first.
const MAX_VIA_ORIGINS: usize = 32;
/// How many via-mapping candidates one search may add.
const MAX_VIA_CANDIDATES: usize = 128;
/// How far a weaker origin name lowers a via candidate's weight (an origin of weight 0.75
/// lowers it by 0.25 × this).
const VIA_ORIGIN_SPREAD: f64 = 0.04;
/// The longest chain of exact mappings that leads to a via candidate.
const MAX_CHAIN_HOPS: usize = 3;
/// Mapping records one search reads to follow chains, best origin first: a bound on the
/// stage's cost whatever the mappings' shape.
const MAX_CHAIN_READS: usize = 48;
/// How far each hop past the first lowers a via candidate's weight: a chain ranks below a
/// single mapping from the same name, and three hops still rank above name variants.
const CHAIN_HOP_STEP: f64 = 0.004;
/// How many levels of ancestors a broader candidate is looked for in.
const MAX_BROADER_LEVELS: usize = 2;
/// Parents of one concept followed for broader candidates.
const MAX_BROADER_PARENTS: usize = 4;
/// Mappings of a concept beyond which its stated broader concepts are not read: a
/// supplementary record names a few headings, a hub thousands of identifiers.
const MAX_STATED_BROADER_EDGES: u64 = 64;

/// The mapping a via-mapping candidate was reached by.
#[derive(Clone, Debug, PartialEq)]
pub struct ViaMapping {
    /// The concept whose name matched.
    pub from: ConceptId,
    /// How its name matched.
    pub from_kind: MatchKind,
    /// An exact match for a via candidate (nothing weaker stands in for a name); a broad
    /// match for a broader one.
    pub predicate: MappingPredicate,
    /// The curated statements of the mapping, of every hop for a chain (predictions never
    /// lead here).
    pub evidence: Vec<Evidence>,
    /// The identifiers a chain of exact mappings passes between `from` and the candidate, in
    /// order, as the mapping index names them; empty for a single mapping.
    pub through: Vec<String>,
}

/// A loaded concept reached from an origin by a chain of curated exact mappings.
struct Chained {
    target: ConceptId,
    through: Vec<String>,
    evidence: Vec<Evidence>,
}

/// Which origins may lead to a broader concept.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Broader {
    Never,
    /// Names matched as typed: a variant's broader concept would stack two approximations.
    FromTypedNames,
    /// Any name: for a passage's phrase that describes a class of conditions.
    FromAnyName,
}

/// A chain being followed: the identifiers after the origin, and every hop's evidence.
#[derive(Clone)]
struct Walk {
    ids: Vec<String>,
    evidence: Vec<Evidence>,
}

impl<'r> NameSearcher<'r> {
    /// Concepts that the name matches of `direct` map to by a curated, not negated exact
    /// mapping, as candidates of their own. A damaged mapping record is an error.
    /// Also says whether a limit cut the stage short (more origins or candidates than
    /// [`MAX_VIA_ORIGINS`] or [`MAX_VIA_CANDIDATES`]).
    /// An origin that leads to no loaded concept may lead to what its nearest ancestors map
    /// to ([`MatchKind::BroaderViaMapping`]), as `broader` allows.
    pub(super) fn via_mapping_stage(
        &self,
        direct: &[NameCandidate],
        broader: Broader,
    ) -> Result<(Vec<NameCandidate>, bool), ResolveError> {
        // Names matched as typed lead on. A name variant leads on only for a passage's class
        // phrase, which names nothing else; what it reaches through an exact mapping stays a
        // name variant (two approximations never rank as one).
        let any_name = broader == Broader::FromAnyName;
        let mut origins: Vec<&NameCandidate> = direct
            .iter()
            .filter(|c| c.stage == Stage::ExactName || (any_name && c.stage == Stage::NameVariant))
            .filter(|c| {
                self.r
                    .files
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
        let mut chain_reads = MAX_CHAIN_READS;
        for origin in origins.into_iter().take(MAX_VIA_ORIGINS) {
            let mut targets = self.via_targets(origin.concept, &mut chain_reads)?;
            let typed = origin.stage == Stage::ExactName;
            let broader = targets.is_empty()
                && match broader {
                    Broader::Never => false,
                    Broader::FromTypedNames => typed,
                    Broader::FromAnyName => true,
                };
            if broader {
                targets = self.broader_targets(origin.concept, &mut chain_reads)?;
            }
            for found in targets {
                if direct_ids.contains(&found.target) {
                    continue;
                }
                if out.len() >= MAX_VIA_CANDIDATES {
                    limited = true;
                    continue;
                }
                let (kind, weight) = if broader {
                    let weight = broader_weight(origin.kind, found.through.len());
                    (MatchKind::BroaderViaMapping, weight)
                } else if typed {
                    let weight = via_weight(origin.kind, found.through.len());
                    (MatchKind::ViaMapping, weight)
                } else {
                    let weight = variant_via_weight(found.through.len());
                    (MatchKind::NameVariant, weight)
                };
                let mut candidate =
                    NameCandidate::new(found.target, Stage::ViaMapping, kind, origin.case_exact);
                candidate.text = origin.text.clone();
                candidate.lang = origin.lang.clone();
                candidate.via = Some(ViaMapping {
                    from: origin.concept,
                    from_kind: origin.kind,
                    predicate: if broader {
                        MappingPredicate::BroadMatch
                    } else {
                        MappingPredicate::ExactMatch
                    },
                    evidence: found.evidence,
                    through: found.through,
                });
                candidate.weight = weight;
                out.push(candidate.scored());
            }
        }
        Ok((out, limited))
    }

    /// The loaded concepts the nearest ancestors of a concept (its parents, else its
    /// grandparents) map to by a curated exact mapping, each with the ancestors passed, from
    /// the parent up.
    fn broader_targets(
        &self,
        concept: ConceptId,
        chain_reads: &mut usize,
    ) -> Result<Vec<Chained>, ResolveError> {
        let start = self.r.concept(concept)?;
        let mut level: Vec<(Vec<String>, crate::model::Concept)> = vec![(Vec::new(), start)];
        let mut seen = HashSet::from([concept]);
        for _ in 0..MAX_BROADER_LEVELS {
            let mut next = Vec::new();
            for (path, at) in &level {
                for link in at.parents.iter().take(MAX_BROADER_PARENTS) {
                    let Some((id, parent)) = self.r.lexicon().by_iri_any(&link.iri, at.source)?
                    else {
                        continue;
                    };
                    if seen.insert(id) {
                        let mut path = path.clone();
                        path.push(parent.curie.clone().unwrap_or_else(|| parent.iri.clone()));
                        next.push((path, parent));
                    }
                }
            }
            let mut out = Vec::new();
            for (path, parent) in &next {
                let Some(curie) = &parent.curie else {
                    continue;
                };
                if *chain_reads == 0 {
                    return Ok(out);
                }
                *chain_reads -= 1;
                for (other, evidence) in self.curated_exact_edges(curie)? {
                    if let Some(target) = self.loaded_curie(&other)?
                        && !seen.contains(&target)
                    {
                        out.push(Chained {
                            target,
                            through: path.clone(),
                            evidence,
                        });
                    }
                }
            }
            if !out.is_empty() || next.is_empty() {
                return Ok(out);
            }
            level = next;
        }
        Ok(Vec::new())
    }

    /// The loaded concepts a matched concept leads to: those it maps to by a curated exact
    /// mapping or, when there are none, those a chain of them reaches within
    /// [`MAX_CHAIN_HOPS`], reading at most `chain_reads` more mapping records.
    fn via_targets(
        &self,
        concept: ConceptId,
        chain_reads: &mut usize,
    ) -> Result<Vec<Chained>, ResolveError> {
        let Some(curie) = self.r.identity(concept)?.curie else {
            return Ok(Vec::new());
        };
        let edges = self.curated_exact_edges(&curie)?;
        let mut direct: Vec<Chained> = Vec::new();
        for (other, evidence) in &edges {
            if let Some(target) = self.loaded_curie(other)?
                && target != concept
            {
                direct.push(Chained {
                    target,
                    through: Vec::new(),
                    evidence: evidence.clone(),
                });
            }
        }
        if !direct.is_empty() || *chain_reads == 0 {
            return Ok(direct);
        }
        let mut seen: HashSet<String> = HashSet::from([curie]);
        let mut walks: Vec<Walk> = edges
            .into_iter()
            .filter(|(other, _)| seen.insert(other.clone()))
            .map(|(other, evidence)| Walk {
                ids: vec![other],
                evidence,
            })
            .collect();
        let mut out = Vec::new();
        for _ in 1..MAX_CHAIN_HOPS {
            let mut next = Vec::new();
            for walk in walks {
                let Some(last) = walk.ids.last() else {
                    continue;
                };
                if *chain_reads == 0 {
                    return Ok(out);
                }
                *chain_reads -= 1;
                for (other, evidence) in self.curated_exact_edges(last)? {
                    if !seen.insert(other.clone()) {
                        continue;
                    }
                    let mut longer = walk.clone();
                    longer.ids.push(other);
                    longer.evidence.extend(evidence);
                    let last = longer.ids.last().map(|o| self.loaded_curie(o));
                    if let Some(target) = last.transpose()?.flatten()
                        && target != concept
                    {
                        out.push(Chained {
                            target,
                            through: walk.ids.clone(),
                            evidence: longer.evidence.clone(),
                        });
                    }
                    next.push(longer);
                }
            }
            walks = next;
        }
        Ok(out)
    }

    /// The loaded concepts a concept maps to by exact mappings (exact match, equivalent
    /// class, same as) that a person curated or a source states itself, and that evidence;
    /// predictions, lexical matches and targets a negative statement denies are left out.
    pub(in crate::resolve) fn curated_exact_targets(
        &self,
        concept: ConceptId,
    ) -> Result<Vec<(ConceptId, Vec<Evidence>)>, ResolveError> {
        let Some(curie) = self.r.identity(concept)?.curie else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (other, evidence) in self.curated_exact_edges(&curie)? {
            if let Some(target) = self.loaded_curie(&other)?
                && target != concept
            {
                out.push((target, evidence));
            }
        }
        Ok(out)
    }

    /// The identifiers `curie` maps to by curated or source-stated exact mappings that no
    /// negative statement denies, loaded or not, with that evidence.
    fn curated_exact_edges(
        &self,
        curie: &str,
    ) -> Result<Vec<(String, Vec<Evidence>)>, ResolveError> {
        // The hop table holds only chainable edges (exact among them) and negatives, so a hub
        // identifier's cross-references are never decoded here; a node over the answer bound
        // lends no candidates, as it would give no mapping answer.
        let read = self
            .r
            .files
            .mappings
            .hops_within(curie, crate::resolve::mapping::MAX_ANSWER_EDGES)
            .map_err(ResolveError::MappingIndex)?;
        let Some(NodeRead::Whole(node)) = read else {
            return Ok(Vec::new());
        };
        // Any negative statement between two identifiers keeps an exact match from them.
        Ok(self.trusted_edges(
            &node,
            |e| e.predicate.generalized() == MappingPredicate::ExactMatch,
            |_| true,
        ))
    }

    /// The edges of `node` that `wanted` keeps, neither negated nor to an identifier a
    /// negative statement that `denies` counts is about, each with its curated or
    /// source-stated statements (an edge with none is left out).
    fn trusted_edges(
        &self,
        node: &MappingNode,
        wanted: impl Fn(&MappingEdge) -> bool,
        denies: impl Fn(&MappingEdge) -> bool,
    ) -> Vec<(String, Vec<Evidence>)> {
        let denied: HashSet<&str> = node
            .edges
            .iter()
            .filter(|e| e.negated && denies(e))
            .map(|e| e.other.as_str())
            .collect();
        node.edges
            .iter()
            .filter(|e| !e.negated && wanted(e) && !denied.contains(e.other.as_str()))
            .filter_map(|e| {
                let evidence = self.trusted(&e.evidence);
                (!evidence.is_empty()).then(|| (e.other.clone(), evidence))
            })
            .collect()
    }

    /// The concepts in the wanted sources that `origin` maps to as broader, when its own
    /// record states a broader mapping (MeSH indexes a supplementary record under its
    /// headings, `meshv:preferredMappedTo`; an OBO or SKOS broadMatch): each a
    /// `broader_via_mapping` candidate carrying every curated or source-stated statement of
    /// its mapping. A concept named by more than
    /// [`MAX_STATED_BROADER_EDGES`] mappings is a hub, not a record: it lends none.
    pub(in crate::resolve) fn stated_broader(
        &self,
        query: &super::NameQuery,
        origin: &NameCandidate,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        let identity = self.r.identity(origin.concept)?;
        // Only a concept whose own record states a broader concept is looked up in the
        // mapping index: most concepts state none, and the lookup touches every segment.
        let states_broader = identity.xrefs.iter().any(|x| {
            matches!(
                x.kind,
                XrefKind::PreferredMappedTo | XrefKind::MappedTo | XrefKind::BroadMatch
            )
        });
        let Some(curie) = identity.curie.filter(|_| states_broader) else {
            return Ok(Vec::new());
        };
        let read = self
            .r
            .files
            .mappings
            .node_within(&curie, MAX_STATED_BROADER_EDGES)
            .map_err(ResolveError::MappingIndex)?;
        let Some(NodeRead::Whole(node)) = read else {
            return Ok(Vec::new());
        };
        // Only a negative broad match denies a broader concept ("not an exact match" does not).
        let is_broader =
            |e: &MappingEdge| e.predicate_from_here() == Some(MappingPredicate::BroadMatch);
        let broader = self.trusted_edges(&node, is_broader, is_broader);
        let mut found = Vec::new();
        for (other, evidence) in broader {
            let Some(target) = self.loaded_curie(&other)? else {
                continue;
            };
            if target == origin.concept {
                continue;
            }
            let mut candidate = NameCandidate::new(
                target,
                Stage::ViaMapping,
                MatchKind::BroaderViaMapping,
                origin.case_exact,
            );
            candidate.text = origin.text.clone();
            candidate.lang = origin.lang.clone();
            candidate.via = Some(ViaMapping {
                from: origin.concept,
                from_kind: origin.kind,
                predicate: MappingPredicate::BroadMatch,
                evidence,
                through: Vec::new(),
            });
            candidate.weight = broader_weight(origin.kind, 0);
            found.push(candidate.scored());
        }
        self.keep(found, query, &mut HashSet::new())
    }

    /// The statements a person curated or a source makes itself; never a prediction.
    fn trusted(&self, evidence: &[Evidence]) -> Vec<Evidence> {
        evidence
            .iter()
            .filter(|e| {
                !crate::resolve::mapping::MappingWalk::new(self.r).evidence_predicted(e)
                    && (e.curated() || e.origin == EvidenceOrigin::SourceXref)
            })
            .cloned()
            .collect()
    }

    /// The loaded concept whose CURIE is `curie`.
    fn loaded_curie(&self, curie: &str) -> Result<Option<ConceptId>, ResolveError> {
        Ok((self.r.lexicon().lookup_id(curie)?)
            .into_iter()
            .find(|m| m.spelling == crate::resolve::Spelling::Curie)
            .map(|m| m.concept))
    }
}

/// A via-mapping candidate's weight: its tier's, less a little for a weaker name at the
/// origin, so a concept reached from another's label ranks above one reached from an alias
/// symbol, a chain ranks below a single mapping, and every via candidate stays between
/// synonyms and name variants.
fn via_weight(origin: MatchKind, chain_between: usize) -> f64 {
    let tier = MatchKind::ViaMapping.weight();
    tier - VIA_ORIGIN_SPREAD * (1.0 - origin.weight()) - CHAIN_HOP_STEP * chain_between as f64
}

/// What a name variant reaches through a mapping: a name variant's weight, below the variant
/// itself, lower for each identifier between.
fn variant_via_weight(chain_between: usize) -> f64 {
    via_weight(MatchKind::NameVariant, chain_between)
        - (MatchKind::ViaMapping.weight() - MatchKind::NameVariant.weight())
}

/// A broader candidate's weight: as a via candidate's, moved down to its own tier.
fn broader_weight(origin: MatchKind, ancestors: usize) -> f64 {
    via_weight(origin, ancestors)
        - (MatchKind::ViaMapping.weight() - MatchKind::BroaderViaMapping.weight())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn via_candidates_rank_by_their_origin_and_stay_in_their_tier() {
        let label = via_weight(MatchKind::Label, 0);
        let alias = via_weight(MatchKind::AliasSymbol, 0);
        assert!(label > alias);
        assert!(label <= MatchKind::ViaMapping.weight());
        assert!(via_weight(MatchKind::RelatedSynonym, 0) > MatchKind::NameVariant.weight());
    }

    #[test]
    fn a_broader_candidate_ranks_below_near_spellings_and_above_full_text() {
        assert_eq!(
            MatchKind::BroaderViaMapping.tier(),
            MatchKind::NearSpelling.tier()
        );
        assert!(MatchKind::BroaderViaMapping.weight() < MatchKind::NearSpelling.weight());
        let highest = broader_weight(MatchKind::Label, 1);
        let lowest = broader_weight(MatchKind::RelatedSynonym, MAX_BROADER_LEVELS);
        assert!(highest <= MatchKind::BroaderViaMapping.weight());
        assert!(lowest > MatchKind::FullText.weight());
        assert!(!MatchKind::BroaderViaMapping.names_the_concept());
    }

    #[test]
    fn a_chain_ranks_below_one_mapping_and_above_name_variants() {
        assert!(via_weight(MatchKind::Label, 1) < via_weight(MatchKind::Label, 0));
        let longest = via_weight(MatchKind::RelatedSynonym, MAX_CHAIN_HOPS - 1);
        assert!(longest > MatchKind::NameVariant.weight());
    }

    #[test]
    fn what_a_name_variant_reaches_through_a_mapping_ranks_below_the_variant_and_above_near_spellings()
     {
        let direct = variant_via_weight(0);
        let chained = variant_via_weight(MAX_CHAIN_HOPS - 1);
        assert!(direct < MatchKind::NameVariant.weight());
        assert!(chained < direct);
        assert!(chained > MatchKind::NearSpelling.weight());
    }
}
