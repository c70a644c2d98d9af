//! `det`, `inv`, `solve`, `cholesky` and `cholesky_solve` against nalgebra
//! (values), against the residual bound backward stability gives (random and
//! ill-conditioned matrices), and their errors on singular and indefinite
//! matrices.

use nalgebra::SMatrix;
use tensor_expr::error::LinalgError;
use tensor_expr::prelude::*;

/// A deterministic pseudo-random value in [-1, 1) (SplitMix64's mixer, so
/// neighbouring seeds give unrelated values and random matrices are well
/// conditioned as a rule).
fn pseudo(seed: usize) -> f64 {
    let mut z = (seed as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

fn random<const N: usize>(seed: usize) -> Tensor<f64, (D<N>, D<N>)> {
    Tensor::from_flat_fn(|k| pseudo(seed * 1000 + k))
}

fn nalgebra<const N: usize>(a: &Tensor<f64, (D<N>, D<N>)>) -> SMatrix<f64, N, N> {
    SMatrix::from_row_slice(a.as_slice())
}

/// The largest `|A x - b|` over the elements, and the scale the bound is
/// relative to, `|A| |x|` (max-norms).
fn residual<const N: usize, const M: usize>(
    a: &Tensor<f64, (D<N>, D<N>)>,
    x: &Tensor<f64, (D<N>, D<M>)>,
    b: &Tensor<f64, (D<N>, D<M>)>,
) -> (f64, f64) {
    let ax = tensor_expr!(a @ x - b);
    let worst = ax.as_slice().iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let norm = |s: &[f64]| s.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    (worst, norm(a.as_slice()) * norm(x.as_slice()) * N as f64)
}

macro_rules! against_nalgebra {
    ($($n:literal),*) => {$(
        for seed in 0..20 {
            let a = random::<$n>(seed);
            let na = nalgebra(&a);
            // det: relative to the product of the row norms (Hadamard's bound).
            let scale: f64 = (0..$n).map(|i| na.row(i).norm()).product();
            assert!((a.det() - na.determinant()).abs() <= 1e-12 * scale, "det {}x{} seed {seed}", $n, $n);
            // inv: elementwise against nalgebra, relative to the inverse's size.
            let inverse = a.inv().unwrap();
            let na_inverse = na.try_inverse().unwrap();
            let size = na_inverse.amax();
            for (x, y) in inverse.as_slice().iter().zip(na_inverse.transpose().as_slice()) {
                assert!((x - y).abs() <= 1e-9 * size, "inv {}x{} seed {seed}: {x} vs {y}", $n, $n);
            }
            // solve: the residual bound of a backward-stable solve.
            let b = Tensor::<f64, (D<$n>, D<3>)>::from_flat_fn(|k| pseudo(seed * 7 + k + 500));
            let x = a.solve(&b).unwrap();
            let (worst, bound) = residual(&a, &x, &b);
            assert!(worst <= 8.0 * f64::EPSILON * bound, "solve {}x{} seed {seed}: {worst:e} > {bound:e}", $n, $n);
            // A vector right-hand side gives the first column's answer.
            let column = Tensor::<f64, (D<$n>,)>::from_fn(|[i]| b[[i, 0]]);
            let xv = a.solve(&column).unwrap();
            for i in 0..$n {
                assert!((xv[[i]] - x[[i, 0]]).abs() <= 1e-12 * (1.0 + x[[i, 0]].abs()));
            }
            // cholesky of A A^T + n I (symmetric positive definite).
            let spd = tensor_expr!(a @ transpose(a)).map(|v| *v);
            let spd = Tensor::<f64, (D<$n>, D<$n>)>::from_fn(|[i, j]| spd[[i, j]] + if i == j { $n as f64 } else { 0.0 });
            let l = spd.cholesky().unwrap();
            let na_l = nalgebra(&spd).cholesky().unwrap().l();
            for (x, y) in l.as_slice().iter().zip(na_l.transpose().as_slice()) {
                assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "cholesky {}x{} seed {seed}", $n, $n);
            }
            let xc = l.cholesky_solve(&b);
            let (worst, bound) = residual(&spd, &xc, &b);
            assert!(worst <= 16.0 * f64::EPSILON * bound, "cholesky_solve {}x{} seed {seed}", $n, $n);
        }
    )*};
}

#[test]
fn values_match_nalgebra_and_residuals_are_small() {
    // Up to 8 the factorisation's steps are written out; 9 and 12 loop.
    against_nalgebra!(2, 3, 4, 5, 6, 8, 9, 12);
}

#[test]
fn f32_inverse_times_the_matrix_is_the_identity() {
    let a = Tensor::<f32, Shape![4, 4]>::from_flat_fn(|k| {
        pseudo(k + 77) as f32 + if k % 5 == 0 { 2.0 } else { 0.0 }
    });
    let inverse = a.inv().unwrap();
    let product = tensor_expr!(a @ inverse);
    let eye = Tensor::<f32, Shape![4, 4]>::eye();
    for (p, e) in product.as_slice().iter().zip(eye.as_slice()) {
        assert!((p - e).abs() < 1e-5, "{p} vs {e}");
    }
}

/// The Hilbert matrix of order 6 (condition number about 1.5e7): the solve is
/// inaccurate in `x`, as for any method, but its residual stays at rounding
/// level, which is what partial pivoting promises.
#[test]
fn ill_conditioned_solves_keep_a_small_residual() {
    let h = Tensor::<f64, Shape![6, 6]>::from_fn(|[i, j]| 1.0 / (i + j + 1) as f64);
    let b = Tensor::<f64, Shape![6, 1]>::from_fn(|[i, _]| (i + 1) as f64);
    let b = Tensor::<f64, (D<6>, D<1>)>::try_from_slice(b.as_slice()).unwrap();
    let x = h.solve(&b).unwrap();
    let (worst, bound) = residual(&h, &x, &b);
    assert!(worst <= 8.0 * f64::EPSILON * bound, "{worst:e} > {bound:e}");
    // The exact inverse of a Hilbert matrix has integer entries; order 4's
    // corner is 16 and its centre 1200: close within the conditioning.
    let h4 = Tensor::<f64, Shape![4, 4]>::from_fn(|[i, j]| 1.0 / (i + j + 1) as f64);
    let inverse = h4.inv().unwrap();
    assert!((inverse[[0, 0]] - 16.0).abs() < 1e-9);
    assert!((inverse[[1, 1]] - 1200.0).abs() < 1e-7);
}

#[test]
fn singular_matrices_are_errors_naming_the_column() {
    let rank_one = Tensor::<f64, Shape![3, 3]>::from_fn(|[i, j]| ((i + 1) * (j + 1)) as f64);
    assert_eq!(
        rank_one.inv().unwrap_err(),
        LinalgError::Singular {
            matrix: None,
            column: 1
        }
    );
    assert_eq!(rank_one.det(), 0.0);
    let b = Tensor::<f64, Shape![3]>::new([1.0, 2.0, 3.0]);
    assert!(matches!(
        rank_one.solve(&b),
        Err(LinalgError::Singular { .. })
    ));
    let zeros = Tensor::<f32, Shape![2, 2]>::zeros();
    assert_eq!(
        zeros.inv().unwrap_err(),
        LinalgError::Singular {
            matrix: None,
            column: 0
        }
    );
    assert_eq!(
        zeros.inv().unwrap_err().to_string(),
        "the matrix is singular: column 0 has no non-zero pivot"
    );
    // A permutation needs pivoting but is not singular: its inverse is its transpose.
    let p = Tensor::<f64, Shape![3, 3]>::new([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]);
    assert_eq!(
        p.inv().unwrap().as_slice(),
        tensor_expr!(transpose(p)).as_slice()
    );
    assert_eq!(p.det(), 1.0);
}

#[test]
fn indefinite_matrices_have_no_cholesky_factor() {
    let indefinite = Tensor::<f64, Shape![2, 2]>::new([[1.0, 2.0], [2.0, 1.0]]);
    assert_eq!(
        indefinite.cholesky().unwrap_err(),
        LinalgError::NotPositiveDefinite {
            matrix: None,
            column: 1
        }
    );
    let negative = Tensor::<f64, Shape![2, 2]>::new([[-1.0, 0.0], [0.0, 1.0]]);
    assert_eq!(
        negative.cholesky().unwrap_err(),
        LinalgError::NotPositiveDefinite {
            matrix: None,
            column: 0
        }
    );
    let nan = Tensor::<f64, Shape![2, 2]>::new([[f64::NAN, 0.0], [0.0, 1.0]]);
    assert!(nan.cholesky().is_err());
    // Only the lower triangle is read, as NumPy does.
    let lower_only = Tensor::<f64, Shape![2, 2]>::new([[4.0, 99.0], [2.0, 5.0]]);
    assert_eq!(
        lower_only.cholesky().unwrap().as_slice(),
        &[2.0, 0.0, 1.0, 2.0]
    );
}

#[test]
fn eye_and_diag() {
    assert_eq!(
        Tensor::<f64, Shape![3, 3]>::eye().as_slice(),
        &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    );
    let d = Tensor::<f32, Shape![2, 2]>::diag(&Tensor::new([2.0, 3.0]));
    assert_eq!(d.as_slice(), &[2.0, 0.0, 0.0, 3.0]);
    assert_eq!(d.det(), 6.0);
    assert_eq!(d.inv().unwrap().as_slice(), &[0.5, 0.0, 0.0, 1.0 / 3.0]);
}

/// A batch `[B, N, N]` gives each matrix's own result, and an error names
/// the matrix of the batch that failed (NumPy broadcasts `linalg` the same
/// way over leading dims).
#[test]
fn batches_give_each_matrix_its_result_and_name_the_failing_one() {
    const B: usize = 3;
    let matrices: [Tensor<f64, (D<3>, D<3>)>; B] = core::array::from_fn(|b| random::<3>(40 + b));
    let batch =
        Tensor::<f64, (D<B>, D<3>, D<3>)>::from_flat_fn(|k| matrices[k / 9].as_slice()[k % 9]);
    let rhs = Tensor::<f64, (D<B>, D<3>)>::from_flat_fn(|k| pseudo(900 + k));
    let (det, inv, x) = (
        batch.det(),
        batch.inv().unwrap(),
        batch.solve(&rhs).unwrap(),
    );
    // Symmetric positive definite: A A^T + I.
    let spd = Tensor::<f64, (D<B>, D<3>, D<3>)>::from_fn(|[b, i, j]| {
        let a = matrices[b].as_slice();
        (0..3).map(|k| a[i * 3 + k] * a[j * 3 + k]).sum::<f64>() + if i == j { 1.0 } else { 0.0 }
    });
    let factors = spd.cholesky().unwrap();
    for (b, a) in matrices.iter().enumerate() {
        assert_eq!(det[[b]], a.det());
        assert_eq!(&inv.as_slice()[b * 9..][..9], a.inv().unwrap().as_slice());
        let column = Tensor::<f64, (D<3>,)>::from_flat_fn(|i| rhs.as_slice()[b * 3 + i]);
        assert_eq!(
            &x.as_slice()[b * 3..][..3],
            a.solve(&column).unwrap().as_slice()
        );
        let own = Tensor::<f64, (D<3>, D<3>)>::from_flat_fn(|k| spd.as_slice()[b * 9 + k]);
        assert_eq!(
            &factors.as_slice()[b * 9..][..9],
            own.cholesky().unwrap().as_slice()
        );
    }
    // Matrix 2 singular (two equal rows of exact values), matrix 1 indefinite.
    let mut failing = batch;
    for (k, value) in [1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        .into_iter()
        .enumerate()
    {
        failing[[2, k / 3, k % 3]] = value;
    }
    let error = failing.inv().unwrap_err();
    assert!(
        matches!(
            error,
            LinalgError::Singular {
                matrix: Some(2),
                ..
            }
        ),
        "{error}"
    );
    assert!(error
        .to_string()
        .starts_with("matrix 2 of the batch is singular"));
    assert!(matches!(
        failing.solve(&rhs),
        Err(LinalgError::Singular {
            matrix: Some(2),
            ..
        })
    ));
    let mut indefinite = spd;
    indefinite[[1, 0, 0]] = -1.0;
    assert_eq!(
        indefinite.cholesky().unwrap_err(),
        LinalgError::NotPositiveDefinite {
            matrix: Some(1),
            column: 0
        }
    );
}

/// `inv`, `det`, `cholesky`, `solve` and `cholesky_solve` inside
/// `tensor_expr!`: the same values as the methods, fused into the rest of
/// the expression; an expression holding one that can fail returns a
/// `Result`, whose error is the method's.
#[test]
fn linalg_inside_expressions() -> Result<(), LinalgError> {
    let a = random::<4>(11);
    let eye = Tensor::<f64, Shape![4, 4]>::eye();
    let p = tensor_expr!(a @ transpose(a) + 4 * eye);
    let h = Tensor::<f64, Shape![2, 4]>::from_flat_fn(|k| pseudo(k + 77));
    let s = tensor_expr!(h @ p @ transpose(h));
    // The Kalman gain as the maths reads, against the methods step by step.
    let k = tensor_expr!(p @ transpose(h) @ inv(s))?;
    let (pht, s_inv) = (tensor_expr!(p @ transpose(h)), s.inv()?);
    assert_eq!(k, tensor_expr!(pht @ s_inv));
    // A determinant needs no `?`: it cannot fail.
    let d = tensor_expr!(det(p) * 2);
    assert_eq!(d.as_slice(), &[p.det() * 2.0]);
    let b = Tensor::<f64, Shape![4]>::from_flat_fn(|k| pseudo(k + 5));
    let x = p.solve(&b)?;
    assert_eq!(tensor_expr!(solve(p, b) + 1)?, tensor_expr!(x + 1));
    let l = tensor_expr!(cholesky(p))?;
    assert_eq!(l, p.cholesky()?);
    assert_eq!(tensor_expr!(cholesky_solve(l, b)), l.cholesky_solve(&b));
    // Positions of a fallible operation's value: a Result too.
    assert_eq!(tensor_expr!(argmax(inv(p), [1]))?, p.inv()?.argmax::<1>());
    // An expression input is evaluated first.
    let hht = tensor_expr!(h @ transpose(h));
    assert_eq!(tensor_expr!(inv(h @ transpose(h)))?, hht.inv()?);
    // Into a target; batches; a singular matrix ends the expression.
    let mut out = Tensor::<f64, Shape![4, 4]>::zeros();
    tensor_expr!(out = inv(p) @ p)?;
    assert!((out[[2, 2]] - 1.0).abs() < 1e-12 && out[[0, 3]].abs() < 1e-12);
    let batch =
        Tensor::<f64, Shape![2, 2, 2]>::new([[[2.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]]);
    assert_eq!(tensor_expr!(det(batch)).as_slice(), &[8.0, 0.0]);
    let failed = tensor_expr!(inv(batch) * 2);
    assert_eq!(failed, Err(batch.inv().unwrap_err()));
    // A batch of systems, one vector each; and their Cholesky factors.
    let spd =
        Tensor::<f64, Shape![2, 2, 2]>::new([[[4.0, 1.0], [1.0, 3.0]], [[2.0, 0.5], [0.5, 5.0]]]);
    let rhs = Tensor::<f64, Shape![2, 2]>::new([[1.0, 2.0], [3.0, -1.0]]);
    let x = tensor_expr!(solve(spd, rhs))?;
    assert_eq!(x, spd.solve(&rhs)?);
    let y = tensor_expr!(cholesky_solve(cholesky(spd), rhs))?;
    for k in 0..2 {
        let factor =
            Tensor::<f64, Shape![2, 2]>::from_flat_fn(|i| spd.as_slice()[k * 4 + i]).cholesky()?;
        let column = Tensor::<f64, Shape![2]>::from_flat_fn(|i| rhs.as_slice()[k * 2 + i]);
        assert_eq!(
            &y.as_slice()[k * 2..][..2],
            factor.cholesky_solve(&column).as_slice()
        );
    }
    Ok(())
}

/// How each form judges one matrix: `inv`, `det`, `solve` and the batch of
/// one, which must all make the decision elimination makes.
#[derive(Debug, PartialEq)]
struct Verdicts {
    inv: bool,
    det_is_zero: bool,
    solve: bool,
    batch_inv: bool,
    batch_det_is_zero: bool,
}

fn verdicts<T: tensor_expr::element::Float, const N: usize>(values: &[T]) -> Verdicts {
    let a = Tensor::<T, (D<N>, D<N>)>::from_flat_fn(|k| values[k]);
    let batch = Tensor::<T, (D<1>, D<N>, D<N>)>::from_flat_fn(|k| values[k]);
    let b = Tensor::<T, (D<N>,)>::from_flat_fn(|_| T::ONE);
    Verdicts {
        inv: a.inv().is_ok(),
        det_is_zero: a.det() == T::ZERO,
        solve: a.solve(&b).is_ok(),
        batch_inv: batch.inv().is_ok(),
        batch_det_is_zero: batch.det().as_slice()[0] == T::ZERO,
    }
}

fn verdicts_of_size<T: tensor_expr::element::Float>(n: usize, values: &[T]) -> Verdicts {
    match n {
        2 => verdicts::<T, 2>(values),
        3 => verdicts::<T, 3>(values),
        4 => verdicts::<T, 4>(values),
        5 => verdicts::<T, 5>(values),
        6 => verdicts::<T, 6>(values),
        _ => panic!("no case of size {n}"),
    }
}

const SINGULAR: Verdicts = Verdicts {
    inv: false,
    det_is_zero: true,
    solve: false,
    batch_inv: false,
    batch_det_is_zero: true,
};

/// Matrices with a repeated row that `numpy.linalg.inv` refuses
/// (`tests/vectors/singular.py`; sizes 2 to 6, f32 and f64): every form
/// refuses them too, the closed forms of 2x2 to 4x4 included.
#[test]
fn matrices_numpy_finds_singular_are_singular_in_every_form() {
    let text = include_str!("vectors/singular.txt");
    let mut cases = 0;
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let dtype = words.next().unwrap();
        let n: usize = words.next().unwrap().parse().unwrap();
        let words: Vec<&str> = words.collect();
        assert_eq!(words.len(), n * n, "{line}");
        let found = match dtype {
            "float32" => {
                let values: Vec<f32> = words.iter().map(|w| w.parse().unwrap()).collect();
                verdicts_of_size(n, &values)
            }
            "float64" => {
                let values: Vec<f64> = words.iter().map(|w| w.parse().unwrap()).collect();
                verdicts_of_size(n, &values)
            }
            _ => panic!("unknown dtype in {line}"),
        };
        assert_eq!(found, SINGULAR, "{line}");
        cases += 1;
    }
    assert_eq!(cases, 81);
}

/// The reported case: an f32 3x3 with rows 0 and 2 equal, whose cofactor
/// determinant rounds to a tiny nonzero value.
#[test]
fn an_f32_matrix_with_two_equal_rows_has_no_inverse() {
    let row = [1.259_104_6_f32, -0.372_371_46, -0.757_605_8];
    let a = Tensor::<f32, Shape![3, 3]>::new([row, [-0.352_817, 3.083_199_5, 0.579_334_6], row]);
    assert_eq!(
        a.inv().unwrap_err(),
        LinalgError::Singular {
            matrix: None,
            column: 2
        }
    );
    assert_eq!(a.det(), 0.0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// A repeated row or column: singular in exact arithmetic. A repeated
    /// row is singular in every form; for a repeated column, whether
    /// rounding leaves elimination an exact zero pivot or not, every form
    /// makes the same decision.
    #[test]
    fn every_form_agrees_on_a_repeated_row_or_column(
        n in 2usize..=6,
        values in proptest::collection::vec(-4.0f64..4.0, 36),
        from in 0usize..6,
        to in 0usize..6,
        column in proptest::bool::ANY,
        single in proptest::bool::ANY,
    ) {
        let (from, to) = (from % n, to % n);
        proptest::prop_assume!(from != to);
        let mut a: Vec<f64> = values[..n * n].to_vec();
        for k in 0..n {
            if column {
                a[k * n + to] = a[k * n + from];
            } else {
                a[to * n + k] = a[from * n + k];
            }
        }
        let found = if single {
            let a: Vec<f32> = a.iter().map(|&x| x as f32).collect();
            verdicts_of_size(n, &a)
        } else {
            verdicts_of_size(n, &a)
        };
        let agreed = Verdicts {
            inv: found.inv,
            det_is_zero: !found.inv,
            solve: found.inv,
            batch_inv: found.inv,
            batch_det_is_zero: !found.inv,
        };
        if !column {
            proptest::prop_assert_eq!(&found, &SINGULAR);
        }
        proptest::prop_assert_eq!(found, agreed);
    }
}
