"""Live preview of a pipeline: per-step graphs, change reports and metrics, computed step by
step (cheap numbers first, then gzip sizes, then FLOPs) with cached prefixes so an edit redoes
little. Rows are immutable: each update hands out new rows, never changes one it gave away.

Rows carry numbers and change lists, never graphs (nor FLOPs per node): a step's graph stays with the engine and is
asked for by key (`graph`, `check`, `save`). In the app the engine lives in the worker process
(`open_engine` asks the installed executor for one), so the window holds no step graphs and
spends no time on them; the command line and tests use a PreviewEngine in-process."""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, replace

from inspector.core.analysis.metrics import (
    Metrics,
    compute_metrics,
    flop_report,
    gzip_size,
    latencies,
)
from inspector.core.app.model_tasks import ModelTasks, refuse_sizes_tf_refuses
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.formats.writer import write_graph
from inspector.core.model import protos
from inspector.core.runtime.executor import installed
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.transforms.pipeline import StepReport, run_step
from inspector.core.transforms.syntax import format_transforms

KEEP_OTHER_PREFIXES = 8   # results of pipelines edited away from, kept for undo and toggling
EMIT_EVERY = 0.15         # seconds between partial results (a long pipeline must not flood)


@dataclass(frozen=True)
class PreviewRow:
    label: str
    metrics: Metrics
    report: StepReport | None = None   # without its graph (ask the engine for it by key)
    error: str = ""
    key: bytes = b""          # digest of the pipeline prefix that made this graph


def open_engine(model):
    """The preview engine for a model: in the worker when the installed executor has one (it
    opens the model itself from `model.ref`), else here."""
    opener = getattr(installed(), "open_preview", None)
    if opener is not None and getattr(model, "ref", None) is not None:
        return opener(model.ref)
    return PreviewEngine(model.graph.graph_def)


def shapes_key(input_shapes) -> tuple:
    return tuple(sorted((k, tuple(v)) for k, v in (input_shapes or {}).items()))


