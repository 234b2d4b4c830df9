"""Without TensorFlow (the light build, or an install without it), every action that needs it
is visibly disabled, its tooltip saying why and what to do; the rest of the app works as
usual. A Python given with --tf-python (or $INSPECTOR_TF_PYTHON) runs the worker instead and
lifts the gate. Disabled widgets stay disabled when their panel enables them again."""

from __future__ import annotations

import importlib.util
import os
import sys

from PySide6.QtCore import QEvent, QObject

REASON = "needs TensorFlow, which this build does not include"
REMEDY = ("start the app with --tf-python PATH (any Python that has TensorFlow installed; "
          "the worker runs there) or install the full build")
TIP = f"Disabled: this {REASON}. To use it, {REMEDY}."
# (panel attribute, widget attribute) and menu texts of everything that runs TensorFlow
WIDGETS = (("preview_panel", "check_button"), ("mobile_panel", "confirm_button"),
           ("mobile_panel", "convert_button"), ("overlays_panel", "profile_button"),
           ("overlays_panel", "calibrate_random"), ("overlays_panel", "calibrate_folder"),
           ("demo_panel", "run_button"))
MENU_TEXTS = ("&Confirm with the converter", "Con&vert four variants", "&Run on a file…",
              "Write &ops_to_register.h…")


def tensorflow_reachable() -> bool:
    """True when the worker will find TensorFlow: another Python was named for it, or this
    one can import it."""
    other = os.environ.get("INSPECTOR_TF_PYTHON")
    if other and os.path.realpath(other) != os.path.realpath(sys.executable):
        return True
    try:
        return importlib.util.find_spec("tensorflow") is not None
    except (ImportError, ValueError):
        return False


class _KeepDisabled(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.EnabledChange and obj.isEnabled():
            obj.setEnabled(False)
        return False


def _gate_action(action) -> None:
    action.setEnabled(False)
    action.setToolTip(TIP)
    action.setStatusTip(TIP)
    action.changed.connect(lambda a=action: a.setEnabled(False) if a.isEnabled() else None)


def apply(window, reachable: bool | None = None) -> list:
    """Disable the window's TensorFlow actions when TensorFlow is out of reach; returns the
    names of what was disabled (empty when TensorFlow is there)."""
    if reachable is None:
        reachable = tensorflow_reachable()
    if reachable:
        return []
    gated, keeper = [], _KeepDisabled(window)
    window.tf_gate_filter = keeper
    for panel_name, widget_name in WIDGETS:
        widget = getattr(getattr(window, panel_name, None), widget_name, None)
        if widget is None:
            continue
        widget.setEnabled(False)
        widget.setToolTip(TIP)
        widget.installEventFilter(keeper)
        gated.append(widget.text())
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        for action in menu.actions() if menu else ():
            if action.text() in MENU_TEXTS:
                _gate_action(action)
                gated.append(action.text())
    window.statusBar().showMessage("No TensorFlow: actions that need it are disabled "
                                   "(hover them for how to enable them)", 15000)
    return gated
