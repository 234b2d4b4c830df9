"""The comparison window: A and B side by side on two graph canvases, synced through the
matching (a node clicked on one side selects its counterparts on the other), the change list
grouped by pattern, n / p to step through changes (both sides focus the same matched node),
"changed only", and the one-file HTML report. Layouts run as tasks, off the GUI thread."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.core.app.comparing import (
    LEGEND,
    READABLE,
    SELECTED,
    SIDES,
    CompareSession,
    numeric_heat,
)
from inspector.core.app.comparing_numeric import start_numeric
from inspector.core.app.decorations import Decorations
from inspector.core.errors import UnsafeGraphError
from inspector.gui.canvas.edges import edge_geometry
from inspector.gui.canvas.graph_canvas import GraphCanvas
from inspector.gui.change_rows import ChangeList
from inspector.gui.compare_opening import (  # noqa: F401 (layouts: the benches')
    CompareOpening,
    changes_first,
    layouts,
)
from inspector.gui.compare_work import CompareWork
from inspector.gui.panels.adaptive import OneLine
from inspector.gui.run_both_sizes import ask_size, unsized_input


class CompareWindow(CompareOpening, CompareWork, QMainWindow):
    SIZE = (1400, 860)     # wanted; shrunk to 95 % of the screen it opens on

    def __init__(self, session: CompareSession, tasks, parent=None, first: dict | None = None):
        """`first`: both sides' layouts made in the task that compared (layouts())."""
        super().__init__(parent)
        self.session, self.tasks = session, tasks
        d = session.diff
        self.setWindowTitle(f"Compare: {d.a_label}  ↔  {d.b_label}")
        self.canvases, self.titles, self._drawn, self.boxes = {}, {}, {}, {}
        self.merged_on = False
        self._layout_gen = None          # this window's compare-layout request (submit's)
        self.heat: dict = {}             # side -> (heat, badges) of the numeric divergence
        self.divergence = None
        self.run_sizes: dict = {}     # sizes given to Run both (asked: run_both_sizes)
        panes = QSplitter(Qt.Horizontal)
        for side, label in (("A", d.a_label), ("B", d.b_label)):
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(4, 4, 4, 4)
            title = OneLine(f"{side}  {label}")      # a long name is cut, never widens
            title.setStyleSheet("font-weight: bold")
            canvas = GraphCanvas(box)
            canvas.set_cache_boxes(True)     # repaints copy pixels while a layout task runs
            canvas.style.ring = SELECTED     # the selection rings the box, its border keeps
            #                                  its diff colour (red was also "removed")
            canvas.zoomed.connect(lambda scale, s=side: self._zoom_synced(s, scale))
            canvas.clicked.connect(lambda item, s=side: self._clicked(s, item))
            canvas.activated.connect(lambda item, s=side: self._toggle(s, item))
            lay.addWidget(title)
            lay.addWidget(canvas, 1)
            panes.addWidget(box)
            self.boxes[side] = box
            self.canvases[side], self.titles[side] = canvas, title
        # the rows live in Python, read only where shown (change_rows: a table's rows, not a
        # list view's per-row layout); made empty and filled on the next event-loop turn
        self.changes = ChangeList()
        self._rows_pending = True
        QTimer.singleShot(0, self.changes, self._fill_changes)
        self.changes.clicked.connect(self._entry_chosen)
        self.changes.activated.connect(self._entry_chosen)
        bar = QHBoxLayout()
        self.prev_button = QPushButton("◀ Previous (P)")
        self.next_button = QPushButton("Next (N) ▶")
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.only = QCheckBox("Changed only")
        self.only.setChecked(True)
        self.only.toggled.connect(self._changed_only)
        self.merged_box = QCheckBox("Merged view")
        self.merged_box.setToolTip("B alone, with what A had and B lost drawn as ghosts")
        self.merged_box.toggled.connect(self.set_merged)
        report = self.report_button = QPushButton("Save report…")
        report.clicked.connect(lambda: self.save_report())
        keep = self.keep_button = QPushButton("Save comparison…")
        keep.setToolTip("the comparison as a file: reopen it later with File › Open comparison")
        keep.clicked.connect(lambda: self.save_document())
        self.status = OneLine(session.status())   # cut with "…", whole in its tooltip
        self.numeric_button = QPushButton("Run both on the same input")
        self.numeric_button.setToolTip("run A and B on the same (random) input (a GraphDef in "
                                       "TensorFlow, a .tflite in LiteRT, in the worker) "
                                       "and colour every matched node by how far B's value "
                                       "is from A's (SNR)")
        self.numeric_button.clicked.connect(lambda: self.run_numeric())
        for w in (self.prev_button, self.next_button, self.only, self.merged_box,
                  self.numeric_button, report, keep):
            bar.addWidget(w)
        bar.addWidget(self.status, 1)
        split = QSplitter(Qt.Vertical)
        split.addWidget(panes)
        split.addWidget(self.changes)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        split.setSizes([800, 200])     # the pictures get four fifths (the list's rows
        #                                would take half at 1366x768)
        central = QWidget()
        outer = QVBoxLayout(central)
        outer.addLayout(bar)

        key = "  ".join(f"<span style='color:{colour}'>■ {label}</span> ({style})"
                        for label, colour, style in LEGEND)
        self.legend = QLabel(f"Borders: {key}. <span style='color:{SELECTED}'>◯ A ring"
                             "</span> around the selected node and its counterparts on "
                             "the other side. Collapsed scopes count what changed inside "
                             "and dim when nothing did.")
        self.legend.setWordWrap(True)
        outer.addWidget(self.legend)
        self.totals = QLabel(session.totals_text())
        if session.numeric is not None and hasattr(session.numeric, "headline"):
            self._say_run(session.numeric)         # a saved comparison's Run both, reopened
        self.totals.setWordWrap(True)
        self.totals.setTextInteractionFlags(Qt.TextSelectableByMouse)
        outer.addWidget(self.totals)
        outer.addWidget(split, 1)
        self.setCentralWidget(central)
        self._make_work_bar()          # the numeric run's progress and Cancel: here
        for key, delta in (("N", 1), ("P", -1)):
            QShortcut(QKeySequence(key), self, activated=lambda k=delta: self.step(k))
        self.resize(*self.fitting())
        self._first = first or {}      # drawn at the first show: a fit must know the size
        self._pending: set = set()     # sides whose first picture is about to be built
        self._start_opening()          # the frame painted first, then A, then B

    def fitting(self) -> tuple:
        """SIZE, shrunk to 95 % of the screen the window opens on (a 1366x768 laptop)."""
        screen = self.screen()
        room = screen.availableGeometry() if screen is not None else None
        if room is None or room.isEmpty():
            return self.SIZE
        return (min(self.SIZE[0], int(room.width() * 0.95)),
                min(self.SIZE[1], int(room.height() * 0.95)))

    # -- the change list ------------------------------------------------------------------
    def _fill_changes(self) -> None:
        self.changes.model().set_rows(self.session.change_rows())
        self._rows_pending = False
        if self.session.row >= 0:              # stepped before the rows were in: select it
            self.changes.setCurrentIndex(self.changes.model().index(self.session.row))

    def _entry_chosen(self, index) -> None:
        self.session.go_to_row(index.row())
        self.refresh()

    # -- navigation -----------------------------------------------------------------------
    def step(self, delta: int) -> None:
        """n / p: the next stop (an interface row, a repeated change as one, a change)."""
        self.session.step(delta)
        if self.session.row >= 0 and not self._rows_pending:
            self.changes.setCurrentIndex(self.changes.model().index(self.session.row))
        self.refresh()

    def _clicked(self, side: str, item: str) -> None:
        if item and not item.endswith("/"):
            if self.merged_on:
                side, item = self.session.merged_pick(item)
            self.session.select(side, item)
            self.refresh()

    def _toggle(self, side: str, item: str) -> None:
        if item.endswith("/"):
            path = item[:-1]
            s = self.session
            s.expanded[side] = s.expanded[side] - {path} if path in s.expanded[side] else \
                s.expanded[side] | {path}
            self.refresh()

    def _changed_only(self, on: bool) -> None:
        self.session.changed_only(on)
        self.refresh()

    # -- drawing --------------------------------------------------------------------------
    def ready(self) -> bool:
        """Both sides laid out and drawn (the picture a screenshot takes)."""
        sides = ("B",) if self.merged_on else SIDES
        return all((("M" if self.merged_on else s) in self._drawn) and
                   self.canvases[s].viewport().updatesEnabled() for s in sides) and \
            not self.tasks.is_busy() and not self.own_tasks.is_busy() and \
            not self._pending and not self._rows_pending

    def refresh(self) -> None:
        if self._first is not None:
            return                     # not shown yet: showEvent draws
        self.status.setText(self.session.status())
        if self.merged_on:
            self._refresh_merged()
            return
        stale = [side for side in SIDES if self._drawn.get(side, (None,))[0] !=
                 self.session.expanded[side]]
        fresh = [side for side in SIDES if side not in stale]
        if not stale:
            self._decorate_fresh(fresh)
            return
        # the sides that need no new layout move with the others once it is made: both
        # sides change together, and no picture is painted while the layout task runs
        session = self.session
        self._paint_now()
        self._layout_gen = self.tasks.submit(
                          "compare-layout", lambda task: layouts(session, stale, task),
                          lambda result: self._laid_out(result, fresh),
                          lambda exc: self.status.setText(f"Layout failed: {exc}"),
                          label="Laying out the comparison")

    def _paint_now(self) -> None:
        """A picture built and not painted yet is painted before a layout task starts (a
        paint while it computes waits for the GIL at every Qt call: n pressed twice)."""
        for canvas in self.canvases.values():     # both scenes' changes marked, then one
            canvas.flush_scene()                  # paint of the window takes them all in
        for canvas in self.canvases.values():
            canvas.paint_now()

    def _laid_out(self, result: dict, fresh: list) -> None:
        for side, r in result.items():
            self._show(side, *r)
        self._decorate_fresh([s for s in fresh if self._drawn.get(s, (None,))[0] ==
                              self.session.expanded[s]])

    def _decorate_fresh(self, sides) -> None:
        for side in sides:
            if self.canvases[side].viewport().updatesEnabled() and side not in self._pending:
                self._decorate(side, self._drawn[side][1])     # not mid-build

    def run_numeric(self, allow_io: bool = False) -> None:
        """Both models on the same input, as this window's own task: its progress and Cancel
        show here, not in the main window behind it."""
        self.numeric_button.setEnabled(False)
        self._working("Running A and B on the same input")

        def done(divergence):
            self._working("")
            self.numeric_button.setEnabled(True)
            self._say_run(divergence)
            self._apply_numeric()
            self.refresh()

        def failed(exc):
            self._working("")
            self.numeric_button.setEnabled(True)
            if isinstance(exc, UnsafeGraphError) and not allow_io:
                if QMessageBox.question(self, "Run both", f"{exc}\n\nRun it anyway?") == \
                        QMessageBox.Yes:
                    self.run_numeric(allow_io=True)
                return
            name = unsized_input(exc)
            sizes = ask_size(self, exc, name) if name else None
            if sizes:            # asked here: this window has no Input sizes field
                self.run_sizes = {**self.run_sizes, **sizes}
                self.run_numeric(allow_io)
            elif not name:     # a size given here may be why (past the feed budget, one
                # the graph refuses): forgotten, or every later Run both fails alike with no
                # way to change it (hostile17: 100000,100000,100 kept Run both failing)
                given, self.run_sizes = self.run_sizes, {}
                again = "; ".join(f"{n}={','.join(map(str, d))}" for n, d in given.items())
                QMessageBox.warning(self, "Run both", f"Could not run the models: {exc}" + (
                    f" (the sizes given, {again}, are forgotten: Run both asks again)"
                    if given else ""))

        start_numeric(self.session, self.own_tasks, done, failed, allow_io, self.run_sizes)

    def _say_run(self, divergence) -> None:
        """Run both's result, kept and said: its own wrapped line under the totals (in the
        one-line status beside the buttons only its start showed, walk5)."""
        self.divergence = divergence
        self.totals.setText(f"{self.session.totals_text()}\nRun both: {divergence.headline()}")

    def _apply_numeric(self) -> None:
        if self.divergence is None:
            return
        for side in SIDES:
            drawn = self._drawn.get(side)
            expanded = drawn[0] if drawn else self.session.expanded[side]
            self.heat[side] = numeric_heat(self.session, side, self.divergence, expanded)

    # -- the merged view ---------------------------------------------------------------------
    def set_merged(self, on: bool) -> None:
        self.merged_on = on
        self.boxes["A"].setVisible(not on)
        self.titles["B"].setText(f"B with A's lost nodes as ghosts  "
                                 f"{self.session.diff.b_label}" if on else
                                 f"B  {self.session.diff.b_label}")
        self._drawn.pop("B", None)
        self._drawn.pop("M", None)
        # B's picture is replaced: not painted again at its new width meanwhile
        self.canvases["B"].clear_scene("Laying out the merged view…" if on else
                                       "Laying out B…")
        self.refresh()

    def _refresh_merged(self) -> None:
        expanded = self.session.expanded["B"]
        drawn = self._drawn.get("M")
        if drawn is not None and drawn[0] == expanded:
            self._decorate_merged(drawn[1])
            return
        session = self.session
        self._paint_now()

        def work(task):
            view, _ = session.merged_view()
            scene = view.scene(expanded, task)
            return (expanded, scene, edge_geometry(scene.edges, scene.items, scene.direction),
                    session.merged_paint(scene.items, expanded))

        def show(result):
            e, scene, geometry, painted = result
            if not self.merged_on:
                return
            self._drawn["M"] = (e, painted)
            self.canvases["B"].show_scene(scene, lambda: self._decorate_merged(painted, True),
                                          geometry)

        self._layout_gen = self.tasks.submit("compare-layout", work, show,
                          lambda exc: self.status.setText(f"Layout failed: {exc}"),
                          label="Laying out the merged view")

    def _decorate_merged(self, painted, fit: bool = False) -> None:
        view, ghosts = self.session.merged_view()
        expanded = self.session.expanded["B"]
        names = list(self.session.selected["B"])
        names += [ghosts[a] for a in self.session.selected["A"] if a in ghosts]
        items = [view.owner(view.badge_host(n), expanded) for n in names if n in view.graph]
        d = Decorations(selected=items[0] if items else None, cone=frozenset(items[1:]),
                        diff=painted)
        canvas = self.canvases["B"]
        canvas.decorate(d)
        if d.selected:
            canvas.center_on_item(d.selected, zoom_in=True)
        elif fit:
            self._first_view(canvas, self.session.inputs_drawn(
                "B", canvas.items_by_id, expanded, merged=True))

    def _first_view(self, canvas, inputs=()) -> None:
        """Both canvases at one readable scale: the whole graph if both fit at READABLE or
        more (up to 1:1), else their start at READABLE: the drawn items holding the graph's
        `inputs` (where its data flows from), else its top or left end."""
        shown = [c for c in self.canvases.values() if c.items_by_id and c.isVisibleTo(self)]
        fits = [c.fit_scale() for c in shown] or [1.0]
        scale = min(max(min(fits), READABLE), 1.0)
        canvas.show_start_at(scale, inputs)
        for other in shown:
            other.set_zoom(scale)

    def _zoom_synced(self, side: str, scale: float) -> None:
        """A zoom on one side (wheel, + / -) zooms the other alike."""
        other = self.canvases["B" if side == "A" else "A"]
        if other.items_by_id:
            other.set_zoom(scale)

    def _show(self, side: str, expanded, scene, geometry, painted, changes=None) -> None:
        """`changes`: changes_first() of the scene, made in its layout task (None: not made,
        a node was selected)."""
        self._pending.discard(side)
        self._drawn[side] = (expanded, painted)
        self._apply_numeric()
        self.canvases[side].show_scene(
            scene, lambda: self._decorate(side, painted, True, changes, scene), geometry)

    def _decorate(self, side: str, painted, fit: bool = False, changes=None,
                  scene=None) -> None:
        canvas = self.canvases[side]
        d = self.session.decorations(side, painted, self.heat.get(side))
        canvas.decorate(d)
        if d.selected:
            canvas.center_on_item(d.selected, zoom_in=True)
            self._zoom_synced(side, canvas.zoom_level())
        elif fit:       # the changes with Changed only on, else where the data starts
            expanded = self.session.expanded[side]
            if changes is None and scene is not None and self.only.isChecked():
                changes = changes_first(self.session, side, scene.items, expanded)   # rare
            start = [i for i in changes or () if i in canvas.items_by_id] \
                if self.only.isChecked() else []
            self._first_view(canvas, start or self.session.inputs_drawn(
                side, canvas.items_by_id, expanded))
