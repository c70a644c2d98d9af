//! Robustness of the macros against malformed input: at least 100,000 inputs
//! generated from valid seeds by dropping, duplicating, swapping and inserting
//! tokens, unbalancing delimiters, appending stray punctuation, plus empty
//! input, huge literals, deep nesting and unicode identifiers. None may make a
//! macro panic; every expansion must be a well-formed Rust expression (the
//! code or a `compile_error!` block); and every input built to be malformed
//! must give an error.
//!
//! `TENSOR_EXPR_FUZZ_CASES=2000000 cargo test -p tensor-expr-macros fuzz` runs longer.

use crate::{shape_macro, tensor_expr_tokens, tensor_macro};
use proc_macro2::{TokenStream, TokenTree};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

/// Valid inputs the mutations start from: every construct of the grammar.
const SEEDS: &[&str] = &[
    "x + y",
    "relu(x @ w + b)",
    "out = a * 2 - b / 4.0",
    "out += max(a, b) * 0.5",
    "acc = acc * 0.5 + 1.0",
    "m + in_dims(v, [1])",
    "strict: c * in_dims(p, (1, 2))",
    "clamp(x, -1.0, 1.0) - -y",
    "exp(x - { shift(&x) }) / sum",
    "self.w @ x.view() + m::B",
    "-(a + b) * (c - d) @ e",
    "out -= pow(&x, 2) @ &w",
    "softmax(x @ w, [1]) * log_softmax(x, [-1])",
    "logsumexp(x, [0, -1], keepdim) + norm(permute(t, [2, 0, 1]), keepdim)",
    "transpose(x @ w) + reshape::<Shape![2, 3]>(y * 2)",
    "argmax(sum(x, [1], keepdim) - 1, [0], keepdim)",
];

/// A small deterministic generator (xorshift64*): the same cases every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A seed as a flat list of token texts, delimiters as separate entries.
fn flat_tokens(source: &str) -> Vec<String> {
    fn walk(stream: TokenStream, out: &mut Vec<String>) {
        for tree in stream {
            match tree {
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                        proc_macro2::Delimiter::Bracket => ("[", "]"),
                        proc_macro2::Delimiter::Brace => ("{", "}"),
                        proc_macro2::Delimiter::None => ("", ""),
                    };
                    out.push(open.to_string());
                    walk(group.stream(), out);
                    out.push(close.to_string());
                }
                other => out.push(other.to_string()),
            }
        }
    }
    let mut out = Vec::new();
    walk(TokenStream::from_str(source).expect("seeds lex"), &mut out);
    out
}

const STRAY: &[&str] = &[
    "+", "-", "*", "/", "@", "=", "+=", ",", ";", ":", "::", ".", "!", "?", "#", "$", "&", "|",
    "^", "%", "<", ">", "=>", "..", "(", ")", "[", "]", "{", "}", "'a", "1e999", "x", "λ",
];

/// Random edits that may or may not leave the input valid: they must not panic.
fn mutate(rng: &mut Rng, tokens: &[String]) -> Vec<String> {
    let mut out = tokens.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = out.len().max(1);
        match rng.below(5) {
            0 if !out.is_empty() => {
                out.remove(rng.below(len).min(out.len() - 1));
            }
            1 if !out.is_empty() => {
                let i = rng.below(len).min(out.len() - 1);
                out.insert(i, out[i].clone());
            }
            2 if out.len() >= 2 => {
                let (i, j) = (rng.below(out.len()), rng.below(out.len()));
                out.swap(i, j);
            }
            _ => {
                let i = rng.below(out.len() + 1);
                out.insert(i, rng.pick(STRAY).to_string());
            }
        }
    }
    out
}

