//! Writes the tables of `rules::size`: each dim size up to
//! `LARGEST_TABLED_SIZE` (and every power of 2 and of 10 that fits a `usize`)
//! as a typenum number, and back. Generated rather than written out, since
//! the tables are some 4,000 impls each; `rules/size.rs` says why they are
//! tables and how they are split.
//!
//! Also sets `cfg(vnni_kernel)` where the widening product's AVX-512 VNNI
//! kernel (`expr/matmul/int8.rs`) is compiled: on x86-64 with `std` (chosen
//! at run time) or with a target built with `avx512vnni` and `avx512bw`;
//! `cfg(dev_profile)` in a build of the `dev` profile's family; and
//! `cfg(size_profile)` where the runtime is optimised for size.

use std::fmt::Write as _;

/// Keep equal to `rules::size::LARGEST_TABLED_SIZE`.
const LARGEST_TABLED_SIZE: usize = 4096;

/// Low bits of a size that one block of the reverse table covers.
const BLOCK_BITS: usize = 6;

/// `n` as a typenum unsigned: `UInt<UInt<UTerm, B1>, B0>` for 2.
fn typenum(n: usize) -> String {
    if n == 0 {
        return "UTerm".into();
    }
    let bit = if n & 1 == 1 { "B1" } else { "B0" };
    format!("UInt<{}, {bit}>", typenum(n >> 1))
}

/// `cfg(vnni_kernel)`, the one statement of where the VNNI kernel exists.
fn vnni_kernel_cfg() {
    println!("cargo::rustc-check-cfg=cfg(vnni_kernel)");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |feature: &str| features.split(',').any(|f| f == feature);
    let std = std::env::var_os("CARGO_FEATURE_STD").is_some();
    if arch == "x86_64" && (std || (has("avx512vnni") && has("avx512bw"))) {
        println!("cargo::rustc-cfg=vnni_kernel");
    }
}

/// `cfg(dev_profile)`: the build's profile inherits from `dev` (`cargo
/// build`, `cargo test`), whose crates are compiled without optimisation
/// unless told otherwise. Reductions of such a build fold their rows through
/// functions compiled in this crate (`Element::fold_row`), which run at its
/// own opt-level (the README's override); a release build, with debug
/// assertions or not, keeps the folds inlined into its nests.
fn dev_profile_cfg() {
    println!("cargo::rustc-check-cfg=cfg(dev_profile)");
    if std::env::var("PROFILE").as_deref() == Ok("debug") {
        println!("cargo::rustc-cfg=dev_profile");
    }
}

/// `cfg(size_profile)`: the runtime is optimised for size (`opt-level =
/// "s"` or `"z"`, what embedded builds use). A product's tile of one row
/// of integers then sums its terms in one chain, not four (the same
/// values: integer sums do not depend on their order), which is a third
/// of the code.
fn size_profile_cfg() {
    println!("cargo::rustc-check-cfg=cfg(size_profile)");
    if matches!(std::env::var("OPT_LEVEL").as_deref(), Ok("s" | "z")) {
        println!("cargo::rustc-cfg=size_profile");
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    vnni_kernel_cfg();
    dev_profile_cfg();
    size_profile_cfg();
    let mut table = String::new();
    let mut sizes: Vec<usize> = (0..=LARGEST_TABLED_SIZE).collect();
    for base in [2usize, 10] {
        let mut power = base;
        while let Some(next) = power.checked_mul(base) {
            if power > LARGEST_TABLED_SIZE {
                sizes.push(power);
            }
            power = next;
        }
        if power > LARGEST_TABLED_SIZE {
            sizes.push(power);
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    for n in sizes {
        writeln!(
            table,
            "impl Holds<{n}> for SizeTable {{ type Size = {}; type Dim = D<{n}>; }}",
            typenum(n)
        )
        .unwrap();
    }
    let blocks = (LARGEST_TABLED_SIZE >> BLOCK_BITS) + 1;
    for block in 0..blocks {
        writeln!(
            table,
            "#[doc(hidden)] pub struct Block{block}<Low>(PhantomData<Low>);"
        )
        .unwrap();
        writeln!(
            table,
            "impl HighBits for {} {{ type Block<Low> = Block{block}<Low>; }}",
            typenum(block)
        )
        .unwrap();
        for low in 0..1usize << BLOCK_BITS {
            let n = (block << BLOCK_BITS) | low;
            if n > LARGEST_TABLED_SIZE {
                break;
            }
            let dim = if n == 1 {
                "One".to_string()
            } else {
                format!("D<{n}>")
            };
            writeln!(
                table,
                "impl BlockDim for Block{block}<{}> {{ type Dim = {dim}; }}",
                typenum(low)
            )
            .unwrap();
        }
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(format!("{out}/size_tables.rs"), table).expect("OUT_DIR is writable");
}
