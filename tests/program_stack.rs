//! Builds `tests/program_stack_app` in release and runs it: the stack a
//! call of each example program with planned memory takes (the MLP, a
//! Kalman step, MLPerf Tiny's int8 keyword spotter), painted and measured,
//! is at most its arena plus 2,048 B with the arena on the program's own
//! stack, and at most 2,048 B with the arena lent (README, "Programs with
//! planned memory").
//!
//! Held at the level the CPU selects and, where the CPU has it, at AVX2
//! (`TENSOR_EXPR_ISA=avx2`): the layer kernels of both run. Below AVX2
//! the int8 layers are the expressions' own nests, whose frames and
//! buffers are not bounded so: there the figures are printed, not held.

#[test]
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn each_program_takes_at_most_its_arena_and_2_kib_of_stack() {
    use std::path::Path;
    use std::process::Command;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // `.ci/asm_check`'s directory for the default target: the runtime's
    // release build is shared.
    let target_dir = root.join("target/asm-default");
    let build = Command::new(env!("CARGO"))
        .current_dir(root.join("tests/program_stack_app"))
        .args(["build", "--quiet", "--release", "--target-dir"])
        .arg(&target_dir)
        // The outer test's flags (a native target, coverage) must not leak
        // into the measured build, which is the default target's.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .expect("cargo runs");
    assert!(build.success(), "the program stack app did not build");
    // The level the CPU selects (or the one the test runs under), then
    // AVX2 where the CPU has it.
    let avx2 = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
    let levels: &[Option<&str>] = if avx2 { &[None, Some("avx2")] } else { &[None] };
    for &level in levels {
        let mut app = Command::new(target_dir.join("release/program-stack-app"));
        if let Some(level) = level {
            app.env("TENSOR_EXPR_ISA", level);
        }
        let run = app.output().expect("the program stack app starts");
        let report = String::from_utf8_lossy(&run.stdout);
        println!("{report}");
        let held = report
            .lines()
            .next()
            .is_some_and(|level| level.starts_with("level avx512") || level == "level avx2");
        if held {
            assert!(
                run.status.success(),
                "a program is over its stack bound:\n{report}"
            );
        } else {
            assert!(
                run.status.code().is_some_and(|code| code <= 1),
                "the program stack app failed:\n{report}{}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
}
