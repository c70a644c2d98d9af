#!/usr/bin/env bash
# Eigen 3's packet math against tensor_expr's float functions, both built
# for this CPU (`-march=native`, `-C target-cpu=native`), on the same
# 64 x 1024 inputs, run alternately twice: exp, tanh, sigmoid, ln and a
# row softmax, ns per element (ratio = Eigen's time / tensor_expr's).
#
#   EIGEN_DIR=/path/to/eigen benches/eigen_activations.sh
#
# EIGEN_DIR is a directory holding Eigen's `Eigen/` headers (an Eigen
# source tree). Needs a C++ compiler (`c++`). benches/eigen_accuracy.cpp
# measures Eigen's tanh and log over every f32 input (how far its faster
# approximations are from the correctly rounded result).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${EIGEN_DIR:?set EIGEN_DIR to a directory holding Eigen/ (an Eigen source tree)}"
out="$(mktemp -d)"
c++ -O3 -march=native -DNDEBUG -I"$EIGEN_DIR" benches/eigen_activations.cpp -o "$out/eigen_activations"
for round in 1 2; do
    echo "round $round"
    RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
        cargo bench --bench activations 2>/dev/null |
        grep -E '^(exp|tanh|sigmoid|ln) |^softmax\(x, \[1\]\)' |
        awk '{ print "tensor_expr", ($1 ~ /softmax/ ? "softmax" : $1), ($1 ~ /softmax/ ? $5 : $2) }'
    "$out/eigen_activations"
done
