//! The timing loop shared by the benches, and their inputs.

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

/// A deterministic pseudo-random value in [-1, 1) for position `seed`
/// (SplitMix64), so every run times the same inputs.
#[allow(dead_code)] // Each bench compiles this module; not all take inputs from it.
pub fn pseudo(seed: usize) -> f32 {
    let mut z = (seed as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 31;
    ((z >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}
