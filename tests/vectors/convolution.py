"""Writes convolution.txt: ONNX Runtime's values of single-operator Conv
models, the reference of tests/convolution.rs. ONNX's Conv computes what
torch.nn.functional.conv1d/conv2d define (a cross-correlation with zero
padding, stride, dilation and groups); `auto_pad = SAME_UPPER` splits the
padding as PyTorch's `padding='same'` does (the smaller half first). Cases
in the channels-last layout and unbatched cases are the same computation
with the arrays transposed or given a batch of one. Run with the packages
of tests/vectors/requirements.txt:

    python3 tests/vectors/convolution.py > tests/vectors/convolution.txt

Each case is a header `case NAME`, then a line each of the float32 input,
weight (`-` for a pool, which has none) and expected output values in
row-major order (shortest round-trip text of each float32). Pools are ONNX's
MaxPool and AveragePool (with `count_include_pad`, PyTorch's default);
windows are NumPy's `sliding_window_view` followed by a step.
"""
import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

rng = np.random.default_rng(20261125)


def text(values):
    values = np.asarray(values, np.float32).reshape(-1)
    return " ".join(np.format_float_positional(v, unique=True, trim="-") for v in values)


def run(op, inputs, opset, **attrs):
    """ONNX Runtime's value of one operator over `inputs` (name: array), on
    one thread."""
    node = helper.make_node(op, list(inputs), ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        op,
        [
            helper.make_tensor_value_info(name, TensorProto.FLOAT, list(value.shape))
            for name, value in inputs.items()
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options)
    return session.run(None, inputs)[0]


def conv(x, w, stride=None, pads=None, dilation=None, group=1, same=False, sides=None):
    """ONNX Runtime's Conv of NCHW (or NCL) x by w; `pads` is symmetric,
    `sides` ONNX's own list (every dim's start, then every dim's end)."""
    spatial = x.ndim - 2
    attrs = {"group": group}
    if stride is not None:
        attrs["strides"] = stride
    if dilation is not None:
        attrs["dilations"] = dilation
    if same:
        attrs["auto_pad"] = "SAME_UPPER"
    elif pads is not None:
        attrs["pads"] = list(pads) + list(pads)
    elif sides is not None:
        attrs["pads"] = sides
    assert spatial in (1, 2)
    return run("Conv", {"x": x, "w": w}, 17, **attrs)


def conv_transpose(x, w, stride=None, pads=None, dilation=None, group=1, output_padding=None, sides=None):
    """ONNX Runtime's ConvTranspose of NCHW (or NCL) x by w
    ([C_in, C_out / group, *kernel]), which computes what
    torch.nn.functional.conv_transpose1d/2d define: the output is
    `stride * (L - 1) + output_padding + dilation * (k - 1) + 1` long
    less the padding on both sides."""
    attrs = {"group": group}
    if stride is not None:
        attrs["strides"] = stride
    if dilation is not None:
        attrs["dilations"] = dilation
    if output_padding is not None:
        attrs["output_padding"] = output_padding
    if pads is not None:
        attrs["pads"] = list(pads) + list(pads)
    elif sides is not None:
        attrs["pads"] = sides
    return run("ConvTranspose", {"x": x, "w": w}, 17, **attrs)


def pool(op, x, kernel, stride=None, pads=None, dilation=None, sides=None, count_include_pad=1, same=False):
    """ONNX Runtime's MaxPool or AveragePool (counting the padding unless
    `count_include_pad` is 0, as PyTorch's avg_pool) of NCHW (or NCL) x."""
    attrs = {"kernel_shape": kernel, "strides": stride if stride is not None else kernel}
    if pads is not None:
        attrs["pads"] = list(pads) + list(pads)
    if sides is not None:
        attrs["pads"] = sides
    if dilation is not None:
        attrs["dilations"] = dilation
    if same:
        attrs["auto_pad"] = "SAME_UPPER"
    if op == "AveragePool":
        attrs["count_include_pad"] = count_include_pad
    return run(op, {"x": x}, 19, **attrs)


def pool_case(name, op, x_shape, kernel, layout="first", batched=True, **options):
    x = rng.standard_normal(x_shape).astype(np.float32)
    nx = x
    if layout == "last":
        nx = np.moveaxis(x, -1, 1 if batched else 0)
    if not batched:
        nx = nx[None]
    y = pool(op, np.ascontiguousarray(nx), kernel, **options)
    if not batched:
        y = y[0]
    if layout == "last":
        y = np.moveaxis(y, 1 if batched else 0, -1)
    print(f"case {name}")
    print(text(x))
    print("-")
    print(text(y))


def case(name, x_shape, w_shape, layout="first", batched=True, op=conv, **options):
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    nx, nw = x, w
    if layout == "last":
        # Channels last: x [N, *spatial, C], w [C_out, *kernel, C_in / g].
        nx = np.moveaxis(x, -1, 1 if batched else 0)
        nw = np.moveaxis(w, -1, 1)
    if not batched:
        nx = nx[None]
    y = op(np.ascontiguousarray(nx), np.ascontiguousarray(nw), **options)
    if not batched:
        y = y[0]
    if layout == "last":
        y = np.moveaxis(y, 1 if batched else 0, -1)
    print(f"case {name}")
    print(text(x))
    print(text(w))
    print(text(y))


case("conv2d_plain", (1, 3, 8, 9), (4, 3, 3, 3))
case("conv2d_stride_padding", (2, 3, 9, 10), (5, 3, 3, 2), stride=[2, 1], pads=[1, 2])
case("conv2d_dilation", (1, 2, 12, 11), (3, 2, 3, 3), dilation=[2, 3], pads=[1, 1])
case("conv2d_groups", (1, 4, 7, 7), (6, 2, 3, 3), group=2)
case("conv2d_depthwise", (1, 4, 8, 8), (4, 1, 3, 3), group=4, pads=[1, 1])
case("conv2d_same_even_kernel", (1, 2, 7, 6), (3, 2, 4, 3), same=True)
case("conv2d_unbatched", (3, 6, 6), (2, 3, 3, 3), batched=False)
case("conv2d_wide", (1, 3, 12, 70), (4, 3, 3, 3), pads=[1, 1])
case("conv2d_wide_strided", (2, 2, 11, 90), (3, 2, 3, 3), stride=[2, 2], pads=[1, 1])
case("conv2d_keyword_spotting", (1, 1, 49, 10), (8, 1, 3, 3))
case("conv2d_channels_last", (1, 6, 7, 3), (4, 3, 3, 3), layout="last", stride=[2, 2], pads=[1, 1])
case("conv2d_channels_last_depthwise", (2, 5, 5, 4), (4, 3, 3, 1), layout="last", group=4, pads=[1, 1])
case("conv1d_stride_padding", (2, 3, 20), (4, 3, 5), stride=[2], pads=[2])
case("conv1d_dilation_groups", (1, 4, 30), (8, 2, 3), group=2, dilation=[3])
case("conv1d_unbatched_same", (2, 16), (3, 2, 4), batched=False, same=True)
case("conv1d_wide", (1, 4, 100), (8, 4, 5), pads=[2])
case("conv1d_channels_last", (2, 12, 3), (4, 3, 3), layout="last")
case("conv1d_channels_last_padded", (2, 12, 3), (4, 3, 3), layout="last", stride=[2], pads=[1])
case("conv1d_groups_padded", (1, 6, 20), (6, 2, 3), group=3, pads=[1])
pool_case("max_pool2d_plain", "MaxPool", (1, 3, 8, 8), [2, 2])
pool_case("max_pool2d_stride_padding_dilation", "MaxPool", (2, 2, 9, 10), [3, 2], stride=[2, 1], pads=[1, 1], dilation=[2, 1])
pool_case("avg_pool2d_padded", "AveragePool", (1, 2, 7, 7), [3, 3], stride=[2, 2], pads=[1, 1])
pool_case("max_pool1d_padded", "MaxPool", (2, 3, 20), [3], stride=[2], pads=[1])
pool_case("avg_pool1d_unbatched", "AveragePool", (3, 16), [4], batched=False)
pool_case("max_pool2d_channels_last", "MaxPool", (1, 6, 6, 4), [2, 2], layout="last")
pool_case("avg_pool2d_wide", "AveragePool", (1, 2, 8, 64), [2, 2])

# NumPy's sliding_window_view with a step: windows of 4 along axis 1 of a
# [2, 3, 12] array, one every 3 (shape [2, 3, 3, 4]).
x = rng.standard_normal((2, 3, 12)).astype(np.float32)
windows = np.lib.stride_tricks.sliding_window_view(x, 4, axis=2)[:, :, ::3]
print("case windows_with_a_step")
print(text(x))
print("-")
print(text(windows))

# A padding per side (ONNX's pads: every dim's start, then every end) and
# TensorFlow's SAME with a stride (ONNX's SAME_UPPER: ceil(L / stride)
# outputs, the odd padding row at the end).
case("conv2d_padding_sides", (1, 2, 7, 8), (3, 2, 3, 3), stride=[2, 1], sides=[1, 0, 2, 1])
case("conv1d_padding_sides", (2, 3, 15), (4, 3, 4), sides=[0, 2])
case("conv2d_same_stride2", (1, 2, 9, 8), (3, 2, 3, 3), stride=[2, 2], same=True)
case("conv2d_same_stride2_even_kernel", (1, 2, 10, 7), (3, 2, 4, 4), stride=[2, 3], same=True)
case("conv2d_channels_last_same_stride2", (1, 9, 9, 4), (4, 3, 3, 1), layout="last", group=4, stride=[2, 2], same=True)
pool_case("max_pool2d_padding_sides", "MaxPool", (1, 2, 7, 8), [3, 2], stride=[2, 2], sides=[1, 0, 0, 1])

# Transposed convolutions (ONNX's ConvTranspose, PyTorch's conv_transpose):
# stride, padding (symmetric and per side), output padding, groups,
# dilation, batched and not, and wide rows for the tiles.
case("conv_transpose2d_plain", (1, 3, 5, 6), (3, 4, 3, 3), op=conv_transpose)
case("conv_transpose2d_stride_padding", (2, 3, 5, 4), (3, 2, 3, 3), op=conv_transpose, stride=[2, 2], pads=[1, 1], output_padding=[1, 1])
case("conv_transpose2d_dilation_groups", (1, 4, 6, 5), (4, 3, 3, 2), op=conv_transpose, group=2, dilation=[2, 1], stride=[1, 2], pads=[0, 1])
case("conv_transpose2d_unbatched", (2, 4, 4), (2, 3, 2, 2), batched=False, op=conv_transpose, stride=[2, 2])
case("conv_transpose2d_wide", (1, 4, 8, 40), (4, 8, 3, 3), op=conv_transpose, stride=[2, 2], pads=[1, 1], output_padding=[1, 1])
case("conv_transpose2d_padding_sides", (1, 2, 5, 5), (2, 3, 3, 4), op=conv_transpose, stride=[2, 3], sides=[1, 0, 0, 2])
case("conv_transpose2d_depthwise", (1, 8, 7, 7), (8, 1, 4, 4), op=conv_transpose, group=8, stride=[2, 2], pads=[1, 1])
case("conv_transpose1d_stride_padding", (2, 3, 10), (3, 4, 4), op=conv_transpose, stride=[3], pads=[1], output_padding=[2])
case("conv_transpose1d_groups_dilation", (1, 6, 12), (6, 2, 3), op=conv_transpose, group=3, dilation=[2], stride=[2], output_padding=[1])
case("conv_transpose1d_unbatched", (4, 9), (4, 5, 2), batched=False, op=conv_transpose, stride=[2])
case("conv_transpose1d_wide", (2, 8, 70), (8, 8, 5), op=conv_transpose, stride=[1], pads=[2])

# Averages over the taps inside the input only (count_include_pad = 0,
# TFLite's SAME average pool): symmetric and per-side padding, channels
# first and last, 1-D.
pool_case("avg_pool2d_exclude_pad", "AveragePool", (1, 2, 7, 7), [3, 3], stride=[2, 2], pads=[1, 1], count_include_pad=0)
pool_case("avg_pool2d_exclude_pad_sides", "AveragePool", (1, 2, 6, 7), [3, 2], stride=[1, 2], sides=[1, 0, 1, 1], count_include_pad=0)
pool_case("avg_pool2d_exclude_pad_channels_last", "AveragePool", (1, 5, 5, 3), [3, 3], layout="last", stride=[1, 1], pads=[1, 1], count_include_pad=0)
pool_case("avg_pool1d_exclude_pad", "AveragePool", (2, 3, 11), [4], stride=[3], pads=[2], count_include_pad=0)
pool_case("avg_pool2d_same_stride2", "AveragePool", (1, 2, 9, 8), [2, 3], stride=[2, 2], same=True, count_include_pad=0)
pool_case("max_pool2d_same_stride2_channels_last", "MaxPool", (1, 7, 9, 3), [3, 2], layout="last", stride=[2, 2], same=True)
