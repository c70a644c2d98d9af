//! The `tensor_expr!` grammar and forms: precedence, literals, operands,
//! functions, in-place updates, views, generic code.

use tensor_expr::prelude::*;

fn x() -> Tensor<f64, Shape![2, 3]> {
    tensor![[1., 2., 3.], [4., 5., 6.]]
}

#[test]
fn the_issue_example() {
    let x: Tensor<f32, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let v: Tensor<f32, Shape![3]> = Tensor::try_from_slice(&[7., 8., 9.]).unwrap();
    let y = tensor_expr!(x + v);
    let _: &Tensor<f32, Shape![2, 3]> = &y;
    let z: Tensor<f32, Shape![2, 3]> = tensor_expr!(relu(x * 2 - v) / 4.0);
    assert_eq!(z.as_slice(), &[0., 0., 0., 0.25, 0.5, 0.75]);
    let mut acc = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(acc += x * v);
    assert_eq!(acc.as_slice(), &[7., 16., 27., 28., 40., 54.]);
    tensor_expr!(acc = acc * 0.5 + 1.0);
    assert_eq!(acc.as_slice(), &[4.5, 9., 14.5, 15., 21., 28.]);
}

#[test]
fn precedence_and_associativity() {
    let x = x();
    let y = tensor_expr!(x + x * 2 - x / 2 - 1);
    let expected = x.as_slice().iter().map(|a| a + a * 2.0 - a / 2.0 - 1.0);
    assert!(y.as_slice().iter().copied().eq(expected));
    // Left associativity: 100 - x - x is (100 - x) - x; x / 2 / 2 is x / 4.
    assert_eq!(tensor_expr!(100 - x - x).as_slice()[0], 98.0);
    assert_eq!(tensor_expr!(x / 2 / 2), tensor_expr!(x / 4));
    // Parentheses and unary minus.
    assert_eq!(tensor_expr!((x + 1) * 2).as_slice()[0], 4.0);
    assert_eq!(tensor_expr!(-x * 2).as_slice()[1], -4.0);
    assert_eq!(tensor_expr!(-(x - 3)).as_slice()[0], 2.0);
    assert_eq!(tensor_expr!(x - -1).as_slice()[0], 2.0);
}

#[test]
fn literals_take_the_element_type() {
    let f: Tensor<f32, Shape![2]> = tensor![1.5, 2.5];
    assert_eq!(tensor_expr!(f * 2 + 0.5), tensor![3.5, 5.5]);
    let i: Tensor<i64, Shape![2]> = tensor![3, -4];
    assert_eq!(tensor_expr!(i * 2 - 1), tensor![5, -9]);
    let u: Tensor<u8, Shape![2]> = tensor![3, 4];
    assert_eq!(tensor_expr!(u * 60 + 15), tensor![195, 255]);
    // A suffixed literal is a typed scalar operand.
    assert_eq!(tensor_expr!(f * 2.0f32), tensor![3.0, 5.0]);
}

#[test]
fn scalar_operands_of_every_kind() {
    let x = x();
    let alpha = 0.5;
    let scale = &alpha;
    struct Params {
        bias: f64,
        w: Tensor<f64, Shape![3]>,
    }
    let params = Params {
        bias: 1.0,
        w: tensor![1., 0., -1.],
    };
    let pair = (2.0, x);
    let y = tensor_expr!(x * alpha + { *scale } + params.bias + params.w + pair.0 * pair.1);
    let expected: Vec<f64> = x
        .as_slice()
        .iter()
        .zip([1., 0., -1.].iter().cycle())
        .map(|(a, w)| a * 0.5 + 0.5 + 1.0 + w + 2.0 * a)
        .collect();
    assert_eq!(y.as_slice(), &expected[..]);
}

