//! Builds and runs `tests/no_std_app`: a `#![no_std]`, `#![no_main]` program
//! without a C library or an allocator that uses tensor-expr with
//! `default-features = false` (broadcast, `in_dims`, matmul, `exp` from libm,
//! an int8 layer over `static` weights, the `bytemuck` and `nalgebra` features)
//! and exits with 0 only if every number was right. If std or alloc crept into
//! the library, the program would not link.

#[test]
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn no_std_program_links_and_computes_right() {
    use std::path::Path;
    use std::process::Command;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let app = root.join("tests/no_std_app");
    let target_dir = root.join("target/no_std_app");
    let build = Command::new(env!("CARGO"))
        .current_dir(&app)
        .args(["rustc", "--quiet", "--target-dir"])
        .arg(&target_dir)
        .args(["--", "-C", "link-arg=-nostartfiles"])
        // The outer test's flags (e.g. coverage) must not leak into the program.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .expect("cargo runs");
    assert!(build.success(), "the no_std program did not build or link");
    let status = Command::new(target_dir.join("debug/no-std-app"))
        .status()
        .expect("the no_std program starts");
    assert_eq!(
        status.code(),
        Some(0),
        "exit status bits: 1 broadcast, 2 in_dims, 4 matmul, 8 exp, 16 interop, 32 int8 layer, 100 panic"
    );
}
