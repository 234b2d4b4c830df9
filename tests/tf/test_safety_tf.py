"""A model is untrusted input: nothing in it runs, folds or loads unless every op it reaches is
pure computation or the user said yes. Each hostile fixture would write a marker file or leak a
secret; the marker must not appear, and with permission it does (so the fixture is real).

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_safety.py, tests/cli/test_safety_cli.py."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from inspector.core.errors import InspectorError, UnsafeGraphError
from inspector.core.model import safety
from tests.fixtures import hostile_models as H

X = {"x": np.ones(2, np.float32)}


def _refused_then_written(graph_def, marker, run):
    with pytest.raises(UnsafeGraphError) as info:
        run(False)
    assert info.value.findings and not os.path.exists(marker)
    run(True)
    assert os.path.exists(marker), "the fixture did not write its marker even with permission"
    return info.value


@pytest.mark.parametrize("make", [H.write_in_function, H.write_in_branch, H.op_named_function,
                                  H.print_to_file], ids=lambda f: f.__name__)
def test_check_outputs_refuses_ops_inside_functions(make, tmp_path):
    from inspector.core.analysis.numeric_check import numeric_check

    marker = str(tmp_path / "marker")
    gd = make(marker)
    exc = _refused_then_written(gd, marker, lambda allow: numeric_check(
        gd, gd, ["x"], ["y"], {"x": (2,)}, allow_io=allow))
    text = exc.one_line()
    assert "via function" in text and "not pure computation" in text


def test_profile_and_the_tf_layer_refuse_the_same_graph(tmp_path):
    from inspector.core.overlays.profiling import run_profile
    from inspector.core.runtime.executor import tensorflow
    from inspector.core.tf import run as tf_run

    marker = str(tmp_path / "marker")
    gd = H.write_in_function(marker)
    with pytest.raises(UnsafeGraphError):
        run_profile(gd, ["x"], ["y"], {"x": (2,)}, runs=1, warmup=0)
    with pytest.raises(UnsafeGraphError):  # the TF layer checks too, whoever calls it
        tensorflow().run_graph(gd, X, ["y"])
    with pytest.raises(UnsafeGraphError):
        with tf_run.session_for(gd) as run:
            run(X, ["y"])
    assert not os.path.exists(marker)


@pytest.mark.parametrize("kind,op,writes", [
    ("write_file", "WriteFile", True), ("save", "Save", True),
    ("dataset_to_tfrecord", "DatasetToTFRecord", True), ("debug_identity", "DebugIdentity", True),
    ("read_file", "ReadFile", False), ("matching_files", "MatchingFiles", False),
    ("tfrecord", "OneShotIterator", False), ("textline", "OneShotIterator", False),
    ("pyfunc", "PyFunc", False)])
def test_classic_file_and_python_ops_never_run_without_consent(kind, op, writes, tmp_path):
    from inspector.core.runtime.executor import tensorflow

    target = str(tmp_path / "target")
    if not writes:
        with open(target, "w") as fh:
            fh.write("SECRET")
    gd = H.plain_ops(kind, target)
    assert op in {f.op for f in safety.assess(gd, ["y"], ["x"])}
    with pytest.raises(UnsafeGraphError):
        tensorflow().run_graph(gd, X, ["y"])
    if writes:
        assert not os.path.exists(target) and not os.path.exists(target + ".tfrecord")
        tensorflow().run_graph(gd, X, ["y"], allow_unsafe=True)  # the fixture really writes
        assert [f for f in os.listdir(tmp_path) if f.startswith("target")]


def test_dataset_ops_and_immutable_const_are_not_pure(tmp_path):
    gd = H.plain_ops("textline", str(tmp_path / "lines.txt"))
    ops = {f.op for f in safety.assess(gd)}
    assert "TextLineDataset" in ops or "TextLineDatasetV2" in ops or \
        any("Dataset" in op for op in ops)
    assert {f.op for f in safety.assess(H.immutable_const("/etc/hostname"))} == {"ImmutableConst"}


def test_every_op_of_the_fixture_corpus_is_allowed(fx):
    from inspector.core.loaders import load

    for name in ("mobilenet_v2.pb", "inception_jpeg.pb", "v1_training.pb", "while_v1.pb",
                 "while_v2.pb"):
        findings = safety.assess(load(os.path.join(fx, name)).graph.graph_def)
        allowed = {"SaveV2", "RestoreV2", "MergeV2Checkpoints", "ScalarSummary",
                   "HistogramSummary", "MergeSummary"}  # the training graph's saver/summaries
        assert {f.op for f in findings} <= allowed, (name, findings[:3])


def test_fold_constants_never_evaluates_or_leaks_a_file_read(tmp_path):
    from inspector.core.transforms import run_pipeline

    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET-1234")
    gd = H.read_secret_foldable(str(secret))
    out = run_pipeline(gd, "fold_constants", ["x"], ["n", "y"])[-1].graph_def
    assert b"TOPSECRET" not in out.SerializeToString()
    assert any(n.op in ("PartitionedCall", "StatefulPartitionedCall") for n in out.node)


def test_fold_constants_does_not_run_a_write_in_a_function(tmp_path):
    from inspector.core.transforms import run_pipeline

    marker = str(tmp_path / "marker")
    gd = H.write_in_function(marker)
    run_pipeline(gd, "fold_constants", ["x"], ["y"])
    assert not os.path.exists(marker)


@pytest.mark.parametrize("make", [H.saved_model_tf1_main_op, H.saved_model_tf2_initializer],
                         ids=["tf1-main-op", "tf2-resource-initializer"])
def test_saved_model_initialisers_are_checked_before_loading(make, tmp_path):
    from inspector.core.loaders import load

    marker = str(tmp_path / "marker")
    path = make(str(tmp_path), marker)
    with pytest.raises(UnsafeGraphError) as info:
        load(path)
    assert "WriteFile" in info.value.one_line() and not os.path.exists(marker)
    assert len(load(path, freeze=False).graph) > 0 and not os.path.exists(marker)
    load(path, allow_unsafe=True)
    assert os.path.exists(marker)


@pytest.mark.parametrize("mutual", [False, True])
def test_recursive_function_libraries_never_reach_tensorflow(mutual):
    from inspector.core.runtime.executor import tensorflow

    gd = H.recursive_library(mutual)
    with pytest.raises(InspectorError, match="calls itself"):
        tensorflow().infer_shapes(gd)
    with pytest.raises(InspectorError, match="calls itself"):
        tensorflow().run_graph(gd, X, ["y"], allow_unsafe=True)  # refused even with permission


def test_a_session_file_asking_for_fold_constants_runs_nothing_by_itself(tmp_path):
    """Opening the model restores the pipeline and previews it: the write inside the
    function must not happen, and nothing is written beside the model."""
    from inspector.core.app.preview import PreviewEngine
    from inspector.core.app.workbench import Workbench
    from inspector.core.formats.writer import write_graph

    marker = str(tmp_path / "marker")
    model = str(tmp_path / "model.pb")
    write_graph(H.write_in_function(marker), model)
    session = {"version": 1, "inputs": ["x"], "outputs": ["y"], "input_shapes": {"x": [2]},
               "pipeline": [{"name": "fold_constants", "params": {}, "enabled": True}]}
    (tmp_path / "model.pb.inspector.json").write_text(json.dumps(session))
    before = sorted(os.listdir(tmp_path))
    bench = Workbench()
    bench.restore(model)
    from inspector.core.loaders import load

    rows = PreviewEngine(load(model).graph.graph_def).run(bench.steps, bench.inputs,
                                                          bench.outputs, {"x": (2,)})
    assert rows[-1].error == "" and not os.path.exists(marker)
    assert sorted(os.listdir(tmp_path)) == before
