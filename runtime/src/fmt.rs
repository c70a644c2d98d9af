//! NumPy-style printing of nested rows, shared by tensors and views.
//!
//! `Display` prints like NumPy's `str`: `[[1 2 3]\n [4 5 6]]` for integers and
//! `[[ 1.   2.5 -3. ]]` for floats. A float has its decimal point (`1.`), at most
//! 8 fraction digits (fewer when fewer give back the same number: NumPy's
//! default `floatmode="maxprec"`), `nan`, `inf` and `-inf`; the decimal points
//! of a tensor line up. When an element's magnitude is at least `1e8`, a
//! non-zero one's is below `1e-4`, or the largest is over 1000 times the
//! smallest non-zero one, the whole tensor is printed in scientific notation
//! with equal mantissa digits (`[1.0e-05 2.5e+08]`, a shorter mantissa
//! taking further digits of its exact value, not zeros), as NumPy does.
//! Rows wrap at NumPy's 75 columns, continuation lines indented under the
//! row's first element. A rank-0 tensor prints as NumPy prints a scalar
//! (`3.0`, `1e+16`). Unlike NumPy, a tensor of more than 1000 elements is
//! printed whole, not summarised with `...`.
//! `Debug` prints like NumPy's `repr` without the `array(...)` wrapper,
//! with Rust's `Debug` elements (`[[1.0, 2.0],\n [3.0, 4.0]]`), unwrapped.
//! No allocation is needed. `tests/display.rs` compares the output with
//! NumPy's for arrays of every rank, magnitude and notation.

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
    /// In scientific notation the mantissa has at least `min_digits`
    /// fraction digits (more digits of the exact value, as NumPy's
    /// `min_digits`); the shortest text that reads back is written otherwise.
    fn write_text(&self, out: &mut Text, notation: Notation, min_digits: usize) -> fmt::Result;
    /// Writes the element as NumPy prints a scalar (a rank-0 array): for
    /// floats, the shortest text that reads back, positional with at least
    /// one fraction digit (`3.0`) when `1e-4 <= |x| < 1e16` or `x` is 0,
    /// else scientific without a bare point (`1e+16`, `1.5e-05`).
    fn write_scalar(&self, out: &mut Text) -> fmt::Result {
        self.write_text(out, Notation::Positional, 0)
    }
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
            fn write_text(&self, out: &mut Text, _notation: Notation, _min_digits: usize) -> fmt::Result {
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
    fn write_text(&self, out: &mut Text, _notation: Notation, _min_digits: usize) -> fmt::Result {
        out.write_str(if *self { "True" } else { "False" })
    }
}

macro_rules! display_floats {
    ($($t:ty),*) => {$(
        impl DisplayElement for $t {
            fn magnitude(&self) -> Option<f64> {
                self.is_finite().then(|| f64::from(self.abs()))
            }
            fn write_text(&self, out: &mut Text, notation: Notation, min_digits: usize) -> fmt::Result {
                if self.is_nan() {
                    return out.write_str("nan");
                }
                if self.is_infinite() {
                    return out.write_str(if *self > 0.0 { "inf" } else { "-inf" });
                }
                write_finite(out, notation, min_digits, |w, digits| match (notation, digits) {
                    (Notation::Positional, None) => write!(w, "{self}"),
                    (Notation::Positional, Some(p)) => write!(w, "{self:.p$}"),
                    (Notation::Scientific, None) => write!(w, "{self:e}"),
                    (Notation::Scientific, Some(p)) => write!(w, "{self:.p$e}"),
                })
            }
            fn write_scalar(&self, out: &mut Text) -> fmt::Result {
                let magnitude = self.abs();
                if !self.is_finite() || magnitude == 0.0 || (1e-4..1e16).contains(&magnitude) {
                    self.write_text(out, Notation::Positional, 0)?;
                    if out.as_str().ends_with('.') {
                        out.write_char('0')?;
                    }
                    return Ok(());
                }
                let mut text = Text::new();
                write!(text, "{self:e}")?;
                let (mantissa, exponent) = split_exponent(text.as_str());
                let (sign, digits) = match exponent.strip_prefix('-') {
                    Some(digits) => ('-', digits),
                    None => ('+', exponent),
                };
                write!(out, "{mantissa}e{sign}{digits:0>2}")
            }
        }
    )*};
}
display_floats!(f32, f64);

/// Writes a finite float in `notation`: Rust's shortest round-trip text if
/// its mantissa has at most [`PRECISION`] fraction digits, else rounded to
/// that many, with trailing zeros removed and always a decimal point (`1.`);
/// in scientific notation a mantissa with fewer than `min_digits` fraction
/// digits is written again with that many (Rust rounds the exact value, as
/// NumPy's Dragon4 does), then `e`, the exponent's sign and at least two
/// digits (`1.5e+08`). `format` writes the float, shortest (`None`) or with
/// the given fraction digits, in Rust's text for `notation`.
fn write_finite(
    out: &mut Text,
    notation: Notation,
    min_digits: usize,
    format: impl Fn(&mut Text, Option<usize>) -> fmt::Result,
) -> fmt::Result {
    let mut text = Text::new();
    format(&mut text, None)?;
    // The fraction digits kept even where they are zeros.
    let keep = match notation {
        Notation::Scientific => min_digits.min(PRECISION),
        Notation::Positional => 0,
    };
    let digits = fraction_digits(split_exponent(text.as_str()).0);
    if digits > PRECISION {
        text.clear();
        format(&mut text, Some(PRECISION))?;
    } else if digits < keep {
        text.clear();
        format(&mut text, Some(keep))?;
    }
    let (mantissa, exponent) = split_exponent(text.as_str());
    match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            let shown = fraction.trim_end_matches('0').len().max(keep);
            write!(out, "{whole}.{}", &fraction[..shown])?
        }
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

