//! The operations of the table (`tensor_expr_runtime::ops`) used the way
//! users write them: the structural ones over expressions (evaluated first
//! into a tensor of their own, then read in place), and the composite ones
//! (`softmax`, `log_softmax`, `logsumexp`, `norm`) against references
//! computed with SciPy and NumPy (`tests/vectors/operations.py`).

use tensor_expr::prelude::*;

/// Deterministic, irregular values for shape `S`.
fn sample<S: tensor_expr::Shape>(seed: f64) -> Tensor<f64, S> {
    let mut k = seed;
    Tensor::from_fn(|_| {
        k += 1.0;
        (k * 0.7).sin() * 3.0 + 0.5
    })
}

#[test]
fn transpose_of_a_product_is_the_product_transposed() {
    let x = sample::<Shape![3, 5]>(0.0);
    let w = sample::<Shape![5, 4]>(1.0);
    let product = tensor_expr!(x @ w);
    let expected = tensor_expr!(transpose(product));
    let t = tensor_expr!(transpose(x @ w) * 2.0);
    for ([i, j], &value) in t.iter_indexed() {
        assert_eq!(value, 2.0 * expected[[i, j]]);
    }
    // As the right operand of `@`, as attention writes `q @ k^T`.
    let q = sample::<Shape![2, 4]>(2.0);
    let scores = tensor_expr!(q @ transpose(x @ w));
    let stored = tensor_expr!(q @ transpose(product));
    assert_eq!(scores, stored);
}

#[test]
fn in_place_operations_over_expressions_read_the_evaluated_values() {
    let m = sample::<Shape![3, 2]>(0.0);
    let v = sample::<Shape![3]>(5.0);
    let placed = tensor_expr!(m + in_dims(v * 2.0, [0]));
    for ([i, j], &value) in placed.iter_indexed() {
        assert_eq!(value, m[[i, j]] + v[[i]] * 2.0);
    }
    let x = sample::<Shape![2, 3, 4]>(0.0);
    let permuted = tensor_expr!(permute(x + 1.0, [2, 0, 1]));
    let reshaped = tensor_expr!(reshape::<Shape![6, 4]>(x - 1.0));
    for ([i, j, k], &value) in x.iter_indexed() {
        assert_eq!(permuted[[k, i, j]], value + 1.0);
        assert_eq!(reshaped[[i * 3 + j, k]], value - 1.0);
    }
}

/// One reference case of `tests/vectors/operations.txt`.
struct Reference {
    input: Vec<f64>,
    expected: Vec<f64>,
}

/// The case written as `case NAME DIMS AXES KEEPDIM` (`"softmax 3,5 1 0"`).
fn reference(header: &str) -> Reference {
    let text = include_str!("vectors/operations.txt");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.strip_prefix("case ") == Some(header) {
            let mut values = || -> Vec<f64> {
                let line = lines.next().expect("a line of values");
                line.split(' ')
                    .map(|v| v.parse().expect("a float"))
                    .collect()
            };
            let input = values();
            let expected = values();
            return Reference { input, expected };
        }
    }
    panic!("no case `{header}` in operations.txt: regenerate it (DEVELOPMENT.md)")
}

/// Whether `actual` is the reference `expected` to a few ulps (NaN where
/// it is NaN, the same infinity where it is infinite).
fn close(actual: f64, expected: f64) -> bool {
    if expected.is_nan() || expected.is_infinite() {
        return actual.to_bits() == expected.to_bits() || (expected.is_nan() && actual.is_nan());
    }
    (actual - expected).abs() <= 1e-13 * (1.0 + expected.abs())
}

