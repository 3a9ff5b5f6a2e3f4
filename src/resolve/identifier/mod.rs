//! "What is this identifier?": the registry normalizes the input, the index says whether a
//! loaded source has it, and the answer is one specific outcome per case, never a guess.

mod chains;
mod outcome;

pub use chains::{Chain, ChainEnd, ChainStep, MAX_CHAINS};
pub use outcome::{
    BareReading, MAX_IDENTIFIER_BYTES, MalformedReason, Normalized, Outcome, ResolveStep,
};

use super::releases::{PinError, View, pin_argument, split_pin};
use super::{ConceptId, IdMatch, ResolveError, Resolver};
use crate::index::manifest::IdShape;
use crate::model::{Concept, ReplacementKind};
use crate::registry::{Identified, Normalization, PatternCheck, Reading};

/// One identifier's resolution: its normalization, what it names in the loaded releases, and
/// the replacement chains of an obsolete one, over the resolver's readers.
pub(crate) struct IdentifierResolution<'r> {
    r: &'r Resolver,
}

impl<'r> IdentifierResolution<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        IdentifierResolution { r }
    }
}

impl<'r> IdentifierResolution<'r> {
    /// Normalizes `text` and says what it identifies. An error only when a concept the index
    /// matched cannot be read: damage is never answered as "not found".
    pub fn resolve_identifier(&self, text: &str) -> Result<(Normalized, Outcome), ResolveError> {
        if text.len() > MAX_IDENTIFIER_BYTES {
            return Ok((
                Normalized {
                    input: text.chars().take(64).collect::<String>() + "…",
                    ..Normalized::default()
                },
                Outcome::Malformed {
                    reason: MalformedReason::TooLong { bytes: text.len() },
                    expected: Some("PREFIX:local, e.g. HP:0000118".into()),
                    example: None,
                },
            ));
        }
        self.resolve_normalized(&self.r.registry().normalize(text))
    }

    /// [`Self::resolve_identifier`] with a release pinned by the text
    /// (`MONDO:0000030@2025-02-04`, a year-versioned IRI) or by `release`. A pin that cannot
    /// be followed is the inner error, naming the loaded releases.
    pub fn resolve_identifier_in(
        &self,
        text: &str,
        release: Option<&str>,
    ) -> Result<Result<(Normalized, Outcome), PinError>, ResolveError> {
        if text.len() > MAX_IDENTIFIER_BYTES {
            return self.resolve_identifier(text).map(Ok);
        }
        let (mut id_text, mut written) = match split_pin(text) {
            Ok(split) => split,
            Err(e) => return Ok(Err(e)),
        };
        let mut step = None;
        let versioned = self.r.releases().versioned_iri(id_text);
        if written.is_none()
            && let Some((iri, year)) = &versioned
        {
            step = Some(ResolveStep::VersionedIri {
                release: year.to_string(),
                iri: iri.clone(),
            });
            (id_text, written) = (iri.as_str(), Some(*year));
        }
        let pin = match pin_argument(written, release) {
            Ok(pin) => pin,
            Err(e) => return Ok(Err(e)),
        };
        let normalization = self.r.registry().normalize(id_text);
        if let (Some(pin), Reading::Identifier(id)) = (pin, &normalization.reading)
            && let Err(e) = self.r.releases().check_pin(&id.prefix, pin)
        {
            return Ok(Err(e));
        }
        let mut n = self.normalized_of(&normalization);
        n.input = text.to_string();
        n.release = pin.map(str::to_string);
        n.steps.extend(step);
        let outcome = self.judge(&normalization, &mut n)?;
        // A pin on what is no CURIE (an IRI outside the registry): the concept's source must
        // have that release, or the answer would come from another one.
        if let Some(pin) = pin
            && let Some(Err(e)) = self
                .pinned_source(&outcome)?
                .map(|id| self.release_loaded(id, pin))
        {
            return Ok(Err(e));
        }
        Ok(Ok((n, outcome)))
    }

    /// The source id of the concept an outcome found.
    fn pinned_source(&self, outcome: &Outcome) -> Result<Option<String>, ResolveError> {
        let Some(concept) = outcome.concept() else {
            return Ok(None);
        };
        let c = self.r.concept(concept)?;
        Ok(self.r.source_of(&c).map(|s| s.id.clone()))
    }

