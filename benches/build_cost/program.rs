//! The program of `benches/build_cost.sh`: 52 `tensor_expr!` expressions of
//! the kinds users write (an audio front end, an image pipeline, point
//! transforms, dense and convolutional layers in f32 and int8, batches of
//! run-time rows, small linear algebra), each in a function of its own, and
//! hand loops for a few of them, whose debug-build speed the script compares.
//!
//! `benches/build_cost.sh` also builds it with every expression replaced by
//! a call of `stub` (opaque to the optimiser), so the difference between
//! the two builds is what the expressions cost: compile time and `.text`.
//!
//! `cargo run [--release] -- speed` times the expressions against the hand
//! loops; without an argument it evaluates each expression once.

#![allow(clippy::all, dead_code, unused)]

use std::hint::black_box;
use std::time::Instant;
use tensor_expr::element::Accumulator;
use tensor_expr::error::LinalgError;
use tensor_expr::prelude::*;

/// A value the optimiser cannot see through: `benches/build_cost.sh` puts
/// a call of it in place of each expression (the lines of the form
/// `    tensor_expr!(..)`), so the code around a stubbed expression stays as
/// it is with the expression.
#[inline(never)]
fn stub<T>() -> T {
    black_box(None).expect("a stubbed expression")
}

type M<const R: usize, const C: usize> = Tensor<f32, Shape![R, C]>;
type V<const N: usize> = Tensor<f32, Shape![N]>;

// ---- elementwise and broadcast -------------------------------------------

#[inline(never)]
pub fn e01_scaled_relu(a: &M<64, 64>, b: &V<64>) -> M<64, 64> {
    tensor_expr!(relu(a * 0.5 + b))
}
#[inline(never)]
pub fn e02_normalise_image(image: &Tensor<f32, Shape![32, 32, 3]>, mean: &V<3>, scale: &V<3>) -> Tensor<f32, Shape![32, 32, 3]> {
    tensor_expr!((image - mean) * scale)
}
#[inline(never)]
pub fn e03_exp_ratio(a: &M<16, 32>, b: &V<32>) -> M<16, 32> {
    tensor_expr!(exp(a - b) / (a + 2.5))
}
#[inline(never)]
pub fn e04_clamped_tanh(a: &M<16, 32>, b: &V<32>) -> M<16, 32> {
    tensor_expr!(clamp(a * b, -1.0, 1.0) + tanh(b))
}
#[inline(never)]
pub fn e05_silu(x: &V<256>) -> V<256> {
    tensor_expr!(sigmoid(x) * x)
}
#[inline(never)]
pub fn e06_rows_bias(a: &M<32, 32>, c: &V<32>) -> M<32, 32> {
    tensor_expr!(a + in_dims(c, [0]))
}
#[inline(never)]
pub fn e07_outer_sum(x: &Tensor<f32, Shape![64, 1]>, z: &Tensor<f32, Shape![1, 64]>) -> M<64, 64> {
    tensor_expr!(x + z)
}
#[inline(never)]
pub fn e08_leaky_relu(a: &M<64, 64>) -> M<64, 64> {
    tensor_expr!(select(a > 0.0, a, 0.01 * a))
}
#[inline(never)]
pub fn e09_fir(x: &Tensor<f32, Shape![1087]>, h: &V<64>) -> Tensor<f32, Shape![1024]> {
    tensor_expr!(sum(x.windows::<0, 64, 1>() * h, [1]))
}
#[inline(never)]
pub fn e10_accumulate(o: &mut M<16, 32>, b: &V<32>) {
    tensor_expr!(o += b * 3.0)
}
#[inline(never)]
pub fn e11_rotate_points(p: &M<256, 3>, r: &M<3, 3>, t: &V<3>) -> M<256, 3> {
    tensor_expr!(p @ r + t)
}
#[inline(never)]
pub fn e12_unit_vectors(p: &M<256, 3>) -> M<256, 3> {
    tensor_expr!(p / sqrt(sum(square(p), [1], keepdim)))
}
#[inline(never)]
pub fn e13_gelu(x: &V<1024>) -> V<1024> {
    tensor_expr!(gelu_tanh(x))
}
#[inline(never)]
pub fn e14_frames(signal: &Tensor<f32, Shape![4096]>, hann: &V<256>) -> Tensor<f32, Shape![31, 256]> {
    tensor_expr!(signal.windows::<0, 256, 128>() * hann)
}
#[inline(never)]
pub fn e15_sobel(image: &Tensor<f32, Shape![1, 64, 64]>, k: &Tensor<f32, Shape![1, 1, 3, 3]>) -> Tensor<f32, Shape![1, 64, 64]> {
    tensor_expr!(abs(conv2d(image, k, padding = 1)))
}
#[inline(never)]
pub fn e16_magnitude(re: &V<257>, im: &V<257>) -> V<257> {
    tensor_expr!(sqrt(square(re) + square(im)))
}
#[inline(never)]
pub fn e17_log_mel(power: &M<49, 257>, mel: &M<257, 40>) -> M<49, 40> {
    tensor_expr!(ln(power @ mel + 1e-6))
}
#[inline(never)]
pub fn e18_dct(log_mel: &M<49, 40>, dct: &M<40, 10>) -> M<49, 10> {
    tensor_expr!(log_mel @ dct)
}

