//! The part of TFLite's FlatBuffers schema (`tensorflow/lite/schema/schema.fbs`)
//! the importer reads: the model, its subgraph, tensors, buffers, operators
//! and the options of the operators it supports. Each table is written the
//! way `flatc --rust` writes one (a `Follow` impl, an accessor per field, a
//! `Verifiable` impl), for the dozen tables of TFLite's two hundred that an
//! int8 model of the supported operators uses.
//!
//! [`model`] runs the `flatbuffers` verifier over the whole file before any
//! accessor reads it: every table, vector and string the accessors below can
//! reach is checked to lie in the buffer, so their `unsafe` reads are sound
//! on any input (a malformed file is an error, never a wild read). A union
//! variant the verifier does not know (the options of an operator the
//! importer does not support) is not verified, and [`Operator::options`]
//! never reads one.

use flatbuffers::{
    Follow, ForwardsUOffset, InvalidFlatbuffer, Table, TableVerifier, VOffsetT, Vector, Verifiable,
    Verifier, VerifierOptions,
};

/// A verified model: the root table of a `.tflite` file.
///
/// # Errors
/// The verifier's error if any offset of the file points outside it, a
/// table is malformed or the file is not a FlatBuffer at all.
pub fn model(bytes: &[u8]) -> Result<Model<'_>, InvalidFlatbuffer> {
    // TFLite's own limits: a model has at most a few thousand tables, and
    // the verifier's defaults (a million tables, 2 GiB) cover every model
    // of TFLite's size limit.
    let options = VerifierOptions::default();
    flatbuffers::root_with_opts::<Model>(&options, bytes)
}

