"""Issue 46.2: the window's remaining tasks as core.app use cases that write into the state
(Qt-free, no TensorFlow: the engine is a stand-in that records what it was asked)."""

from __future__ import annotations

from test_marks_use_cases import AtOnce, _opened

from inspector.core.app.tflite_check import start_preview


class Engine:
    def __init__(self):
        self.asked = []

    def tflite_preview(self, ins, outs, shapes, variants, source, compare, allow_io, job):
        self.asked.append((ins, outs, source, compare, allow_io))
        return type("Preview", (), {"variants": []})()


def test_the_conversion_preview_goes_to_the_state_with_the_marked_ports():
    model, state = _opened()
    state.engine = engine = Engine()
    state.workbench.set_marks(["pixels"], ["output"])
    seen, said = [], []
    state.tflite_preview_changed.connect(seen.append)
    state.message.connect(said.append)
    start_preview(state, AtOnce(), {"kind": "random"}, 3, None)
    assert engine.asked == [(["pixels"], ["output"], {"kind": "random"}, 3, False)]
    assert seen == [state.tflite_preview] and state.tflite_preview is not None
    assert said == ["Converted 0 TFLite variants"]


def test_no_conversion_preview_without_an_engine_or_of_a_tflite_model(monkeypatch):
    model, state = _opened()
    said, failed = [], []
    state.message.connect(said.append)
    state.error.connect(failed.append)
    state.engine = None
    start_preview(state, AtOnce(), None, 0, None)
    assert said == ["Open a model first"] and state.tflite_preview is None
    state.engine = Engine()
    kept = frozenset(c for c in model.capabilities if c != "convert")   # a .tflite's reader
    monkeypatch.setattr(type(model), "capabilities", property(lambda self: kept))
    start_preview(state, AtOnce(), None, 0, None)
    assert failed and "already a TensorFlow Lite model" in failed[0]
    assert state.engine.asked == []


def test_the_pipelines_output_check_goes_to_the_state_for_its_pipeline_only():
    from inspector.core.app.pipeline_runs import start_check

    model, state = _opened()
    asked = []

    class Checking:
        def check(self, key, ins, outs, shapes, allow_io):
            asked.append((key, ins, outs, allow_io))
            return ["result of " + outs[0]]

    def rows(*keys):
        return tuple(type("Row", (), {"key": k})() for k in keys)

    state.engine = Checking()
    assert start_check(state, AtOnce(), None) is False          # no step, no output yet
    state.workbench.set_marks(["pixels"], ["output"])
    state.set_rows(rows(b"k1", b"k2"))
    seen = []
    state.output_check_changed.connect(seen.append)
    assert start_check(state, AtOnce(), None, allow_io=True) is True
    assert asked == [(b"k2", ["pixels"], ["output"], True)]
    assert seen == [state.output_check] and state.output_check.key == b"k2"
    assert state.output_check.results == ["result of output"]

    class Later(AtOnce):          # the pipeline is edited while the check runs
        def submit(self, kind, work, done, failed=None, **_):
            result = work(None)
            state.set_rows(rows(b"k1", b"k3"))
            done(result)

    start_check(state, Later(), None)
    assert len(seen) == 1          # the answer about k2 is not shown for k3


def test_the_pipelines_rows_go_to_the_state_from_its_engine():
    from inspector.core.app.pipeline_runs import start_preview

    model, state = _opened()          # the in-process engine (no worker installed)
    state.workbench.set_marks(["pixels"], ["output"])
    state.workbench.add_step("strip_unused_nodes", None, None)
    seen = []
    state.rows_changed.connect(seen.append)
    assert start_preview(state, AtOnce()) is True
    assert seen and seen[-1] == state.rows and len(state.rows) == 2
    original, stripped = state.rows
    assert stripped.report is not None and not stripped.error
    assert stripped.metrics.node_count <= original.metrics.node_count
    state.engine = None
    assert start_preview(state, AtOnce()) is False


def test_opening_a_model_puts_it_and_its_view_in_the_state(tmp_path):
    from conftest import DEMO

    from inspector.core.app.opening import start_open
    from inspector.core.app.state import AppState

    state = AppState()
    opened, said, errors = [], [], []
    state.model_changed.connect(opened.append)
    state.message.connect(said.append)
    start_open(state, AtOnce(), DEMO, on_choose=None, on_error=errors.append)
    assert opened == [state.model] and state.model.path == DEMO and not errors
    assert state.view is not None and state.view.graph is state.model.graph
    assert state.view.fold_constants != state.show_constants
    bad = tmp_path / "broken.pb"
    bad.write_bytes(b"\x00not a graph")
    start_open(state, AtOnce(), str(bad), on_choose=None, on_error=errors.append)
    assert len(errors) == 1 and state.model.path == DEMO     # the open model stays


