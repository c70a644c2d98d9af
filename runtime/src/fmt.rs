//! NumPy-style printing of nested rows, shared by tensors and views.
//!
//! `Display` prints like NumPy's `str`: `[[1 2 3]\n [4 5 6]]` for integers and
//! `[[ 1.   2.5 -3. ]]` for floats. A float has its decimal point (`1.`), at most
//! 8 fraction digits (fewer when fewer give back the same number: NumPy's
//! default `floatmode="maxprec"`), `nan`, `inf` and `-inf`; the decimal points
//! of a tensor line up. When an element's magnitude is at least `1e8`, a
//! non-zero one's is below `1e-4`, or the largest is over 1000 times the
//! smallest non-zero one, the whole tensor is printed in scientific notation
//! with equal mantissa digits (`[1.0e-05 2.5e+08]`), as NumPy does.
//! `Debug` prints like NumPy's `repr` without the `array(...)` wrapper,
//! with Rust's `Debug` elements (`[[1.0, 2.0],\n [3.0, 4.0]]`).
//! No allocation is needed.

use core::fmt::{self, Debug, Formatter, Write};

/// An element that prints in a tensor's `Display`, as NumPy's `str` does.
///
/// ```
/// use tensor_expr_runtime::{Tensor, D};
/// let x = Tensor::<f64, (D<4>,)>::new([1.0, -2.5, f64::NAN, f64::INFINITY]);
/// assert_eq!(x.to_string(), "[ 1.  -2.5  nan  inf]");
/// let small = Tensor::<f32, (D<2>,)>::new([1e-5, 250.0]);
/// assert_eq!(small.to_string(), "[1.0e-05 2.5e+02]");
/// let counts = Tensor::<u8, (D<3>,)>::new([1, 20, 3]);
/// assert_eq!(counts.to_string(), "[ 1 20  3]");
/// ```
pub trait DisplayElement {
    /// For floats, the magnitude that decides between positional and
    /// scientific notation: `Some(|x|)` when finite, `None` otherwise (and for
    /// integers, which are always positional).
    fn magnitude(&self) -> Option<f64>;
    /// Writes the element's text in the given notation, before alignment.
    fn write_text(&self, out: &mut Text, notation: Notation) -> fmt::Result;
}

/// How the floats of one tensor are written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Notation {
    /// `123.456`, at most 8 fraction digits.
    Positional,
    /// `1.23456e+02`: a mantissa with at most 8 fraction digits, then `e`, the
    /// exponent's sign and at least two exponent digits.
    Scientific,
}

/// The most fraction digits NumPy prints by default (`precision=8`).
const PRECISION: usize = 8;

macro_rules! display_integers {
    ($($t:ty),*) => {$(
        impl DisplayElement for $t {
            fn magnitude(&self) -> Option<f64> {
                None
            }
            fn write_text(&self, out: &mut Text, _notation: Notation) -> fmt::Result {
                write!(out, "{self}")
            }
        }
    )*};
}
crate::element::for_each_element!(signed_integers, display_integers);
crate::element::for_each_element!(unsigned_integers, display_integers);

impl DisplayElement for bool {
    fn magnitude(&self) -> Option<f64> {
        None
    }
    /// `True`/`False`, as NumPy prints booleans.
    fn write_text(&self, out: &mut Text, _notation: Notation) -> fmt::Result {
        out.write_str(if *self { "True" } else { "False" })
    }
}

macro_rules! display_floats {
    ($($t:ty),*) => {$(
        impl DisplayElement for $t {
            fn magnitude(&self) -> Option<f64> {
                self.is_finite().then(|| f64::from(self.abs()))
            }
            fn write_text(&self, out: &mut Text, notation: Notation) -> fmt::Result {
                if self.is_nan() {
                    return out.write_str("nan");
                }
                if self.is_infinite() {
                    return out.write_str(if *self > 0.0 { "inf" } else { "-inf" });
                }
                write_finite(out, notation, |w, digits| match (notation, digits) {
                    (Notation::Positional, None) => write!(w, "{self}"),
                    (Notation::Positional, Some(p)) => write!(w, "{self:.p$}"),
                    (Notation::Scientific, None) => write!(w, "{self:e}"),
                    (Notation::Scientific, Some(p)) => write!(w, "{self:.p$e}"),
                })
            }
        }
    )*};
}
display_floats!(f32, f64);

