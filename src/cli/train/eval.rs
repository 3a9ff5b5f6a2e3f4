//! The figures training reports: for `find_concepts`, recall@1 and the calibration of the
//! first candidate; for `ground_passage`, concept precision, recall and F1 per abstract and
//! group (each abstract's set of first-candidate MeSH ids of that group against its gold ids
//! of that type, micro-averaged), and the calibration of every labelled reading.

use std::collections::BTreeSet;

use ontoresolve::resolve::confidence::Dense;
use ontoresolve::resolve::confidence::fit::{ece, reliability};

use super::corpus::Group;
use super::rows::{Corpus, Reading};

/// Calibration of a set of answers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Calibration {
    pub answers: usize,
    pub right: usize,
    pub ece: f64,
    /// Answers stated at 0.9 or more, and how many of those were wrong.
    pub confident: usize,
    pub confident_wrong: usize,
}

impl Calibration {
    pub fn of(answers: &[(f64, bool)]) -> Calibration {
        let confident: Vec<&(f64, bool)> = answers.iter().filter(|a| a.0 >= 0.9).collect();
        Calibration {
            answers: answers.len(),
            right: answers.iter().filter(|a| a.1).count(),
            ece: ece(answers),
            confident: confident.len(),
            confident_wrong: confident.iter().filter(|a| !a.1).count(),
        }
    }

    /// Per tenth of the stated range: answers, mean stated, share right.
    pub fn bins(answers: &[(f64, bool)]) -> String {
        let cells: Vec<String> = reliability(answers)
            .iter()
            .filter(|b| b.0 > 0)
            .map(|&(n, stated, right)| {
                format!(
                    "{n}@{:.2}:{:.2}",
                    stated / n as f64,
                    right as f64 / n as f64
                )
            })
            .collect();
        cells.join(" ")
    }

    pub fn share_right(&self) -> f64 {
        self.right as f64 / self.answers.max(1) as f64
    }

    pub fn confident_wrong_share(&self) -> f64 {
        self.confident_wrong as f64 / self.confident.max(1) as f64
    }
}

/// Precision, recall and F1 of sets.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prf {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
}

impl Prf {
    pub fn precision(&self) -> f64 {
        self.tp as f64 / (self.tp + self.fp).max(1) as f64
    }
    pub fn recall(&self) -> f64 {
        self.tp as f64 / (self.tp + self.fn_).max(1) as f64
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
    fn add(&mut self, other: Prf) {
        self.tp += other.tp;
        self.fp += other.fp;
        self.fn_ += other.fn_;
    }
}

/// Concept P/R/F1 per group of `corpus` over the documents `keep` selects, when the readings
/// stated at `threshold` or more are its mentions.
pub fn concept_scores(
    corpus: &Corpus,
    readings: &[Reading],
    mention: &Dense,
    threshold: f64,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<(Group, Prf)> {
    let mut predicted: Vec<Vec<(Group, String)>> = vec![Vec::new(); corpus.docs.len()];
    for r in readings.iter().filter(|r| keep(r.doc)) {
        if mention.apply(&r.features).p < threshold {
            continue;
        }
        if let Some(id) = &r.id {
            for g in &r.groups {
                predicted[r.doc].push((*g, id.clone()));
            }
        }
    }
    corpus
        .groups
        .iter()
        .map(|&group| {
            let mut total = Prf::default();
            for (at, doc) in corpus.docs.iter().enumerate().filter(|(at, _)| keep(*at)) {
                let pred: BTreeSet<&str> = predicted[at]
                    .iter()
                    .filter(|(g, _)| *g == group)
                    .map(|(_, id)| id.as_str())
                    .collect();
                let gold: BTreeSet<&str> = doc
                    .gold
                    .iter()
                    .filter(|g| g.group == Some(group))
                    .flat_map(|g| g.ids.iter().map(String::as_str))
                    .collect();
                let tp = pred.intersection(&gold).count();
                total.add(Prf {
                    tp,
                    fp: pred.len() - tp,
                    fn_: gold.len() - tp,
                });
            }
            (group, total)
        })
        .collect()
}

/// The calibration of every labelled reading of the documents `keep` selects.
pub fn reading_calibration(
    readings: &[Reading],
    mention: &Dense,
    keep: &dyn Fn(usize) -> bool,
) -> Calibration {
    let answers: Vec<(f64, bool)> = readings
        .iter()
        .filter(|r| keep(r.doc))
        .filter_map(|r| Some((mention.apply(&r.features).p, r.right?)))
        .collect();
    Calibration::of(&answers)
}

/// The threshold, in steps of 0.05, with the best concept F1 over every group of `corpora`
/// on the documents set aside to calibrate.
pub fn best_threshold(corpora: &[(&Corpus, &[Reading])], mention: &Dense) -> (f64, f64) {
    let mut best = (0.5, -1.0);
    for step in 1..20 {
        let t = f64::from(step) * 0.05;
        let mut total = Prf::default();
        for (corpus, readings) in corpora {
            let keep = |doc: usize| corpus.docs[doc].calibrates();
            for (_, prf) in concept_scores(corpus, readings, mention, t, &keep) {
                total.add(prf);
            }
        }
        if total.f1() > best.1 + 1e-12 {
            best = (t, total.f1());
        }
    }
    best
}
