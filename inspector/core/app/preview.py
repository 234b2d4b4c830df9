"""Live preview of a pipeline: per-step graphs, change reports and metrics, computed step by
step (cheap numbers first, then gzip sizes, then FLOPs) with cached prefixes so an edit redoes
little. Rows are immutable: each update hands out new rows, never changes one it gave away."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from dataclasses import dataclass, replace

from inspector.core.analysis.metrics import Metrics, compute_metrics, latencies
from inspector.core.errors import Cancelled
from inspector.core.model import protos
from inspector.core.transforms.pipeline import StepReport, run_step
from inspector.core.transforms.syntax import format_transforms

KEEP_OTHER_PREFIXES = 8   # results of pipelines edited away from, kept for undo and toggling
EMIT_EVERY = 0.15         # seconds between partial results (a long pipeline must not flood)


@dataclass(frozen=True)
class PreviewRow:
    label: str
    graph_def: object
    metrics: Metrics
    report: StepReport | None = None
    error: str = ""
    key: bytes = b""          # digest of the pipeline prefix that made this graph


def shapes_key(input_shapes) -> tuple:
    return tuple(sorted((k, tuple(v)) for k, v in (input_shapes or {}).items()))


class PreviewEngine:
    """Keeps the results of pipeline prefixes, keyed by a digest of the inputs, outputs and
    steps so far (never by object ids, which Python reuses); `run` recomputes only what
    changed and forgets prefixes nobody uses any more."""

    def __init__(self, graph_def):
        self.graph_def = graph_def
        self._steps: OrderedDict = OrderedDict()   # prefix key -> (report, metrics)
        self._sizes: dict = {}                     # prefix key -> metrics with gzip size
        self._flops: dict = {}                     # (prefix key, shapes key) -> metrics

    def run(self, steps, inputs, outputs, input_shapes=None, with_flops=True, cancel=None,
            on_row=None) -> list:
        def check():
            if cancel is not None and cancel.is_set():
                raise Cancelled()

        last = [0.0]

        def emit(rows, final=False):
            now = time.monotonic()
            if on_row and (final or now - last[0] >= EMIT_EVERY):
                last[0] = now
                on_row(list(rows))

        digest = hashlib.sha1(repr((tuple(inputs), tuple(outputs))).encode())
        base_key = digest.digest()
        rows = [PreviewRow("original", self.graph_def, self._cheap(self.graph_def), key=base_key)]
        emit(rows, True)
        current = self.graph_def
        for spec in (s for s in steps if s.enabled):
            check()
            digest.update(format_transforms([spec]).encode() + b"\0")
            key = digest.digest()
            hit = self._steps.get(key)
            if hit is None:
                try:
                    report = run_step(current, spec, list(inputs), list(outputs), cancel)
                except Cancelled:
                    raise
                except Exception as exc:  # shown in the table; later steps wait
                    text = getattr(exc, "message", None) or str(exc)
                    rows.append(PreviewRow(spec.name, current, rows[-1].metrics, None, text,
                                           key))
                    emit(rows, True)
                    return self._finish(rows)
                hit = self._steps[key] = (report, self._cheap(report.graph_def))
            self._steps.move_to_end(key)
            report, metrics = hit
            current = report.graph_def
            rows.append(PreviewRow(str(spec), current, metrics, report, key=key))
            emit(rows)
        emit(rows, True)
        for i, row in enumerate(rows):  # second pass: gzip sizes
            check()
            rows[i] = replace(row, metrics=self._with_gzip(row))
            emit(rows)
        emit(rows, True)
        if with_flops:  # third pass: FLOPs, step by step
            skey = shapes_key(input_shapes)
            for i, row in enumerate(rows):
                check()
                rows[i] = replace(row, metrics=self._with_flops(row, input_shapes, skey))
                emit(rows)
            emit(rows, True)
        return self._finish(rows)

    # -- the three kinds of numbers ------------------------------------------------------
    @staticmethod
    def _cheap(graph_def) -> Metrics:
        return compute_metrics(graph_def, with_flops=False, with_gzip=False)

    def _with_gzip(self, row) -> Metrics:
        hit = self._sizes.get(row.key)
        if hit is None:
            from inspector.core.analysis.metrics import gzip_size

            data = protos.serialize_graph_def(row.graph_def)
            hit = self._sizes[row.key] = replace(row.metrics, serialized_bytes=len(data),
                                                 gzip_bytes=gzip_size(data))
        return replace(row.metrics, serialized_bytes=hit.serialized_bytes,
                       gzip_bytes=hit.gzip_bytes)

    def _with_flops(self, row, input_shapes, skey: tuple) -> Metrics:
        """FLOPs of this step's own graph, from TF's shape inference on it (with the same
        input shapes): exactly what `flops` says about the saved result, and "unknown" with
        TF's reason when TF cannot import it."""
        hit = self._flops.get((row.key, skey))
        if hit is None:
            from inspector.core.analysis.metrics import flop_report

            report = flop_report(row.graph_def, input_shapes)
            hit = self._flops[(row.key, skey)] = replace(row.metrics, flops=report,
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
