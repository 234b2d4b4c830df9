"""Demo runs in the window, driven as a presenter would: drop a photo (a real QDropEvent) on
the open model, read the top-5 bars and what the model sees, click a block's feature-map
strip, switch the grid's colour scale, pick another value range; bad input gives a dialog
and the app keeps going. TensorFlow runs in-process here (conftest installs it)."""

import os

import numpy as np
import pytest
from conftest import DEMO
from PIL import Image
from PySide6.QtCore import Qt
from test_gui import drop_files, open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _photo(path):
    x = np.zeros((240, 320, 3), np.uint8)
    x[..., 0] = np.linspace(20, 230, 320)[None]
    x[..., 1] = np.linspace(30, 200, 240)[:, None]
    x[80:160, 100:220, 2] = 200
    Image.fromarray(x).save(path)
    return path


def _wait_run(qtbot, window, runs):
    qtbot.waitUntil(lambda: window.demo.runs > runs and not window.tasks.is_busy(),
                    timeout=90000)


def test_dropping_a_photo_runs_the_model_and_shows_strips_and_bars(qtbot, window, fx,
                                                                   tmp_path):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    photo = _photo(str(tmp_path / "holiday.jpg"))
    assert drop_files(window.canvas.viewport(), [photo])
    _wait_run(qtbot, window, 0)
    assert window.state.model.path.endswith("inception_jpeg.pb")   # not opened as a model
    run, panel = window.state.demo, window.demo_panel
    assert panel.isVisible() and "holiday.jpg" in panel.title.text()
    top = run.outputs[0]
    assert [name for name, _ in panel.bars.rows] == top.labels
    assert panel.bars.rows[0][1] == top.top[0][1] and len(panel.bars.rows) == 5
    assert "detected from the graph's own Sub and Mul" in panel.sees.text()
    assert not panel.picture.pixmap().isNull() and panel.warning.isHidden()
    # each block on the canvas carries a strip of its most active maps
    canvas = window.canvas
    strips = {i: n.strip for i, n in canvas.items_by_id.items()
              if getattr(n, "strip", None) is not None}
    assert set(strips) == {"conv/", "conv_1/", "mixed/"}
    assert canvas.items_by_id["conv/"].plain          # blocks now show their plain caption
    assert canvas.items_by_id["conv/"].item.caption.startswith("feature extractor block")
    strip = strips["mixed/"]
    assert strip.maps.order[0] == int(np.argmax(strip.maps.mean))
    canvas.centerOn(strip.sceneBoundingRect().center())
    pos = canvas.mapFromScene(strip.sceneBoundingRect().center())
    qtbot.mouseClick(canvas.viewport(), Qt.LeftButton, pos=pos)
    grid = window.demo.grid
    assert grid is not None and grid.isVisible() and grid.maps.item == "mixed/"
    own = grid.channel_brightness()
    grid.group.button(2).click()            # one colour scale for the whole model
    assert grid.mode == "model"
    shared = grid.channel_brightness()
    assert not np.allclose(own, shared)
    assert shared.std() > 0                 # the most active maps are brighter on one scale
    grid.close()


def test_the_demo_model_reads_a_drawn_digit(qtbot, window, tmp_path):
    from sklearn.datasets import load_digits

    digits = load_digits()
    open_and_wait(qtbot, window, DEMO)
    img = np.round(digits.images[1700] * 255 / 16).astype(np.uint8)
    Image.fromarray(img, "L").save(tmp_path / "digit.png")
    window.demo.run_on(str(tmp_path / "digit.png"))
    _wait_run(qtbot, window, 0)
    names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    assert window.demo_panel.bars.rows[0][0] == names[digits.target[1700]]
    assert "digits_1" in window.state.expanded        # the wrapper opened to show blocks
    qtbot.waitUntil(lambda: any(getattr(n, "strip", None) is not None
                                for n in window.canvas.items_by_id.values()), timeout=60000)


