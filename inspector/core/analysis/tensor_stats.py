"""What the Properties panel shows about a constant's values: statistics, a histogram and the
first values, computed from the bytes (read from the model file on demand)."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture

HISTOGRAM_BINS = 40


@dataclass
class TensorDescription:
    name: str
    values: np.ndarray
    stats: dict
    first: list
    counts: np.ndarray | None = None
    edges: np.ndarray | None = None
    notes: list = field(default_factory=list)


def tensor_stats(values: np.ndarray) -> dict:
    out = {"dtype": str(values.dtype), "shape": list(values.shape), "bytes": int(values.nbytes)}
    if values.size and np.issubdtype(values.dtype, np.number):
        v = values.astype(np.float64, copy=False)
        out.update(min=float(v.min()), max=float(v.max()), mean=float(v.mean()),
                   std=float(v.std()), zeros=float(np.mean(v == 0)))
    return out


def describe_tensor(graph, name: str, job: Job = NO_JOB) -> TensorDescription:
    """Statistics of the constant `name` (its values are read now if they are still in the
    file). Raises ValueError when the values cannot be decoded."""
    values = graph.tensor_value(name)
    job.check()
    stats = tensor_stats(values)
    first = np.asarray(values).ravel()[:12].tolist()
    out = TensorDescription(name, values, stats, first)
    if values.size > 1 and np.issubdtype(values.dtype, np.number):
        flat = values.astype(np.float64, copy=False).ravel()
        if np.isfinite(stats["min"]) and np.isfinite(stats["max"]):
            out.counts, out.edges = np.histogram(flat, bins=HISTOGRAM_BINS,
                                                 range=(stats["min"], stats["max"]))
        else:
            out.notes.append("no histogram: the values include inf or NaN")
    return out