class PreviewEngine(ModelTasks):
    """Keeps the results of pipeline prefixes, keyed by a digest of the inputs, outputs and
    steps so far (never by object ids, which Python reuses); `run` recomputes only what
    changed and forgets prefixes nobody uses any more."""

    def __init__(self, graph_def):
        self.graph_def = graph_def
        self._bases: dict = {}                     # key of an "original" row -> True
        self._steps: OrderedDict = OrderedDict()   # prefix key -> (report, light, metrics)
        self._sizes: dict = {}                     # prefix key -> metrics with gzip size
        self._flops: dict = {}                     # (prefix key, shapes key) -> metrics
        self._original = None                      # cheap metrics of the original graph

    def run(self, steps, inputs, outputs, input_shapes=None, with_flops=True,
            job: Job = NO_JOB) -> list:
        """The preview rows; the rows so far go to job.partial as they come."""
        check = job.check
        last = [0.0]

        def emit(rows, final=False):
            now = time.monotonic()
            if job.reports and (final or now - last[0] >= EMIT_EVERY):
                last[0] = now
                job.partial(list(rows))

        import hashlib  # (here: OpenSSL's start costs the app's first picture ~10 ms)

        digest = hashlib.sha1(repr((tuple(inputs), tuple(outputs))).encode())
        base_key = digest.digest()
        self._bases[base_key] = True
        if len(self._bases) > 4 * KEEP_OTHER_PREFIXES:
            self._bases.pop(next(iter(self._bases)))
        rows = [PreviewRow("original", self._original_metrics(), key=base_key)]
        emit(rows, True)
        current = self.graph_def
        for spec in (s for s in steps if s.enabled):
            check()
            digest.update(format_transforms([spec]).encode() + b"\0")
            key = digest.digest()
            hit = self._steps.get(key)
            if hit is None:
                try:
                    report = run_step(current, spec, list(inputs), list(outputs), job)
                except Cancelled:
                    raise
                except Exception as exc:  # shown in the table; later steps wait
                    text = getattr(exc, "message", None) or str(exc)
                    rows.append(PreviewRow(spec.name, rows[-1].metrics, None, text, key))
                    break             # the rows before it still get their gzip and FLOPs
                hit = self._steps[key] = (report, replace(report, graph_def=None),
                                          self._cheap(report.graph_def))
            self._steps.move_to_end(key)
            report, light, metrics = hit
            current = report.graph_def
            rows.append(PreviewRow(str(spec), metrics, light, key=key))
            emit(rows)
        emit(rows, True)
        for i, row in enumerate(rows):  # second pass: gzip sizes
            check()
            rows[i] = replace(row, metrics=self._failed(rows, i) or self._with_gzip(row))
            emit(rows)
        emit(rows, True)
        if with_flops:  # third pass: FLOPs, step by step
            skey = shapes_key(input_shapes)
            for i, row in enumerate(rows):
                check()
                rows[i] = replace(row, metrics=self._failed(rows, i) or
                                  self._with_flops(row, input_shapes, skey))
                emit(rows)
            emit(rows, True)
        return self._finish(rows)

    @staticmethod
    def _failed(rows: list, i: int):
        """A failed step's numbers: those of the graph before it, which it left as it was
        (None for a step that ran)."""
        return rows[i - 1].metrics if rows[i].error else None

    # -- graphs by key -----------------------------------------------------------------------
    def graph(self, key: bytes):
        """The graph of the row with this key (None once the engine forgot it)."""
        if key in self._bases:
            return self.graph_def
        hit = self._steps.get(key)
        return hit[0].graph_def if hit is not None else None

    def graph_for(self, key: bytes | None):
        """The original graph (key None) or the graph of the previewed row `key`."""
        return self.graph_def if key is None else self._graph_or_fail(key)

    def _graph_or_fail(self, key: bytes):
        graph_def = self.graph(key)
        if graph_def is None:
            raise InspectorError("that pipeline is no longer previewed; wait for the preview "
                                 "to finish and try again")
        return graph_def

    def check(self, key: bytes, inputs, outputs, input_shapes=None, allow_io=False) -> list:
        """numeric_check of the original graph against the graph of row `key`."""
        from inspector.core.analysis.numeric_check import numeric_check

        refuse_sizes_tf_refuses(self.graph_def, inputs)
        return numeric_check(self.graph_def, self._graph_or_fail(key), list(inputs),
                             list(outputs), input_shapes, allow_io=allow_io)

    def save(self, key: bytes, path: str, as_text: bool = False) -> int:
        """Write the graph of row `key` to `path` atomically; returns its node count."""
        graph_def = self._graph_or_fail(key)
        write_graph(graph_def, path, as_text=as_text, force=True)
        return len(graph_def.node)

    # -- the three kinds of numbers ------------------------------------------------------
    def _original_metrics(self) -> Metrics:
        if self._original is None:
            self._original = self._cheap(self.graph_def)
        return self._original

    @staticmethod
    def _cheap(graph_def) -> Metrics:
        return compute_metrics(graph_def, with_flops=False, with_gzip=False)

    def _with_gzip(self, row) -> Metrics:
        hit = self._sizes.get(row.key)
        if hit is None:
            data = protos.serialize_graph_def(self.graph(row.key))
            hit = self._sizes[row.key] = replace(row.metrics, serialized_bytes=len(data),
                                                 gzip_bytes=gzip_size(data))
        return replace(row.metrics, serialized_bytes=hit.serialized_bytes,
                       gzip_bytes=hit.gzip_bytes)

    def _with_flops(self, row, input_shapes, skey: tuple) -> Metrics:
        """FLOPs of this step's own graph, from TF's shape inference on it (with the same
        input shapes): exactly what `flops` says about the saved result, and "unknown" with
        TF's reason when TF cannot import it. The totals only (FlopReport.totals): the rows
        go to the window, which shows no count per node."""
        hit = self._flops.get((row.key, skey))
        if hit is None:
            report = flop_report(self.graph(row.key), input_shapes)
            hit = self._flops[(row.key, skey)] = replace(row.metrics, flops=report.totals(),
                                                         latency_ms=latencies(report))
        return replace(row.metrics, flops=hit.flops, latency_ms=hit.latency_ms)

    # -- bounds ----------------------------------------------------------------------------
    def _finish(self, rows: list) -> list:
        """Forget prefixes this run did not use, but for the few most recent others."""
        used = {row.key for row in rows}
        others = [k for k in self._steps if k not in used]
        for key in others[:max(0, len(others) - KEEP_OTHER_PREFIXES)]:
            del self._steps[key]
        alive = set(self._steps) | used
        for key in [k for k in self._sizes if k not in alive]:
            del self._sizes[key]
        for key in [k for k in self._flops if k[0] not in alive]:
            del self._flops[key]
        return rows

    def cached_prefixes(self) -> int:
        return len(self._steps)


# The engine's operations: what the window may ask of the engine wherever it lives (the worker
# derives its RemotePreview from these, and serves only these).
MODEL_OPERATIONS: tuple = ("run", "graph", "check", "save") + tuple(
    name for name in vars(ModelTasks) if not name.startswith("_"))