    fn release_loaded(&self, source: String, release: &str) -> Result<(), PinError> {
        if self.r.manifest().release(&source, release).is_some() {
            return Ok(());
        }
        let loaded = self
            .r
            .manifest()
            .releases(&source)
            .map(|r| r.release.clone())
            .collect();
        Err(PinError::NotLoaded {
            source,
            release: release.to_string(),
            loaded,
        })
    }

    fn normalized_of(&self, normalization: &Normalization) -> Normalized {
        Normalized {
            input: normalization.input.clone(),
            curie: None,
            iri: None,
            steps: normalization
                .steps
                .iter()
                .cloned()
                .map(ResolveStep::Normalized)
                .collect(),
            release: None,
        }
    }

    /// Says what an already normalized input identifies.
    pub fn resolve_normalized(
        &self,
        normalization: &Normalization,
    ) -> Result<(Normalized, Outcome), ResolveError> {
        let mut n = self.normalized_of(normalization);
        let outcome = self.judge(normalization, &mut n)?;
        Ok((n, outcome))
    }

    fn judge(
        &self,
        normalization: &Normalization,
        n: &mut Normalized,
    ) -> Result<Outcome, ResolveError> {
        Ok(match &normalization.reading {
            Reading::Empty => Outcome::Malformed {
                reason: MalformedReason::Empty,
                expected: Some("PREFIX:local, e.g. HP:0000118".into()),
                example: None,
            },
            Reading::UnknownPrefix { prefix } => {
                // An IRI under an unregistered prefix that a loaded source holds anyway.
                let matches = self.iri_matches(&normalization.input, n.view())?;
                if !matches.is_empty() {
                    return self.found(n, matches);
                }
                Outcome::UnknownPrefix {
                    prefix: prefix.clone(),
                    suggestions: self
                        .r
                        .registry()
                        .suggest(prefix, 5)
                        .into_iter()
                        .filter_map(|id| Some(self.r.registry().record(id)?.preferred.clone()))
                        .collect(),
                    namespace: false,
                }
            }
            Reading::UnknownNamespace { namespace } => {
                let matches = self.iri_matches(&normalization.input, n.view())?;
                if !matches.is_empty() {
                    return self.found(n, matches);
                }
                Outcome::UnknownPrefix {
                    prefix: namespace.clone(),
                    suggestions: Vec::new(),
                    namespace: true,
                }
            }
            Reading::Bare { local } => self.bare(local, n)?,
            Reading::Identifier(id) => self.identified(id, n)?,
        })
    }

    /// What a known prefix and local id identify: the concepts, a malformed local id, or a
    /// well-formed identifier no loaded source has.
    fn identified(&self, id: &Identified, n: &mut Normalized) -> Result<Outcome, ResolveError> {
        n.curie = Some(id.curie.clone());
        n.iri = id.iri.clone();
        let view = n.view();
        let mut matches = self.r.lexicon().lookup_id_in(&id.curie, view)?;
        if matches.is_empty()
            && let Some(iri) = &id.iri
        {
            matches = self.r.lexicon().lookup_id_in(iri, view)?;
        }
        if !matches.is_empty() {
            return self.found(n, matches);
        }
        if let Some(release) = &n.release
            && let Some(current) = self.r.lexicon().lookup_id(&id.curie)?.first()
        {
            let concept = self.r.concept(current.concept)?;
            return Ok(Outcome::NotInRelease {
                release: release.clone(),
                holders: self.r.releases().releases_holding(&concept)?,
            });
        }
        let record = self.r.registry().record(id.record);
        if id.pattern == PatternCheck::Fails {
            return Ok(Outcome::Malformed {
                reason: MalformedReason::PatternFails {
                    local: id.local.clone(),
                    prefix: id.prefix.to_string(),
                },
                expected: record.and_then(|r| r.pattern.clone()),
                example: record
                    .and_then(|r| r.example.as_ref())
                    .map(|x| format!("{}:{x}", id.prefix)),
            });
        }
        if id.pattern == PatternCheck::NoPattern
            && let Some(shape) = self.shape_mismatch(&id.prefix, &id.local)
        {
            return Ok(Outcome::Malformed {
                reason: MalformedReason::ShapeDiffers {
                    local: id.local.clone(),
                    prefix: id.prefix.to_string(),
                },
                expected: Some(shape.describe()),
                example: Some(format!("{}:{}", id.prefix, shape.example)),
            });
        }
        let catalogued = record.map(|r| r.sources.clone()).unwrap_or_default();
        let loaded = catalogued
            .iter()
            .filter(|s| self.r.manifest().source(s).is_some())
            .cloned()
            .collect();
        Ok(Outcome::NotInLoadedSources {
            record: id.record,
            prefix: id.prefix.to_string(),
            catalogued,
            loaded,
            resolver_url: record.and_then(|r| r.resolver_url(&id.local)),
            deprecated_prefix: id.deprecated_prefix,
            pattern: id.pattern,
        })
    }

