"""Live preview of a pipeline: per-step graphs, change reports and metrics, computed step by
step (cheap numbers first, FLOPs after) with cached prefixes so an edit redoes little."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from inspector.core.model import protos
from inspector.core.errors import Cancelled
from inspector.core.analysis.metrics import Metrics, carried_shapes, compute_metrics
from inspector.core.transforms.pipeline import StepReport, run_step
from inspector.core.transforms.syntax import format_transforms


@dataclass
class PreviewRow:
    label: str
    graph_def: object
    metrics: Metrics
    report: StepReport | None = None
    error: str = ""


class PreviewEngine:
    """Keeps the results of pipeline prefixes; `run` recomputes only what changed."""

    def __init__(self, graph_def):
        self.graph_def = graph_def
        self._cache: dict = {}

    def run(self, steps, inputs, outputs, input_shapes=None, with_flops=True, cancel=None,
            on_row=None) -> list:
        def check():
            if cancel is not None and cancel.is_set():
                raise Cancelled()

        last = [0.0]

        def emit(rows, final=False):
            """Partial rows at most every 150 ms (a long pipeline must not flood the GUI)."""
            now = time.monotonic()
            if on_row and (final or now - last[0] >= 0.15):
                last[0] = now
                on_row(rows)

        rows = [self._row("original", self.graph_def, None, input_shapes, False)]
        emit(rows, True)
        current = self.graph_def
        enabled = [s for s in steps if s.enabled]
        # prefix keys as a running digest: O(1) per step however long the pipeline is
        digest = hashlib.sha1(repr((tuple(inputs), tuple(outputs))).encode())
        for spec in enabled:
            check()
            digest.update(format_transforms([spec]).encode() + b"\0")
            key = ("prefix", digest.digest())
            hit = self._cache.get(key)
            if hit is None:
                try:
                    report = run_step(current, spec, list(inputs), list(outputs))
                except Exception as exc:  # shown in the table, the rest of the steps wait
                    text = getattr(exc, "message", None) or str(exc)
                    rows.append(PreviewRow(spec.name, current, rows[-1].metrics, None, text))
                    emit(rows, True)
                    return rows
                hit = self._cache[key] = (report, self._metrics(report.graph_def, None, False))
            report, metrics = hit
            current = report.graph_def
            rows.append(PreviewRow(str(spec), current, metrics, report))
            emit(rows)
        emit(rows, True)
        # second pass: gzip sizes, then FLOPs (shapes inferred by TF once, for the original)
        for row in rows:
            check()
            self._add_gzip(row)
            emit(rows)
        emit(rows, True)
        if with_flops:
            check()
            known = self._shapes(input_shapes)
            for row in rows:
                check()
                self._add_flops(row, carried_shapes(row.graph_def, known))
                emit(rows)
            emit(rows, True)
        return rows

    def _add_gzip(self, row) -> None:
        key = ("gzip", id(row.graph_def))
        if key not in self._cache:
            from dataclasses import replace

            from inspector.core.analysis.metrics import gzip_size

            data = protos.serialize_graph_def(row.graph_def)
            self._cache[key] = replace(row.metrics, serialized_bytes=len(data),
                                       gzip_bytes=gzip_size(data))
        row.metrics = self._cache[key]

    def _shapes(self, input_shapes) -> dict:
        from inspector.core.model.executor import tensorflow

        key = ("shapes", tuple(sorted((input_shapes or {}).items())))
        if key not in self._cache:
            try:
                self._cache[key] = tensorflow().infer_shapes(self.graph_def, input_shapes)
            except Exception:
                self._cache[key] = {}
        return self._cache[key]

    def _row(self, label, graph_def, report, shapes, flops):
        return PreviewRow(label, graph_def, self._metrics(graph_def, shapes, flops), report)

    def _add_flops(self, row, shapes) -> None:
        key = ("flops", id(row.graph_def), id(shapes) if not shapes else len(shapes))
        if key not in self._cache:
            from dataclasses import replace

            from inspector.core.analysis.flops import DEVICE_PRESETS, count_flops, latency_ms
            from inspector.core.model.graph import Graph

            report = count_flops(Graph(row.graph_def), shapes)
            self._cache[key] = replace(row.metrics, flops=report, latency_ms={
                k: latency_ms(report.total, v) for k, v in DEVICE_PRESETS.items()})
        row.metrics = self._cache[key]

    def _metrics(self, graph_def, shapes, flops) -> Metrics:
        key = ("metrics", id(graph_def), flops)
        hit = self._cache.get(key)
        if hit is None:
            try:
                hit = compute_metrics(graph_def, with_flops=False, with_gzip=False)
            except Exception:
                hit = compute_metrics(graph_def, with_flops=False, with_gzip=False)
            self._cache[key] = hit
            self._cache[("keep", id(graph_def))] = graph_def  # id stays valid while cached
        return hit
