#!/usr/bin/env bash
# Compile-time scaling: `cargo check` time of ONE expression against its
# nesting depth (4, 8, 16, 32, 64) and its length as a chain (25, 50, 100, 200
# terms), for each construct, printed as a table with the growth per doubling.
#
# Each cell is one expression's share of the check time, in milliseconds: the
# best of 5 checks of a crate holding the expression in 10 functions, minus the
# same crate's time with a one-operator expression (the fixed cost of `cargo
# check`, printed as `base`), divided by 10. "growth" is the ratio of the two
# largest sizes' cells: about 2 per doubling is linear, 4 quadratic.
# Usage: benches/compile_scaling.sh            (about four minutes here)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=target/compile_scaling
source benches/probe_crate.sh
probe_crate "$dir" compile-scaling-probe

copies=10

# write_crate EXPR: $copies functions computing EXPR over square [8, 8]
# operands a and w, a row vector v and a vector c.
write_crate() {
    {
        echo "#![allow(unused, clippy::all)]"
        echo "use tensor_expr::prelude::*;"
        for ((copy = 0; copy < copies; copy++)); do
            write_function "$1" "$copy"
        done
    } > "$dir/src/lib.rs"
}

write_function() {
    cat <<RUST
pub fn probe_$2(
    a: &Tensor<f32, Shape![8, 8]>,
    w: &Tensor<f32, Shape![8, 8]>,
    v: &Tensor<f32, Shape![8]>,
    c: &Tensor<f32, Shape![8]>,
) -> Tensor<f32, Shape![8, 8]> {
    tensor_expr!($1)
}
RUST
}

# check_time EXPR: best of 5 `cargo check` times, in seconds.
check_time() {
    write_crate "$1"
    local best=""
    for _ in 1 2 3 4 5; do
        # `touch` is not enough: cargo may judge the crate fresh within one tick.
        (cd "$dir" && cargo clean --quiet -p compile-scaling-probe 2>/dev/null)
        local start end
        start=$(date +%s.%N)
        if ! (cd "$dir" && cargo check --quiet 2>/dev/null); then
            echo "error"
            return
        fi
        end=$(date +%s.%N)
        best=$(awk -v s="$start" -v e="$end" -v b="$best" \
            'BEGIN { t = e - s; if (b == "" || t < b) print t; else print b }')
    done
    echo "$best"
}

# nest TEMPLATE SEED N: TEMPLATE with `#` replaced by the previous level, N times.
nest() {
    local template=$1 expr=$2
    for ((k = 0; k < $3; k++)); do
        expr=${template//\#/$expr}
    done
    echo "$expr"
}

# chain TERM1 OP1 TERM2 OP2 N: N terms alternating TERM1 and TERM2,
# joined by OP1 and OP2 in turn (left associative, as written).
chain() {
    local expr=$1
    for ((k = 1; k < $5; k++)); do
        if ((k % 2)); then expr="$expr $2 $3"; else expr="$expr $4 $1"; fi
    done
    echo "$expr"
}

write_crate "a + v" && (cd "$dir" && cargo check --quiet) # dependencies
base=$(check_time "a + v")

# row LABEL SIZES... with GENERATOR set: one table row.
row() {
    local label=$1
    shift
    local times=() line
    line=$(printf '| %-34s |' "$label")
    for n in "$@"; do
        local t
        t=$($generator "$n")
        t=$(check_time "$t")
        t=$(awk -v t="$t" -v b="$base" -v n="$copies" \
            'BEGIN { if (t ~ /^[0-9.]+$/) { x = 1000 * (t - b) / n; printf "%.1f", x < 0 ? 0 : x } else print t }')
        times+=("$t")
        line+=$(printf ' %6s |' "$t")
    done
    local last=${times[-1]} prev=${times[-2]}
    line+=$(awk -v l="$last" -v p="$prev" 'BEGIN {
        if (l !~ /^[0-9.]+$/ || p !~ /^[0-9.]+$/) { printf "      - |"; exit }
        if (p < 0.5) p = 0.5; if (l < 0.5) l = 0.5   # below the noise
        printf " %5.2fx |", l / p }')
    echo "$line"
}

echo "cargo check time of one expression, ms (base: $copies copies of \`a + v\` check in $(printf '%.2f' "$base") s)"
echo
echo "| nested, depth                      |      4 |      8 |     16 |     32 |     64 | growth |"
echo "| ---------------------------------- | -----: | -----: | -----: | -----: | -----: | -----: |"
depths=(4 8 16 32 64)
unary() { nest "relu(#)" a "$1"; }
generator=unary row 'relu(relu(..a..))' "${depths[@]}"
negate() { nest "-(#)" a "$1"; }
generator=negate row '-(-(..a..))' "${depths[@]}"
max_left() { nest "max(#, v)" a "$1"; }
generator=max_left row 'max(max(..a.., v), v)' "${depths[@]}"
min_right() { nest "min(v, #)" a "$1"; }
generator=min_right row 'min(v, min(v, ..a..))' "${depths[@]}"
pow_left() { nest "pow(#, v)" a "$1"; }
generator=pow_left row 'pow(pow(..a.., v), v)' "${depths[@]}"
clamp_first() { nest "clamp(#, -1.0, 1.0)" a "$1"; }
generator=clamp_first row 'clamp(clamp(..a.., lo, hi), lo, hi)' "${depths[@]}"
add_right() { nest "v + (#)" a "$1"; }
generator=add_right row 'v + (v + (..a..))' "${depths[@]}"
in_dims_nest() { nest "in_dims(c, [0]) * (#)" a "$1"; }
generator=in_dims_nest row 'in_dims(c, [0]) * (..a..)' "${depths[@]}"
reduce_nest() { nest "sum(#, [1], keepdim) + v" a "$1"; }
generator=reduce_nest row 'sum(..a.. , [1], keepdim) + v' "${depths[@]}"
matmul_left() { nest "(#) @ w" a "$1"; }
generator=matmul_left row '((..a..) @ w) @ w' "${depths[@]}"
transpose_nest() { nest "(#) @ transpose(w)" a "$1"; }
generator=transpose_nest row '(..a..) @ transpose(w)' "${depths[@]}"
echo
echo "| chain, terms                       |     25 |     50 |    100 |    200 | growth |"
echo "| ---------------------------------- | -----: | -----: | -----: | -----: | -----: |"
lengths=(25 50 100 200)
add_chain() { chain a + v + "$1"; }
generator=add_chain row 'a + v + a + ...' "${lengths[@]}"
mixed_chain() { chain a '*' v - "$1"; }
generator=mixed_chain row 'a * v - a * v ...' "${lengths[@]}"
products() { chain "a * v" + "c * 2.0" + "$1"; }
generator=products row 'a * v + c * 2.0 + ...' "${lengths[@]}"
max_chain() { nest "max(#, v)" a "$1"; }
generator=max_chain row 'max(max(..a.., v), v) (n calls)' "${lengths[@]}"