/// `tensor_expr!($call)` over the input of case `$header`, whose shape is
/// `$dims`, compared with the reference element by element.
macro_rules! check {
    ($header:literal, $dims:ty, |$x:ident| $value:expr) => {{
        let case = reference($header);
        let $x = Tensor::<f64, $dims>::try_from_slice(&case.input).expect("the case's length");
        let value = $value;
        let actual = value.as_slice();
        assert_eq!(actual.len(), case.expected.len(), "{}: length", $header);
        for (k, (&a, &e)) in actual.iter().zip(&case.expected).enumerate() {
            assert!(
                close(a, e),
                "{}: element {k} is {a}, the reference {e}",
                $header
            );
        }
    }};
}

#[test]
fn softmax_matches_scipy() {
    check!("softmax 3,5 1 0", Shape![3, 5], |x| tensor_expr!(softmax(
        x,
        [1]
    )));
    check!("softmax 3,5 0 0", Shape![3, 5], |x| tensor_expr!(softmax(
        x,
        [0]
    )));
    check!("softmax 3,5 -1 0", Shape![3, 5], |x| tensor_expr!(softmax(
        x,
        [-1]
    )));
    check!("softmax 2,3,4 0,2 0", Shape![2, 3, 4], |x| tensor_expr!(
        softmax(x, [0, 2])
    ));
    check!("softmax 1,3 1 0", Shape![1, 3], |x| tensor_expr!(softmax(
        x,
        [1]
    )));
}

#[test]
fn log_softmax_matches_scipy() {
    check!("log_softmax 3,5 1 0", Shape![3, 5], |x| tensor_expr!(
        log_softmax(x, [1])
    ));
    check!("log_softmax 3,5 0 0", Shape![3, 5], |x| tensor_expr!(
        log_softmax(x, [0])
    ));
    check!("log_softmax 3,5 -1 0", Shape![3, 5], |x| tensor_expr!(
        log_softmax(x, [-1])
    ));
    check!(
        "log_softmax 2,3,4 0,2 0",
        Shape![2, 3, 4],
        |x| tensor_expr!(log_softmax(x, [0, 2]))
    );
    check!("log_softmax 1,3 1 0", Shape![1, 3], |x| tensor_expr!(
        log_softmax(x, [1])
    ));
}

#[test]
fn logsumexp_matches_scipy() {
    check!("logsumexp 3,5 1 0", Shape![3, 5], |x| tensor_expr!(
        logsumexp(x, [1])
    ));
    check!("logsumexp 3,5 1 1", Shape![3, 5], |x| tensor_expr!(
        logsumexp(x, [1], keepdim)
    ));
    check!("logsumexp 2,3,4 0,2 0", Shape![2, 3, 4], |x| tensor_expr!(
        logsumexp(x, [0, 2])
    ));
    check!("logsumexp 2,3,4 0,2 1", Shape![2, 3, 4], |x| tensor_expr!(
        logsumexp(x, [0, 2], keepdim)
    ));
    check!("logsumexp 2,3,4 - 0", Shape![2, 3, 4], |x| tensor_expr!(
        logsumexp(x)
    ));
    // A row of -inf, a row holding +inf, a row far from 0.
    check!("logsumexp 3,3 1 0", Shape![3, 3], |x| tensor_expr!(
        logsumexp(x, [1])
    ));
    check!("logsumexp 3,3 1 1", Shape![3, 3], |x| tensor_expr!(
        logsumexp(x, [1], keepdim)
    ));
}

#[test]
fn norm_matches_numpy() {
    check!("norm 3,5 1 0", Shape![3, 5], |x| tensor_expr!(norm(x, [1])));
    check!("norm 3,5 1 1", Shape![3, 5], |x| tensor_expr!(norm(
        x,
        [1],
        keepdim
    )));
    check!("norm 2,3,4 0,2 0", Shape![2, 3, 4], |x| tensor_expr!(norm(
        x,
        [0, 2]
    )));
    check!("norm 2,3,4 0,2 1", Shape![2, 3, 4], |x| tensor_expr!(norm(
        x,
        [0, 2],
        keepdim
    )));
    check!("norm 2,3,4 -1 0", Shape![2, 3, 4], |x| tensor_expr!(norm(
        x,
        [-1]
    )));
    check!("norm 2,3,4 -1 1", Shape![2, 3, 4], |x| tensor_expr!(norm(
        x,
        [-1],
        keepdim
    )));
    check!("norm 2,3,4 - 0", Shape![2, 3, 4], |x| tensor_expr!(norm(x)));
}

