"""The sizes shown for a .tflite (summarize's "Size by op type", `sizes`, the Sizes panel)
are its file's bytes, as TFLite's own reader sees them: each constant takes its buffer's
values (what flatbuffer_utils reads: tflite-info's "Biggest buffers"), its quantization lists
and its tensor table; the nodes add up to the file but for the model's own fields. They were
the bytes of the GraphDef drawn from it: fer's emotion_model_quantized.tflite (93,160 bytes)
summed to 98,028 in `sizes` (97,789 in summarize's table), basic-pitch's nmp.tflite (204,448)
to 238,291, and `sizes` gave tfl.pseudo_qconst1 17,203 bytes where its buffer holds 16,384
and its 128 per-channel scales and zero points 1,544 more."""

from __future__ import annotations

import os

import pytest
from conftest import run_cli

from inspector.core.analysis.sizes import node_sizes
from inspector.core.analysis.summary import summarize
from inspector.core.app.opening import open_model
from tests.fixtures import wild_models

pytest.importorskip("tensorflow")


def _wild(name: str) -> str:
    try:
        return wild_models.model(name)
    except wild_models.Unavailable as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("name", ["fer_tflite", "basic_pitch_tflite"])
def test_a_tflite_s_sizes_are_its_file_s_bytes(name):
    from tensorflow.lite.tools import flatbuffer_utils

    path = _wild(name)
    file_size = os.path.getsize(path)
    fb = flatbuffer_utils.read_model(path)
    main = fb.subgraphs[0]
    model = open_model(path)
    sizes = node_sizes(model.graph)
    total = sum(sizes.values())
    # the nodes add up to the file, but for the model's own fields (op codes, signatures,
    # metadata buffers, padding): a few hundred bytes to a few KB here
    metadata = sum(len(fb.buffers[m.buffer].data) for m in fb.metadata or []
                   if fb.buffers[m.buffer].data is not None)
    assert 0 < file_size - total < 2048 + metadata, (file_size, total)
    summary = summarize(model.graph)
    assert sum(summary.bytes_by_op.values()) == total
    consts = {n.proto.attr["tflite_tensor"].s.decode(): n.name for n in model.graph.nodes
              if n.op == "Const"}          # tensor name -> node name (a base of it)
    checked = 0
    for t in main.tensors:
        name_ = consts.get(t.name.decode())
        data = fb.buffers[t.buffer].data
        if name_ is None or data is None:
            continue
        q = t.quantization
        lists = 0 if q is None else sum(4 + 4 * len(v) for v in (q.scale, q.min, q.max)
                                        if v is not None) + \
            (4 + 8 * len(q.zeroPoint) if q.zeroPoint is not None else 0)
        # values (a [ubyte] list: 4-byte length first), quantization lists, name (4-byte
        # length, a 0 after) and shape, exactly; the tables and their vtables: under 120 bytes
        known = 4 + len(data) + lists + 4 + len(t.name) + 1 + 4 + 4 * len(t.shape)
        assert 0 <= sizes[name_] - known < 120, (name_, sizes[name_], known)
        checked += 1
    assert checked == len(consts)
    code, out, err = run_cli("sizes", "--json", path)
    assert code == 0, err
    import json

    shown = json.loads(out)
    assert shown["nodes_total"] == total and shown["remainder"] == file_size - total
