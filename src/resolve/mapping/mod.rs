//! "What is this identifier in other vocabularies?": every mapping the index holds for an
//! identifier, asserted and inferred, each with its evidence, ranked, with the negative
//! statements and conflicts beside them. Never one silent guess.
//!
//! Ranking (the basis is returned with each candidate): curated asserted > a source's own
//! cross-reference > other asserted (lexical, unspecified) > predicted > inferred, then fewer
//! hops, a stronger predicate, a higher confidence, more evidence, and the identifier.

mod infer;
mod sparql;

pub use infer::{HOP_DECAY, Hop, MAX_EXPANDED_NODES, MAX_HOPS, UNSTATED_CURATED, UNSTATED_OTHER};
pub use sparql::mapping_sparql;

use crate::model::WireName;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::{ConceptId, Normalized, Outcome, ResolveError, Resolver};
use crate::index::mappings::NodeRead;
use crate::model::{
    ConceptStatus, Evidence, EvidenceOrigin, MappingEdge, MappingNode, MappingPredicate,
    NO_TERM_FOUND,
};

/// At most this many identifiers in one batch call.
pub const MAX_BATCH_IDENTIFIERS: usize = 1_000;
/// At most this many target prefixes.
pub const MAX_TARGETS: usize = 64;

/// What to include in a mapping answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapOptions {
    /// Canonical prefixes to keep; empty keeps every one.
    pub targets: Vec<String>,
    pub include_inferred: bool,
    pub include_predicted: bool,
    /// Hops an inferred chain may take (2 by default, at most `MAX_HOPS`).
    pub max_hops: u8,
}

impl Default for MapOptions {
    fn default() -> Self {
        MapOptions {
            targets: Vec::new(),
            include_inferred: true,
            include_predicted: false,
            max_hops: 2,
        }
    }
}

/// Why a candidate ranks where it does: the first key of the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RankTier {
    /// Stated by a mapping set and curated or reviewed by a person.
    CuratedAsserted,
    /// A cross-reference inside a loaded source.
    OntologyXref,
    /// Stated by a mapping set, made another way (lexical, unspecified).
    OtherAsserted,
    /// A prediction or an undecided row.
    Predicted,
    /// Derived by chaining, penalised per hop.
    Inferred,
}

impl RankTier {
    pub const ALL: [RankTier; 5] = [
        RankTier::CuratedAsserted,
        RankTier::OntologyXref,
        RankTier::OtherAsserted,
        RankTier::Predicted,
        RankTier::Inferred,
    ];
}

/// How many identifiers each side maps to in the other's vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cardinality {
    OneToOne,
    OneToMany,
    ManyToOne,
    ManyToMany,
}

impl Cardinality {
    pub fn of(forward: usize, backward: usize) -> Cardinality {
        match (forward > 1, backward > 1) {
            (false, false) => Cardinality::OneToOne,
            (true, false) => Cardinality::OneToMany,
            (false, true) => Cardinality::ManyToOne,
            (true, true) => Cardinality::ManyToMany,
        }
    }
}

/// The target of a candidate in its own source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectStatus {
    Current {
        concept: ConceptId,
        label: String,
    },
    /// Obsolete or withdrawn, with its live replacements.
    Obsolete {
        concept: ConceptId,
        label: String,
        status: ConceptStatus,
        replaced_by: Vec<String>,
    },
    /// No loaded source holds it.
    NotLoaded,
}

/// One candidate: asserted (with its statements) or inferred (with its path).
#[derive(Clone, Debug, PartialEq)]
pub struct MapCandidate {
    pub object: String,
    /// The predicate read from the subject's side.
    pub predicate: MappingPredicate,
    pub inferred: bool,
    /// Asserted with the subject as the statements' object, read backwards.
    pub inverted: bool,
    /// Statements of an asserted candidate; empty for inferred ones (see `path`).
    pub evidence: Vec<Evidence>,
    /// An inferred candidate's hops, from the subject.
    pub path: Vec<Hop>,
    /// Other paths that reach the same object with the same predicate.
    pub other_paths: u32,
    pub tier: RankTier,
    /// Stated confidence (aggregated 1−∏(1−p)) of an asserted candidate; derived for an
    /// inferred one (see `infer`).
    pub confidence: Option<f64>,
    /// For exact matches only.
    pub cardinality: Option<Cardinality>,
    pub status: ObjectStatus,
}

