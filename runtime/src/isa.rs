//! Which instruction set the kernels run with: the one place that decides.
//!
//! A build for the default x86-64 target has SSE2 only. With `std` on
//! x86-64, the nests that gain from wider vectors (a product's tiles, a
//! large elementwise output, the chunks of run-time rows) are compiled
//! again inside functions with AVX2 and AVX-512 enabled, and one is picked
//! at run time from the [`Level`] this module selects; the int8 product
//! takes its VNNI kernel at [`Level::Avx512Vnni`]. Each level has one
//! feature set and one tile geometry, both in `kernel::dispatch`.
//! A build whose target already has a level's instructions
//! (`-C target-cpu=native`) compiles its nests once, for the target; so
//! does a build of the dev profile, whose expressions are not optimised
//! (unless the feature `every-level-in-debug` is on), while the kernels
//! compiled in the runtime keep every level (`EVERY_LEVEL`).
//!
//! The level is the highest one the CPU has, detected once. The environment
//! variable `TENSOR_EXPR_ISA` (`sse2`, `avx2`, `avx512` or `avx512vnni`),
//! read at the first selection, lowers it: the tests run under each level
//! the machine has, so every kernel is checked on one machine. A level
//! above the CPU's is refused with a panic naming both, never run.
//!
//! ```
//! use tensor_expr_runtime::isa::{self, Level};
//! let level = isa::selected();
//! assert!(level >= Level::Sse2 && level <= isa::detected());
//! ```

/// An instruction-set level of x86-64, each including the ones below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// SSE2: every x86-64 CPU (and every other architecture's vectors).
    Sse2,
    /// AVX2 with FMA.
    Avx2,
    /// AVX-512 F, BW, with AVX2 and FMA.
    Avx512,
    /// AVX-512 with VNNI (`vpdpbusd`, the int8 dot products).
    Avx512Vnni,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 4] = [Level::Sse2, Level::Avx2, Level::Avx512, Level::Avx512Vnni];

    /// The level's name as `TENSOR_EXPR_ISA` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Sse2 => "sse2",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
            Level::Avx512Vnni => "avx512vnni",
        }
    }

    /// The level called `name` (as [`Level::name`] spells it).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name() == name)
    }

    /// The level the compile-time target guarantees: its nests need no
    /// run-time choice up to here.
    pub const TARGET: Level = if cfg!(all(
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512vnni"
    )) {
        Level::Avx512Vnni
    } else if cfg!(all(target_feature = "avx512f", target_feature = "avx512bw")) {
        Level::Avx512
    } else if cfg!(all(target_feature = "avx2", target_feature = "fma")) {
        Level::Avx2
    } else {
        Level::Sse2
    };
}

/// Whether each expression's nests are compiled for the levels above the
/// compile-time target's too. Not in a build of the dev profile
/// (`cfg(dev_profile)`: `cargo build`, `cargo test`), where an expression's
/// code is not optimised and a wider level's nest runs no faster, while
/// it would double or triple the code each expression compiles; the
/// kernels compiled in the runtime (products of stored floats, int8
/// products and convolutions, folds) run at the selected level there
/// too. The feature `every-level-in-debug` compiles every level in such a
/// build as well (a dev profile that optimises the user's crate, and this
/// project's tests of each level's nests).
pub(crate) const EVERY_LEVEL: bool = !cfg!(dev_profile) || cfg!(feature = "every-level-in-debug");

/// The highest level the CPU has: detected at run time with `std` on
/// x86-64, else the compile-time target's ([`Level::TARGET`]).
pub fn detected() -> Level {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        use std::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512bw") && has!("avx2") && has!("fma") {
            if has!("avx512vnni") {
                return Level::Avx512Vnni;
            }
            return Level::Avx512;
        }
        if has!("avx2") && has!("fma") {
            return Level::Avx2;
        }
        Level::TARGET
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    Level::TARGET
}

/// The level the kernels run with: [`detected`], lowered by
/// `TENSOR_EXPR_ISA` where that is set (never below the compile-time
/// target's, [`Level::TARGET`], whose instructions every nest has).
/// Decided at the first call; then one load and a compare, on the path of
/// every product that is not small.
///
/// # Panics
///
/// At the first call, if `TENSOR_EXPR_ISA` names no level, or a level the
/// CPU lacks (or, without run-time detection, one above the compile-time
/// target's).
#[inline(always)]
pub fn selected() -> Level {
    #[cfg(feature = "std")]
    {
        match SELECTED.load(core::sync::atomic::Ordering::Relaxed) {
            1 => Level::Sse2,
            2 => Level::Avx2,
            3 => Level::Avx512,
            4 => Level::Avx512Vnni,
            _ => select_once(),
        }
    }
    #[cfg(not(feature = "std"))]
    Level::TARGET
}

/// The selected level as 1 + its position in [`Level::ALL`]; 0 until the
/// first [`selected`].
#[cfg(feature = "std")]
static SELECTED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Decides the level ([`selected`]'s first call).
#[cfg(feature = "std")]
#[cold]
#[inline(never)]
fn select_once() -> Level {
    let level = choose(detected(), std::env::var("TENSOR_EXPR_ISA").ok().as_deref());
    // Declared in the order of `Level::ALL`, so the discriminant is the position.
    SELECTED.store(level as u8 + 1, core::sync::atomic::Ordering::Relaxed);
    level
}

/// The level for a CPU of level `detected` asked for `forced` (the value
/// of `TENSOR_EXPR_ISA`), if any.
#[cfg(feature = "std")]
fn choose(detected: Level, forced: Option<&str>) -> Level {
    let Some(name) = forced.filter(|name| !name.is_empty()) else {
        return detected;
    };
    let Some(level) = Level::from_name(name) else {
        panic!(
            "TENSOR_EXPR_ISA={name} names no instruction-set level; expected one of sse2, avx2, avx512, avx512vnni"
        );
    };
    assert!(
        level <= detected,
        "TENSOR_EXPR_ISA={name} asks for a level this CPU lacks: it has {}",
        detected.name()
    );
    // The compile-time target's instructions are in every nest already.
    level.max(Level::TARGET)
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn a_forced_level_lowers_the_detected_one() {
        assert_eq!(choose(Level::Avx512Vnni, None), Level::Avx512Vnni);
        assert_eq!(choose(Level::Avx512Vnni, Some("")), Level::Avx512Vnni);
        assert_eq!(choose(Level::Avx512Vnni, Some("avx2")), Level::Avx2);
        assert_eq!(choose(Level::Avx2, Some("sse2")), Level::Sse2);
    }

    #[test]
    #[should_panic(
        expected = "TENSOR_EXPR_ISA=avx512 asks for a level this CPU lacks: it has avx2"
    )]
    fn a_level_above_the_cpu_is_refused() {
        choose(Level::Avx2, Some("avx512"));
    }

    #[test]
    #[should_panic(expected = "names no instruction-set level")]
    fn an_unknown_name_is_refused() {
        choose(Level::Avx2, Some("avx"));
    }

    #[test]
    fn names_round_trip() {
        for level in Level::ALL {
            assert_eq!(Level::from_name(level.name()), Some(level));
            // `select_once` stores a level as its discriminant.
            assert_eq!(Level::ALL[level as usize], level);
        }
    }
}
