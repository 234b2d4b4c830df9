"""The inputs of Run both (compare.numeric.prepare_feeds): each side is fed its own dtype, and
what is drawn is sized before it is allocated. TF-free and Qt-free; the LiteRT runs of the
same pair are in tests/cli/test_cli_diff.py."""

import os

import numpy as np
import pytest
from conftest import DATA

from inspector.core.compare import numeric
from inspector.core.compare.diff import diff_graphs
from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.runtime import feed_budget

INT8 = os.path.join(DATA, "digits_int8.tflite")
FLOAT = os.path.join(DATA, "digits_float.tflite")


def _pair(a: str, b: str):
    ga, gb = load(a).graph, load(b).graph
    inputs = [n.name for n in ga if n.op == "Placeholder"]
    return diff_graphs(ga, gb), ga, gb, inputs


@pytest.mark.parametrize("order", ["int8 as A", "int8 as B"])
def test_an_int8_input_is_fed_integers_quantized_from_the_other_sides_real_values(order):
    """The int8 .tflite's input was redrawn as float32 for both sides (4x what was sized),
    and LiteRT quantized it; now the int8 side gets int8 values, the float side the real
    values they were quantized from, with the input's own scale and zero point, as LiteRT
    rounds them (np.round(real / scale + zero), clipped)."""
    a, b = (INT8, FLOAT) if order == "int8 as A" else (FLOAT, INT8)
    d, ga, gb, inputs = _pair(a, b)
    feeds_a, feeds_b, notes = numeric.prepare_feeds(d, ga, gb, inputs)
    (ka, va), (kb, vb) = next(iter(feeds_a.items())), next(iter(feeds_b.items()))
    ints, real = (va, vb) if order == "int8 as A" else (vb, va)
    int_graph, int_name = (ga, ka) if order == "int8 as A" else (gb, kb)
    dtype, scale, zero = numeric.input_quantization(int_graph, int_name.split(":")[0])
    assert dtype == "int8" and ints.dtype == np.int8 and real.dtype == np.float32
    assert ints.shape == real.shape == (1, 8, 8, 1)
    assert np.array_equal(ints, np.clip(np.round(real / scale + zero), -128, 127))
    low, high = numeric.quantized_range(int_graph, int_name.split(":")[0])
    assert real.min() >= low and real.max() <= high
    assert "calibrated input range" in notes[0] and "as int8" in notes[0]


def test_what_the_feeds_hold_is_sized_before_it_is_drawn(monkeypatch):
    """The int8 input's 64 bytes fit a 100-byte limit; the 256 bytes of real values and the
    int8 copy do not: refused before they are drawn (the old code sized the int8 array only
    and then drew 4x as much)."""
    d, ga, gb, inputs = _pair(INT8, FLOAT)
    monkeypatch.setattr(feed_budget, "feed_limit", lambda: (100, "a test's limit"))
    drawn = []
    real_random = feed_budget.random
    monkeypatch.setattr(feed_budget, "random",
                        lambda *a, **k: drawn.append(a[1]) or real_random(*a, **k))
    with pytest.raises(InspectorError, match="past the 100 bytes that made-up inputs may take"):
        numeric.prepare_feeds(d, ga, gb, inputs)
    assert len(drawn) == 1        # make_inputs' own int8 draw (64 bytes, within the limit)
    monkeypatch.setattr(feed_budget, "feed_limit", lambda: (64 + 256 + 64, "a test's limit"))
    feeds_a, feeds_b, _ = numeric.prepare_feeds(d, ga, gb, inputs)
    assert sum(v.nbytes for v in feeds_a.values()) == 64
    assert sum(v.nbytes for v in feeds_b.values()) == 256


def test_a_quantized_input_without_a_zero_point_is_read_as_zero_not_an_index_error():
    """Review of c39c8dd: input_quantization read quant_zero_point's first value, and a
    .tflite input with a scale but no zero point (the schema's field left out: a hostile or
    hand-made file; the loader keeps what the file has) raised IndexError out of Run both's
    feeds. A zero point left out is 0, as compare.changes reads it."""
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()
    node = gd.node.add(name="x", op="Placeholder")
    node.attr["tflite_type"].s = b"INT8"
    node.attr["quant_scale"].list.f.append(0.5)
    assert numeric.input_quantization(Graph(gd), "x") == ("int8", 0.5, 0)
