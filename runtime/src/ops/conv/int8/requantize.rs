//! An int8 layer's epilogue in registers: TFLite's requantisation of a
//! block of channels' `i32` sums, as the layer kernels apply it to each
//! tile before its one store of bytes, in AVX-512 ([`Steps`], 16 channels:
//! the VNNI convolution's and depthwise kernels) and in AVX2 ([`Steps8`],
//! 8 channels: the AVX2 depthwise kernel). The same arithmetic as
//! [`Requantization::apply`], lane by lane.

use crate::expr::{PerChannel, Requantization};
use crate::scratch::{Buf, Scratch};
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

/// The lanes of one block of sums: 16 channels.
const LANES: usize = 16;

/// An epilogue's steps for one block of 16 channels, as vectors: each
/// lane's sum `acc` becomes `min(max(requantize(acc + add, multiplier,
/// shift) + offset, lo), hi)` ([`Requantization::apply`]), where `add`
/// holds the `vpdpbusd` correction and the bias. The kernels start each
/// sum at `add` ([`Steps::first`]): one addition fewer per block.
#[derive(Clone, Copy)]
pub(super) struct Steps {
    /// The block's first channel.
    pub(super) channel: usize,
    /// The block's channels inside the output (16, or fewer in the last).
    lanes: usize,
    /// The correction for the input bytes' 128, plus the bias.
    add: __m512i,
    /// `requantize`'s left shift, each lane's count below 32.
    left: __m512i,
    /// Whether a lane shifts left (TFLite's multipliers below 1, the
    /// usual, shift right only).
    shifts_left: bool,
    /// The multipliers.
    multiplier: __m512i,
    /// The multipliers of the odd lanes, in the even ones.
    multiplier_odd: __m512i,
    /// The lanes whose multiplier is `i32::MIN` (the one overflow).
    multiplier_min: __mmask16,
    /// The right shift, 0 to 31.
    right: __m512i,
    /// `2^(right - 1)`, or 0 where `right` is 0: what a magnitude's half
    /// adds before the shift, rounding it half up.
    half: __m512i,
    /// The zero point added after the requantisation, and the clamp's
    /// bounds: one value each for every lane (read as a broadcast from
    /// memory, which takes no more than a vector's load).
    offset: i32,
    lo: i32,
    hi: i32,
    /// Whether `lo` and `hi` clamp within the bytes' range: the store
    /// saturates to it, so a bound at its end (`-128` below, `127` above:
    /// a ReLU's upper one, every layer's lower one at the zero point
    /// -128) needs no operation.
    clamps_lo: bool,
    clamps_hi: bool,
}

