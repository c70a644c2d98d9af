//! Code generic over element types and shapes, written with the prelude's
//! public bounds only: the functions of the "Real programs" issue, each
//! instantiated at several types and checked against plain loops.

use tensor_expr::prelude::*;

/// Any float type and shape: `Float` alone brings every float function.
fn f<T: Float, S: Shape>(x: &Tensor<T, S>) -> Tensor<T, S> {
    tensor_expr!(exp(x) * 2 + 1)
}

/// Any element type and shape: `Element` alone brings the arithmetic, and a
/// `T` is a scalar operand.
fn g<T: Element, S: Shape>(x: &Tensor<T, S>, a: T) -> Tensor<T, S> {
    tensor_expr!(x * a + x)
}

/// Signed elements: negation and `abs`.
fn distance_from<T: Signed, S: Shape>(x: &Tensor<T, S>, centre: T) -> Tensor<T, S> {
    tensor_expr!(abs(-x + centre))
}

/// A float activation with literals of both kinds, and a NaN-propagating max.
fn activations<T: Float, S: Shape>(x: &Tensor<T, S>) -> Tensor<T, S> {
    tensor_expr!(sigmoid(x) * 0.5 + tanh(x) - max(x, 0) + gelu_tanh(x) / 4)
}

/// A bias that broadcasts over `x` without changing its shape: the bound the
/// README shows.
fn add_bias<T: Element, S, B>(x: &Tensor<T, S>, b: &Tensor<T, B>) -> Tensor<T, S>
where
    S: Shape + Broadcast<B, Output = S>,
    B: Shape,
{
    tensor_expr!(x + b)
}

/// A dense layer generic over the batch size, as a user writes one.
fn dense<const B: usize>(
    x: &Tensor<f32, Shape![B, 4]>,
    w: &Tensor<f32, Shape![4, 3]>,
    b: &Tensor<f32, Shape![3]>,
) -> Tensor<f32, Shape![B, 3]> {
    tensor_expr!(relu(x @ w + b))
}

/// In place, generically: the target keeps its shape.
fn accumulate<T: Element, S: Shape>(acc: &mut Tensor<T, S>, x: &Tensor<T, S>) {
    tensor_expr!(acc += x * 2);
}

fn ramp<T: Element, S: Shape>(to_element: impl Fn(i32) -> T) -> Tensor<T, S> {
    Tensor::from_fn(|index: S::Index| {
        let flat: usize = index.as_ref().iter().fold(0, |acc, &i| acc * 7 + i);
        to_element(flat as i32 % 9 - 4)
    })
}

#[test]
fn float_function_generic_over_element_and_shape() {
    let x32: Tensor<f32, Shape![2, 3]> = ramp(|v| v as f32 * 0.25);
    let x64: Tensor<f64, Shape![4]> = ramp(|v| v as f64 * 0.25);
    for (got, x) in f(&x32).as_slice().iter().zip(x32.as_slice()) {
        assert_eq!(*got, tensor_expr::math::f32::exp(*x) * 2.0 + 1.0);
    }
    for (got, x) in f(&x64).as_slice().iter().zip(x64.as_slice()) {
        assert_eq!(*got, tensor_expr::math::f64::exp(*x) * 2.0 + 1.0);
    }
}

#[test]
fn arithmetic_generic_over_element_and_shape() {
    let xi: Tensor<i32, Shape![3, 2]> = ramp(|v| v);
    let xu: Tensor<u8, Shape![5]> = ramp(|v| (v + 4) as u8);
    let xf: Tensor<f64, Shape![2, 1, 2]> = ramp(|v| v as f64);
    for (got, x) in g(&xi, 3).as_slice().iter().zip(xi.as_slice()) {
        assert_eq!(*got, x * 3 + x);
    }
    for (got, x) in g(&xu, 2).as_slice().iter().zip(xu.as_slice()) {
        assert_eq!(*got, x * 2 + x);
    }
    for (got, x) in g(&xf, -0.5).as_slice().iter().zip(xf.as_slice()) {
        assert_eq!(*got, x * -0.5 + x);
    }
}

#[test]
fn signed_and_float_functions_generic() {
    let xi: Tensor<i64, Shape![6]> = ramp(|v| v as i64);
    for (got, x) in distance_from(&xi, 2).as_slice().iter().zip(xi.as_slice()) {
        assert_eq!(*got, (-x + 2).abs());
    }
    let xf: Tensor<f32, Shape![6]> = ramp(|v| v as f32 * 0.5);
    let got = activations(&xf);
    for (got, &x) in got.as_slice().iter().zip(xf.as_slice()) {
        use tensor_expr::math::f32 as m;
        let expected = m::sigmoid(x) * 0.5 + m::tanh(x) - x.max(0.0) + m::gelu_tanh(x) / 4.0;
        assert!(
            (got - expected).abs() <= 1e-6 * expected.abs().max(1.0),
            "{got} vs {expected}"
        );
    }
}

#[test]
fn bias_add_with_the_broadcast_bound() {
    let x: Tensor<f32, Shape![2, 3]> = ramp(|v| v as f32);
    let b = Tensor::<f32, Shape![3]>::new([10., 20., 30.]);
    let column = Tensor::<f32, Shape![2, 1]>::new([[100.], [200.]]);
    let y = add_bias(&x, &b);
    let z = add_bias(&x, &column);
    for i in 0..2 {
        for j in 0..3 {
            assert_eq!(y[[i, j]], x[[i, j]] + b[[j]]);
            assert_eq!(z[[i, j]], x[[i, j]] + column[[i, 0]]);
        }
    }
}

/// A batch of one is `Shape![1, 4]`, whose first dim is `One` (so that it
/// broadcasts); `into_exact_dims` turns it into the `Shape![B, 4]` that code
/// generic over `const B` takes, inferring `B = 1`.
#[test]
fn batch_of_one_passed_to_code_generic_over_the_batch() {
    let w: Tensor<f32, Shape![4, 3]> = ramp(|v| v as f32 * 0.5);
    let b = Tensor::<f32, Shape![3]>::new([0.5, -1.0, 0.25]);
    let one: Tensor<f32, Shape![1, 4]> = ramp(|v| v as f32);
    let batch: Tensor<f32, Shape![5, 4]> = ramp(|v| v as f32);
    let single: Tensor<f32, Shape![1, 3]> = dense(&one.into_exact_dims(), &w, &b).into_shape();
    let _ = dense(&batch, &w, &b);
    for j in 0..3 {
        let sum: f32 = (0..4).map(|k| one[[0, k]] * w[[k, j]]).sum::<f32>() + b[[j]];
        assert_eq!(single[[0, j]], sum.max(0.0));
    }
    // Generic over the batch, and in place with generic bounds.
    let mut acc = Tensor::<i32, Shape![2, 2]>::full(1);
    accumulate(&mut acc, &Tensor::new([[1, 2], [3, 4]]));
    assert_eq!(acc.as_slice(), &[3, 5, 7, 9]);
}
