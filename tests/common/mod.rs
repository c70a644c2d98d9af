//! Shared helpers: ndarray as the NumPy-broadcasting oracle.
#![allow(dead_code)]

use ndarray::{ArrayD, IxDyn, Zip};

/// Row-major data with its dims, as ndarray sees it.
pub fn array(data: &[f64], dims: &[usize]) -> ArrayD<f64> {
    ArrayD::from_shape_vec(IxDyn(dims), data.to_vec()).expect("data matches dims")
}

/// NumPy's `f(a, b)` with broadcasting, computed by ndarray at run time.
pub fn broadcast_with(
    a: &ArrayD<f64>,
    b: &ArrayD<f64>,
    f: impl Fn(f64, f64) -> f64,
) -> ArrayD<f64> {
    let rank = a.ndim().max(b.ndim());
    let dims: Vec<usize> = (0..rank)
        .map(|k| {
            let pick = |x: &ArrayD<f64>| {
                let pad = rank - x.ndim();
                if k < pad {
                    1
                } else {
                    x.shape()[k - pad]
                }
            };
            let (p, q) = (pick(a), pick(b));
            if p == 1 {
                q
            } else {
                p
            }
        })
        .collect();
    let (a, b) = (
        a.broadcast(IxDyn(&dims)).expect("a broadcasts"),
        b.broadcast(IxDyn(&dims)).expect("b broadcasts"),
    );
    Zip::from(&a).and(&b).map_collect(|&x, &y| f(x, y))
}

/// The elements of an ndarray array in row-major order.
pub fn row_major(a: &ArrayD<f64>) -> Vec<f64> {
    a.iter().copied().collect()
}
