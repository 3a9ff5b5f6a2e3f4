//! "How sure is this answer?": every candidate and mention gets the probability that it is
//! the concept the text names, from a logistic model over the registered features
//! ([`features`]), fitted and calibrated by `ontoresolve train` ([`fit`]) and shipped as a
//! model file with the build ([`model`]). The model also orders candidates within a match
//! kind, and among near spellings and full-text hits, which name the concept only by guess;
//! and a passage's span whose confidence is under the model's threshold is `uncertain`, not
//! a mention.

pub mod features;
pub mod fit;
pub mod model;

pub use features::{Feature, Features, Scope};

/// Under this, a candidate is more likely wrong than right: `find_concepts` says none is
/// confident.
pub const CONFIDENT: f64 = 0.5;
pub use model::{Confidence, ConfidenceModel, Dense, ModelFitError};

use super::passage::{Mention, PassageGrounding};
use super::search::{MatchKind, NameCandidate};

/// Fills in each candidate's features (from the match-kind ranking given) and, with a model,
/// its confidence, and ranks by it within each match-kind tier; near spellings, broader
/// concepts and full-text hits, which are all guesses, rank together.
pub fn weigh_candidates(
    model: Option<&ConfidenceModel>,
    mut ranked: Vec<NameCandidate>,
    text: &str,
    abbreviation: bool,
) -> Vec<NameCandidate> {
    let features: Vec<Features> = (0..ranked.len())
        .map(|at| features::candidate_features(&ranked, at, text, abbreviation))
        .collect();
    // A full-text hit is never stated surer than a better BM25 hit: so a page ranked only as
    // deep as it needs lists what a full ranking lists at its positions.
    let mut text_cap = 1.0f64;
    for (c, f) in ranked.iter_mut().zip(features) {
        c.features = f;
        c.confidence = model.map(|m| m.candidate.apply(&f));
        if c.kind == MatchKind::FullText
            && let Some(confidence) = &mut c.confidence
        {
            confidence.p = confidence.p.min(text_cap);
            text_cap = confidence.p;
        }
    }
    if model.is_some() {
        // Stable: candidates the model weighs alike keep their match-kind order.
        let case_first = |c: &NameCandidate| abbreviation && !c.case_exact;
        ranked.sort_by(|a, b| {
            a.obsolete
                .cmp(&b.obsolete)
                .then(case_first(a).cmp(&case_first(b)))
                .then(features::guess_tier(a).cmp(&features::guess_tier(b)))
                .then(p(b).total_cmp(&p(a)))
        });
    }
    ranked
}

fn p(c: &NameCandidate) -> f64 {
    c.confidence.as_ref().map_or(0.0, |c| c.p)
}

/// Fills in a mention's features and, with a model, its confidence; whether it is at or over
/// the model's threshold (always, without a model).
pub fn judge(model: Option<&ConfidenceModel>, m: &mut Mention, text: &str) -> bool {
    m.features = features::mention_features(m, text);
    m.confidence = model.map(|model| model.mention.apply(&m.features));
    match (model, &m.confidence) {
        (Some(model), Some(c)) => c.p >= model.mention_threshold,
        _ => true,
    }
}

/// Judges every mention ([`judge`]); those under the threshold move to `uncertain`, which is
/// kept in passage order.
pub fn judge_mentions(
    model: Option<&ConfidenceModel>,
    grounding: &mut PassageGrounding,
    text: &str,
) {
    let mut kept = Vec::with_capacity(grounding.mentions.len());
    for mut m in std::mem::take(&mut grounding.mentions) {
        if judge(model, &mut m, text) {
            kept.push(m);
        } else {
            grounding.uncertain.push(m);
        }
    }
    grounding.mentions = kept;
    grounding.uncertain.sort_by_key(|m| (m.start, m.end));
    grounding.threshold = model.map(|m| m.mention_threshold);
}

/// A mention and whether it is right, for training: every span the passage read, certain or
/// not.
pub fn every_reading(grounding: &PassageGrounding) -> impl Iterator<Item = &Mention> {
    grounding.mentions.iter().chain(grounding.uncertain.iter())
}
