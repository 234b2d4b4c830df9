"""Made-up inputs (analysis.numeric_check.make_inputs): a training switch gets False."""

import numpy as np
import pytest

from inspector.core.analysis.numeric_check import make_inputs
from inspector.core.errors import InspectorError
from inspector.core.model import protos
from inspector.core.model.graph import Graph

BOOL, FLOAT = 10, 1   # DataType enum values


def _graph(switch_shape):
    """An image placeholder [?,4] and a bool placeholder: unknown shape (None), or dims."""
    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = FLOAT
    for d in (-1, 4):
        x.attr["shape"].shape.dim.add(size=d)
    s = gd.node.add(name="is_training", op="Placeholder")
    s.attr["dtype"].type = BOOL
    if switch_shape is None:
        s.attr["shape"].shape.unknown_rank = True
    else:
        for d in switch_shape:
            s.attr["shape"].shape.dim.add(size=d)
    return Graph(gd)


@pytest.mark.parametrize("shape", [None, ()], ids=["unknown shape", "scalar"])
@pytest.mark.parametrize("mode", ["random", "zeros"])
def test_a_training_switch_is_fed_false_and_the_rest_as_before(shape, mode):
    """musicnn's model/Placeholder_2 (bool, no shape) stopped the window's profile with
    "give --input_shape", a flag the window has no field for; a random True would run the
    training branch."""
    feeds = make_inputs(_graph(shape), ["x", "is_training"], {}, mode, seed=3)
    assert list(feeds) == ["x", "is_training"]
    assert feeds["is_training"].shape == () and feeds["is_training"].dtype == np.bool_
    assert not feeds["is_training"]
    assert feeds["x"].shape == (1, 4) and feeds["x"].dtype == np.float32


def test_a_bool_input_of_known_rank_is_made_up_as_before():
    feeds = make_inputs(_graph((2, 3)), ["is_training"], {}, "random", seed=3)
    assert feeds["is_training"].shape == (2, 3)


def test_a_float_input_of_unknown_shape_still_asks_for_its_shape():
    gd = protos.GraphDef()
    gd.node.add(name="y", op="Placeholder").attr["dtype"].type = FLOAT
    with pytest.raises(InspectorError, match="'y' has no known shape"):
        make_inputs(Graph(gd), ["y"], {}, "random")


def test_an_input_of_no_known_shape_says_what_to_do_in_the_front_end_s_words():
    """hostile15b: core said "give --input_shape" to the window too. It says it plainly, each
    front end in its own words (its hint table: errors.said), also for an error raised in the
    app's worker and read in the window (the line is made where it is shown)."""
    import pickle

    from inspector.core import errors

    gd = protos.GraphDef()
    gd.node.add(name="y", op="Placeholder").attr["dtype"].type = FLOAT
    with pytest.raises(InspectorError) as caught:
        make_inputs(Graph(gd), ["y"], {}, "random")
    assert caught.value.hint == "input_size" and "--input_shape" not in str(caught.value)
    assert str(caught.value).endswith("has no known shape: give its size")    # core's words
    wire = pickle.loads(pickle.dumps(caught.value))
    assert errors.said(wire, {"input_size": "use the field"}) == (
        "node 'y': input 'y' has no known shape: use the field")
