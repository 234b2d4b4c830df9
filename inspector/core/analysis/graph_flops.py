"""FLOPs of any opened graph (GraphDef or .tflite) from its own shapes, without TensorFlow;
TensorFlow's shape inference only where those shapes leave counted ops unknown, and then the
report says so (`FlopReport.source`). TF's profiler is the reference the tests compare with."""

from __future__ import annotations

from inspector.core.analysis import graph_gzip, gzip_cache
from inspector.core.analysis.flops import DEVICE_PRESETS, NO_SHAPES, FlopReport, count_flops
from inspector.core.analysis.metrics import flop_report, gzip_size, latencies
from inspector.core.model.origin import is_tflite
from inspector.core.runtime.executor import installed

OWN = "the graph's own shapes"
TF_INFERENCE = "TensorFlow's shape inference"
TFLITE_SHAPES = "the .tflite's tensor shapes"


def graph_flops(graph, input_shapes: dict | None = None, allow_tf: bool = True) -> FlopReport:
    """The FLOP report of `graph`: counted from its recorded or propagated shapes; when that
    leaves ops uncounted and `allow_tf` (and a TensorFlow executor is set up in this process),
    counted again from TF's inference, which is kept if it counts more."""
    from inspector.core.analysis import shape_columns as columns, static_shapes as ss

    tflite = is_tflite(graph)
    if columns.columnar(graph):         # by node index, a view only where a rule needs one
        given, assumed = ss.placeholder_shapes(graph, input_shapes)
        _, out = columns.column_shapes(graph, given, not input_shapes)
        report = columns.count_flops_columns(graph, out)
    else:
        shapes, assumed = ss.static_shapes(graph, input_shapes)
        report = count_flops(graph, shapes)
    report.assumed = [f"{note}, as the .tflite stores it; its batch is set at run time"
                      for note in assumed] if tflite else assumed
    report.source = TFLITE_SHAPES if tflite else OWN
    if report.unknown_shape and allow_tf and not tflite:
        inferred = _by_tensorflow(graph, input_shapes)
        if inferred is not None and len(inferred.unknown_shape) < len(report.unknown_shape):
            inferred.source = (f"{TF_INFERENCE} (the graph's own shapes leave "
                               f"{len(report.unknown_shape):,} ops unknown)")
            return inferred
    if report.unknown == NO_SHAPES and not tflite:     # the walk found no node to name
        report.unknown += " (give the inputs' shapes)"
    return report


def _by_tensorflow(graph, input_shapes):
    if installed() is None:
        return None
    try:
        report = flop_report(graph.graph_def, input_shapes)
    except Exception:  # noqa: BLE001 - TF's failure leaves the TF-free count standing
        return None
    return None if report.unknown else report


def describe_source(report: FlopReport) -> str:
    """Where a count's shapes came from, with what was assumed or left out."""
    notes = [report.source or TF_INFERENCE] + list(report.assumed)
    if report.unknown_shape:
        notes.append(f"{len(report.unknown_shape):,} ops without known shapes not counted")
    return "; ".join(notes)


def cost_totals(ga, gb, paths: tuple = ("", "")) -> dict:
    """What each side costs, for a diff's totals ({name: [A, B]}): gzip bytes, FLOPs, where the
    FLOPs' shapes came from, and the latency estimate per device class; a side that cannot be
    counted says why beside the other side's figure."""
    return start_costs(ga, gb, paths)()


def start_costs(ga, gb, paths: tuple = ("", ""), keys: tuple = (None, None),
                files: tuple = (None, None)):
    """cost_totals in two steps: the gzip sizes start now (compressed on threads of their
    own); the function returned counts the FLOPs and gives the totals, so the caller may do
    other work in between (the diff's matching). `keys`: each side's gzip_cache key (None:
    not kept); `files`: each side's files to compress instead of its GraphDef (None: the
    GraphDef; a model of several files, or one that is not a GraphDef: Keras)."""
    gzips = [_kept_gzip(g, p, k, f) for g, p, k, f in zip((ga, gb), paths, keys, files)]
    return lambda: _totals([graph_flops(g) for g in (ga, gb)], gzips)


