"""Every piece of TensorFlow work, as one typed class: a method per operation, with its
signature and what it returns. The in-process executor (core.tf.executor.InProcess) implements
each with a function of the TF layer; the worker client's methods are derived from this class
(each call one request); the worker's server accepts exactly these names. Adding an operation:
its function in core/tf, its method here; nothing else."""

from __future__ import annotations

from inspector.core.runtime.job import Job


class TensorFlowOperations:
    """Arguments are GraphDef messages, names, dicts and numpy arrays; a `job` argument
    (runtime.job.Job) carries cancel and progress, also across the process boundary."""

    def available(self):
        """bool: TensorFlow can be imported"""

    def tf_version(self):
        """str: the version of the TensorFlow that runs the work"""

    def freeze_saved_model(self, directory: str, tags: list, signature: str):
        """(GraphDef, inputs, outputs, note on how) of one signature, frozen"""

    def freeze_keras(self, path: str):
        """(GraphDef, inputs, outputs, note on how) of a Keras file, frozen"""

    def freeze_metagraph(self, meta_bytes: bytes, checkpoint: str, outputs: list,
                         path: str):
        """GraphDef of a .meta restored from a checkpoint and frozen"""

    def stateful_ops(self, ops):
        """set of the given op types TF registers as stateful (or does not know)"""

    def default_attrs(self, ops):
        """{op: {attr: serialized default AttrValue}}"""

    def evaluate_tensors(self, graph_def, tensor_names: list):
        """values of tensors of a pure, constant graph"""

    def run_native_transform(self, graph_def, inputs: list, outputs: list, transforms: str):
        """GraphDef after TF's own graph transform engine"""

    def optimize_for_inference(self, graph_def, inputs: list, outputs: list,
                               toco_compatible: bool):
        """GraphDef after TF's optimize_for_inference"""

    def infer_shapes(self, graph_def, input_shapes: dict | None = None):
        """{node: [output shape, ...]} from TF's shape inference"""

    def profiler_float_ops(self, graph_def, input_shapes: dict | None = None):
        """int: tf.compat.v1.profiler's float operations"""

    def output_types(self, graph_def):
        """{node: [output dtype enum, ...]}"""

    def op_doc(self, op: str):
        """str or None: the first paragraph of TF's tf.raw_ops docstring of an op"""

    def io_types(self, graph_def):
        """{node: ([input dtype enums], [output dtype enums])}"""

    def run_graph(self, graph_def, feeds: dict, fetches: list,
                  input_shapes: dict | None = None, allow_unsafe: bool = False):
        """list of fetched arrays after one run"""

    def run_cached(self, graph_def, feeds: dict, fetches: list, allow_unsafe: bool = False):
        """run_graph, the session kept for the next run on the same GraphDef object"""

    def forget_sessions(self):
        """None: close the session run_cached kept, drop kept shape answers"""

    def run_many(self, graph_def, feeds_list: list, fetches: list,
                 input_shapes: dict | None = None, allow_unsafe: bool = False,
                 job: Job | None = None):
        """one list of fetched arrays per feed dict, all in one session"""

    def profile_runs(self, graph_def, feeds: dict, fetches: list, warmup: int, runs: int,
                     intra: int, inter: int, input_shapes=None, job: Job | None = None,
                     allow_unsafe: bool = False):
        """(untraced µs, traced µs, serialized StepStats) of profiled runs"""

    def convert_tflite(self, graph_def, inputs: list, outputs: list, variant: str = "float",
                       select_tf_ops: bool = False, allow_custom_ops: bool = False,
                       representative: list | None = None, input_shapes: dict | None = None,
                       allow_unsafe: bool = False):
        """{model: .tflite bytes or None, errors: [{code, message, op, nodes}]}"""

    def tflite_details(self, model: bytes):
        """{inputs, outputs: [{name, dtype, shape, scale, zero_point}], ops, engine}"""

    def tflite_run(self, model: bytes, feeds_list: list, job: Job | None = None):
        """(one list of float output arrays per input list, interpreter name)"""

    def tflite_analyze(self, model: bytes):
        """str: TF's TFLite model analyzer report with GPU compatibility"""

    def xnnpack_delegation(self, model: bytes):
        """{engine, ops: [{index, op, inputs, outputs}], delegates: [{inputs, outputs}]}:
        the delegate nodes LiteRT's default XNNPACK delegate made"""

    def vela_compile(self, model: bytes, accelerator: str = "ethos-u55-128",
                     job: Job | None = None):
        """{version, returncode, stdout, per_layer, summary (CSV texts), output (bytes)}
        of a Vela compile for an Ethos-U configuration"""

    def tflite_layers(self, model: bytes):
        """{ops: [{index, op, inputs, outputs}], tensors: [{index, name, dtype, shape, scales,
        zero_points, axis}]} of a .tflite
        """

    def quantization_debug(self, graph_def, inputs: list, outputs: list,
                           representative: list, input_shapes: dict | None = None,
                           allow_unsafe: bool = False):
        """{tflite tensor name: {max_abs_error, mean_squared_error, ...}} from TFs
        QuantizationDebugger on a full-int8 conversion
        """

    def tflite_tensors(self, model: bytes, feeds_list: list, names: list | None = None,
                       job: Job | None = None):
        """({tensor name: [float32 array per input list]}, interpreter name): every (or the
        named) tensor of a .tflite after each run, quantized ones dequantized (LiteRT)
        """

    def tflite_prepare(self, model: bytes):
        """{default, builtin: "" or why LiteRT cannot prepare the model}: with XNNPACK, and
        with its builtin kernels alone"""

    def compare_runs(self, side_a: dict, side_b: dict, job: Job | None = None):
        """([metrics dict, or why not compared, per pair], (engine A, engine B)): a numeric
        comparison's two runs (a GraphDef in TensorFlow, a .tflite in LiteRT) and their
        matched tensors compared where they ran (only the figures travel back)
        """

    def tflite_host_ms(self, model: bytes, feeds: list, runs: int = 10):
        """(median ms of one invoke on this machine, interpreter name) (LiteRT)"""

    def tflite_quantize(self, model: bytes, recipe: list, calibration: list | None = None,
                        job: Job | None = None):
        """.tflite bytes: ai-edge-quantizer's recipe (its JSON list) on a float .tflite,
        calibrated on the input lists when the recipe quantizes activations
        """

    def flex_allowlist(self):
        """sorted list of the TF ops this build's Select-TF-ops delegate runs"""

    def kernel_classes(self, node_defs: list):
        """[(op, kernel class or None)] of NodeDefs from TF's kernel registry"""

    def parse_text(self, data: bytes, message: str, path: str):
        """binary serialization of a text GraphDef/MetaGraphDef/SavedModel (not TF, but slow pure
        Python: the app runs it in its worker, off the window's way)
        """


NAMES: tuple = tuple(name for name, value in vars(TensorFlowOperations).items()
                     if callable(value) and not name.startswith("_"))


def describe(name: str) -> str:
    """What an operation returns, from its docstring."""
    return (getattr(TensorFlowOperations, name).__doc__ or "").strip()