def test_a_sound_dropped_on_a_speech_model_shows_its_spectrogram_in_colour(qtbot, window,
                                                                           fx, tmp_path):
    """The Demo panel draws what state.demo holds: the spectrogram the model hears, wide and
    in the feature maps' colour scale; the blocks' strips in the same colours."""
    from test_demo_run import _wav

    open_and_wait(qtbot, window, os.path.join(fx, "speech_commands.pb"))
    _wav(tmp_path / "yes.wav")
    assert drop_files(window.canvas.viewport(), [str(tmp_path / "yes.wav")])
    _wait_run(qtbot, window, 0)
    seen = window.state.demo.seen
    assert seen.kind == "spectrogram" and seen.picture.ndim == 2
    image = window.demo_panel.picture.pixmap().toImage()
    assert (image.width(), image.height()) == (288, 180)        # drawn wide
    rgb = {image.pixelColor(x, y).getRgb()[:3] for x in range(0, 288, 8)
           for y in range(0, 180, 8)}
    lut = {tuple(int(v) for v in c) for c in window.state.demo.blocks[0].colour_scale()}
    assert any(len(set(c)) > 1 for c in rgb)                     # colour, not grey
    assert len(rgb & lut) > 3                                    # the maps' colours
    strips = [n.strip for n in window.canvas.items_by_id.values()
              if getattr(n, "strip", None) is not None]
    assert strips and all(s.images and not s.images[0].isGrayscale() for s in strips)


def test_a_wrong_value_range_chosen_in_the_panel_shows_a_warning(qtbot, window, fx, tmp_path):
    open_and_wait(qtbot, window, os.path.join(fx, "mobilenet_v2.pb"))
    window.demo.run_on(_photo(str(tmp_path / "p.png")))
    _wait_run(qtbot, window, 0)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    runs = window.demo.runs
    panel = window.demo_panel
    assert panel.range_box.isVisible() and panel.warning.isHidden()
    box = panel.range_box
    box.setCurrentIndex(box.findData("0_255"))      # as a presenter picks from the menu
    _wait_run(qtbot, window, runs)
    assert not panel.warning.isHidden()
    assert "first layer is at its limit" in panel.warning.text()
    assert "chosen by the presenter" in panel.sees.text()


def test_bad_input_gives_one_line_in_a_dialog_and_the_app_goes_on(qtbot, window, fx,
                                                                  tmp_path):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    fake = tmp_path / "cat.jpg"
    fake.write_text("not a photo at all\n")
    assert drop_files(window.summary_panel, [str(fake)])
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=30000)
    assert "cat.jpg" in window.last_error and "holds text" in window.last_error
    assert "\n" not in window.last_error and window.state.demo is None
    assert window.state.model.path.endswith("inception_jpeg.pb")
    window.last_error = ""
    drop_files(window.canvas.viewport(), [_photo(str(tmp_path / "ok.png"))])
    _wait_run(qtbot, window, 0)
    assert window.state.demo is not None and not window.last_error


def test_a_new_model_clears_the_last_run(qtbot, window, fx, tmp_path):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    window.demo.run_on(_photo(str(tmp_path / "p.png")))
    _wait_run(qtbot, window, 0)
    open_and_wait(qtbot, window, DEMO)
    assert window.state.demo is None and window.demo_panel.bars.isHidden()
    assert not any(getattr(n, "strip", None) for n in window.canvas.items_by_id.values())


def test_the_model_is_made_ready_for_a_demo_in_the_background(qtbot, window, fx, tmp_path):
    """The first run imports the graph into a session. Once TensorFlow has answered for a
    model of moderate size (its shapes), or when the Demo panel opens, that happens in the
    background, so the presenter's first photo only runs it."""
    from inspector.core.tf import run as tf_run

    tf_run.forget_sessions()
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.waitUntil(lambda: getattr(window.demo, "_warmed", None) is window.state.model,
                    timeout=60000)
    qtbot.waitUntil(lambda: bool(tf_run._kept) and not window.tasks.is_busy("demo-warm"),
                    timeout=60000)
    kept = tf_run._kept[-1][1]
    window.demo.run_on(_photo(str(tmp_path / "p.png")))
    _wait_run(qtbot, window, 0)
    assert tf_run._kept[-1][1] is kept and window.state.demo.label == "p.png"