/// Inputs that are malformed by construction: each must give an error.
fn malformed(rng: &mut Rng, tokens: &[String]) -> String {
    let text = tokens.join(" ");
    match rng.below(7) {
        // Stray punctuation after a complete statement.
        0 => format!(
            "{text} {}",
            rng.pick(&["+", "*", "@", ",", ";", "=", "!", "-", "/"])
        ),
        // A binary operator with nothing on its left.
        1 => format!("{} {text}", rng.pick(&["*", "/", "@", "=", "+="])),
        // Two binary operators in a row.
        2 => {
            let op = rng.pick(&["* *", "+ /", "@ @", "/ *", "@ *"]);
            format!("a {op} {text}")
        }
        // An integer literal too large for any element type.
        3 => format!("{text} * 1{}", "0".repeat(40 + rng.below(40))),
        // Nesting deeper than the parser allows.
        4 => {
            let depth = 257 + rng.below(100);
            format!("{}x{}", "(".repeat(depth), ")".repeat(depth))
        }
        // A call of an unknown (unicode) function.
        5 => format!(
            "{}({text})",
            rng.pick(&["λ", "größe", "relü", "exq", "sigmoïd"])
        ),
        // An in-place operator inside the expression.
        _ => format!("a + b {} {text}", rng.pick(&["+=", "-=", "*=", "/="])),
    }
}

/// Runs `tensor_expr!` on `source`: `None` if rustc's lexer would reject it
/// (unbalanced delimiters), else whether the macro reported an error. Panics
/// if the macro panics or emits something that is not an expression.
fn run(source: &str) -> Option<bool> {
    let tokens = TokenStream::from_str(source).ok()?;
    let output = catch_unwind(AssertUnwindSafe(|| tensor_expr_tokens(tokens)))
        .unwrap_or_else(|_| panic!("tensor_expr! panicked on: {source}"));
    let text = output.to_string();
    // A `{ block }` operand is the user's Rust code, passed through for rustc to
    // parse; only expansions without one are checked for well-formedness.
    if !source.contains('{') {
        syn::parse2::<syn::Expr>(output).unwrap_or_else(|error| {
            panic!("expansion of `{source}` is not an expression ({error}): {text}")
        });
    }
    Some(text.contains("compile_error"))
}

fn cases() -> usize {
    std::env::var("TENSOR_EXPR_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

#[test]
fn fuzz_tensor_expr_never_panics_and_rejects_malformed_input() {
    let seeds: Vec<Vec<String>> = SEEDS.iter().map(|s| flat_tokens(s)).collect();
    for seed in SEEDS {
        assert_eq!(run(seed), Some(false), "seed `{seed}` must be valid");
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut rejected_by_lexer = 0;
    for case in 0..cases() {
        let seed = &seeds[case % seeds.len()];
        if case % 2 == 0 {
            let source = mutate(&mut rng, seed).join(" ");
            if run(&source).is_none() {
                rejected_by_lexer += 1;
            }
        } else {
            let source = malformed(&mut rng, seed);
            assert_eq!(
                run(&source),
                Some(true),
                "no error for malformed input: {source}"
            );
        }
    }
    for source in [
        "",
        " ",
        "=",
        "out =",
        "strict:",
        "in_dims(x)",
        "x @",
        "@ x",
        "(",
        "[]",
    ] {
        assert_ne!(run(source), Some(false), "no error for `{source}`");
    }
    // Most random mutants must reach the macro, not stop at rustc's lexer.
    assert!(
        rejected_by_lexer < cases() / 4,
        "{rejected_by_lexer} of {} mutants unbalanced",
        cases() / 2
    );
}

#[test]
fn two_hundred_deep_nesting_is_valid() {
    let source = format!("{}x{}", "(".repeat(200), ")".repeat(200));
    assert_eq!(run(&source), Some(false));
    let calls = format!("{}x{}", "relu(".repeat(200), ")".repeat(200));
    assert_eq!(run(&calls), Some(false));
}

#[test]
fn fuzz_shape_and_tensor_macros_never_panic() {
    let mut rng = Rng(42);
    let seeds = [flat_tokens("2, 3, 1"), flat_tokens("[[1., 2.], [3., 4.]]")];
    for case in 0..cases() / 10 {
        let source = mutate(&mut rng, &seeds[case % 2]).join(" ");
        let Ok(tokens) = TokenStream::from_str(&source) else {
            continue;
        };
        let shape = catch_unwind(AssertUnwindSafe(|| shape_macro::expand(tokens.clone())));
        let tensor = catch_unwind(AssertUnwindSafe(|| tensor_macro::expand(tokens)));
        assert!(
            shape.is_ok() && tensor.is_ok(),
            "a macro panicked on: {source}"
        );
    }
}
