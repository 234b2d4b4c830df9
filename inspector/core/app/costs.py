"""What a model costs to run, for `graphdef-inspector flops`: a .tflite counted from its own
tensors (no TensorFlow), with the latency estimate per device class."""

from __future__ import annotations

import os

from inspector.core.analysis.graph_flops import graph_flops
from inspector.core.analysis.metrics import latencies
from inspector.core.loaders import load
from inspector.core.loaders.tflite import is_tflite


def tflite_flops(path: str, speed=None):
    """(FLOP report, latency per device) of a .tflite file; None for any other model (or a
    path that cannot be read: the loader says what is wrong with it)."""
    try:
        if not os.path.isfile(path):    # a FIFO or a device is never opened (it may block)
            return None
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError:
        return None
    if not is_tflite(head):
        return None
    report = graph_flops(load(path).graph)
    return report, latencies(report, speed)