    /// Concepts whose IRI is the input (unwrapped), for IRIs outside every registry namespace.
    fn iri_matches(&self, input: &str, n_view: View<'_>) -> Result<Vec<IdMatch>, ResolveError> {
        let text = crate::registry::unwrapped(input);
        if !text.contains("://") {
            return Ok(Vec::new());
        }
        let mut matches = self.r.lexicon().lookup_id_in(text, n_view)?;
        matches.retain(|m| m.spelling == super::Spelling::Iri);
        Ok(matches)
    }

    /// The learned shape of a loaded prefix's local ids, when `local` does not fit it. Used for
    /// prefixes the registry gives no pattern for.
    fn shape_mismatch(&self, prefix: &str, local: &str) -> Option<&IdShape> {
        let shapes: Vec<&IdShape> = self
            .r
            .manifest()
            .sources
            .iter()
            .flat_map(|s| s.id_shapes.iter())
            .filter(|shape| shape.prefix == prefix)
            .collect();
        let first = *shapes.first()?;
        (!shapes.iter().any(|s| s.fits(local))).then_some(first)
    }

    /// A bare local id: the concepts that have it as their local id, and every loaded prefix
    /// whose pattern it fits.
    fn bare(&self, local: &str, n: &mut Normalized) -> Result<Outcome, ResolveError> {
        let mut readings: Vec<BareReading> = Vec::new();
        for m in self
            .r
            .lexicon()
            .lookup_id_in(local, n.view())?
            .into_iter()
            .filter(|m| m.spelling == super::Spelling::LocalId)
        {
            if let Some(curie) = self.r.concept(m.concept)?.curie {
                readings.push(BareReading {
                    curie,
                    concept: Some(m.concept),
                });
            }
        }
        for &record in self.r.loaded_records() {
            let Some(r) = self.r.registry().record(record) else {
                continue;
            };
            let fits = match self.r.registry().check_pattern(record, local) {
                PatternCheck::Fits => true,
                // Without a pattern, only a learned shape narrower than "any text" says
                // anything about a bare id.
                PatternCheck::NoPattern => self
                    .r
                    .manifest()
                    .sources
                    .iter()
                    .flat_map(|s| s.id_shapes.iter())
                    .any(|s| s.prefix == r.preferred && s.charset != "any" && s.fits(local)),
                PatternCheck::Fails | PatternCheck::Unusable => false,
            };
            let curie = format!("{}:{local}", r.preferred);
            if fits
                && !readings
                    .iter()
                    .any(|x| x.curie.eq_ignore_ascii_case(&curie))
            {
                readings.push(BareReading {
                    curie,
                    concept: None,
                });
            }
        }
        if readings.is_empty() {
            return Ok(Outcome::Malformed {
                reason: MalformedReason::NoPrefixFits {
                    local: local.to_string(),
                },
                expected: Some("PREFIX:local, e.g. HP:0000118".into()),
                example: None,
            });
        }
        n.steps.push(ResolveStep::BareLocalId {
            local: local.to_string(),
        });
        Ok(Outcome::Ambiguous {
            local: local.to_string(),
            readings,
        })
    }

    /// Of the concepts listing the identifier as an alternative id, the live ones: reported
    /// beside an obsolete term whose own identifier it is.
    fn live_alt_id_holders(
        &self,
        n: &Normalized,
        alt: &[IdMatch],
    ) -> Result<Vec<ConceptId>, ResolveError> {
        let mut holders = Vec::new();
        for m in alt {
            let c = self.r.concept(m.concept)?;
            let lists_it = n
                .curie
                .as_ref()
                .is_none_or(|curie| c.alt_ids.iter().any(|a| a == curie));
            if !c.obsolete && lists_it {
                holders.push(m.concept);
            }
        }
        Ok(holders)
    }

