//! MLPerf Tiny's int8 keyword spotter (`tests/models/kws.rs`, one
//! `tensor_expr!` statement per TFLite operator): us per inference, one
//! thread, on the first input of `tests/vectors/kws.txt`, its outputs
//! checked against TFLite Micro's first; and the same statements as a
//! program (`kws::kws_in`, its tensors in one planned arena).
//!
//! `cargo bench --bench kws` prints this library's time alone;
//! `benches/kws_litert.py` runs it beside LiteRT's XNNPACK (one thread)
//! and TFLite Micro on the same model and input, and prints the ratios.

mod common;
#[path = "../tests/models/kws.rs"]
mod kws;

use common::compare;
use std::hint::black_box;
use tensor_expr::prelude::*;

fn main() {
    let model = kws::Kws::load();
    let x: Vec<i8> = kws::values("x")[..490].iter().map(|&v| v as i8).collect();
    let x = Tensor::<i8, kws::Input>::try_from_slice(&x).unwrap();
    let expected: Vec<i8> = kws::values("y")[..12].iter().map(|&v| v as i8).collect();
    assert_eq!(
        model.run(&x).1.as_slice(),
        &expected[..],
        "not TFLite Micro's output"
    );
    assert_eq!(kws::kws(&x, &model).1.as_slice(), &expected[..]);
    let mut arena = tensor_expr::Arena::<{ kws::KWS_ARENA_BYTES }>::new();
    let times = compare(
        1,
        200,
        &mut [
            &mut || {
                black_box(model.run(black_box(&x)));
            },
            &mut || {
                black_box(kws::kws_in(black_box(&x), &model, &mut arena));
            },
        ],
    );
    println!("kws tensor-expr {:.1} us per inference", times[0] / 1000.0);
    println!(
        "kws as a program (its arena lent) {:.1} us per inference: {:.2}x the statements run separately",
        times[1] / 1000.0,
        times[0] / times[1]
    );
}
