"""The one result shape of converting and measuring a graph as .tflite files: a report of
rows, one row class. The conversion preview (Phone > Convert: TF's converter's float,
dynamic, float16 and int8) and the quantization recipes (ai-edge-quantizer's) both give it;
each row names the tool that made its file, and the error figures are the same measures
(the answers against the TF graph: MSE, SNR, cosine, max |err|, top-1) wherever shown."""

from __future__ import annotations

from dataclasses import dataclass, field

# What the error figures are, said beside them wherever they are shown.
ERROR_MEASURE = "error of the answers against the TF graph"


@dataclass
class Row:
    """One file made and measured (a recipe, or a conversion variant: the same thing)."""
    recipe: str
    label: str = ""
    tool: str = ""                 # "ai-edge-quantizer", "TF's converter" (+ " (fallback)")
    keep_float: str = ""
    model: bytes | None = None
    size: int = 0
    gzip_size: int = 0
    ops: dict = field(default_factory=dict)           # op name -> count
    flex_ops: list = field(default_factory=list)      # TF ops run through Select TF ops
    custom_ops: list = field(default_factory=list)
    gpu_warnings: list = field(default_factory=list)
    inputs: list = field(default_factory=list)        # [{name, dtype, shape, scale, zero_point}]
    outputs: list = field(default_factory=list)
    latency_ms: dict = field(default_factory=dict)    # device -> estimated ms
    host_ms: float | None = None                      # one LiteRT run on this machine
    output: dict = field(default_factory=dict)        # {mse, snr_db, cosine, max_abs, nsr}
    output_builtin: dict = field(default_factory=dict)  # the same, builtin kernels only
    top1: float | None = None                         # share of inputs with the same top-1
    compared: int = 0
    tensors: list = field(default_factory=list)       # quant_metrics.TensorError, worst first
    errors: list = field(default_factory=list)        # [{message, code, op, nodes}]
    failed: str = ""               # why the recipe as asked failed (the row: its fallback)
    notes: list = field(default_factory=list)
    same_as: str = ""              # the recipe whose file is byte-identical to this one's
    mapping: object = None         # tflite_mapping.Mapping onto the graph
    measured_ms: float | None = None                  # from a benchmark_model log
    measured_source: str = ""

    @property
    def variant(self) -> str:
        return self.recipe

    @property
    def note(self) -> str:
        return "; ".join(self.notes)

    @property
    def error(self) -> float | None:
        """The chart's error: mean squared error of the answers against the TF graph."""
        return self.output.get("mse")

    @property
    def max_abs_error(self) -> float | None:
        return self.output.get("max_abs")

    @property
    def op_count(self) -> int:
        return sum(self.ops.values())


@dataclass
class Measured:
    """The rows, how many representative samples and where they came from, warnings, the
    interpreter that ran the files and the kernels behind each figure."""
    results: list
    samples: int = 0
    sample_source: str = ""
    warnings: list = field(default_factory=list)
    engine: str = ""
    keep_float: str = ""
    tensor_samples: int = 0
    kernels: dict = field(default_factory=dict)   # figure -> the kernels that ran for it

    @property
    def variants(self) -> list:
        return self.results

    def result(self, recipe: str) -> Row | None:
        return next((r for r in self.results if r.recipe == recipe), None)