impl MapCandidate {
    pub fn hops(&self) -> usize {
        self.path.len().max(1)
    }

    /// The ranking keys in words.
    pub fn rank_basis(&self) -> String {
        let mut basis = format!("{}; {}", self.tier.wire_name(), self.predicate.curie());
        if self.inferred {
            basis.push_str(&format!("; {} hops", self.path.len()));
        } else {
            basis.push_str(&format!("; {} statements", self.evidence.len()));
            if self.inverted {
                basis.push_str("; read from the object's side");
            }
        }
        if let Some(c) = self.confidence {
            basis.push_str(&format!("; confidence {c:.3}"));
        }
        basis
    }
}

/// A `Not` statement about the subject: contradicting evidence, never a candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct NegativeMapping {
    pub object: String,
    pub predicate: MappingPredicate,
    pub inverted: bool,
    pub evidence: Vec<Evidence>,
}

/// Something an agent must not overlook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// Several exact (or equivalent) targets in one vocabulary.
    SeveralExact {
        prefix: String,
        objects: Vec<String>,
    },
    /// A mapping asserted by one statement and denied by another.
    AssertedAndNegated {
        object: String,
        predicate: MappingPredicate,
    },
}

/// An inferred mapping that a negative statement blocked.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockedInference {
    pub object: String,
    pub predicate: MappingPredicate,
    pub path: Vec<Hop>,
}

/// A "looked, found nothing" statement about the subject.
#[derive(Clone, Debug, PartialEq)]
pub struct Unmapped {
    pub evidence: Vec<Evidence>,
}

/// Everything the index says about one identifier's mappings.
#[derive(Clone, Debug)]
pub struct MapAnswer {
    pub normalized: Normalized,
    pub outcome: Outcome,
    /// The identifier the mappings are about (a canonical CURIE), when the input is one.
    pub subject: Option<String>,
    pub candidates: Vec<MapCandidate>,
    pub negatives: Vec<NegativeMapping>,
    pub conflicts: Vec<Conflict>,
    pub blocked: Vec<BlockedInference>,
    pub unmapped: Vec<Unmapped>,
    /// Candidates left out because they are predictions (`include_predicted` false).
    pub predicted_hidden: usize,
    /// Inferred candidates left out because `include_inferred` is false.
    pub inferred_hidden: usize,
    /// The chain search stopped at `MAX_EXPANDED_NODES`.
    pub inference_limited: bool,
    /// Identifiers whose statements the answer used: the subject, then each first hop.
    pub nodes_read: Vec<String>,
    /// The subject is named by this many mappings, more than [`MAX_ANSWER_EDGES`]: none were
    /// read, and the answer has no candidates.
    pub too_many: Option<u64>,
}

/// The most mappings one answer reads about its subject. A hub such as NCBITaxon's `GC_ID:1`
/// (named by every taxon, 1.16 M edges in the synthetic taxonomy) took 22.6 s and 3.9 GB to
/// answer whole. The largest node of the default index, `MESH:D001203` (18,130 supplementary
/// records map to it), answers whole in 0.28 s.
pub const MAX_ANSWER_EDGES: u64 = 32_768;

