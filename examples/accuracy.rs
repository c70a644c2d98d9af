//! Accuracy of the float functions over EVERY f32 input (all 2^32 bit
//! patterns) and densely sampled f64 inputs: the max error in ulp per function,
//! and where it is. The test suite checks a sample of the same table
//! (`tests/float_functions.rs`); this is the full run, about ten minutes on two
//! cores:
//!
//! ```sh
//! cargo run --release --example accuracy            # every function
//! cargo run --release --example accuracy -- exp ln  # some
//! cargo run --release --example accuracy -- f64     # one section
//! ```

#[path = "../tests/common/accuracy.rs"]
mod accuracy;

use accuracy::{f32_cases, f64_cases, f64_samples, worst_f32, worst_f64};
use std::thread;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let section = |name: &str| {
        !args.iter().any(|a| a == "f32" || a == "f64") || args.iter().any(|a| a == name)
    };
    let only: Vec<&String> = args.iter().filter(|a| *a != "f32" && *a != "f64").collect();
    let chosen = |name: &str| only.is_empty() || only.iter().any(|o| *o == name);
    let threads = thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    println!("f32, every input (against std's f64 at the same input):");
    println!("| function | max ulp | at | bound in tests |");
    println!("| --- | ---: | --- | ---: |");
    for (index, case) in f32_cases().iter().enumerate() {
        if !section("f32") || !chosen(case.name) {
            continue;
        }
        let chunk = (1u64 << 32) / threads;
        let worst = thread::scope(|scope| {
            let parts: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        let case = &f32_cases()[index];
                        let (start, end) = (
                            t * chunk,
                            if t + 1 == threads {
                                1 << 32
                            } else {
                                (t + 1) * chunk
                            },
                        );
                        worst_f32(case, (start..end).map(|bits| f32::from_bits(bits as u32)))
                    })
                })
                .collect();
            parts
                .into_iter()
                .map(|part| part.join().expect("a worker"))
                .fold((0.0, 0.0), |a: (f64, f32), b| if b.0 > a.0 { b } else { a })
        });
        let scope = if case.name == "sin" || case.name == "cos" {
            " (|x| <= 1e7)"
        } else {
            ""
        };
        println!(
            "| {}{scope} | {:.3} | {:e} | {} |",
            case.name, worst.0, worst.1, case.bound
        );
    }
    println!();
    println!("f64, 20 million inputs each (against std's f64 functions):");
    println!("| function | max ulp | at | bound in tests |");
    println!("| --- | ---: | --- | ---: |");
    for case in f64_cases()
        .into_iter()
        .filter(|case| section("f64") && chosen(case.name))
    {
        let (error, at) = worst_f64(&case, f64_samples(20_000_000, 0x2545_f491_4f6c_dd1d));
        let scope = if case.name == "sin" || case.name == "cos" {
            " (|x| <= 1e9)"
        } else {
            ""
        };
        println!(
            "| {}{scope} | {error:.3} | {at:e} | {} |",
            case.name, case.bound
        );
    }
}
