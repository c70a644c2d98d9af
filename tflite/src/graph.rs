//! The verified model as the generator reads it: the one subgraph's
//! tensors (shape, type, quantisation, constant data) and operators (code,
//! inputs, outputs), with the checks that every index is in range.

use crate::error::Error;
use crate::operators::NAMES;
use crate::schema::{self, Model, Operator};

/// A tensor of the graph.
pub struct TensorInfo<'a> {
    /// Its name in the model (the converter's, often a layer's path).
    pub name: &'a str,
    /// Its dims, outermost first.
    pub shape: Vec<usize>,
    /// Its `TensorType`.
    pub element_type: i8,
    /// Its scales: one, or one per channel along `quantized_dimension`.
    pub scales: Vec<f32>,
    /// Its zero points, as many as scales.
    pub zero_points: Vec<i64>,
    /// The dim the scales run along, when there are several.
    pub quantized_dimension: usize,
    /// Its constant data (weights, biases, a reshape's shape), if any.
    pub data: Option<&'a [u8]>,
}

impl TensorInfo<'_> {
    /// Its element count.
    pub fn len(&self) -> usize {
        self.shape
            .iter()
            .try_fold(1usize, |len, &d| len.checked_mul(d))
            .unwrap_or(usize::MAX)
    }

    /// The one scale and zero point of a per-tensor quantised tensor.
    pub fn quantization(&self, place: &str) -> Result<(f32, i32), Error> {
        match (&self.scales[..], &self.zero_points[..]) {
            ([scale], [zero]) => Ok((*scale, i32::try_from(*zero).unwrap_or(i32::MAX))),
            _ => Err(unsupported(
                place,
                format!(
                    "tensor `{}` needs one scale and zero point; it has {} scales",
                    self.name,
                    self.scales.len()
                ),
            )),
        }
    }

    /// Its data as `i32`s (little-endian, as FlatBuffers stores them).
    pub fn i32s(&self) -> Vec<i32> {
        self.data
            .unwrap_or_default()
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }
}

/// An operator of the graph.
pub struct OperatorInfo<'a> {
    /// Its builtin code (`BuiltinOperator`).
    pub code: i32,
    /// Its input tensors' indices; -1 for an optional input left out.
    pub inputs: Vec<i32>,
    /// Its output tensors' indices.
    pub outputs: Vec<usize>,
    /// The operator's table, for its options.
    pub table: Operator<'a>,
}

/// The model's one subgraph.
pub struct Graph<'a> {
    /// The tensors, by index.
    pub tensors: Vec<TensorInfo<'a>>,
    /// The operators, in the order the model runs them.
    pub operators: Vec<OperatorInfo<'a>>,
    /// The graph's input tensor.
    pub input: usize,
    /// The graph's output tensor.
    pub output: usize,
}

/// An `Error::Unsupported` at `place`.
pub fn unsupported(place: &str, detail: String) -> Error {
    Error::Unsupported {
        place: place.to_owned(),
        detail,
    }
}

/// The name of operator code `code`.
pub fn operator_name(code: i32) -> String {
    usize::try_from(code)
        .ok()
        .and_then(|c| NAMES.get(c))
        .map_or_else(
            || format!("operator code {code}"),
            |name| (*name).to_owned(),
        )
}

