"""The Qt-free view model: what is drawn for which expanded scopes, and the layout.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_view_graph.py."""

import os

from inspector.core.loaders import load
from inspector.core.view.view_graph import ViewModel


def test_left_to_right_and_repeated_blocks(fx):
    graph = load(os.path.join(fx, "mobilenet_v2.pb")).graph
    vm = ViewModel(graph)
    top = "mobilenetv2_1.00_224_1"
    scene = vm.scene(expanded={top})
    expand = scene.items[f"{top}/block_1_expand_1/"]
    assert expand.alike >= 16  # every expand conv of MobileNetV2 has the same ops
    vm.direction = "LR"
    lr = vm.scene(expanded={top})
    assert lr.width > lr.height and scene.height > scene.width
