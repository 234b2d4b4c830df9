"""Op types grouped into categories (for colours and legends) and training-only roles."""

from __future__ import annotations

CATEGORIES = {
    "input": {"Placeholder", "PlaceholderWithDefault", "_Arg", "FIFOQueueV2", "QueueDequeueV2",
              "QueueDequeueManyV2", "IteratorGetNext", "ReaderReadV2"},
    "constant": {"Const", "HostConst"},
    "variable": {"Variable", "VariableV2", "VarHandleOp", "ReadVariableOp", "VarIsInitializedOp",
                 "Identity_Variable"},
    "convolution": {"Conv2D", "Conv3D", "DepthwiseConv2dNative", "Conv2DBackpropInput",
                    "FusedPadConv2D", "FusedResizeAndPadConv2D", "QuantizedConv2D", "Dilation2D",
                    "_FusedConv2D"},
    "matmul": {"MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "QuantizedMatMul",
               "_FusedMatMul", "Einsum"},
    "normalization": {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3",
                      "BatchNormWithGlobalNormalization", "LRN", "L2Loss"},
    "activation": {"Relu", "Relu6", "Elu", "Selu", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
                   "Softplus", "LeakyRelu", "QuantizedRelu", "QuantizedRelu6", "Gelu"},
    "pooling": {"MaxPool", "AvgPool", "MaxPoolV2", "AvgPool3D", "MaxPool3D", "QuantizedMaxPool",
                "QuantizedAvgPool", "Mean"},
    "math": {"Add", "AddV2", "AddN", "Sub", "Mul", "RealDiv", "Div", "BiasAdd", "Maximum",
             "Minimum", "Rsqrt", "Sqrt", "Square", "SquaredDifference", "Exp", "Log", "Neg",
             "Pow", "Abs", "Sum", "Prod", "Max", "Min", "ArgMax", "ArgMin", "Reciprocal",
             "FloorDiv", "FloorMod", "QuantizedAdd", "QuantizedMul", "QuantizedBiasAdd"},
    "shape": {"Reshape", "Squeeze", "ExpandDims", "Transpose", "Concat", "ConcatV2", "Pack",
              "Unpack", "Split", "SplitV", "Slice", "StridedSlice", "Pad", "PadV2", "MirrorPad",
              "Shape", "Tile", "Gather", "GatherV2", "Fill", "Cast", "Identity", "ResizeBilinear",
              "ResizeNearestNeighbor", "ResizeBicubic", "SpaceToBatchND", "BatchToSpaceND",
              "QuantizedReshape", "QuantizedConcat", "QuantizedResizeBilinear", "Range", "Size",
              "Rank", "ZerosLike", "OnesLike", "StopGradient"},
    "control": {"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond", "While",
                "StatelessWhile", "If", "StatelessIf", "NoOp", "PartitionedCall",
                "StatefulPartitionedCall", "_Retval", "Assert", "CheckNumerics", "Print",
                "PrintV2"},
    "quantization": {"QuantizeV2", "Dequantize", "Requantize", "RequantizationRange",
                     "FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxArgs", "QuantizeAndDequantizeV2"},
    "io": {"DecodeJpeg", "DecodePng", "DecodeImage", "DecodeBmp", "DecodeGif", "DecodeRaw",
           "DecodeAndCropJpeg", "ReadFile", "WriteFile", "SaveV2", "RestoreV2", "Save", "Restore",
           "MergeV2Checkpoints", "ShardedFilename", "StringJoin", "ScalarSummary",
           "HistogramSummary", "ImageSummary", "MergeSummary", "TensorSummaryV2", "ParseExample",
           "ParseExampleV2", "ParseSingleExample", "MatchingFiles"},
}
_OP_TO_CATEGORY = {op: cat for cat, ops in CATEGORIES.items() for op in ops}

# Colours per category (fill), chosen to read well with black text on light and dark themes.
COLOURS = {
    "input": "#f6c85f", "constant": "#d9d9d9", "variable": "#c5b0d5", "convolution": "#6fa8dc",
    "matmul": "#8fbbe6", "normalization": "#93c47d", "activation": "#f4a582",
    "pooling": "#76d7c4", "math": "#ffe599", "shape": "#e8d5b5", "control": "#a3b8c8",
    "quantization": "#e69138", "io": "#e06666", "training": "#b3b3b3", "other": "#f7f7f7",
}


# TFLite builtin operators (upper-case names) by the words in them, first match wins
_TFLITE_WORDS = (("QUANTIZE", "quantization"), ("CONV", "convolution"),
                 ("FULLY_CONNECTED", "matmul"), ("MATMUL", "matmul"), ("POOL", "pooling"),
                 ("MEAN", "pooling"), ("NORMALIZATION", "normalization"),
                 ("RELU", "activation"), ("LOGISTIC", "activation"), ("TANH", "activation"),
                 ("SOFTMAX", "activation"), ("HARD_SWISH", "activation"), ("GELU", "activation"),
                 ("PRELU", "activation"), ("ELU", "activation"), ("WHILE", "control"),
                 ("IF", "control"), ("CALL", "control"))
