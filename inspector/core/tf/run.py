"""Running graphs in TensorFlow: once, many times with tracing (profiling), or in one session
for many inputs; nothing that is not pure computation runs without permission."""

from __future__ import annotations

import time

from inspector.core.errors import InspectorError
from inspector.core.model import safety
from inspector.core.runtime.job import Job, of
from inspector.core.tf import graphs
from inspector.core.tf.graphs import import_graph
from inspector.core.tf.runtime import first_line, serialized, tensor_name, tf, to_tf


@serialized
def evaluate_tensors(graph_def, tensor_names: list) -> list:
    """Run a (constant) graph in TensorFlow and return the values of the named tensors; None
    for a tensor no numpy array can hold (a variant such as a TensorList, a resource).
    Only ever for pure computation: nothing here asks for permission."""
    safety.require_safe(graph_def, tensor_names, (), allow=False, what="the constant subgraph",
                        action="evaluate it")
    t = tf()
    graph = t.Graph()
    with graph.as_default():
        t.compat.v1.import_graph_def(to_tf(graph_def), name="")
    names = [n for n in tensor_names
             if graph.get_tensor_by_name(n).dtype not in (t.variant, t.resource)]
    with t.compat.v1.Session(graph=graph) as sess:
        got = dict(zip(names, sess.run(names))) if names else {}
    return [got.get(n) for n in tensor_names]


@serialized
def run_graph(graph_def, feeds: dict, fetches: list, input_shapes: dict | None = None,
              allow_unsafe: bool = False) -> list:
    """Execute the graph once: feeds tensor name -> array, returns the fetched arrays.
    Ops that are not pure computation run only with `allow_unsafe` (the user said yes)."""
    safety.require_safe(graph_def, fetches, list(feeds), allow=allow_unsafe)
    t = tf()
    graph = import_graph(graph_def, input_shapes)
    config = t.compat.v1.ConfigProto(inter_op_parallelism_threads=1)
    with t.compat.v1.Session(graph=graph, config=config) as sess:
        try:
            return sess.run([tensor_name(f) for f in fetches],
                            {tensor_name(k): v for k, v in feeds.items()})
        except Exception as exc:
            raise InspectorError(f"TensorFlow failed to run the graph: {first_line(exc)}") \
                from None


_kept: list = []   # [(graph_def, session)], newest last: the original and one optimized
KEEP_SESSIONS = 2


def forget_sessions() -> None:
    """Close the kept sessions and drop the kept shape answers (the model is gone: neither
    may keep its GraphDef alive)."""
    while _kept:
        _kept.pop()[1].close()
    graphs.forget_shapes()


def _session_for(graph_def):
    for i, (kept, session) in enumerate(_kept):
        if kept is graph_def:
            _kept.append(_kept.pop(i))
            return session
    t = tf()
    graph = import_graph(graph_def, None)
    config = t.compat.v1.ConfigProto(inter_op_parallelism_threads=1)
    # a frozen graph gains nothing worth the wait from grappler: Inception v3's first run
    # takes 0.5 s instead of 1.8-2.3 s, later runs are as fast (bench/demo_bench.py)
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    session = t.compat.v1.Session(graph=graph, config=config)
    while len(_kept) >= KEEP_SESSIONS:
        _kept.pop(0)[1].close()
    _kept.append((graph_def, session))
    return session


@serialized
def run_cached(graph_def, feeds: dict, fetches: list, allow_unsafe: bool = False) -> list:
    """run_graph, keeping the session for the next run on the same GraphDef object (demo
    runs: the graph is imported once, later inputs only run it)."""
    safety.require_safe(graph_def, fetches, list(feeds), allow=allow_unsafe)
    session = _session_for(graph_def)
    try:
        return session.run([tensor_name(f) for f in fetches],
                           {tensor_name(k): v for k, v in feeds.items()})
    except Exception as exc:
        raise InspectorError(f"TensorFlow failed to run the graph: {first_line(exc)}") \
            from None


