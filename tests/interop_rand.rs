//! The `rand` feature: `Tensor::random`, `HeapTensor::random` and
//! `fill_random` draw every element from a distribution in row-major order,
//! so they equal the distribution's own sample sequence from the same seed.

use rand::distr::{Distribution, StandardUniform, Uniform};
use rand::{rngs::StdRng, SeedableRng};
use rand_distr::{Normal, StandardNormal};
use tensor_expr::prelude::*;
use tensor_expr::HeapTensor;

#[test]
fn elements_are_the_distributions_draws_in_row_major_order() {
    let distribution = Uniform::new(-1.0f32, 1.0).unwrap();
    let t = Tensor::<f32, Shape![3, 4]>::random(&mut StdRng::seed_from_u64(1), distribution);
    let expected: Vec<f32> = distribution
        .sample_iter(StdRng::seed_from_u64(1))
        .take(12)
        .collect();
    assert_eq!(t.to_vec(), expected);
    assert!(t.iter().all(|x| (-1.0..1.0).contains(x)));
}

#[test]
fn heap_tensor_and_fill_random_draw_the_same_elements() {
    let stack = Tensor::<f64, Shape![2, 5]>::random(&mut StdRng::seed_from_u64(9), StandardNormal);
    let heap =
        HeapTensor::<f64, Shape![2, 5]>::random(&mut StdRng::seed_from_u64(9), StandardNormal);
    assert_eq!(stack.as_slice(), heap.as_slice());

    let mut buffer = vec![0.0f64; 10];
    let mut view = TensorViewMut::<f64, Shape![2, 5]>::try_from_slice(&mut buffer).unwrap();
    view.fill_random(&mut StdRng::seed_from_u64(9), StandardNormal);
    assert_eq!(buffer, stack.to_vec());
}

#[test]
fn integer_and_bool_distributions() {
    let mut rng = StdRng::seed_from_u64(3);
    let dice = Tensor::<i32, Shape![100]>::random(&mut rng, Uniform::new_inclusive(1, 6).unwrap());
    assert!(dice.iter().all(|x| (1..=6).contains(x)));
    // 100 throws show every face (the chance that one is missing is ~6 * (5/6)^100).
    for face in 1..=6 {
        assert!(dice.iter().any(|&x| x == face), "face {face} never drawn");
    }
    let coins = Tensor::<bool, Shape![64]>::random(&mut rng, StandardUniform);
    assert!(coins.iter().any(|&c| c) && coins.iter().any(|&c| !c));
}

#[test]
fn normal_weights_have_the_asked_mean_and_spread() {
    // He initialisation of a 256-input layer: N(0, sqrt(2 / 256)).
    let std_dev = (2.0f64 / 256.0).sqrt();
    let w = HeapTensor::<f64, Shape![256, 64]>::random(
        &mut StdRng::seed_from_u64(5),
        Normal::new(0.0, std_dev).unwrap(),
    );
    let n = w.as_slice().len() as f64;
    let mean = w.iter().sum::<f64>() / n;
    let spread = (w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    // 16384 draws: the mean's standard error is std_dev / 128.
    assert!(mean.abs() < 4.0 * std_dev / 128.0, "mean {mean}");
    assert!((spread / std_dev - 1.0).abs() < 0.03, "spread {spread}");
}

#[test]
fn random_tensors_are_operands() {
    let mut rng = StdRng::seed_from_u64(11);
    let x = Tensor::<f32, Shape![4, 8]>::random(&mut rng, StandardNormal);
    let w = Tensor::<f32, Shape![8, 3]>::random(&mut rng, StandardNormal);
    let y = tensor_expr!(x @ w);
    for i in 0..4 {
        for j in 0..3 {
            let expected: f32 = (0..8).map(|k| x[[i, k]] * w[[k, j]]).sum();
            assert!((y[[i, j]] - expected).abs() < 1e-4);
        }
    }
}
