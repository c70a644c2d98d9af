#!/usr/bin/env bash
# The stack frames of the `programs` example's functions, largest first:
# what a planned program's stack beyond its arena is made of (the painted
# figures `cargo run --release --example programs` prints are their sum
# along the deepest call chain).
#
# Builds the example in release with the nightly toolchain's
# `-Z emit-stack-sizes` (a tool only; the library builds on stable) into
# target/stack_frames, then prints each function's frame in bytes, names
# demangled, filtered by PATTERN (an extended regular expression; default:
# the int8 convolutions' nests and kernels and the keyword spotter).
#
# Usage: benches/stack_frames.sh [PATTERN]
#        STACK_OPT_LEVEL=s benches/stack_frames.sh     (at opt-level "s")
# Needs: the nightly toolchain, and `llvm-readobj` on the PATH or from
# rustup's `llvm-tools` component.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern=${1:-'int8|kws_in|MaybeUninit<i8>'}
level=${STACK_OPT_LEVEL:-3}
dir=target/stack_frames/opt-$level
CARGO_PROFILE_RELEASE_OPT_LEVEL=$level \
    RUSTFLAGS="-Z emit-stack-sizes -C symbol-mangling-version=v0" \
    CARGO_TARGET_DIR=$dir cargo +nightly build --quiet --release --example programs
readobj=$(command -v llvm-readobj ||
    ls "$(rustc +nightly --print sysroot)"/lib/rustlib/*/bin/llvm-readobj 2>/dev/null | head -1)
if [[ -z $readobj ]]; then
    echo "no llvm-readobj: install LLVM or run 'rustup component add llvm-tools'" >&2
    exit 1
fi
"$readobj" --stack-sizes "$dir/release/examples/programs" 2>/dev/null |
    perl -ne 'if (/Functions: \[(.*)\]/) { $f = $1 } if (/Size: (0x[0-9A-Fa-f]+)/) { print hex($1), " $f\n" }' |
    sort -rn |
    while read -r bytes name; do
        printf '%7d %s\n' "$bytes" "$(c++filt -s rust <<< "$name" | sed -E 's/\[[0-9a-f]+\]//g; s/tensor_expr_runtime:://g; s/core::mem::maybe_uninit:://g' | cut -c1-160)"
    done |
    grep -E -- "$pattern" | head -40
