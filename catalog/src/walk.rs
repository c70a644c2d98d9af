//! Whether an expression's products keep their register tiles: the one rule
//! that the runtime's walk (`Reading::walk`, over a tree's types) and the
//! macro's staging (`stage.rs`, over its syntax, before any type exists)
//! both apply. A cached row is read whole, one row at a time, so a tree
//! that reads one is walked by rows; a product in it would lose its tiles,
//! so the macro evaluates such products first, each in a nest of its own.
//!
//! ```
//! use tensor_expr_catalog::walk::Holds;
//! let product = Holds::PRODUCT;
//! assert!(product.tiles_products());
//! // `sum(x, [1], keepdim) + a @ b`: the reduction's row cache wins.
//! assert!(!product.and(Holds::CACHED_ROWS).tiles_products());
//! assert!(!Holds::NOTHING.tiles_products());
//! ```

/// What a tree holds that decides how its products are walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holds {
    /// Matrix products, and operations computed in register tiles as they
    /// are (convolutions).
    pub products: usize,
    /// Whether a node reads through a row cache (a reduction, a shared
    /// subexpression).
    pub cached_rows: bool,
}

impl Holds {
    /// A leaf, or any node that adds nothing.
    pub const NOTHING: Holds = Holds {
        products: 0,
        cached_rows: false,
    };

    /// One product.
    pub const PRODUCT: Holds = Holds {
        products: 1,
        cached_rows: false,
    };

    /// A row cache.
    pub const CACHED_ROWS: Holds = Holds {
        products: 0,
        cached_rows: true,
    };

    /// What a tree whose parts hold `self` and `other` holds.
    pub const fn and(self, other: Holds) -> Holds {
        Holds {
            products: self.products + other.products,
            cached_rows: self.cached_rows || other.cached_rows,
        }
    }

    /// Whether the products are walked in register tiles: where there is
    /// one and no row cache is read.
    pub const fn tiles_products(self) -> bool {
        self.products > 0 && !self.cached_rows
    }
}
