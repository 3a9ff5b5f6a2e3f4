//! Inferred mappings: chains of asserted ones by SSSOM's chaining rules.
//!
//! A chain starts at the subject, takes at most `max_hops` hops (2 by default, `MAX_HOPS` at
//! most), never enters a prefix twice (so never the subject's own vocabulary again), and uses
//! only predicates that chain (exact, narrow, broad, close and related, with equivalentClass
//! and subClassOf generalised). A hop that a negative statement contradicts is never taken,
//! and an inferred mapping that a negative statement about the subject denies is reported as
//! blocked, never as a candidate.
//!
//! Derived confidence: the product over hops of the hop's confidence (its stated confidence,
//! aggregated; else `UNSTATED_CURATED` for curated statements and source cross-references,
//! `UNSTATED_OTHER` for the rest), times `HOP_DECAY` per hop. It goes down with every hop.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{
    BlockedInference, MapAnswer, MapCandidate, MapError, MapOptions, RankTier,
    aggregate_confidence, prefix_of,
};
use crate::index::mappings::NodeRead;
use crate::model::{
    Evidence, EvidenceOrigin, MappingEdge, MappingNode, MappingPredicate, NO_TERM_FOUND,
};
use crate::resolve::ResolveError;

/// The longest chain anyone may ask for.
pub const MAX_HOPS: u8 = 3;
/// Identifiers whose mappings one answer may read while chaining; past it the answer says
/// that inference was limited.
pub const MAX_EXPANDED_NODES: usize = 256;
/// Each hop multiplies the derived confidence by this.
pub const HOP_DECAY: f64 = 0.9;
/// A hop's confidence when its statements state none and a person or the source made them.
pub const UNSTATED_CURATED: f64 = 0.95;
/// A hop's confidence when its statements state none and a tool made them.
pub const UNSTATED_OTHER: f64 = 0.8;

/// One hop of an inferred chain.
#[derive(Clone, Debug, PartialEq)]
pub struct Hop {
    pub subject: String,
    /// The predicate read in the chain's direction.
    pub predicate: MappingPredicate,
    pub object: String,
    /// The statements name `object` as their subject; the hop reads them backwards.
    pub inverted: bool,
    pub evidence: Vec<Evidence>,
    /// How the hop joins the chain, in words (`asserted`, `inversion of narrowMatch`,
    /// `exactMatch ∘ narrowMatch = narrowMatch`).
    pub rule: String,
}

/// A partial chain.
struct Partial {
    hops: Vec<Hop>,
    predicate: MappingPredicate,
    prefixes: BTreeSet<String>,
    confidence: f64,
}