#[test]
fn softmax_of_a_product_is_the_written_out_softmax() {
    let x = sample::<Shape![4, 6]>(0.0);
    let w = sample::<Shape![6, 5]>(3.0);
    let one_call = tensor_expr!(softmax(x @ w, [1]) * 2.0);
    let written = tensor_expr!(exp(x @ w - max(x @ w, [1], keepdim)) * (1 / sum(exp(x @ w - max(x @ w, [1], keepdim)), [1], keepdim)) * 2.0);
    assert_eq!(one_call, written);
}

/// A product or operation that reads the assignment target is evaluated
/// before the nest overwrites it, as NumPy evaluates the right-hand side
/// first: the update equations of a Kalman filter read as the maths does.
#[test]
fn assignments_read_the_target_through_products_and_operations() {
    let f = sample::<Shape![4, 4]>(1.0);
    let q = sample::<Shape![4, 4]>(2.0);
    let k = sample::<Shape![4, 2]>(3.0);
    let h = sample::<Shape![2, 4]>(4.0);
    let eye = Tensor::<f64, Shape![4, 4]>::eye();
    let mut p = sample::<Shape![4, 4]>(5.0);

    let fp = tensor_expr!(f @ p);
    let expected = tensor_expr!(fp @ transpose(f) + q);
    tensor_expr!(p = f @ p @ transpose(f) + q);
    assert_eq!(p, expected);

    let kh = tensor_expr!(eye - k @ h);
    let expected = tensor_expr!(kh @ p);
    tensor_expr!(p = (eye - k @ h) @ p);
    assert_eq!(p, expected);

    let before = p;
    tensor_expr!(p += p @ f);
    let expected = tensor_expr!(before + before @ f);
    assert_eq!(p, expected);

    let mean = tensor_expr!(mean(p, [1], keepdim));
    let expected = tensor_expr!(p - mean);
    tensor_expr!(p = p - mean(p, [1], keepdim));
    assert_eq!(p, expected);
}

#[test]
fn flip_matches_numpy() {
    check!("flip 3,4 0 0", Shape![3, 4], |x| tensor_expr!(flip(x, [0])));
    check!("flip 3,4 1 0", Shape![3, 4], |x| tensor_expr!(flip(x, [1])));
    check!("flip 3,4 -1 0", Shape![3, 4], |x| tensor_expr!(flip(
        x,
        [-1]
    )));
    check!("flip 3,4 - 0", Shape![3, 4], |x| tensor_expr!(flip(x)));
    check!("flip 3,4 0,1 0", Shape![3, 4], |x| tensor_expr!(flip(
        x,
        [0, 1]
    )));
    check!("flip 2,3,4 0,2 0", Shape![2, 3, 4], |x| tensor_expr!(flip(
        x,
        [0, 2]
    )));
    // Over an expression (evaluated first), fused with what reads it, and
    // broadcast into a larger output.
    check!("flip 3,4 0 0", Shape![3, 4], |x| {
        let doubled = tensor_expr!(flip(x * 2.0, [0]) - flip(x, [0]));
        let ones = Tensor::<f64, Shape![2, 3, 4]>::full(1.0);
        let broadcast = tensor_expr!(ones * flip(x, [0]));
        for ([b, i, j], &value) in broadcast.iter_indexed() {
            assert_eq!(value, doubled[[i, j]], "[{b}, {i}, {j}]");
        }
        doubled
    });
}

