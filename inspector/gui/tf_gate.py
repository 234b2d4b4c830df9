"""Without TensorFlow (the light build, or an install without it), every action that needs it
is visibly disabled, its tooltip saying why and what to do; the rest of the app works as
usual. A Python given with --tf-python (or $INSPECTOR_TF_PYTHON) runs the worker instead and
lifts the gate. Disabled widgets stay disabled when their panel enables them again."""

from __future__ import annotations

import importlib.util
import os
import sys

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel

from inspector.gui.startup.later_panels import built

REASON = "needs TensorFlow, which this build does not include"
REMEDY = ("start the app with --tf-python PATH (any Python that has TensorFlow installed; "
          "the worker runs there) or install the full build")
TIP = f"Disabled: this {REASON}. To use it, {REMEDY}."
# (panel attribute, widget attribute) and menu texts of everything that runs TensorFlow (the
# Target report's LiteRT and Vela run in the same worker); a dotted panel: a panel's part
WIDGETS = (("preview_panel", "check_button"), ("mobile_panel", "confirm_button"),
           ("mobile_panel", "convert_button"), ("overlays_panel", "profile_button"),
           ("overlays_panel", "calibrate_random"), ("overlays_panel", "calibrate_folder"),
           ("demo_panel", "run_button"), ("quant_panel", "run_button"),
           ("targets.view", "run_button"))
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
    """Keeps gated widgets and actions disabled, remembering what their panels asked for
    (restored when the gate is lifted)."""

    def __init__(self, parent):
        super().__init__(parent)
        self.wished: dict = {}      # widget or action -> (enabled wanted, old tooltip)
        self.lifted = False

    def eventFilter(self, obj, event):
        if not self.lifted and event.type() == QEvent.EnabledChange and obj.isEnabled():
            self.wished[obj] = (True, self.wished[obj][1])
            obj.setEnabled(False)
        return False

    def action_changed(self, action) -> None:
        if not self.lifted and action.isEnabled():
            self.wished[action] = (True, self.wished[action][1])
            action.setEnabled(False)


def _gate_action(action, keeper) -> None:
    keeper.wished[action] = (action.isEnabled(), action.toolTip())
    action.setEnabled(False)
    action.setToolTip(TIP)
    action.setStatusTip(TIP)
    action.changed.connect(lambda a=action: keeper.action_changed(a))


def lift(window) -> int:
    """TensorFlow is reachable now (a Python was chosen): give every gated control back the
    state its panel asked for. Returns how many were lifted."""
    keeper = getattr(window, "tf_gate_filter", None)
    if keeper is None or keeper.lifted:
        return 0
    keeper.lifted = True
    keeper.badge.hide()
    for obj, (enabled, tip) in keeper.wished.items():
        obj.setToolTip(tip)
        if hasattr(obj, "setStatusTip"):
            obj.setStatusTip(tip)
        obj.setEnabled(enabled)
    window.tf_gated = []
    return len(keeper.wished)


def gate_panel(window, panel_name: str) -> list:
    """Gate the TensorFlow widgets of one panel (after apply(); for a panel made later, see
    later_panels). Returns their texts."""
    keeper = getattr(window, "tf_gate_filter", None)
    if keeper is None or keeper.lifted:
        return []
    gated = []
    panel = window
    for part in panel_name.split("."):
        panel = getattr(panel, part, None)
    for name, widget_name in WIDGETS:
        widget = getattr(panel, widget_name, None) if name == panel_name else None
        if widget is None:
            continue
        keeper.wished[widget] = (widget.isEnabled(), widget.toolTip())
        widget.setEnabled(False)
        widget.setToolTip(TIP)
        widget.installEventFilter(keeper)
        gated.append(widget.text())
    return gated


def apply(window, reachable: bool | None = None) -> list:
    """Disable the window's TensorFlow actions when TensorFlow is out of reach; returns the
    names of what was disabled (empty when TensorFlow is there)."""
    if reachable is None:
        reachable = tensorflow_reachable()
    if reachable:
        return []
    gated, keeper = [], _KeepDisabled(window)
    window.tf_gate_filter = keeper
    for panel_name in dict(WIDGETS):
        if built(window, panel_name.split(".")[0]):   # the others: gate_panel() when made
            gated += gate_panel(window, panel_name)
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        for action in menu.actions() if menu else ():
            if action.text() in MENU_TEXTS:
                _gate_action(action, keeper)
                gated.append(action.text())

    badge = QLabel("No TensorFlow: its actions are disabled (hover for why)")
    badge.setObjectName("tf_missing")
    badge.setToolTip(TIP)
    window.statusBar().addPermanentWidget(badge)
    keeper.badge = badge
    return gated
