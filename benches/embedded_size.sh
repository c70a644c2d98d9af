#!/usr/bin/env bash
# Code size and stack use of a small dense layer, relu(x @ w + b) with x [1, 16],
# w [16, 16], b [16], written with tensor-expr and with nalgebra, and of an int8
# dense layer written with tensor-expr and as a hand loop
# (examples/embedded_dense.rs), compiled for this host at opt-level "s" and
# 3, without default features (no std: what an embedded build
# gets). Prints each function's .text bytes (from the object's symbol table) and
# its stack bytes: pushes, `sub $n, %rsp`, and the deepest red-zone offset below
# %rsp a leaf function uses (from the assembly); the calls column says
# whether a function calls others (whose stack it does not count).
set -euo pipefail
cd "$(dirname "$0")/.."

for opt in s 3; do
    dir=target/embedded-$opt
    rm -f "$dir"/release/examples/embedded_dense-*
    CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt cargo rustc --quiet --release --no-default-features \
        --example embedded_dense --target-dir "$dir" -- --emit obj,asm
    obj=$(ls "$dir"/release/examples/embedded_dense-*.o)
    asm=$(ls "$dir"/release/examples/embedded_dense-*.s)

    echo "opt-level = $opt"
    printf '%-24s %10s %12s %s %14s\n' function ".text (B)" "stack (B)" calls "with nest (B)"
    for f in dense_tensor_expr dense_nalgebra dense_int8_tensor_expr dense_int8_hand; do
        size=$((16#$(nm -S "$obj" | awk -v f="$f" '$4 == f {print $2}')))
        body=$(awk -v name="^$f:" '$0 ~ name {on=1} on {print} on && /\.cfi_endproc/ {on=0}' "$asm")
        pushes=$(grep -cE '^\s+push' <<<"$body" || true)
        sub=$(grep -oE 'subq\s+\$[0-9]+, %rsp' <<<"$body" | grep -oE '[0-9]+' | sort -n | tail -1 || true)
        redzone=$(grep -oE -- '-[0-9]+\(%rsp' <<<"$body" | grep -oE '[0-9]+' | sort -n | tail -1 || true)
        calls=$(grep -cE '^\s+call' <<<"$body" || true)
        # The return address, the pushes, the frame, and the red zone below it.
        stack=$((8 + 8 * pushes + ${sub:-0} + ${redzone:-0}))
        # With the nest it calls: the runtime's functions this one calls
        # (the tiled nest runs out of line), not the panic paths.
        with=$size
        for callee in $(grep -oE 'call[q]?\s+_ZN19tensor_expr_runtime[A-Za-z0-9_$.]+' <<<"$body" | awk '{print $2}' | sort -u); do
            bytes=$(nm -S "$obj" | awk -v f="$callee" '$4 == f {print $2}')
            [ -n "$bytes" ] && with=$((with + 16#$bytes))
        done
        printf '%-24s %10d %12d %s %14d\n' "$f" "$size" "$stack" "$calls" "$with"
    done
done
