"""Overlays driven as a user: profile, import, switch overlays, read badges, calibrate, freeze."""

import os

import pytest
from conftest import run_cli
from PySide6.QtCore import Qt
from test_gui import open_and_wait, wait_drawn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")



def test_profile_in_the_app_then_switch_overlays(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.overlays_panel.runs.setValue(3)
    seen = []
    window.tasks.progress.connect(lambda d, t, _text: seen.append((d, t)))
    qtbot.mouseClick(window.overlays_panel.profile_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.overlays.profiles) and not window.tasks.is_busy(),
                    timeout=120000)
    assert seen and seen[-1] == (7, 7)  # 1 warm-up + 3 untraced + 3 traced runs
    assert window.overlays_panel.mode_buttons["timings"].isChecked()
    items = window.canvas.items_by_id
    assert items["softmax"].badge.endswith(" ms") and items["softmax"].heat
    assert items["conv/"].badge.endswith(" ms")  # a collapsed scope shows its sum
    assert not items["DecodeJpeg"].badge        # not executed: no timing
    qtbot.mouseClick(window.overlays_panel.mode_buttons["none"], Qt.LeftButton)
    assert not window.canvas.items_by_id["softmax"].badge
    assert window.canvas.items_by_id["softmax"].heat is None
    window.overlays_panel.mode_buttons["timings"].click()
    assert window.canvas.items_by_id["softmax"].badge


def test_import_benchmark_output_and_ranges(qtbot, window, model, tmp_path):
    code, out, err = run_cli("profile", model, "--inputs", "Mul", "--outputs", "softmax",
                             "--input_shape", "Mul=1,299,299,3", "--runs", "2")
    assert code == 0, err
    timings = tmp_path / "phone.txt"
    timings.write_text("\n".join("I1122 10:00:00.000000 1 stat_summarizer.cc:1] " + line
                                 for line in out.splitlines()))
    open_and_wait(qtbot, window, model)
    window.overlays.import_timings(str(timings))
    assert window.overlays.profile_now.source.startswith("phone.txt")
    assert window.canvas.items_by_id["softmax"].badge.endswith(" ms")
    log = tmp_path / "ranges.log"
    log.write_text(";softmax/logits/eightbit/requant_range__print__;__requant_min_max:[-8.5][4.5]\n"
                   ";MatMul/eightbit/requant_range__print__;__requant_min_max:[0.5][2]\n")
    window.overlays.import_ranges(str(log))
    assert window.overlays_panel.mode_buttons["ranges"].isChecked()
    window.state.expand_all()
    wait_drawn(qtbot, window, window.scenes_drawn)
    items = window.canvas.items_by_id
    assert items["softmax/logits"].badge == "[-8.5, 4.5]"
    assert items["MatMul"].badge == "[0.5, 2]"
    warnings = [window.overlays_panel.warnings.item(i).text()
                for i in range(window.overlays_panel.warnings.count())]
    assert any("MatMul" in w and "does not contain zero" in w for w in warnings)


def test_calibrate_and_freeze_into_the_pipeline(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text('strip_unused_nodes(type=float, shape="1,299,299,3")')
    window.overlays_panel.samples.setValue(3)
    shown = []
    window.tasks.progress.connect(lambda d, t, text: shown.append(text))
    qtbot.mouseClick(window.overlays_panel.calibrate_random, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.overlays.records) and not window.tasks.is_busy(),
                    timeout=180000)
    text = window.overlays_panel.compare.text()
    assert "top-1 agreement" in text
    assert window.status_label.text() == "Ready"  # not the last progress text forever
    assert "softmax: good." in text or "softmax: acceptable" in text or "softmax: poor." in text
    # each phase shows its own progress, the comparison one input at a time
    for phase in ("quantizing the graph (quantize_nodes)", "logging ranges: input 3/3",
                  "freezing the ranges", "comparing: float graph on input 1/3",
                  "comparing: eight-bit graph on input 3/3"):
        assert phase in shown, (phase, shown)
    assert all(len(v) == 3 for v in window.overlays.records.values()), \
        {k: len(v) for k, v in window.overlays.records.items()}
    assert window.canvas.items_by_id["softmax/"].badge.startswith("[")
    window.jump_to("MatMul")
    assert window.overlays_panel.histogram.plot.listDataItems() or \
        window.overlays_panel.histogram.plot.getPlotItem().items
    path = window.overlays.freeze()
    assert os.path.exists(path) and path.endswith(".ranges.log")
    assert "quantize_nodes freeze_requantization_ranges(" in window.workbench.text
    qtbot.waitUntil(lambda: len(window.state.rows) == 4 and not window.tasks.is_busy(),
                    timeout=120000)
    assert not any(r.error for r in window.state.rows), \
        [r.error for r in window.state.rows]
    final = window.state.engine.graph(window.state.rows[-1].key)
    assert not any(n.op == "RequantizationRange" for n in final.node)