def test_a_numeric_comparison_goes_to_its_session_with_the_first_divergence_selected(
        monkeypatch):
    from inspector.core.app import comparing_numeric

    class Session:
        numeric = None
        selected = None

        def select(self, side, name):
            self.selected = (side, name)

    divergence = type("Divergence", (), {"first": "conv1"})()
    asked = []
    monkeypatch.setattr(comparing_numeric, "run_numeric",
                        lambda s, job, allow_io=False, sizes=None:
                        (asked.append(allow_io), divergence)[1])
    session, told = Session(), []
    comparing_numeric.start_numeric(session, AtOnce(), told.append, None, allow_io=True)
    assert asked == [True] and session.numeric is divergence and told == [divergence]
    assert session.selected == ("A", "conv1")


def test_a_comparison_goes_to_the_state_laid_out_in_its_task(tmp_path):
    import shutil

    from conftest import DEMO

    from inspector.core.app import compare_runs

    model, state = _opened()
    state.workbench.set_marks(["pixels"], ["output"])
    opened, laid = [], []
    state.comparison_ready.connect(opened.append)
    copy = tmp_path / "b.pb"
    shutil.copy(DEMO, copy)
    compare_runs.start_compare_with(state, AtOnce(), str(copy),
                                    lambda s, job: (laid.append(s), "pictures")[1], None)
    (result,) = opened
    assert result.session is laid[0] and result.first == "pictures" and not result.lanes
    assert result.session.ports == (["pixels"], ["output"])
    assert result.session.paths == (DEMO, str(copy))
    said = []
    state.message.connect(said.append)
    assert compare_runs.start_stages(state, AtOnce(), None) is False     # nothing previewed
    assert compare_runs.start_compare_step(state, AtOnce(), 1, None, None) is False
    assert len(opened) == 1 and len(said) == 2 and all("Preview a pipeline first" in s
                                                       for s in said)


def test_a_steps_graph_goes_to_the_state_as_a_view_from_the_engine():
    from inspector.core.app.pipeline_runs import start_preview, start_step_view

    model, state = _opened()
    state.workbench.set_marks(["pixels"], ["output"])
    state.workbench.add_step("strip_unused_nodes", None, None)
    start_preview(state, AtOnce())
    key = state.rows[1].key
    start_step_view(state, AtOnce(), key, None)
    graph = state.step_graph(key)
    assert graph is not None and "output" in graph
    assert len(graph) == state.rows[1].metrics.node_count


def test_a_measured_time_goes_to_its_variants_row_in_the_state(tmp_path):
    import pytest

    from inspector.core.app.tflite_check import measure
    from inspector.core.errors import InspectorError

    model, state = _opened()
    row = type("Row", (), {"variant": "int8", "model": b"tflite", "measured_ms": None,
                           "measured_source": "", "mapping": None})()
    preview = type("Preview", (), {"variants": [row]})()
    state.set_tflite_preview(preview)
    seen = []
    state.tflite_preview_changed.connect(seen.append)
    log = tmp_path / "bench.txt"
    log.write_text("INFO: Inference timings in us: Init: 2712, Inference (avg): 612.5\n")
    assert measure(state, "int8", str(log)) == pytest.approx(0.6125)
    assert row.measured_ms == pytest.approx(0.6125) and row.measured_source == "bench.txt"
    assert seen == [preview]
    log.write_text("no timings here\n")
    with pytest.raises(InspectorError):
        measure(state, "int8", str(log))
    with pytest.raises(InspectorError):
        measure(state, "float16", str(log))             # not converted


def test_the_pipeline_editor_asks_the_workbench_for_transforms_and_their_rules():
    from inspector.core.app.workbench import transforms, validate_param

    registry = transforms()
    assert "strip_unused_nodes" in registry and "fold_constants" in registry
    int_param = next(p for info in registry.values() for p in info.params if p.kind == "int")
    assert validate_param(int_param, "3") == ""
    assert validate_param(int_param, "three")                 # says why
    required = next(p for info in registry.values() for p in info.params if p.required)
    assert validate_param(required, "") == f"{required.name} is required"


def test_a_dropped_file_and_a_class_names_file_are_asked_of_the_demo_use_case(tmp_path):
    import pytest

    from conftest import DEMO

    from inspector.core.app.demo_runs import read_labels, runs_on
    from inspector.core.errors import InspectorError

    photo = tmp_path / "cat.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n")
    assert runs_on(str(photo)) and runs_on(str(tmp_path / "x.npy")) and not runs_on(DEMO)
    names = tmp_path / "names.txt"
    names.write_text("cat\ndog\n")
    assert list(read_labels(str(names)).names) == ["cat", "dog"]
    with pytest.raises(InspectorError, match="missing.txt"):
        read_labels(str(tmp_path / "missing.txt"))


def test_the_window_asks_decorations_which_overlays_there_are_and_which_paints():
    from dataclasses import replace

    from inspector.core.app.decorations import overlay_choices, overlay_entry, painting

    model, state = _opened()
    choices = dict(overlay_choices())
    assert "none" in choices and "compat" in choices and overlay_entry("compat").label
    assert overlay_entry("no such overlay") is None
    assert painting(state) is None                               # the op categories paint
    state.set_overlay(replace(state.overlay, mode="compat",
                              compat={n.name: "builtin" for n in model.graph.nodes}))
    assert painting(state) is overlay_entry("compat")


