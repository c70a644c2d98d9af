//! Random initialisation (feature `rand`): every element drawn from any
//! `rand` [`Distribution`], in row-major order, so a seeded generator gives
//! the same tensor on every run and every target.

use crate::shape::Shape;
use rand::distr::Distribution;
use rand::Rng;

macro_rules! impl_random {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        impl<$($g)*> $ty where S: Shape {
            /// Overwrites every element with a draw from `distribution`, in
            /// row-major order.
            pub fn fill_random<R: Rng + ?Sized>(
                &mut self,
                rng: &mut R,
                distribution: impl Distribution<T>,
            ) {
                for element in self.as_mut_slice() {
                    *element = distribution.sample(rng);
                }
            }
        }
    };
}
crate::containers::for_each_container!(writable impl_random);

impl<T, S: Shape> crate::Tensor<T, S> {
    /// A tensor of draws from `distribution`, in row-major order: `Uniform`
    /// and `StandardUniform` from `rand`, `Normal` and `StandardNormal` from
    /// `rand_distr`, or any other [`Distribution`].
    ///
    /// ```
    /// use rand::{rngs::StdRng, SeedableRng};
    /// use rand::distr::Uniform;
    /// use rand_distr::StandardNormal;
    /// use tensor_expr_runtime::{Tensor, D};
    ///
    /// let mut rng = StdRng::seed_from_u64(7);
    /// // Glorot (Xavier) uniform weights of a 16 -> 8 layer.
    /// let bound = (6.0f32 / (16 + 8) as f32).sqrt();
    /// let w = Tensor::<f32, (D<16>, D<8>)>::random(&mut rng, Uniform::new(-bound, bound)?);
    /// assert!(w.iter().all(|x| x.abs() < bound));
    /// let noise = Tensor::<f64, (D<4>,)>::random(&mut rng, StandardNormal);
    /// assert!(noise.iter().all(|x| x.is_finite()));
    /// // The same seed, the same tensor.
    /// let again = Tensor::<f32, (D<16>, D<8>)>::random(
    ///     &mut StdRng::seed_from_u64(7),
    ///     Uniform::new(-bound, bound)?,
    /// );
    /// assert_eq!(w, again);
    /// # Ok::<(), rand::distr::uniform::Error>(())
    /// ```
    pub fn random<R: Rng + ?Sized>(rng: &mut R, distribution: impl Distribution<T>) -> Self {
        Self::from_flat_fn(|_| distribution.sample(rng))
    }
}

#[cfg(feature = "alloc")]
impl<T, S: Shape> crate::HeapTensor<T, S> {
    /// A heap tensor of draws from `distribution`, in row-major order (the
    /// same elements as [`Tensor::random`](crate::Tensor::random) from the
    /// same generator state), built directly on the heap.
    pub fn random<R: Rng + ?Sized>(rng: &mut R, distribution: impl Distribution<T>) -> Self {
        Self::from_flat_fn(|_| distribution.sample(rng))
    }
}
