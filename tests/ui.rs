//! Compile-fail tests: every error the macros and the shape rules can give, with
//! its reviewed message in `tests/ui/*.stderr`. `TRYBUILD=overwrite` refreshes them.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
