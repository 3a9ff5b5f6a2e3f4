//! The stages of a name search that look the name up: as an identifier, as an exact name, as
//! a name variant, as a near spelling and in full text.

use super::NameSearcher;
use super::{FUZZY_DEPTH, MatchKind, NameCandidate, NameQuery, Stage, same_letters};
use crate::index::names::NameStep;
use crate::index::normalize::label_key;
use crate::registry::{Reading, Step};
use crate::resolve::{ConceptId, Outcome, ResolveError};

/// Names of at most this many characters (folded) get no near spellings: one edit of "WD"
/// is another name ("Id"), not a typo.
const MAX_CHARS_WITHOUT_EDITS: usize = 3;
/// Names of at most this many characters get one edit; longer ones two.
const MAX_CHARS_ONE_EDIT: usize = 7;

/// How many edits a near spelling of a name of `chars` folded characters may have.
pub fn allowed_edits(chars: usize) -> u8 {
    if chars <= MAX_CHARS_WITHOUT_EDITS {
        0
    } else if chars <= MAX_CHARS_ONE_EDIT {
        1
    } else {
        2
    }
}

impl<'r> NameSearcher<'r> {
    /// The text read as an identifier in any spelling the registry knows; bare local ids are
    /// left to the name stages.
    pub(super) fn identifier_stage(&self, text: &str) -> Result<Vec<NameCandidate>, ResolveError> {
        // `MONDO:0000030@2025-02-04` is that release's concept; a pin that cannot be
        // followed is no identifier here (resolve_identifier says why).
        let Ok((id_text, pin)) = crate::resolve::split_pin(text) else {
            return Ok(Vec::new());
        };
        let normalization = self.r.registry().normalize(id_text);
        if !matches!(
            normalization.reading,
            Reading::Identifier(_) | Reading::UnknownNamespace { .. }
        ) {
            return Ok(Vec::new());
        }
        let (normalized, outcome) = match pin {
            None => crate::resolve::identifier::IdentifierResolution::new(self.r)
                .resolve_normalized(&normalization)?,
            Some(_) => match self.r.resolve_identifier_in(text, None)? {
                Ok(answer) => answer,
                Err(_) => return Ok(Vec::new()),
            },
        };
        let mut ids: Vec<(ConceptId, MatchKind)> = match outcome {
            Outcome::Found(matches) => {
                let alt = matches
                    .iter()
                    .all(|m| m.spelling == crate::resolve::Spelling::AltId);
                let kind = if alt {
                    MatchKind::AltId
                } else {
                    MatchKind::Identifier
                };
                matches.into_iter().map(|m| (m.concept, kind)).collect()
            }
            // An obsolete identifier that a live concept also lists as an alternative id:
            // both readings are candidates.
            Outcome::Obsolete {
                concept, alt_id_of, ..
            } => std::iter::once((concept, MatchKind::Identifier))
                .chain(alt_id_of.into_iter().map(|id| (id, MatchKind::AltId)))
                .collect(),
            _ => Vec::new(),
        };
        ids.dedup();
        let folded = normalization.steps.iter().any(|s| {
            matches!(
                s,
                Step::PrefixCaseFolded { .. } | Step::LocalCaseFolded { .. }
            )
        });
        let mut candidates = Vec::with_capacity(ids.len());
        for (concept, kind) in ids {
            // Case-exact when nothing was folded and the identifier is the concept's own
            // (the index matches without regard to case).
            let case_exact = !folded && {
                let c = self.r.concept(concept)?;
                kind == MatchKind::AltId
                    || c.curie.is_some() && c.curie == normalized.curie
                    || normalized.iri.as_deref() == Some(c.iri.as_str())
            };
            let mut candidate = NameCandidate::new(concept, Stage::Identifier, kind, case_exact);
            candidate.text = Some(text.to_string());
            candidates.push(candidate);
        }
        Ok(candidates)
    }

    pub(super) fn exact_name_stage(&self, text: &str) -> Result<Vec<NameCandidate>, ResolveError> {
        Ok(self
            .r
            .lexicon()
            .lookup_label(text)?
            .into_iter()
            .map(|m| {
                let kind = MatchKind::of_label(m.label.kind);
                let case_exact = same_letters(&m.label.text, text);
                NameCandidate::new(m.concept, Stage::ExactName, kind, case_exact)
                    .with_label(m.label)
            })
            .collect())
    }