impl Steps {
    /// The steps of channels `channel ..+ 16` of a layer of `c_out`
    /// channels (lanes past it hold zeros), the correction `factor`
    /// times each channel's weight sum (`weight_sums[c]`, at least a
    /// block's 16 from `channel`).
    ///
    /// # Panics
    /// If `weight_sums` or a per-channel parameter is shorter than that.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn new(
        epilogue: &Requantization<'_>,
        weight_sums: &[i32],
        factor: i32,
        channel: usize,
        c_out: usize,
    ) -> Steps {
        let lanes = (c_out - channel).min(LANES);
        let mask: __mmask16 = if lanes == LANES { !0 } else { (1 << lanes) - 1 };
        // A parameter's values of the block's channels, zero past them.
        let values = |parameter: PerChannel<'_>| match parameter {
            PerChannel::All(value) => _mm512_maskz_set1_epi32(mask, value),
            PerChannel::Each(values) => {
                let values = &values[channel..channel + lanes];
                // SAFETY: the mask's lanes are `values`' readable `i32`s;
                // masked lanes touch no memory; the load is unaligned.
                unsafe { _mm512_maskz_loadu_epi32(mask, values.as_ptr().cast()) }
            }
        };
        let weight_sums: &[i32; LANES] = weight_sums[channel..channel + LANES]
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: 16 readable `i32`s; the load is unaligned.
        let weight_sums = unsafe { _mm512_loadu_si512(weight_sums.as_ptr().cast()) };
        let (multiplier, shift) = (values(epilogue.multiplier), values(epilogue.shift));
        let zero = _mm512_setzero_si512();
        // `shift.wrapping_neg().clamp(0, 31)` and `shift.max(0) & 31`.
        let right = _mm512_min_epi32(
            _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero),
            _mm512_set1_epi32(31),
        );
        let half = _mm512_srli_epi32::<1>(_mm512_sllv_epi32(_mm512_set1_epi32(1), right));
        Steps {
            channel,
            lanes,
            add: _mm512_add_epi32(
                _mm512_mullo_epi32(weight_sums, _mm512_set1_epi32(factor)),
                values(epilogue.bias),
            ),
            left: _mm512_and_si512(_mm512_max_epi32(shift, zero), _mm512_set1_epi32(31)),
            shifts_left: _mm512_cmpgt_epi32_mask(shift, zero) != 0,
            multiplier,
            multiplier_odd: _mm512_srli_epi64::<32>(multiplier),
            multiplier_min: _mm512_mask_cmpeq_epi32_mask(
                mask,
                multiplier,
                _mm512_set1_epi32(i32::MIN),
            ),
            right,
            half,
            offset: epilogue.offset,
            lo: epilogue.lo,
            hi: epilogue.hi,
            clamps_lo: epilogue.lo > i32::from(i8::MIN),
            clamps_hi: epilogue.hi < i32::from(i8::MAX),
        }
    }

    /// The steps of every block of 16 channels of a layer of `c_out`
    /// channels ([`Steps::new`]), written into `blocks` (emptied first; a
    /// capacity of as many blocks leaves its allocation where the caller
    /// made it): a layer kernel's tiles read them there, so that they take
    /// no stack (LLVM would keep values of its own out of the tile loop, in
    /// stack slots).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn blocks<'s>(
        scratch: &mut Scratch<'s>,
        epilogue: &Requantization<'_>,
        weight_sums: &[i32],
        factor: i32,
        c_out: usize,
    ) -> Buf<'s, Steps> {
        scratch.made_by(c_out.div_ceil(LANES), |block| {
            Steps::new(epilogue, weight_sums, factor, block * LANES, c_out)
        })
    }

    /// The value each lane's sum starts at: the correction and the bias
    /// that [`Steps::apply`] takes as added.
    ///
    /// # Safety
    /// The CPU has AVX-512 F; always inlined as [`Self::apply`].
    #[inline(always)]
    pub(super) unsafe fn first(&self) -> __m512i {
        self.add
    }

    /// The steps applied to the 16 sums `sums`, each started at
    /// [`Steps::first`] (`fixed_point`'s
    /// `multiply_by_quantized_multiplier`, in vectors: the 64-bit
    /// products of the even and the odd lanes apart), but for the
    /// saturation to bytes, which [`Steps::store`] makes.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW. Always inlined, without target
    /// features of its own: a layer kernel's tile calls it once per block
    /// of sums, and a call (kept where optimised for size) would spill
    /// every sum of the tile around it.
    #[inline(always)]
    pub(super) unsafe fn apply(&self, sums: __m512i) -> __m512i {
        // Two steps most layers do not need are skipped by branches that
        // go the same way for every tile.
        let mut x = sums;
        if self.shifts_left {
            x = _mm512_sllv_epi32(x, self.left);
        }
        // `(x * m + 2^30) >> 31` of each lane: bits 31 to 62 of the
        // 64-bit sum, the low half of the even lanes' shifted right,
        // the high half of the odd lanes' shifted left by one.
        let nudge = _mm512_set1_epi64(1 << 30);
        let even = _mm512_mul_epi32(x, self.multiplier);
        let odd = _mm512_mul_epi32(_mm512_srli_epi64::<32>(x), self.multiplier_odd);
        let even = _mm512_srli_epi64::<31>(_mm512_add_epi64(even, nudge));
        let odd = _mm512_slli_epi64::<1>(_mm512_add_epi64(odd, nudge));
        let high = _mm512_mask_blend_epi32(0xAAAA, even, odd);
        // `MIN * MIN` saturates to `MAX`.
        let high = if self.multiplier_min == 0 {
            high
        } else {
            let overflow =
                _mm512_cmpeq_epi32_mask(x, _mm512_set1_epi32(i32::MIN)) & self.multiplier_min;
            _mm512_mask_sub_epi32(high, overflow, high, _mm512_set1_epi32(1))
        };
        // `high / 2^right`, rounded half away from zero: the magnitude
        // rounded half up (as `u32`, `|MIN| + half` has no carry out), its
        // sign put back where the zero point is added.
        let magnitude = _mm512_srlv_epi32(
            _mm512_add_epi32(_mm512_abs_epi32(high), self.half),
            self.right,
        );
        let offset = _mm512_set1_epi32(self.offset);
        let negative = _mm512_cmplt_epi32_mask(high, _mm512_setzero_si512());
        let mut y = _mm512_mask_sub_epi32(
            _mm512_add_epi32(offset, magnitude),
            negative,
            offset,
            magnitude,
        );
        if self.clamps_lo {
            y = _mm512_max_epi32(y, _mm512_set1_epi32(self.lo));
        }
        if self.clamps_hi {
            y = _mm512_min_epi32(y, _mm512_set1_epi32(self.hi));
        }
        y
    }

    /// Stores the block's lanes of `values` as bytes, each saturated to
    /// the bytes' range, into a position's channels `row`: a whole block as one 16-byte store (a masked
    /// narrowing store to memory takes several micro-ops on both machine
    /// kinds), a last partial block masked.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW; always inlined as [`Self::apply`].
    #[inline(always)]
    pub(super) unsafe fn store(&self, row: &mut [MaybeUninit<i8>], values: __m512i) {
        let lanes = &mut row[self.channel..][..self.lanes];
        if let Ok(whole) = <&mut [MaybeUninit<i8>; LANES]>::try_from(&mut *lanes) {
            // SAFETY: `whole` is 16 writable bytes; the store is unaligned.
            unsafe { _mm_storeu_si128(whole.as_mut_ptr().cast(), _mm512_cvtsepi32_epi8(values)) };
        } else {
            // The bytes narrowed in a register, then stored under a mask
            // of bytes (a masked narrowing store to memory takes more
            // micro-ops).
            let bytes = _mm512_castsi128_si512(_mm512_cvtsepi32_epi8(values));
            let mask: __mmask64 = (1 << self.lanes) - 1;
            // SAFETY: the mask's bytes are `lanes`' writable bytes; masked
            // bytes touch no memory; the store is unaligned.
            unsafe { _mm512_mask_storeu_epi8(lanes.as_mut_ptr().cast(), mask, bytes) };
        }
    }
}

