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

/// NumPy's `a @ b`, computed with ndarray's 2-D `dot` once per batch index:
/// 1-D operands promoted (and the promoted dim removed), batch dims broadcast.
pub fn matmul(a: &ArrayD<f64>, b: &ArrayD<f64>) -> ArrayD<f64> {
    use ndarray::Axis;
    let (a_vector, b_vector) = (a.ndim() == 1, b.ndim() == 1);
    let a = if a_vector {
        a.clone().insert_axis(Axis(0))
    } else {
        a.clone()
    };
    let b = if b_vector {
        b.clone().insert_axis(Axis(1))
    } else {
        b.clone()
    };
    let (a_batch, b_batch) = (&a.shape()[..a.ndim() - 2], &b.shape()[..b.ndim() - 2]);
    let batch = broadcast_with(
        &array(&vec![0.0; a_batch.iter().product()], a_batch),
        &array(&vec![0.0; b_batch.iter().product()], b_batch),
        |x, _| x,
    );
    let batch_dims = batch.shape().to_vec();
    let (m, n) = (a.shape()[a.ndim() - 2], b.shape()[b.ndim() - 1]);
    let with_matrix = |matrix: [usize; 2]| [&batch_dims[..], &matrix[..]].concat();
    let a = a
        .broadcast(IxDyn(&with_matrix([m, a.shape()[a.ndim() - 1]])))
        .expect("a broadcasts");
    let b = b
        .broadcast(IxDyn(&with_matrix([b.shape()[b.ndim() - 2], n])))
        .expect("b broadcasts");
    let mut out = Vec::new();
    for (a2, b2) in matrices(a.view()).into_iter().zip(matrices(b.view())) {
        out.extend(a2.dot(&b2).iter().copied());
    }
    let mut dims = batch_dims.clone();
    if !a_vector {
        dims.push(m);
    }
    if !b_vector {
        dims.push(n);
    }
    ArrayD::from_shape_vec(IxDyn(&dims), out).expect("product dims")
}

/// The trailing 2-D matrices of an array, batch indices in row-major order.
fn matrices(x: ndarray::ArrayViewD<'_, f64>) -> Vec<ndarray::Array2<f64>> {
    let batch = x.shape()[..x.ndim() - 2].to_vec();
    (0..batch.iter().product::<usize>())
        .map(|flat| {
            // The batch index of `flat`, innermost dim fastest.
            let mut index = vec![0; batch.len()];
            let mut rest = flat;
            for (i, &dim) in index.iter_mut().zip(&batch).rev() {
                *i = rest % dim;
                rest /= dim;
            }
            let mut view = x.view();
            for &i in &index {
                view = view.index_axis_move(ndarray::Axis(0), i);
            }
            view.into_dimensionality::<ndarray::Ix2>()
                .expect("2-D")
                .to_owned()
        })
        .collect()
}