def test_tables_copy_export_and_zero_inputs(qtbot, window, model, tmp_path):
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.overlays_panel.runs.setValue(2)
    window.overlays_panel.feed_mode.setCurrentIndex(1)  # zeros
    qtbot.mouseClick(window.overlays_panel.profile_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.overlays.profiles) and not window.tasks.is_busy(),
                    timeout=120000)
    text = window.overlays.copy_tables()
    assert "============================== Run Order ==============================" in text
    assert "Timings (microseconds): count=2" in window.overlays_panel.tables.toPlainText()
    out = window.overlays.export_tables(str(tmp_path / "t.txt"))
    from inspector.core.overlays.profiling import load_profile_file

    assert set(load_profile_file(out).nodes) == set(window.overlays.profile_now.nodes)


def test_profile_and_calibrate_with_nothing_marked_size_the_likely_input(qtbot, window,
                                                                         model):
    """Nothing marked: profile and calibrate run between the likely ports (Mul, the end of
    the JPEG chain, and softmax), but the shapes were looked up for the marked inputs only,
    so Mul went with no shape: 'TensorFlow cannot import the graph: Shape must be rank 4 but
    is rank 0 for conv/Conv2D' (profile), 'calibration needs a marked input with a known
    shape' (calibrate). The CLI's profile sized it: 1,299,299,3 inferred by TensorFlow."""
    open_and_wait(qtbot, window, model)
    assert window.workbench.inputs == []
    errors = []
    window.state.error.connect(errors.append)
    panel = window.overlays_panel
    panel.runs.setValue(1)
    qtbot.waitUntil(lambda: window.state.view.shapes is not None, timeout=60000)
    qtbot.mouseClick(panel.profile_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(errors or (window.overlays.profiles and
                                            not window.tasks.is_busy())), timeout=120000)
    assert not errors
    assert window.canvas.items_by_id["softmax"].badge.endswith(" ms")
    panel.samples.setValue(2)
    qtbot.mouseClick(panel.calibrate_random, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(errors or (window.overlays.records and
                                            not window.tasks.is_busy())), timeout=180000)
    assert not errors


def test_profile_and_calibrate_say_which_ports_and_sizes_they_used(qtbot, window, tmp_path):
    """Regression: with nothing marked the window profiled and calibrated between the likely
    ports, and an any-size input at 1 for each open size, without a word (the CLI notes both
    on stderr). Each says it now, above its figures (the timings' match line, the float vs
    eight-bit comparison)."""
    from test_overlays_core_cli import ANY_SIZE

    model = tmp_path / "fcn.pbtxt"
    model.write_text(ANY_SIZE)
    open_and_wait(qtbot, window, str(model))
    assert window.workbench.inputs == []
    errors = []
    window.state.error.connect(errors.append)
    panel = window.overlays_panel
    panel.runs.setValue(1)
    qtbot.mouseClick(panel.profile_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(errors or (window.overlays.profiles and
                                            not window.tasks.is_busy())), timeout=120000)
    assert not errors
    said = ("from input image [1,1,1,3] to output out (the likely ports: nothing is marked); "
            "image leaves sizes open ([1,?,?,3]): 1 for each; give its size in Phone > "
            "Conversion preview > Input sizes")
    assert panel.unmatched.text().startswith(f"Profiled {said}\n"), panel.unmatched.text()
    panel.samples.setValue(2)
    qtbot.mouseClick(panel.calibrate_random, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(errors or (window.overlays.records and
                                            not window.tasks.is_busy())), timeout=180000)
    assert not errors
    assert panel.compare.text().startswith(f"Calibrated {said}\n")


