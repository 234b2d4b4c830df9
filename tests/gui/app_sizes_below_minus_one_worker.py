"""Run by tests/gui/test_sizes_below_minus_one_worker.py in a fresh process: the app as users
start it (TensorFlow in the worker, 1366x768) opens a model whose input x declares [-5,3]
(TensorFlow refuses a size below -1 at import), marks x -> y, and clicks Calibrate (random
inputs), the preview's Check outputs in TensorFlow (a pipeline of one step), Phone's Confirm
with the converter and Convert four variants; then types x=-2,3 in Phone's Input sizes and
converts. Prints one JSON line: for each action, the
error lines the window showed (its error dialog's texts), whether the worker was restarted,
and the status line's text."""

import sys

from app_with_worker import finish, start_window, wait  # this script's folder is on the path


def main(model: str, settings: str) -> int:
    app, client, win = start_window(settings)
    errors, seen = [], {}
    win.state.error.connect(errors.append)
    win.open_path(model)
    wait(app, lambda: win.state.model is not None and not win.tasks.is_busy())
    win.workbench.set_marks(["x"], ["y"])
    win.workbench.set_text("fold_constants(ignore_errors=true)")
    wait(app, lambda: len(win.state.rows) == 2 and not win.tasks.is_busy())
    actions = {
        "calibrate": win.overlays_panel.calibrate_random,
        "check": win.preview_panel.check_button,
        "confirm": win.mobile_panel.confirm_button,
        "convert": win.mobile_panel.convert_button,
    }
    for name, button in actions.items():
        if button is None:
            seen[name] = "no button"
            continue
        before = len(errors)
        started = []
        win.tasks.busy.connect(lambda busy, label, s=started: s.append(busy))
        button.setEnabled(True)
        button.click()
        try:
            wait(app, lambda: (len(errors) > before) or (started and not win.tasks.is_busy()),
                 240)
            wait(app, lambda: not win.tasks.is_busy(), 240)
        except TimeoutError:
            seen[name + "_timeout"] = True
        app.processEvents()
        seen[name] = errors[before:]
        if name == "check":            # its line in the preview, not a dialog
            seen[name] = seen[name] + [win.preview_panel.check_result.text()]
        seen[name + "_status"] = win.status_label.text()
    before = len(errors)        # the size typed in Phone > Input sizes, as a user gives it
    win.mobile_panel.sizes.setText("x=-2,3")
    win.mobile_panel.convert_button.click()
    wait(app, lambda: len(errors) > before or not win.tasks.is_busy(), 240)
    wait(app, lambda: not win.tasks.is_busy(), 240)
    seen["typed"] = errors[before:]
    return finish(win, client, seen)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
