"""A graph's gzip size (a diff's "gzip bytes") from the nodes under gzip_size's sampled chunks
only: the same number as compressing the whole serialized GraphDef, on lazily opened graphs
(their weights stay in the file), fully read ones, nodes bigger than the sampling step, and
small graphs compressed whole."""

from inspector.core.analysis import graph_gzip
from inspector.core.analysis.metrics import gzip_size
from inspector.core.app.diffing import diff_models
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.fixtures.scale_models import blocks_graph, dense_model


def _whole(graph) -> int:
    return gzip_size(protos.serialize_graph_def(graph.graph_def))


def test_a_lazy_graphs_gzip_size_is_the_whole_serializations_and_reads_no_weight_into_it():
    g = load(blocks_graph(10000, 0)).graph
    assert g.lazy
    pending = graph_gzip.start(g)
    assert isinstance(pending, graph_gzip.Pending)          # sampled: 10 MB > 8 MB
    size = pending.result()
    assert g.lazy                                           # no weight read into the graph
    assert size == _whole(g)
    again = Graph(g.graph_def)                              # every value in the protos
    assert not again.lazy and graph_gzip.start(again).result() == size


def test_nodes_longer_than_the_sampling_step_and_small_graphs_give_the_same_number():
    g = load(dense_model(2, 512)).graph                     # 4 MB weights: over 2 MB steps
    assert graph_gzip.start(g).result() == _whole(g)
    small = load(blocks_graph(3000, 0)).graph
    done = graph_gzip.start(small)
    assert isinstance(done, graph_gzip.Done) and done.result() == _whole(small)


def test_the_diffs_totals_read_no_weight_of_a_lazily_opened_pair():
    """Before: the gzip size serialized graph_def, which read every weight into both graphs
    (300 MB each at 300k nodes)."""
    a, b = blocks_graph(10000, 0), blocks_graph(10000, 1)
    ga, gb = load(a).graph, load(b).graph
    d = diff_models(ga, gb, (a, b), paths=(a, b))
    assert ga.lazy and gb.lazy
    assert d.totals["gzip bytes"] == [_whole(ga), _whole(gb)]
    assert list(d.totals)[:5] == ["nodes", "parameters", "file bytes", "gzip bytes", "FLOPs"]


def test_a_forked_copys_costs_compress_only_once_As_flops_are_counted(monkeypatch):
    """costs_apart (the command line's forked copy): while B's fingerprints are made in
    another copy, this one runs A's FLOPs on its one thread; the gzip threads start after
    them (before: both started first, three threads against the fingerprints' copy on two
    cores). The same totals as counting them here."""
    import threading

    from inspector.core.analysis import graph_flops

    a, b = blocks_graph(10000, 0), blocks_graph(10000, 1)
    ga, gb = load(a).graph, load(b).graph
    seen, count = [], graph_flops.graph_flops

    def counting(graph, *args, **kwargs):
        seen.append(sum(t.name == "graph-gzip" for t in threading.enumerate()))
        return count(graph, *args, **kwargs)

    monkeypatch.setattr(graph_flops, "graph_flops", counting)
    apart = graph_flops.costs_apart(ga, gb, (a, b))
    assert seen[0] == 0 and len(seen) == 2
    assert apart == graph_flops.start_costs(ga, gb, (a, b))()
    assert apart["gzip bytes"] == [_whole(ga), _whole(gb)]


def test_the_gzip_size_of_a_models_files_is_their_concatenations(tmp_path):
    """A diff's "gzip bytes" of a model of several files (TF.js, SavedModel, .meta and its
    checkpoint) or of a Keras file compresses its files, as "file bytes" counts them: small,
    compressed whole; big, sampled as gzip_size samples (the first file a whole number of
    sampling steps long, so that no chunk spans two files)."""
    import os
    import random

    rng = random.Random(7)
    parts = [bytes(rng.getrandbits(8) for _ in range(1000)) * 10, b"ab" * 500]
    small = []
    for i, data in enumerate(parts):
        small.append(str(tmp_path / f"s{i}"))
        open(small[-1], "wb").write(data)
    assert graph_gzip.of_files(small).result() == gzip_size(b"".join(parts))
    step = graph_gzip.STEP
    big = [bytes(rng.getrandbits(8) for _ in range(4096)) * (3 * step // 4096),
           b"weights " * (step // 4)]
    paths = []
    for i, data in enumerate(big):
        paths.append(str(tmp_path / f"b{i}"))
        open(paths[-1], "wb").write(data)
    whole = b"".join(big)
    assert len(whole) > 8 * 2 ** 20 and len(big[0]) % step == 0
    pending = graph_gzip.of_files(paths)
    assert isinstance(pending, graph_gzip.Pending)
    assert pending.result() == gzip_size(whole)
    assert sum(map(os.path.getsize, paths)) == len(whole)