/// Writes a finite float in `notation`: Rust's shortest round-trip text if
/// its mantissa has at most [`PRECISION`] fraction digits, else rounded to
/// that many, with trailing zeros removed and always a decimal point (`1.`);
/// in scientific notation then `e`, the exponent's sign and at least two
/// digits (`1.5e+08`). `format` writes the float, shortest (`None`) or with
/// the given fraction digits, in Rust's text for `notation`.
fn write_finite(
    out: &mut Text,
    notation: Notation,
    format: impl Fn(&mut Text, Option<usize>) -> fmt::Result,
) -> fmt::Result {
    let mut text = Text::new();
    format(&mut text, None)?;
    if fraction_digits(split_exponent(text.as_str()).0) > PRECISION {
        text.clear();
        format(&mut text, Some(PRECISION))?;
    }
    let (mantissa, exponent) = split_exponent(text.as_str());
    match mantissa.split_once('.') {
        Some((whole, fraction)) => write!(out, "{whole}.{}", fraction.trim_end_matches('0'))?,
        None => write!(out, "{mantissa}.")?,
    }
    if notation == Notation::Scientific {
        let (sign, digits) = match exponent.strip_prefix('-') {
            Some(digits) => ('-', digits),
            None => ('+', exponent),
        };
        write!(out, "e{sign}{digits:0>2}")?;
    }
    Ok(())
}

/// `("1.5", "8")` for `"1.5e8"`.
fn split_exponent(text: &str) -> (&str, &str) {
    text.split_once('e').unwrap_or((text, "0"))
}

fn fraction_digits(text: &str) -> usize {
    text.split_once('.')
        .map_or(0, |(_, fraction)| fraction.len())
}

/// Which element formatting and separators to use.
#[derive(Clone, Copy)]
pub(crate) enum Style {
    /// NumPy `str`: aligned [`DisplayElement`] texts separated by spaces.
    Display,
    /// NumPy `repr`: `Debug` elements separated by commas.
    Debug,
}

/// Writes `data` (row-major, of shape `dims`) as nested rows, NumPy's `str`.
pub(crate) fn write_display<'t, T: DisplayElement + 't>(
    f: &mut Formatter<'_>,
    data: impl IntoIterator<Item = &'t T, IntoIter: Clone>,
    dims: &[usize],
) -> fmt::Result {
    let data = data.into_iter();
    let layout = DisplayLayout::of(data.clone())?;
    write_level(f, &mut { data }, dims, 0, Style::Display, &mut |f, x| {
        layout.write(f, x)
    })
}

/// Writes `data` (row-major, of shape `dims`) as nested rows, NumPy's `repr`.
pub(crate) fn write_debug<'t, T: Debug + 't>(
    f: &mut Formatter<'_>,
    data: impl IntoIterator<Item = &'t T, IntoIter: Clone>,
    dims: &[usize],
) -> fmt::Result {
    let data = data.into_iter();
    let mut width = 0;
    for x in data.clone() {
        let mut counter = CharCounter(0);
        write!(counter, "{x:?}")?;
        width = width.max(counter.0);
    }
    write_level(f, &mut { data }, dims, 0, Style::Debug, &mut |f, x| {
        write!(f, "{x:>width$?}")
    })
}

/// The notation and column widths of one tensor's `Display`: the text left
/// of the decimal point is right-aligned, the rest left-aligned, so the points
/// line up; `nan` and `inf` are right-aligned to the whole width.
struct DisplayLayout {
    notation: Notation,
    /// The widest text before the decimal point (the whole text of integers).
    left: usize,
    /// The widest text from the decimal point on.
    right: usize,
    /// Scientific mantissas are padded with zeros to this many fraction digits.
    mantissa_digits: usize,
    /// Scientific exponents are padded with zeros to this many digits.
    exponent_digits: usize,
}