#[test]
fn paths_method_calls_references_and_blocks() {
    mod weights {
        pub const SCALE: f64 = 3.0;
    }
    let x = x();
    let y = tensor_expr!(&x * weights::SCALE + x.view() - { tensor_expr!(x * 4) });
    assert!(y.as_slice().iter().all(|&v| v == 0.0));
    // A nested expression in a block, and a function call in a block.
    let doubled = |t: &Tensor<f64, Shape![2, 3]>| tensor_expr!(t * 2);
    assert_eq!(tensor_expr!({ doubled(&x) } - x), x);
}

#[test]
fn every_function_matches_std() {
    type V = Tensor<f64, Shape![4]>;
    let x: V = tensor![-1.5, -0.25, 0.5, 2.0];
    let p: V = tensor![0.5, 1.5, 2.0, 3.0]; // positive, for ln and sqrt
    let check = |name: &str, actual: V, input: &V, f: &dyn Fn(f64) -> f64| {
        for (a, &v) in actual.as_slice().iter().zip(input.as_slice()) {
            let expected = f(v);
            assert!(
                (a - expected).abs() <= 1e-12 * expected.abs().max(1.0),
                "{name}({v}) = {a}, expected {expected}"
            );
        }
    };
    check("abs", tensor_expr!(abs(x)), &x, &f64::abs);
    check("exp", tensor_expr!(exp(x)), &x, &f64::exp);
    check("ln", tensor_expr!(ln(p)), &p, &f64::ln);
    check("sqrt", tensor_expr!(sqrt(p)), &p, &f64::sqrt);
    check("sin", tensor_expr!(sin(x)), &x, &f64::sin);
    check("cos", tensor_expr!(cos(x)), &x, &f64::cos);
    check("tanh", tensor_expr!(tanh(x)), &x, &f64::tanh);
    check("sigmoid", tensor_expr!(sigmoid(x)), &x, &|v| {
        1.0 / (1.0 + (-v).exp())
    });
    check("relu", tensor_expr!(relu(x)), &x, &|v| v.max(0.0));
    check("square", tensor_expr!(square(x)), &x, &|v| v * v);
    check("max", tensor_expr!(max(x, 0.25)), &x, &|v| v.max(0.25));
    check("min", tensor_expr!(min(x, 0.25)), &x, &|v| v.min(0.25));
    check("pow", tensor_expr!(pow(x, 2)), &x, &|v| v.powf(2.0));
    check("clamp", tensor_expr!(clamp(x, -1, 1)), &x, &|v| {
        v.clamp(-1.0, 1.0)
    });
}

#[test]
fn functions_broadcast_their_arguments() {
    let x = x();
    let lo: Tensor<f64, Shape![3]> = tensor![2., 2., 4.];
    let hi: Tensor<f64, Shape![2, 1]> = tensor![[2.5], [5.]];
    assert_eq!(
        tensor_expr!(clamp(x, lo, hi)),
        tensor![[2., 2., 2.5], [4., 5., 5.]]
    );
}

#[test]
fn integer_tensors() {
    let a: Tensor<i32, Shape![2, 2]> = tensor![[1, -2], [3, -4]];
    let b: Tensor<i32, Shape![2]> = tensor![10, 20];
    assert_eq!(
        tensor_expr!(abs(a) * b / 2 - max(a, 0)),
        tensor![[4, 20], [12, 40]]
    );
    assert_eq!(tensor_expr!(clamp(a, -1, 1)), tensor![[1, -1], [1, -1]]);
}

#[test]
fn every_in_place_operator() {
    let v: Tensor<f64, Shape![3]> = tensor![1., 2., 4.];
    let mut t = x();
    tensor_expr!(t += v);
    tensor_expr!(t -= 1);
    tensor_expr!(t *= v);
    tensor_expr!(t /= 2);
    let expected: Vec<f64> = x()
        .as_slice()
        .iter()
        .zip([1., 2., 4.].iter().cycle())
        .map(|(a, b)| (a + b - 1.0) * b / 2.0)
        .collect();
    assert_eq!(t.as_slice(), &expected[..]);
    // Assigning a broadcast value fills the target.
    tensor_expr!(t = v);
    assert_eq!(t, tensor![[1., 2., 4.], [1., 2., 4.]]);
    tensor_expr!(t = 0);
    assert_eq!(t, Tensor::zeros());
}

