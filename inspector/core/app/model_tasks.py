"""Work on the opened model that runs where its preview engine lives (the worker, in the app):
ModelTasks is mixed into PreviewEngine, each method works on the engine's graph, and the
window sends only names, settings and small arrays, never the graph. Its public methods are
operations of the engine, so the window's RemotePreview offers them too (preview.py)."""

from __future__ import annotations

from dataclasses import replace

from inspector.core.analysis.metrics import infer_shapes as inferred, infer_shapes, open_shapes
from inspector.core.loaders.tfjs_ops import for_converter
from inspector.core.model.graph import Graph
from inspector.core.model.inputs import node_name_from_input
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.runtime.lazy_import import later
from inspector.core.transforms import last_graph
from inspector.core.transforms.syntax import quote

# read on first use (numpy with it): Profile's rule for declared sizes, held by the other runs
profiling = later("inspector.core.overlays.profiling", globals(), "profiling")


def graph_for_run(graph_def, ins: list, outs: list, shapes: dict):
    """The stripped subgraph between the inputs and outputs, so fed inputs cut it (the
    pipeline's strip_unused_nodes step, by its quick path: last_graph)."""
    if not ins:
        return graph_def
    # the step's name is the input's node (a tensor's name, "x:0", is cut at its node, but
    # TF's strip gives its type and shape only to a name equal to the node's)
    spec = " ".join(f'strip_unused_nodes(name={quote(node)}, type_for_name=float, '
                    'shape_for_name="' + ",".join(str(d) for d in shapes.get(node, ())) + '")'
                    for node in map(node_name_from_input, ins[:1]))
    return last_graph(graph_def, spec, ins, outs)


