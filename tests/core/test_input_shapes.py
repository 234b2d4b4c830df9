"""An input's shape as the window finds it (core.app.inputs.known_shapes, which the command
line uses too): given, else declared, else inferred (asked only when needed), else the feed
shape of a decoding chain; without any, the conversion preview says how to give one."""

from __future__ import annotations

import os

import pytest

from inspector.core.analysis.preprocessing import find_preprocessing_chains
from inspector.core.app.inputs import known_shapes
from inspector.core.errors import InspectorError
from inspector.core.loaders import load

GRAPH = """
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: -1 } dim { size: 4 } } } } }
node { name: "u" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "Relu" input: "u" attr { key: "T" value { type: DT_FLOAT } } }
"""


@pytest.fixture
def graph(tmp_path):
    path = tmp_path / "g.pbtxt"
    path.write_text(GRAPH)
    return load(str(path)).graph


def test_declared_first_and_inference_asked_only_when_needed(graph):
    asked = []

    def inferred():
        asked.append(1)
        return {"u": [(None, 7)]}

    shapes, types, origin = known_shapes(graph, ["x"], {}, inferred, [])
    assert shapes == {"x": (1, 4)} and origin == {"x": "declared"} and not asked
    assert types == {"x": "float"}
    shapes, _, origin = known_shapes(graph, ["x", "u"], {}, inferred, [])
    assert shapes["u"] == (1, 7) and origin["u"] == "inferred by TensorFlow" and asked == [1]
    shapes, _, origin = known_shapes(graph, ["u"], {"u": (2, 3)}, inferred, [])
    assert shapes == {"u": (2, 3)} and origin == {}          # given: nothing to say


def test_the_decoding_chain_gives_the_feed_shape(data):
    g = load(os.path.join(data, "inception_jpeg.pb")).graph
    shapes, _, origin = known_shapes(g, ["Mul"], {}, {}, find_preprocessing_chains(g))
    assert shapes == {"Mul": (1, 299, 299, 3)}
    assert origin == {"Mul": "the decoding chain's output"}


def test_no_shape_anywhere_says_how_to_give_one(graph):
    from inspector.core.mobile.tflite_preview import gather_samples

    with pytest.raises(InspectorError) as caught:
        gather_samples(graph, ["u"], None, {"kind": "random", "count": 1})
    text = caught.value.one_line()
    assert "node 'u'" in text and "mark an input whose shape is known" in text
    assert "--input-shape NAME=D,D,..." in text