    /// The index matches without regard to case; identifiers are case-sensitive. The exact
    /// matches when there are any, else the other-case ones with a step that says so.
    fn case_exact_first(
        &self,
        n: &mut Normalized,
        concepts: Vec<(IdMatch, Concept)>,
    ) -> Vec<(IdMatch, Concept)> {
        let wanted = |c: &Concept, m: &IdMatch| match m.spelling {
            super::Spelling::AltId => n
                .curie
                .as_ref()
                .is_none_or(|curie| c.alt_ids.iter().any(|a| a == curie)),
            _ => {
                n.curie.is_none() && n.iri.is_none()
                    || c.curie.is_some() && c.curie == n.curie
                    || n.iri.as_deref() == Some(c.iri.as_str())
            }
        };
        let (exact, other_case): (Vec<_>, Vec<_>) =
            concepts.into_iter().partition(|(m, c)| wanted(c, m));
        if !exact.is_empty() {
            return exact;
        }
        if let Some((_, c)) = other_case.first() {
            n.steps.push(ResolveStep::MatchedOtherCase {
                matched: c.curie.clone().unwrap_or_else(|| c.iri.clone()),
            });
        }
        other_case
    }

    fn found(&self, n: &mut Normalized, matches: Vec<IdMatch>) -> Result<Outcome, ResolveError> {
        // The concept's own identifier wins over another concept's alternative id: an obsolete
        // term whose id a live term lists as alt_id is reported as obsolete, with its chain.
        let (own, alt): (Vec<IdMatch>, Vec<IdMatch>) = matches
            .into_iter()
            .partition(|m| m.spelling != super::Spelling::AltId);
        let alt_id_of = if own.is_empty() {
            Vec::new()
        } else {
            self.live_alt_id_holders(n, &alt)?
        };
        let matches = if own.is_empty() { alt } else { own };
        let concepts: Vec<(IdMatch, Concept)> = matches
            .into_iter()
            .map(|m| Ok((m.clone(), self.r.concept(m.concept)?)))
            .collect::<Result<_, ResolveError>>()?;
        let concepts = self.case_exact_first(n, concepts);
        if let Some((m, c)) = concepts.first() {
            if m.spelling == super::Spelling::AltId {
                n.steps.push(ResolveStep::AltIdOf {
                    id: n
                        .curie
                        .clone()
                        .unwrap_or_else(|| n.input.trim().to_string()),
                    of: c.curie.clone().unwrap_or_else(|| c.iri.clone()),
                });
            }
            n.curie = c.curie.clone();
            n.iri = Some(c.iri.clone());
        }
        let live: Vec<IdMatch> = concepts
            .iter()
            .filter(|(_, c)| !c.obsolete)
            .map(|(m, _)| m.clone())
            .collect();
        if !live.is_empty() {
            return Ok(Outcome::Found(live));
        }
        let Some((m, c)) = concepts.into_iter().next() else {
            return Ok(Outcome::Found(Vec::new()));
        };
        let consider = c
            .replacements_of(ReplacementKind::Consider)
            .map(|r| r.target.clone())
            .collect();
        if let Some(&live) = alt_id_of.first() {
            n.steps.push(ResolveStep::AlsoAltIdOf {
                id: n
                    .curie
                    .clone()
                    .unwrap_or_else(|| n.input.trim().to_string()),
                of: self.r.concept(live).map(|l| l.curie.unwrap_or(l.iri))?,
            });
        }
        Ok(Outcome::Obsolete {
            concept: m.concept,
            chains: self.replacement_chains(&c)?,
            consider,
            alt_id_of,
        })
    }
}

impl IdentifierResolution<'_> {
    /// The loaded concept an IRI no triple uses most likely stands for: the registry reads it
    /// as an identifier (`hp_0000118` for `HP_0000118`, `HP:0000118` written inside `<…>`).
    pub(crate) fn meant_iri(&self, iri: &str) -> Result<Option<String>, ResolveError> {
        let (_, outcome) = self.resolve_identifier(iri)?;
        let Some(concept) = outcome.concept() else {
            return Ok(None);
        };
        let found = self.r.concept(concept)?.iri;
        Ok((found != iri).then_some(found))
    }
}
