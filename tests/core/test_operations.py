"""Worker operations as one typed protocol: the in-process executor implements every method
with the same signature, the worker client and the remote preview engine are derived from the
protocol, and the server accepts exactly those names."""

from __future__ import annotations

import inspect

from inspector.core.app.preview import MODEL_OPERATIONS, PreviewEngine
from inspector.core.runtime.operations import NAMES, TensorFlowOperations
from inspector.worker.client import WorkerClient
from inspector.worker.remote_preview import RemotePreview


def _params(fn) -> list:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()
            if p.name != "self"]


def test_the_in_process_executor_implements_each_operation_with_its_signature():
    from inspector.core.tf.executor import InProcess

    here = InProcess()
    for name in NAMES:
        assert _params(getattr(here, name)) == _params(getattr(TensorFlowOperations, name)), name
        assert getattr(TensorFlowOperations, name).__doc__, name


def test_the_client_is_derived_from_the_protocol():
    for name in NAMES:
        method = getattr(WorkerClient, name)
        assert inspect.signature(method) == inspect.signature(
            getattr(TensorFlowOperations, name)), name
    assert not hasattr(WorkerClient, "no_such_operation")


def test_the_remote_engine_offers_every_engine_operation():
    assert {"run", "graph", "check", "save", "profile", "calibrate", "demo_run",
            "infer_shapes", "tflite_preview", "tflite_confirm", "ops_header"} <= set(MODEL_OPERATIONS)
    for name in MODEL_OPERATIONS:
        assert inspect.signature(getattr(RemotePreview, name)) == inspect.signature(
            getattr(PreviewEngine, name)), name


def test_a_remote_call_names_the_operation_and_the_model(monkeypatch):
    calls = []

    class Client:
        def call(self, *args, **kwargs):
            calls.append((args, kwargs))
            return "answer"

    remote = RemotePreview(Client(), "REF")
    assert remote.profile(["x"], ["y"], {}, "random", {}, 1, 2, 0, 1, allow_io=True) == "answer"
    assert calls == [(("model", "REF", "profile", ["x"], ["y"], {}, "random", {}, 1, 2, 0, 1),
                      {"allow_io": True})]


def test_the_worker_serves_only_the_engine_operations():
    import pytest

    from inspector.worker.preview_host import PreviewHost

    with pytest.raises(ValueError, match="unknown model operation"):
        PreviewHost().operations()["model"](None, "__init__")


def test_a_graph_def_inside_a_dict_travels_as_its_serialization():
    """compare_runs sends each side as a dict holding its GraphDef: pickled as a message, a
    100 MB graph held the GIL (and the window) for one C call; as GraphBytes it is made node
    by node and parsed back in pieces."""
    from inspector.core.model import protos
    from inspector.worker.protocol import GraphBytes, pack, unpack

    gd = protos.GraphDef()
    gd.node.add(name="x", op="Placeholder")
    packed = pack({"graph_def": gd, "feeds": {"x:0": 1}, "fetches": ["x:0"]})
    assert isinstance(packed["graph_def"], GraphBytes) and packed["feeds"] == {"x:0": 1}
    back = unpack(packed)
    assert back["graph_def"] == gd and back["fetches"] == ["x:0"]


def test_what_the_pipe_shared_stays_shared_and_unchanged_values_are_not_copied():
    """infer_shapes answers {node: shapes} with one list per distinct shape (the pickle's memo
    keeps that across the pipe): unpacking the answer must not copy every node's list (it did
    once dicts were walked: 1053 lists for MobileNetV2's 72 shapes), nor walk one twice."""
    import pickle

    from inspector.core.model import protos
    from inspector.worker.protocol import pack, unpack

    one, other = [(1, 8)], [(2,)]
    shapes = pickle.loads(pickle.dumps({f"n{i}": (one if i % 3 else other) for i in range(300)}))
    back = unpack(shapes)
    assert back is shapes and len({id(v) for v in back.values()}) == 2
    gd = protos.GraphDef()
    gd.node.add(name="x", op="Placeholder")
    mixed = {"graph_def": gd, "shapes": shapes, "again": shapes}
    back = unpack(pack(mixed))
    assert back["graph_def"] == gd and back["shapes"] is shapes and back["again"] is shapes