class ModelTasks:
    """Tasks on the engine's model (`self.graph_def`; `self.graph_for(key)`: a previewed
    step's graph)."""

    def infer_shapes(self, key: bytes | None = None):
        """TF's shapes of every node's outputs (of the original graph, or of the previewed
        row `key`'s), or None without TensorFlow."""
        if not tensorflow().available():
            return None
        return tensorflow().infer_shapes(self.graph_for(key))

    def card_shapes(self, input_shapes: dict | None = None, outputs=()):
        """(shapes, what was assumed, why none, open) for the model card: TF's shape inference
        with open input sizes defaulted (analysis.metrics.infer_shapes); `open`: the named
        outputs' shapes with those sizes left open, when sizes other than the batch were
        assumed ({} otherwise: the counted shapes are the graph's own)."""
        shapes, assumed, failure = infer_shapes(self.graph_def, input_shapes)
        if failure or all(a.startswith("batch ") for a in assumed):
            return shapes, assumed, failure, {}
        return shapes, assumed, failure, open_shapes(self.graph_def, input_shapes, outputs)

    def profile(self, ins, outs, shapes, mode, arrays, warmup, runs, intra, inter,
                allow_io=False, job: Job = NO_JOB):
        """Timings of the graph between the inputs and outputs (overlays.profiling)."""
        from inspector.core.overlays.profiling import run_profile

        gd = graph_for_run(self.graph_def, ins, outs, shapes)
        return run_profile(gd, ins, outs, shapes, mode, 0, arrays, warmup=warmup, runs=runs,
                           intra=intra, inter=inter, allow_io=allow_io, job=job,
                           original=self.graph_def)

    def calibrate(self, ins, outs, shape, shapes, data, min_percentile, max_percentile,
                  allow_io=False, job: Job = NO_JOB):
        """Log the ranges, freeze them, compare float and eight-bit outputs: (calibration
        without its quantized graph, comparisons)."""
        from inspector.core.overlays.calibration import calibrate as log_ranges
        from inspector.core.overlays.calibration import compare_on_samples
        from inspector.core.transforms.freeze_requantization_ranges import (
            freeze_with_ranges,
        )

        refuse_sizes_tf_refuses(self.graph_def, ins)
        result = log_ranges(self.graph_def, ins, outs, shape, data, job=job, allow_io=allow_io)
        job.progress(0, 0, "freezing the ranges")
        frozen = freeze_with_ranges(result.quantized, result.ranges(min_percentile,
                                                                    max_percentile))
        # on every calibration input, as `calibrate` compares (the first 8 only said "(12
        # inputs, ...)" then "on all 8 inputs" beside the command line's 12: walk17)
        compared = compare_on_samples(self.graph_def, frozen, ins, outs, result.inputs,
                                      shapes, allow_io=allow_io, job=job.part("comparing: {}"))
        return replace(result, quantized=None), compared

    def demo_run(self, *args, on_key: bytes | None = None, **kwargs):
        """One demo run on the model, or on the graph of the previewed step `on_key` (see
        overlays.demo_run.run_demo)."""
        from inspector.core.demo.demo_run import run_demo

        return run_demo(self.graph_for(on_key), *args, **kwargs)

    def _total_flops(self, shapes=None):
        """Total FLOPs from TF's shape inference, or None when shapes cannot be inferred."""
        from inspector.core.analysis.flops import count_flops

        found, _, failure = inferred(self.graph_def, shapes)
        if failure:
            return None
        return count_flops(Graph(self.graph_def), found).total or None

    def tflite_preview(self, ins, outs, shapes=None, variants=None, source=None,
                       compare_count=16, allow_io=False, job: Job = NO_JOB):
        """The conversion preview (overlays.tflite_preview) with FLOPs for the estimates."""
        from inspector.core.mobile.recipes import preview

        variants = variants or ("float", "dynamic", "float16", "int8")
        refuse_sizes_tf_refuses(self.graph_def, ins)
        return preview(self.graph_def, ins, outs, shapes, variants, source, compare_count,
                       self._total_flops(shapes), allow_io, job)

    def tflite_recipes(self, ins, outs, shapes=None, recipes=None, keep_float="",
                       source=None, compare_count=16, allow_io=False, job: Job = NO_JOB):
        """Quantization recipes built and measured (mobile.recipes.run_recipes)."""
        from inspector.core.mobile.recipes import DEFAULT, run_recipes

        refuse_sizes_tf_refuses(self.graph_def, ins)
        return run_recipes(self.graph_def, ins, outs, shapes, recipes or DEFAULT, keep_float,
                           source, compare_count, flops=self._total_flops(shapes),
                           allow_io=allow_io, job=job)

    def tflite_confirm(self, ins, outs, shapes=None, allow_io=False, job: Job = NO_JOB):
        """Converter errors of a builtins-only conversion, then (if it failed) of one with
        Select TF ops and custom ops allowed: (builtin errors, flex errors)."""
        refuse_sizes_tf_refuses(self.graph_def, ins)
        t = tensorflow()
        graph_def = for_converter(self.graph_def)
        job.progress(0, 2, "converting with TFLite builtins only")
        first = t.convert_tflite(graph_def, ins, outs, "float", input_shapes=shapes,
                                 allow_unsafe=allow_io)["errors"]
        if not first:
            return [], []
        job.check()
        job.progress(1, 2, "converting with Select TF ops")
        second = t.convert_tflite(graph_def, ins, outs, "float", select_tf_ops=True,
                                  allow_custom_ops=True, input_shapes=shapes,
                                  allow_unsafe=allow_io)["errors"]
        return first, second

    def ops_header(self, source: str = "", job: Job = NO_JOB):
        """ops_to_register.h for the graph: (text, ops, kernel classes, ops with no kernel)."""
        from inspector.core.mobile.ops_header import (
            all_node_defs,
            header_text,
            needed_ops,
        )

        t = tensorflow()
        nodes = all_node_defs(self.graph_def)
        pairs, missing = needed_ops(nodes, t.kernel_classes(nodes))
        text = header_text(pairs, t.tf_version(), source, missing)
        return text, sorted({op for op, _ in pairs}), sorted({k for _, k in pairs if k}), missing


def refuse_sizes_tf_refuses(graph_def, inputs) -> None:
    """The marked inputs' declared shapes held to TensorFlow's rule first, in Profile's words
    (b691296): a size below -1 ([-5,3]) was refused by Calibrate and the conversion in
    TensorFlow's own words ('... for '{{node x}} = Placeholder[...]' with input shapes: .'),
    and Check outputs ran it as [?,3] (note15)."""
    if inputs:
        profiling.refuse_sizes_below_minus_one(profiling.input_node_defs(graph_def,
                                                                         list(inputs)))