#[derive(Debug, thiserror::Error)]
pub enum MapError {
    #[error("the mapping index is damaged: {0}")]
    Damaged(#[from] std::io::Error),
    /// A concept the identifier matched cannot be read.
    #[error(transparent)]
    Index(#[from] ResolveError),
}

impl From<crate::index::FileError> for MapError {
    fn from(error: crate::index::FileError) -> MapError {
        MapError::Index(error.into())
    }
}

/// One mapping walk from an identifier: its direct mappings, the chains inferred through
/// others, their evidence, tiers and cardinality, over the resolver's readers.
pub(crate) struct MappingWalk<'r> {
    r: &'r Resolver,
}

impl<'r> MappingWalk<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        MappingWalk { r }
    }
}

impl<'r> MappingWalk<'r> {
    /// Every mapping of one identifier (normalized first), ranked.
    pub fn map_identifier(&self, text: &str, options: &MapOptions) -> Result<MapAnswer, MapError> {
        let (normalized, outcome) = self.r.resolve_identifier(text)?;
        let mappings = &self.r.files.mappings;
        let subject = match &outcome {
            Outcome::Found(_) | Outcome::Obsolete { .. } | Outcome::NotInLoadedSources { .. } => {
                normalized.curie.clone()
            }
            // An identifier that fails its prefix's pattern may still be named by a set.
            Outcome::Malformed { .. } => match normalized.curie.clone() {
                Some(curie) if mappings.contains(&curie)? => Some(curie),
                _ => None,
            },
            // An identifier the registry does not know may still be in a mapping set as written.
            Outcome::UnknownPrefix { .. } => {
                let written = text.trim();
                mappings.contains(written)?.then(|| written.to_string())
            }
            _ => None,
        };
        let mut answer = MapAnswer {
            normalized,
            outcome,
            subject: subject.clone(),
            candidates: Vec::new(),
            negatives: Vec::new(),
            conflicts: Vec::new(),
            blocked: Vec::new(),
            unmapped: Vec::new(),
            predicted_hidden: 0,
            inferred_hidden: 0,
            inference_limited: false,
            nodes_read: Vec::new(),
            too_many: None,
        };
        let Some(subject) = subject else {
            return Ok(answer);
        };
        let node = match self
            .r
            .files
            .mappings
            .node_within(&subject, MAX_ANSWER_EDGES)?
        {
            None => return Ok(answer),
            Some(NodeRead::TooMany { edges }) => {
                answer.too_many = Some(edges);
                return Ok(answer);
            }
            Some(NodeRead::Whole(node)) => node,
        };
        answer.nodes_read.push(subject.clone());
        self.fill_answer(&node, options, &mut answer)?;
        Ok(answer)
    }

    /// Whether a piece of evidence comes from a set of predictions.
    pub fn evidence_predicted(&self, evidence: &Evidence) -> bool {
        evidence.origin == EvidenceOrigin::MappingSet
            && self
                .r
                .manifest()
                .mapping_sets
                .get(usize::from(evidence.set))
                .is_some_and(|s| s.predicted)
    }

    fn tier_of(&self, evidence: &[Evidence]) -> RankTier {
        let mut tier = RankTier::Predicted;
        for e in evidence {
            let this = if self.evidence_predicted(e) {
                RankTier::Predicted
            } else if e.origin == EvidenceOrigin::SourceXref {
                RankTier::OntologyXref
            } else if e.curated() {
                RankTier::CuratedAsserted
            } else {
                RankTier::OtherAsserted
            };
            tier = tier.min(this);
        }
        tier
    }

    fn fill_answer(
        &self,
        node: &MappingNode,
        options: &MapOptions,
        answer: &mut MapAnswer,
    ) -> Result<(), MapError> {
        let mut direct = self.direct_candidates(node, options, answer)?;
        let inferred = self.infer(node, options, answer)?;
        let asserted: HashSet<(String, MappingPredicate)> = direct
            .iter()
            .map(|c| (c.object.clone(), c.predicate.clone()))
            .collect();
        let wanted = |curie: &str| target_wanted(&options.targets, curie);
        let new_inferred = inferred.into_iter().filter(|c| {
            wanted(&c.object) && !asserted.contains(&(c.object.clone(), c.predicate.clone()))
        });
        if options.include_inferred {
            direct.extend(new_inferred);
        } else {
            answer.inferred_hidden = new_inferred.count();
        }
        answer.blocked.retain(|b| wanted(&b.object));
        answer.conflicts = conflicts(&direct, &answer.negatives);
        self.fill_cardinality(node, &mut direct)?;
        direct.sort_by(compare_candidates);
        answer.candidates = direct;
        Ok(())
    }

