"""N-way comparison: the pipeline's stages (or any models) as synced lanes, one graph canvas
each; click a node in one lane and its counterparts light up in every other lane (what each
stage added or changed is coloured in its lane). Layouts run as tasks."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter, QVBoxLayout, QWidget

from inspector.core.app.lanes import LanesSession
from inspector.core.runtime import letting_go
from inspector.gui.canvas.edges import edge_geometry
from inspector.gui.canvas.graph_canvas import GraphCanvas
from inspector.gui.panels.adaptive import OneLine


class LanesWindow(QMainWindow):
    def __init__(self, session: LanesSession, tasks, parent=None):
        super().__init__(parent)
        self.session, self.tasks = session, tasks
        self.setWindowTitle("Compare the stages: " + "  →  ".join(session.labels))
        self.canvases, self._drawn, self.titles, self.said = [], {}, [], []
        split = QSplitter(Qt.Horizontal)
        for k, label in enumerate(session.labels):
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(3, 3, 3, 3)
            summary = _summary(session.diffs[k - 1].counts()) if k else "starting point"
            # one line each, elided (whole in the tooltip): a long step name wrapped to
            # three lines and started its lane's graph lower than its neighbours'
            title, said = OneLine(), OneLine()
            title.setText(f"{k}. {label}")
            said.setText(summary)
            bold = title.font()
            bold.setBold(True)
            title.setFont(bold)
            small = said.font()
            small.setPointSizeF(small.pointSizeF() * 0.85)
            said.setFont(small)
            said.setFixedHeight(said.fontMetrics().height() + 2)
            self.titles.append(title)
            self.said.append(said)
            canvas = GraphCanvas(box)
            canvas.clicked.connect(lambda item, lane=k: self._clicked(lane, item))
            lay.addWidget(title)
            lay.addWidget(said)
            lay.addWidget(canvas, 1)
            split.addWidget(box)
            self.canvases.append(canvas)
        split.setSizes([1000] * len(session.labels))     # lanes of equal width
        self.status = QLabel("Click a node in any lane: its counterparts light up in the others.")
        central = QWidget()
        outer = QVBoxLayout(central)
        outer.addWidget(self.status)
        outer.addWidget(split, 1)
        self.setCentralWidget(central)
        self.resize(*self.fitting())
        self.refresh()

    def closeEvent(self, event) -> None:
        # its lanes' layouts are stopped: their results would come to a deleted window (the
        # controller deletes a closed one) and hold the stages till they end
        for lane in range(len(self.canvases)):
            self.tasks.cancel(f"lanes-layout-{id(self)}-{lane}", quiet=True)
        super().closeEvent(event)

    def let_go(self) -> None:
        """The stages (a graph and a diff a stage) freed in short calls on a thread of their
        own once the window's last Python reference is gone (the controller asks, the
        window deleted), as a comparison window's comparison is."""
        session = self.__dict__.pop("session", None)
        if session is not None:
            letting_go.let_go(session)

    def fitting(self) -> tuple:
        """420 px a lane (at least 900) by 820, shrunk to 95 % of the screen the window opens
        on (it opened 820 high on a 768-high laptop: the lanes' bottoms off the screen)."""
        want = (max(900, 420 * len(self.session.labels)), 820)
        screen = self.screen()
        room = screen.availableGeometry() if screen is not None else None
        if room is None or room.isEmpty():
            return want
        return (min(want[0], int(room.width() * 0.95)), min(want[1], int(room.height() * 0.95)))

    def _clicked(self, lane: int, item: str) -> None:
        if not item or item.endswith("/"):
            return
        self.session.select(lane, item)
        found = sum(1 for names in self.session.selected if names)
        self.status.setText(f"'{item}' of lane {lane}: found in {found} of "
                            f"{len(self.canvases)} lanes")
        self.refresh()

    def refresh(self) -> None:
        s = self.session
        for lane, canvas in enumerate(self.canvases):
            expanded = s.expanded[lane]
            drawn = self._drawn.get(lane)
            if drawn is not None and drawn[0] == expanded:
                self._decorate(lane, drawn[1])
                continue
            view = s.views[lane]

            def work(task, lane=lane, view=view, expanded=expanded):
                scene = view.scene(expanded, task)
                return (expanded, scene, edge_geometry(scene.edges, scene.items,
                                                       scene.direction),
                        s.paint(lane, scene.items, expanded))

            self.tasks.submit(f"lanes-layout-{id(self)}-{lane}", work,
                              lambda result, lane=lane: self._show(lane, *result),
                              lambda exc: self.status.setText(f"Layout failed: {exc}"),
                              label="Laying out the stages")

    def _show(self, lane: int, expanded, scene, geometry, diff) -> None:
        self._drawn[lane] = (expanded, diff)
        self.canvases[lane].show_scene(scene, lambda: self._decorate(lane, diff, True),
                                       geometry)

    def _decorate(self, lane: int, diff, fit: bool = False) -> None:
        canvas = self.canvases[lane]
        d = self.session.decorations(lane, diff)
        canvas.decorate(d)
        if d.selected:
            canvas.center_on_item(d.selected, zoom_in=True)
        elif fit:
            canvas.show_start()      # fitted while boxes stay readable, else its start


def _summary(counts: dict) -> str:
    """What a stage changed against the one before, in one line; 'no change' for a step that
    changed nothing (its line was empty, as if the summary were missing)."""
    said = ", ".join(f"{v} {s}" for s, v in counts.items()
                     if s in ("changed", "added", "removed", "merged", "split", "renamed")
                     and v)
    return said or "no change"

