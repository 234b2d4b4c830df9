"""The window's parts import downward (issue 46.7): the tour's slides draw what the model
sees with the canvas's own picture code, not the Demo panel's (the contract in pyproject.toml
keeps it so); both still draw the same picture."""

import numpy as np

from inspector.gui.canvas.stop_render import seen_image
from inspector.gui.panels.demo_panel import picture_pixmap


def test_a_slide_and_the_demo_panel_draw_what_the_model_sees_alike(qtbot):
    picture = np.zeros((8, 8), np.uint8)
    picture[2:6, 3:5] = 255
    from inspector.core.demo.demo_run import Seen

    slide = seen_image(Seen(picture, "a digit", (0, 1), 0.0, 1.0), longest=480)
    assert (slide.width(), slide.height()) == (480, 480)
    assert slide.pixelColor(4 * 60 + 30, 4 * 60 + 30).red() == 255      # blocky, not mush
    assert slide.pixelColor(30, 30).red() == 0
    panel = picture_pixmap(picture, longest=480).toImage()
    assert panel.convertToFormat(slide.format()) == slide


def test_the_window_opens_the_packaged_demo_model_by_default():
    from inspector.core.app.demo_model import DEMO_MODEL
    from inspector.gui.app import parse_args
    from inspector.gui.startup.smoke import demo_model

    assert parse_args([]).model == DEMO_MODEL == demo_model()


def test_the_gui_folder_lists_the_windows_parts_and_start_up_has_its_own():
    """Listing gui/ shows the window's parts; how the app starts lives in gui/startup/."""
    import os

    import inspector.gui as gui

    folder = os.path.dirname(gui.__file__)
    start_up = {"feature_checks", "start_order", "thread_then", "later_panels",
                "window_later", "screenshot_driver", "single_instance", "smoke"}
    top = {name[:-3] for name in os.listdir(folder) if name.endswith(".py")}
    assert not start_up & top
    assert start_up <= {name[:-3] for name in os.listdir(os.path.join(folder, "startup"))}
    assert {"main_window", "menus", "workspace", "panel_table"} <= top
