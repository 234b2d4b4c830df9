"""Tasks: the window is laid out canvas-first for what the user is doing. Every panel has one
place (a tab group in a side column or along the bottom); each task opens the panels it
needs, closes the rest, puts its main panels in front and sizes the docks so the graph keeps
at least half of the window, down to 1366x768. The task bar in the menu bar's corner (and
View > Task, Ctrl+1..4) switches; a closed panel asked for from elsewhere (a menu action,
Ctrl+F) brings its task, or opens in its place. Panels never move between places: moving
docks around leaves Qt's old tab bars on screen."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QTabBar

from inspector.gui import panel_table

# place -> its area; a side's second place sits under the first, the bottom's second beside
# the first; a place's tab group is its panels in panel_table's order
AREA_OF = {"left": "left", "right": "right", "right-foot": "right", "bottom": "bottom",
           "bottom-side": "bottom"}

# task -> (label, {area: (share of the window's width or height, least px, most px)},
# {place: its share within its area}, tooltip); the panels each shows: panel_table's rows
TASKS = {
    "explore": ("Explore", {"left": (0.22, 300, 360), "right": (0.22, 290, 380)},
                {"right": 0.75, "right-foot": 0.25},
                "The graph, its summary, search and properties"),
    # (300 px: the Preview's six rows in sight on a 1366x768 screen, the graph keeping half)
    "optimize": ("Optimize", {"bottom": (0.36, 300, 420)}, {"bottom": 0.5, "bottom-side": 0.5},
                 "The pipeline of transforms and its preview"),
    "phone": ("Phone", {"bottom": (0.36, 280, 440)}, {},
              "TensorFlow Lite: compatibility, conversion, selective build"),
    "present": ("Demo and tour", {"right": (0.28, 340, 460)}, {},
                "Run the model on a file, tours and presenting"),
}

AREAS = {"left": Qt.LeftDockWidgetArea, "right": Qt.RightDockWidgetArea,
         "bottom": Qt.BottomDockWidgetArea}


def places() -> dict:
    """place -> (area, its panels in tab order), read from the panel table."""
    return {place: (area, panel_table.in_place(place)) for place, area in AREA_OF.items()}


def docks_of(task: str) -> list:
    """The panels `task` shows, the first of each place in front."""
    return list(panel_table.shown_in(task))


def place_of(name: str) -> str:
    return panel_table.row(name).place


class Workspace(QObject):
    """Puts the window's docks (`docks`: name -> QDockWidget) in their places once, then
    shows, closes and sizes them for a task."""

    task_changed = Signal(str)

    def __init__(self, window, docks: dict):
        super().__init__(window)
        self.window, self.docks = window, docks
        self.task = ""
        self.bar = QTabBar()
        self.bar.setDrawBase(False)
        self.bar.setExpanding(False)
        for task, (label, *_rest, tip) in TASKS.items():
            self.bar.addTab(label)
            self.bar.setTabData(self.bar.count() - 1, task)
            self.bar.setTabToolTip(self.bar.count() - 1, tip)
        self.bar.currentChanged.connect(lambda i: self.switch(self.bar.tabData(i)))
        self._place_all()
        window.installEventFilter(self)

    def _place_all(self) -> None:
        w, firsts = self.window, {}
        groups = {place: group for place, (_, group) in places().items() if group}
        for place, group in groups.items():
            first, area = self.docks[group[0]], AREA_OF[place]
            above = next((f for p, f in firsts.items() if AREA_OF[p] == area), None)
            if above is None:
                w.addDockWidget(AREAS[area], first)
            else:
                w.splitDockWidget(above, first, Qt.Horizontal if area == "bottom"
                                  else Qt.Vertical)
            firsts[place] = first
        for place, group in groups.items():
            for name in group[1:]:
                w.tabifyDockWidget(firsts[place], self.docks[name])

    def name_of(self, dock) -> str:
        return next(n for n, d in self.docks.items() if d is dock)

    def switch(self, task: str) -> None:
        """Lay the window out for `task` (again, if it is the current one)."""
        if task not in TASKS:
            return
        self.task = task
        self.show_task(task)
        _, extents, shares, _ = TASKS[task]
        shown = docks_of(task)
        for name, dock in self.docks.items():
            if dock.isFloating():
                dock.setFloating(False)
            dock.setVisible(name in shown)
        fronts = {}
        for name in shown:                       # the first shown of each place in front
            fronts.setdefault(place_of(name), self.docks[name])
        for dock in fronts.values():
            dock.raise_()
        self._size(extents, shares, fronts)
        self._tidy_tab_bars()
        self.task_changed.emit(task)

    def _tidy_tab_bars(self) -> None:
        """Hide the dock tab bars of earlier layouts: Qt leaves a tab bar it no longer uses
        where it was, shown (over a dock's title once the docks below it moved); the bars
        in use are shown again by the layout."""
        w = self.window     # the window's own bars only (not a walk of every widget in it)
        for bar in w.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            bar.hide()
        w.layout().invalidate()
        w.layout().activate()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.window and event.type() == QEvent.Show:
            self._tidy_tab_bars()       # the bars of the layout made before the window showed
            # once: every event of the window came through Python, each waiting for the GIL
            # while a task's thread computes
            obj.removeEventFilter(self)
        return False

    def show_task(self, task: str) -> None:
        """Mark `task` as the current one on the task bar (a restored layout)."""
        self.task = task if task in TASKS else "explore"
        self.bar.blockSignals(True)
        self.bar.setCurrentIndex(list(TASKS).index(self.task))
        self.bar.blockSignals(False)

    def bring(self, dock) -> None:
        """A panel to the front: a closed one brings the task it belongs to, or else opens
        in its place beside the current task's panels."""
        if dock.isHidden():
            home = panel_table.row(self.name_of(dock)).home
            if home is not None and home != self.task:
                self.switch(home)
            dock.show()
            self._tidy_tab_bars()
        dock.raise_()

    def _size(self, extents: dict, shares: dict, fronts: dict) -> None:
        w = self.window
        for area, (share, least, most) in extents.items():
            side = area != "bottom"
            ours = [p for p in fronts if AREA_OF[p] == area]
            if not ours:
                continue
            extent = int(min(max((w.width() if side else w.height()) * share, least), most))
            w.resizeDocks([fronts[ours[0]]], [extent], Qt.Horizontal if side
                          else Qt.Vertical)
            if len(ours) > 1:
                across = w.height() if side else w.width()
                w.resizeDocks([fronts[p] for p in ours],
                              [int(across * shares.get(p, 1.0 / len(ours))) for p in ours],
                              Qt.Vertical if side else Qt.Horizontal)
