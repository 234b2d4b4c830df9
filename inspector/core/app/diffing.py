"""Comparing two models, the use case of `graphdef-inspector diff` and File > Compare with… /
Preview > Compare (the comparison window's navigation is comparing.CompareSession): one rule
for the provenance (our pipeline's steps; the TFLite converter's names when B is a .tflite and
A is not: core.model.origin.is_tflite), the totals (gzip, FLOPs and latency of both sides,
from each graph's own shapes) and the file sizes (each side's file). The matcher, the graph
and the analyses are imported when a diff is made: two files with the same bytes need none
of them (app.identical)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.app.identical import identical_diff
from inspector.core.compare.document import dumps, text_report, write_json  # noqa: F401
from inspector.core.compare.records import Diff
from inspector.core.model.origin import is_tflite
from inspector.core.runtime import apart, gc_policy
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.runtime.lazy_import import later

readers = later("inspector.core.loaders.readers", globals(), "readers")   # a diff of files
graph_flops = later("inspector.core.analysis.graph_flops", globals(), "graph_flops")  # totals
gzip_cache = later("inspector.core.analysis.gzip_cache", globals(), "gzip_cache")  # totals
on_disk = later("inspector.core.loaders.on_disk", globals(), "on_disk")  # totals

if TYPE_CHECKING:
    from inspector.core.model.graph import Graph


def provenance_for(ga: Graph, gb: Graph, steps=None):
    """What is known of where B's nodes came from: the pipeline's renames, merges and splits
    when B came from `steps` (transforms' reports), the converter's ';'-joined tensor names
    when B is a .tflite made from A; None else."""
    from inspector.core.compare import provenance

    if steps:
        return provenance.from_steps(ga.names(), steps)
    if is_tflite(gb) and not is_tflite(ga):
        return provenance.for_tflite(ga, gb)
    return None


def after_pipeline(ga: Graph, pipeline: str, inputs=(), outputs=()) -> tuple:
    """(B, steps): A through the pipeline's text, here (the command line's `--pipeline`)."""
    from inspector.core.model.graph import Graph
    from inspector.core.transforms.pipeline import run_pipeline

    steps = run_pipeline(ga.graph_def, pipeline, list(inputs), list(outputs))
    return Graph(steps[-1].graph_def), steps


def read_ahead(a_path: str, b_path: str) -> tuple:
    """A's and B's reader processes, both forked before A is opened (a big binary GraphDef:
    B walked while A loads): (A's, B's) hand_over(keep), A's to call before A's open, B's
    once A's open is over, each None where that file is not read so (readers.prestart_all)."""
    return tuple(readers.prestart_all([a_path, b_path]))


def gzip_key(model):
    """The key under which an opened model's gzip size is kept across runs (a GraphDef or
    .tflite file: analysis.gzip_cache), None for a model whose size is not kept."""
    return gzip_cache.key_of(model)


def start_a_costs(ga: Graph, path: str = "", key=None):
    """A's side of the diff's totals counted in a forked copy started now (the command line,
    once A is open: while B loads), for diff_models' `a_costs`; None where no copy can be
    forked (diff_models counts both sides then). `key`: A's gzip_cache key (None: A's gzip
    size is not kept across runs)."""
    if not apart.can_fork():
        return None
    files = on_disk.gzip_files(path)
    return apart.start(lambda: graph_flops.side_costs(ga, path, key, files))


def diff_models(ga: Graph, gb: Graph, labels: tuple = ("A", "B"), steps=None,
                paths: tuple = ("", ""), totals: bool = True, job: Job = NO_JOB,
                a_costs=None, gzip_keys: tuple = (None, None)) -> Diff:
    """The diff of B against A. `steps`: the pipeline's reports when B is A after it;
    `paths`: the files A and B came from ("" for none); `totals`: with what each side costs
    (`a_costs`: A's side, started before: start_a_costs; `gzip_keys`: each side's
    analysis.gzip_cache key, None where a side's gzip size is not kept). B that is A's graph
    itself (the same file) answers at once."""
    from inspector.core.compare.diff import diff_graphs, file_size

    if gb is ga and not steps:
        return identical_diff(labels[0], labels[1], file_size(paths[0]), ga)
    with gc_policy.paused():    # millions of small objects, none in a cycle: a collection
        costs = None            # would walk them all (~7 % of a 100k pair's CPU in the CLI)
        files = tuple(on_disk.gzip_files(p) for p in paths) if totals else (None, None)
        if totals:        # counted in a forked copy where that is safe (the command line:
            if a_costs is not None and apart.can_fork():    # A's copy started before, B's
                b_costs = apart.start(                                     # now),
                    lambda: graph_flops.side_costs(gb, paths[1], gzip_keys[1], files[1]))

                def costs() -> dict:
                    (side_a, gzip_a), (side_b, gzip_b) = a_costs(), b_costs()
                    return graph_flops.of_sides([side_a, side_b], [gzip_a, gzip_b])
            else:      # else the gzip sizes compress on threads while the graphs match
                costs = apart.start(lambda: graph_flops.costs_apart(ga, gb, paths, gzip_keys,
                                                                    files)) \
                    if apart.can_fork() else graph_flops.start_costs(ga, gb, paths, gzip_keys,
                                                                     files)
        d = diff_graphs(ga, gb, labels[0], labels[1], provenance=provenance_for(ga, gb, steps),
                        job=job, file_sizes=tuple(file_size(p) for p in paths))
        if costs is not None:
            d.totals.update(costs())
    return d


def diff_json(d: Diff) -> str:
    """The diff as its JSON document (`diff --json`, Save comparison's diff part)."""
    return dumps(d)


def diff_text(d: Diff, limit: int = 40) -> str:
    """The diff in words, `limit` changes listed per kind (`diff`)."""
    return text_report(d, limit)