// ---- products with epilogues ----------------------------------------------

#[inline(never)]
pub fn e19_dense(x: &M<32, 128>, w: &M<128, 64>, b: &V<64>) -> M<32, 64> {
    tensor_expr!(relu(x @ w + b))
}
#[inline(never)]
pub fn e20_product_f64(a: &Tensor<f64, Shape![16, 16]>, b: &Tensor<f64, Shape![16, 16]>) -> Tensor<f64, Shape![16, 16]> {
    tensor_expr!(a @ b)
}
#[inline(never)]
pub fn e21_batched(a: &Tensor<f32, Shape![4, 8, 16]>, b: &M<16, 8>) -> Tensor<f32, Shape![4, 8, 8]> {
    tensor_expr!(a @ b)
}
#[inline(never)]
pub fn e22_matrix_vector(m: &M<64, 64>, v: &V<64>) -> V<64> {
    tensor_expr!(m @ v)
}
#[inline(never)]
pub fn e23_scores(q: &M<16, 64>, k: &M<16, 64>) -> M<16, 16> {
    tensor_expr!(q @ transpose(k) / 8.0)
}
#[inline(never)]
pub fn e24_two_layers(x: &M<8, 32>, w1: &M<32, 32>, b1: &V<32>, w2: &M<32, 10>) -> M<8, 10> {
    tensor_expr!(tanh(x @ w1 + b1) @ w2)
}
#[inline(never)]
pub fn e25_transform4(a: &M<4, 4>, b: &M<4, 4>) -> M<4, 4> {
    tensor_expr!(a @ b)
}
#[inline(never)]
pub fn e26_covariance(p: &mut M<6, 6>, f: &M<6, 6>, q: &M<6, 6>) {
    tensor_expr!(p = f @ p @ transpose(f) + q)
}

// ---- reductions and softmax -----------------------------------------------

