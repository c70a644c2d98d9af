//! NumPy-style printing of nested rows, shared by tensors and views.
//!
//! `Display` prints like NumPy's `str` (`[[1 2 3]\n [4 5 6]]`), `Debug` like its
//! `repr` without the `array(...)` wrapper (`[[1.0, 2.0, 3.0],\n [4.0, 5.0, 6.0]]`).
//! Elements are right-aligned to a common width; no allocation is needed.

use core::fmt::{self, Debug, Display, Formatter, Write};

/// Which element formatting and separators to use.
#[derive(Clone, Copy)]
pub(crate) enum Style {
    /// NumPy `str`: `Display` elements separated by spaces.
    Display,
    /// NumPy `repr`: `Debug` elements separated by commas.
    Debug,
}

/// Writes `data` (row-major, of shape `dims`) as nested rows.
pub(crate) fn write_nested<T: Display + Debug>(
    f: &mut Formatter<'_>,
    data: &[T],
    dims: &[usize],
    style: Style,
) -> fmt::Result {
    let mut width = 0;
    for x in data {
        let mut counter = CharCounter(0);
        write_element(&mut counter, x, style, 0)?;
        width = width.max(counter.0);
    }
    write_level(f, data, dims, 0, width, style)
}

fn write_level<T: Display + Debug>(
    f: &mut Formatter<'_>,
    data: &[T],
    dims: &[usize],
    depth: usize,
    width: usize,
    style: Style,
) -> fmt::Result {
    let Some((&len, inner_dims)) = dims.split_first() else {
        return write_element(f, &data[0], style, width);
    };
    let inner_len: usize = inner_dims.iter().product();
    f.write_char('[')?;
    for i in 0..len {
        if i > 0 {
            if let Style::Debug = style {
                f.write_char(',')?;
            }
            if inner_dims.is_empty() {
                f.write_char(' ')?;
            } else {
                for _ in 0..inner_dims.len() {
                    f.write_char('\n')?;
                }
                for _ in 0..=depth {
                    f.write_char(' ')?;
                }
            }
        }
        let start = i * inner_len;
        write_level(
            f,
            &data[start..start + inner_len],
            inner_dims,
            depth + 1,
            width,
            style,
        )?;
    }
    f.write_char(']')
}

fn write_element<T: Display + Debug>(
    w: &mut impl Write,
    x: &T,
    style: Style,
    width: usize,
) -> fmt::Result {
    match style {
        Style::Display => write!(w, "{x:>width$}"),
        Style::Debug => write!(w, "{x:>width$?}"),
    }
}

/// Counts the characters written, to find the common element width.
struct CharCounter(usize);

impl Write for CharCounter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.chars().count();
        Ok(())
    }
}
