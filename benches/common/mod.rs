//! The timing loop shared by the benches.

use std::time::Instant;

/// Median ns per element of each implementation, over batches of `iterations`
/// runs taken round-robin (one batch of each in turn), so that a change of clock
/// speed during the run affects all implementations alike and the ratios hold.
pub fn compare(
    elements: usize,
    iterations: usize,
    implementations: &mut [&mut dyn FnMut()],
) -> Vec<f64> {
    for f in implementations.iter_mut() {
        for _ in 0..iterations.div_ceil(4) {
            f(); // warm-up
        }
    }
    let mut samples = vec![Vec::new(); implementations.len()];
    for _round in 0..21 {
        for (f, samples) in implementations.iter_mut().zip(&mut samples) {
            let start = Instant::now();
            for _ in 0..iterations {
                f();
            }
            samples.push(start.elapsed().as_nanos() as f64 / (iterations * elements) as f64);
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect()
}
