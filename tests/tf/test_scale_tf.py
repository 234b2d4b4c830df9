"""Big models: weights read only when someone looks at them, flat graphs grouped, and the scale
benchmark's measurements run functionally on a 100k-node graph (generous bounds: the figures
themselves are bench/scale.py's).

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_scale.py, tests/gui/test_scale_gui.py."""

from __future__ import annotations

import os
import shutil

import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from inspector.core.model import protos


def test_the_whole_graph_def_equals_a_full_parse(fx):
    path = os.path.join(fx, "mobilenet_v2.pb")
    graph = load(path).graph
    assert graph.lazy
    with open(path, "rb") as fh:
        full = protos.GraphDef.FromString(fh.read())
    assert graph.graph_def == full
    assert not graph.lazy


def test_weights_of_a_file_changed_after_opening_are_refused(fx, tmp_path):
    path = str(tmp_path / "m.pb")
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), path)
    graph = load(path).graph
    lazy = next(n.name for n in graph if n.op == "Const" and
                graph.weights.slot(n.index) is not None)
    with open(path, "ab") as fh:
        fh.write(b"\0" * 16)
    with pytest.raises(ModelLoadError, match="changed on disk"):
        graph.tensor_value(lazy)


def test_a_saved_model_past_2_gb_opens_unfrozen_and_says_why():
    """Building the 2.5 GB fixture takes ~20 s once (cached after)."""
    from tests.fixtures.big_saved_model import big_saved_model, can_build

    if not can_build():
        pytest.skip("needs 10 GB free on the cache's disk to build a 2.5 GB SavedModel")
    path = big_saved_model()
    model = load(path)          # asks to freeze, as the app does by default
    assert not model.frozen
    assert any("2.5 GB" in n and "2 GB limit" in n and "TensorFlow Lite" in n
               for n in model.notes), model.notes
    variables = [n for n in model.graph if n.op == "VarHandleOp"]
    assert len(variables) == 5
    from inspector.core.analysis.summary import summarize

    assert summarize(model.graph).variable_parameters == 5 * 128 * 2 ** 20
