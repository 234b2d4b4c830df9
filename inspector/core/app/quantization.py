"""Choosing a quantization with evidence (use cases of the window): run recipes in the worker
(where TensorFlow, LiteRT and ai-edge-quantizer live), keep what was tried for the size-versus-
error chart, show one recipe's per-layer error as the "quant_error" overlay, keep a layer float
and rerun, apply a tried recipe (the one the Quantization tab saves and reruns), and the
data-free sensitivity of the weights. Results live in `state.quant` (QuantRun)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from inspector.core.app.inputs import input_shapes_and_types
from inspector.core.app.ports import ports_or_say
from inspector.core.errors import InspectorError
from inspector.core.mobile.quant_metrics import node_errors, plain
from inspector.core.mobile.recipe_notes import same_files
from inspector.core.mobile.recipes import (
    DEFAULT,
    PREVIEW,
    RecipeReport,
    check_names,
    figures,
    pareto,
)
from inspector.core.model import attrs as attr_codec


@dataclass(frozen=True)
class Tried:
    """One recipe tried: a point of the Pareto chart."""
    recipe: str
    keep_float: str
    size: int
    error: float                   # MSE of the answers against the TF graph
    snr_db: float

    @property
    def label(self) -> str:
        kept = self.keep_float.count("|") + 1 if self.keep_float else 0
        return self.recipe + (f" +{kept} float" if kept else "")


@dataclass
class QuantRun:
    report: object                     # mobile.recipes.RecipeReport (rows of every run)
    chosen: tuple = ("", "")           # (recipe, keep_float) the overlay shows
    applied: tuple = ("", "")          # (recipe, keep_float) applied to the pipeline
    tried: tuple = ()                  # Tried, in the order they were run
    sensitivity: list = field(default_factory=list)   # mobile.sensitivity.LayerSensitivity

    def row(self, key: tuple | None = None):
        key = key or self.chosen
        return next((r for r in self.report.results if (r.recipe, r.keep_float) == key), None)

    def node_errors(self) -> dict:
        row = self.row()
        return node_errors(row.tensors) if row is not None else {}

    def pareto(self) -> list:
        """The tried points no other point beats on both size and error."""
        return [p for p in self.tried
                if not any(o.size <= p.size and o.error <= p.error and
                           (o.size < p.size or o.error < p.error) for o in self.tried)]


def keep_float_regex(tensor: str, current: str = "") -> str:
    """`current` widened by one TFLite tensor, matched whole: ai-edge-quantizer searches the
    regex in each op's scope, its output tensor names joined by ';' with a trailing ';'."""
    one = "^" + re.escape(tensor) + ";"
    parts = [p for p in current.split("|") if p] if current else []
    return "|".join(dict.fromkeys(parts + [one]))


def _merge(old: QuantRun | None, report) -> QuantRun:
    """A new run's rows added to what was tried before (a rerun of a key replaces it)."""
    if old is None:
        merged = report
    else:
        keys = {(r.recipe, r.keep_float) for r in report.results}
        merged = replace(report, results=[r for r in old.report.results
                                          if (r.recipe, r.keep_float) not in keys] +
                         list(report.results))
    tried = [t for t in (old.tried if old else ())
             if (t.recipe, t.keep_float) not in {(r.recipe, r.keep_float)
                                                 for r in report.results}]
    same_files(merged.results)          # a file another recipe made too: no point of its own
    tried += [Tried(r.recipe, r.keep_float, r.size, r.error, plain(r.output.get("snr_db"))
                    or 0.0) for r in report.results if r.model is not None and
              r.error is not None and not r.same_as]
    done = [r for r in report.results if r.model is not None]
    worst = max(done, key=lambda r: r.error or 0.0, default=None)
    chosen = (worst.recipe, worst.keep_float) if worst is not None else ("", "")
    if len(report.results) == 1 and done:
        chosen = (done[0].recipe, done[0].keep_float)
    return QuantRun(merged, chosen, old.applied if old else ("", ""), tuple(tried),
                    old.sensitivity if old else [])


def preview_variants(names: list) -> list:
    """The conversion preview's variants named (float, dynamic, float16, int8): an unknown
    one is an InspectorError listing the choices."""
    for name in names:
        if name not in PREVIEW:
            raise InspectorError(f"unknown variant '{name}' (choose from {', '.join(PREVIEW)})")
    return list(names)


def recipe_names(text: str, keep_float: str = "") -> list:
    """The recipes asked for ("all": the default set), each checked against the registry."""
    names = list(DEFAULT) if text == "all" else check_names(text.split(","), keep_float)
    return check_names(names, keep_float)


