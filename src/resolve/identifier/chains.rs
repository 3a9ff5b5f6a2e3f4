//! Replacement chains: an obsolete concept's `replaced_by` links followed hop by hop.

use super::IdentifierResolution;
use crate::model::{Concept, ReplacementKind};
use crate::resolve::{ConceptId, ResolveError};

/// One hop of a replacement chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainStep {
    pub iri: String,
    pub concept: Option<ConceptId>,
    pub obsolete: bool,
}

/// One replacement followed hop by hop until a live concept, a concept outside the loaded
/// sources, a dead end or a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub steps: Vec<ChainStep>,
    /// The chain came back to a concept it had passed.
    pub cycle: bool,
}

/// Where a replacement chain ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainEnd {
    /// At a live, loaded concept: the replacement to use.
    Live(ConceptId),
    /// At an identifier no loaded source holds.
    NotLoaded(String),
    /// At an obsolete concept that names no further replacement.
    Dead(ConceptId),
    /// Back at a concept it had passed.
    Cycle,
}

impl Chain {
    /// The live, loaded concept the chain ends at, if it does.
    pub fn live_end(&self) -> Option<ConceptId> {
        match self.end() {
            ChainEnd::Live(id) => Some(id),
            _ => None,
        }
    }

    pub fn end(&self) -> ChainEnd {
        if self.cycle {
            return ChainEnd::Cycle;
        }
        match self.steps.last() {
            Some(step) => match step.concept {
                Some(id) if step.obsolete => ChainEnd::Dead(id),
                Some(id) => ChainEnd::Live(id),
                None => ChainEnd::NotLoaded(step.iri.clone()),
            },
            None => ChainEnd::Cycle,
        }
    }
}

/// Replacement chains followed per obsolete concept; bounds work on branching data.
pub const MAX_CHAINS: usize = 16;
/// Hops followed per chain.
pub const MAX_HOPS: usize = 32;

impl<'r> IdentifierResolution<'r> {
    /// Follows every replaced_by link of an obsolete concept, one chain per replacement, each
    /// until a live concept, a concept outside the loaded sources, a dead end or a cycle. An
    /// obsolete replacement with several replacements of its own branches into several chains.
    pub fn replacement_chains(&self, start: &Concept) -> Result<Vec<Chain>, ResolveError> {
        let mut chains = Vec::new();
        let seen = vec![start.iri.clone()];
        self.follow(start, Vec::new(), seen, &mut chains)?;
        Ok(chains)
    }

    fn follow(
        &self,
        current: &Concept,
        steps: Vec<ChainStep>,
        seen: Vec<String>,
        chains: &mut Vec<Chain>,
    ) -> Result<(), ResolveError> {
        let targets: Vec<&str> = current
            .replacements_of(ReplacementKind::ReplacedBy)
            .map(|r| r.target.as_str())
            .collect();
        if targets.is_empty() || steps.len() >= MAX_HOPS {
            if !steps.is_empty() && chains.len() < MAX_CHAINS {
                chains.push(Chain {
                    steps,
                    cycle: false,
                });
            }
            return Ok(());
        }
        for target in targets {
            if chains.len() >= MAX_CHAINS {
                return Ok(());
            }
            let mut steps = steps.clone();
            if seen.iter().any(|s| s == target) {
                chains.push(Chain { steps, cycle: true });
                continue;
            }
            let found = self.r.lexicon().by_iri_any(target, current.source)?;
            steps.push(ChainStep {
                iri: target.to_string(),
                concept: found.as_ref().map(|(id, _)| *id),
                obsolete: found.as_ref().is_some_and(|(_, c)| c.obsolete),
            });
            match found {
                Some((_, next)) if next.obsolete => {
                    let mut seen = seen.clone();
                    seen.push(target.to_string());
                    self.follow(&next, steps, seen, chains)?;
                }
                _ => chains.push(Chain {
                    steps,
                    cycle: false,
                }),
            }
        }
        Ok(())
    }
}