def test_a_new_profile_s_notes_and_charts_are_in_sight_at_1366x768(qtbot, window, model):
    """Regression: after Profile in the Optimize layout at 1366x768 the match line and the
    timing charts sat below the visible part of the Overlays dock (1366x768 walk:
    97-profile-fixed.png): a new profile scrolls the dock to them."""
    from PySide6.QtCore import QPoint
    from test_gui_pipeline_panel import visible_in_dock

    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    qtbot.keyClick(window, Qt.Key_2, Qt.ControlModifier)       # View > Task > Optimize
    window.show_panel(window.overlays_dock)
    qtbot.wait(100)
    panel = window.overlays_panel
    panel.runs.setValue(1)
    qtbot.waitUntil(lambda: window.state.view.shapes is not None, timeout=60000)
    qtbot.mouseClick(panel.profile_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.overlays.profiles) and not window.tasks.is_busy(),
                    timeout=120000)
    qtbot.wait(200)
    assert window.pipeline_dock.isVisible()                    # the Optimize layout
    assert visible_in_dock(window, window.overlays_dock, panel.unmatched)
    area = window.overlays_dock.widget()
    choice = panel.chart_choice
    assert 0 <= choice.mapTo(area.viewport(), QPoint(0, choice.height())).y() <= \
        area.viewport().height()                 # the charts' chooser is in sight too


def test_the_overlays_dock_does_not_scroll_sideways_at_1366x768(qtbot, window, model):
    """At 1366x768 the Overlays dock scrolled sideways (1366x768 walk: the charts' four tabs
    did not fit and scrolled with arrows, and the Ranges tab's folded settings' title made
    the panel 4 px wider than the dock). In Explore and Optimize, on both tabs, nothing
    scrolls sideways; the charts are chosen in a list (the tab bar is gone) and a choice
    shows its chart. Fails on the old code: the horizontal scroll bar's maximum was 4."""
    from test_gui_workspace import click_task

    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    panel = window.overlays_panel
    for task in ("explore", "optimize"):
        click_task(qtbot, window, task)
        window.show_panel(window.overlays_dock)
        qtbot.wait(100)
        area = window.overlays_dock.widget()
        for index in range(panel.tabs.count()):
            panel.tabs.setCurrentIndex(index)
            qtbot.wait(30)
            assert area.horizontalScrollBar().maximum() == 0, (task, panel.tabs.tabText(index))
        assert not panel.charts.tabBar().isVisible()
    panel.tabs.setCurrentIndex(0)
    choice = panel.chart_choice
    assert [choice.itemText(i) for i in range(choice.count())] == \
        ["time by op type", "top nodes", "total per run", "time per node (table)", "tables"]
    qtbot.keyClick(choice, Qt.Key_End)           # the list's last: the tables
    assert panel.charts.currentWidget() is panel.tables
    panel.charts.setCurrentWidget(panel.top_nodes)   # a chart brought up by the app
    assert choice.currentText() == "top nodes"


def test_a_run_s_failure_names_its_node_in_the_window_as_in_the_cli(qtbot, window, tmp_path):
    """Hostile-input run (hostile2): profile and calibrate in the window showed the error's
    message alone (getattr(exc, 'message')), without the node or file the CLI's line names:
    a session file's input size of [2147483647,2147483647,1,3] read 'input sized [...]:
    one sample needs ...', not "node 'image': input sized ...". They show the one line now
    (the preview's check and the quantization recipes did the same). Such a size in a
    session file is now dropped when it is restored (said in one line); typed in the Input
    sizes field, it reaches the runs."""
    import json

    from test_overlays_core_cli import ANY_SIZE

    from inspector.core.app.inputs import set_input_sizes

    model = tmp_path / "fcn.pbtxt"
    model.write_text(ANY_SIZE)
    (tmp_path / "fcn.pbtxt.inspector.json").write_text(json.dumps(
        {"version": 1, "input_shapes": {"image": [2147483647, 2147483647, 1, 3]}}))
    errors = []
    window.state.error.connect(errors.append)
    open_and_wait(qtbot, window, str(model))
    qtbot.waitUntil(lambda: bool(errors), timeout=30000)
    assert "'input_shapes' of 'image': image=2147483647,2147483647,1,3 does not fit its " \
        "declared shape [1,?,?,3]: dropped" in errors[0]
    assert window.state.workbench.input_shapes == {}
    set_input_sizes(window.state, "image=1,2147483647,2147483647,3")
    panel = window.overlays_panel
    panel.runs.setValue(1)
    for button in (panel.profile_button, panel.calibrate_random):
        errors.clear()
        qtbot.mouseClick(button, Qt.LeftButton)
        qtbot.waitUntil(lambda: bool(errors) and not window.tasks.is_busy(), timeout=120000)
        assert errors[-1].startswith("node 'image': input sized [1,2147483647,2147483647,3] "
                                     "(float32): one sample needs "), errors