def costs_apart(ga, gb, paths: tuple = ("", ""), keys: tuple = (None, None),
                files: tuple = (None, None)) -> dict:
    """cost_totals as a forked copy counts them while another copy makes B's fingerprints,
    which the matching waits for: A's FLOPs first, on this copy's one thread, and only then
    the gzip sizes start compressing on threads of their own beside B's FLOPs. So the
    fingerprints' copy shares the cores with one thread of this one, not three, for its
    first seconds (300k pair, slow class, loaded machine: the matching's wait for it went
    from 2.5-2.7 to 1.4-2.0 s); the gzip threads still end before B's FLOPs."""
    first = graph_flops(ga)
    gzips = [_kept_gzip(g, p, k, f) for g, p, k, f in zip((ga, gb), paths, keys, files)]
    return _totals([first, graph_flops(gb)], gzips)


def _totals(reports: list, gzips: list) -> dict:
    return of_sides([_side(r) for r in reports], [z.result() for z in gzips])


def _side(report) -> tuple:
    """(FLOPs, where their shapes came from, latency per device) of one side's report."""
    return (report.total if report.known else f"unknown ({_short(report.unknown)})",
            describe_source(report) if report.known else "", latencies(report))


def side_costs(graph, path: str = "", key=None, files=None) -> tuple:
    """One side's part of the totals, counted alone ((_side, gzip bytes): plain values, sent
    from a forked copy; of_sides joins both): the command line's diff counts A's once A is
    open, while B loads, and B's while the graphs match. Its FLOPs first, then its gzip size
    (one busy thread at a time, beside the copy making B's fingerprints: costs_apart); the
    gzip size from gzip_cache where `key` is there."""
    side = _side(graph_flops(graph))
    return side, _kept_gzip(graph, path, key, files).result()


def of_sides(sides: list, gzips: list) -> dict:
    """The totals of both sides' _side figures and gzip bytes."""
    out: dict = {"gzip bytes": gzips}
    out["FLOPs"] = [side[0] for side in sides]
    sources = [side[1] for side in sides]
    out["FLOPs counted from"] = [sources[0], ""] if sources[0] == sources[1] else sources
    for device in DEVICE_PRESETS:
        out[f"latency ms ({device})"] = [side[2].get(device, "unknown") for side in sides]
    return out


def _gzip(graph, path: str, files=None):
    """gzip bytes of the file a .tflite side came from, of `files` where given (the model's
    files on disk), of the serialized GraphDef otherwise (graph_gzip: started, `.result()`
    gives it)."""
    if files:
        try:
            return graph_gzip.of_files(files)
        except OSError:                 # gone since
            return graph_gzip.Done("not measured")
    if is_tflite(graph):
        try:
            with open(path, "rb") as fh:
                return graph_gzip.Done(gzip_size(fh.read()))
        except OSError:                 # no file (a graph made here), or gone since
            return graph_gzip.Done("not measured")
    return graph_gzip.start(graph)


class _Kept:
    """A gzip size being computed, kept in gzip_cache under `key` once it is known."""

    def __init__(self, pending, key):
        self._pending, self._key = pending, key

    def result(self):
        value = self._pending.result()
        gzip_cache.store(self._key, value)
        return value


def _kept_gzip(graph, path: str, key=None, files=None):
    """_gzip, or the size gzip_cache keeps for `key` (a file opened before: no compression)."""
    known = gzip_cache.lookup(key)
    if known is not None:
        return graph_gzip.Done(known)
    pending = _gzip(graph, path, files)
    return pending if key is None else _Kept(pending, key)


def _short(text: str, limit: int = 70) -> str:
    first = text.split("\n")[0].split(". ")[0]
    return first if len(first) <= limit else first[:limit - 1] + "…"
