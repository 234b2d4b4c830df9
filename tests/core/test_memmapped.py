"""Memory-mapped packages: written from frozen graphs, checked (valid files pass; truncated,
out-of-range, duplicate and misaligned regions each fail with their own message), and read
back as Const nodes whose outputs in TensorFlow are bit-identical to the original's.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_memmapped_tf.py, tests/cli/test_memmapped_cli.py."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.formats.memmapped import (
    write_memmapped,
)
from inspector.core.loaders import load
from inspector.core.loaders.memmapped import check


def test_a_lazily_opened_model_is_streamed_without_holding_its_weights(tmp_path):
    from tests.fixtures import scale_models

    src = scale_models.dense_model(2, 512)
    m = load(src)
    assert m.graph.lazy
    out = tmp_path / "dense.mmap"
    written = write_memmapped(m.graph, str(out))
    assert m.graph.lazy                        # the model was not filled in memory
    assert m.graph.weights.bytes_read == written.mapped_bytes + sum(
        s.length for s in m.graph.weights.slots.values()
        if s.length < 10000)                   # each weight read once, then written
    package, problems = check(str(out))
    assert problems == []
    back = load(str(out))
    name = "encoder/layer_1/intermediate/kernel"
    np.testing.assert_array_equal(back.graph.tensor_value(name), m.graph.tensor_value(name))


def test_a_failed_stream_leaves_nothing_behind(tmp_path):
    from inspector.core.formats.writer import atomic_stream

    target = tmp_path / "out.mmap"
    with pytest.raises(RuntimeError):
        with atomic_stream(str(target)) as fh:
            fh.write(b"half a file")
            raise RuntimeError("interrupted")
    assert os.listdir(tmp_path) == []
