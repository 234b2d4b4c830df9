"""A model is untrusted input: nothing in it runs, folds or loads unless every op it reaches is
pure computation or the user said yes. Each hostile fixture would write a marker file or leak a
secret; the marker must not appear, and with permission it does (so the fixture is real).

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_safety_tf.py, tests/cli/test_safety_cli.py."""

from __future__ import annotations

import json
import os

import pytest

from inspector.core.errors import InspectorError, UnsafeGraphError
from inspector.core.model import safety


def test_allowlist_is_an_allowlist():
    for op in ("WriteFile", "ReadFile", "PyFunc", "EagerPyFunc", "DatasetToTFRecord",
               "TextLineDataset", "MatchingFiles", "SaveV2", "RestoreV2", "ImmutableConst",
               "DebugIdentity", "DebugIdentityV2", "Abort", "TFRecordDataset", "RpcCall",
               "InitializeTableFromTextFileV2", "GenerateVocabRemapping"):
        assert op not in safety.PURE_OPS, op
    for op in ("Conv2D", "MatMul", "Relu6", "FusedBatchNormV3", "DecodeJpeg", "StatelessIf",
               "PartitionedCall", "Placeholder", "Const", "Softmax", "QuantizeV2"):
        assert op in safety.PURE_OPS, op


def test_keras_lambda_layer_is_refused_by_name(tmp_path):
    from inspector.core.loaders import load
    from tests.fixtures.hostile import inputs

    with pytest.raises(UnsafeGraphError, match="Lambda layer 'sneaky'"):
        load(inputs.keras_lambda(str(tmp_path)))


def test_session_file_paths_outside_its_folder_are_held_back(tmp_path):
    from inspector.core.app.workbench import Workbench
    from inspector.core.formats.writer import write_graph
    from tests.fixtures.hostile import inputs

    model = inputs.good(str(tmp_path))
    session = {"version": 1, "pipeline": [
        {"name": "freeze_requantization_ranges",
         "params": {"min_max_log_file": ["/etc/hostname"]}},
        {"name": "freeze_requantization_ranges",
         "params": {"min_max_log_file": ["ranges.log"]}}]}
    (tmp_path / "good.pb.inspector.json").write_text(json.dumps(session))
    bench = Workbench()
    bench.restore(model)
    assert [s.enabled for s in bench.steps] == [False, True]
    assert "/etc/hostname" in bench.warnings[0]
    del write_graph


@pytest.mark.parametrize("body,fragment", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("not json", "not JSON"),
    ('{"version": "7"}', "unknown version"),
    ('{"inputs": ["x"]}', "unknown version"),
], ids=["deep", "text", "version-text", "no-version"])
def test_a_bad_session_file_is_reported_and_left_untouched(body, fragment, tmp_path):
    from inspector.core.app.workbench import Workbench
    from tests.fixtures.hostile import inputs

    model = inputs.session(str(tmp_path), body)
    bench = Workbench()
    with pytest.raises(InspectorError, match=fragment):
        bench.restore(model)
    assert open(model + ".inspector.json").read() == body  # opening writes nothing
    assert bench.steps == [] and bench.unreadable
    bench.save(model)  # the first save moves it aside, never over it
    kept = [f for f in os.listdir(tmp_path) if ".unreadable-" in f]
    assert len(kept) == 1 and open(tmp_path / kept[0]).read() == body


@pytest.mark.parametrize("body,fragment", [
    ('{"version": 1, "outputs": ["y"], "input_shapes": []}', "input_shapes"),
    ('{"version": 1, "outputs": ["y"], "pipeline": [{"name": "remove_device", '
     '"params": []}]}', "params"),
    ('{"version": 1, "outputs": ["y"], "inputs": "x"}', "inputs"),
    ('{"version": 1, "outputs": ["y"], "pipeline": [{"name": "x", "enabled": "yes"}]}',
     "enabled"),
], ids=["shapes-list", "params-list", "inputs-string", "enabled-string"])
def test_a_bad_part_of_a_session_file_is_dropped_and_the_file_kept(body, fragment, tmp_path):
    """One bad part does not cost the others: it is dropped and said; the file is moved
    aside, never written over, at the first save."""
    from inspector.core.app.workbench import Workbench
    from tests.fixtures.hostile import inputs

    model = inputs.session(str(tmp_path), body)
    bench = Workbench()
    bench.restore(model)
    assert any(fragment in w for w in bench.warnings) and bench.outputs == ["y"]
    assert open(model + ".inspector.json").read() == body  # opening writes nothing
    bench.save(model)
    kept = [f for f in os.listdir(tmp_path) if ".partly-read-" in f]
    assert len(kept) == 1 and open(tmp_path / kept[0]).read() == body