    /// Labels that meet the name after the name rules (plural, word order, spelling, head
    /// words), and the steps the name went through. Nothing without name rules.
    pub(super) fn name_variant_stage(
        &self,
        text: &str,
    ) -> Result<(Vec<NameCandidate>, Vec<NameStep>), ResolveError> {
        let Some((lexicon, rules)) = &self.r.files.variants else {
            return Ok((Vec::new(), Vec::new()));
        };
        let variants = rules.variants(text);
        let steps = variants
            .first()
            .map(|v| v.steps.clone())
            .unwrap_or_default();
        let kind = MatchKind::NameVariant;
        let mut out = Vec::new();
        for variant in variants.iter().filter(|v| !v.key.is_empty()) {
            for m in self
                .r
                .lexicon()
                .label_matches(&lexicon.get(&variant.key)?, 0)?
            {
                let mut candidate = NameCandidate::new(m.concept, Stage::NameVariant, kind, false);
                // A label whose own word was swapped for an equivalent the query did not write
                // ("Carcinoma" for "cancer") is a rewritten name; one that took the query's
                // own step ("Familial ..." for "familial ...") is not.
                let own = rules.variants(&m.label.text);
                let own = own.iter().filter(|own| own.key == variant.key);
                candidate.name_rewritten = !own.clone().any(|own| {
                    !own.steps.iter().any(|step| {
                        matches!(
                            step,
                            NameStep::HeadWord { .. } | NameStep::ModifierWord { .. }
                        ) && !variant.steps.contains(step)
                    })
                });
                candidate.number_only = own.into_iter().any(|own| {
                    let steps = || own.steps.iter().chain(&variant.steps);
                    steps()
                        .all(|s| matches!(s, NameStep::Folded { .. } | NameStep::Singular { .. }))
                        && steps().any(|s| matches!(s, NameStep::Singular { .. }))
                });
                out.push(candidate.with_label(m.label));
            }
        }
        Ok((out, steps))
    }

    /// Names a training corpus wrote for a concept that no source gives it, from the
    /// confidence model; each concept in the current releases that hold it.
    pub(super) fn corpus_name_stage(&self, text: &str) -> Result<Vec<NameCandidate>, ResolveError> {
        let Some(model) = self.r.confidence_model() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for learned in model.learned_for(&label_key(text)) {
            for found in self.r.lexicon().lookup_id(&learned.concept)? {
                let kind = MatchKind::CorpusName;
                let case_exact = same_letters(&learned.name, text);
                let mut c = NameCandidate::new(found.concept, Stage::CorpusName, kind, case_exact);
                c.text = Some(learned.name.clone());
                c.learned = Some(super::Learned {
                    corpus: learned.corpus.clone(),
                    mentions: learned.mentions,
                });
                out.push(c);
            }
        }
        Ok(out)
    }

    /// Labels within the allowed edits of the name ([`allowed_edits`]); none for very short
    /// names.
    pub(super) fn near_spelling_stage(
        &self,
        text: &str,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        let max = allowed_edits(label_key(text).chars().count());
        if max == 0 {
            return Ok(Vec::new());
        }
        let kind = MatchKind::NearSpelling;
        Ok(self
            .r
            .lexicon()
            .fuzzy(text, max, FUZZY_DEPTH)?
            .into_iter()
            .filter(|m| m.distance > 0)
            .map(|m| {
                let mut candidate = NameCandidate::new(m.concept, Stage::NearSpelling, kind, false);
                candidate.distance = Some(m.distance);
                candidate.with_label(m.label).scored()
            })
            .collect())
    }

    /// The best `depth` full-text hits in the query's sources, and whether more match.
    pub(super) fn full_text_stage(
        &self,
        text: &str,
        query: &NameQuery,
        depth: usize,
    ) -> Result<(Vec<NameCandidate>, bool), ResolveError> {
        let filter = self.text_filter(query);
        let (hits, more) = self.r.lexicon().search(text, filter.as_deref(), depth)?;
        let best = hits.first().map_or(1.0, |h| f64::from(h.score)).max(1e-6);
        let kind = MatchKind::FullText;
        let found = hits
            .into_iter()
            .map(|h| {
                let weight = kind.weight() * f64::from(h.score) / best;
                let mut candidate = NameCandidate::new(h.concept, Stage::FullText, kind, false);
                candidate.relevance = Some(f64::from(h.score));
                candidate.weight = weight;
                candidate.scored()
            })
            .collect();
        Ok((found, more))
    }
}

#[cfg(test)]
mod tests {
    use super::allowed_edits;

    #[test]
    fn very_short_names_get_no_edits_and_long_ones_two() {
        assert_eq!(allowed_edits(2), 0, "WD must not become Id");
        assert_eq!(allowed_edits(3), 0, "APC must not become APT");
        assert_eq!(allowed_edits(5), 1);
        assert_eq!(allowed_edits(7), 1);
        assert_eq!(allowed_edits(8), 2);
    }
}