#[test]
fn the_target_is_read_in_place() {
    let mut t = x();
    tensor_expr!(t = t * t - t);
    assert_eq!(t, tensor![[0., 2., 6.], [12., 20., 30.]]);
    let mut u = x();
    tensor_expr!(u += u);
    assert_eq!(u, tensor_expr!({ x() } * 2));
}

#[test]
fn views_are_operands_and_targets() {
    let data = vec![1.0f64; 6];
    let ones = TensorView::<f64, Shape![2, 3]>::try_from_slice(&data).unwrap();
    let mut out_buffer = vec![0.0f64; 6];
    let mut out = TensorViewMut::<f64, Shape![2, 3]>::try_from_slice(&mut out_buffer).unwrap();
    let x = x();
    tensor_expr!(out = x + ones);
    tensor_expr!(out *= 2);
    tensor_expr!(out = out - ones);
    assert_eq!(out_buffer, vec![3., 5., 7., 9., 11., 13.]);
}

fn scale<S: tensor_expr::Shape>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
    tensor_expr!(x * 2.0 + 1.0)
}

fn accumulate<S: tensor_expr::Shape>(out: &mut Tensor<f32, S>, x: &Tensor<f32, S>, alpha: f32) {
    tensor_expr!(out += alpha * x + exp(x - x));
}

fn add_row<R, C>(m: &Tensor<f32, (R, C)>, row: &Tensor<f32, (C,)>) -> Tensor<f32, (R, C)>
where
    R: tensor_expr::Dim,
    C: tensor_expr::Dim,
{
    tensor_expr!(m + row)
}

#[test]
fn generic_code_needs_no_extra_bounds() {
    let x: Tensor<f32, Shape![2, 2]> = tensor![[1., 2.], [3., 4.]];
    assert_eq!(scale(&x), tensor![[3., 5.], [7., 9.]]);
    let mut out = Tensor::zeros();
    accumulate(&mut out, &x, 2.0);
    assert_eq!(out, tensor![[3., 5.], [7., 9.]]);
    assert_eq!(
        add_row(&x, &tensor![10., 20.]),
        tensor![[11., 22.], [13., 24.]]
    );
}

#[test]
fn zero_sized_and_scalar_shapes() {
    let empty = Tensor::<f32, Shape![0, 3]>::zeros();
    let row: Tensor<f32, Shape![3]> = tensor![1., 2., 3.];
    assert_eq!(tensor_expr!(empty + row).shape(), &[0, 3]);
    let s = Tensor::<f32, Shape![]>::new(2.0);
    let t: Tensor<f32, Shape![]> = tensor_expr!(s * s + 1);
    assert_eq!(t.as_slice(), &[5.0]);
}

/// Comparisons give 1 where they hold and 0 elsewhere, in the element type,
/// broadcast like any operator; NaN compares false (`!=` true), as NumPy.
#[test]
fn comparisons_broadcast_into_masks() {
    let x = Tensor::<f64, Shape![2, 3]>::new([[-1., 0., 2.], [f64::NAN, 3., -4.]]);
    let t = Tensor::<f64, Shape![3]>::new([0., 0., 2.]);
    let expect = |f: fn(f64, f64) -> bool| -> Vec<f64> {
        x.iter_indexed()
            .map(|([_, j], &a)| f64::from(u8::from(f(a, t[[j]]))))
            .collect()
    };
    assert_eq!(
        tensor_expr!(x < t).as_slice().to_vec(),
        expect(|a, b| a < b)
    );
    assert_eq!(
        tensor_expr!(x <= t).as_slice().to_vec(),
        expect(|a, b| a <= b)
    );
    assert_eq!(
        tensor_expr!(x > t).as_slice().to_vec(),
        expect(|a, b| a > b)
    );
    assert_eq!(
        tensor_expr!(x >= t).as_slice().to_vec(),
        expect(|a, b| a >= b)
    );
    assert_eq!(
        tensor_expr!(x == t).as_slice().to_vec(),
        expect(|a, b| a == b)
    );
    assert_eq!(
        tensor_expr!(x != t).as_slice().to_vec(),
        expect(|a, b| a != b)
    );
    // NumPy: `np.array([nan]) != np.array([nan])` is True, `==`, `<`, `>=` False.
    assert_eq!(tensor_expr!(x != x).as_slice(), &[0., 0., 0., 1., 0., 0.]);
    // Comparisons bind loosest: `x + 1 > t * 2` is `(x + 1) > (t * 2)`.
    assert_eq!(
        tensor_expr!(x + 1 > t * 2).as_slice().to_vec(),
        expect(|a, b| a + 1.0 > b * 2.0)
    );
    // Masks are numbers: `*` is "and".
    let inside = tensor_expr!((x > -2) * (x < 2));
    assert_eq!(inside.as_slice(), &[1., 1., 0., 0., 0., 0.]);
    let i = Tensor::<u8, Shape![3]>::new([1, 2, 3]);
    assert_eq!(tensor_expr!(i >= 2).as_slice(), &[0, 1, 1]);
}