#[inline(never)]
pub fn e27_softmax(x: &M<32, 10>) -> M<32, 10> {
    tensor_expr!(softmax(x, [1]))
}
#[inline(never)]
pub fn e28_layer_norm(x: &M<16, 64>, gamma: &V<64>, beta: &V<64>) -> M<16, 64> {
    tensor_expr!((x - mean(x, [-1], keepdim)) / sqrt(mean(square(x - mean(x, [-1], keepdim)), [-1], keepdim) + 1e-5) * gamma + beta)
}
#[inline(never)]
pub fn e29_column_sums(x: &M<64, 64>) -> V<64> {
    tensor_expr!(sum(x, [0]))
}
#[inline(never)]
pub fn e30_row_means(x: &M<64, 64>) -> V<64> {
    tensor_expr!(mean(x, [1]))
}
#[inline(never)]
pub fn e31_row_max(x: &M<64, 64>) -> V<64> {
    tensor_expr!(max(x, [1]))
}
#[inline(never)]
pub fn e32_logsumexp(x: &M<32, 10>) -> V<32> {
    tensor_expr!(logsumexp(x, [1]))
}
#[inline(never)]
pub fn e33_norms(x: &M<64, 16>) -> V<64> {
    tensor_expr!(norm(x, [1]))
}
#[inline(never)]
pub fn e34_classes(x: &M<8, 32>, w: &M<32, 10>, b: &V<10>) -> Tensor<usize, Shape![8]> {
    tensor_expr!(argmax(x @ w + b, [1]))
}

// ---- convolutions and pools -----------------------------------------------

#[inline(never)]
pub fn e35_conv_relu(x: &Tensor<f32, Shape![8, 16, 16]>, w: &Tensor<f32, Shape![16, 8, 3, 3]>, b: &V<16>) -> Tensor<f32, Shape![16, 16, 16]> {
    tensor_expr!(relu(conv2d(x, w, padding = 1) + in_dims(b, [0])))
}
#[inline(never)]
pub fn e36_conv_nhwc(x: &Tensor<f32, Shape![16, 16, 8]>, w: &Tensor<f32, Shape![16, 3, 3, 8]>) -> Tensor<f32, Shape![8, 8, 16]> {
    tensor_expr!(conv2d(x, w, stride = 2, padding = 1, layout = nhwc))
}
#[inline(never)]
pub fn e37_depthwise(x: &Tensor<f32, Shape![16, 16, 16]>, w: &Tensor<f32, Shape![16, 1, 3, 3]>) -> Tensor<f32, Shape![16, 16, 16]> {
    tensor_expr!(relu(conv2d(x, w, padding = 1, groups = 16)))
}
#[inline(never)]
pub fn e38_max_pool(x: &Tensor<f32, Shape![16, 16, 16]>) -> Tensor<f32, Shape![16, 8, 8]> {
    tensor_expr!(max_pool2d(x, [2, 2]))
}
#[inline(never)]
pub fn e39_avg_pool(x: &Tensor<f32, Shape![16, 16, 16]>) -> Tensor<f32, Shape![16, 8, 8]> {
    tensor_expr!(avg_pool2d(x, [3], stride = 2, padding = 1))
}
#[inline(never)]
pub fn e40_conv1d(x: &Tensor<f32, Shape![4, 128]>, w: &Tensor<f32, Shape![8, 4, 5]>) -> Tensor<f32, Shape![8, 128]> {
    tensor_expr!(conv1d(x, w, padding = same))
}

// ---- int8 layers (TFLite's arithmetic) ------------------------------------

type I<S> = Tensor<i8, S>;
type Acc<const N: usize> = Tensor<i32, Shape![N]>;