/// NumPy's default line width (`np.set_printoptions(linewidth=75)`).
const LINE_WIDTH: usize = 75;

/// Which element formatting and separators to use.
#[derive(Clone, Copy)]
pub(crate) enum Style {
    /// NumPy `str`: aligned [`DisplayElement`] texts of `width` characters,
    /// separated by spaces, rows wrapped at [`LINE_WIDTH`].
    Display { width: usize },
    /// NumPy `repr`: `Debug` elements separated by commas.
    Debug,
}

/// Writes `data` (row-major, of shape `dims`) as nested rows, NumPy's `str`.
pub(crate) fn write_display<'t, T: DisplayElement + 't>(
    f: &mut Formatter<'_>,
    data: impl IntoIterator<Item = &'t T, IntoIter: Clone>,
    dims: &[usize],
) -> fmt::Result {
    let mut data = data.into_iter();
    if dims.is_empty() {
        let text = Text::scalar(data.next().ok_or(fmt::Error)?)?;
        return f.write_str(text.as_str());
    }
    let layout = DisplayLayout::of(data.clone())?;
    let width = layout.left + layout.right;
    write_level(
        f,
        &mut data,
        dims,
        0,
        Style::Display { width },
        &mut |f, x| layout.write(f, x),
    )?;
    Ok(())
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
        write!(f, "{x:>width$?}")?;
        Ok(0)
    })?;
    Ok(())
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
            let text = Text::of(x, notation, 0)?;
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

    /// Writes `x` aligned, all but its right padding, and returns the
    /// padding's width: the row writer adds it unless the line wraps there
    /// (NumPy strips a line's trailing spaces).
    fn write<T: DisplayElement>(&self, f: &mut Formatter<'_>, x: &T) -> Result<usize, fmt::Error> {
        let text = Text::of(x, self.notation, self.mantissa_digits)?;
        let text = text.as_str();
        let (left, right) = (self.left, self.right);
        match text.split_once('.') {
            Some((whole, rest)) if self.notation == Notation::Scientific => {
                let (fraction, exponent) = split_exponent(rest);
                let (sign, digits) = exponent.split_at(1);
                let width = self.exponent_digits;
                write!(f, "{whole:>left$}.{fraction}e{sign}{digits:0>width$}")?;
                Ok(0)
            }
            Some((whole, rest)) => {
                write!(f, "{whole:>left$}.{rest}")?;
                Ok(right - 1 - rest.len())
            }
            None if is_non_finite(text) => {
                write!(f, "{text:>width$}", width = left + right)?;
                Ok(0)
            }
            None => {
                write!(f, "{text:>left$}")?;
                Ok(right)
            }
        }
    }
}

fn is_non_finite(text: &str) -> bool {
    matches!(text, "nan" | "inf" | "-inf")
}

/// Writes the next elements of `data` as one level of nested rows of
/// shape `dims`, in row-major order. `element` writes one element and
/// returns the width of right padding it leaves unwritten; this returns the
/// same for the level it writes (0 once a row is closed).
fn write_level<'t, T: 't>(
    f: &mut Formatter<'_>,
    data: &mut impl Iterator<Item = &'t T>,
    dims: &[usize],
    depth: usize,
    style: Style,
    element: &mut impl FnMut(&mut Formatter<'_>, &T) -> Result<usize, fmt::Error>,
) -> Result<usize, fmt::Error> {
    let Some((&len, inner_dims)) = dims.split_first() else {
        return element(f, data.next().ok_or(fmt::Error)?);
    };
    f.write_char('[')?;
    // The characters on the present line: the brackets or indentation
    // before the first element, `depth + 1` of them, then the elements.
    let mut line = depth + 1;
    // The previous element's right padding, written unless the line wraps.
    let mut padding = 0;
    for i in 0..len {
        if i > 0 {
            if let Style::Debug = style {
                f.write_char(',')?;
            }
            if inner_dims.is_empty() {
                match style {
                    // NumPy's `_formatArray`: an element that would end past
                    // the line width less this row's closing brackets (one
                    // per level) starts a new line, indented under the row's
                    // first element.
                    Style::Display { width } if line + 1 + width > LINE_WIDTH - 1 - depth => {
                        f.write_char('\n')?;
                        for _ in 0..=depth {
                            f.write_char(' ')?;
                        }
                        line = depth + 1;
                    }
                    _ => {
                        write!(f, "{:padding$} ", "")?;
                        line += 1;
                    }
                }
            } else {
                for _ in 0..inner_dims.len() {
                    f.write_char('\n')?;
                }
                for _ in 0..=depth {
                    f.write_char(' ')?;
                }
            }
        }
        padding = write_level(f, data, inner_dims, depth + 1, style, element)?;
        if let Style::Display { width } = style {
            line += width;
        }
    }
    write!(f, "{:padding$}]", "")?;
    Ok(0)
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

    fn of<T: DisplayElement>(
        x: &T,
        notation: Notation,
        min_digits: usize,
    ) -> Result<Self, fmt::Error> {
        let mut text = Text::new();
        x.write_text(&mut text, notation, min_digits)?;
        Ok(text)
    }

    fn scalar<T: DisplayElement>(x: &T) -> Result<Self, fmt::Error> {
        let mut text = Text::new();
        x.write_scalar(&mut text)?;
        Ok(text)
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// The text written so far.
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
