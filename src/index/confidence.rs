//! The confidence model file (`confidence-model.toml`): the weights `ontoresolve train` fitted
//! for each registered feature, the mention threshold, and the corpora it learned from. Read
//! format first (`format::check_toml`), then whole; a weight that is not a finite number, or a
//! threshold outside (0, 1), is damage. Whether its features fit this binary's registry is
//! checked where the registry lives (`resolve::confidence`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::format::{self, VersionReadError};

/// The version of the model file's fields (its `format` key).
pub const MODEL_FORMAT: u32 = 1;

/// One logistic model: the log-odds are `bias` plus each feature's weight times its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    pub bias: f64,
    /// By feature name.
    pub weights: BTreeMap<String, f64>,
}

/// A corpus the model learned from, with what to cite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpusRecord {
    pub id: String,
    /// The file, relative to the data directory training read.
    pub file: String,
    pub sha256: String,
    pub citation: String,
}

/// A name a corpus uses for a concept that no loaded source gives it ("adriamycin" for
/// Doxorubicin): searched as its own match kind, traced to the corpus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnedName {
    pub name: String,
    /// The concept's CURIE.
    pub concept: String,
    /// The corpus id (one of `trained_on`).
    pub corpus: String,
    /// How many training mentions wrote it for this concept.
    pub mentions: u32,
}

/// What the fitted model scored on the part of the training data set aside to calibrate it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeldOut {
    pub candidates: u64,
    pub candidate_ece: f64,
    pub mentions: u64,
    pub mention_ece: f64,
    pub mention_f1: f64,
}

/// The whole model file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    pub format: u32,
    /// Names the content: a digest of the weights, so two trainings that agree agree here.
    pub version: String,
    /// How a name search's candidate is weighed.
    pub candidate: Weights,
    /// How a passage's span is weighed as a mention of its first candidate.
    pub mention: Weights,
    /// A span whose mention confidence is under this is `uncertain`, not a mention.
    pub mention_threshold: f64,
    pub trained_on: Vec<CorpusRecord>,
    pub held_out: HeldOut,
    /// Sorted by name, then concept.
    #[serde(default, rename = "learned_name")]
    pub learned_names: Vec<LearnedName>,
}

/// Why a model file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ModelFileError {
    #[error(transparent)]
    Version(#[from] VersionReadError),
    #[error("it does not parse: {0}")]
    Parse(String),
    #[error("{0}")]
    Invalid(String),
}

impl ModelFile {
    /// Parses and checks a model file's text.
    pub fn from_toml(text: &str) -> Result<ModelFile, ModelFileError> {
        format::check_toml(text, MODEL_FORMAT)?;
        let model: ModelFile =
            toml::from_str(text).map_err(|e| ModelFileError::Parse(e.message().to_string()))?;
        model.check()?;
        Ok(model)
    }

    /// The file's text: keys in a fixed order, numbers as written, so equal models are equal
    /// bytes.
    pub fn to_toml(&self) -> Result<String, ModelFileError> {
        let body = toml::to_string(self).map_err(|e| ModelFileError::Invalid(e.to_string()))?;
        Ok(format!(
            "# Written by `ontoresolve train` from the corpora listed below; not edited by hand.\n\
             # Weights per feature of src/resolve/confidence/features.rs (docs/tools.md says what\n\
             # each means). Holds weights and a threshold only, never corpus text.\n{body}"
        ))
    }

    fn check(&self) -> Result<(), ModelFileError> {
        let weights = [("candidate", &self.candidate), ("mention", &self.mention)];
        for (part, w) in weights {
            if !w.bias.is_finite() {
                return Err(ModelFileError::Invalid(format!(
                    "{part}.bias is not finite"
                )));
            }
            if let Some((name, _)) = w.weights.iter().find(|(_, v)| !v.is_finite()) {
                return Err(ModelFileError::Invalid(format!(
                    "{part}.weights.{name} is not finite"
                )));
            }
        }
        if let Some(n) = self
            .learned_names
            .iter()
            .find(|n| n.name.trim().is_empty() || !self.trained_on.iter().any(|c| c.id == n.corpus))
        {
            return Err(ModelFileError::Invalid(format!(
                "learned name {:?} is empty or names a corpus the model was not trained on",
                n.name
            )));
        }
        if !(self.mention_threshold > 0.0 && self.mention_threshold < 1.0) {
            return Err(ModelFileError::Invalid(
                "mention_threshold is not between 0 and 1".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> ModelFile {
        ModelFile {
            format: MODEL_FORMAT,
            version: "x".into(),
            candidate: Weights {
                bias: -1.0,
                weights: BTreeMap::from([("a".into(), 0.5)]),
            },
            mention: Weights {
                bias: 0.0,
                weights: BTreeMap::new(),
            },
            mention_threshold: 0.4,
            trained_on: Vec::new(),
            held_out: HeldOut {
                candidates: 1,
                candidate_ece: 0.0,
                mentions: 1,
                mention_ece: 0.0,
                mention_f1: 1.0,
            },
            learned_names: Vec::new(),
        }
    }

    #[test]
    fn a_model_file_reads_back_as_written() {
        let text = model().to_toml().unwrap();
        assert_eq!(ModelFile::from_toml(&text).unwrap(), model());
    }

    #[test]
    fn a_newer_model_file_is_called_newer_and_a_bad_threshold_invalid() {
        let newer = model()
            .to_toml()
            .unwrap()
            .replace("format = 1", "format = 9");
        let err = ModelFile::from_toml(&newer).unwrap_err().to_string();
        assert!(err.contains("newer"), "{err}");
        let mut bad = model();
        bad.mention_threshold = 1.5;
        let err = ModelFile::from_toml(&bad.to_toml().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("mention_threshold"), "{err}");
    }
}
