"""Targets are a registry (issue 46.5): a new target is its report function and one
`register` line; the picker's rows, the CLI's names, the report and the choice of a
GraphDef's file (quantized or float) all follow it. No TensorFlow: a list-based target on
a committed .tflite."""

from __future__ import annotations

import os
from types import SimpleNamespace

from inspector.core.app import targets as app_targets
from inspector.core.loaders import load
from inspector.core.mobile import target_registry, targets
from inspector.core.mobile.measured import Measured, Row


def test_a_new_target_is_one_function_and_one_register_line(data):
    def toy(data_bytes, model, nodes, name, job):            # every op on the accelerator
        return targets.TargetReport(name, "Toy NPU", "a test", tuple(
            targets.Placement(op.index, op.op, nodes.get(op.index, ""), True)
            for op in model.subgraphs[0].operators))

    targets.register("toy-npu", "Toy NPU (a test)", True, toy)
    try:
        assert ("toy-npu", "Toy NPU (a test)") in app_targets.choices()
        assert targets.parse_target("TOY-NPU") == "toy-npu"
        model = load(os.path.join(data, "digits_int8.tflite"))
        found = targets.report(open(model.path, "rb").read(), model.tflite, model.graph,
                               "toy-npu")
        assert found.label == "Toy NPU" and found.share == 1.0 and len(found.ops) == 6
        rows = [Row("float", model=b"f", mapping=object()),
                Row("int8", model=b"q", mapping=object())]
        state = SimpleNamespace(quant=None, tflite_preview=Measured(rows), model=model)
        assert app_targets.subject_for(state, "toy-npu").name == "the int8 variant"
        assert app_targets.subject_for(state, "cpu").name == "the float variant"
    finally:
        target_registry._TARGETS.pop("toy-npu")
    assert "toy-npu" not in targets.names()