impl DisplayLayout {
    fn of<'t, T: DisplayElement + 't>(
        data: impl Iterator<Item = &'t T> + Clone,
    ) -> Result<Self, fmt::Error> {
        let (mut largest, mut smallest) = (0.0f64, f64::INFINITY);
        for magnitude in data.clone().filter_map(DisplayElement::magnitude) {
            largest = largest.max(magnitude);
            if magnitude > 0.0 {
                smallest = smallest.min(magnitude);
            }
        }
        let notation = if largest >= 1e8 || smallest < 1e-4 || largest > 1e3 * smallest {
            Notation::Scientific
        } else {
            Notation::Positional
        };
        let mut layout = DisplayLayout {
            notation,
            left: 0,
            right: 0,
            mantissa_digits: 0,
            exponent_digits: 0,
        };
        let mut non_finite = 0;
        for x in data {
            let text = Text::of(x, notation)?;
            let text = text.as_str();
            match text.split_once('.') {
                Some((left, rest)) => {
                    layout.left = layout.left.max(left.len());
                    layout.right = layout.right.max(rest.len() + 1);
                    let (fraction, exponent) = split_exponent(rest);
                    layout.mantissa_digits = layout.mantissa_digits.max(fraction.len());
                    // The exponent's text is its sign and digits.
                    layout.exponent_digits = layout.exponent_digits.max(exponent.len() - 1);
                }
                None if is_non_finite(text) => {
                    non_finite = non_finite.max(text.len());
                }
                None => layout.left = layout.left.max(text.len()),
            }
        }
        if notation == Notation::Scientific {
            // Equal digits make every scientific text equally long: `.`,
            // the mantissa's fraction, `e`, the sign, the exponent.
            layout.right = 1 + layout.mantissa_digits + 2 + layout.exponent_digits;
        }
        layout.left = layout.left.max(non_finite.saturating_sub(layout.right));
        Ok(layout)
    }

    fn write<T: DisplayElement>(&self, f: &mut Formatter<'_>, x: &T) -> fmt::Result {
        let text = Text::of(x, self.notation)?;
        let text = text.as_str();
        let (left, right) = (self.left, self.right);
        match text.split_once('.') {
            Some((whole, rest)) if self.notation == Notation::Scientific => {
                let (fraction, exponent) = split_exponent(rest);
                let (sign, digits) = exponent.split_at(1);
                let (zeros, width) = (self.mantissa_digits - fraction.len(), self.exponent_digits);
                write!(
                    f,
                    "{whole:>left$}.{fraction}{:0<zeros$}e{sign}{digits:0>width$}",
                    ""
                )
            }
            Some((whole, rest)) => write!(f, "{whole:>left$}.{rest:<width$}", width = right - 1),
            None if is_non_finite(text) => write!(f, "{text:>width$}", width = left + right),
            None => write!(f, "{text:>left$}{:right$}", ""),
        }
    }
}

fn is_non_finite(text: &str) -> bool {
    matches!(text, "nan" | "inf" | "-inf")
}

/// Writes the next elements of `data` as one level of nested rows of
/// shape `dims`, in row-major order.
fn write_level<'t, T: 't>(
    f: &mut Formatter<'_>,
    data: &mut impl Iterator<Item = &'t T>,
    dims: &[usize],
    depth: usize,
    style: Style,
    element: &mut impl FnMut(&mut Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    let Some((&len, inner_dims)) = dims.split_first() else {
        return element(f, data.next().ok_or(fmt::Error)?);
    };
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
        write_level(f, data, inner_dims, depth + 1, style, element)?;
    }
    f.write_char(']')
}

/// Counts the characters written, to find the common element width.
struct CharCounter(usize);

impl Write for CharCounter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.chars().count();
        Ok(())
    }
}

/// One element's text on the stack (no allocator): long enough for any
/// integer, for a float in scientific notation and for one positionally
/// written in the range that uses it (below `1e8`). A longer text fails with
/// [`fmt::Error`] instead of being cut.
pub struct Text {
    bytes: [u8; Text::CAPACITY],
    len: usize,
}

impl Text {
    const CAPACITY: usize = 64;

    fn new() -> Self {
        Text {
            bytes: [0; Self::CAPACITY],
            len: 0,
        }
    }

    fn of<T: DisplayElement>(x: &T, notation: Notation) -> Result<Self, fmt::Error> {
        let mut text = Text::new();
        x.write_text(&mut text, notation)?;
        Ok(text)
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn as_str(&self) -> &str {
        // Only `write_str` fills the buffer, with whole `str`s.
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl Write for Text {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
