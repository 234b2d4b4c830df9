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
    assert "node 'u'" in text and "(mark an input whose shape is known): give" in text
    assert "command line" not in text     # each front end says how (errors.said), the window
    #                                       its Input sizes field, not an option
    from inspector.gui.wording import said

    assert said(caught.value).endswith(
        "(mark an input whose shape is known): give its size in Phone > Conversion "
        "preview > Input sizes")


def test_an_input_leaving_sizes_open_is_warned_of_in_each_front_end_s_words(tmp_path):
    """The preview's warning for an input that leaves sizes open ended with the hint in the
    words of whichever front end set errors.HINTS last (one global table). It is a line that
    keeps its hint's kind, across the worker pipe too: core's plain words as a str, each front
    end's when it shows it."""
    import pickle

    from inspector.cli import wording as cli
    from inspector.core.mobile.tflite_preview import gather_samples
    from inspector.gui import wording as gui

    path = tmp_path / "open.pbtxt"
    path.write_text(GRAPH.replace("dim { size: -1 } dim { size: 4 }",
                                  "dim { size: 1 } dim { size: -1 } dim { size: 4 }"))
    _, _, warnings = gather_samples(load(str(path)).graph, ["x"], None,
                                    {"kind": "random", "count": 1})
    line = pickle.loads(pickle.dumps(warnings[0]))
    said = "input 'x' leaves sizes open ([1,?,4]): the samples are [1,1,4]: for meaningful figures"
    assert line == f"{said}, give its size"
    assert gui.said(line) == f"{said}, give its size in Phone > Conversion preview > Input sizes"
    assert cli.said(line) == f"{said}, give --input_shape NAME=d0,d1,..."
    assert gui.said(line).endswith("Input sizes")       # whichever was asked last


def test_input_sizes_take_a_tensor_name_at_port_0_and_refuse_an_input_given_twice():
    """parse_sizes (--input-shape; the window's Input sizes field): `image:0=...`, the tensor
    name users copy from TensorFlow, was kept as a node "image:0" ("no such node"): it is
    the node image. Two items for one input silently took the last: refused, naming it;
    so is another port than 0, in one line each."""
    from inspector.core.app.inputs import parse_sizes

    assert parse_sizes(["image:0=1,2,2,3", "mask=1,2"]) == {"image": [1, 2, 2, 3],
                                                            "mask": [1, 2]}
    for items, said in (
            (["image=1,2,2,3", "image=1,4,4,3"],
             "--input-shape image=1,4,4,3: input image is given twice (also image=1,2,2,3)"),
            (["image=1,2,2,3", "image:0=1,4,4,3"], "input image is given twice"),
            (["image:1=1,2,2,3"], "--input-shape image:1=1,2,2,3: an input is a node's "
                                  "output 0 (image or image:0), not :1"),
            (["image:x=1,2"], "not :x"),
            ([":0=1,2"], "expected NAME=D,D,...")):
        with pytest.raises(InspectorError) as caught:
            parse_sizes(items, "--input-shape")
        text = caught.value.one_line()
        assert said in text and "\n" not in text, (items, text)
