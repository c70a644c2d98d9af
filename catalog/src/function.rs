//! The named elementwise functions as the macro sees them.

/// What the macro needs to know about a function, to accept a call and to
/// explain a wrong one: its name, its arguments, which element types it
/// accepts, and a one-line description.
///
/// ```
/// use tensor_expr_catalog::FUNCTIONS;
/// let clamp = FUNCTIONS.iter().find(|f| f.name == "clamp").unwrap();
/// assert_eq!((clamp.args, clamp.arity()), (&["x", "lo", "hi"][..], 3));
/// assert_eq!(clamp.elements, "Element");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionInfo {
    /// The name written in expressions.
    pub name: &'static str,
    /// The arguments' names, as the signature in an error shows them.
    pub args: &'static [&'static str],
    /// The element trait it needs: `"Element"` (any), `"Signed"` or `"Float"`.
    pub elements: &'static str,
    /// What it computes.
    pub summary: &'static str,
}

impl FunctionInfo {
    /// The number of arguments.
    pub const fn arity(&self) -> usize {
        self.args.len()
    }
}
