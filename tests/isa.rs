//! The instruction-set level the kernels run with: `TENSOR_EXPR_ISA`
//! lowers it (CI runs the kernel suites once per level this machine has, and
//! this test fails there if the variable stopped taking effect), and every
//! level computes the same results.

use tensor_expr::isa::{self, Level};
use tensor_expr::prelude::*;

#[test]
fn the_forced_level_is_the_selected_one() {
    let forced = std::env::var("TENSOR_EXPR_ISA")
        .ok()
        .filter(|v| !v.is_empty());
    let expected = match forced.as_deref() {
        Some(name) => Level::from_name(name)
            .expect("a level's name")
            .max(Level::TARGET),
        None => isa::detected(),
    };
    assert_eq!(isa::selected(), expected);
    println!("kernels run with {}", isa::selected().name());
}

/// A product with a ragged edge, an elementwise output above the size
/// from which it is dispatched, and run-time rows: each against a plain
/// loop, at whatever level this process runs.
#[test]
fn every_dispatched_walk_matches_plain_loops() {
    let a = Tensor::<f32, Shape![37, 53]>::from_flat_fn(|p| ((p * 7919) % 97) as f32 / 97.0 - 0.5);
    let w =
        Tensor::<f32, Shape![53, 41]>::from_flat_fn(|p| ((p * 104729) % 89) as f32 / 89.0 - 0.5);
    let b = Tensor::<f32, Shape![41]>::from_flat_fn(|p| p as f32 * 0.01);
    let y = tensor_expr!(relu(a @ w + b));
    for i in 0..37 {
        for j in 0..41 {
            let dot: f32 = (0..53).map(|k| a[[i, k]] * w[[k, j]]).sum::<f32>() + b[[j]];
            assert!((y[[i, j]] - dot.max(0.0)).abs() < 1e-4, "[{i}, {j}]");
        }
    }

    let x = Tensor::<f32, Shape![40, 33]>::from_flat_fn(|p| p as f32 * 0.001 - 0.6);
    let z = tensor_expr!(x * 0.5 + b.narrow::<0, 0, 33>() - 1.0);
    for (p, (&got, &v)) in z.as_slice().iter().zip(x.as_slice()).enumerate() {
        assert_eq!(got, v * 0.5 + (p % 33) as f32 * 0.01 - 1.0);
    }

    let points = HeapTensor::<f32, Shape![Dyn, 3]>::from_fn_rows(517, |[i, c]| (i * 3 + c) as f32);
    let g = Tensor::<f32, Shape![3]>::new([0.0, -9.8, 0.0]);
    let moved = tensor_expr!(points * 0.01 + g);
    for (p, (&got, &v)) in moved.as_slice().iter().zip(points.as_slice()).enumerate() {
        assert_eq!(got, v * 0.01 + g[[p % 3]]);
    }
}