def test_long_names_in_a_profile_s_notes_wrap_in_the_dock_at_1366x768(qtbot, window, model,
                                                                       tmp_path, monkeypatch):
    """A real model's profile (handtrack.js's SSD) named grappler's nodes of ~150
    characters in its notes: the label could not wrap them, so the Overlays dock scrolled
    70 px sideways and the notes were cut at its right and clipped top and bottom (1366x768
    walk, h08-profile.png). A long name now breaks after its '/', the notes take the
    height they need, nothing scrolls sideways, and the text reads as given. Fails on the
    old code: the horizontal scroll bar's maximum was over 0."""
    long = ("StatefulPartitionedCall/ssd_mobile_net_v2fpn_keras_feature_extractor/"
            "FeatureMaps/top_down/nearest_neighbor_upsampling/nearest_neighbor_upsampling/"
            "ArithmeticOptimizer/ReplacePackWithTileReshape_Multiples_stack_1")
    events = [{"ph": "X", "name": "Softmax", "dur": 120.0,
               "args": {"name": "softmax", "op": "Softmax"}},
              {"ph": "X", "name": "Mul", "dur": 80.0, "args": {"name": long, "op": "Mul"}}]
    _trace_offered(tmp_path, monkeypatch, events)
    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    window.show_panel(window.overlays_dock)
    qtbot.wait(100)
    panel = window.overlays_panel
    qtbot.mouseClick(panel.import_timings, Qt.LeftButton)
    qtbot.waitUntil(lambda: long in panel.unmatched.text(), timeout=30000)
    qtbot.wait(100)
    area = window.overlays_dock.widget()
    assert area.horizontalScrollBar().maximum() == 0
    label = panel.unmatched
    assert label.height() >= label.heightForWidth(label.width())      # not clipped
    assert label.width() <= area.viewport().width()


def test_a_profile_s_notes_name_three_unmatched_names_and_count_the_rest(qtbot, window, model,
                                                                         tmp_path,
                                                                         monkeypatch):
    """Ten unmatched names of ~150 characters filled ~40 lines of the Overlays dock at
    1366x768 and pushed the charts far below (handtrack.js's SSD, h10c-dock-lower.png):
    the notes name the first three and count the rest. Fails on the old code: all ten
    were listed."""
    names = [f"StatefulPartitionedCall/Postprocessor/ArithmeticOptimizer/Reorder_{k}"
             for k in range(10)]
    events = [{"ph": "X", "name": "Softmax", "dur": 120.0,
               "args": {"name": "softmax", "op": "Softmax"}}] + \
        [{"ph": "X", "name": "Cast", "dur": 5.0, "args": {"name": n, "op": "Cast"}}
         for n in names]
    _trace_offered(tmp_path, monkeypatch, events)
    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    window.show_panel(window.overlays_dock)
    panel = window.overlays_panel
    qtbot.mouseClick(panel.import_timings, Qt.LeftButton)
    qtbot.waitUntil(lambda: "grappler" in panel.unmatched.text(), timeout=30000)
    said = panel.unmatched.text()
    assert sum(name in said for name in names) == 3 and "and 7 more" in said, said
    assert panel.unmatched.height() < 0.5 * window.overlays_dock.height()


