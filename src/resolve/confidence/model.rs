//! The confidence model in use: the model file's weights laid out by the feature registry,
//! refused with its reason when the file's features do not fit this binary's, and applied to
//! a candidate or a mention as a probability with the features that weighed most.

use super::features::{COUNT, Feature, Features, Scope};
use std::collections::BTreeMap;

use crate::index::confidence::{LearnedName, ModelFile, Weights};
use crate::index::normalize::label_key;

/// How many features a `basis` names.
const BASIS_FEATURES: usize = 2;

/// A logistic model over the registry: bias and one weight per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub bias: f64,
    pub weights: [f64; COUNT],
}

impl Dense {
    pub fn zero() -> Dense {
        Dense {
            bias: 0.0,
            weights: [0.0; COUNT],
        }
    }

    /// The log-odds for these features.
    pub fn logit(&self, f: &Features) -> f64 {
        self.bias
            + self
                .weights
                .iter()
                .zip(f.0.iter())
                .map(|(w, x)| w * x)
                .sum::<f64>()
    }

    /// The probability, and the features that moved it most, largest first.
    pub fn apply(&self, f: &Features) -> Confidence {
        let p = sigmoid(self.logit(f));
        let mut moved: Vec<(Feature, f64)> = Feature::ALL
            .iter()
            .map(|&feature| (feature, self.weights[feature.index()] * f.get(feature)))
            .filter(|(_, x)| x.abs() > 1e-9)
            .collect();
        moved.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
        moved.truncate(BASIS_FEATURES);
        Confidence { p, basis: moved }
    }

    /// The weights by name, as the model file writes them: only this scope's features.
    pub fn to_weights(&self, scope: Scope) -> Weights {
        Weights {
            bias: round(self.bias),
            weights: Feature::ALL
                .iter()
                .filter(|f| in_scope(**f, scope))
                .map(|f| (f.name().to_string(), round(self.weights[f.index()])))
                .collect(),
        }
    }

    fn from_weights(w: &Weights, scope: Scope, part: &str) -> Result<Dense, ModelFitError> {
        let mut dense = Dense::zero();
        dense.bias = w.bias;
        for (name, &value) in &w.weights {
            let feature = Feature::named(name).ok_or_else(|| {
                ModelFitError(format!(
                    "{part} weighs `{name}`, a feature this binary does not compute: retrain with `ontoresolve train`"
                ))
            })?;
            if !in_scope(feature, scope) {
                return Err(ModelFitError(format!(
                    "{part} weighs `{name}`, a feature of passages only"
                )));
            }
            dense.weights[feature.index()] = value;
        }
        if let Some(missing) = Feature::ALL
            .iter()
            .find(|f| in_scope(**f, scope) && !w.weights.contains_key(f.name()))
        {
            return Err(ModelFitError(format!(
                "{part} has no weight for `{}`, a feature this binary computes: retrain with `ontoresolve train`",
                missing.name()
            )));
        }
        Ok(dense)
    }
}

/// Whether a model of `scope` weighs this feature: a mention weighs its first candidate's too.
pub fn in_scope(feature: Feature, scope: Scope) -> bool {
    scope == Scope::Mention || feature.scope() == Scope::Candidate
}

/// A calibrated probability and its basis.
#[derive(Clone, Debug, PartialEq)]
pub struct Confidence {
    pub p: f64,
    /// The features that weighed most, each with its share of the log-odds.
    pub basis: Vec<(Feature, f64)>,
}

impl Confidence {
    /// The basis in words: `kind_label +1.9, outranked -0.8`.
    pub fn basis_text(&self) -> String {
        let parts: Vec<String> = self
            .basis
            .iter()
            .map(|(f, x)| format!("{} {x:+.1}", f.name()))
            .collect();
        parts.join(", ")
    }
}

/// A model file whose features do not fit this binary's registry.
#[derive(Debug, thiserror::Error)]
#[error("the confidence model does not fit this binary: {0}")]
pub struct ModelFitError(pub String);

/// The model an index was built with.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfidenceModel {
    pub version: String,
    pub candidate: Dense,
    pub mention: Dense,
    pub mention_threshold: f64,
    /// Names learned from corpora, by name key (`label_key`).
    pub learned: BTreeMap<String, Vec<LearnedName>>,
    /// The most words a learned name has.
    pub learned_words: usize,
    /// The first word of each learned name's key: a passage's span is looked up only from
    /// these.
    pub learned_starts: std::collections::BTreeSet<String>,
}

impl ConfidenceModel {
    /// A model of these weights and threshold, with no learned names yet.
    pub fn new(candidate: Dense, mention: Dense, mention_threshold: f64) -> ConfidenceModel {
        ConfidenceModel {
            version: String::new(),
            candidate,
            mention,
            mention_threshold,
            learned: BTreeMap::new(),
            learned_words: 0,
            learned_starts: Default::default(),
        }
    }

    pub fn from_file(file: &ModelFile) -> Result<ConfidenceModel, ModelFitError> {
        let mut model = ConfidenceModel::new(
            Dense::from_weights(&file.candidate, Scope::Candidate, "candidate")?,
            Dense::from_weights(&file.mention, Scope::Mention, "mention")?,
            file.mention_threshold,
        );
        model.version = file.version.clone();
        model.learn(file.learned_names.iter().cloned());
        Ok(model)
    }

    /// Adds learned names.
    pub fn learn(&mut self, names: impl IntoIterator<Item = LearnedName>) {
        for n in names {
            let key = label_key(&n.name);
            // Words as a passage's tokens count them (split at hyphens and apostrophes too).
            self.learned_words = self.learned_words.max(key.split(' ').count());
            if let Some(first) = key.split(' ').next() {
                self.learned_starts.insert(first.to_string());
            }
            self.learned.entry(key).or_default().push(n);
        }
    }

    /// The learned names with this name key.
    pub fn learned_for(&self, key: &str) -> &[LearnedName] {
        self.learned.get(key).map_or(&[], Vec::as_slice)
    }
}

pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Six decimals: enough for the model, and the same bytes from the same fit.
pub fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_without_a_registered_feature_does_not_fit_and_names_it() {
        let mut w = Dense::zero().to_weights(Scope::Candidate);
        w.weights.remove("edit_distance");
        let err = Dense::from_weights(&w, Scope::Candidate, "candidate").unwrap_err();
        assert!(err.to_string().contains("edit_distance"), "{err}");
        let mut w = Dense::zero().to_weights(Scope::Candidate);
        w.weights.insert("span_words".into(), 1.0);
        let err = Dense::from_weights(&w, Scope::Candidate, "candidate").unwrap_err();
        assert!(err.to_string().contains("span_words"), "{err}");
    }

    #[test]
    fn the_basis_names_the_features_that_moved_the_log_odds_most() {
        let mut d = Dense::zero();
        d.weights[Feature::KindNearSpelling.index()] = -2.0;
        d.weights[Feature::EditDistance.index()] = -0.5;
        d.weights[Feature::Position.index()] = 0.1;
        let mut f = Features::default();
        f.0[Feature::KindNearSpelling.index()] = 1.0;
        f.0[Feature::EditDistance.index()] = 2.0;
        let c = d.apply(&f);
        assert_eq!(
            c.basis.iter().map(|b| b.0).collect::<Vec<_>>(),
            [Feature::KindNearSpelling, Feature::EditDistance]
        );
        assert!((c.p - sigmoid(-3.0)).abs() < 1e-12);
    }
}
