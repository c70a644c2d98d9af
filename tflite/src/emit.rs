//! Writes the module: one `tensor_expr!` statement per operator inside a
//! `#[tensor_expr::program]`, each operator's constants (weights as views
//! of the sidecar file, biases and requantisation as `static` tensors) in a
//! module of its own named after the operator, and the quantisation of the
//! model's input and output as named constants.
//!
//! Each operator computes what TFLite Micro's int8 kernel computes, with
//! the parameters its Prepare computes (`QuantizeMultiplier` in `f64` from
//! the `f32` scales, the fused activation's range from the output's
//! quantisation): the statements are the forms `tests/quantized.rs` checks
//! against TFLite Micro operator by operator.

use std::fmt::Write as _;

use tensor_expr_runtime::element::{
    quantize_multiplier, sigmoid_multiplier, softmax_multiplier, AddParameters,
};

use crate::error::Error;
use crate::graph::{operator_name, unsupported, Graph, OperatorInfo, TensorInfo};
use crate::schema::{self, op};

/// A generated module: its source and the sidecar file of its weights.
pub struct Module {
    /// The Rust source: `include!` it, or save it as a module file.
    pub source: String,
    /// The int8 weights the source views, in the layouts its statements
    /// read; saved beside the source as the file it names in
    /// `include_bytes!`.
    pub weights: Vec<u8>,
}

/// The generator's state: the statements, constants and weights so far.
struct Writer<'g, 'a> {
    graph: &'g Graph<'a>,
    /// The tensor the program returns.
    output: usize,
    /// The expression that reads each tensor: the program's local, the
    /// input, or a `reshape` of one.
    values: Vec<Option<String>>,
    /// The program's statements.
    statements: Vec<String>,
    /// The operators' constant modules.
    constants: String,
    /// The sidecar's bytes.
    weights: Vec<u8>,
}

/// The module for `graph`, whose sidecar file is named `weights_file`;
/// the program returns the output of operator `last` (the graph's output
/// when `last` is `None`).
pub fn module(
    graph: &Graph<'_>,
    source_name: &str,
    weights_file: &str,
    last: Option<usize>,
) -> Result<Module, Error> {
    let operators = match last {
        None => graph.operators.len(),
        Some(k) if k < graph.operators.len() => k + 1,
        Some(k) => {
            return Err(unsupported(
                "the options",
                format!(
                    "the last operator is {k}, but the model has {} operators",
                    graph.operators.len()
                ),
            ))
        }
    };
    let output = match last {
        None => graph.output,
        Some(k) => match graph.operators[k].outputs[..] {
            [output] => output,
            _ => {
                return Err(unsupported(
                    &format!("operator {k}"),
                    "the last operator must have one output".into(),
                ))
            }
        },
    };
    let mut writer = Writer {
        graph,
        output,
        values: vec![None; graph.tensors.len()],
        statements: Vec::new(),
        constants: String::new(),
        weights: Vec::new(),
    };
    writer.values[graph.input] = Some("input".into());
    for (index, operator) in graph.operators[..operators].iter().enumerate() {
        writer.operator(index, operator)?;
        if operator.outputs.contains(&output) && index + 1 != operators {
            return Err(unsupported(
                "the model",
                format!(
                    "the program's output is written by operator {index}, but operators run \
                     after it ({operators} in all)"
                ),
            ));
        }
    }
    writer.finish(source_name, weights_file)
}

/// `Shape![a, b, ..]`.
fn shape_type(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    format!("Shape![{}]", dims.join(", "))
}

/// `x + c` or `x - c` (`x` alone for 0): an int8 value less its zero point.
fn offset(value: &str, zero_point: i32) -> String {
    match zero_point {
        0 => value.to_owned(),
        z if z < 0 => format!("{value} + {}", -i64::from(z)),
        z => format!("{value} - {z}"),
    }
}

