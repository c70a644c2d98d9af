#!/usr/bin/env bash
# What a program's expressions cost to build and to run in a debug build:
# the 52 expressions of benches/build_cost/program.rs (elementwise and
# broadcast, products with epilogues, reductions and softmax, convolutions
# and pools, int8 layers, run-time rows, linear algebra), built as a crate of
# its own against this repository, and the same crate with every expression
# stubbed (each line `    tensor_expr!(..)` replaced by a call of `stub`),
# so that the differences are the expressions'.
#
# Prints, for `cargo check`, a debug and a release build after a touch of the
# program's one file: CPU seconds (user + system of cargo and every rustc)
# with and without the expressions, and per expression; the release and
# debug binaries' `.text` per expression; then the debug build's speed
# against hand loops in the same build (and the release build's, for
# reference). Incremental compilation is off, as in a release build, so a
# touch recompiles the whole crate: the cost of any edit of the file.
#
# The targets of the build-cost issue are printed beside the figures.
# Usage: benches/build_cost.sh      (about 6 minutes on 2 cores)
#        BUILD_COST_SPEED_ONLY=1 BUILD_COST_DEV_PROFILE='..' benches/build_cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=target/build_cost
source benches/probe_crate.sh
probe_crate "$dir" build-cost-program
# The README's settings for fast debug builds; BUILD_COST_DEV_PROFILE=none
# builds without them, any other value is taken as the profile's TOML.
dev_profile='[profile.dev.package.tensor-expr-runtime]
opt-level = 3'
case ${BUILD_COST_DEV_PROFILE:-} in
    "") ;;
    none) dev_profile='' ;;
    *) dev_profile=$BUILD_COST_DEV_PROFILE ;;
esac
printf '\n%s\n' "$dev_profile" >> "$dir/Cargo.toml"
cd "$dir"
program=$root/benches/build_cost/program.rs
export CARGO_INCREMENTAL=0
count=$(grep -c '^    tensor_expr!(' "$program")

# cpu_seconds VARIANT CARGO-ARGS..: the CPU seconds of one cargo command
# over the program (VARIANT real) or its stub, after a touch (its
# dependencies built first, untimed).
cpu_seconds() {
    if [[ $1 == stub ]]; then
        sed -E 's/^    tensor_expr!\(.*\)$/    stub()/' "$program" > src/main.rs
    else
        cp "$program" src/main.rs
    fi
    shift
    cargo "$@" --quiet
    touch src/main.rs
    /usr/bin/time -f '%U %S' -o ../build_cost.time cargo "$@" --quiet
    awk '{ printf "%.1f", $1 + $2 }' ../build_cost.time
}

text_bytes() {
    size -A "$1" | awk '$1 == ".text" { print $2 }'
}

# BUILD_COST_SPEED_ONLY=1: only the debug build's speed (for comparing
# profile settings).
if [[ -n ${BUILD_COST_SPEED_ONLY:-} ]]; then
    cp "$program" src/main.rs
    cargo build --quiet
    target/debug/build-cost-program speed
    exit
fi

printf '%-22s %12s %12s %16s %s\n' step "CPU s" "stubbed" "per expression" target
for step in check debug release; do
    case $step in
        check) args=(check) ;;
        debug) args=(build) ;;
        release) args=(build --release) ;;
    esac
    profile=$([[ $step == release ]] && echo release || echo debug)
    real=$(cpu_seconds real "${args[@]}")
    [[ $step != check ]] && cp "target/$profile/build-cost-program" "../build_cost.$step.real"
    stub=$(cpu_seconds stub "${args[@]}")
    [[ $step != check ]] && cp "target/$profile/build-cost-program" "../build_cost.$step.stub"
    case $step in
        check) target="not slower than before" ;;
        debug) target="<= 0.2 s" ;;
        release) target="<= 0.5 s" ;;
    esac
    awk -v s="$step" -v r="$real" -v b="$stub" -v n="$count" -v t="$target" \
        'BEGIN { printf "%-22s %12.1f %12.1f %14.2f s %s\n", s, r, b, (r - b) / n, t }'
done

echo
printf '%-22s %12s %12s %16s %s\n' binary ".text (B)" stubbed "per expression" target
for step in debug release; do
    real=$(text_bytes "../build_cost.$step.real")
    stub=$(text_bytes "../build_cost.$step.stub")
    target=$([[ $step == release ]] && echo "<= 2560 B" || echo "")
    awk -v s="$step" -v r="$real" -v b="$stub" -v n="$count" -v t="$target" \
        'BEGIN { printf "%-22s %12d %12d %14.0f B %s\n", s, r, b, (r - b) / n, t }'
done

echo
echo "debug build: expression against hand loop (target: elementwise <= 3x; products, convolutions, reductions <= 1x)"
../build_cost.debug.real speed
echo
echo "release build, for reference"
../build_cost.release.real speed