    /// The asserted candidates, one per (object, predicate from here), merged over both
    /// directions; predictions left out (and counted) unless asked for; negatives and
    /// "found nothing" statements set apart.
    fn direct_candidates(
        &self,
        node: &MappingNode,
        options: &MapOptions,
        answer: &mut MapAnswer,
    ) -> Result<Vec<MapCandidate>, ResolveError> {
        let mut direct: Vec<MapCandidate> = Vec::new();
        let mut position: HashMap<(String, MappingPredicate, bool), usize> = HashMap::new();
        for edge in &node.edges {
            if edge.other == NO_TERM_FOUND {
                answer.unmapped.push(Unmapped {
                    evidence: edge.evidence.clone(),
                });
                continue;
            }
            if !target_wanted(&options.targets, &edge.other) {
                continue;
            }
            let (predicate, known_inverse) = match edge.predicate_from_here() {
                Some(p) => (p, true),
                None => (edge.predicate.clone(), false),
            };
            if edge.negated {
                answer.negatives.push(NegativeMapping {
                    object: edge.other.clone(),
                    predicate,
                    inverted: edge.inverted,
                    evidence: edge.evidence.clone(),
                });
                continue;
            }
            // A predicate without a known inverse keeps its direction in the key.
            let key = (
                edge.other.clone(),
                predicate.clone(),
                edge.inverted && !known_inverse,
            );
            match position.get(&key) {
                Some(&i) => {
                    let same = &mut direct[i];
                    same.evidence.extend(edge.evidence.iter().cloned());
                    same.inverted &= edge.inverted;
                }
                None => {
                    position.insert(key, direct.len());
                    direct.push(self.direct_candidate(edge, predicate)?);
                }
            }
        }
        let mut kept = Vec::with_capacity(direct.len());
        for mut c in direct {
            if !options.include_predicted {
                c.evidence.retain(|e| !self.evidence_predicted(e));
                if c.evidence.is_empty() {
                    answer.predicted_hidden += 1;
                    continue;
                }
            }
            c.tier = self.tier_of(&c.evidence);
            c.confidence = aggregate_confidence(&c.evidence);
            kept.push(c);
        }
        Ok(kept)
    }

    fn direct_candidate(
        &self,
        edge: &MappingEdge,
        predicate: MappingPredicate,
    ) -> Result<MapCandidate, ResolveError> {
        Ok(MapCandidate {
            object: edge.other.clone(),
            predicate,
            inferred: false,
            inverted: edge.inverted,
            evidence: edge.evidence.clone(),
            path: Vec::new(),
            other_paths: 0,
            tier: RankTier::Predicted,
            confidence: None,
            cardinality: None,
            status: self.object_status(&edge.other)?,
        })
    }

    /// The target in its own source, when a loaded source holds it.
    pub fn object_status(&self, curie: &str) -> Result<ObjectStatus, ResolveError> {
        let Some(hit) = self.r.lexicon().lookup_id(curie)?.into_iter().next() else {
            return Ok(ObjectStatus::NotLoaded);
        };
        let concept = self.r.concept(hit.concept)?;
        let label = concept
            .preferred_label()
            .map(|l| l.text.clone())
            .unwrap_or_default();
        Ok(match concept.status() {
            ConceptStatus::Current => ObjectStatus::Current {
                concept: hit.concept,
                label,
            },
            status => ObjectStatus::Obsolete {
                concept: hit.concept,
                label,
                status,
                replaced_by: (self.r.live_replacements(&concept)?)
                    .into_iter()
                    .map(|(_, c)| c.curie.clone().unwrap_or(c.iri))
                    .collect(),
            },
        })
    }

