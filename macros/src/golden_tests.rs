//! Golden expansions: each `tests/golden/NAME.input` is expanded and compared,
//! formatted, with `tests/golden/NAME.expanded.rs`, so the generated loop setup
//! stays readable and any change to it is reviewed. `UPDATE_GOLDEN=1 cargo test
//! -p tensor-expr-macros` rewrites the expected files.

use std::fs;
use std::path::Path;

fn expand_to_file(input: &str) -> String {
    let tokens: proc_macro2::TokenStream = input.parse().expect("the input tokenizes");
    let expansion = crate::tensor_expr_tokens(tokens);
    let file: syn::File = syn::parse2(quote::quote!(fn expansion() { let _ = #expansion; }))
        .expect("the expansion parses as Rust");
    prettyplease::unparse(&file)
}

#[test]
fn expansions_match_the_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut checked = 0;
    for entry in fs::read_dir(&dir).expect("tests/golden exists") {
        let path = entry.expect("readable entry").path();
        if path.extension().is_none_or(|e| e != "input") {
            continue;
        }
        let input = fs::read_to_string(&path).expect("readable input");
        let actual = expand_to_file(&input);
        let expected_path = path.with_extension("expanded.rs");
        if update {
            fs::write(&expected_path, &actual).expect("writable golden file");
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        assert_eq!(
            actual,
            expected,
            "expansion of {} changed (UPDATE_GOLDEN=1 to accept)",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 4, "expected the golden inputs, found {checked}");
}