impl<'a> Graph<'a> {
    /// Reads the verified model's subgraph.
    pub fn read(model: Model<'a>) -> Result<Graph<'a>, Error> {
        let place = "the model";
        if model.version() != 3 {
            return Err(unsupported(
                place,
                format!(
                    "expected TFLite's schema version 3; found {}",
                    model.version()
                ),
            ));
        }
        let graphs = model.subgraphs().unwrap_or_default();
        if graphs.len() != 1 {
            return Err(unsupported(
                place,
                format!("expected one subgraph, found {}", graphs.len()),
            ));
        }
        let graph = graphs.get(0);
        let buffers = model.buffers().unwrap_or_default();
        let mut tensors = Vec::new();
        for (index, tensor) in graph.tensors().unwrap_or_default().iter().enumerate() {
            let name = tensor.name().unwrap_or("");
            let place = format!("tensor {index} (`{name}`)");
            let dim = |d: i32| {
                usize::try_from(d).ok().filter(|&d| d > 0).ok_or_else(|| {
                    unsupported(
                        &place,
                        format!("dims must be static and positive; found {d}"),
                    )
                })
            };
            let shape = tensor
                .shape()
                .unwrap_or_default()
                .iter()
                .map(dim)
                .collect::<Result<Vec<_>, _>>()?;
            let quantization = tensor.quantization();
            if quantization.is_some_and(|q| q.details_type() != 0) {
                return Err(unsupported(
                    &place,
                    "only affine quantisation is supported; found custom or blockwise".into(),
                ));
            }
            if tensor.is_variable() {
                return Err(unsupported(
                    &place,
                    "variable (stateful) tensors are not supported".into(),
                ));
            }
            let buffer = usize::try_from(tensor.buffer()).unwrap_or(usize::MAX);
            if buffer >= buffers.len() && buffer != 0 {
                return Err(unsupported(
                    &place,
                    format!(
                        "buffer {buffer} does not exist (the model has {})",
                        buffers.len()
                    ),
                ));
            }
            let data = (buffer < buffers.len())
                .then(|| buffers.get(buffer))
                .filter(|b| b.offset() > 1)
                .map(|_| {
                    Err(unsupported(
                        &place,
                        "its data lies outside the FlatBuffer (a model over 2 GB)".into(),
                    ))
                })
                .transpose()?
                .or_else(|| {
                    (buffer < buffers.len())
                        .then(|| buffers.get(buffer).data())
                        .flatten()
                        .map(|d| d.bytes())
                        .filter(|d| !d.is_empty())
                });
            tensors.push(TensorInfo {
                name,
                shape,
                element_type: tensor.element_type(),
                scales: quantization
                    .and_then(|q| q.scale())
                    .map(|v| v.iter().collect())
                    .unwrap_or_default(),
                zero_points: quantization
                    .and_then(|q| q.zero_point())
                    .map(|v| v.iter().collect())
                    .unwrap_or_default(),
                quantized_dimension: quantization
                    .map_or(0, |q| usize::try_from(q.quantized_dimension()).unwrap_or(0)),
                data,
            });
        }
        let tensor_index = |i: i32, place: &str| -> Result<usize, Error> {
            usize::try_from(i)
                .ok()
                .filter(|&i| i < tensors.len())
                .ok_or_else(|| {
                    unsupported(
                        place,
                        format!(
                            "tensor index {i} is out of range (the graph has {} tensors)",
                            tensors.len()
                        ),
                    )
                })
        };
        let codes = model.operator_codes().unwrap_or_default();
        let mut operators = Vec::new();
        for (index, op) in graph.operators().unwrap_or_default().iter().enumerate() {
            let place = format!("operator {index}");
            let code_index = op.opcode_index() as usize;
            if code_index >= codes.len() {
                return Err(unsupported(
                    &place,
                    format!("operator code index {code_index} is out of range"),
                ));
            }
            let code = codes.get(code_index);
            if code.custom_code().is_some() {
                return Err(Error::UnsupportedOperator {
                    index,
                    operator: format!("CUSTOM (`{}`)", code.custom_code().unwrap_or("")),
                });
            }
            let inputs: Vec<i32> = op.inputs().unwrap_or_default().iter().collect();
            for &i in &inputs {
                if i != -1 {
                    tensor_index(i, &place)?;
                }
            }
            let outputs = op
                .outputs()
                .unwrap_or_default()
                .iter()
                .map(|i| tensor_index(i, &place))
                .collect::<Result<Vec<_>, _>>()?;
            operators.push(OperatorInfo {
                code: code.code(),
                inputs,
                outputs,
                table: op,
            });
        }
        let one = |v: Option<flatbuffers::Vector<'a, i32>>, what: &str| -> Result<usize, Error> {
            let v: Vec<i32> = v.unwrap_or_default().iter().collect();
            match v[..] {
                [i] => tensor_index(i, place),
                _ => Err(unsupported(
                    place,
                    format!("expected one {what} tensor, found {}", v.len()),
                )),
            }
        };
        let input = one(graph.inputs(), "input")?;
        let output = one(graph.outputs(), "output")?;
        // A float end is quantised by the first operator (QUANTIZE) or
        // dequantised by the last (DEQUANTIZE), as the converter writes a
        // model whose input and output types it was not asked to change.
        let quantized_in = operators
            .iter()
            .filter(|o| o.inputs.iter().any(|&i| i as usize == input && i >= 0))
            .all(|o| o.code == schema::op::QUANTIZE);
        let dequantized_out = operators
            .iter()
            .filter(|o| o.outputs.contains(&output))
            .all(|o| o.code == schema::op::DEQUANTIZE);
        for (index, end, float_end, edge) in [
            (input, "input", quantized_in, "read only by a QUANTIZE"),
            (output, "output", dequantized_out, "written by a DEQUANTIZE"),
        ] {
            let t = &tensors[index];
            let float_ok = t.element_type == schema::FLOAT32 && float_end;
            if t.element_type != schema::INT8 && !float_ok {
                return Err(unsupported(
                    place,
                    format!(
                        "the graph's {end} `{}` must be INT8, or FLOAT32 {edge}; it is {}",
                        t.name,
                        schema::type_name(t.element_type)
                    ),
                ));
            }
        }
        Ok(Graph {
            tensors,
            operators,
            input,
            output,
        })
    }
}
