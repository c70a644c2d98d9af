//! `#[tensor_expr::program]`: the planned function computes what its
//! statements compute written separately, its tensors share the arena as
//! their lifetimes allow, and `cargo check` knows the arena's size.

use proptest::prelude::*;
use tensor_expr::__private::program::{peak, plan, Lifetime};
use tensor_expr::prelude::*;

type V = Shape![64];

/// Four tensors of 256 B in a chain, each of `b`, `c` and `d` elementwise
/// over inputs of its size: `c` reads `b` last and `d` reads `a` last, so
/// each is written in place of that input.
#[tensor_expr::program]
fn chain(x: &Tensor<f32, V>, w: &Tensor<f32, V>) -> Tensor<f32, V> {
    let a = tensor_expr!(x * 2.0 + w);
    let b = tensor_expr!(relu(a - 1.0));
    let c = tensor_expr!(b * b);
    let d = tensor_expr!(c + a);
    tensor_expr!(d - x)
}

fn chain_written_separately(x: &Tensor<f32, V>, w: &Tensor<f32, V>) -> Tensor<f32, V> {
    let a = tensor_expr!(x * 2.0 + w);
    let b = tensor_expr!(relu(a - 1.0));
    let c = tensor_expr!(b * b);
    let d = tensor_expr!(c + a);
    tensor_expr!(d - x)
}

// Known to `cargo check`: `a` and `b` alive at `b`'s statement, then `c`
// in `b`'s bytes (`a` alive) and `d` in `a`'s.
const _: () = assert!(CHAIN_ARENA_BYTES == 2 * 256);

#[test]
fn a_program_computes_what_its_statements_compute() {
    let x = Tensor::<f32, V>::from_fn(|[i]| i as f32 * 0.25 - 3.0);
    let w = Tensor::<f32, V>::from_fn(|[i]| 1.0 - i as f32 * 0.125);
    let expected = chain_written_separately(&x, &w);
    assert_eq!(chain(&x, &w).as_slice(), expected.as_slice());
    let mut arena = tensor_expr::Arena::<CHAIN_ARENA_BYTES>::new();
    assert_eq!(chain_in(&x, &w, &mut arena).as_slice(), expected.as_slice());
}

/// A name bound anew, in place updates through a planned tensor, other
/// statements between the planned ones, and a tensor read by a format
/// string only.
#[tensor_expr::program]
fn rebinding(x: &Tensor<f32, V>) -> (Tensor<f32, V>, usize) {
    let a = tensor_expr!(x + 1.0);
    let a = tensor_expr!(a * a);
    let mut count = 0;
    for v in a.as_slice() {
        count += usize::from(*v > 4.0);
    }
    let b = tensor_expr!(a - 2.0);
    tensor_expr!(b += x);
    let text = format!("{b:?}");
    let _unread = tensor_expr!(b * 2.0);
    (tensor_expr!(a + x), text.len() + count)
}

fn rebinding_written_separately(x: &Tensor<f32, V>) -> (Tensor<f32, V>, usize) {
    let a = tensor_expr!(x + 1.0);
    let a = tensor_expr!(a * a);
    let count = a.as_slice().iter().filter(|v| **v > 4.0).count();
    let mut b = tensor_expr!(a - 2.0);
    tensor_expr!(b += x);
    let text = format!("{b:?}");
    (tensor_expr!(a + x), text.len() + count)
}

#[test]
fn rebound_names_updates_and_other_statements_keep_their_meaning() {
    let x = Tensor::<f32, V>::from_fn(|[i]| i as f32 * 0.125 - 2.0);
    let (found, n) = rebinding(&x);
    let (expected, m) = rebinding_written_separately(&x);
    assert_eq!(found.as_slice(), expected.as_slice());
    assert_eq!(n, m);
    // a, a (the second in the first's bytes: it reads it last, element by
    // element), b (beside it: the result reads `a`), `_unread` (in `b`'s
    // bytes, which it reads last): two slots.
    assert_eq!(REBINDING_ARENA_BYTES, 2 * 256);
}

/// A local macro that names a tensor keeps it alive to the end: `first!()`
/// reads `a` where no token names it.
#[tensor_expr::program]
fn through_a_macro(x: &Tensor<f32, V>) -> f32 {
    let a = tensor_expr!(x * 2.0);
    macro_rules! first {
        () => {
            a[[0]]
        };
    }
    let b = tensor_expr!(x + 1.0);
    let c = tensor_expr!(b * 3.0);
    c[[0]] + first!()
}

#[test]
fn a_tensor_named_by_a_local_macro_lives_to_the_end() {
    let x = Tensor::<f32, V>::full(1.0);
    assert_eq!(through_a_macro(&x), 2.0 + 6.0);
    // `a` to the end, `c` in `b`'s bytes.
    assert_eq!(THROUGH_A_MACRO_ARENA_BYTES, 2 * 256);
}

