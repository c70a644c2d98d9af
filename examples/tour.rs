//! A guided tour of tensor-expr: `cargo run --release --example tour`.
//!
//! Every number printed below is computed by the library as you watch; the
//! compile error at the end is the real message, kept in sync by the ui tests.

use tensor_expr::prelude::*;

fn section(title: &str) {
    println!("\n== {title} ==\n");
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    section("1. Shapes are types");
    let x: Tensor<f32, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let v: Tensor<f32, Shape![3]> = Tensor::try_from_slice(&[7., 8., 9.])?;
    println!("x, shape {:?}:\n{x}", x.shape());
    println!("v, shape {:?}: {v}", v.shape());
    println!("x[[1, 2]] = {}", x[[1, 2]]);
    let too_short = Tensor::<f32, Shape![2, 3]>::try_from_slice(&[1., 2.]);
    println!("try_from_slice with 2 values: {}", too_short.unwrap_err());

    section("2. NumPy broadcasting, checked at compile time");
    let y = tensor_expr!(x + v);
    println!("x + v  (the matrix-plus-row example of the XLA docs):\n{y}");
    let column: Tensor<f32, Shape![2, 1]> = tensor![[10.], [20.]];
    let row: Tensor<f32, Shape![1, 3]> = tensor![[1., 2., 3.]];
    println!(
        "column [2, 1] + row [1, 3] = outer sum [2, 3]:\n{}",
        tensor_expr!(column + row)
    );
    println!(
        "x + 7 (scalars broadcast to anything):\n{}",
        tensor_expr!(x + 7)
    );

    section("3. Functions, literals and scalars: one fused loop");
    let alpha = 0.5f32;
    let z: Tensor<f32, Shape![2, 3]> = tensor_expr!(relu(x * 2 - v) / 4.0);
    println!("relu(x * 2 - v) / 4.0:\n{z}");
    println!(
        "sigmoid(x * alpha - 1):\n{:?}",
        tensor_expr!(sigmoid(x * alpha - 1))
    );
    println!("clamp(x, 2, 5):\n{}", tensor_expr!(clamp(x, 2, 5)));
    let counts: Tensor<i32, Shape![4]> = tensor![3, -1, 4, -1];
    println!(
        "integers too, abs(counts) * 10 - 1: {}",
        tensor_expr!(abs(counts) * 10 - 1)
    );

    section("4. In place, under PyTorch's rule");
    let mut acc = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(acc += x * v);
    println!("acc += x * v:\n{acc}");
    tensor_expr!(acc = acc * 0.5 + 1.0);
    println!("acc = acc * 0.5 + 1.0 (the target may appear on the right):\n{acc}");
    tensor_expr!(acc -= v);
    println!("acc -= v (v broadcasts, acc keeps its shape):\n{acc}");

    section("5. XLA broadcast dims: in_dims and strict mode");
    let square: Tensor<f32, Shape![3, 3]> = Tensor::zeros();
    let w: Tensor<f32, Shape![3]> = tensor![7., 8., 9.];
    println!(
        "square + in_dims(w, [1]): w along dim 1, each row gets [7, 8, 9]:\n{}",
        tensor_expr!(square + in_dims(w, [1]))
    );
    println!(
        "square + in_dims(w, [0]): w along dim 0, row i gets w[i]:\n{}",
        tensor_expr!(square + in_dims(w, [0]))
    );
    let four: Tensor<f32, Shape![4]> = tensor![1., 2., 3., 4.];
    let pair = tensor![[5., 6.]];
    println!(
        "in_dims([1, 2, 3, 4], [0]) + [[5, 6]] (XLA's composition example):\n{}",
        tensor_expr!(in_dims(four, [0]) + pair)
    );
    println!(
        "strict: square + in_dims(w, [1]) (rank promotion must be explicit):\n{}",
        tensor_expr!(strict: square + in_dims(w, [1]))
    );

    section("6. Views: large data and buffers you already own");
    let samples: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let mut spectrum = vec![0.0f32; 12];
    let input = TensorView::<f32, Shape![3, 4]>::try_from_slice(&samples)?;
    let mut output = TensorViewMut::<f32, Shape![3, 4]>::try_from_slice(&mut spectrum)?;
    let gain: Tensor<f32, Shape![3, 1]> = tensor![[1.], [10.], [100.]];
    tensor_expr!(output = input * gain);
    println!("a Vec viewed as [3, 4], scaled per row, written into another Vec:\n{output}");
    println!("the Vec now holds: {spectrum:?}");

    section("7. Matrix products: a dense layer in one fused nest");
    let input: Tensor<f32, Shape![2, 4]> = tensor![[1., 0., -1., 2.], [0.5, 0.5, 0.5, 0.5]];
    let weights: Tensor<f32, Shape![4, 3]> =
        tensor![[1., 0., 0.], [0., 1., 0.], [0., 0., 1.], [1., 1., 1.]];
    let bias: Tensor<f32, Shape![3]> = tensor![0., -1., 0.5];
    let activations = tensor_expr!(relu(input @ weights + bias));
    println!("relu(input [2, 4] @ weights [4, 3] + bias [3]) -> [2, 3]; the bias and relu are applied to each block of the product before it is stored:\n{activations}");
    let batch: Tensor<f32, Shape![2, 1, 2, 4]> = Tensor::full(1.0);
    let per_head: Tensor<f32, Shape![3, 4, 3]> = Tensor::full(0.5);
    println!(
        "batch dims broadcast like elementwise ones: [2, 1, 2, 4] @ [3, 4, 3] has shape {:?}",
        tensor_expr!(batch @ per_head).shape()
    );
    let u: Tensor<f32, Shape![4]> = tensor![1., 2., 3., 4.];
    println!(
        "1-D operands are promoted, then the promoted dim removed: u @ u = {}, u @ weights = {}",
        tensor_expr!(u @ u),
        tensor_expr!(u @ weights)
    );
    println!("and weights @ input does not compile: the contracted dims 3 and 2 differ.");
    let requests = [1usize, 5];
    for n in requests {
        let images = HeapTensor::<f32, Shape![Dyn, 4]>::from_fn_rows(n, |[i, k]| {
            ((i + 2 * k) % 5) as f32 - 2.0
        });
        let classes = tensor_expr!(argmax(relu(images @ weights + bias), [1]));
        println!(
            "a batch of {n} known at run time, Shape![Dyn, 4] -> classes {:?}",
            classes.as_slice()
        );
    }
    let five = HeapTensor::<f32, Shape![Dyn, 4]>::zeros_rows(5);
    let four = HeapTensor::<f32, Shape![Dyn, 4]>::zeros_rows(4);
    if let Err(error) = tensor_expr!(five + four) {
        println!("two Dyn operands are checked at run time: {error}");
    }

    section("8. Reductions, transposes and reshapes: softmax and layer norm in one call each");
    let logits: Tensor<f32, Shape![2, 4]> = tensor![[1., 2., 3., 4.], [2., 0., 2., 0.]];
    println!(
        "sum over axis 1, keepdim -> [2, 1]:\n{}",
        tensor_expr!(sum(logits, [1], keepdim))
    );
    println!(
        "mean over axis 0 -> [4]: {}",
        tensor_expr!(mean(logits, [0]))
    );
    println!("max of everything -> []: {}", tensor_expr!(max(logits)));
    // One call; it is the written-out `exp(x - max) / sum(exp(x - max))`, whose
    // repeated `exp(..)` is computed once per element, each row max and sum
    // once per row, all in the same loop nest.
    let p = tensor_expr!(softmax(logits, [1]));
    println!("softmax over each row (rows sum to 1):\n{p}");
    println!(
        "logsumexp over each row: {}, L2 norm of each row: {}",
        tensor_expr!(logsumexp(logits, [1])),
        tensor_expr!(norm(logits, [1]))
    );
    let gamma: Tensor<f32, Shape![4]> = tensor![1., 1., 2., 2.];
    let beta: Tensor<f32, Shape![4]> = tensor![0., 0., 0.5, 0.5];
    let normed = tensor_expr!(
        (logits - mean(logits, [-1], keepdim))
            / sqrt(mean(square(logits - mean(logits, [-1], keepdim)), [-1], keepdim) + 1e-5)
            * gamma
            + beta
    );
    println!("layer norm over the last axis, then * gamma + beta:\n{normed}");
    let q: Tensor<f32, Shape![2, 4]> = tensor![[1., 0., 1., 0.], [0., 1., 0., 1.]];
    let k: Tensor<f32, Shape![3, 4]> =
        tensor![[1., 1., 0., 0.], [0., 0., 1., 1.], [1., 0., 0., 1.]];
    println!(
        "attention scores q [2, 4] @ transpose(k) [4, 3] / 2 (k read in place, no copy):\n{}",
        tensor_expr!(q @ transpose(k) / 2.0)
    );
    println!(
        "permute(q, [1, 0]) -> [4, 2]:\n{}",
        tensor_expr!(permute(q, [1, 0]))
    );
    println!(
        "reshape::<Shape![2, 2, 2]>(q) + 1 (element counts checked by cargo check):\n{}",
        tensor_expr!(reshape::<Shape![2, 2, 2]>(q) + 1.0)
    );

    section("9. Activations and NaN");
    let z: Tensor<f32, Shape![5]> = tensor![-3., -0.5, 0., 0.5, 3.];
    println!("z = {z}");
    println!("gelu_tanh(z) = {}", tensor_expr!(gelu_tanh(z)));
    println!("gelu(z) = {} (erf form)", tensor_expr!(gelu(z)));
    println!("silu(z)      = {}", tensor_expr!(silu(z)));
    println!("softplus(z)  = {}", tensor_expr!(softplus(z)));
    println!("log_softmax  = {}", tensor_expr!(log_softmax(z, [0])));
    println!("(vectorised, no libm call; the README gives each function's max error over all f32 inputs)");
    let with_nan: Tensor<f32, Shape![4]> = tensor![1., f32::NAN, -2., 4.];
    println!(
        "max(v, 0) = {}, relu(v) = {}, max over v = {} (NaN stays NaN, as NumPy); fmax(v, 0) = {}",
        tensor_expr!(max(with_nan, 0.0)),
        tensor_expr!(relu(with_nan)),
        tensor_expr!(max(with_nan)),
        tensor_expr!(fmax(with_nan, 0.0))
    );
    let long = tensor_expr!(
        z + 1.0 - z * 0.5 + z * z - 2.0 + z / 4.0 + 1.0 - z * 0.25 + z - 0.5 + z * 3.0 - z
    );
    println!("a 12-term chain is one fold node (shallow types, same arithmetic): {long}");

    section("10. Generic code");
    fn affine<S: tensor_expr::Shape>(t: &Tensor<f32, S>) -> Tensor<f32, S> {
        tensor_expr!(t * 2.0 + 1.0)
    }
    println!(
        "affine(x) for any shape S, no extra bounds:\n{}",
        affine(&x)
    );

    section("11. The everyday API: iterate, slice, compare, argmax, join");
    let logits = Tensor::<f32, Shape![3, 4]>::new([
        [0.1, 2.0, -1.0, 0.5],
        [3.0, 0.2, 3.0, f32::NAN],
        [-0.5, -0.1, -2.0, -0.3],
    ]);
    println!(
        "logits:
{logits}"
    );
    println!(
        "argmax over classes (ties: the first; NaN: its position): {}",
        logits.argmax::<1>()
    );
    let w = Tensor::<f32, Shape![4, 2]>::new([[1., 0.], [0., 1.], [-1., 0.], [0., -1.]]);
    println!(
        "the same inside an expression, argmax(relu(logits @ w), [1]): {}",
        tensor_expr!(argmax(relu(logits @ w), [1]))
    );
    println!(
        "row 0 (at): {}   column 1 (index_axis::<1>): {}",
        logits.at(0),
        logits.index_axis::<1>(1)
    );
    let middle = logits.narrow::<1, 1, 2>();
    println!(
        "columns 1..3 (narrow::<1, 1, 2>), shape {:?}:\n{middle}",
        middle.shape()
    );
    let leaky = tensor_expr!(select(logits > 0, logits, 0.01 * logits));
    println!("leaky relu, select(x > 0, x, 0.01 * x):\n{leaky}");
    println!(
        "a mask is 1/0 in the element type: (x > 0) * (x < 1) =\n{}",
        tensor_expr!((logits > 0) * (logits < 1))
    );
    let positive = logits.iter().filter(|v| **v > 0.0).count();
    println!(
        "iter: {positive} positive values; as integers (cast, like `as`): {}",
        logits.cast::<i32>()
    );
    let stacked = stack(Axis::<0>, [logits.at(0), logits.at(2)]);
    let joined: Tensor<f32, Shape![3, 6]> = concat(Axis::<1>, &logits, &middle.to_tensor());
    println!(
        "stack rows 0 and 2: {:?} shape; concat with the middle columns: {:?} shape",
        stacked.shape(),
        joined.shape()
    );

    section("12. Int8 inference, bit for bit as TFLite Micro computes it");
    let q = Tensor::<i8, Shape![2, 8]>::from_fn(|[i, k]| {
        (i as i8 * 50 - 60).wrapping_add(k as i8 * 17)
    });
    let qw = Tensor::<i8, Shape![8, 3]>::from_fn(|[k, j]| (k as i8 - 4) * (j as i8 + 1) * 9);
    let qbias = Tensor::<i32, Shape![3]>::new([120, -80, 40]);
    // A real multiplier of 0.004 as TFLite's Q31 multiplier and shift.
    let (m, shift) = tensor_expr::element::quantize_multiplier(0.004);
    let (zx, zy) = (-5, 3);
    let wide = tensor_expr!((cast::<i32>(q) - zx) @ cast::<i32>(qw) + qbias);
    let out = tensor_expr!(saturating_cast::<i8>(requantize(wide, m, shift) + zy));
    println!("x (i8):\n{q}");
    println!("i32 sums of (x - zx) @ w + bias, read from the i8 data:\n{wide}");
    println!("requantised with m = {m}, shift = {shift}, saturated to i8:\n{out}");
    // TFLite's int8 SOFTMAX of those logits, for an input scale of 0.1:
    // probabilities in units of 1/256, less 128.
    let (ms, ss) = tensor_expr::element::softmax_multiplier(0.1, 1.0);
    let probabilities = tensor_expr!(quantized_softmax(out, ms, ss, [1]));
    println!("quantized_softmax over each row (scale 1/256, zero point -128):\n{probabilities}");
    // A residual ADD of two int8 tensors of their own scales (0.05 and 0.1)
    // into an output of scale 0.125, all zero points 0.
    let add = tensor_expr::element::AddParameters::int8(0.05, 0.1, 0.125);
    let ((ma, sa), (mb, sb), (mo, so)) = (add.a, add.b, add.output);
    let residual = tensor_expr!(saturating_cast::<i8>(requantize(
        requantize(cast::<i32>(out) << 20, ma, sa)
            + requantize(cast::<i32>(q.narrow::<1, 0, 3>()) << 20, mb, sb),
        mo,
        so
    )));
    println!("out + x[:, :3] as a residual ADD of two scales:\n{residual}");

    section("13. Small linear algebra: one Kalman step, nothing allocated");
    // A constant-velocity filter (position and velocity in 2-D), written
    // as the maths reads. The parts evaluated first (`f @ p`,
    // `transpose(f)`, ...) live on the stack; each statement states its
    // stages' bytes, which the build checks.
    let dt = 0.1;
    let f = Tensor::<f32, Shape![4, 4]>::from_fn(|[i, j]| match j.checked_sub(i) {
        Some(0) => 1.0,
        Some(2) => dt,
        _ => 0.0,
    });
    let h = Tensor::<f32, Shape![2, 4]>::from_fn(|[i, j]| if i == j { 1.0 } else { 0.0 });
    let (q, r) = (
        Tensor::<f32, Shape![4, 4]>::eye().map(|v| v * 0.01),
        Tensor::<f32, Shape![2, 2]>::eye().map(|v| v * 0.1),
    );
    let eye = Tensor::<f32, Shape![4, 4]>::eye();
    let (mut x, mut p) = (
        Tensor::<f32, Shape![4]>::zeros(),
        Tensor::<f32, Shape![4, 4]>::eye(),
    );
    for z in [[0.1f32, 2.0], [0.2, 1.9], [0.3, 1.9]] {
        let z = Tensor::<f32, Shape![2]>::new(z);
        tensor_expr!(x = f @ x);
        tensor_expr!(scratch <= 128: p = f @ p @ transpose(f) + q);
        let s = tensor_expr!(scratch <= 64: h @ p @ transpose(h) + r);
        let k = tensor_expr!(scratch <= 80: p @ transpose(h) @ inv(s))?;
        tensor_expr!(x = x + k @ (z - h @ x));
        tensor_expr!(scratch <= 128: p = (eye - k @ h) @ p);
    }
    println!("state after three measurements: {x}");
    println!("its covariance's determinant: {:.3e}", p.det());

    section("14. Convolutions, pools and windows, as torch.nn.functional spells them");
    // A 6 x 6 image with a bright square, channels first ([N, C, H, W]).
    let image = Tensor::<f32, Shape![1, 1, 6, 6]>::from_fn(|[_, _, i, j]| {
        f32::from(u8::from((2..4).contains(&i) && (1..5).contains(&j)))
    });
    // Sobel's vertical-edge kernel, [C_out, C_in, kH, kW].
    let sobel: Tensor<f32, Shape![1, 1, 3, 3]> =
        tensor![[[[-1., 0., 1.], [-2., 0., 2.], [-1., 0., 1.]]]];
    let edges = tensor_expr!(abs(conv2d(image, sobel, padding = 1)));
    println!(
        "|conv2d(image, sobel, padding = 1)|, shape {:?}:\n{edges}",
        edges.shape()
    );
    let pooled = tensor_expr!(max_pool2d(edges, [2, 2]));
    println!(
        "max_pool2d(.., [2, 2]), shape {:?}:\n{pooled}",
        pooled.shape()
    );
    // Each input pixel spread over a 2 x 2 block: upsampling by 2.
    let ones = Tensor::<f32, Shape![1, 1, 2, 2]>::from_fn(|_| 1.0);
    let up = tensor_expr!(conv_transpose2d(pooled, ones, stride = 2));
    println!(
        "conv_transpose2d(.., ones, stride = 2), shape {:?}:\n{up}",
        up.shape()
    );
    // A 4-tap moving average of a signal: a sum over its windows, in place.
    let signal: Tensor<f32, Shape![10]> = tensor![0., 0., 4., 8., 8., 8., 4., 0., 0., 0.];
    let taps = Tensor::<f32, Shape![4]>::from_fn(|_| 0.25);
    let smooth = tensor_expr!(sum(signal.windows::<0, 4, 1>() * taps, [1]));
    println!("sum(signal.windows::<0, 4, 1>() * taps, [1]): {smooth}");

    section("15. Interop: rand, ndarray, nalgebra, serde, bytemuck (features)");
    interop(&logits);

    section("16. A shape mistake is a compile error");
    println!("tensor_expr!(x + w) with x: [2, 3] and w: [4] does not compile; cargo check says:\n");
    println!(
        "{}",
        include_str!("../tests/compile_errors/tests/ui/broadcast_mismatch.stderr")
    );
    Ok(())
}

