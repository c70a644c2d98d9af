# Sourced by the compile-time benches: `probe_crate DIR NAME` creates the
# crate DIR (its own workspace, depending on this repository's tensor-expr)
# whose `src/lib.rs` the caller writes, so its `cargo check` time is its own.
probe_crate() {
    local dir=$1 name=$2 root
    root=$(pwd)
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
tensor-expr = { path = "$root" }
TOML
}
