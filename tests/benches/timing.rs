//! Latency summaries shared by the benchmarks: percentiles of a sample and one printed line.

use std::time::Duration;

pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Prints p50, p99 and the maximum of `samples` under `name`.
pub fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    println!(
        "{name:<44} n={:<7} p50={:>10.1?} p99={:>10.1?} max={:>10.1?}",
        samples.len(),
        percentile(&samples, 0.5),
        percentile(&samples, 0.99),
        samples[samples.len() - 1]
    );
}