/// Twelve tensors of random sizes, alignments and lifetimes.
fn lifetimes() -> impl Strategy<Value = [Lifetime; 12]> {
    let one =
        (0usize..3000, 0u32..7, 0usize..20, 0usize..6).prop_map(|(bytes, align, first, span)| {
            Lifetime {
                bytes,
                align: 1 << align,
                first,
                last: first + span,
            }
        });
    proptest::array::uniform12(one)
}

proptest! {
    /// The plan never gives two tensors alive at one statement a common
    /// byte, aligns each, ends where its last tensor ends, and needs no less
    /// than the most bytes alive at one statement.
    #[test]
    fn the_plan_never_overlaps_two_live_tensors(tensors in lifetimes()) {
        let p = plan(&tensors);
        for a in 0..12 {
            prop_assert_eq!(p.offsets[a] % tensors[a].align, 0);
            prop_assert!(p.offsets[a] + tensors[a].bytes <= p.bytes);
            for b in 0..a {
                let (x, y) = (&tensors[a], &tensors[b]);
                if x.overlaps_in_time(y) && x.bytes > 0 && y.bytes > 0 {
                    let (ox, oy) = (p.offsets[a], p.offsets[b]);
                    prop_assert!(ox + x.bytes <= oy || oy + y.bytes <= ox, "{} and {} overlap: {:?}", a, b, p);
                }
            }
        }
        let end = (0..12).map(|k| p.offsets[k] + tensors[k].bytes).max().unwrap();
        prop_assert_eq!(p.bytes, end);
        prop_assert!(p.bytes >= peak(&tensors));
    }
}

type M = Shape![4, 4];

/// A product chain's first product is a stage (`c @ b`, evaluated first);
/// in a program it is placed in the arena, not on the stack, apart from
/// the tensors alive at its statement: `c`, which it reads, and `d`, which
/// reads it (128 B each).
#[tensor_expr::program]
fn one_stage(a: &Tensor<f64, M>, b: &Tensor<f64, M>) -> Tensor<f64, M> {
    let c = tensor_expr!(a + 1.0);
    let d = tensor_expr!(c @ b @ a);
    tensor_expr!(d * 2.0)
}

/// Stages in planned statements and in the result, next to statements the
/// plan does not place (a fallible product with `?`, an assignment, a
/// statement whose operand block has a `return`), which run out of line.
#[tensor_expr::program]
fn staged(
    a: &Tensor<f64, M>,
    b: &Tensor<f64, M>,
    v: &Tensor<f64, Shape![4]>,
    out: &mut Tensor<f64, M>,
) -> Result<Tensor<f64, M>, tensor_expr::LinalgError> {
    let c = tensor_expr!(a @ b @ transpose(a) + b);
    let d = tensor_expr!(softmax(c @ a, [1]) * 2.0 + b @ c @ a);
    let e = tensor_expr!(c @ inv(d))?;
    tensor_expr!(out = e @ b @ a + d);
    let w = tensor_expr!(d @ v + v);
    // Kept inline: a closure would change what `return` returns from.
    tensor_expr!(
        out += {
            if v[[0]] > 1e9 {
                return Ok(Tensor::zeros());
            }
            v
        }
    );
    Ok(tensor_expr!(a @ e @ b + w))
}

fn staged_written_separately(
    a: &Tensor<f64, M>,
    b: &Tensor<f64, M>,
    v: &Tensor<f64, Shape![4]>,
    out: &mut Tensor<f64, M>,
) -> Result<Tensor<f64, M>, tensor_expr::LinalgError> {
    let c = tensor_expr!(a @ b @ transpose(a) + b);
    let d = tensor_expr!(softmax(c @ a, [1]) * 2.0 + b @ c @ a);
    let e = tensor_expr!(c @ inv(d))?;
    tensor_expr!(out = e @ b @ a + d);
    let w = tensor_expr!(d @ v + v);
    tensor_expr!(out += v);
    Ok(tensor_expr!(a @ e @ b + w))
}

#[test]
fn stages_live_in_the_arena_and_other_statements_keep_their_meaning() {
    let a =
        Tensor::<f64, M>::from_fn(|[i, j]| ((i * 4 + j) as f64 * 0.37).sin() + f64::from(i == j));
    let b = Tensor::<f64, M>::from_fn(|[i, j]| ((i + 2 * j) as f64 * 0.21).cos());
    let v = Tensor::<f64, Shape![4]>::from_fn(|[i]| i as f64 - 1.5);
    let (mut out, mut out_separately) = (Tensor::zeros(), Tensor::zeros());
    let found = staged(&a, &b, &v, &mut out).unwrap();
    let expected = staged_written_separately(&a, &b, &v, &mut out_separately).unwrap();
    assert_eq!(found.as_slice(), expected.as_slice());
    assert_eq!(out.as_slice(), out_separately.as_slice());

    let expected = tensor_expr!((a + 1.0) @ b @ a * 2.0);
    assert_eq!(one_stage(&a, &b).as_slice(), expected.as_slice());
    assert_eq!(ONE_STAGE_TENSOR_BYTES, 2 * 128);
    assert_eq!(ONE_STAGE_ARENA_BYTES, 3 * 128);
}