/// Writes a table: its struct, `Follow`, one accessor per field and the
/// verifier of those fields. A field is `name @ slot: scalar T = default`
/// (a scalar, its schema default when absent) or `name @ slot: offset T`
/// (a vector, string or table, `None` when absent); `slot` is the field's
/// vtable offset, `4 + 2 * id` for the field's id in the schema.
macro_rules! table {
    (
        $(#[$doc:meta])*
        $name:ident {
            $( $(#[$field_doc:meta])* $field:ident @ $slot:literal : $kind:ident $ty:ty $(= $default:expr)? ),* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<'a> {
            table: Table<'a>,
        }

        impl<'a> Follow<'a> for $name<'a> {
            type Inner = $name<'a>;
            unsafe fn follow(buf: &'a [u8], loc: usize) -> Self::Inner {
                // SAFETY: the caller's (Follow's contract): `loc` holds a
                // table, which the verifier checked.
                $name { table: unsafe { Table::new(buf, loc) } }
            }
        }

        impl<'a> $name<'a> {
            $( table!(@accessor $(#[$field_doc])* $field @ $slot : $kind $ty $(= $default)?); )*

            /// Verifies the fields this reader reads.
            fn verify_fields<'v, 'o, 'b>(
                mut fields: TableVerifier<'v, 'o, 'b>,
            ) -> Result<TableVerifier<'v, 'o, 'b>, InvalidFlatbuffer> {
                $( fields = fields.visit_field::<table!(@wire $kind $ty)>(stringify!($field), $slot, false)?; )*
                Ok(fields)
            }
        }
    };
    (@accessor $(#[$doc:meta])* $field:ident @ $slot:literal : scalar $ty:ty = $default:expr) => {
        $(#[$doc])*
        pub fn $field(&self) -> $ty {
            // SAFETY: the verifier checked the field as a `$ty`.
            unsafe { self.table.get::<$ty>($slot, Some($default)) }.unwrap_or($default)
        }
    };
    (@accessor $(#[$doc:meta])* $field:ident @ $slot:literal : offset $ty:ty) => {
        $(#[$doc])*
        pub fn $field(&self) -> Option<$ty> {
            // SAFETY: the verifier checked the field as an offset to `$ty`.
            unsafe { self.table.get::<ForwardsUOffset<$ty>>($slot, None) }
        }
    };
    (@wire scalar $ty:ty) => { $ty };
    (@wire offset $ty:ty) => { ForwardsUOffset<$ty> };
}

/// Writes `Verifiable` for tables whose fields are all plain (no union).
macro_rules! verifiable {
    ($($name:ident),*) => {$(
        impl Verifiable for $name<'_> {
            fn run_verifier(v: &mut Verifier, pos: usize) -> Result<(), InvalidFlatbuffer> {
                Self::verify_fields(v.visit_table(pos)?)?.finish();
                Ok(())
            }
        }
    )*};
}

table! {
    /// The root: operator codes, subgraphs and buffers.
    Model {
        /// The schema version (3 for every current converter).
        version @ 4: scalar u32 = 0,
        operator_codes @ 6: offset Vector<'a, ForwardsUOffset<OperatorCode<'a>>>,
        subgraphs @ 8: offset Vector<'a, ForwardsUOffset<SubGraph<'a>>>,
        buffers @ 12: offset Vector<'a, ForwardsUOffset<Buffer<'a>>>,
    }
}

table! {
    /// Which operator an `Operator` runs.
    OperatorCode {
        /// The code as a byte (codes below 127), from older converters.
        deprecated_builtin_code @ 4: scalar i8 = 0,
        custom_code @ 6: offset &'a str,
        /// The code as an `int32` (every code), from current converters.
        builtin_code @ 10: scalar i32 = 0,
    }
}

impl OperatorCode<'_> {
    /// The builtin operator's code: the larger of the two fields, as
    /// TFLite's `GetBuiltinCode` reads them.
    pub fn code(&self) -> i32 {
        self.builtin_code()
            .max(i32::from(self.deprecated_builtin_code()))
    }
}

table! {
    /// A graph of operators over tensors.
    SubGraph {
        tensors @ 4: offset Vector<'a, ForwardsUOffset<Tensor<'a>>>,
        inputs @ 6: offset Vector<'a, i32>,
        outputs @ 8: offset Vector<'a, i32>,
        operators @ 10: offset Vector<'a, ForwardsUOffset<Operator<'a>>>,
    }
}

table! {
    /// A tensor: its shape, element type, data (a buffer index; 0 is the
    /// empty buffer) and quantisation.
    Tensor {
        shape @ 4: offset Vector<'a, i32>,
        /// `TensorType`: [`INT8`], [`INT32`], ...
        element_type @ 6: scalar i8 = 0,
        buffer @ 8: scalar u32 = 0,
        name @ 10: offset &'a str,
        quantization @ 12: offset QuantizationParameters<'a>,
        is_variable @ 14: scalar bool = false,
    }
}

table! {
    /// Affine quantisation: `real = scale * (q - zero_point)`, per tensor or
    /// per channel along `quantized_dimension`.
    QuantizationParameters {
        scale @ 8: offset Vector<'a, f32>,
        zero_point @ 10: offset Vector<'a, i64>,
        /// `QuantizationDetails`: 0 for plain affine quantisation.
        details_type @ 12: scalar u8 = 0,
        quantized_dimension @ 16: scalar i32 = 0,
    }
}

table! {
    /// A tensor's constant data.
    Buffer {
        data @ 4: offset Vector<'a, u8>,
        /// Above 1: the data lies outside the FlatBuffer (models over 2 GB).
        offset @ 6: scalar u64 = 0,
    }
}

table! {
    /// One operator of the graph.
    Operator {
        opcode_index @ 4: scalar u32 = 0,
        inputs @ 6: offset Vector<'a, i32>,
        outputs @ 8: offset Vector<'a, i32>,
        /// The `BuiltinOptions` union's type.
        options_type @ 10: scalar u8 = 0,
    }
}

/// The `BuiltinOptions` union's slot in `Operator`.
const OPERATOR_OPTIONS: VOffsetT = 12;

/// An options table of the `BuiltinOptions` union.
pub trait Options<'a>: Follow<'a, Inner = Self> + Verifiable + 'a {
    /// Its type in the union.
    const UNION_TYPE: u8;
}

impl<'a> Operator<'a> {
    /// The operator's options as `O`, if they are of that type; `None` if
    /// they are absent or of another type.
    pub fn options<O: Options<'a>>(&self) -> Option<O> {
        if self.options_type() != O::UNION_TYPE {
            return None;
        }
        // SAFETY: the verifier checked the union's value as an `O` (every
        // `Options` type is verified in `verify_options`).
        unsafe { self.table.get::<ForwardsUOffset<O>>(OPERATOR_OPTIONS, None) }
    }
}

impl Verifiable for Operator<'_> {
    fn run_verifier(v: &mut Verifier, pos: usize) -> Result<(), InvalidFlatbuffer> {
        Self::verify_fields(v.visit_table(pos)?)?
            .visit_union::<u8, _>(
                "builtin_options_type",
                10,
                "builtin_options",
                OPERATOR_OPTIONS,
                false,
                verify_options,
            )?
            .finish();
        Ok(())
    }
}

/// Writes the options tables and the union's verifier over them.
macro_rules! options {
    ($($(#[$doc:meta])* $name:ident = $union_type:literal { $($fields:tt)* })*) => {
        $(
            table! { $(#[$doc])* $name { $($fields)* } }
            verifiable!($name);
            impl<'a> Options<'a> for $name<'a> {
                const UNION_TYPE: u8 = $union_type;
            }
        )*

        /// Verifies a `BuiltinOptions` value of a type this reader reads.
        fn verify_options(kind: u8, v: &mut Verifier, pos: usize) -> Result<(), InvalidFlatbuffer> {
            match kind {
                $($union_type => v.verify_union_variant::<ForwardsUOffset<$name>>(stringify!($name), pos),)*
                _ => Ok(()),
            }
        }
    };
}

options! {
    /// CONV_2D.
    Conv2DOptions = 1 {
        padding @ 4: scalar i8 = 0,
        stride_w @ 6: scalar i32 = 0,
        stride_h @ 8: scalar i32 = 0,
        fused_activation_function @ 10: scalar i8 = 0,
        dilation_w_factor @ 12: scalar i32 = 1,
        dilation_h_factor @ 14: scalar i32 = 1,
    }
    /// DEPTHWISE_CONV_2D.
    DepthwiseConv2DOptions = 2 {
        padding @ 4: scalar i8 = 0,
        stride_w @ 6: scalar i32 = 0,
        stride_h @ 8: scalar i32 = 0,
        depth_multiplier @ 10: scalar i32 = 0,
        fused_activation_function @ 12: scalar i8 = 0,
        dilation_w_factor @ 14: scalar i32 = 1,
        dilation_h_factor @ 16: scalar i32 = 1,
    }
    /// AVERAGE_POOL_2D and MAX_POOL_2D.
    Pool2DOptions = 5 {
        padding @ 4: scalar i8 = 0,
        stride_w @ 6: scalar i32 = 0,
        stride_h @ 8: scalar i32 = 0,
        filter_width @ 10: scalar i32 = 0,
        filter_height @ 12: scalar i32 = 0,
        fused_activation_function @ 14: scalar i8 = 0,
    }
    /// FULLY_CONNECTED.
    FullyConnectedOptions = 8 {
        fused_activation_function @ 4: scalar i8 = 0,
        /// 0 is the plain layout; the shuffled int16 one is not read.
        weights_format @ 6: scalar i8 = 0,
    }
    /// SOFTMAX.
    SoftmaxOptions = 9 {
        beta @ 4: scalar f32 = 0.0,
    }
    /// ADD.
    AddOptions = 11 {
        fused_activation_function @ 4: scalar i8 = 0,
    }
    /// MUL.
    MulOptions = 21 {
        fused_activation_function @ 4: scalar i8 = 0,
    }
}

verifiable!(
    Model,
    OperatorCode,
    SubGraph,
    Tensor,
    QuantizationParameters,
    Buffer
);

/// `TensorType::FLOAT32`.
pub const FLOAT32: i8 = 0;
/// `TensorType::INT32`.
pub const INT32: i8 = 2;
/// `TensorType::INT8`.
pub const INT8: i8 = 9;

/// The name of a `TensorType` value, for errors.
pub fn type_name(element_type: i8) -> &'static str {
    const NAMES: [&str; 21] = [
        "FLOAT32",
        "FLOAT16",
        "INT32",
        "UINT8",
        "INT64",
        "STRING",
        "BOOL",
        "INT16",
        "COMPLEX64",
        "INT8",
        "FLOAT64",
        "COMPLEX128",
        "UINT64",
        "RESOURCE",
        "VARIANT",
        "UINT32",
        "UINT16",
        "INT4",
        "BFLOAT16",
        "INT2",
        "UINT4",
    ];
    usize::try_from(element_type)
        .ok()
        .and_then(|k| NAMES.get(k))
        .copied()
        .unwrap_or("an unknown type")
}

/// `Padding::SAME` (the other value is `VALID`).
pub const SAME: i8 = 0;

/// `ActivationFunctionType` values.
pub const NO_ACTIVATION: i8 = 0;
/// `ActivationFunctionType::RELU`.
pub const RELU: i8 = 1;
/// `ActivationFunctionType::RELU_N1_TO_1`.
pub const RELU_N1_TO_1: i8 = 2;
/// `ActivationFunctionType::RELU6`.
pub const RELU6: i8 = 3;

/// `BuiltinOperator` values of the supported operators, and their names.
pub mod op {
    pub const ADD: i32 = 0;
    pub const AVERAGE_POOL_2D: i32 = 1;
    pub const CONV_2D: i32 = 3;
    pub const DEPTHWISE_CONV_2D: i32 = 4;
    pub const DEQUANTIZE: i32 = 6;
    pub const FULLY_CONNECTED: i32 = 9;
    pub const LOGISTIC: i32 = 14;
    pub const MAX_POOL_2D: i32 = 17;
    pub const MUL: i32 = 18;
    pub const RESHAPE: i32 = 22;
    pub const SOFTMAX: i32 = 25;
    pub const TANH: i32 = 28;
    pub const QUANTIZE: i32 = 114;
}