/// The lanes of one block of [`Steps8`]: 8 channels.
const LANES_8: usize = 8;

/// [`Steps`] for a block of 8 channels in AVX2 vectors (no mask
/// registers: comparisons give lanes of all ones, which a subtraction
/// turns into one more).
#[derive(Clone, Copy)]
pub(super) struct Steps8 {
    /// The block's first channel.
    pub(super) channel: usize,
    /// The block's channels inside the output (8, or fewer in the last).
    lanes: usize,
    /// As [`Steps`]'s fields of the same names.
    add: __m256i,
    left: __m256i,
    shifts_left: bool,
    multiplier: __m256i,
    multiplier_odd: __m256i,
    /// All ones in the lanes whose multiplier is `i32::MIN`; whether any.
    multiplier_min: __m256i,
    any_multiplier_min: bool,
    right: __m256i,
    half: __m256i,
    offset: i32,
    lo: i32,
    hi: i32,
    clamps_lo: bool,
    clamps_hi: bool,
}

impl Steps8 {
    /// [`Steps::new`] for channels `channel ..+ 8`; `weight_sums` is read
    /// only where `factor` is not 0 (the `pairs` kernel's input holds its
    /// constant: no correction).
    ///
    /// # Panics
    /// If `weight_sums` (where read) or a per-channel parameter is shorter
    /// than that.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn new(
        epilogue: &Requantization<'_>,
        weight_sums: &[i32],
        factor: i32,
        channel: usize,
        c_out: usize,
    ) -> Steps8 {
        let lanes = (c_out - channel).min(LANES_8);
        // All ones in the block's lanes: `vpmaskmovd` loads those and
        // touches no memory for the others (a copy through an array on the
        // stack called `memcpy`, which spilled every vector around it).
        let mask = _mm256_cmpgt_epi32(
            _mm256_set1_epi32(lanes as i32),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        );
        // A parameter's values of the block's channels, zero past them.
        let values = |parameter: PerChannel<'_>| match parameter {
            PerChannel::All(value) => _mm256_and_si256(mask, _mm256_set1_epi32(value)),
            PerChannel::Each(values) => {
                let values = &values[channel..channel + lanes];
                // SAFETY: the mask's lanes are `values`' readable `i32`s;
                // masked lanes touch no memory.
                unsafe { _mm256_maskload_epi32(values.as_ptr(), mask) }
            }
        };
        let correction = if factor == 0 {
            _mm256_setzero_si256()
        } else {
            let weight_sums: &[i32; LANES_8] = weight_sums[channel..channel + LANES_8]
                .try_into()
                .unwrap_or_else(|_| unreachable!());
            // SAFETY: 8 readable `i32`s; the load is unaligned.
            let weight_sums = unsafe { _mm256_loadu_si256(weight_sums.as_ptr().cast()) };
            _mm256_mullo_epi32(weight_sums, _mm256_set1_epi32(factor))
        };
        let (multiplier, shift) = (values(epilogue.multiplier), values(epilogue.shift));
        let zero = _mm256_setzero_si256();
        let right = _mm256_min_epi32(
            _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero),
            _mm256_set1_epi32(31),
        );
        let half = _mm256_srli_epi32::<1>(_mm256_sllv_epi32(_mm256_set1_epi32(1), right));
        let multiplier_min = _mm256_cmpeq_epi32(multiplier, _mm256_set1_epi32(i32::MIN));
        Steps8 {
            channel,
            lanes,
            add: _mm256_add_epi32(correction, values(epilogue.bias)),
            left: _mm256_and_si256(_mm256_max_epi32(shift, zero), _mm256_set1_epi32(31)),
            shifts_left: _mm256_movemask_epi8(_mm256_cmpgt_epi32(shift, zero)) != 0,
            multiplier,
            multiplier_odd: _mm256_srli_epi64::<32>(multiplier),
            multiplier_min,
            any_multiplier_min: _mm256_movemask_epi8(multiplier_min) != 0,
            right,
            half,
            offset: epilogue.offset,
            lo: epilogue.lo,
            hi: epilogue.hi,
            clamps_lo: epilogue.lo > i32::from(i8::MIN),
            clamps_hi: epilogue.hi < i32::from(i8::MAX),
        }
    }

    /// [`Steps::blocks`] for blocks of 8 channels.
    #[target_feature(enable = "avx2")]
    pub(super) fn blocks<'s>(
        scratch: &mut Scratch<'s>,
        epilogue: &Requantization<'_>,
        weight_sums: &[i32],
        factor: i32,
        c_out: usize,
    ) -> Buf<'s, Steps8> {
        scratch.made_by(c_out.div_ceil(LANES_8), |block| {
            Steps8::new(epilogue, weight_sums, factor, block * LANES_8, c_out)
        })
    }

    /// [`Steps::first`]: the value each lane's sum starts at.
    ///
    /// # Safety
    /// The CPU has AVX2; always inlined as [`Self::apply`].
    #[inline(always)]
    pub(super) unsafe fn first(&self) -> __m256i {
        self.add
    }

    /// [`Steps::apply`] to the 8 sums `sums`, each started at
    /// [`Steps8::first`].
    ///
    /// # Safety
    /// The CPU has AVX2. Always inlined, without target features of
    /// its own: a layer kernel's tile calls it once per block of sums, and
    /// a call (kept where optimised for size) would spill every sum of the
    /// tile around it.
    #[inline(always)]
    pub(super) unsafe fn apply(&self, sums: __m256i) -> __m256i {
        let mut x = sums;
        if self.shifts_left {
            x = _mm256_sllv_epi32(x, self.left);
        }
        // `(x * m + 2^30) >> 31` of each lane, as in `Steps::apply`.
        let nudge = _mm256_set1_epi64x(1 << 30);
        let even = _mm256_mul_epi32(x, self.multiplier);
        let odd = _mm256_mul_epi32(_mm256_srli_epi64::<32>(x), self.multiplier_odd);
        let even = _mm256_srli_epi64::<31>(_mm256_add_epi64(even, nudge));
        let odd = _mm256_slli_epi64::<1>(_mm256_add_epi64(odd, nudge));
        let mut high = _mm256_blend_epi32::<0b1010_1010>(even, odd);
        // `MIN * MIN` saturates to `MAX`: all ones added to MIN.
        if self.any_multiplier_min {
            let overflow = _mm256_and_si256(
                _mm256_cmpeq_epi32(x, _mm256_set1_epi32(i32::MIN)),
                self.multiplier_min,
            );
            high = _mm256_add_epi32(high, overflow);
        }
        // `high / 2^right`, rounded half away from zero: the magnitude
        // rounded half up (as `u32`), its sign put back (`vpsignd`: zero
        // stays zero).
        let magnitude = _mm256_srlv_epi32(
            _mm256_add_epi32(_mm256_abs_epi32(high), self.half),
            self.right,
        );
        let quotient = _mm256_sign_epi32(magnitude, high);
        let mut y = _mm256_add_epi32(quotient, _mm256_set1_epi32(self.offset));
        if self.clamps_lo {
            y = _mm256_max_epi32(y, _mm256_set1_epi32(self.lo));
        }
        if self.clamps_hi {
            y = _mm256_min_epi32(y, _mm256_set1_epi32(self.hi));
        }
        y
    }

    /// [`Steps::store`]: the block's lanes of `values` as bytes, each
    /// saturated to the bytes' range (`i32` to `i16` to `i8`, each
    /// saturating), into a position's channels `row`.
    ///
    /// # Safety
    /// The CPU has AVX2; always inlined as [`Self::apply`].
    #[inline(always)]
    pub(super) unsafe fn store(&self, row: &mut [MaybeUninit<i8>], values: __m256i) {
        // Each 128-bit lane's four values, as bytes, first in the lane.
        let words = _mm256_packs_epi32(values, values);
        let bytes = _mm256_packs_epi16(words, words);
        let both = _mm_unpacklo_epi32(
            _mm256_castsi256_si128(bytes),
            _mm256_extracti128_si256::<1>(bytes),
        );
        let lanes = &mut row[self.channel..][..self.lanes];
        if let Ok(whole) = <&mut [MaybeUninit<i8>; LANES_8]>::try_from(&mut *lanes) {
            // SAFETY: `whole` is 8 writable bytes; the store is unaligned.
            unsafe { _mm_storel_epi64(whole.as_mut_ptr().cast(), both) };
        } else {
            // The block's bytes from a general register, by at most three
            // stores of 4, 2 and 1 bytes: a copy through an array became a
            // call of `memcpy`, around which every vector of the kernel's
            // tile was spilled, and a loop over the bytes a vectorised one
            // as costly.
            let mut bytes = _mm_cvtsi128_si64(both) as u64;
            let mut at = 0;
            if lanes.len() & 4 != 0 {
                // SAFETY: `at + 4 <= lanes.len()`; the store is unaligned.
                unsafe {
                    lanes
                        .as_mut_ptr()
                        .cast::<u32>()
                        .write_unaligned(bytes as u32)
                };
                (bytes, at) = (bytes >> 32, 4);
            }
            if lanes.len() & 2 != 0 {
                // SAFETY: `at + 2 <= lanes.len()`; the store is unaligned.
                unsafe {
                    lanes
                        .as_mut_ptr()
                        .add(at)
                        .cast::<u16>()
                        .write_unaligned(bytes as u16)
                };
                (bytes, at) = (bytes >> 16, at + 2);
            }
            if lanes.len() & 1 != 0 {
                lanes[at].write(bytes as i8);
            }
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::isa::{selected, Level};

    /// `run` (a block of `lanes` channels' steps applied to 16 sums, the
    /// lanes past the block's ignored) against `Requantization::apply`,
    /// lane by lane, on values of every magnitude and the edges (the one
    /// overflow `MIN * MIN`, the largest sums, ties of both roundings),
    /// for every shift from 31 right to 31 left, with no clamp (so no
    /// saturation hides a difference).
    fn matches_the_scalar_definition(
        lanes: usize,
        run: impl Fn(&Requantization<'_>, usize, &[i32; LANES]) -> [i32; LANES],
    ) {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let edges = [
            0,
            1,
            -1,
            i32::MIN,
            i32::MAX,
            1 << 30,
            -(1 << 30),
            3 << 29,
            -(3 << 29),
        ];
        let shifts: alloc::vec::Vec<i32> = (-31..=31).collect();
        let mut multipliers = alloc::vec![i32::MIN, i32::MAX, 1 << 30, -(1 << 30)];
        multipliers.extend((0..12).map(|_| next() as i32));
        for &multiplier in &multipliers {
            for shifts in shifts.chunks(lanes) {
                let epilogue = Requantization {
                    bias: PerChannel::All(0),
                    multiplier: PerChannel::All(multiplier),
                    shift: PerChannel::Each(shifts),
                    offset: 3,
                    lo: i32::MIN,
                    hi: i32::MAX,
                };
                for round in 0..200 {
                    let sums: [i32; LANES] = core::array::from_fn(|l| match round {
                        r if r < edges.len() => edges[r],
                        // Values near a tie of the second rounding.
                        r if r % 3 == 0 => ((next() as i32) >> (l % 31)) | 1,
                        _ => next() as i32 >> (next() % 32),
                    });
                    let got = run(&epilogue, shifts.len(), &sums);
                    for l in 0..shifts.len() {
                        assert_eq!(
                            got[l],
                            epilogue.apply(sums[l], l),
                            "{lanes} lanes: sum {} multiplier {multiplier} shift {}",
                            sums[l],
                            shifts[l]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn steps_compute_the_scalar_definition() {
        if selected() < Level::Avx512 {
            return;
        }
        matches_the_scalar_definition(LANES, |epilogue, c_out, sums| {
            // SAFETY: the CPU has AVX-512 F and BW (the selected level);
            // 16 readable and writable `i32`s.
            unsafe {
                let steps = Steps::new(epilogue, &[0; LANES], 0, 0, c_out);
                let sums =
                    _mm512_add_epi32(steps.first(), _mm512_loadu_si512(sums.as_ptr().cast()));
                let v = steps.apply(sums);
                let mut got = [0; LANES];
                _mm512_storeu_si512(got.as_mut_ptr().cast(), v);
                got
            }
        });
    }

    /// A block of 1 to 8 channels stores exactly its lanes, each
    /// saturated to a byte, and no byte after them.
    #[test]
    fn steps_of_8_lanes_store_exactly_their_lanes() {
        if selected() < Level::Avx2 {
            return;
        }
        let values = [-300, -128, -1, 0, 1, 127, 300, 5];
        let epilogue = Requantization {
            bias: PerChannel::All(0),
            multiplier: PerChannel::All(1 << 30),
            shift: PerChannel::All(0),
            offset: 0,
            lo: i32::MIN,
            hi: i32::MAX,
        };
        for lanes in 1..=LANES_8 {
            let mut row = [MaybeUninit::new(99i8); 12];
            // SAFETY: the CPU has AVX2 (the selected level); 8 readable
            // `i32`s.
            unsafe {
                let steps = Steps8::new(&epilogue, &[0; LANES_8], 0, 0, lanes);
                steps.store(&mut row, _mm256_loadu_si256(values.as_ptr().cast()));
            }
            // SAFETY: every byte of `row` was initialised above.
            let row = row.map(|b| unsafe { b.assume_init() });
            let expected: alloc::vec::Vec<i8> = (0..12)
                .map(|l| {
                    if l < lanes {
                        values[l].clamp(-128, 127) as i8
                    } else {
                        99
                    }
                })
                .collect();
            assert_eq!(row.as_slice(), expected.as_slice(), "{lanes} lanes");
        }
    }

    #[test]
    fn steps_of_8_lanes_compute_the_scalar_definition() {
        if selected() < Level::Avx2 {
            return;
        }
        matches_the_scalar_definition(LANES_8, |epilogue, c_out, sums| {
            // SAFETY: the CPU has AVX2 (the selected level); 8 readable and
            // writable `i32`s.
            unsafe {
                let steps = Steps8::new(epilogue, &[0; LANES_8], 0, 0, c_out);
                let sums =
                    _mm256_add_epi32(steps.first(), _mm256_loadu_si256(sums.as_ptr().cast()));
                let v = steps.apply(sums);
                let mut got = [0; LANES];
                _mm256_storeu_si256(got.as_mut_ptr().cast(), v);
                got
            }
        });
    }
}
