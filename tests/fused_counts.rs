//! How much work a fused expression does, counted: an element type that counts
//! its `exp` calls and comparisons runs the softmax as the issue writes it (the
//! exponential spelled twice, the row max spelled twice).
//!
//! Expected: `exp` exactly once per element (the repeated `exp(..)` is one
//! shared node), and the row max folded once per row (each element compared
//! once, plus the partial results merged), not once per output element.

use core::cell::Cell;
use core::ops::{Add, Div, Mul, Neg, Sub};
use tensor_expr::prelude::*;
use tensor_expr::{Element, Float, Signed};

thread_local! {
    static EXPS: Cell<usize> = const { Cell::new(0) };
    static COMPARISONS: Cell<usize> = const { Cell::new(0) };
}

fn bump(counter: &'static std::thread::LocalKey<Cell<usize>>) {
    counter.with(|c| c.set(c.get() + 1));
}

/// An `f64` that counts its `exp` calls and its max/min comparisons (a long
/// row's `max` folds with `>` and looks for NaN apart, so `<`, `>` count too).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Counted(f64);

impl PartialOrd for Counted {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        bump(&COMPARISONS);
        self.0.partial_cmp(&other.0)
    }
}

impl core::fmt::Display for Counted {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

macro_rules! arithmetic {
    ($($trait:ident $method:ident $op:tt),*) => {$(
        impl $trait for Counted {
            type Output = Counted;
            fn $method(self, other: Counted) -> Counted { Counted(self.0 $op other.0) }
        }
    )*};
}
arithmetic!(Add add +, Sub sub -, Mul mul *, Div div /);

impl Neg for Counted {
    type Output = Counted;
    fn neg(self) -> Counted {
        Counted(-self.0)
    }
}

// A float element of your own: its class says which functions of the table
// apply (all of them here), and `Float` supplies them.
impl Element for Counted {
    type Floatness = tensor_expr::element::IsFloat;
    type Sign = tensor_expr::element::HasSign;
    const ZERO: Self = Counted(0.0);
    const ONE: Self = Counted(1.0);
    const LOWEST: Self = Counted(f64::NEG_INFINITY);
    const HIGHEST: Self = Counted(f64::INFINITY);
    const LITERAL_MIN: i128 = i128::MIN;
    const LITERAL_MAX: i128 = i128::MAX;
    fn from_int_literal(value: i128) -> Self {
        Counted(value as f64)
    }
    fn from_float_literal(value: f64) -> Self {
        Counted(value)
    }
    fn max_element(self, other: Self) -> Self {
        bump(&COMPARISONS);
        Counted(self.0.max(other.0))
    }
    fn min_element(self, other: Self) -> Self {
        bump(&COMPARISONS);
        Counted(self.0.min(other.0))
    }
}

// Every element is a scalar operand of its own expressions.
impl tensor_expr::access::Operand<Counted> for Counted {
    type Element = Counted;
    type Shape = ();
    type Layout = tensor_expr::access::RowMajor<()>;
    type Placement = tensor_expr::access::Stack;
    fn elements(&self) -> &[Counted] {
        core::slice::from_ref(self)
    }
}

impl tensor_expr::access::ElementSource for Counted {
    type Element = Counted;
}

impl Signed for Counted {
    fn abs_element(self) -> Self {
        Counted(self.0.abs())
    }
}

impl Float for Counted {
    fn exp(self) -> Self {
        bump(&EXPS);
        Counted(self.0.exp())
    }
    fn ln(self) -> Self {
        Counted(self.0.ln())
    }
    fn sqrt(self) -> Self {
        Counted(self.0.sqrt())
    }
    fn sin(self) -> Self {
        Counted(self.0.sin())
    }
    fn cos(self) -> Self {
        Counted(self.0.cos())
    }
    fn tanh(self) -> Self {
        Counted(self.0.tanh())
    }
    fn powf(self, exponent: Self) -> Self {
        Counted(self.0.powf(exponent.0))
    }
}

const ROWS: usize = 8;
const COLS: usize = 64;

#[test]
fn softmax_computes_each_exp_once_and_each_row_max_once() {
    let x = Tensor::<Counted, Shape![8, 64]>::from_fn(|[i, j]| {
        Counted(((i * COLS + j) as f64 * 0.37).sin())
    });
    EXPS.with(|c| c.set(0));
    COMPARISONS.with(|c| c.set(0));
    let p = tensor_expr!(
        exp(x - max(x, [1], keepdim)) / sum(exp(x - max(x, [1], keepdim)), [1], keepdim)
    );
    let (exps, comparisons) = (EXPS.with(Cell::get), COMPARISONS.with(Cell::get));

    assert_eq!(exps, ROWS * COLS, "exp once per element");
    // Each element compared once, plus per row 16 partial maxima merged and the
    // row's result folded into its group; a max recomputed per output element
    // would be ROWS * COLS * COLS.
    assert!(comparisons >= ROWS * COLS, "{comparisons}");
    assert!(comparisons <= ROWS * (COLS + 17), "{comparisons}");

    for i in 0..ROWS {
        let total: f64 = (0..COLS).map(|j| p[[i, j]].0).sum();
        assert!((total - 1.0).abs() < 1e-12, "row {i} sums to {total}");
    }
}
