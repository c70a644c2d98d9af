//! The stack a call of each example program takes, in a release build of
//! the default target (`tests/models/programs.rs` measures it by painting
//! the stack), against its bound: its arena plus 2,048 B with the arena on
//! the program's stack, and 2,048 B with the arena lent. Prints each
//! program's figures and the instruction-set level they ran at; exits with
//! 1 if one is over its bound.

#[path = "../../models/kws.rs"]
#[allow(dead_code)]
mod kws;
#[path = "../../models/programs.rs"]
#[allow(dead_code)] // the heap figure: the example counts it
mod planned;

use tensor_expr::prelude::*;

fn main() {
    let value = |seed: usize| ((seed.wrapping_mul(2654435761) >> 7) % 1000) as f32 / 1000.0 - 0.5;
    let w1 = HeapTensor::<f32, Shape![784, 128]>::from_flat_fn(value);
    let b1 = Tensor::<f32, Shape![128]>::from_flat_fn(|i| value(i + 1));
    let w2 = HeapTensor::<f32, Shape![128, 10]>::from_flat_fn(|i| value(i + 2));
    let b2 = Tensor::<f32, Shape![10]>::from_flat_fn(|i| value(i + 3));
    let memory =
        planned::on_a_large_stack(|| planned::memory_of_programs((&w1, &b1, &w2, &b2), None));
    println!("level {}", tensor_expr::isa::selected().name());
    let mut over = false;
    for memory in &memory {
        let lent = memory
            .lent
            .map_or(String::new(), |lent| format!(", lent {lent} B"));
        let within = memory.within_bounds();
        over |= !within;
        println!(
            "{}: arena {} B, stack {} B{lent}: {}",
            memory.program,
            memory.arena,
            memory.on_stack,
            if within {
                "within its bound"
            } else {
                "OVER its bound"
            }
        );
    }
    std::process::exit(i32::from(over));
}