#[inline(never)]
pub fn e41_int8_dense(x: &I<Shape![1, 64]>, w: &I<Shape![64, 32]>, bias: &Acc<32>, m: &Acc<32>, s: &Acc<32>) -> I<Shape![1, 32]> {
    let (zx, zy) = (-128, 5);
    tensor_expr!(saturating_cast::<i8>(requantize((cast::<i32>(x) - zx) @ cast::<i32>(w) + bias, m, s) + zy))
}
#[inline(never)]
pub fn e42_int8_conv(x: &I<Shape![1, 12, 12, 8]>, w: &I<Shape![16, 3, 3, 8]>, bias: &Acc<16>, m: &Acc<16>, s: &Acc<16>) -> I<Shape![1, 12, 12, 16]> {
    let (zx, zy) = (-128, -3);
    tensor_expr!(saturating_cast::<i8>(requantize(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), padding = same, layout = nhwc) + bias, m, s) + zy))
}
#[inline(never)]
pub fn e43_int8_depthwise(x: &I<Shape![1, 12, 12, 16]>, w: &I<Shape![16, 3, 3, 1]>, bias: &Acc<16>, m: &Acc<16>, s: &Acc<16>) -> I<Shape![1, 12, 12, 16]> {
    let (zx, zy) = (-128, 0);
    tensor_expr!(saturating_cast::<i8>(max(requantize(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), padding = same, groups = 16, layout = nhwc) + bias, m, s) + zy, -128)))
}
#[inline(never)]
pub fn e44_int8_pointwise(x: &I<Shape![1, 12, 12, 16]>, w: &I<Shape![32, 1, 1, 16]>, bias: &Acc<32>, m: &Acc<32>, s: &Acc<32>) -> I<Shape![1, 12, 12, 32]> {
    let (zx, zy) = (-128, 2);
    tensor_expr!(saturating_cast::<i8>(requantize(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), layout = nhwc) + bias, m, s) + zy))
}
#[inline(never)]
pub fn e45_int8_max_pool(x: &I<Shape![1, 12, 12, 16]>) -> I<Shape![1, 6, 6, 16]> {
    tensor_expr!(max_pool2d(x, [2, 2], layout = nhwc))
}

// ---- batches whose rows are counted at run time ---------------------------

type Rows<const C: usize> = HeapTensor<f32, Shape![Dyn, C]>;

#[inline(never)]
pub fn e46_batch_dense(images: &Rows<64>, w: &M<64, 16>, b: &V<16>) -> Rows<16> {
    tensor_expr!(relu(images @ w + b))
}
#[inline(never)]
pub fn e47_integrate(v: &Rows<3>, g: &V<3>) -> Rows<3> {
    let dt = 0.01f32;
    tensor_expr!(v * dt + g)
}
#[inline(never)]
pub fn e48_centre(points: &Rows<3>, mean: &V<3>) -> Rows<3> {
    tensor_expr!(points - mean)
}
#[inline(never)]
pub fn e49_batch_sum(x: &Rows<16>) -> HeapTensor<f32, Shape![16]> {
    tensor_expr!(sum(x, [0]))
}

// ---- small linear algebra --------------------------------------------------

#[inline(never)]
pub fn e50_solve(a: &Tensor<f64, Shape![6, 6]>, b: &Tensor<f64, Shape![6]>) -> Result<Tensor<f64, Shape![6]>, LinalgError> {
    tensor_expr!(solve(a, b))
}
#[inline(never)]
pub fn e51_kalman_gain(p: &M<4, 4>, h: &M<2, 4>, s: &M<2, 2>) -> Result<M<4, 2>, LinalgError> {
    tensor_expr!(p @ transpose(h) @ inv(s))
}
#[inline(never)]
pub fn e52_det(a: &Tensor<f64, Shape![4, 4]>) -> Tensor<f64, Shape![]> {
    tensor_expr!(det(a))
}

/// The number of expressions above.
pub const EXPRESSIONS: usize = 52;

// ---- inputs ----------------------------------------------------------------

fn value(p: usize) -> f32 {
    ((p.wrapping_mul(2654435761) >> 7) % 1000) as f32 / 1000.0 - 0.5
}
fn t<S: Shape>(seed: usize) -> Tensor<f32, S> {
    Tensor::<f32, S>::from_flat_fn(|p| value(p + seed))
}
fn t64<S: Shape>(seed: usize) -> Tensor<f64, S> {
    Tensor::<f64, S>::from_flat_fn(|p| f64::from(value(p + seed)))
}
fn q<S: Shape>(seed: usize) -> Tensor<i8, S> {
    Tensor::<i8, S>::from_flat_fn(|p| (value(p + seed) * 255.0) as i8)
}
fn acc<const N: usize>(v: i32) -> Acc<N> {
    Tensor::full(v)
}
fn rows<const C: usize>(n: usize, seed: usize) -> Rows<C> {
    HeapTensor::<f32, Shape![Dyn, C]>::from_fn_rows(n, |[i, j]| value(seed + i * C + j))
}
fn spd<const N: usize>() -> Tensor<f64, Shape![N, N]> {
    Tensor::<f64, Shape![N, N]>::from_fn(|[i, j]| if i == j { N as f64 + 1.0 } else { 0.5 / (1 + i + j) as f64 })
}

