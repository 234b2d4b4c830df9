"""Run by tests/gui/test_gui_flops_tflite.py in a fresh process: the app as users start it
(TensorFlow in the worker) compares a GraphDef with its .tflite and shows the .tflite's model
card. Prints one JSON line of what it saw."""

import sys

from app_with_worker import finish, start_window, wait  # this script's folder is on the path


def main(graphdef: str, lite: str, settings: str) -> int:
    app, client, win = start_window(settings)
    seen = {}
    win.open_path(graphdef)
    wait(app, lambda: win.state.model is not None and not win.tasks.is_busy())
    ctl = win.compare_ctl
    ctl.compare_with(lite)
    wait(app, lambda: bool(ctl.windows) and not win.tasks.is_busy())
    cmp = ctl.windows[-1]
    seen["totals"] = cmp.session.diff.totals
    seen["totals text"] = cmp.totals.text()
    cmp.close()
    win.open_path(lite)
    wait(app, lambda: win.state.model is not None and win.state.model.path == lite and
         not win.tasks.is_busy())
    win.card.show_card()
    wait(app, lambda: win.card_panel.isVisible() and not win.tasks.is_busy())
    seen["card arithmetic"] = win.card_panel.tiles["arithmetic"].big.text()
    seen["card layers"] = win.card_panel.tiles["layers"].big.text()
    seen["engine"] = type(win.state.engine).__name__
    seen["imported here"] = sorted(m for m in ("tensorflow", "keras") if m in sys.modules)
    return finish(win, client, seen)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