#[test]
fn cumsum_and_cumprod_match_numpy() {
    check!("cumsum 3,4 0 0", Shape![3, 4], |x| tensor_expr!(cumsum(
        x,
        [0]
    )));
    check!("cumsum 3,4 1 0", Shape![3, 4], |x| tensor_expr!(cumsum(
        x,
        [1]
    )));
    check!("cumsum 3,4 -1 0", Shape![3, 4], |x| tensor_expr!(cumsum(
        x,
        [-1]
    )));
    check!("cumsum 2,3,4 1 0", Shape![2, 3, 4], |x| tensor_expr!(
        cumsum(x, [1])
    ));
    check!("cumsum 3,4 0,1 0", Shape![3, 4], |x| tensor_expr!(cumsum(
        x,
        [0, 1]
    )));
    check!("cumprod 3,4 0 0", Shape![3, 4], |x| tensor_expr!(cumprod(
        x,
        [0]
    )));
    check!("cumprod 3,4 1 0", Shape![3, 4], |x| tensor_expr!(cumprod(
        x,
        [1]
    )));
    check!("cumprod 3,4 -1 0", Shape![3, 4], |x| tensor_expr!(cumprod(
        x,
        [-1]
    )));
    // Over an expression, inside one.
    check!("cumsum 3,4 1 0", Shape![3, 4], |x| tensor_expr!(
        cumsum(x * 2.0, [1]) * 0.5
    ));
}

#[test]
fn a_scan_assigned_to_its_target_matches_numpy() {
    // `out = cumsum(..)` writes the target itself where the shapes agree.
    macro_rules! assigned {
        ($header:literal, $dims:ty, |$x:ident, $out:ident| $assign:expr) => {
            check!($header, $dims, |$x| {
                let mut $out = Tensor::<f64, $dims>::full(f64::NAN);
                $assign;
                $out
            })
        };
    }
    assigned!("cumsum 3,4 0 0", Shape![3, 4], |x, o| tensor_expr!(
        o = cumsum(x, [0])
    ));
    assigned!("cumsum 3,4 1 0", Shape![3, 4], |x, o| tensor_expr!(
        o = cumsum(x, [1])
    ));
    assigned!("cumsum 3,4 -1 0", Shape![3, 4], |x, o| tensor_expr!(
        o = cumsum(x, [-1])
    ));
    assigned!("cumsum 2,3,4 1 0", Shape![2, 3, 4], |x, o| tensor_expr!(
        o = cumsum(x, [1])
    ));
    assigned!("cumsum 3,4 0,1 0", Shape![3, 4], |x, o| tensor_expr!(
        o = cumsum(x, [0, 1])
    ));
    assigned!("cumprod 3,4 0 0", Shape![3, 4], |x, o| tensor_expr!(
        o = cumprod(x, [0])
    ));
    assigned!("cumprod 3,4 1 0", Shape![3, 4], |x, o| tensor_expr!(
        o = cumprod(x, [1])
    ));
    // Into a larger target, the scan is broadcast as any value is.
    check!("cumsum 3,4 1 0", Shape![3, 4], |x| {
        let mut out = Tensor::<f64, Shape![2, 3, 4]>::full(f64::NAN);
        tensor_expr!(out = cumsum(x, [1]));
        let expected = tensor_expr!(cumsum(x, [1]));
        for ([b, i, j], &value) in out.iter_indexed() {
            assert_eq!(value, expected[[i, j]], "[{b}, {i}, {j}]");
        }
        expected
    });
    // A scan of the target itself reads it before it is written.
    check!("cumsum 3,4 1 0", Shape![3, 4], |x| {
        let mut out = x;
        tensor_expr!(out = cumsum(out, [1]));
        out
    });
}