    /// For exact matches: 1:n when the subject has several asserted exact targets in the
    /// object's vocabulary, n:1 when the object is the exact target of several identifiers of
    /// the subject's vocabulary (predictions not counted). Other predicates have none.
    fn fill_cardinality(
        &self,
        node: &MappingNode,
        candidates: &mut [MapCandidate],
    ) -> Result<(), MapError> {
        let exact = |c: &MapCandidate| !c.inferred && c.predicate == MappingPredicate::ExactMatch;
        let mut per_prefix: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for c in candidates.iter().filter(|c| exact(c)) {
            per_prefix
                .entry(prefix_of(&c.object).to_string())
                .or_default()
                .insert(c.object.clone());
        }
        let own_prefix = prefix_of(&node.curie);
        for c in candidates.iter_mut().filter(|c| exact(c)) {
            let forward = per_prefix
                .get(prefix_of(&c.object))
                .map_or(1, BTreeSet::len);
            let backward = self
                .r
                .files
                .mappings
                .fan_out(&c.object)?
                .into_iter()
                .find(|(prefix, _)| prefix == own_prefix)
                .map_or(1, |(_, n)| n as usize);
            c.cardinality = Some(Cardinality::of(forward, backward));
        }
        Ok(())
    }
}

/// Whether a candidate's prefix is among the targets (every prefix when there are none).
fn target_wanted(targets: &[String], curie: &str) -> bool {
    targets.is_empty()
        || targets
            .iter()
            .any(|t| t.eq_ignore_ascii_case(prefix_of(curie)))
}

pub fn prefix_of(curie: &str) -> &str {
    curie.split_once(':').map_or(curie, |(p, _)| p)
}

/// 1−∏(1−p) over the statements that state a confidence.
pub fn aggregate_confidence(evidence: &[Evidence]) -> Option<f64> {
    let stated: Vec<f64> = evidence.iter().filter_map(Evidence::confidence).collect();
    if stated.is_empty() {
        return None;
    }
    Some(1.0 - stated.iter().map(|p| 1.0 - p).product::<f64>())
}

fn conflicts(candidates: &[MapCandidate], negatives: &[NegativeMapping]) -> Vec<Conflict> {
    let mut exact: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for c in candidates.iter().filter(|c| !c.inferred) {
        if c.predicate == MappingPredicate::ExactMatch && c.tier != RankTier::Predicted {
            exact
                .entry(prefix_of(&c.object))
                .or_default()
                .insert(&c.object);
        }
    }
    let mut found: Vec<Conflict> = exact
        .into_iter()
        .filter(|(_, objects)| objects.len() > 1)
        .map(|(prefix, objects)| Conflict::SeveralExact {
            prefix: prefix.to_string(),
            objects: objects.into_iter().map(str::to_string).collect(),
        })
        .collect();
    for n in negatives {
        if candidates
            .iter()
            .any(|c| !c.inferred && c.object == n.object && c.predicate == n.predicate)
        {
            found.push(Conflict::AssertedAndNegated {
                object: n.object.clone(),
                predicate: n.predicate.clone(),
            });
        }
    }
    found
}

fn compare_candidates(a: &MapCandidate, b: &MapCandidate) -> std::cmp::Ordering {
    a.tier
        .cmp(&b.tier)
        .then(a.path.len().cmp(&b.path.len()))
        .then(b.predicate.strength().cmp(&a.predicate.strength()))
        .then(
            b.confidence
                .unwrap_or(0.0)
                .total_cmp(&a.confidence.unwrap_or(0.0)),
        )
        .then(b.evidence.len().cmp(&a.evidence.len()))
        .then(a.object.cmp(&b.object))
}
