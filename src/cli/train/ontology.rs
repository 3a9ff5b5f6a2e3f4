//! Examples from the loaded ontologies themselves, for the match kinds the corpora never
//! show (identifiers, gene alias and previous symbols, narrow, broad and related synonyms,
//! hidden labels, notations): an even sample of live concepts of every current release, each
//! searched by such a name of its own within its source. The concept is right; every other
//! concept the name finds is wrong, so a name several concepts share weighs as it should.

use ontoresolve::model::LabelKind;
use ontoresolve::resolve::confidence::ConfidenceModel;
use ontoresolve::resolve::confidence::fit::Row;
use ontoresolve::resolve::{ConceptId, NameCandidate, NameQuery, Resolver};
use rayon::prelude::*;

use super::rows::{LISTED, first_served, stated};

/// About this many concepts are sampled in all, evenly over the concept table.
const SAMPLED: u32 = 6_000;
/// One sampled concept in this many is set aside to calibrate.
const CALIBRATION_SHARE: usize = 5;
/// One in this many sampled concepts is searched by its identifier too.
const IDENTIFIER_SHARE: usize = 4;

/// The kinds of name searched here: those no corpus example has.
fn sampled_kind(kind: LabelKind) -> bool {
    matches!(
        kind,
        LabelKind::AliasSymbol
            | LabelKind::PreviousSymbol
            | LabelKind::NarrowSynonym
            | LabelKind::BroadSynonym
            | LabelKind::RelatedSynonym
            | LabelKind::HiddenLabel
            | LabelKind::Notation
    )
}

/// One sampled search: the concept, the name, and what the search found (as served without
/// a model, in match-kind order).
pub struct Sampled {
    concept: ConceptId,
    calibrates: bool,
    text: String,
    abbreviation: bool,
    candidates: Vec<NameCandidate>,
}

/// Searches the sample.
pub fn sample(r: &Resolver) -> anyhow::Result<Vec<Sampled>> {
    let stride = (r.concept_count() / SAMPLED).max(1);
    // (concept, name, source, whether set aside to calibrate)
    let mut asks: Vec<(ConceptId, String, String, bool)> = Vec::new();
    for (n, id) in r.concept_ids().step_by(stride as usize).enumerate() {
        let concept = r.concept(id)?;
        let Some(source) = r.source_of(&concept).filter(|s| s.current) else {
            continue;
        };
        if concept.obsolete {
            continue;
        }
        let calibrates = n % CALIBRATION_SHARE == 0;
        if let Some(name) = concept.labels.iter().find(|l| sampled_kind(l.kind)) {
            asks.push((id, name.text.clone(), source.id.clone(), calibrates));
        }
        if n % IDENTIFIER_SHARE == 0
            && let Some(curie) = &concept.curie
        {
            asks.push((id, curie.clone(), source.id.clone(), calibrates));
        }
    }
    asks.into_par_iter()
        .map(|(concept, text, source, calibrates)| {
            let sources = [source];
            let search = r.find_by_name(&NameQuery {
                text: &text,
                sources: Some(&sources),
                include_obsolete: false,
                full_text_beside_names: false,
                wanted: LISTED,
            })?;
            Ok(Sampled {
                concept,
                calibrates,
                abbreviation: search.abbreviation,
                candidates: search.candidates,
                text,
            })
        })
        .collect::<Result<Vec<_>, ontoresolve::resolve::ResolveError>>()
        .map_err(Into::into)
}

/// Each listed candidate, labelled: `(calibrates, row)`.
pub fn rows(sampled: &[Sampled]) -> Vec<(bool, Row)> {
    let mut out = Vec::new();
    for s in sampled {
        for c in s.candidates.iter().take(LISTED) {
            let row = Row {
                features: c.features,
                right: c.concept == s.concept,
            };
            out.push((s.calibrates, row));
        }
    }
    out
}

/// The first answer `model` gives each search set aside to calibrate, as `(stated, right)`.
pub fn first_answers(sampled: &[Sampled], model: &ConfidenceModel) -> Vec<(f64, bool)> {
    sampled
        .iter()
        .filter(|s| s.calibrates)
        .map(|s| {
            first_served(model, &s.candidates, &s.text, s.abbreviation)
                .map_or((0.0, false), |c| (stated(&c), c.concept == s.concept))
        })
        .collect()
}
