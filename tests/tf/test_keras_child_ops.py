"""The command's Keras child answers its TensorFlow operations (tf/child_ops): the same
answers as here, and a child that dies in one is one line, after which they run here."""

import os
import signal

import pytest

from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.runtime import front_end
from inspector.core.runtime.executor import install_in_process, tensorflow
from inspector.core.tf import child_ops

TINY = os.path.join(os.path.dirname(os.path.dirname(__file__)), "core", "data", "tiny.keras")


def test_a_serving_child_answers_like_here_and_its_death_is_one_line(monkeypatch):
    install_in_process()
    here = load(TINY)                           # (not the command line: loaded here)
    shapes_here = tensorflow().infer_shapes(here.graph.graph_def, {"pixels": (1, 8, 8, 1)})
    monkeypatch.setattr(front_end, "KERAS_IN_CHILD", True)
    try:
        model = load(TINY)
        server = child_ops._server
        assert server is not None and model.kind == "keras"
        assert tensorflow().infer_shapes(model.graph.graph_def,
                                         {"pixels": (1, 8, 8, 1)}) == shapes_here
        os.kill(server.child.pid, signal.SIGKILL)
        with pytest.raises(InspectorError) as info:
            tensorflow().infer_shapes(model.graph.graph_def, {"pixels": (1, 8, 8, 1)})
        assert "was ended by signal 9 while running infer_shapes" in info.value.message
        assert child_ops._server is None        # what follows runs here
        assert tensorflow().infer_shapes(model.graph.graph_def,
                                         {"pixels": (1, 8, 8, 1)}) == shapes_here
    finally:
        child_ops.stop()


def test_a_forked_copy_of_the_command_runs_its_operations_itself(monkeypatch):
    """runtime/apart's copy (the diff's costs) shares the serving child's pipes with the
    command: its requests would interleave with the command's. It runs them itself."""
    calls = []

    class Owned:
        owner = os.getpid() + 1          # made by another process (the copy's parent)

        def call(self, name, request):
            calls.append(name)

    monkeypatch.setattr(front_end, "KERAS_IN_CHILD", True)
    monkeypatch.setattr(child_ops, "_server", Owned())
    monkeypatch.setattr(child_ops, "_functions", {})
    op = child_ops.forwarding("infer_shapes_test", lambda x: x + 1)
    assert op(1) == 2 and calls == []
    monkeypatch.setattr(Owned, "owner", os.getpid())
    op(1)
    assert calls == ["infer_shapes_test"]