_TFLITE_SHAPE = ("RESHAPE", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "CONCATENATION", "PACK",
                 "UNPACK", "SPLIT", "SLICE", "STRIDED_SLICE", "PAD", "PADV2", "MIRROR_PAD",
                 "SHAPE", "TILE", "GATHER", "GATHER_ND", "FILL", "CAST", "RESIZE_BILINEAR",
                 "RESIZE_NEAREST_NEIGHBOR", "SPACE_TO_DEPTH", "DEPTH_TO_SPACE",
                 "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "BROADCAST_TO")


def _tflite_category(op: str) -> str:
    if op in _TFLITE_SHAPE:
        return "shape"
    if op.startswith("Flex"):
        return "other"
    for word, cat in _TFLITE_WORDS:
        if word in op.split("_") or (len(word) >= 4 and word in op):
            return cat
    return "math"


def category(op: str) -> str:
    """Category of an op type (TF ops, and TFLite's upper-case builtins); unknown ops fall
    into 'other'."""
    cat = _OP_TO_CATEGORY.get(op)
    if cat:
        return cat
    if op.isupper():
        return _tflite_category(op)
    if op.startswith("Quantized"):
        return "quantization"
    if op.startswith(("Apply", "ResourceApply", "Assign")) or op.endswith("Grad"):
        return "training"
    return "other"


SUMMARY_OPS = {"ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummary",
               "MergeSummary", "TensorSummary", "TensorSummaryV2", "WriteSummary",
               "WriteScalarSummary", "WriteHistogramSummary", "FlushSummaryWriter"}
SAVER_OPS = {"SaveV2", "RestoreV2", "Save", "Restore", "SaveSlices", "RestoreSlice",
             "MergeV2Checkpoints", "ShardedFilename", "ShardedFilespec"}
QUEUE_OPS = {"FIFOQueueV2", "RandomShuffleQueueV2", "QueueEnqueueV2", "QueueEnqueueManyV2",
             "QueueDequeueV2", "QueueDequeueManyV2", "QueueCloseV2", "QueueSizeV2",
             "ReaderReadV2", "WholeFileReaderV2", "TFRecordReaderV2", "IteratorGetNext",
             "IteratorV2", "MakeIterator"}
INIT_OPS = {"Assign", "AssignVariableOp", "VarIsInitializedOp", "IsVariableInitialized",
            "AssignAdd", "AssignSub", "AssignAddVariableOp", "AssignSubVariableOp"}
FILE_OR_NETWORK_OPS = SAVER_OPS | {"ReadFile", "WriteFile", "MatchingFiles", "WholeFileReaderV2",
                                   "TFRecordReaderV2", "FixedLengthRecordReaderV2",
                                   "TextLineReaderV2", "ImmutableConst", "WriteSummary",
                                   "CreateSummaryFileWriter", "TFRecordDataset",
                                   "TFRecordDatasetV2", "FixedLengthRecordDatasetV2",
                                   "TextLineDatasetV2", "SummaryWriter"}


# scopes TF1 optimizers and schedules create (`w/Adam/read`, `PiecewiseConstant/case/...`)
_SLOT_SCOPES = {"adam", "adam_1", "momentum", "rmsprop", "rmsprop_1", "adagrad", "adadelta",
                "adadelta_1", "ftrl", "ftrl_1", "exponentialmovingaverage"}
_SCHEDULE_SCOPES = {"piecewiseconstant", "exponentialdecay", "polynomialdecay",
                    "cosinedecay", "inversetimedecay", "naturalexpdecay"}


def main_category(ops: dict) -> str:
    """The category most of these ops ({op: count}) fall in, leaving constants, shape ops and
    control flow aside ("other" when nothing else is left): a scope's colour."""
    cats: dict = {}
    for op, n in ops.items():
        cat = category(op)
        if cat not in ("constant", "shape", "control"):
            cats[cat] = cats.get(cat, 0) + n
    return max(cats, key=cats.__getitem__) if cats else "other"


def training_role(name: str, op: str) -> str | None:
    """Why a node exists only for training (gradients, optimizer, ...), or None."""
    if op in SUMMARY_OPS:
        return "summary"
    if op in SAVER_OPS or name.startswith("save/") or "/save/" in name:
        return "saver"
    if op in QUEUE_OPS:
        return "input queue"
    if op.startswith(("Apply", "ResourceApply", "SparseApply", "ResourceSparseApply")):
        return "optimizer"
    if name.startswith("gradients/") or "/gradients/" in name or op.endswith("Grad"):
        return "gradients"
    parts = name.lower().split("/")
    if any("loss" in part or "xentropy" in part for part in parts[:-1]) or \
            parts[-1] in ("total_loss", "loss"):
        return "loss"
    if any(p in _SLOT_SCOPES for p in parts[:-1]):
        return "optimizer slot"
    if parts[0] in _SCHEDULE_SCOPES or parts[0].startswith(("global_step", "learning_rate")):
        return "learning-rate schedule"
    if op in INIT_OPS or name == "init" or name.endswith("/Initializer") or "/Assign" in name:
        return "initializer"
    return None