def test_profile_and_calibrate_of_a_tflite_say_it_is_a_read_only_view(qtbot, window):
    """Hostile-input run (hostile2): Profile on a .tflite asked for consent to run
    'CONV_2D (not on the list of pure operations)' and, with a yes, failed with
    TensorFlow's 'Op type not registered CONV_2D'. Both buttons say in one line what the
    view is and what to open instead; no consent is asked."""
    from conftest import ROOT

    asked = []
    window.dialogs.consent = lambda *a: asked.append(a) or False
    open_and_wait(qtbot, window, os.path.join(ROOT, "tests", "core", "data",
                                                 "digits_float.tflite"))
    errors = []
    window.state.error.connect(errors.append)
    panel = window.overlays_panel
    for button, what in ((panel.profile_button, "profiling"),
                         (panel.calibrate_random, "calibration")):
        errors.clear()
        qtbot.mouseClick(button, Qt.LeftButton)
        qtbot.waitUntil(lambda: bool(errors) and not window.tasks.is_busy(), timeout=60000)
        assert errors[-1] == (f"a .tflite model opens as a read-only view: {what} runs the "
                              "TensorFlow graph it was converted from (diff --numeric runs a "
                              ".tflite in LiteRT)"), errors
    assert not asked


def _trace_offered(tmp_path, monkeypatch, events) -> None:
    """A Chrome trace of `events`, the file Import timings… is given."""
    import json

    from inspector.gui.controllers import overlays_controller

    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"traceEvents": events}))
    monkeypatch.setattr(overlays_controller.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(trace), "")))


def _profile_x_to_y(qtbot, window, model: str) -> list:
    """The errors the window says once Profile, clicked with x to y marked, has ended."""
    open_and_wait(qtbot, window, model)
    errors = []
    window.state.error.connect(errors.append)
    window.workbench.set_marks(["x"], ["y"])
    window.overlays_panel.runs.setValue(1)
    qtbot.mouseClick(window.overlays_panel.profile_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(errors or window.overlays.profiles), timeout=120000)
    return errors


def test_profile_of_an_input_of_no_known_shape_says_what_to_do_in_the_window(qtbot, window,
                                                                              tmp_path):
    """hostile15b: the window's Profile (and the pipeline's Check) said "give --input_shape",
    an option only the command line has. The window names its own field; the command line
    keeps its option (the hostile manifest's profile-input-unknown-rank)."""
    from tests.fixtures.hostile import inputs as I

    errors = _profile_x_to_y(qtbot, window, I.input_unknown_rank(str(tmp_path)))
    assert errors[0] == ("node 'x': input 'x' has no known shape: give its size in Phone > "
                         "Conversion preview > Input sizes"), errors


def test_the_window_and_the_command_line_word_one_error_each_their_own_way_in_any_order(
        qtbot, window, tmp_path, capsys):
    """note15: what to do about an error was one global table (errors.HINTS) that the command
    line and each new window overwrote, so in one process the window said "give --input_shape"
    after a command-line run, and the command line the window's field after a new window.
    Each front end now words the error where it shows it (gui.wording, cli.wording)."""
    from inspector.cli.main import main
    from inspector.gui.main_window import MainWindow
    from tests.fixtures.hostile import inputs as I

    model = I.input_unknown_rank(str(tmp_path))
    cli_words = "node 'x': input 'x' has no known shape: give --input_shape NAME=d0,d1,..."
    window_words = ("node 'x': input 'x' has no known shape: give its size in Phone > "
                    "Conversion preview > Input sizes")

    def command_line() -> str:
        capsys.readouterr()
        assert main(["check", model, model, "--inputs", "x", "--outputs", "y"]) == 2
        return capsys.readouterr().err

    assert cli_words in command_line()          # after a window was made
    assert _profile_x_to_y(qtbot, window, model)[0] == window_words     # after the CLI ran
    later = MainWindow(window.settings)          # a new window, then the command line
    qtbot.addWidget(later)
    assert cli_words in command_line()
    assert _profile_x_to_y(qtbot, window, model)[0] == window_words