/// Evaluates every expression once and returns a checksum, so that none is
/// dropped by the linker.
fn run_all() -> f64 {
    let mut total = 0.0f64;
    let mut add = |s: &[f32]| total += s.iter().map(|&v| f64::from(v)).sum::<f64>();
    add(e01_scaled_relu(&t(1), &t(2)).as_slice());
    add(e02_normalise_image(&t(3), &t(4), &t(5)).as_slice());
    add(e03_exp_ratio(&t(6), &t(7)).as_slice());
    add(e04_clamped_tanh(&t(8), &t(9)).as_slice());
    add(e05_silu(&t(10)).as_slice());
    add(e06_rows_bias(&t(11), &t(12)).as_slice());
    add(e07_outer_sum(&t(13), &t(14)).as_slice());
    add(e08_leaky_relu(&t(15)).as_slice());
    add(e09_fir(&t(16), &t(17)).as_slice());
    let mut o = t(18);
    e10_accumulate(&mut o, &t(19));
    add(o.as_slice());
    add(e11_rotate_points(&t(20), &t(21), &t(22)).as_slice());
    add(e12_unit_vectors(&t(23)).as_slice());
    add(e13_gelu(&t(24)).as_slice());
    add(e14_frames(&t(25), &t(26)).as_slice());
    add(e15_sobel(&t(27), &t(28)).as_slice());
    add(e16_magnitude(&t(29), &t(30)).as_slice());
    add(e17_log_mel(&t::<Shape![49, 257]>(31).map(|v| v.abs()), &t::<Shape![257, 40]>(32).map(|v| v.abs())).as_slice());
    add(e18_dct(&t(33), &t(34)).as_slice());
    add(e19_dense(&t(35), &t(36), &t(37)).as_slice());
    add(&e20_product_f64(&t64(38), &t64(39)).as_slice().iter().map(|&v| v as f32).collect::<Vec<_>>());
    add(e21_batched(&t(40), &t(41)).as_slice());
    add(e22_matrix_vector(&t(42), &t(43)).as_slice());
    add(e23_scores(&t(44), &t(45)).as_slice());
    add(e24_two_layers(&t(46), &t(47), &t(48), &t(49)).as_slice());
    add(e25_transform4(&t(50), &t(51)).as_slice());
    let mut p = t(52);
    e26_covariance(&mut p, &t(53), &t(54));
    add(p.as_slice());
    add(e27_softmax(&t(55)).as_slice());
    add(e28_layer_norm(&t(56), &t(57), &t(58)).as_slice());
    add(e29_column_sums(&t(59)).as_slice());
    add(e30_row_means(&t(60)).as_slice());
    add(e31_row_max(&t(61)).as_slice());
    add(e32_logsumexp(&t(62)).as_slice());
    add(e33_norms(&t(63)).as_slice());
    add(&e34_classes(&t(64), &t(65), &t(66)).as_slice().iter().map(|&v| v as f32).collect::<Vec<_>>());
    add(e35_conv_relu(&t(67), &t(68), &t(69)).as_slice());
    add(e36_conv_nhwc(&t(70), &t(71)).as_slice());
    add(e37_depthwise(&t(72), &t(73)).as_slice());
    add(e38_max_pool(&t(74)).as_slice());
    add(e39_avg_pool(&t(75)).as_slice());
    add(e40_conv1d(&t(76), &t(77)).as_slice());
    let i8s = |s: &[i8]| s.iter().map(|&v| f32::from(v)).collect::<Vec<_>>();
    add(&i8s(e41_int8_dense(&q(78), &q(79), &acc(100), &acc(1 << 30), &acc(-6)).as_slice()));
    add(&i8s(e42_int8_conv(&q(80), &q(81), &acc(100), &acc(1 << 30), &acc(-8)).as_slice()));
    add(&i8s(e43_int8_depthwise(&q(82), &q(83), &acc(100), &acc(1 << 30), &acc(-6)).as_slice()));
    add(&i8s(e44_int8_pointwise(&q(84), &q(85), &acc(100), &acc(1 << 30), &acc(-8)).as_slice()));
    add(&i8s(e45_int8_max_pool(&q(86)).as_slice()));
    add(e46_batch_dense(&rows(100, 87), &t(88), &t(89)).as_slice());
    add(e47_integrate(&rows(100, 90), &t(91)).as_slice());
    add(e48_centre(&rows(100, 92), &t(93)).as_slice());
    add(e49_batch_sum(&rows(100, 94)).as_slice());
    add(&e50_solve(&spd(), &t64(95)).unwrap().as_slice().iter().map(|&v| v as f32).collect::<Vec<_>>());
    let s = Tensor::<f32, Shape![2, 2]>::new([[2.0, 0.5], [0.5, 3.0]]);
    add(e51_kalman_gain(&t(96), &t(97), &s).unwrap().as_slice());
    add(&[e52_det(&spd()).as_slice()[0] as f32]);
    total
}

