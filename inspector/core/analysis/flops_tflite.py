"""FLOPs of TFLite operators from their tensors' shapes, no TensorFlow: each builtin counted as
TF's flops registry counts the GraphDef ops the converter fused into it (CONV_2D = Conv2D +
BiasAdd, FULLY_CONNECTED = MatMul + BiasAdd, ...), so that a float conversion's count is its
GraphDef's; fused activations and ops TF does not count go to the extra part, as `flops.EXTRA`
counts them for a GraphDef."""

from __future__ import annotations

import math


def _n(shape) -> int:
    return math.prod(shape)


def _bias(i, o) -> int:
    """BiasAdd's count (its input's elements) when the operator has a bias."""
    return _n(o[0]) if len(i) > 2 and i[2] is not None else 0


# an activation fused into an operator, per output element, as flops.EXTRA counts it alone
ACTIVATION = {"RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 2, "TANH": 1, "SIGN_BIT": 1}


def _act(o, a) -> int:
    return ACTIVATION.get(a.get("fused_activation_function", "NONE"), 0) * _n(o[0])


def _pool(i, o, a):
    return (a.get("filter_height", 1) * a.get("filter_width", 1) * _n(o[0]), _act(o, a))


def _transpose_conv(i, o, a):
    # TF's Conv2DBackpropInput: inputs (output shape, weights [O, H, W, I], input, bias)
    strides = a.get("stride_h", 1) * a.get("stride_w", 1)
    return (int(2 * _n(o[0]) * _n(i[1]) / (o[0][-1] * strides)) + _bias(i[1:], o), _act(o, a))


# op -> f(input shapes, output shapes, attrs) -> (TF registry's part, extra part)
TFLITE = {
    # filter [O, H, W, I]: TF's Conv2D counts out * H * W * I * 2
    "CONV_2D": lambda i, o, a: (_n(o[0]) * i[1][1] * i[1][2] * i[1][3] * 2 + _bias(i, o),
                                _act(o, a)),
    # filter [1, H, W, O]: TF's DepthwiseConv2dNative counts out * H * W * 2
    "DEPTHWISE_CONV_2D": lambda i, o, a: (_n(o[0]) * i[1][1] * i[1][2] * 2 + _bias(i, o),
                                          _act(o, a)),
    # weights [O, K]: TF's MatMul counts K * out * 2
    "FULLY_CONNECTED": lambda i, o, a: (i[1][-1] * _n(o[0]) * 2 + _bias(i, o), _act(o, a)),
    "BATCH_MATMUL": lambda i, o, a: ((i[0][-2] if a.get("adj_x") else i[0][-1])
                                     * _n(o[0]) * 2, 0),
    "TRANSPOSE_CONV": _transpose_conv,
    "AVERAGE_POOL_2D": _pool,
    "MAX_POOL_2D": _pool,
    "ADD_N": lambda i, o, a: (_n(i[0]) * (len(i) - 1), 0),
    "RSQRT": lambda i, o, a: (2 * _n(i[0]), 0),
    "SOFTMAX": lambda i, o, a: (5 * _n(i[0]), 0),
    "SQUARED_DIFFERENCE": lambda i, o, a: (2 * _n(o[0]), 0),
    "MEAN": lambda i, o, a: (_n(i[0]), 0),
}
for _op in ("ADD", "SUB", "MUL", "DIV"):
    TFLITE[_op] = lambda i, o, a: (_n(o[0]), _act(o, a))
for _op in ("MAXIMUM", "MINIMUM", "POW", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL",
            "EQUAL", "NOT_EQUAL"):
    TFLITE[_op] = lambda i, o, a: (_n(o[0]), 0)
for _op in ("SQUARE", "LOG", "NEG"):
    TFLITE[_op] = lambda i, o, a: (_n(i[0]), 0)
for _op in ("SUM", "ARG_MAX", "ARG_MIN"):
    TFLITE[_op] = lambda i, o, a: (_n(i[0]) - _n(o[0]), 0)
# ops TF's registry does not count: as flops.EXTRA counts their GraphDef twins
for _op in ("RELU", "RELU_N1_TO_1", "RELU_0_TO_1", "LOGISTIC", "TANH", "ELU", "LEAKY_RELU",
            "HARD_SWISH", "EXP", "SQRT", "ABS", "GELU", "QUANTIZE", "DEQUANTIZE", "FLOOR_DIV",
            "FLOOR_MOD", "PRELU"):
    TFLITE[_op] = lambda i, o, a: (0, _n(o[0]))
TFLITE["RELU6"] = lambda i, o, a: (0, 2 * _n(o[0]))
for _op in ("REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "REDUCE_ANY"):
    TFLITE[_op] = lambda i, o, a: (0, _n(i[0]) - _n(o[0]))