impl<'r> super::MappingWalk<'r> {
    /// Every chain of two hops or more from `start`, grouped by (object, predicate).
    pub(super) fn infer(
        &self,
        start: &MappingNode,
        options: &MapOptions,
        answer: &mut MapAnswer,
    ) -> Result<Vec<MapCandidate>, MapError> {
        let max_hops = options.max_hops.clamp(1, MAX_HOPS);
        let denied = denied_by(start);
        let mut frontier = self.first_hops(start, options);
        let mut found: BTreeMap<(String, MappingPredicate), (Partial, u32)> = BTreeMap::new();
        // Each identifier's hop record is read once per answer, however many chains reach it.
        let mut cache: HashMap<String, Option<MappingNode>> = HashMap::new();
        for round in 1..max_hops {
            let last_round = round + 1 == max_hops;
            let mut next = Vec::new();
            for partial in frontier {
                // A call past its deadline stops here; its caller drops the partial answer.
                if crate::resolve::deadline::passed() {
                    break;
                }
                let Some(last) = partial.hops.last() else {
                    continue;
                };
                if !cache.contains_key(&last.object) {
                    if cache.len() >= MAX_EXPANDED_NODES {
                        answer.inference_limited = true;
                        break;
                    }
                    // A hub is not expanded: its chains would cost what its answer would.
                    let node = match self
                        .r
                        .files
                        .mappings
                        .hops_within(&last.object, super::MAX_ANSWER_EDGES)?
                    {
                        Some(NodeRead::Whole(node)) => Some(node),
                        Some(NodeRead::TooMany { .. }) => {
                            answer.inference_limited = true;
                            None
                        }
                        None => None,
                    };
                    if round == 1
                        && let Some(node) = &node
                    {
                        answer.nodes_read.push(node.curie.clone());
                    }
                    cache.insert(last.object.clone(), node);
                }
                let Some(Some(node)) = cache.get(&last.object) else {
                    continue;
                };
                for extended in self.extend(&partial, node, options) {
                    let Some(end) = extended.hops.last() else {
                        continue;
                    };
                    if denied.contains(&(end.object.clone(), extended.predicate.clone())) {
                        answer.blocked.push(BlockedInference {
                            object: end.object.clone(),
                            predicate: extended.predicate.clone(),
                            path: extended.hops,
                        });
                        continue;
                    }
                    record(&mut found, &extended);
                    if !last_round {
                        next.push(extended);
                    }
                }
            }
            frontier = next;
        }
        (found.into_values())
            .map(|(partial, others)| Ok(self.inferred_candidate(partial, others)?))
            .collect()
    }

    /// One-hop chains from the subject into other prefixes.
    fn first_hops(&self, start: &MappingNode, options: &MapOptions) -> Vec<Partial> {
        let start_prefix = prefix_of(&start.curie);
        let mut frontier = Vec::new();
        for edge in self.usable_edges(start, options) {
            if prefix_of(&edge.other) == start_prefix {
                continue;
            }
            let evidence = self.kept_evidence(&edge.evidence, options);
            let (predicate, rule) = first_hop_rule(edge);
            let prefixes =
                BTreeSet::from([start_prefix.to_string(), prefix_of(&edge.other).to_string()]);
            frontier.push(Partial {
                confidence: self.hop_confidence(&evidence) * HOP_DECAY,
                hops: vec![hop(&start.curie, edge, predicate.clone(), rule, evidence)],
                predicate,
                prefixes,
            });
        }
        frontier
    }

    /// `partial` extended by every edge of `node` (its last identifier) that chains.
    fn extend(&self, partial: &Partial, node: &MappingNode, options: &MapOptions) -> Vec<Partial> {
        let mut out = Vec::new();
        for edge in self.usable_edges(node, options) {
            if partial.prefixes.contains(prefix_of(&edge.other)) {
                continue;
            }
            let Some(step) = edge.predicate_from_here() else {
                continue;
            };
            let Some(predicate) = partial.predicate.compose(&step) else {
                continue;
            };
            let rule = format!(
                "{} ∘ {} = {}",
                partial.predicate.curie(),
                step.curie(),
                predicate.curie()
            );
            let evidence = self.kept_evidence(&edge.evidence, options);
            let confidence = partial.confidence * self.hop_confidence(&evidence) * HOP_DECAY;
            let mut hops = partial.hops.clone();
            hops.push(hop(&node.curie, edge, step, rule, evidence));
            let mut prefixes = partial.prefixes.clone();
            prefixes.insert(prefix_of(&edge.other).to_string());
            out.push(Partial {
                hops,
                predicate,
                prefixes,
                confidence,
            });
        }
        out
    }

    /// A hop's statements, predictions left out unless asked for.
    fn kept_evidence(&self, evidence: &[Evidence], options: &MapOptions) -> Vec<Evidence> {
        evidence
            .iter()
            .filter(|e| options.include_predicted || !self.evidence_predicted(e))
            .cloned()
            .collect()
    }

