#!/usr/bin/env bash
# Compile-time budget: generates a crate of 200 distinct tensor expressions
# (broadcasts, functions, in-place updates, in_dims, matrix products with
# epilogues, over varied shapes), builds its dependencies once, then times
# `cargo check` of that crate alone (best of 3, from a clean state of the
# crate). Target: under 3 s on a 2-core machine.
# Usage: benches/compile_time.sh [count]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200}
dir=target/compile_time
source benches/probe_crate.sh
probe_crate "$dir" compile-time-probe

{
    echo "//! $count generated tensor expressions (benches/compile_time.sh)."
    echo "#![allow(unused, clippy::all)]"
    echo "use tensor_expr::prelude::*;"
    for ((k = 0; k < count; k++)); do
        m=$((2 + k % 7)); n=$((3 + k % 11)); p=$((1 + k % 5))
        case $((k % 8)) in
            0) body="tensor_expr!(relu(a * $((k % 9 + 1)) + b))" ;;
            1) body="tensor_expr!(exp(a - b) / (a + 2.5))" ;;
            2) body="tensor_expr!(max(a, b) * sigmoid(a) - min(a, 0.5))" ;;
            3) body="{ let mut o = a; tensor_expr!(o += b * $k); o }" ;;
            4) body="tensor_expr!(a + in_dims(c, [0]))" ;;
            5) body="tensor_expr!(relu(a @ w + b))" ;;
            6) body="tensor_expr!(clamp(a * b, -1.0, 1.0) + tanh(b))" ;;
            *) body="tensor_expr!((a - b) * (a + b) / $((k + 2)))" ;;
        esac
        cat <<RUST
pub fn expr_$k(
    a: Tensor<f32, Shape![$m, $n]>,
    b: Tensor<f32, Shape![$n]>,
    c: Tensor<f32, Shape![$m]>,
    w: Tensor<f32, Shape![$n, $n]>,
) -> Tensor<f32, Shape![$m, $n]> {
    let _ = (&c, &w, $p);
    $body
}
RUST
    done
} > "$dir/src/lib.rs"

cd "$dir"
cargo check --quiet   # dependencies, and a first check
# Best of 3 fresh checks of the crate alone. `touch` is not enough: the
# incremental cache would answer most of the queries again.
best=""
for _ in 1 2 3; do
    cargo clean --quiet -p compile-time-probe
    start=$(date +%s.%N)
    cargo check --quiet
    end=$(date +%s.%N)
    best=$(awk -v s="$start" -v e="$end" -v b="$best" \
        'BEGIN { t = e - s; if (b == "" || t < b) print t; else print b }')
done
awk -v t="$best" -v n="$count" 'BEGIN {
    printf "cargo check of %d expressions: %.2f s (%.1f ms per expression)\n", n, t, 1000 * t / n
}'
