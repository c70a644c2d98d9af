//! Compile-fail tests: every error the macros and the shape rules can give, with
//! its reviewed message in `tests/ui/*.stderr`. `TRYBUILD=overwrite` refreshes them.
//! Paths are relative to this package's folder, `tests/compile_errors`, whose
//! `tests/` holds the cases, so that messages name them `tests/ui/NAME.rs`.
//!
//! The `.stderr` files hold rustc's exact text, which changes between
//! releases: `rust-toolchain.toml` pins the toolchain that wrote them, so
//! `cargo test` on a fresh clone compiles every case with it. A newer
//! toolchain (chosen with `cargo +VERSION`) may word messages differently;
//! moving the pin means re-blessing the files (`DEVELOPMENT.md`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}

/// Errors that `cargo build` reports but `cargo check` does not (`const`
/// assertions, evaluated after monomorphisation): trybuild builds when a run
/// has a pass case, so each of these has one beside it.
#[test]
fn ui_build() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui_build/cases_that_build.rs");
    cases.compile_fail("tests/ui_build/scratch_over_the_default_budget.rs");
    cases.compile_fail("tests/ui_build/scratch_over_a_stated_budget.rs");
    cases.compile_fail("tests/ui_build/max_over_an_empty_axis.rs");
    cases.compile_fail("tests/ui_build/narrow_past_the_end.rs");
    cases.compile_fail("tests/ui_build/concat_mismatched_dim.rs");
    cases.compile_fail("tests/ui_build/argmax_over_an_empty_axis.rs");
    cases.compile_fail("tests/ui_build/from_array_wrong_length.rs");
}

/// The error catalogue (`tensor_expr::errors`) lists every ui case, and names
/// no case that does not exist (the `include_str!`s would not compile).
#[test]
fn catalogue_lists_every_ui_case() {
    let catalogue = include_str!("../../../src/lib.rs");
    for entry in std::fs::read_dir("tests/ui").expect("tests/ui exists") {
        let path = entry.expect("readable").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            assert!(
                catalogue.contains(&format!("catalogue_entry!(\"{name}\"")),
                "tests/ui/{name}.rs is missing from the error catalogue in src/lib.rs"
            );
        }
    }
}
