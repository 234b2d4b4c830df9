"""Every "gzip" figure is the size Python's gzip module gives the same bytes at level 6
(`len(gzip.compress(data, 6))`: deflate in gzip's 18-byte frame): the Preview's, `transform
--gzip`'s and the diff's (metrics.gzip_size, graph_gzip) and the conversion rows'. They were
6 bytes over it (zlib's own 6-byte frame counted inside gzip's 18), the rows 12 under (zlib's
frame, no gzip frame)."""

from __future__ import annotations

import gzip

import numpy as np

from inspector.core.analysis import graph_gzip
from inspector.core.analysis.metrics import gzip_size
from inspector.core.loaders import load
from inspector.core.model import protos
from tests.conftest import DEMO


def test_gzip_size_is_pythons_gzip_at_level_6_on_the_demo_model_and_on_noise():
    with open(DEMO, "rb") as fh:
        model = fh.read()
    noise = np.random.default_rng(0).integers(0, 256, 300_000, np.uint8).tobytes()
    for data in (model, noise, b"", b"x"):
        assert gzip_size(data) == len(gzip.compress(data, 6)), len(data)
        assert gzip_size(data, exact=True) == len(gzip.compress(data, 6))


def test_a_graphs_and_a_files_gzip_size_are_pythons_gzip_of_their_bytes(tmp_path):
    graph = load(DEMO).graph
    data = protos.serialize_graph_def(graph.graph_def)
    assert graph_gzip.start(graph).result() == len(gzip.compress(data, 6))
    assert graph_gzip.of_files([DEMO]).result() == len(gzip.compress(open(DEMO, "rb").read(), 6))


def test_the_sampled_estimate_counts_one_frame_not_one_per_chunk():
    """Above 8 MB every 8th 256 KB chunk is compressed: on bytes that compress the same
    everywhere the estimate is the whole's gzip size within a few bytes a chunk (it was
    6 bytes a sampled chunk over, from zlib's frame, scaled to the whole)."""
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, 9 * 2 ** 20, np.uint8).tobytes()     # incompressible
    assert abs(gzip_size(data) - len(gzip.compress(data, 6))) < 50