// ---- hand loops, for the speed of a debug build -----------------------------

fn hand_scaled_relu(a: &M<64, 64>, b: &V<64>) -> M<64, 64> {
    let mut out = M::<64, 64>::zeros();
    let (a, b, o) = (a.as_slice(), b.as_slice(), out.as_mut_slice());
    for i in 0..64 {
        for j in 0..64 {
            o[i * 64 + j] = (a[i * 64 + j] * 0.5 + b[j]).max(0.0);
        }
    }
    out
}

fn hand_normalise_image(image: &Tensor<f32, Shape![32, 32, 3]>, mean: &V<3>, scale: &V<3>) -> Tensor<f32, Shape![32, 32, 3]> {
    let mut out = Tensor::<f32, Shape![32, 32, 3]>::zeros();
    let (x, m, s, o) = (image.as_slice(), mean.as_slice(), scale.as_slice(), out.as_mut_slice());
    for p in 0..32 * 32 {
        for c in 0..3 {
            o[p * 3 + c] = (x[p * 3 + c] - m[c]) * s[c];
        }
    }
    out
}

fn hand_unit_vectors(p: &M<256, 3>) -> M<256, 3> {
    let mut out = M::<256, 3>::zeros();
    let (x, o) = (p.as_slice(), out.as_mut_slice());
    for i in 0..256 {
        let n = (x[3 * i] * x[3 * i] + x[3 * i + 1] * x[3 * i + 1] + x[3 * i + 2] * x[3 * i + 2]).sqrt();
        for c in 0..3 {
            o[3 * i + c] = x[3 * i + c] / n;
        }
    }
    out
}

fn hand_fir(x: &Tensor<f32, Shape![1087]>, h: &V<64>) -> Tensor<f32, Shape![1024]> {
    let mut out = Tensor::<f32, Shape![1024]>::zeros();
    let (x, h, o) = (x.as_slice(), h.as_slice(), out.as_mut_slice());
    for i in 0..1024 {
        let mut s = 0.0;
        for k in 0..64 {
            s += x[i + k] * h[k];
        }
        o[i] = s;
    }
    out
}