def test_profile_of_an_input_declared_minus_5_is_refused_as_the_command_line_refuses_it(
        qtbot, window, tmp_path):
    """hostile15b: a Placeholder declaring [-5,3] was profiled in the window as [?,3] (its
    stripped copy carried the fed size), while `profile` was refused: TensorFlow refuses a
    size below -1 at import. Both refuse it now, in the same words (the hostile manifest's
    profile-input-shape-negative)."""
    from tests.fixtures.hostile import inputs as I

    errors = _profile_x_to_y(qtbot, window, I.input_shape_negative(str(tmp_path)))
    assert not window.overlays.profiles
    assert errors == ["node 'x': TensorFlow cannot import the graph: the input's shape [-5,3] "
                      "has sizes below -1 (where -1 means unknown)"], errors


def test_calibration_compares_on_every_calibration_input_as_the_command_line(qtbot, window,
                                                                            model):
    """walk17 (inception_jpeg calibrated on a folder of 12 photos with the TF worker): the
    window said "(12 inputs, 7 ranges logged)" then "softmax: good. The eight-bit graph picks
    the same top class as the float graph on all 8 inputs": it compared on the first 8
    inputs only, where `calibrate` compares on all 12. Both compare on every calibration
    input now, and their figures agree. Fails on the old code: 'on all 8 inputs'."""
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.overlays_panel.samples.setValue(10)
    shown = []
    window.tasks.progress.connect(lambda d, t, text: shown.append(text))
    qtbot.mouseClick(window.overlays_panel.calibrate_random, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.overlays.records) and not window.tasks.is_busy(),
                    timeout=240000)
    text = window.overlays_panel.compare.text()
    assert "(10 inputs, " in text and "comparing: eight-bit graph on input 10/10" in shown
    assert "on all 10 inputs" in text or " of 10 inputs" in text, text
    code, out, err = run_cli("calibrate", model, "--inputs", "Mul", "--outputs", "softmax",
                             "--input_shape", "Mul=1,299,299,3", "--data", "random",
                             "--count", "10", "--log", model + ".cli.log", "--freeze",
                             model + ".q.pb")
    assert code == 0, err
    error = next(ln for ln in out.splitlines() if ln.startswith("softmax: max abs error"))
    figure = error.split("max abs error ")[1].split(" ")[0]
    assert f"max abs error {figure}," in text, (error, text)
    verdict = next(ln for ln in out.splitlines() if ln.startswith("softmax: good") or
                   ln.startswith("softmax: acceptable") or ln.startswith("softmax: poor"))
    assert verdict in text, (verdict, text)


def test_a_collapsed_scope_s_range_badge_is_its_widest_range_as_its_colour(qtbot, window,
                                                                          model, tmp_path):
    """walk17 (inception_jpeg calibrated on 12 photos): the collapsed `mixed` scope read
    [-114, 68.4], the range of one of its three convolutions (the last in the log), while
    its colour was the widest one's, tower_1/conv [-84.3, 125]: the badge named a range
    that was neither the widest nor all of them. It is the widest one's now (the one its
    colour shows), and the legend says so. Fails on the old code: [-114, 68.4]."""
    open_and_wait(qtbot, window, model)
    log = tmp_path / "ranges.log"
    log.write_text("".join(
        f";{name}/eightbit/requant_range__print__;__requant_min_max:[{lo}][{hi}]\n"
        for name, lo, hi in (("mixed/tower_1/conv/Conv2D", -84.3, 125),
                             ("mixed/tower_0/conv/Conv2D", -61.5, 60.2),
                             ("mixed/tower_1/conv_1/Conv2D", -114, 68.4))))
    window.overlays.import_ranges(str(log))
    wait_drawn(qtbot, window, window.scenes_drawn)
    assert window.canvas.items_by_id["mixed/"].badge == "[-84.3, 125]"
    assert "a collapsed scope shows its widest range" in window.overlays_panel.legend.text()
    window.state.expand_all()
    wait_drawn(qtbot, window, window.scenes_drawn)
    items = window.canvas.items_by_id
    assert items["mixed/tower_1/conv_1/Conv2D"].badge == "[-114, 68.4]"
    assert items["mixed/tower_0/conv/Conv2D"].badge == "[-61.5, 60.2]"