/// `select(mask, a, b)` is NumPy's `where`: `a` where the mask is non-zero
/// (NaN counts as true, as `bool(nan)` does), else `b`; all three broadcast.
#[test]
fn select_is_numpys_where() {
    let x = Tensor::<f32, Shape![2, 3]>::new([[-1., 0., 2.], [f32::NAN, 3., -4.]]);
    let leaky = tensor_expr!(select(x > 0, x, 0.01 * x));
    let by_hand: Vec<f32> = x
        .iter()
        .map(|&v| if v > 0.0 { v } else { 0.01 * v })
        .collect();
    assert_eq!(leaky.as_slice()[..3], by_hand[..3]);
    assert!(leaky[[1, 0]].is_nan());
    assert_eq!(leaky.as_slice()[4..], by_hand[4..]);
    // Broadcast mask, values and a scalar: `np.where([[True], [False]], [1, 2, 3], 0)`.
    let mask = Tensor::<i32, Shape![2, 1]>::new([[1], [0]]);
    let values = Tensor::<i32, Shape![3]>::new([1, 2, 3]);
    let chosen = tensor_expr!(select(mask, values, 0));
    assert_eq!(chosen, tensor![[1, 2, 3], [0, 0, 0]]);
    // A NaN mask selects the first value.
    let nan_mask = Tensor::<f32, Shape![2]>::new([f32::NAN, 0.0]);
    assert_eq!(tensor_expr!(select(nan_mask, 1, 2)).as_slice(), &[1.0, 2.0]);
    // Into a target, in place.
    let mut out = Tensor::<f32, Shape![2, 3]>::full(5.0);
    tensor_expr!(out = select(x < out, out, x));
    assert_eq!(out[[0, 0]], 5.0);
}

