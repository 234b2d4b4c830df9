"""The window's panels, one row each: what the workspace (places, tasks, the task a closed
panel brings), the builders of panels hidden at start (startup/window_later), the View menu
and the main window (its docks, the dock an overlay raises) all read. A new panel is its
panel module, its controller module and one row here (see `Panel.panel`)."""

from __future__ import annotations

import importlib


class Panel:
    """name: the dock's key (`window.<name>_dock`, `workspace.docks[name]`); title: the
    dock's title and Qt object name (kept in saved window layouts); place: its tab group
    (workspace.places()); tasks: the tasks that show it; front: the tasks that put it in front
    of its place (else the first of the place in table order); home: the task a closed panel
    asked for brings (None: it opens beside the current task's); menu: its toggle in View;
    overlay: an overlay whose registry entry names this dock raises it.

    With neither `builder` nor `panel` the main window makes the panel with itself; else the
    panel waits for the first picture (or its first show, or a read of one of `makes`) and
    is made by `builder` ("module:function" of `build(window)`), or by the default builder:
    `panel` and `controller` ("module:Class"), the controller made from its collaborators
    `Controller(state, tasks, panel, dialogs)` and set as `window.<name>` (the panel as
    `window.<name>_panel`); with `attach`, no controller is made: the panel is given to
    the window's controller of that name, made with the window (`attach(panel)`)."""

    def __init__(self, name: str, title: str, place: str, tasks: tuple = (), *,
                 front: tuple = (), home: str | None = None, menu: bool = True,
                 overlay: bool = False, builder: str | None = None, makes: tuple = (),
                 panel: str | None = None, controller: str | None = None,
                 attach: str | None = None):
        # a plain class, not a dataclass: this module is read at every start (~1 ms less)
        self.name, self.title, self.place, self.tasks = name, title, place, tasks
        self.front, self.home, self.menu, self.overlay = front, home, menu, overlay
        self.builder, self.makes, self.panel, self.controller = builder, makes, panel, controller
        self.attach = attach

    def replace(self, **changes) -> "Panel":
        """A copy with `changes`."""
        return Panel(**{**vars(self), **changes})

    @property
    def later(self) -> bool:
        """Made after the first picture (not with the window)."""
        return bool(self.builder or self.panel)

    @property
    def attributes(self) -> tuple:
        """The window attributes its builder makes."""
        if self.makes or self.attach:
            return self.makes or (f"{self.name}_panel",)
        return (f"{self.name}_panel", self.name)


_G = "inspector.gui.startup.window_later"

PANELS = (
    Panel("summary", "Summary", "left", ("explore",)),
    Panel("search", "Search", "left", ("explore",),
          panel="inspector.gui.panels.search_panel:SearchPanel",
          controller="inspector.gui.controllers.search_controller:SearchController"),
    Panel("properties", "Properties", "right", ("explore", "present")),
    Panel("overlays", "Overlays", "right", ("explore",), overlay=True,
          panel="inspector.gui.panels.overlays_panel:OverlaysPanel",
          controller="inspector.gui.controllers.overlays_controller:OverlaysController"),
    Panel("tour", "Tour", "right", ("present",), front=("present",), home="present",
          builder=f"{_G}:build_tour"),
    Panel("demo", "Demo", "right", ("present",), home="present", overlay=True,
          builder=f"{_G}:build_demo"),
    Panel("minimap", "Minimap", "right-foot", ("explore",)),
    Panel("legend", "Legend", "right-foot", ("explore",), builder=f"{_G}:build_legend",
          makes=("legend",)),
    Panel("pipeline", "Pipeline", "bottom", ("optimize",), home="optimize",
          builder=f"{_G}:build_pipeline", makes=("pipeline_panel",)),
    Panel("workbench", "Inputs and outputs", "bottom", ("optimize", "phone"),
          home="optimize", panel="inspector.gui.panels.workbench_panel:WorkbenchPanel",
          attach="marks"),
    Panel("mobile", "Phone (TFLite)", "bottom", ("phone",), front=("phone",), home="phone",
          overlay=True, builder=f"{_G}:build_mobile",
          makes=("mobile_panel", "quant_panel", "mobile", "quant")),
    Panel("preview", "Preview", "bottom-side", ("optimize",), home="optimize",
          builder=f"{_G}:build_preview"),
    Panel("sizes", "Sizes", "bottom-side", ("optimize",), home="optimize",
          builder=f"{_G}:build_sizes"),
)

# parts made later that have no dock (made on first read only)
DOCKLESS = {
    "targets": (f"{_G}:build_targets", ("targets",)),      # Phone > Target report
    "compare": (f"{_G}:build_compare", ("compare_ctl",)),  # a comparison
    "card": (f"{_G}:build_card", ("card_panel", "card")),  # Demo > Model card, a tour stop
    "exporter": (f"{_G}:build_exporter", ("exporter",)),     # File > Export …
}


def row(name: str) -> Panel:
    return next(p for p in PANELS if p.name == name)


def in_place(place: str) -> tuple:
    """The names of a place's panels, in tab order."""
    return tuple(p.name for p in PANELS if p.place == place)


def shown_in(task: str) -> tuple:
    """The names of the panels `task` shows, those in front of their place first."""
    shown = [p for p in PANELS if task in p.tasks]
    return tuple(p.name for p in sorted(shown, key=lambda p: task not in p.front))


def load(dotted: str):
    """The object a "module:name" string names (its module imported now)."""
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module), name)