/// Elementwise results in the bytes of an input of their size that they
/// read last, as TinyEngine writes its layers in place: `b` in `a`'s, `c`
/// (a shape with a leading one, the same elements in the same order) in
/// `b`'s, and `e` in `c`'s, although `d` reads `c` after `e`'s statement.
#[tensor_expr::program]
fn in_place(x: &Tensor<f32, V>, row: &Tensor<f32, Shape![1, 64]>) -> Tensor<f32, Shape![1, 64]> {
    let a = tensor_expr!(x * 0.5 - 1.0);
    let b = tensor_expr!(exp(a) - max(a, 0.0) * a);
    let c = tensor_expr!(b * row);
    let d = tensor_expr!(-c);
    let e = tensor_expr!(select(d > 0.0, c, d) + d);
    tensor_expr!(e * 2.0)
}

/// Not in place: a result larger than its input (broadcast), a product's,
/// a reduction's, and one whose input a later statement reads.
#[tensor_expr::program]
fn beside(
    x: &Tensor<f32, V>,
    m: &Tensor<f32, Shape![4, 64]>,
    w: &Tensor<f32, Shape![64, 64]>,
) -> Tensor<f32, Shape![4, 64]> {
    let a = tensor_expr!(x + 1.0);
    let b = tensor_expr!(a + m);
    let c = tensor_expr!(b @ w);
    let d = tensor_expr!(c - sum(c, [1], keepdim));
    let e = tensor_expr!(d * 2.0);
    tensor_expr!(e + d)
}

/// The same for integers: `b` in `a`'s bytes.
#[tensor_expr::program]
fn in_place_integers(x: &Tensor<i32, V>) -> Tensor<i32, V> {
    let a = tensor_expr!(x * 3 + 1);
    let b = tensor_expr!(max(a - 100, 0) >> 1);
    tensor_expr!(b + x)
}

#[test]
fn results_are_written_in_place_of_inputs_they_read_last_element_by_element() {
    let x = Tensor::<f32, V>::from_fn(|[i]| i as f32 * 0.25 - 7.0);
    let row = Tensor::<f32, Shape![1, 64]>::from_fn(|[_, j]| 1.5 - j as f32 * 0.0625);
    let a = tensor_expr!(x * 0.5 - 1.0);
    let b = tensor_expr!(exp(a) - max(a, 0.0) * a);
    let c = tensor_expr!(b * row);
    let d = tensor_expr!(-c);
    let e = tensor_expr!(select(d > 0.0, c, d) + d);
    assert_eq!(
        in_place(&x, &row).as_slice(),
        tensor_expr!(e * 2.0).as_slice()
    );
    // One slot for `a`, `b`, `c` and `e`, one for `d`.
    assert_eq!(IN_PLACE_TENSOR_BYTES, 2 * 256);

    let m = Tensor::<f32, Shape![4, 64]>::from_fn(|[i, j]| (i * 64 + j) as f32 * 0.01);
    let w = Tensor::<f32, Shape![64, 64]>::from_fn(|[i, j]| (i as f32 - j as f32) * 0.001);
    let a = tensor_expr!(x + 1.0);
    let b = tensor_expr!(a + m);
    let c = tensor_expr!(b @ w);
    let d = tensor_expr!(c - sum(c, [1], keepdim));
    let e = tensor_expr!(d * 2.0);
    assert_eq!(
        beside(&x, &m, &w).as_slice(),
        tensor_expr!(e + d).as_slice()
    );
    // `a` and `b`, `b` and `c`, `c` and `d`, `d` and `e`: 1,024 B each
    // but `a`, two at each statement.
    assert_eq!(BESIDE_TENSOR_BYTES, 2 * 1024);

    let n = Tensor::<i32, V>::from_fn(|[i]| i as i32 * 7 - 50);
    let a = tensor_expr!(n * 3 + 1);
    let b = tensor_expr!(max(a - 100, 0) >> 1);
    assert_eq!(
        in_place_integers(&n).as_slice(),
        tensor_expr!(b + n).as_slice()
    );
    assert_eq!(IN_PLACE_INTEGERS_TENSOR_BYTES, 256);
}