/// The scan along `axis` of row-major `data` of shape `dims`, as a plain
/// loop: each element combined with the one before it along the axis.
fn scanned_by_loop(
    data: &[i64],
    dims: &[usize],
    axis: usize,
    combine: fn(i64, i64) -> i64,
) -> Vec<i64> {
    let inner: usize = dims[axis + 1..].iter().product();
    let mut out = data.to_vec();
    for k in 0..out.len() {
        if !(k / inner).is_multiple_of(dims[axis]) {
            out[k] = combine(out[k - inner], data[k]);
        }
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Both forms, each axis, against a plain loop; 7 rows of 5 are one
    /// group of rows scanned together and three scanned alone.
    #[test]
    fn scans_match_a_plain_loop(values in proptest::collection::vec(-3i64..4, 7 * 5)) {
        type Matrix = Tensor<i64, Shape![7, 5]>;
        let x = Matrix::try_from_slice(&values).expect("35 values");
        let sum = |a: i64, b: i64| a + b;
        let product = |a: i64, b: i64| a * b;
        for (axis, value, assigned) in [
            (0, tensor_expr!(cumsum(x, [0])), { let mut o = Matrix::full(i64::MIN); tensor_expr!(o = cumsum(x, [0])); o }),
            (1, tensor_expr!(cumsum(x, [1])), { let mut o = Matrix::full(i64::MIN); tensor_expr!(o = cumsum(x, [1])); o }),
        ] {
            let expected = scanned_by_loop(&values, &[7, 5], axis, sum);
            proptest::prop_assert_eq!(value.as_slice(), &expected[..]);
            proptest::prop_assert_eq!(assigned.as_slice(), &expected[..]);
        }
        let mut o = Matrix::full(i64::MIN);
        tensor_expr!(o = cumprod(x, [1]));
        proptest::prop_assert_eq!(o.as_slice(), &scanned_by_loop(&values, &[7, 5], 1, product)[..]);
        // Two axes: the second scanned in place.
        tensor_expr!(o = cumsum(x, [0, 1]));
        let rows = scanned_by_loop(&values, &[7, 5], 0, sum);
        proptest::prop_assert_eq!(o.as_slice(), &scanned_by_loop(&rows, &[7, 5], 1, sum)[..]);
    }
}

#[test]
fn tril_and_triu_match_numpy() {
    check!("tril0 3,4 - 0", Shape![3, 4], |x| tensor_expr!(tril(x)));
    check!("triu0 3,4 - 0", Shape![3, 4], |x| tensor_expr!(triu(x)));
    check!("tril1 3,4 - 0", Shape![3, 4], |x| tensor_expr!(tril(
        x,
        diagonal = 1
    )));
    check!("triu1 3,4 - 0", Shape![3, 4], |x| tensor_expr!(triu(
        x,
        diagonal = 1
    )));
    check!("tril-1 3,4 - 0", Shape![3, 4], |x| tensor_expr!(tril(
        x,
        diagonal = -1
    )));
    check!("triu-1 3,4 - 0", Shape![3, 4], |x| tensor_expr!(triu(
        x,
        diagonal = -1
    )));
    check!("tril3 3,4 - 0", Shape![3, 4], |x| tensor_expr!(tril(
        x,
        diagonal = 3
    )));
    check!("triu3 3,4 - 0", Shape![3, 4], |x| tensor_expr!(triu(
        x,
        diagonal = 3
    )));
    check!("tril-5 3,4 - 0", Shape![3, 4], |x| tensor_expr!(tril(
        x,
        diagonal = -5
    )));
    check!("triu-5 3,4 - 0", Shape![3, 4], |x| tensor_expr!(triu(
        x,
        diagonal = -5
    )));
    check!("tril0 2,3,4 - 0", Shape![2, 3, 4], |x| tensor_expr!(tril(
        x
    )));
    // A causal mask as attention writes it: the scores above the diagonal
    // hidden, over a product (evaluated first).
    let q = sample::<Shape![4, 3]>(0.0);
    let k = sample::<Shape![4, 3]>(9.0);
    let scores = tensor_expr!(q @ transpose(k));
    let masked = tensor_expr!(tril(q @ transpose(k)) + triu(scores, diagonal = 1) * 0.0);
    for ([i, j], &value) in masked.iter_indexed() {
        assert_eq!(value, if j <= i { scores[[i, j]] } else { 0.0 });
    }
}

#[test]
fn embedding_and_index_select_match_numpy() {
    let ids = Tensor::<usize, Shape![2, 3]>::new([[5, 0, 2], [2, 2, 1]]);
    check!("embedding 6,4 - 0", Shape![6, 4], |table| tensor_expr!(
        embedding(ids, table)
    ));
    // Ids of another integer type, fused with what reads the rows.
    let narrow = Tensor::<i16, Shape![2, 3]>::new([[5, 0, 2], [2, 2, 1]]);
    check!("embedding 6,4 - 0", Shape![6, 4], |table| tensor_expr!(
        embedding(narrow, table) * 2.0 - embedding(ids, table)
    ));
    let along_0 = Tensor::<u8, Shape![3]>::new([2, 0, 2]);
    let along_1 = Tensor::<i64, Shape![2]>::new([3, 1]);
    let along_2 = Tensor::<u32, Shape![4]>::new([4, 0, 4, 1]);
    check!("index_select 3,4,5 0 0", Shape![3, 4, 5], |x| tensor_expr!(
        index_select(x, along_0, [0])
    ));
    check!("index_select 3,4,5 1 0", Shape![3, 4, 5], |x| tensor_expr!(
        index_select(x, along_1, [1])
    ));
    check!("index_select 3,4,5 2 0", Shape![3, 4, 5], |x| tensor_expr!(
        index_select(x, along_2, [2])
    ));
    // Over an expression (evaluated first), and broadcast into a larger
    // output.
    check!("index_select 3,4,5 2 0", Shape![3, 4, 5], |x| {
        let selected = tensor_expr!(index_select(x * 2.0, along_2, [2]) * 0.5);
        let ones = Tensor::<f64, Shape![2, 3, 4, 4]>::full(1.0);
        let broadcast = tensor_expr!(ones * index_select(x, along_2, [2]));
        for ([_, i, j, k], &value) in broadcast.iter_indexed() {
            assert_eq!(value, selected[[i, j, k]]);
        }
        selected
    });
}

#[test]
fn gather_matches_numpy_take_along_axis() {
    let along_0 =
        Tensor::<u16, Shape![2, 4, 5]>::from_fn(|[i, j, k]| ((i + 2 * j + 3 * k) % 3) as u16);
    let along_2 =
        Tensor::<i32, Shape![3, 4, 2]>::from_fn(|[i, j, k]| ((i + 2 * j + 3 * k) % 5) as i32);
    check!("gather 3,4,5 0 0", Shape![3, 4, 5], |x| tensor_expr!(
        gather(x, along_0, [0])
    ));
    check!("gather 3,4,5 2 0", Shape![3, 4, 5], |x| tensor_expr!(
        gather(x, along_2, [2])
    ));
    // Over an expression, fused.
    check!("gather 3,4,5 2 0", Shape![3, 4, 5], |x| tensor_expr!(
        gather(x * 4.0, along_2, [2]) * 0.25
    ));
}

#[test]
#[should_panic(expected = "embedding: id 6 is out of range for 6 rows (0..6)")]
fn an_embedding_id_out_of_range_panics_naming_it() {
    let table = Tensor::<f32, Shape![6, 2]>::zeros();
    let ids = Tensor::<usize, Shape![3]>::new([0, 6, 1]);
    let _ = tensor_expr!(embedding(ids, table));
}

#[test]
#[should_panic(expected = "index_select: id -1 is out of range for 4 rows (0..4)")]
fn a_negative_id_panics_naming_it() {
    let x = Tensor::<f32, Shape![3, 4]>::zeros();
    let ids = Tensor::<i32, Shape![2]>::new([1, -1]);
    let _ = tensor_expr!(index_select(x, ids, [1]));
}
