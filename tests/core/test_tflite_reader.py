"""The .tflite reader (pure Python, no TensorFlow) on the demo model converted to float and
int8 .tflite files (committed in tests/core/data); bad files give one clear line.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_tflite_reader_tf.py, tests/cli/test_tflite_reader_cli.py."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from tests.conftest import run_cli


@pytest.fixture(scope="module")
def converted(data):
    """The demo model as float and full-int8 .tflite files (converted by tests/core/data/make.py
    as the fixture of tests/tf/test_tflite_reader_tf.py converts it)."""
    return {variant: os.path.join(data, f"digits_{variant}.tflite")
            for variant in ("float", "int8")}


def test_graph_view_and_summary_work_on_a_tflite_model(converted):
    from inspector.core.analysis.summary import summarize
    from inspector.core.view.view_graph import ViewModel

    m = load(converted["float"])
    s = summarize(m.graph, m.known_inputs, m.known_outputs)
    assert s.inputs[0].name == "pixels" and s.outputs[0].name == "output"
    root = ViewModel(m.graph).root
    assert "digits_1" in root.children        # the converter's names keep the scopes
    assert {"pixels", "output"} <= set(root.nodes)


def _variants(data: bytes) -> dict:
    out = {f"cut_at_{n}": data[:n] for n in (8, 24, 64, len(data) // 2, len(data) - 5)}
    rng = np.random.default_rng(3)
    out["random_after_header"] = data[:8] + rng.bytes(400)
    big = bytearray(data)
    big[0:4] = (len(data) - 8).to_bytes(4, "little")       # the root points near the end
    out["root_near_the_end"] = bytes(big)
    return out


def test_damaged_files_give_one_clear_line(converted, tmp_path):
    with open(converted["float"], "rb") as fh:
        data = fh.read()
    for label, bad in _variants(data).items():
        path = tmp_path / f"{label}.tflite"
        path.write_bytes(bad)
        with pytest.raises(ModelLoadError) as info:
            load(str(path))
        text = info.value.one_line()
        assert "TensorFlow Lite" in text and "\n" not in text and str(path) in text, label
    code, out, err = run_cli("summarize", str(tmp_path / "cut_at_64.tflite"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "damaged" in err
    code, out, err = run_cli("tflite-info", str(tmp_path / "random_after_header.tflite"))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_a_huge_declared_list_is_refused_before_reading(tmp_path):
    import struct

    # the root table (at 20) has only field 2, the subgraphs; their list says 2**31 items
    data = struct.pack("<I", 20) + b"TFL3" + struct.pack("<HHHHH", 10, 8, 0, 0, 4) + \
        b"\0\0" + struct.pack("<i", 12) + struct.pack("<I", 4) + struct.pack("<I", 2 ** 31)
    path = tmp_path / "huge.tflite"
    path.write_bytes(data)
    with pytest.raises(ModelLoadError, match="declares 2,147,483,648 items"):
        load(str(path))


def test_the_hostile_tflite_stub_is_named(tmp_path):
    from tests.fixtures.hostile.inputs import tflite_file

    with pytest.raises(ModelLoadError, match="damaged TensorFlow Lite file"):
        load(tflite_file(str(tmp_path)))
    assert os.path.exists(tmp_path / "model.tflite")
