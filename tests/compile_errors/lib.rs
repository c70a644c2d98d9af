//! Holds no code: the package exists for its test, `tests/ui.rs` (see
//! `Cargo.toml`).
