//! Fitting the confidence model, deterministically: an L2-regularised logistic regression by
//! Newton's method (rows in the order given, sums in one order, so the same rows give the same
//! bytes), then Platt scaling on rows set aside, and the calibration figures (ECE over ten
//! equal-width bins).

use super::features::{COUNT, Feature, Features, Scope};
use super::model::{Dense, in_scope, sigmoid};

/// L2 penalty per weight, against the rows' count (the bias is not penalised).
const L2: f64 = 1.0;
const NEWTON_STEPS: usize = 30;

/// One labelled row: the features, and whether the candidate or mention was right.
#[derive(Clone, Debug)]
pub struct Row {
    pub features: Features,
    pub right: bool,
}

/// Which registered features a fit may use: the scope's, less any switched off.
#[derive(Clone, Debug)]
pub struct FeatureMask(pub [bool; COUNT]);

impl FeatureMask {
    pub fn of_scope(scope: Scope) -> FeatureMask {
        let mut on = [false; COUNT];
        for f in Feature::ALL {
            on[f.index()] = in_scope(*f, scope);
        }
        FeatureMask(on)
    }

    pub fn without(mut self, off: Feature) -> FeatureMask {
        self.0[off.index()] = false;
        self
    }
}

/// The logistic model fitted to `rows` over the features `mask` lets in.
// Matrix arithmetic reads best by index.
#[allow(clippy::needless_range_loop)]
pub fn fit(rows: &[Row], mask: &FeatureMask) -> Dense {
    let used: Vec<usize> = (0..COUNT).filter(|&i| mask.0[i]).collect();
    let d = used.len() + 1;
    let mut beta = vec![0.0; d];
    let x = |row: &Row, j: usize| {
        if j == 0 {
            1.0
        } else {
            row.features.0[used[j - 1]]
        }
    };
    for _ in 0..NEWTON_STEPS {
        let mut grad = vec![0.0; d];
        let mut hess = vec![vec![0.0; d]; d];
        for row in rows {
            let z: f64 = (0..d).map(|j| beta[j] * x(row, j)).sum();
            let p = sigmoid(z);
            let y = if row.right { 1.0 } else { 0.0 };
            let w = (p * (1.0 - p)).max(1e-12);
            for j in 0..d {
                let xj = x(row, j);
                if xj == 0.0 {
                    continue;
                }
                grad[j] += (p - y) * xj;
                for k in 0..=j {
                    hess[j][k] += w * xj * x(row, k);
                }
            }
        }
        for j in 1..d {
            grad[j] += L2 * beta[j];
            hess[j][j] += L2;
        }
        hess[0][0] += 1e-9;
        for j in 0..d {
            for k in 0..j {
                hess[k][j] = hess[j][k];
            }
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let mut largest: f64 = 0.0;
        for j in 0..d {
            beta[j] -= step[j];
            largest = largest.max(step[j].abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let mut dense = Dense::zero();
    dense.bias = beta[0];
    for (j, &i) in used.iter().enumerate() {
        dense.weights[i] = beta[j + 1];
    }
    dense
}

/// Platt scaling: `a` and `b` so that `sigmoid(a * logit + b)` fits the held-out rows; the
/// model's weights are scaled into it.
pub fn calibrate(model: &Dense, held_out: &[Row]) -> Dense {
    let logits: Vec<Row> = held_out
        .iter()
        .map(|r| {
            let mut f = Features::default();
            f.0[0] = model.logit(&r.features);
            Row {
                features: f,
                right: r.right,
            }
        })
        .collect();
    let mut first_only = FeatureMask([false; COUNT]);
    first_only.0[0] = true;
    let platt = fit(&logits, &first_only);
    let a = platt.weights[0];
    let mut out = model.clone();
    out.bias = a * model.bias + platt.bias;
    for w in &mut out.weights {
        *w *= a;
    }
    out
}

/// Ten equal-width bins of (stated, right) pairs: per bin, the answers, the sum stated and
/// how many were right.
pub fn reliability(answers: &[(f64, bool)]) -> [(usize, f64, usize); 10] {
    let mut bins = [(0usize, 0.0f64, 0usize); 10];
    for &(p, right) in answers {
        let b = ((p * 10.0).floor() as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += p;
        bins[b].2 += usize::from(right);
    }
    bins
}

/// Expected calibration error over ten equal-width bins of (stated, right) pairs.
pub fn ece(answers: &[(f64, bool)]) -> f64 {
    if answers.is_empty() {
        return 0.0;
    }
    let bins = reliability(answers);
    let n = answers.len() as f64;
    bins.iter()
        .filter(|b| b.0 > 0)
        .map(|&(count, stated, right)| {
            let c = count as f64;
            (c / n) * (stated / c - right as f64 / c).abs()
        })
        .sum()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
#[allow(clippy::needless_range_loop)]
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let factor = a[row][col] / a[col][col];
            if factor == 0.0 {
                continue;
            }
            for k in col..n {
                a[row][k] -= factor * a[col][k];
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Row> {
        // Near spellings right one time in five, labels four in five.
        (0..100)
            .map(|i| {
                let mut f = Features::default();
                let near = i % 2 == 0;
                f.0[Feature::KindNearSpelling.index()] = if near { 1.0 } else { 0.0 };
                let right = if near { i % 10 == 0 } else { i % 10 != 1 };
                Row { features: f, right }
            })
            .collect()
    }

    #[test]
    fn a_fit_recovers_the_share_right_of_each_kind_and_is_the_same_twice() {
        let mask = FeatureMask::of_scope(Scope::Candidate);
        let model = fit(&rows(), &mask);
        assert_eq!(model, fit(&rows(), &mask));
        let mut near = Features::default();
        near.0[Feature::KindNearSpelling.index()] = 1.0;
        let p_near = model.apply(&near).p;
        let p_label = model.apply(&Features::default()).p;
        assert!((p_near - 0.2).abs() < 0.05, "{p_near}");
        assert!((p_label - 0.8).abs() < 0.05, "{p_label}");
        let stated: Vec<(f64, bool)> = rows()
            .iter()
            .map(|r| (model.apply(&r.features).p, r.right))
            .collect();
        assert!(ece(&stated) < 0.05, "{}", ece(&stated));
    }

    #[test]
    fn ece_is_the_weighted_gap_between_stated_and_right() {
        let answers = [(0.95, true), (0.95, false), (0.15, false), (0.15, false)];
        // Bin 9: stated 0.95, right 0.5; bin 1: stated 0.15, right 0.
        assert!((ece(&answers) - (0.5 * 0.45 + 0.5 * 0.15)).abs() < 1e-9);
    }
}