fn hand_dense(x: &M<32, 128>, w: &M<128, 64>, b: &V<64>) -> M<32, 64> {
    let mut out = M::<32, 64>::zeros();
    let (x, w, b, o) = (x.as_slice(), w.as_slice(), b.as_slice(), out.as_mut_slice());
    for i in 0..32 {
        let row = &mut o[i * 64..(i + 1) * 64];
        row.copy_from_slice(b);
        for k in 0..128 {
            let xv = x[i * 128 + k];
            for j in 0..64 {
                row[j] += xv * w[k * 64 + j];
            }
        }
        for v in row {
            *v = v.max(0.0);
        }
    }
    out
}

fn hand_softmax(x: &M<32, 10>) -> M<32, 10> {
    let mut out = M::<32, 10>::zeros();
    let (x, o) = (x.as_slice(), out.as_mut_slice());
    for i in 0..32 {
        let row = &x[i * 10..(i + 1) * 10];
        let max = row.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
        let mut total = 0.0;
        for j in 0..10 {
            let e = (row[j] - max).exp();
            o[i * 10 + j] = e;
            total += e;
        }
        for j in 0..10 {
            o[i * 10 + j] /= total;
        }
    }
    out
}

fn hand_row_means(x: &M<64, 64>) -> V<64> {
    let mut out = V::<64>::zeros();
    let (x, o) = (x.as_slice(), out.as_mut_slice());
    for i in 0..64 {
        let mut sum = 0.0;
        for j in 0..64 {
            sum += x[i * 64 + j];
        }
        o[i] = sum / 64.0;
    }
    out
}

fn hand_column_sums(x: &M<64, 64>) -> V<64> {
    let mut out = V::<64>::zeros();
    let (x, o) = (x.as_slice(), out.as_mut_slice());
    for i in 0..64 {
        for j in 0..64 {
            o[j] += x[i * 64 + j];
        }
    }
    out
}

fn hand_conv_relu(x: &Tensor<f32, Shape![8, 16, 16]>, w: &Tensor<f32, Shape![16, 8, 3, 3]>, b: &V<16>) -> Tensor<f32, Shape![16, 16, 16]> {
    let mut out = Tensor::<f32, Shape![16, 16, 16]>::zeros();
    let (x, w, b, o) = (x.as_slice(), w.as_slice(), b.as_slice(), out.as_mut_slice());
    for co in 0..16 {
        for y in 0..16 {
            for xx in 0..16 {
                let mut s = b[co];
                for ci in 0..8 {
                    for ky in 0..3 {
                        let iy = y + ky;
                        if iy < 1 || iy > 16 {
                            continue;
                        }
                        for kx in 0..3 {
                            let ix = xx + kx;
                            if ix < 1 || ix > 16 {
                                continue;
                            }
                            s += x[(ci * 16 + iy - 1) * 16 + ix - 1] * w[((co * 8 + ci) * 3 + ky) * 3 + kx];
                        }
                    }
                }
                o[(co * 16 + y) * 16 + xx] = s.max(0.0);
            }
        }
    }
    out
}

fn hand_int8_dense(x: &I<Shape![1, 64]>, w: &I<Shape![64, 32]>, bias: &Acc<32>, m: &Acc<32>, s: &Acc<32>) -> I<Shape![1, 32]> {
    let (zx, zy) = (-128, 5);
    let mut out = I::<Shape![1, 32]>::zeros();
    let (x, w, o) = (x.as_slice(), w.as_slice(), out.as_mut_slice());
    for j in 0..32 {
        let mut a = bias.as_slice()[j];
        for k in 0..64 {
            a += (i32::from(x[k]) - zx) * i32::from(w[k * 32 + j]);
        }
        let r = a.requantize(m.as_slice()[j], s.as_slice()[j]);
        o[j] = (r + zy).clamp(-128, 127) as i8;
    }
    out
}