/// Section 15: each interop feature, shown when the tour is built with it
/// (`cargo run --release --example tour --features rand,ndarray,nalgebra,serde,bytemuck`).
fn interop(logits: &Tensor<f32, Shape![3, 4]>) {
    #[cfg(feature = "rand")]
    {
        use rand::{rngs::StdRng, SeedableRng};
        let noise = Tensor::<f32, Shape![2, 4]>::random(
            &mut StdRng::seed_from_u64(1),
            rand_distr::StandardNormal,
        );
        println!("rand: Tensor::random(&mut rng, StandardNormal), seed 1:\n{noise}");
    }
    #[cfg(feature = "ndarray")]
    {
        let array = ndarray::Array2::from_shape_fn((2, 4), |(i, j)| (i * 4 + j) as f32);
        let view = TensorView::<f32, Shape![2, 4]>::try_from(array.view()).expect("row-major");
        let sum = tensor_expr!(view + logits.at(0));
        println!("ndarray: an Array2 read in place as a TensorView, plus logits row 0:\n{sum}");
        let error = TensorView::<f32, Shape![4, 2]>::try_from(array.t()).unwrap_err();
        println!("ndarray: its transpose as a [4, 2] view: {error}");
    }
    #[cfg(feature = "nalgebra")]
    {
        let m: nalgebra::SMatrix<f32, 3, 4> = (*logits).into();
        println!(
            "nalgebra: into SMatrix<f32, 3, 4>, m[(1, 0)] = {}",
            m[(1, 0)]
        );
    }
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(&logits.at(2)).expect("serialisable");
        println!("serde: row 2 as JSON: {json}");
    }
    #[cfg(feature = "bytemuck")]
    {
        println!(
            "bytemuck: the logits are {} bytes in place",
            logits.as_bytes().len()
        );
    }
    let any_feature = cfg!(any(
        feature = "rand",
        feature = "ndarray",
        feature = "nalgebra",
        feature = "serde",
        feature = "bytemuck"
    ));
    if !any_feature {
        println!(
            "built without the interop features; see them with\n  \
             cargo run --release --example tour --features rand,ndarray,nalgebra,serde,bytemuck"
        );
    }
    let _ = logits; // read only by the features' sections
}
