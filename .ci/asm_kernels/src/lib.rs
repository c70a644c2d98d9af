//! No code of its own: the package only builds the root package's kernel
//! examples in release without its dev-dependencies (see `Cargo.toml`).