@serialized
def run_many(graph_def, feeds_list: list, fetches: list, input_shapes: dict | None = None,
             allow_unsafe: bool = False, job: Job | None = None) -> list:
    """Run the graph once per feed dict in one session (one import, one session set-up);
    returns one list of fetched arrays per feed dict; the job's progress after each run, its
    cancel checked before each."""
    job = of(job)
    names = sorted({k for feeds in feeds_list for k in feeds})
    safety.require_safe(graph_def, fetches, names, allow=allow_unsafe)
    t = tf()
    graph = import_graph(graph_def, input_shapes)
    config = t.compat.v1.ConfigProto(inter_op_parallelism_threads=1)
    fetch_names = [tensor_name(f) for f in fetches]
    results = []
    with t.compat.v1.Session(graph=graph, config=config) as sess:
        for i, feeds in enumerate(feeds_list):
            job.check()
            try:
                results.append(sess.run(fetch_names,
                                        {tensor_name(k): v for k, v in feeds.items()}))
            except Exception as exc:
                raise InspectorError(f"TensorFlow failed to run the graph on input {i + 1}: "
                                     f"{first_line(exc)}") from None
            job.progress(i + 1, len(feeds_list), f"on input {i + 1}/{len(feeds_list)}")
    return results


@serialized
def profile_runs(graph_def, feeds: dict, fetches: list, warmup: int, runs: int, intra: int,
                 inter: int, input_shapes=None, job: Job | None = None,
                 allow_unsafe: bool = False) -> tuple:
    """Run the graph: warm-up runs, untimed-trace runs (wall µs), then FULL_TRACE runs.
    Returns (untraced wall µs list, traced wall µs list, serialized StepStats list)."""

    job = of(job)
    safety.require_safe(graph_def, fetches, list(feeds), allow=allow_unsafe)
    t = tf()
    v1 = t.compat.v1
    graph = import_graph(graph_def, input_shapes)
    config = v1.ConfigProto(intra_op_parallelism_threads=intra,
                            inter_op_parallelism_threads=inter)
    fetch_names = [tensor_name(f) for f in fetches]
    feed = {tensor_name(k): v for k, v in feeds.items()}
    plain, traced, stats = [], [], []
    total = warmup + 2 * runs
    done = 0
    with v1.Session(graph=graph, config=config) as sess:
        def step(options=None, metadata=None):
            nonlocal done
            job.check()
            start = time.perf_counter()
            try:
                sess.run(fetch_names, feed, options=options, run_metadata=metadata)
            except Exception as exc:
                raise InspectorError(f"TensorFlow failed to run the graph: "
                                     f"{first_line(exc)}") from None
            done += 1
            job.progress(done, total, f"run {done}/{total}")
            return (time.perf_counter() - start) * 1e6

        for _ in range(warmup):
            step()
        for _ in range(runs):
            plain.append(step())
        for _ in range(runs):
            options = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE)
            metadata = v1.RunMetadata()
            traced.append(step(options, metadata))
            stats.append(metadata.step_stats.SerializeToString())
    return plain, traced, stats


@serialized
def chrome_trace(step_stats_bytes: bytes) -> str:
    """TF's own Chrome trace JSON for one run's StepStats (for tests and export)."""
    tf()
    from tensorflow.core.framework import step_stats_pb2
    from tensorflow.python.client import timeline

    stats = step_stats_pb2.StepStats.FromString(step_stats_bytes)
    return timeline.Timeline(stats).generate_chrome_trace_format()


def decode_image(path: str, channels: int, size) -> "object":
    """An image file as a float32 array of the given height and width."""
    t = tf()
    img = t.io.decode_image(t.io.read_file(path), channels=channels, expand_animations=False)
    return t.image.resize(t.cast(img, t.float32), list(size)).numpy()


class session_for:
    """`with session_for(graph_def) as run: run(feeds, fetches)`: one session, many runs."""

    def __init__(self, graph_def, input_shapes=None, allow_unsafe: bool = False):
        self.graph_def, self.input_shapes = graph_def, input_shapes
        self.allow_unsafe = allow_unsafe
        self.checked: set = set()

    def __enter__(self):
        safety.check_no_recursion(self.graph_def)
        t = tf()
        self.graph = import_graph(self.graph_def, self.input_shapes)
        self.sess = t.compat.v1.Session(graph=self.graph)

        def run(feeds: dict, fetches: list):
            key = (tuple(fetches), tuple(feeds))
            if key not in self.checked:
                safety.require_safe(self.graph_def, fetches, list(feeds),
                                    allow=self.allow_unsafe)
                self.checked.add(key)
            return self.sess.run([tensor_name(f) for f in fetches],
                                 {tensor_name(k): v for k, v in feeds.items()})
        return run

    def __exit__(self, *exc):
        self.sess.close()
        return False
