//! `serde` interop (feature `serde`): a tensor serialises as nested
//! sequences, one level per dim (`[[1.0, 2.0], [3.0, 4.0]]` in JSON; a rank-0
//! tensor as its element), as NumPy's `tolist()` writes it. Deserialising
//! checks every level's length against the shape in the type and fails with
//! serde's `invalid_length` error, naming the axis and the shape, never a
//! panic. Neither direction needs std or an allocator.

use crate::shape::Shape;
use crate::Tensor;
use core::fmt;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// The elements of one sub-tensor, nested one sequence per dim.
struct Nested<'t, T> {
    dims: &'t [usize],
    elements: &'t [T],
}

impl<T: Serialize> Serialize for Nested<'_, T> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let Some((&len, inner)) = self.dims.split_first() else {
            return self.elements[0].serialize(serializer);
        };
        let mut seq = serializer.serialize_seq(Some(len))?;
        let stride = inner.iter().product::<usize>();
        for k in 0..len {
            seq.serialize_element(&Nested {
                dims: inner,
                elements: &self.elements[k * stride..(k + 1) * stride],
            })?;
        }
        seq.end()
    }
}

macro_rules! impl_serialize {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        /// Nested sequences, one level per dim.
        ///
        /// ```
        /// # use tensor_expr_runtime::{Tensor, D};
        /// let x = Tensor::<i32, (D<2>, D<2>)>::new([[1, 2], [3, 4]]);
        /// assert_eq!(serde_json::to_string(&x)?, "[[1,2],[3,4]]");
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        impl<$($g)*> Serialize for $ty where S: Shape, T: Serialize {
            fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
                Nested { dims: S::DIMS, elements: self.as_slice() }.serialize(serializer)
            }
        }
    };
}
crate::containers::for_each_container!(impl_serialize);

/// Reads one sub-tensor into `elements`, checking its length at each level.
struct Fill<'t, T> {
    /// The whole shape, for the error message.
    shape: &'static [usize],
    /// The axis this level reads.
    axis: usize,
    elements: &'t mut [T],
}

impl<'de, T: serde::Deserialize<'de>> DeserializeSeed<'de> for Fill<'_, T> {
    type Value = ();
    fn deserialize<Z: Deserializer<'de>>(self, deserializer: Z) -> Result<(), Z::Error> {
        if self.axis == self.shape.len() {
            self.elements[0] = T::deserialize(deserializer)?;
            Ok(())
        } else {
            deserializer.deserialize_seq(self)
        }
    }
}

impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for Fill<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        de::Expected::fmt(
            &Expected {
                shape: self.shape,
                axis: self.axis,
            },
            f,
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let expected = Expected {
            shape: self.shape,
            axis: self.axis,
        };
        let len = self.shape[self.axis];
        let stride = self.shape[self.axis + 1..].iter().product::<usize>();
        for k in 0..len {
            let level = Fill {
                shape: self.shape,
                axis: self.axis + 1,
                elements: &mut self.elements[k * stride..(k + 1) * stride],
            };
            if seq.next_element_seed(level)?.is_none() {
                return Err(de::Error::invalid_length(k, &expected));
            }
        }
        let mut seen = len;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            seen += 1;
        }
        if seen != len {
            return Err(de::Error::invalid_length(seen, &expected));
        }
        Ok(())
    }
}

/// "3 elements along axis 1 of shape [2, 3]": what one level must hold.
struct Expected {
    shape: &'static [usize],
    axis: usize,
}

impl de::Expected for Expected {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} elements along axis {} of shape {:?}",
            self.shape[self.axis], self.axis, self.shape
        )
    }
}

fn fill<'de, T, S, Z>(elements: &mut [T], deserializer: Z) -> Result<(), Z::Error>
where
    T: serde::Deserialize<'de>,
    S: Shape,
    Z: Deserializer<'de>,
{
    Fill {
        shape: S::DIMS,
        axis: 0,
        elements,
    }
    .deserialize(deserializer)
}

/// Nested sequences of exactly the shape's lengths, one level per dim.
///
/// ```
/// use tensor_expr_runtime::{Tensor, D};
/// let x: Tensor<f32, (D<2>, D<2>)> = serde_json::from_str("[[1, 2], [3, 4]]")?;
/// assert_eq!(x, Tensor::new([[1., 2.], [3., 4.]]));
/// let error = serde_json::from_str::<Tensor<f32, (D<2>, D<2>)>>("[[1, 2], [3]]").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "invalid length 1, expected 2 elements along axis 1 of shape [2, 2] at line 1 column 12",
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'de, T, S> serde::Deserialize<'de> for Tensor<T, S>
where
    T: serde::Deserialize<'de> + Default,
    S: Shape,
{
    fn deserialize<Z: Deserializer<'de>>(deserializer: Z) -> Result<Self, Z::Error> {
        let mut tensor = Tensor::from_flat_fn(|_| T::default());
        fill::<T, S, Z>(tensor.as_mut_slice(), deserializer)?;
        Ok(tensor)
    }
}

/// Nested sequences of exactly the shape's lengths, read directly into the
/// heap.
#[cfg(feature = "alloc")]
impl<'de, T, S> serde::Deserialize<'de> for crate::HeapTensor<T, S>
where
    T: serde::Deserialize<'de> + Default,
    S: Shape,
{
    fn deserialize<Z: Deserializer<'de>>(deserializer: Z) -> Result<Self, Z::Error> {
        let mut tensor = crate::HeapTensor::from_flat_fn(|_| T::default());
        fill::<T, S, Z>(tensor.as_mut_slice(), deserializer)?;
        Ok(tensor)
    }
}
