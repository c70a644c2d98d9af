#!/usr/bin/env bash
# The flash each MLPerf Tiny model takes when imported: the code and the
# read-only data (weights, biases, multipliers) that `invoke_in` links into
# a `#![no_std]` program without an allocator, built as a microcontroller
# build would be (opt-level "s", LTO, one codegen unit, `panic = "abort"`),
# against the `.tflite` file's size.
#
# For each model, a freestanding program (no C runtime: `_start` calls the
# model's `invoke_in` once on a zero input, its arena a `static`) is built
# with that model alone, and once with none; the figures are the
# differences of `.text` (code), `.rodata` + `.data` (constants) and `.bss`
# (the arena) between the two. The host is x86-64: the code is x86-64
# code at the compile-time target's level (SSE2, no run-time dispatch
# without std), not a microcontroller's; its size is the comparable part,
# the weights are the same bytes on any target.
#
# Usage: tflite/models/flash.sh        (a few minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")"
models=$(pwd)
root=$(cd ../.. && pwd)
dir=$root/target/flash
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "flash-probe"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
tensor-expr = { path = "$root", default-features = false }
tensor-expr-tflite-models = { path = "$models", default-features = false }

[features]
kws = []
resnet = []
vww = []
anomaly = []

[profile.release]
opt-level = "s"
lto = true
codegen-units = 1
panic = "abort"
TOML
cat > "$dir/src/main.rs" <<'RUST'
//! One model's `invoke_in`, linked alone into a freestanding program
//! (`tflite/models/flash.sh` measures its size; it is not run).
#![no_std]
#![no_main]

/// Runs model `$m` once on a zero input, its arena a `static`.
#[allow(unused_macros)]
macro_rules! invoke {
    ($m:ident) => {{
        use tensor_expr_tflite_models::$m;
        static mut ARENA: tensor_expr::Arena<{ $m::ARENA_BYTES }> = tensor_expr::Arena::new();
        let input = core::hint::black_box(tensor_expr::Tensor::<_, $m::Input>::zeros());
        // SAFETY: `_start` runs once, on one thread: the only reference.
        let arena = unsafe { &mut *core::ptr::addr_of_mut!(ARENA) };
        core::hint::black_box($m::invoke_in(&input, arena));
    }};
}

#[no_mangle]
pub extern "C" fn _start() -> ! {
    #[cfg(feature = "kws")]
    invoke!(kws);
    #[cfg(feature = "resnet")]
    invoke!(resnet);
    #[cfg(feature = "vww")]
    invoke!(vww);
    #[cfg(feature = "anomaly")]
    invoke!(anomaly);
    #[allow(clippy::empty_loop)]
    loop {}
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
RUST
cd "$dir"
# Sections of the program built with `$1` (a feature, or none).
sections() {
    local features=()
    [[ -n $1 ]] && features=(--features "$1")
    # `-lc` only for `memcpy` and its kin, linked dynamically: their code is
    # not in the program's sections.
    cargo rustc --quiet --release "${features[@]}" -- \
        -C link-arg=-nostartfiles -C link-arg=-lc
    size -A target/release/flash-probe |
        awk '$1 == ".text" { t = $2 } $1 == ".rodata" || $1 == ".data" { d += $2 }
             $1 == ".bss" { b = $2 } END { print t + 0, d + 0, b + 0 }'
}
read -r text0 data0 bss0 < <(sections "")
printf '%-8s %10s %10s %12s %10s %12s %8s\n' model "code B" "consts B" "code+consts" ".tflite B" "flash/file" "arena B"
for model in kws resnet vww anomaly; do
    read -r text data bss < <(sections "$model")
    code=$((text - text0))
    consts=$((data - data0))
    file=$(stat -c %s "$models/tflite/$model.tflite")
    awk -v m="$model" -v c="$code" -v d="$consts" -v f="$file" -v a=$((bss - bss0)) \
        'BEGIN { printf "%-8s %10d %10d %12d %10d %11.2fx %8d\n", m, c, d, c + d, f, (c + d) / f, a }'
done