fn hand_integrate(v: &Rows<3>, g: &V<3>) -> Rows<3> {
    let mut out = Rows::<3>::zeros_rows(v.rows());
    let (x, g, o) = (v.as_slice(), g.as_slice(), out.as_mut_slice());
    for i in 0..x.len() / 3 {
        for c in 0..3 {
            o[3 * i + c] = x[3 * i + c] * 0.01 + g[c];
        }
    }
    out
}

/// Median nanoseconds per call of `f` over a few batches.
fn time<R>(mut f: impl FnMut() -> R) -> f64 {
    let mut batch = 1;
    loop {
        let start = Instant::now();
        for _ in 0..batch {
            black_box(f());
        }
        if start.elapsed().as_millis() >= 20 {
            break;
        }
        batch *= 2;
    }
    let mut samples: Vec<f64> = (0..7)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                black_box(f());
            }
            start.elapsed().as_nanos() as f64 / batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[3]
}

/// Each case's expression against its hand loop in this build.
fn speed() {
    println!("{:<28} {:>12} {:>12} {:>8}", "case", "expr (ns)", "hand (ns)", "ratio");
    let row = |name: &str, expr: f64, hand: f64| {
        println!("{name:<28} {expr:>12.0} {hand:>12.0} {:>8.2}", expr / hand);
    };
    let (a, b) = (t::<Shape![64, 64]>(1), t::<Shape![64]>(2));
    row("elementwise relu(a*s+b)", time(|| e01_scaled_relu(&a, &b)), time(|| hand_scaled_relu(&a, &b)));
    let (img, mean, scale) = (t::<Shape![32, 32, 3]>(3), t::<Shape![3]>(4), t::<Shape![3]>(5));
    row("broadcast per channel", time(|| e02_normalise_image(&img, &mean, &scale)), time(|| hand_normalise_image(&img, &mean, &scale)));
    let p = t::<Shape![256, 3]>(23);
    row("normalise [256, 3] rows", time(|| e12_unit_vectors(&p)), time(|| hand_unit_vectors(&p)));
    let (x, h) = (t::<Shape![1087]>(16), t::<Shape![64]>(17));
    row("FIR 64 taps (windows)", time(|| e09_fir(&x, &h)), time(|| hand_fir(&x, &h)));
    let (x, w, b) = (t::<Shape![32, 128]>(35), t::<Shape![128, 64]>(36), t::<Shape![64]>(37));
    row("dense relu(x@w+b)", time(|| e19_dense(&x, &w, &b)), time(|| hand_dense(&x, &w, &b)));
    let x = t::<Shape![32, 10]>(55);
    row("softmax [32, 10]", time(|| e27_softmax(&x)), time(|| hand_softmax(&x)));
    let x = t::<Shape![64, 64]>(59);
    row("column sums [64, 64]", time(|| e29_column_sums(&x)), time(|| hand_column_sums(&x)));
    row("row means [64, 64]", time(|| e30_row_means(&x)), time(|| hand_row_means(&x)));
    let (x, w, b) = (t::<Shape![8, 16, 16]>(67), t::<Shape![16, 8, 3, 3]>(68), t::<Shape![16]>(69));
    row("conv2d 8->16 3x3 + relu", time(|| e35_conv_relu(&x, &w, &b)), time(|| hand_conv_relu(&x, &w, &b)));
    let (x, w, bias, m, s) = (q(78), q(79), acc(100), acc(1 << 30), acc(-6));
    row("int8 dense [1, 64] @ [64, 32]", time(|| e41_int8_dense(&x, &w, &bias, &m, &s)), time(|| hand_int8_dense(&x, &w, &bias, &m, &s)));
    let (v, g) = (rows::<3>(1000, 90), t::<Shape![3]>(91));
    row("Dyn rows v*dt+g [1000, 3]", time(|| e47_integrate(&v, &g)), time(|| hand_integrate(&v, &g)));
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("speed") {
        speed();
    } else {
        println!("checksum of {EXPRESSIONS} expressions: {:.6}", run_all());
    }
}