def test_the_ops_header_is_written_in_the_task_and_goes_to_the_state(tmp_path):
    """Phone > Selective build: the engine (the worker in the app) answers, the task writes
    the file atomically, the state holds what the panel shows; a file there is not replaced."""
    from inspector.core.app.selective_build import start_header
    from inspector.core.runtime.job import NO_JOB
    from inspector.core.errors import InspectorError

    model, state = _opened()
    asked = []

    class Registry:
        def ops_header(self, source, job):
            asked.append(source)
            return "// header of " + source, ["Conv2D", "Relu"], ["Conv2DOp"], ["Odd"]

    state.engine = Registry()
    seen, said, failed = [], [], []
    state.ops_header_changed.connect(seen.append)
    state.message.connect(said.append)
    target = tmp_path / "ops_to_register.h"
    start_header(state, AtOnce(), str(target), failed.append)
    assert asked == ["demo_digits.pb"] and not failed
    assert target.read_text() == "// header of demo_digits.pb"
    assert seen == [state.ops_header] and state.ops_header.path == str(target)
    assert state.ops_header.ops == ("Conv2D", "Relu") and state.ops_header.missing == ("Odd",)
    assert said == [f"Wrote {target}: 2 ops, 1 kernel classes"]
    start_header(state, AtOnce(), str(target), failed.append)     # exists: refused, kept
    assert len(failed) == 1 and isinstance(failed[0], InspectorError)
    assert "exists" in failed[0].one_line() and len(seen) == 1
    start_header(state, AtOnce(), str(target), failed.append, force=True)
    assert len(seen) == 2

    class Reopened(AtOnce):       # another model opened while TensorFlow was asked
        def submit(self, kind, work, done, failed=None, **_):
            result = work(NO_JOB)
            _, other = _opened()
            state.set_model(other.model, other.view)
            done(result)

    start_header(state, Reopened(), str(tmp_path / "other.h"), failed.append)
    assert len(seen) == 2 and state.ops_header is None


def test_the_ops_header_of_a_tflite_is_refused_in_one_line_and_nothing_is_written(tmp_path):
    """`ops-header` on a .tflite wrote a header and said "No CPU kernel in this TensorFlow
    for: CONV_2D, FULLY_CONNECTED, ..." (TFLite builtins are not TensorFlow ops, note13's
    leftover): the use case refuses it in one line saying what to use, before TensorFlow is
    asked; the window's task fails with the same line."""
    import os

    from conftest import DATA

    from inspector.core.app.selective_build import start_header
    from inspector.core.app.state import AppState
    from inspector.core.errors import InspectorError
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    model = load(os.path.join(DATA, "digits_int8.tflite"))
    state = AppState()
    state.set_model(model, ViewModel(model.graph))

    class Registry:
        def ops_header(self, source, job):
            raise AssertionError("TensorFlow asked about a .tflite")

    state.engine = Registry()
    failed, target = [], tmp_path / "ops_to_register.h"
    start_header(state, AtOnce(), str(target), failed.append)
    assert len(failed) == 1 and isinstance(failed[0], InspectorError)
    line = failed[0].one_line()
    assert "\n" not in line and "a TensorFlow Lite model" in line and "tflite-info" in line
    assert "digits_int8.tflite" in line and not target.exists() and state.ops_header is None


def test_the_optimized_graph_is_saved_by_the_engine_in_a_task(tmp_path):
    """File > Save optimized graph: the pipeline's last graph written where the engine keeps
    it (the in-process engine here), the status says how many nodes."""
    from inspector.core.app.pipeline_runs import start_preview, start_save
    from inspector.core.loaders import load

    model, state = _opened()
    said, failed = [], []
    state.message.connect(said.append)
    target = tmp_path / "optimized.pbtxt"
    assert start_save(state, AtOnce(), str(target), failed.append) is False   # no rows yet
    state.workbench.set_marks(["pixels"], ["output"])
    state.workbench.add_step("strip_unused_nodes", None, None)
    start_preview(state, AtOnce())
    assert start_save(state, AtOnce(), str(target), failed.append) is True
    saved = load(str(target))
    assert not failed and len(saved.graph) == state.rows[-1].metrics.node_count
    assert said[-1] == f"Saved {len(saved.graph)} nodes to {target}"


def test_a_memory_mapped_package_is_written_in_a_task(tmp_path):
    from inspector.core.app.exports import start_memmapped
    from inspector.core.loaders import load

    model, state = _opened()
    said, failed = [], []
    state.message.connect(said.append)
    target = tmp_path / "demo_memmapped.pb"
    start_memmapped(state, AtOnce(), str(target), failed.append)
    assert not failed and "constant regions" in said[-1] and str(target) in said[-1]
    assert load(str(target)).kind == "memmapped"
    start_memmapped(state, AtOnce(), str(target), failed.append)      # exists: refused
    assert len(failed) == 1 and "exists" in failed[0].one_line()
