"""A real window under Xvfb: open a fixture with --screenshot and check what was drawn."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

from inspector.core.model.op_categories import COLOURS


def under_xvfb(tmp_path, *args, screen="1600x1000") -> tuple:
    """(the app's exit code, its stderr): `python -m inspector ARGS` on an X server of its
    own. The app's code is written to a file: xvfb-run's own exit code can be another one
    ("problem while cleaning up temporary directory": 5, seen once in CI)."""
    if shutil.which("xvfb-run") is None:
        if os.environ.get("CI"):
            pytest.fail("xvfb-run is missing: packaging/setup.sh should have installed xvfb")
        pytest.skip("xvfb-run not installed")
    code = tmp_path / "app-exit-code"
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", INSPECTOR_SETTINGS=str(tmp_path / "s.ini"),
               TMPDIR=str(tmp_path))          # xvfb-run's temporary folder, this test's own
    proc = subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {screen}x24", "sh", "-c",
                           f'"$@"; echo $? > "{code}"', "sh", sys.executable, "-m",
                           "inspector", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=180)
    assert code.exists(), proc.stdout + proc.stderr
    return int(code.read_text()), proc.stdout + proc.stderr


def screenshot(tmp_path, *args, screen="1600x1000") -> str:
    out = tmp_path / "shot.png"
    code, said = under_xvfb(tmp_path, *args, "--screenshot", str(out), screen=screen)
    assert code == 0, said
    return str(out)


def colour_counts(path: str) -> dict:
    from PySide6.QtGui import QColor, QImage

    image = QImage(path)
    assert not image.isNull() and image.width() >= 800
    wanted = {QColor(c).rgb() & 0xFFFFFF: name for name, c in COLOURS.items()}
    counts: dict = {}
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            rgb = image.pixel(x, y) & 0xFFFFFF
            if rgb in wanted:
                counts[wanted[rgb]] = counts.get(wanted[rgb], 0) + 1
    return counts


def test_screenshot_shows_coloured_nodes(tmp_path, fx):
    path = screenshot(tmp_path, os.path.join(fx, "inception_jpeg.pb"), "--expand", "mixed",
                      "--expand", "mixed/tower_1")
    counts = colour_counts(path)
    # convolution, pooling, input... boxes are drawn in their category colours
    drawn = {name for name, n in counts.items() if n > 40}
    assert {"convolution", "pooling"} <= drawn, counts
    assert len(drawn) >= 4, counts


def test_screenshot_of_a_bad_file_fails_cleanly(tmp_path, fx):
    code, said = under_xvfb(tmp_path, os.path.join(fx, "bad", "truncated.pb"), "--screenshot",
                            str(tmp_path / "x.png"))
    assert code == 2
    assert "file is truncated" in said and "Traceback" not in said


def test_screenshot_of_the_pipeline_preview(tmp_path, fx):
    import shutil as sh

    model = tmp_path / "inception.pb"
    sh.copy(os.path.join(fx, "inception_jpeg.pb"), model)
    seed = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
            'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
            'fold_old_batch_norms quantize_weights')
    path = screenshot(tmp_path, str(model), "--inputs", "Mul", "--outputs", "softmax",
                      "--transforms", seed)
    from PySide6.QtGui import QColor, QImage

    image = QImage(path)
    wanted = {QColor("#2e7d32").rgb(): "IN tag", QColor("#6a1b9a").rgb(): "OUT tag",
              QColor("#f4a582").rgb(): "FLOPs bars", QColor("#6fa8dc").rgb(): "size bars"}
    seen = {}
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            rgb = image.pixel(x, y)
            if rgb in wanted:
                seen[wanted[rgb]] = seen.get(wanted[rgb], 0) + 1
    assert {"IN tag", "OUT tag", "FLOPs bars", "size bars"} <= set(seen), seen


@pytest.mark.parametrize("overlay", ["timings", "ranges"])
def test_screenshot_of_each_overlay(tmp_path, fx, overlay):
    from conftest import run_cli
    from PySide6.QtGui import QColor, QImage

    from inspector.core.overlays.decorate import heat_colour

    model = os.path.join(fx, "inception_jpeg.pb")
    if overlay == "timings":
        code, out, err = run_cli("profile", model, "--inputs", "Mul", "--outputs", "softmax",
                                 "--input_shape", "Mul=1,299,299,3", "--runs", "2")
        assert code == 0, err
        data = tmp_path / "timings.txt"
        data.write_text(out)
    else:
        data = tmp_path / "ranges.log"
        code, _, err = run_cli("calibrate", model, "--inputs", "Mul", "--outputs", "softmax",
                               "--input_shape", "Mul=1,299,299,3", "--data", "random",
                               "--count", "3", "--log", str(data))
        assert code == 0, err
    path = screenshot(tmp_path, model, f"--{overlay}", str(data), "--expand", "mixed")
    image = QImage(path)
    hottest = QColor(heat_colour(1.0)).rgb()
    hits = sum(image.pixel(x, y) == hottest for y in range(0, image.height(), 2)
               for x in range(0, image.width(), 2))
    assert hits > 30, hits  # the hottest / widest node is filled with the top heat colour


@pytest.mark.parametrize("screen", ["1366x768", "1920x1080"])
def test_the_default_window_fits_the_screen(tmp_path, screen):
    """A fresh start (no saved layout) on a laptop and on a 1080p monitor: the whole window,
    status bar included, is on the screen, and the graph is drawn."""
    from PySide6.QtGui import QImage

    width, height = (int(v) for v in screen.split("x"))
    image = QImage(screenshot(tmp_path, "--outputs", "output", "--transforms",
                              "strip_unused_nodes fold_constants quantize_weights",
                              screen=screen))
    assert image.width() <= width and image.height() <= height, (image.width(), image.height())
    assert image.width() >= 0.8 * min(width, 1500) and image.height() >= 0.8 * min(height, 1000)


def test_screenshot_with_compare_is_the_comparison_window(tmp_path):
    """Regression: `A --compare B --screenshot OUT` saved the main window, not the comparison."""
    from PySide6.QtGui import QColor, QImage

    from inspector.core.app.comparing import LEGEND

    a, b = tmp_path / "digits.pb", tmp_path / "digits.tflite"
    shutil.copy(os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb"), a)
    shutil.copy(os.path.join(ROOT, "tests", "core", "data", "digits_float.tflite"), b)
    image = QImage(screenshot(tmp_path, str(a), "--compare", str(b)))
    assert (image.width(), image.height()) == (1400, 860)        # the comparison's own size
    marks = {QColor(colour).rgb() & 0xFFFFFF: label for label, colour, _ in LEGEND}
    seen: dict = {}
    for y in range(120, 600, 2):                      # the two canvases, under the legend
        for x in range(0, image.width(), 2):
            label = marks.get(image.pixel(x, y) & 0xFFFFFF)
            if label:
                seen[label] = seen.get(label, 0) + 1
    assert seen.get("changed", 0) > 20, seen       # B's ops drawn with the changed border


def test_screenshot_after_a_run_on_many_blocks_is_readable(tmp_path, fx):
    """`--run photo.jpg` on the Keras MobileNet v2 (one wrapper scope of ~150 layers): the
    run opens the wrapper to put values on its blocks, and the screenshot fitted all of them
    into one thin column of specks. It shows the view the run leaves: blocks at full size."""
    from test_gui_demo import _photo

    model = tmp_path / "mobilenet_v2.pb"
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), model)
    photo = _photo(str(tmp_path / "holiday.jpg"))
    path = screenshot(tmp_path, str(model), "--run", photo, screen="1366x768")
    counts = colour_counts(path)
    # a block box drawn at a legible size: ~150x40 px of its colour (every 2nd pixel counted)
    assert max(counts.values()) > 2500, counts