    fn inferred_candidate(
        &self,
        partial: Partial,
        other_paths: u32,
    ) -> Result<MapCandidate, ResolveError> {
        let object = partial
            .hops
            .last()
            .map(|h| h.object.clone())
            .unwrap_or_default();
        Ok(MapCandidate {
            status: self.object_status(&object)?,
            object,
            predicate: partial.predicate,
            inferred: true,
            inverted: false,
            evidence: Vec::new(),
            path: partial.hops,
            other_paths,
            tier: RankTier::Inferred,
            confidence: Some(partial.confidence),
            cardinality: None,
        })
    }

    /// The edges a chain may take from `node`: positive, chaining predicates, not only
    /// predictions (unless asked), and not denied by a negative statement of the same node.
    fn usable_edges<'n>(
        &self,
        node: &'n MappingNode,
        options: &MapOptions,
    ) -> impl Iterator<Item = &'n MappingEdge> {
        let denied = denied_by(node);
        let include_predicted = options.include_predicted;
        node.edges
            .iter()
            .filter(|e| !e.negated && e.other != NO_TERM_FOUND && e.predicate.may_chain())
            .filter(move |e| {
                include_predicted || e.evidence.iter().any(|ev| !self.evidence_predicted(ev))
            })
            .filter(move |e| {
                e.predicate_from_here()
                    .is_none_or(|p| !denied.contains(&(e.other.clone(), p)))
            })
    }

    fn hop_confidence(&self, evidence: &[Evidence]) -> f64 {
        if let Some(stated) = aggregate_confidence(evidence) {
            return stated;
        }
        let curated = evidence
            .iter()
            .any(|e| e.curated() || e.origin == EvidenceOrigin::SourceXref);
        if curated {
            UNSTATED_CURATED
        } else {
            UNSTATED_OTHER
        }
    }
}

/// (other, predicate from this node's side) of every negative statement of a node.
fn denied_by(node: &MappingNode) -> BTreeSet<(String, MappingPredicate)> {
    node.edges
        .iter()
        .filter(|e| e.negated)
        .filter_map(|e| Some((e.other.clone(), e.predicate_from_here()?)))
        .collect()
}

fn first_hop_rule(edge: &MappingEdge) -> (MappingPredicate, String) {
    let predicate = edge
        .predicate_from_here()
        .unwrap_or_else(|| edge.predicate.clone());
    let rule = if edge.inverted {
        format!("inversion of {}", edge.predicate.curie())
    } else if edge.predicate != predicate {
        format!(
            "{} generalised to {}",
            edge.predicate.curie(),
            predicate.curie()
        )
    } else {
        "asserted".to_string()
    };
    (predicate, rule)
}

fn hop(
    subject: &str,
    edge: &MappingEdge,
    predicate: MappingPredicate,
    rule: String,
    evidence: Vec<Evidence>,
) -> Hop {
    let rule = if edge.inverted && !rule.starts_with("inversion") {
        format!("inversion of {}, then {rule}", edge.predicate.curie())
    } else {
        rule
    };
    Hop {
        subject: subject.to_string(),
        predicate,
        object: edge.other.clone(),
        inverted: edge.inverted,
        evidence,
        rule,
    }
}

/// Keeps the best path per (object, predicate): fewest hops, then highest confidence.
fn record(found: &mut BTreeMap<(String, MappingPredicate), (Partial, u32)>, partial: &Partial) {
    let Some(last) = partial.hops.last() else {
        return;
    };
    let key = (last.object.clone(), partial.predicate.clone());
    let copy = || Partial {
        hops: partial.hops.clone(),
        predicate: partial.predicate.clone(),
        prefixes: partial.prefixes.clone(),
        confidence: partial.confidence,
    };
    match found.get_mut(&key) {
        None => {
            found.insert(key, (copy(), 0));
        }
        Some((best, others)) => {
            *others += 1;
            let better = partial.hops.len() < best.hops.len()
                || (partial.hops.len() == best.hops.len() && partial.confidence > best.confidence);
            if better {
                *best = copy();
            }
        }
    }
}