/// A list of integers as Rust array text.
fn list(values: impl IntoIterator<Item = impl ToString>) -> String {
    let items: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// The int8 range of a fused activation (`CalculateActivationRangeQuantized`
/// of TFLite): its bounds quantised with the output's scale and zero
/// point, within -128..=127.
fn activation_range(
    activation: i8,
    (scale, zero): (f32, i32),
    place: &str,
) -> Result<(i32, i32), Error> {
    let quantize = |real: f32| zero + (real / scale).round() as i32;
    let (low, high) = match activation {
        schema::NO_ACTIVATION => (-128, 127),
        schema::RELU => (quantize(0.0), 127),
        schema::RELU6 => (quantize(0.0), quantize(6.0)),
        schema::RELU_N1_TO_1 => (quantize(-1.0), quantize(1.0)),
        other => {
            return Err(unsupported(
                place,
                format!(
                    "fused activation {other} is not supported (expected NONE, RELU, RELU6 or \
                     RELU_N1_TO_1)"
                ),
            ))
        }
    };
    Ok((low.max(-128), high.min(127)))
}

/// `saturating_cast::<i8>(e)` clamped to `range` (a bound of the int8 range
/// itself is the cast's).
fn to_int8(expression: &str, (low, high): (i32, i32)) -> String {
    let clamped = match (low > -128, high < 127) {
        (false, false) => expression.to_owned(),
        (true, false) => format!("max({expression}, {low})"),
        (false, true) => format!("min({expression}, {high})"),
        (true, true) => format!("clamp({expression}, {low}, {high})"),
    };
    format!("saturating_cast::<i8>({clamped})")
}

/// The name of an operator's constants module: its kind and index.
fn module_name(code: i32, index: usize) -> String {
    format!("{}_{index}", operator_name(code).to_lowercase())
}

/// What a convolution-like operator's options give: window strides,
/// dilations, padding, activation.
#[derive(Clone, Copy)]
struct Window {
    stride: [i32; 2],
    dilation: [i32; 2],
    padding: i8,
    activation: i8,
}

impl Window {
    /// A convolution's options, `, stride = [..], dilation = [..], padding =
    /// same` (each only where not the default; `padding = same` left out
    /// where it adds nothing to an input of `input` rows and columns and a
    /// kernel of `kernel`).
    fn options_for(&self, input: &[usize], kernel: [usize; 2]) -> String {
        let mut out = String::new();
        if self.stride != [1, 1] {
            let _ = write!(out, ", stride = {}", list(self.stride));
        }
        if self.dilation != [1, 1] {
            let _ = write!(out, ", dilation = {}", list(self.dilation));
        }
        if self.padding == schema::SAME && !self.pads_nothing(input, kernel) {
            out.push_str(", padding = same");
        }
        out
    }

    /// The window for a doc comment: `stride 2x2, SAME`.
    fn describe(&self, kernel: [usize; 2]) -> String {
        let mut out = format!("{}x{} window", kernel[0], kernel[1]);
        if self.stride != [1, 1] {
            let _ = write!(out, ", stride {}x{}", self.stride[0], self.stride[1]);
        }
        if self.dilation != [1, 1] {
            let _ = write!(out, ", dilation {}x{}", self.dilation[0], self.dilation[1]);
        }
        out.push_str(if self.padding == schema::SAME {
            ", SAME"
        } else {
            ", VALID"
        });
        out
    }

    /// The output's size along one dim, by TFLite's rule
    /// (`ComputeOutSize`), for the size check.
    fn out_size(&self, axis: usize, size: usize, kernel: usize) -> usize {
        let stride = self.stride[axis].max(1) as usize;
        let effective = (kernel - 1) * self.dilation[axis].max(1) as usize + 1;
        if self.padding == schema::SAME {
            size.div_ceil(stride)
        } else {
            (size + stride).saturating_sub(effective) / stride
        }
    }

    /// TensorFlow's padding per side, `[[top, bottom], [left, right]]`, of
    /// an input of `input` rows and columns and a kernel of `kernel`: for
    /// SAME, what `ceil(input / stride)` outputs need, the smaller half
    /// first; none for VALID.
    fn sides(&self, input: &[usize], kernel: [usize; 2]) -> [[usize; 2]; 2] {
        core::array::from_fn(|axis| {
            if self.padding != schema::SAME {
                return [0, 0];
            }
            let out = self.out_size(axis, input[axis], kernel[axis]);
            let stride = self.stride[axis].max(1) as usize;
            let effective = (kernel[axis] - 1) * self.dilation[axis].max(1) as usize + 1;
            let total = ((out - 1) * stride + effective).saturating_sub(input[axis]);
            [total / 2, total - total / 2]
        })
    }

    /// Whether padding SAME adds no row or column here.
    fn pads_nothing(&self, input: &[usize], kernel: [usize; 2]) -> bool {
        if self.padding != schema::SAME {
            return true;
        }
        (0..2).all(|axis| {
            let out = self.out_size(axis, input[axis], kernel[axis]);
            let stride = self.stride[axis].max(1) as usize;
            let effective = (kernel[axis] - 1) * self.dilation[axis].max(1) as usize + 1;
            ((out - 1) * stride + effective) <= input[axis]
        })
    }
}

impl<'g, 'a> Writer<'g, 'a> {
    fn tensor(&self, index: i32) -> &'g TensorInfo<'a> {
        &self.graph.tensors[index as usize]
    }

    /// The expression reading input `k` of `operator`.
    fn value(&self, place: &str, operator: &OperatorInfo<'_>, k: usize) -> Result<String, Error> {
        let index = *operator.inputs.get(k).ok_or_else(|| {
            unsupported(
                place,
                format!(
                    "expected at least {} inputs, found {}",
                    k + 1,
                    operator.inputs.len()
                ),
            )
        })?;
        let tensor = usize::try_from(index)
            .map_err(|_| unsupported(place, format!("input {k} is missing")))?;
        self.values[tensor].clone().ok_or_else(|| {
            unsupported(
                place,
                format!(
                    "input {k} (`{}`) is neither the graph's input nor an earlier operator's \
                     output",
                    self.graph.tensors[tensor].name
                ),
            )
        })
    }

    /// Checks that input `k` is a tensor of `element_type` and returns it.
    fn input(
        &self,
        place: &str,
        operator: &OperatorInfo<'_>,
        k: usize,
        element_type: i8,
    ) -> Result<&'g TensorInfo<'a>, Error> {
        let index = operator.inputs.get(k).copied().unwrap_or(-1);
        if index < 0 {
            return Err(unsupported(place, format!("input {k} is missing")));
        }
        let tensor = self.tensor(index);
        check_type(place, tensor, element_type)?;
        Ok(tensor)
    }

    /// The one output, an int8 tensor.
    fn output(&self, place: &str, operator: &OperatorInfo<'_>) -> Result<usize, Error> {
        match operator.outputs[..] {
            [index] => {
                check_type(place, &self.graph.tensors[index], schema::INT8)?;
                Ok(index)
            }
            _ => Err(unsupported(
                place,
                format!("expected one output, found {}", operator.outputs.len()),
            )),
        }
    }

    /// A convolution's or dense layer's input, weights, optional bias and
    /// output.
    #[allow(clippy::type_complexity)]
    fn layer_operands(
        &self,
        place: &str,
        operator: &OperatorInfo<'_>,
    ) -> Result<
        (
            &'g TensorInfo<'a>,
            &'g TensorInfo<'a>,
            Option<&'g TensorInfo<'a>>,
            usize,
        ),
        Error,
    > {
        let x = self.input(place, operator, 0, schema::INT8)?;
        let w = self.input(place, operator, 1, schema::INT8)?;
        let bias = match operator.inputs.get(2) {
            Some(&i) if i >= 0 => Some(self.tensor(i)),
            _ => None,
        };
        Ok((x, w, bias, self.output(place, operator)?))
    }

    /// Appends `bytes` to the sidecar; returns their offset.
    fn push_weights(&mut self, bytes: &[u8]) -> usize {
        let offset = self.weights.len();
        self.weights.extend_from_slice(bytes);
        offset
    }

    /// Writes one operator.
    fn operator(&mut self, index: usize, operator: &OperatorInfo<'a>) -> Result<(), Error> {
        let place = format!("operator {index} ({})", operator_name(operator.code));
        match operator.code {
            op::CONV_2D | op::DEPTHWISE_CONV_2D => self.convolution(index, &place, operator),
            op::FULLY_CONNECTED => self.fully_connected(index, &place, operator),
            op::AVERAGE_POOL_2D | op::MAX_POOL_2D => self.pool(index, &place, operator),
            op::ADD | op::MUL => self.binary(index, &place, operator),
            op::RESHAPE => self.reshape(&place, operator),
            op::SOFTMAX => self.softmax(index, &place, operator),
            op::LOGISTIC | op::TANH => self.activation(index, &place, operator),
            op::QUANTIZE => self.quantize(index, &place, operator),
            op::DEQUANTIZE => self.dequantize(index, &place, operator),
            code => Err(Error::UnsupportedOperator {
                index,
                operator: operator_name(code),
            }),
        }
    }

    /// A statement `let yK = tensor_expr!(e);` writing the operator's output.
    fn statement(&mut self, index: usize, output: usize, expression: String, doc: String) {
        let name = format!("y{index}");
        self.statements.push(format!(
            "    // {doc}\n    let {name} = tensor_expr!({expression});\n"
        ));
        self.values[output] = Some(name);
    }

    /// The weights, bias and requantisation of a convolution or dense layer
    /// as a constants module; returns the expression's parts.
    #[allow(clippy::too_many_arguments)]
    fn layer_constants(
        &mut self,
        place: &str,
        module: &str,
        doc: &str,
        weights: &TensorInfo<'_>,
        stored: (Vec<usize>, Vec<u8>),
        bias: Option<&TensorInfo<'_>>,
        input_scale: f32,
        output_scale: f32,
        (channels, channel_dim): (usize, usize),
    ) -> Result<LayerConstants, Error> {
        if weights.zero_points.iter().any(|&z| z != 0) {
            return Err(unsupported(
                place,
                format!(
                    "weights `{}` must have zero points of 0 (symmetric int8)",
                    weights.name
                ),
            ));
        }
        if weights.scales.len() > 1 && weights.quantized_dimension != channel_dim {
            return Err(unsupported(
                place,
                format!(
                    "weights `{}` must be quantised per output channel (dim {channel_dim}); \
                     found dim {}",
                    weights.name, weights.quantized_dimension
                ),
            ));
        }
        if weights.scales.len() != 1 && weights.scales.len() != channels {
            return Err(unsupported(
                place,
                format!(
                    "weights `{}` need 1 or {channels} scales; found {}",
                    weights.name,
                    weights.scales.len()
                ),
            ));
        }
        let (shape, bytes) = stored;
        let offset = self.push_weights(&bytes);
        let pairs: Vec<(i32, i32)> = weights
            .scales
            .iter()
            .map(|&s| {
                quantize_multiplier(f64::from(input_scale) * f64::from(s) / f64::from(output_scale))
            })
            .collect();
        let mut text = format!(
            "/// {doc}\nmod {module} {{\n    use super::*;\n    /// `{}`, {} bytes at {offset} of the weights file.\n    pub static WEIGHTS: TensorView<'static, i8, {}> =\n        TensorView::from_i8_bytes(&WEIGHT_BYTES, {offset});\n",
            short(weights.name),
            bytes.len(),
            shape_type(&shape)
        );
        let channel_type = shape_type(&[channels]);
        let has_bias = if let Some(bias) = bias {
            check_type(place, bias, schema::INT32)?;
            if bias.len() != channels || bias.data.map(<[u8]>::len) != Some(4 * channels) {
                return Err(unsupported(
                    place,
                    format!(
                        "bias `{}` must be {channels} constant INT32 values; found {} elements",
                        bias.name,
                        bias.len()
                    ),
                ));
            }
            let _ = write!(
                text,
                "    /// `{}`.\n    pub static BIAS: Tensor<i32, {channel_type}> = Tensor::new({});\n",
                short(bias.name),
                list(bias.i32s())
            );
            true
        } else {
            false
        };
        let requantize = if let [(m, s)] = pairs[..] {
            format!("{m}, {s}")
        } else {
            let _ = write!(
                text,
                "    /// The per-channel requantisation: `QuantizeMultiplier(input_scale * weight_scale / output_scale)`.\n    pub static MULTIPLIER: Tensor<i32, {channel_type}> = Tensor::new({});\n    pub static SHIFT: Tensor<i32, {channel_type}> = Tensor::new({});\n",
                list(pairs.iter().map(|p| p.0)),
                list(pairs.iter().map(|p| p.1))
            );
            format!("{module}::MULTIPLIER, {module}::SHIFT")
        };
        text.push_str("}\n\n");
        self.constants.push_str(&text);
        Ok(LayerConstants {
            bias: if has_bias {
                format!(" + {module}::BIAS")
            } else {
                String::new()
            },
            requantize,
        })
    }

    fn convolution(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        let depthwise = operator.code == op::DEPTHWISE_CONV_2D;
        let mut multiplier = 1;
        let window = if depthwise {
            let o = required_options::<schema::DepthwiseConv2DOptions>(place, operator)?;
            multiplier = o.depth_multiplier();
            Window {
                stride: [o.stride_h(), o.stride_w()],
                dilation: [o.dilation_h_factor(), o.dilation_w_factor()],
                padding: o.padding(),
                activation: o.fused_activation_function(),
            }
        } else {
            let o = required_options::<schema::Conv2DOptions>(place, operator)?;
            Window {
                stride: [o.stride_h(), o.stride_w()],
                dilation: [o.dilation_h_factor(), o.dilation_w_factor()],
                padding: o.padding(),
                activation: o.fused_activation_function(),
            }
        };
        if window.stride.iter().chain(&window.dilation).any(|&v| v < 1) {
            return Err(unsupported(
                place,
                format!(
                    "strides and dilations must be at least 1; found {:?} and {:?}",
                    window.stride, window.dilation
                ),
            ));
        }
        let (x, w, bias, output) = self.layer_operands(place, operator)?;
        let y = &self.graph.tensors[output];
        let (x_shape, w_shape, y_shape) = (&x.shape, &w.shape, &y.shape);
        if x_shape.len() != 4 || w_shape.len() != 4 || y_shape.len() != 4 || x_shape[0] != 1 {
            return Err(unsupported(
                place,
                format!(
                    "expected an input [1, h, w, c] and 4-d weights and output; found {x_shape:?}, \
                     {w_shape:?}, {y_shape:?}"
                ),
            ));
        }
        let data = constant_int8(place, w)?;
        let (kernel, channels, groups, stored) = if depthwise {
            // TFLite: [1, kh, kw, c * m]; read as [c * m, kh, kw, 1] with
            // `groups = c` (output channel o reads input channel o / m, as
            // TFLite's depth multiplier does).
            let (kh, kw, out) = (w_shape[1], w_shape[2], w_shape[3]);
            let mut bytes = vec![0u8; data.len()];
            for (position, &b) in data.iter().enumerate() {
                let (o, rest) = (position % out, position / out);
                bytes[o * kh * kw + rest] = b;
            }
            ([kh, kw], out, x_shape[3], (vec![out, kh, kw, 1], bytes))
        } else {
            // TFLite's [out, kh, kw, in], the layout `layout = nhwc` reads.
            let groups = x_shape[3] / w_shape[3].max(1);
            (
                [w_shape[1], w_shape[2]],
                w_shape[0],
                groups,
                (w_shape.clone(), data.to_vec()),
            )
        };
        let expected = [
            1,
            window.out_size(0, x_shape[1], kernel[0]),
            window.out_size(1, x_shape[2], kernel[1]),
            channels,
        ];
        if depthwise && usize::try_from(multiplier).ok() != Some(channels / x_shape[3].max(1)) {
            return Err(unsupported(
                place,
                format!(
                    "a depth multiplier of {multiplier} over {} channels should give {}; the \
                     weights have {channels}",
                    x_shape[3],
                    x_shape[3] * multiplier.max(0) as usize
                ),
            ));
        }
        if y_shape[..] != expected || x_shape[3] % groups.max(1) != 0 {
            return Err(unsupported(
                place,
                format!(
                    "the output's shape should be {expected:?} by TFLite's rule; the model says \
                     {y_shape:?}"
                ),
            ));
        }
        let x_quant = x.quantization(place)?;
        let y_quant = y.quantization(place)?;
        let module = module_name(operator.code, index);
        let doc = format!(
            "{} (operator {index}): {}, {:?} -> {:?}.",
            operator_name(operator.code),
            window.describe(kernel),
            x_shape,
            y_shape
        );
        let parts = self.layer_constants(
            place,
            &module,
            &doc,
            w,
            stored,
            bias,
            x_quant.0,
            y_quant.0,
            (channels, if depthwise { 3 } else { 0 }),
        )?;
        let range = activation_range(window.activation, y_quant, place)?;
        let groups_option = if depthwise || groups > 1 {
            format!(", groups = {groups}")
        } else {
            String::new()
        };
        let input = self.value(place, operator, 0)?;
        let sum = format!(
            "conv2d({}, cast::<i32>({module}::WEIGHTS){}{groups_option}, layout = nhwc){}",
            offset(&format!("cast::<i32>({input})"), x_quant.1),
            window.options_for(&x_shape[1..3], kernel),
            parts.bias
        );
        self.statement(index, output, parts.to_int8(&sum, y_quant.1, range), doc);
        Ok(())
    }

    fn fully_connected(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        let options = required_options::<schema::FullyConnectedOptions>(place, operator)?;
        if options.weights_format() != 0 {
            return Err(unsupported(
                place,
                "only the default weights format is supported (not the shuffled one)".into(),
            ));
        }
        let (x, w, bias, output) = self.layer_operands(place, operator)?;
        let y = &self.graph.tensors[output];
        let data = constant_int8(place, w)?;
        let &[units, depth] = &w.shape[..] else {
            return Err(unsupported(
                place,
                format!("weights must be [units, depth]; found {:?}", w.shape),
            ));
        };
        let rows = x.len() / depth.max(1);
        if rows * depth != x.len() || y.len() != rows * units {
            return Err(unsupported(
                place,
                format!(
                    "an input of {} elements and an output of {} do not fit weights {:?}",
                    x.len(),
                    y.len(),
                    w.shape
                ),
            ));
        }
        // TFLite's [units, depth] transposed to the product's [depth, units].
        let mut bytes = vec![0u8; data.len()];
        for (position, &b) in data.iter().enumerate() {
            let (u, d) = (position / depth, position % depth);
            bytes[d * units + u] = b;
        }
        let x_quant = x.quantization(place)?;
        let y_quant = y.quantization(place)?;
        let module = module_name(operator.code, index);
        let doc = format!(
            "FULLY_CONNECTED (operator {index}): {depth} -> {units}, {:?} -> {:?}.",
            x.shape, y.shape
        );
        let parts = self.layer_constants(
            place,
            &module,
            &doc,
            w,
            (vec![depth, units], bytes),
            bias,
            x_quant.0,
            y_quant.0,
            (units, 0),
        )?;
        let range = activation_range(options.fused_activation_function(), y_quant, place)?;
        let mut input = self.value(place, operator, 0)?;
        if x.shape[..] != [rows, depth] {
            input = format!("reshape::<{}>({input})", shape_type(&[rows, depth]));
        }
        let mut product = format!(
            "({}) @ cast::<i32>({module}::WEIGHTS){}",
            offset(&format!("cast::<i32>({input})"), x_quant.1),
            parts.bias
        );
        if y.shape[..] != [rows, units] {
            product = format!("reshape::<{}>({product})", shape_type(&y.shape));
        }
        self.statement(
            index,
            output,
            parts.to_int8(&product, y_quant.1, range),
            doc,
        );
        Ok(())
    }

    fn pool(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        let o = required_options::<schema::Pool2DOptions>(place, operator)?;
        let window = Window {
            stride: [o.stride_h(), o.stride_w()],
            dilation: [1, 1],
            padding: o.padding(),
            activation: o.fused_activation_function(),
        };
        let kernel = [o.filter_height(), o.filter_width()];
        if kernel.iter().chain(&window.stride).any(|&v| v < 1) {
            return Err(unsupported(
                place,
                format!(
                    "filter and strides must be at least 1; found {kernel:?} and {:?}",
                    window.stride
                ),
            ));
        }
        let kernel = kernel.map(|k| k as usize);
        let x = self.input(place, operator, 0, schema::INT8)?;
        let output = self.output(place, operator)?;
        let y = &self.graph.tensors[output];
        if x.shape.len() != 4 || x.shape[0] != 1 {
            return Err(unsupported(
                place,
                format!("expected an input [1, h, w, c]; found {:?}", x.shape),
            ));
        }
        let expected = [
            1,
            window.out_size(0, x.shape[1], kernel[0]),
            window.out_size(1, x.shape[2], kernel[1]),
            x.shape[3],
        ];
        if y.shape[..] != expected {
            return Err(unsupported(
                place,
                format!(
                    "the output's shape should be {expected:?} by TFLite's rule; the model says {:?}",
                    y.shape
                ),
            ));
        }
        let average = operator.code == op::AVERAGE_POOL_2D;
        let x_quant = x.quantization(place)?;
        let y_quant = y.quantization(place)?;
        if x_quant != y_quant {
            return Err(unsupported(
                place,
                format!(
                    "input and output must share scale and zero point (TFLite's int8 pools do \
                     not requantise); found {x_quant:?} and {y_quant:?}"
                ),
            ));
        }
        // SAME padding per side, as TensorFlow pads; TFLite's average
        // counts only the taps inside the input, and its max pool skips the
        // padding, as `max_pool2d` does.
        let sides = window.sides(&x.shape[1..3], kernel);
        if (0..2).any(|axis| sides[axis].iter().any(|&side| side > kernel[axis] / 2)) {
            return Err(unsupported(
                place,
                format!("SAME padding {sides:?} is more than half the kernel {kernel:?} on a side"),
            ));
        }
        let range = activation_range(window.activation, y_quant, place)?;
        let input = self.value(place, operator, 0)?;
        // A pool's stride defaults to its kernel (PyTorch's rule), so it is
        // always written.
        let mut options = format!(", stride = {}", list(window.stride));
        if sides != [[0, 0]; 2] {
            options.push_str(&format!(
                ", padding = [[{}, {}], [{}, {}]]",
                sides[0][0], sides[0][1], sides[1][0], sides[1][1]
            ));
            if average {
                options.push_str(", count_include_pad = false");
            }
        }
        let doc = format!(
            "{} (operator {index}): {}, {:?} -> {:?}.",
            operator_name(operator.code),
            window.describe(kernel),
            x.shape,
            y.shape
        );
        let expression = if average {
            // The sum in i32, rounded half away from zero as TFLite's.
            format!(
                "avg_pool2d(cast::<i32>({input}), {}{options}, layout = nhwc)",
                list(kernel)
            )
        } else {
            format!(
                "cast::<i32>(max_pool2d({input}, {}{options}, layout = nhwc))",
                list(kernel)
            )
        };
        self.statement(index, output, to_int8(&expression, range), doc);
        Ok(())
    }

    fn binary(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        let add = operator.code == op::ADD;
        let activation = if add {
            operator
                .table
                .options::<schema::AddOptions>()
                .map_or(0, |o| o.fused_activation_function())
        } else {
            operator
                .table
                .options::<schema::MulOptions>()
                .map_or(0, |o| o.fused_activation_function())
        };
        let a = self.input(place, operator, 0, schema::INT8)?;
        let b = self.input(place, operator, 1, schema::INT8)?;
        let output = self.output(place, operator)?;
        let y = &self.graph.tensors[output];
        if a.shape != y.shape || b.shape != y.shape {
            return Err(unsupported(
                place,
                format!(
                    "both inputs must have the output's shape {:?}; found {:?} and {:?}",
                    y.shape, a.shape, b.shape
                ),
            ));
        }
        let (qa, qb, qy) = (
            a.quantization(place)?,
            b.quantization(place)?,
            y.quantization(place)?,
        );
        let range = activation_range(activation, qy, place)?;
        let (va, vb) = (
            self.value(place, operator, 0)?,
            self.value(place, operator, 1)?,
        );
        let (ca, cb) = (
            offset(&format!("cast::<i32>({va})"), qa.1),
            offset(&format!("cast::<i32>({vb})"), qb.1),
        );
        let sum = if add {
            // TFLite's int8 ADD: each input rescaled after a left shift of
            // 20, the sum requantised (`AddParameters`).
            let p = AddParameters::int8(qa.0, qb.0, qy.0);
            format!(
                "requantize(requantize(({ca}) << {shift}, {}, {}) + requantize(({cb}) << {shift}, {}, {}), {}, {})",
                p.a.0, p.a.1, p.b.0, p.b.1, p.output.0, p.output.1,
                shift = p.left_shift
            )
        } else {
            let (m, s) = quantize_multiplier(f64::from(qa.0) * f64::from(qb.0) / f64::from(qy.0));
            format!("requantize(({ca}) * ({cb}), {m}, {s})")
        };
        let doc = format!(
            "{} (operator {index}): {:?}.",
            operator_name(operator.code),
            y.shape
        );
        self.statement(index, output, to_int8(&offset(&sum, -qy.1), range), doc);
        Ok(())
    }

    fn reshape(&mut self, place: &str, operator: &OperatorInfo<'a>) -> Result<(), Error> {
        let x = self.input(place, operator, 0, schema::INT8)?;
        let output = self.output(place, operator)?;
        let y = &self.graph.tensors[output];
        if x.len() != y.len() || x.quantization(place)? != y.quantization(place)? {
            return Err(unsupported(
                place,
                format!(
                    "a reshape keeps the elements and their quantisation; found {:?} -> {:?}",
                    x.shape, y.shape
                ),
            ));
        }
        // Read in place by the operators that read the output: no statement.
        let input = self.value(place, operator, 0)?;
        self.values[output] = Some(format!("reshape::<{}>({input})", shape_type(&y.shape)));
        if output == self.output {
            let name = format!("y_{output}");
            self.statements.push(format!(
                "    // RESHAPE to the output's shape.\n    let {name} = tensor_expr!({});\n",
                self.values[output].as_deref().unwrap_or_default()
            ));
            self.values[output] = Some(name);
        }
        Ok(())
    }

    fn softmax(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        let beta = operator
            .table
            .options::<schema::SoftmaxOptions>()
            .map_or(1.0, |o| o.beta());
        let x = self.input(place, operator, 0, schema::INT8)?;
        let output = self.output(place, operator)?;
        let y = &self.graph.tensors[output];
        let (scale, _) = x.quantization(place)?;
        fixed_output(place, "softmax", y, (1.0 / 256.0, -128, "1/256"))?;
        let scaled = f64::from(scale) * f64::from(beta);
        if scaled.is_nan() || scaled <= 2f64.powi(-26) || x.shape.is_empty() {
            return Err(unsupported(
                place,
                format!("input scale * beta must be above 2^-26; found {scale} * {beta}"),
            ));
        }
        let (m, s) = softmax_multiplier(scale, beta);
        let input = self.value(place, operator, 0)?;
        let doc = format!("SOFTMAX (operator {index}) over the last axis, beta {beta}.");
        let axis = x.shape.len() - 1;
        self.statement(
            index,
            output,
            format!("quantized_softmax({input}, {m}i32, {s}i32, [{axis}])"),
            doc,
        );
        Ok(())
    }

    /// An int8 LOGISTIC or TANH: `quantized_sigmoid` or `quantized_tanh` of
    /// the input less its zero point, with TFLite Micro's Prepare of the
    /// input scale; the output must have the scale and zero point TFLite's
    /// kernels write.
    fn activation(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        let logistic = operator.code == op::LOGISTIC;
        let x = self.input(place, operator, 0, schema::INT8)?;
        let output = self.output(place, operator)?;
        let (scale, zero_point) = x.quantization(place)?;
        let (function, kernel, written) = if logistic {
            (
                "quantized_sigmoid",
                "LOGISTIC",
                (1.0 / 256.0, -128, "1/256"),
            )
        } else {
            ("quantized_tanh", "TANH", (1.0 / 128.0, 0, "1/128"))
        };
        fixed_output(place, kernel, &self.graph.tensors[output], written)?;
        if scale.is_nan() || scale <= 0.0 {
            return Err(unsupported(
                place,
                format!("the input scale must be positive; found {scale}"),
            ));
        }
        let (m, s) = sigmoid_multiplier(scale);
        let input = offset(
            &format!("cast::<i32>({})", self.value(place, operator, 0)?),
            zero_point,
        );
        let doc = format!("{} (operator {index}).", operator_name(operator.code));
        self.statement(
            index,
            output,
            format!("{function}({input}, {m}i32, {s}i32)"),
            doc,
        );
        Ok(())
    }

    /// A QUANTIZE of a float tensor (a converted model's float input) into
    /// int8, as TFLite Micro's `AffineQuantize`: `x / scale` in `f32`,
    /// rounded half away from zero, plus the zero point, saturated.
    fn quantize(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        self.input(place, operator, 0, schema::FLOAT32)?;
        let output = self.output(place, operator)?;
        let (scale, zero_point) = self.graph.tensors[output].quantization(place)?;
        positive_scale(place, "output", scale)?;
        if !(-128..=127).contains(&zero_point) {
            return Err(unsupported(
                place,
                format!("the output zero point must be an int8; found {zero_point}"),
            ));
        }
        let rounded = format!(
            "cast::<i32>(round({} / {scale:?}f32))",
            self.value(place, operator, 0)?
        );
        let doc = format!("QUANTIZE (operator {index}): scale {scale:?}, zero point {zero_point}.");
        self.statement(
            index,
            output,
            format!("saturating_cast::<i8>({})", offset(&rounded, -zero_point)),
            doc,
        );
        Ok(())
    }

    /// A DEQUANTIZE of an int8 tensor (a converted model's float output):
    /// `(q - zero point) * scale` in `f32`, which is TFLite Micro's
    /// product in `f64` rounded to `f32` (that product is exact).
    fn dequantize(
        &mut self,
        index: usize,
        place: &str,
        operator: &OperatorInfo<'a>,
    ) -> Result<(), Error> {
        let x = self.input(place, operator, 0, schema::INT8)?;
        let output = match operator.outputs[..] {
            [index] => {
                check_type(place, &self.graph.tensors[index], schema::FLOAT32)?;
                index
            }
            _ => {
                return Err(unsupported(
                    place,
                    format!("expected one output, found {}", operator.outputs.len()),
                ))
            }
        };
        let (scale, zero_point) = x.quantization(place)?;
        positive_scale(place, "input", scale)?;
        let centred = offset(
            &format!("cast::<i32>({})", self.value(place, operator, 0)?),
            zero_point,
        );
        let doc =
            format!("DEQUANTIZE (operator {index}): scale {scale:?}, zero point {zero_point}.");
        self.statement(
            index,
            output,
            format!("cast::<f32>({centred}) * {scale:?}f32"),
            doc,
        );
        Ok(())
    }

    /// The module's text.
    fn finish(mut self, source_name: &str, weights_file: &str) -> Result<Module, Error> {
        let graph = self.graph;
        let (input, output) = (&graph.tensors[graph.input], &graph.tensors[self.output]);
        let place = "the model";
        let Some(last) = self.statements.pop() else {
            return Err(unsupported(
                place,
                "the graph has no operator to run".into(),
            ));
        };
        let value = self.values[self.output].clone().unwrap_or_default();
        // The last statement is the function's value.
        let tail = last
            .replace(&format!("let {value} = "), "")
            .trim_end()
            .trim_end_matches(';')
            .to_owned();
        let mut out = String::new();
        let _ = write!(
            out,
            "// Generated by tensor-expr-tflite from `{source_name}` ({} operators): a\n\
             // program of one `tensor_expr!` statement per operator, its tensors in one\n\
             // arena of `ARENA_BYTES`. Generate it again rather than edit it.\n\
             #[allow(unused_imports)]\n\
             use tensor_expr::prelude::*;\n\n\
             /// The model's input.\npub type Input = {};\n\
             /// The model's output.\npub type Output = {};\n\n",
            graph.operators.len(),
            shape_type(&input.shape),
            shape_type(&output.shape),
        );
        // An int8 end's quantisation, as constants; a float end is
        // quantised or dequantised by the program itself.
        for (tensor, end, upper) in [(input, "input", "INPUT"), (output, "output", "OUTPUT")] {
            if tensor.element_type == schema::INT8 {
                let (scale, zero) = tensor.quantization(place)?;
                let _ = write!(
                    out,
                    "/// The {end}'s quantisation: `real = {upper}_SCALE * (q - {upper}_ZERO_POINT)`.\n\
                     pub const {upper}_SCALE: f32 = {scale:?};\n\
                     /// The {end}'s zero point.\npub const {upper}_ZERO_POINT: i32 = {zero};\n"
                );
            }
        }
        let _ = write!(
            out,
            "\n/// The arena `invoke_in` takes: every intermediate tensor, placed by lifetime,\n\
             /// and each statement's kernel scratch.\n\
             pub const ARENA_BYTES: usize = INVOKE_ARENA_BYTES;\n             /// The bytes of the arena the intermediate tensors take, planned alone (what\n\
             /// TensorFlow Lite Micro reports as its activations).\n\
             pub const TENSOR_BYTES: usize = INVOKE_TENSOR_BYTES;\n\n"
        );
        // A model of no weights (pools, activations) reads none.
        if !self.weights.is_empty() {
            let _ = write!(
                out,
                "/// The weights of every layer ({} bytes), in the layouts the statements read.\n\
                 static WEIGHT_BYTES: [u8; {}] = *include_bytes!(\"{weights_file}\");\n\n",
                self.weights.len(),
                self.weights.len(),
            );
        }
        out.push_str(&self.constants);
        let _ = write!(
            out,
            "/// Runs the model on one input, its tensors in an arena on this call's\n\
             /// stack; `invoke_in` takes the caller's.\n\
             #[tensor_expr::program]\n\
             pub fn invoke(input: &Tensor<{}, Input>) -> Tensor<{}, Output> {{\n",
            element(input),
            element(output),
        );
        for statement in &self.statements {
            out.push_str(statement);
        }
        let _ = writeln!(out, "{tail}\n}}");
        Ok(Module {
            source: out,
            weights: self.weights,
        })
    }
}

/// The Rust element type of a model's end: `i8`, or `f32` for a float end.
fn element(tensor: &TensorInfo<'_>) -> &'static str {
    if tensor.element_type == schema::FLOAT32 {
        "f32"
    } else {
        "i8"
    }
}

/// Requires a quantisation's scale to be positive.
fn positive_scale(place: &str, which: &str, scale: f32) -> Result<(), Error> {
    if scale > 0.0 {
        Ok(())
    } else {
        Err(unsupported(
            place,
            format!("the {which} scale must be positive; found {scale}"),
        ))
    }
}

/// The output quantisation `(scale, zero point, the scale as written)` that
/// TFLite's int8 `kernel` always writes (softmax, logistic, tanh), required
/// of `y`.
fn fixed_output(
    place: &str,
    kernel: &str,
    y: &TensorInfo<'_>,
    (scale, zero_point, written): (f32, i32, &str),
) -> Result<(), Error> {
    let found = y.quantization(place)?;
    if found != (scale, zero_point) {
        return Err(unsupported(
            place,
            format!(
                "TFLite's int8 {kernel} writes a scale of {written} and zero point {zero_point}; \
                 the output has {found:?}"
            ),
        ));
    }
    Ok(())
}

/// The parts of a layer's expression its constants give.
struct LayerConstants {
    /// ` + module::BIAS`, or nothing.
    bias: String,
    /// The multiplier and shift arguments of `requantize`.
    requantize: String,
}

/// The options of a supported operator, which it must have.
fn required_options<'a, O: schema::Options<'a>>(
    place: &str,
    operator: &OperatorInfo<'a>,
) -> Result<O, Error> {
    operator
        .table
        .options::<O>()
        .ok_or_else(|| unsupported(place, "its options are missing".into()))
}

/// A constant int8 tensor's bytes, as many as its shape says.
fn constant_int8<'a>(place: &str, tensor: &TensorInfo<'a>) -> Result<&'a [u8], Error> {
    match tensor.data {
        Some(data) if data.len() == tensor.len() => Ok(data),
        Some(data) => Err(unsupported(
            place,
            format!(
                "weights `{}` of shape {:?} need {} bytes; the buffer has {}",
                tensor.name,
                tensor.shape,
                tensor.len(),
                data.len()
            ),
        )),
        None => Err(unsupported(
            place,
            format!("weights `{}` must be constant", tensor.name),
        )),
    }
}

/// A tensor's name for a doc comment: the first of the names the converter
/// joins with `;` (the layer's own).
fn short(name: &str) -> &str {
    name.split(';').next().unwrap_or(name)
}

impl LayerConstants {
    /// The layer's int8 output of the `i32` sum `sum`: requantised, the
    /// output's zero point added, clamped to the activation's `range`.
    fn to_int8(&self, sum: &str, output_zero: i32, range: (i32, i32)) -> String {
        let requantized = format!("requantize({sum}, {})", self.requantize);
        to_int8(&offset(&requantized, -output_zero), range)
    }
}

/// Checks a tensor's element type.
fn check_type(place: &str, tensor: &TensorInfo<'_>, element_type: i8) -> Result<(), Error> {
    if tensor.element_type == element_type {
        Ok(())
    } else {
        Err(unsupported(
            place,
            format!(
                "tensor `{}` must be {}; it is {}",
                tensor.name,
                schema::type_name(element_type),
                schema::type_name(tensor.element_type)
            ),
        ))
    }
}
