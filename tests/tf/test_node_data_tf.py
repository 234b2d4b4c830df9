"""A node-data file written by ai-edge-quantizer's `validate` (ComparisonResult.save: the
'_me_input_mse.json' Model Explorer file) imports onto our drawing of the model it validated:
every entry lands on a node, the quantizer's fused tensor names on their operators."""

from __future__ import annotations

import glob
import os

import numpy as np

from inspector.core.analysis.summary import summarize
from inspector.core.app import node_data_io as io
from inspector.core.app.state import AppState
from inspector.core.loaders import load
from inspector.core.view.view_graph import ViewModel


def test_a_quantizer_validate_file_imports_onto_the_tflite_graph(tmp_path):
    from ai_edge_quantizer import quantizer, recipe
    from fixtures.tflite_graphs import signed_conv

    path = tmp_path / "signed.tflite"
    path.write_bytes(signed_conv())
    q = quantizer.Quantizer(str(path))
    q.load_quantization_recipe(recipe.dynamic_wi8_afp32())
    q.quantize()
    rs = np.random.RandomState(0)
    data = {"serving_default": [{"x": rs.rand(1, 8, 8, 3).astype(np.float32)}
                                for _ in range(4)]}
    q.validate(test_data=data).save(str(tmp_path / "out"), "signed")
    me, = glob.glob(os.path.join(tmp_path, "out", "*_me_input_mse.json"))
    model = load(str(path))
    state = AppState()
    state.set_model(model, ViewModel(model.graph), summarize(model.graph))
    placed = io.import_node_data(state, me)
    assert placed.unmatched == () and len(placed.values) == placed.total == 8
    conv = next(n.name for n in model.graph.nodes if n.op == "CONV_2D")
    assert placed.keys[conv] == "relu;conv"             # the fused name, on its operator
    assert placed.values[conv] > 0
    assert placed.thresholds and placed.colours[conv].startswith("#c8")   # rgb(200, ...)
