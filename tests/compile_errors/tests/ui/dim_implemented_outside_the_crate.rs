use tensor_expr::Dim;

// `Dim` is sealed: unsafe code relies on a dim's storage being `[X; SIZE]`,
// which this impl would break (a size of 2^20 stored as one element).
#[derive(Clone, Copy, Debug, Default)]
struct Huge;

impl Dim for Huge {
    const SIZE: usize = 1 << 20;
    type Exact = Self;
    type Array<X> = [X; 1];
    fn array_from_fn<X>(f: impl FnMut(usize) -> X) -> [X; 1] {
        core::array::from_fn(f)
    }
    fn flatten<X>(levels: &[[X; 1]]) -> &[X] {
        levels.as_flattened()
    }
    fn flatten_mut<X>(levels: &mut [[X; 1]]) -> &mut [X] {
        levels.as_flattened_mut()
    }
}

fn main() {}
