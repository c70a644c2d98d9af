//! The element-wise constructors, and a gather (`embedding`), against the
//! plain filling loop a user would write instead, in the same run and with the same flags. Prints ns/element
//! (median of timed batches) and the ratio `constructor / loop` (1.0: as fast;
//! the target is at most 1.2).
//!
//! `cargo bench --bench constructors` (and with `RUSTFLAGS="-C target-cpu=native"`).
//!
//! The loops write the same values into the same storage: a nested array on
//! the stack for `Tensor`, a vector for `HeapTensor`, with the index
//! arithmetic written out.

mod common;

use common::compare;
use std::hint::black_box;
use tensor_expr::prelude::*;

type Rows = Shape![368, 9];
const R: usize = 368;
const C: usize = 9;

fn main() {
    println!(
        "{:<40} {:>11} {:>11}  {:>9}",
        "case (ns/element)", "constructor", "plain loop", "ratio"
    );
    let row = |name: &str, times: Vec<f64>| {
        println!(
            "{name:<40} {:>11.4} {:>11.4}  {:>9.2}",
            times[0],
            times[1],
            times[0] / times[1]
        );
    };
    let scale = black_box(0.5f32);

    // `Tensor::from_fn`: the element from its multi-index.
    let times = compare(
        R * C,
        2000,
        &mut [
            &mut || {
                black_box(Tensor::<f32, Rows>::from_fn(|[i, j]| {
                    (i * C + j) as f32 * scale
                }));
            },
            &mut || {
                let mut data = [[0.0f32; C]; R];
                for (i, row) in data.iter_mut().enumerate() {
                    for (j, x) in row.iter_mut().enumerate() {
                        *x = (i * C + j) as f32 * scale;
                    }
                }
                black_box(Tensor::<f32, Rows>::new(data));
            },
        ],
    );
    row("Tensor::from_fn [368, 9]", times);

    // `Tensor::from_flat_fn`: the element from its row-major position.
    let times = compare(
        R * C,
        2000,
        &mut [
            &mut || {
                black_box(Tensor::<f32, Rows>::from_flat_fn(|k| k as f32 * scale));
            },
            &mut || {
                let mut data = [[0.0f32; C]; R];
                for (k, x) in data.as_flattened_mut().iter_mut().enumerate() {
                    *x = k as f32 * scale;
                }
                black_box(Tensor::<f32, Rows>::new(data));
            },
        ],
    );
    row("Tensor::from_flat_fn [368, 9]", times);

    // `Tensor::try_from_slice`: a copy of row-major data.
    let source: Vec<f32> = (0..R * C).map(|k| k as f32).collect();
    let times = compare(
        R * C,
        2000,
        &mut [
            &mut || {
                black_box(Tensor::<f32, Rows>::try_from_slice(black_box(&source)).unwrap());
            },
            &mut || {
                let mut data = [[0.0f32; C]; R];
                data.as_flattened_mut().copy_from_slice(black_box(&source));
                black_box(Tensor::<f32, Rows>::new(data));
            },
        ],
    );
    row("Tensor::try_from_slice [368, 9]", times);

    // `Tensor::full`, `map` and `cast`.
    let times = compare(
        R * C,
        2000,
        &mut [
            &mut || {
                black_box(Tensor::<f32, Rows>::full(black_box(scale)));
            },
            &mut || {
                black_box(Tensor::<f32, Rows>::new([[black_box(scale); C]; R]));
            },
        ],
    );
    row("Tensor::full [368, 9]", times);
    let x = Tensor::<f32, Rows>::try_from_slice(&source).unwrap();
    let times = compare(
        R * C,
        2000,
        &mut [
            &mut || {
                black_box(black_box(&x).map(|v| v * 2.0 + 1.0));
            },
            &mut || {
                let mut data = [[0.0f32; C]; R];
                for (out, v) in data
                    .as_flattened_mut()
                    .iter_mut()
                    .zip(black_box(&x).as_slice())
                {
                    *out = v * 2.0 + 1.0;
                }
                black_box(Tensor::<f32, Rows>::new(data));
            },
        ],
    );
    row("Tensor::map [368, 9]", times);
    let times = compare(
        R * C,
        2000,
        &mut [
            &mut || {
                black_box(black_box(&x).cast::<i32>());
            },
            &mut || {
                let mut data = [[0i32; C]; R];
                for (out, v) in data
                    .as_flattened_mut()
                    .iter_mut()
                    .zip(black_box(&x).as_slice())
                {
                    *out = *v as i32;
                }
                black_box(Tensor::<i32, Rows>::new(data));
            },
        ],
    );
    row("Tensor::cast::<i32> [368, 9]", times);

    // `StridedView::to_tensor` / `to_heap`: 46 of 64 columns of each row.
    let wide = HeapTensor::<f32, Shape![64, 64]>::from_flat_fn(|k| k as f32);
    let copy_columns = |out: &mut [f32]| {
        for (i, out_row) in out.chunks_exact_mut(46).enumerate() {
            out_row.copy_from_slice(&wide.as_slice()[i * 64..i * 64 + 46]);
        }
    };
    let times = compare(
        64 * 46,
        4000,
        &mut [
            &mut || {
                black_box(black_box(&wide).narrow::<1, 0, 46>().to_tensor());
            },
            &mut || {
                let mut data = [[0.0f32; 46]; 64];
                copy_columns(data.as_flattened_mut());
                black_box(Tensor::<f32, Shape![64, 46]>::new(data));
            },
        ],
    );
    row("StridedView::to_tensor [64, 46] of 64", times);
    let times = compare(
        64 * 46,
        4000,
        &mut [
            &mut || {
                black_box(black_box(&wide).narrow::<1, 0, 46>().to_heap());
            },
            &mut || {
                let mut data = vec![0.0f32; 64 * 46];
                copy_columns(&mut data);
                black_box(data);
            },
        ],
    );
    row("StridedView::to_heap [64, 46] of 64", times);
    // A column: the inner stride is 4.
    let tall = HeapTensor::<f32, Shape![4096, 4]>::from_flat_fn(|k| k as f32);
    let times = compare(
        4096,
        2000,
        &mut [
            &mut || {
                black_box(black_box(&tall).index_axis::<1>(1).to_tensor());
            },
            &mut || {
                let mut data = [0.0f32; 4096];
                for (i, x) in data.iter_mut().enumerate() {
                    *x = tall.as_slice()[i * 4 + 1];
                }
                black_box(Tensor::<f32, Shape![4096]>::new(data));
            },
        ],
    );
    row("StridedView::to_tensor, column of [4096, 4]", times);

    // `HeapTensor::from_fn` and `from_flat_fn` over 1 MiB of f32.
    type Big = Shape![512, 512];
    let times = compare(
        512 * 512,
        40,
        &mut [
            &mut || {
                black_box(HeapTensor::<f32, Big>::from_fn(|[i, j]| {
                    (i * 512 + j) as f32 * scale
                }));
            },
            &mut || {
                let mut data = vec![0.0f32; 512 * 512];
                for (i, row) in data.chunks_exact_mut(512).enumerate() {
                    for (j, x) in row.iter_mut().enumerate() {
                        *x = (i * 512 + j) as f32 * scale;
                    }
                }
                black_box(data);
            },
        ],
    );
    row("HeapTensor::from_fn [512, 512]", times);
    let times = compare(
        512 * 512,
        40,
        &mut [
            &mut || {
                black_box(HeapTensor::<f32, Big>::from_flat_fn(|k| k as f32 * scale));
            },
            &mut || {
                let data: Vec<f32> = (0..512 * 512usize).map(|k| k as f32 * scale).collect();
                black_box(data);
            },
        ],
    );
    row("HeapTensor::from_flat_fn [512, 512]", times);

    // A token embedding: 32 rows of 64 picked from a [1000, 64] table by id,
    // into a tensor, against the loop that copies each row.
    let table = Tensor::<f32, Shape![1000, 64]>::from_flat_fn(|k| k as f32 * scale);
    let ids = Tensor::<u32, Shape![32]>::from_flat_fn(|k| (k as u32 * 397) % 1000);
    let (mut out, mut hand) = (
        Tensor::<f32, Shape![32, 64]>::zeros(),
        Tensor::<f32, Shape![32, 64]>::zeros(),
    );
    tensor_expr!(out = embedding(ids, table));
    for (row, &id) in hand.as_mut_slice().chunks_exact_mut(64).zip(ids.as_slice()) {
        row.copy_from_slice(&table.as_slice()[id as usize * 64..][..64]);
    }
    assert_eq!(out, hand);
    let times = compare(
        32 * 64,
        20000,
        &mut [
            &mut || {
                tensor_expr!(out = embedding({ black_box(&ids) }, table));
                black_box(&mut out);
            },
            &mut || {
                let (ids, data) = (black_box(ids.as_slice()), table.as_slice());
                for (row, &id) in hand.as_mut_slice().chunks_exact_mut(64).zip(ids) {
                    row.copy_from_slice(&data[id as usize * 64..][..64]);
                }
                black_box(&mut hand);
            },
        ],
    );
    row("embedding [32] of [1000, 64] (copy)", times);
}