def run_recipes(engine, ins, outs, shapes, recipes, keep_float: str, source: dict,
                compare: int, allow_io: bool = False, job=None):
    """The recipe run of `tflite --recipe` and the Quantization tab: each recipe's file,
    size, speed and error, made where the model's engine runs (the worker, or the CLI)."""
    kw = {} if job is None else {"job": job}
    return engine.tflite_recipes(ins, outs, shapes, list(recipes), keep_float, source,
                                 compare, allow_io=allow_io, **kw)


def recipe_figures(report) -> tuple:
    """(figures of each row, the Pareto-best rows) of a recipe run, as the CLI prints them."""
    return [figures(row) for row in report.results], pareto(report.results)


def start_recipes(state, tasks, recipes, keep_float: str, source: dict, compare: int,
                  on_error, allow_io: bool = False) -> bool:
    """Run the recipes in the engine's process; the result merges into `state.quant`."""
    engine = state.engine
    if engine is None or state.model is None:
        state.say("Open a model first")
        return False
    ports = ports_or_say(state)
    if ports is None:
        return False
    ins, outs = ports
    shapes, _ = input_shapes_and_types(state, ins)
    model = state.model

    def work(task):
        return run_recipes(engine, ins, outs, shapes, recipes, keep_float, source, compare,
                           allow_io, task)

    def done(report):
        if state.model is not model:
            return
        state.set_quant(_merge(state.quant, report))
        state.say(f"Measured {len(report.results)} quantization recipe(s) with "
                  f"{report.engine or 'no interpreter'}")

    tasks.submit("quant_recipes", work, done, on_error, label="Quantizing (recipes)")
    return True


def keep_layer_float(state, tasks, tensor: str, source: dict, compare: int,
                     on_error) -> str | None:
    """Rerun the chosen recipe with one more TFLite tensor's layer kept float; returns the
    new regex."""
    run = state.quant
    if run is None or not run.chosen[0]:
        return None
    recipe, current = run.chosen
    regex = keep_float_regex(tensor, current)
    start_recipes(state, tasks, [recipe], regex, source, compare, on_error)
    return regex


def choose(state, key: tuple) -> None:
    """Show another tried recipe's per-layer error."""
    if state.quant is not None and state.quant.row(key) is not None:
        state.set_quant(replace(state.quant, chosen=key))


def apply(state, key: tuple) -> None:
    """Apply a tried recipe to the pipeline: it becomes the one shown, saved and rerun."""
    if state.quant is not None and state.quant.row(key) is not None:
        state.set_quant(replace(state.quant, chosen=key, applied=key))
        state.say(f"Applied recipe {key[0]}" + (f" (float: {key[1]})" if key[1] else ""))


def for_tflite_graph(run: QuantRun, graph, key: tuple | None = None) -> QuantRun:
    """The run's recipe `key` (default: the chosen one) for a window showing that recipe's
    .tflite: each tensor's error placed on the node the .tflite reader made for the op that
    writes it (its `tflite_tensor` attribute), so the same overlay colours both graphs."""
    row = run.row(key)
    if row is None:
        return QuantRun(RecipeReport([]))
    by_tensor = {}
    names = graph.name_list       # the NodeDefs and the name column: no Node view
    for i, proto in enumerate(graph.structure.node):
        attr = proto.attr
        tensor = attr_codec.decode(attr["tflite_tensor"]) if "tflite_tensor" in attr else None
        if tensor:
            by_tensor.setdefault(tensor.decode() if isinstance(tensor, bytes) else tensor,
                                 names[i])
    tensors = [replace(e, nodes=[by_tensor[e.tensor]]) for e in row.tensors
               if e.tensor in by_tensor]
    key = (row.recipe, row.keep_float)
    return QuantRun(replace(run.report, results=[replace(row, tensors=tensors)]), key, key,
                    tuple(t for t in run.tried if (t.recipe, t.keep_float) == key))


def start_sensitivity(state, tasks, on_error) -> None:
    """Weight kurtosis, range and outlier share per layer (pure numpy, off the GUI thread)."""
    from inspector.core.mobile.sensitivity import layer_sensitivity

    model = state.model
    if model is None:
        return
    graph = model.graph

    def done(found):
        if state.model is model:
            run = state.quant or QuantRun(RecipeReport([]))
            state.set_quant(replace(run, sensitivity=found))

    tasks.submit("quant_sensitivity", lambda task: layer_sensitivity(graph, job=task), done,
                 on_error, label="Weight statistics")