def test_a_fifo_session_file_is_refused_without_blocking(tmp_path):
    from inspector.core.app.workbench import Workbench
    from tests.fixtures.hostile import inputs

    model = inputs.good(str(tmp_path))
    os.mkfifo(model + ".inspector.json")
    with pytest.raises(InspectorError, match="not a regular file"):
        Workbench().restore(model)


def test_chrome_traces_with_bad_durations_load_what_is_usable():
    from inspector.core.overlays.profiling import parse_chrome_trace

    events = [{"ph": "X", "name": "a", "dur": 10}, {"ph": "X", "name": "b", "dur": "fast"},
              {"ph": "X", "name": "c", "dur": float("nan")}, {"ph": "X", "args": ["x"],
                                                              "name": "d", "dur": 5},
              {"ph": "X", "name": "e", "dur": -3}, {"ph": "X", "name": "f", "dur": 1e300}]
    prof = parse_chrome_trace(json.dumps({"traceEvents": events}).replace("NaN", '"NaN"'))
    assert set(prof.nodes) == {"a", "d"}
    with pytest.raises(InspectorError, match="no complete"):
        parse_chrome_trace(json.dumps([{"ph": "X", "name": "q", "dur": "x"}]))


def _reached_before(graph_def, fetches=None, feeds=()) -> list:
    """reached_nodes as it was before 1M-node Profiles (a NodeDef a name): the reference."""
    from inspector.core.model.safety import _tensor

    if fetches is None:
        return list(graph_def.node)
    fed = {_tensor(f) for f in feeds}
    by_name = {n.name: n for n in graph_def.node}
    stack = [_tensor(f).lstrip("^").rpartition(":")[0] for f in fetches
             if _tensor(f) not in fed]
    seen: set = set()
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        node = by_name.get(name)
        if node is None:
            continue
        seen.add(name)
        for text in node.input:
            if text.startswith("^"):
                stack.append(text[1:])
            elif _tensor(text) not in fed:
                stack.append(_tensor(text).rpartition(":")[0])
    return [n for n in graph_def.node if n.name in seen]


@pytest.mark.parametrize("seed", range(8))
def test_what_a_run_reaches_is_found_as_before_by_names_and_positions(seed):
    """reached_nodes finds the nodes by their names' positions, not a NodeDef a name (~1 s
    less at 1M nodes, in every Profile's safety check): the same nodes in the same order, with
    names held twice (the last node's inputs walked, every such node listed), fed tensors
    cutting their edge only, control inputs, and names of no node."""
    import random

    from inspector.core.model import protos
    from inspector.core.model.safety import reached_nodes

    rng = random.Random(seed)
    gd = protos.GraphDef()
    for i in range(200):
        node = gd.node.add(name=f"n{rng.randrange(180) if rng.random() < 0.1 else i}",
                           op="Identity")
        for _ in range(rng.randint(0, 3)):
            j = rng.randrange(220)
            node.input.append(rng.choice([f"n{j}", f"n{j}:1", f"^n{j}", f"n{j}:0", "",
                                          f"n{j}:x", f"n{j}:1:2", "^", ":0"]))
    for _ in range(5):
        fetches = [rng.choice([f"n{j}", f"n{j}:1", f"^n{j}"]) for j in
                   rng.sample(range(150, 220), 3)]
        feeds = [rng.choice([f"n{j}", f"n{j}:1", f"n{j}:0", f"n{j}:x", f"n{j}:1:2"])
                 for j in rng.sample(range(200), 4)] if rng.random() < 0.8 else []
        got = reached_nodes(gd, fetches, feeds)
        want = _reached_before(gd, fetches, feeds)
        assert [n.SerializeToString() for n in got] == [n.SerializeToString() for n in want]
    assert reached_nodes(gd) == list(gd.node)


def test_what_a_run_reaches_is_found_in_one_pass_over_the_nodes():
    """(Fails on the old code: it went over every node twice, a NodeDef a name, then the
    nodes reached in graph order.)"""
    from inspector.core.model import protos
    from inspector.core.model.safety import reached_nodes

    gd = protos.GraphDef()
    for name in "abcd":
        gd.node.add(name=name, op="Identity", input=["a"] if name != "a" else [])
    passes = []

    class Counting:
        node = property(lambda self: passes.append(1) or gd.node)

    assert [n.name for n in reached_nodes(Counting(), ["c:0"])] == ["a", "c"]
    assert len(passes) == 1