/// Where every operand has the output's shape or is a scalar, the kernel
/// reads the whole output as one row; elsewhere row by row. Each case here is
/// checked element by element against its definition, on both sides of that
/// line: leading size-1 dims, one-element operands, the target read in place,
/// a long chain (a fold node), and operands of the output's shape that are
/// not its row-major data (a transpose, a strided slice), which must not be
/// read in order.
#[test]
fn the_whole_output_is_one_walk_only_where_it_can_be() {
    let a = Tensor::<f32, Shape![3, 5]>::from_flat_fn(|i| i as f32 - 7.0);
    let expected = |f: &dyn Fn(usize) -> f32| Tensor::<f32, Shape![3, 5]>::from_flat_fn(f);
    let at = |i: usize| a.as_slice()[i];

    assert_eq!(
        tensor_expr!(select(a > 0, a, 0.01 * a)),
        expected(&|i| if at(i) > 0.0 { at(i) } else { 0.01 * at(i) })
    );
    // Leading size-1 dims: the output is [1, 3, 5], one run of 15.
    let lead = Tensor::<f32, Shape![1, 3, 5]>::from_flat_fn(|i| i as f32 * 0.5);
    let y = tensor_expr!(lead + a);
    assert!(y
        .iter()
        .enumerate()
        .all(|(i, &v)| v == i as f32 * 0.5 + at(i)));
    // A one-element operand of rank 2 is a splat.
    let s: Tensor<f32, Shape![1, 1]> = tensor![[3.0]];
    assert_eq!(tensor_expr!(a * s - 1), expected(&|i| at(i) * 3.0 - 1.0));
    // The target, read in place, with and without another operand.
    let mut t = a;
    tensor_expr!(t = t * 2 + a);
    tensor_expr!(t += s);
    assert_eq!(t, expected(&|i| at(i) * 2.0 + at(i) + 3.0));
    // A chain long enough to be one fold node.
    assert_eq!(
        tensor_expr!(a + 1 - a * 2 + a / 4 - 3 + a * a - 2 * a + s),
        expected(
            &|i| at(i) + 1.0 - at(i) * 2.0 + at(i) / 4.0 - 3.0 + at(i) * at(i) - 2.0 * at(i) + 3.0
        )
    );
    // A row broadcast over the rows: row by row.
    let row: Tensor<f32, Shape![5]> = tensor![1., 2., 3., 4., 5.];
    assert_eq!(
        tensor_expr!(a * row),
        expected(&|i| at(i) * (i % 5 + 1) as f32)
    );
    // The output's shape, but not its order: a transpose and a strided slice.
    let m = Tensor::<f32, Shape![5, 3]>::from_flat_fn(|i| i as f32);
    assert_eq!(
        tensor_expr!(transpose(m) + a),
        expected(&|i| (i % 5 * 3 + i / 5) as f32 + at(i))
    );
    let wide = Tensor::<f32, Shape![3, 7]>::from_flat_fn(|i| i as f32);
    assert_eq!(
        tensor_expr!(wide.narrow::<1, 2, 5>() - a),
        expected(&|i| (i / 5 * 7 + 2 + i % 5) as f32 - at(i))
    );
    // Reshaped row-major data is read in order.
    let flat = Tensor::<f32, Shape![15]>::from_flat_fn(|i| i as f32);
    assert_eq!(
        tensor_expr!(reshape::<Shape![3, 5]>(flat) * a),
        expected(&|i| i as f32 * at(i))
    );
}

/// An operand with a block or call in it is evaluated once per place it is
/// written, as Rust would; a plain path written again is read through its
/// first borrow (the same value: reading a path has no side effect).
#[test]
fn each_operand_is_evaluated_as_often_as_written() {
    let x = x();
    let mut evaluations = 0;
    let y = tensor_expr!(
        {
            evaluations += 1;
            &x
        } * x
            + {
                evaluations += 1;
                &x
            }
            - x
            + x
    );
    assert_eq!(evaluations, 2);
    assert_eq!(y, tensor_expr!(x * x + x));
}

#[test]
fn shifts_of_integers_as_rusts() {
    let x: Tensor<i32, Shape![2, 3]> = tensor![[-256, -1, 7], [1024, 3, -9]];
    let by: Tensor<i32, Shape![3]> = tensor![1, 2, 3];
    // A scalar amount, a broadcast tensor of amounts; arithmetic for signed.
    assert_eq!(tensor_expr!(x >> 2).as_slice(), &[-64, -1, 1, 256, 0, -3]);
    assert_eq!(
        tensor_expr!(x << by).as_slice(),
        &[-512, -4, 56, 2048, 12, -72]
    );
    // Between `+` and the comparisons, as in Rust: `x + 1 >> 1` is `(x + 1) >> 1`.
    assert_eq!(
        tensor_expr!(x + 1 >> 1).as_slice(),
        &[-128, 0, 4, 512, 2, -4]
    );
    assert_eq!(tensor_expr!(x >> 1 > 0).as_slice(), &[0, 0, 1, 1, 1, 0]);
    let u: Tensor<u8, Shape![2]> = tensor![255, 16];
    assert_eq!(tensor_expr!(u >> 4).as_slice(), &[15, 1]);
}
