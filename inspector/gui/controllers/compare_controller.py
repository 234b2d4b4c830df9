"""File > Compare with…: opens model B, diffs it against the open model as a task (off the
GUI thread, with progress and cancel) and shows the comparison window."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog, QMessageBox


class CompareController:
    """Made from its collaborators: the state, the tasks, the dialogs (their parent is the
    parent of its file choosers and message boxes) and `open_variant(name)`, the Phone panel's
    converted variant as a file (its path, or None)."""

    def __init__(self, state, tasks, dialogs, open_variant):
        self.state, self.tasks, self.dialogs = state, tasks, dialogs
        self.open_variant = open_variant
        self.windows: list = []        # comparison windows kept alive while open
        self.on_error = None           # set: failures go there, not to a dialog (--screenshot)

    def compare_with(self, path: str = "") -> None:
        w = self.dialogs.parent
        model = self.state.model
        if model is None:
            QMessageBox.information(w, "Compare", "Open a model first (A), then compare it "
                                                  "with another (B).")
            return
        if not path:
            from inspector.core.app.opening import open_dialog_filter

            path, _ = QFileDialog.getOpenFileName(w, "Compare with…", os.path.dirname(
                model.path or ""), open_dialog_filter())
        if not path:
            return
        a_label = os.path.basename(model.path.rstrip("/")) or "A"
        b_label = os.path.basename(path.rstrip("/"))
        graph = model.graph
        ports = (list(self.state.workbench.inputs), list(self.state.workbench.outputs))

        def work(task):
            from inspector.core.app.comparing import compare
            from inspector.core.app.identical import same_as_opened
            from inspector.core.app.opening import open_model

            task.progress(2, 100, f"Opening {b_label}")
            same = same_as_opened(model, path) is not None    # B is A: not parsed again
            gb = graph if same else open_model(path).graph
            session = compare(graph, gb, a_label, b_label, job=task,
                              paths=(model.path, path), totals=True)
            session.ports = ports
            return session

        self._submit(work, f"Comparing with {b_label}")

    def compare_step(self, row: int) -> None:
        """The graph after pipeline step `row` against the original, with the pipeline's own
        provenance (renames, merges, splits of each step up to it)."""
        rows, engine, model = self.state.rows, self.state.engine, self.state.model
        if model is None or engine is None or not 0 < row < len(rows) or \
                rows[row].report is None:
            self.state.say("Preview a pipeline first: there is no step to compare")
            return
        reports = [r.report for r in rows[1:row + 1]]
        key, label = rows[row].key, rows[row].label
        ports = (list(self.state.workbench.inputs), list(self.state.workbench.outputs))
        a_label = os.path.basename(model.path.rstrip("/")) or "original"

        step_graph = self._step_graphs(engine)

        def work(task):
            from inspector.core.app.comparing import compare

            task.progress(1, 100, f"Fetching the graph after {label}")
            gb = step_graph(key)
            if gb is None:
                from inspector.core.errors import InspectorError

                raise InspectorError("that step is no longer previewed; try again")
            session = compare(model.graph, gb, a_label, f"after {label}",
                              steps=reports, job=task, paths=(model.path, ""), totals=True)
            session.ports = ports
            return session

        self._submit(work, f"Comparing the original with the graph after {label}")

    def _step_graphs(self, engine):
        """key -> the Graph after that preview step: the one the canvas already fetched, else
        from the preview engine (the worker, in the app; call it in a task)."""
        state = self.state
        known = {row.key: state.step_graph(row.key) for row in state.rows}  # GUI thread

        def step_graph(key):
            from inspector.core.app.queries import Graph

            graph = known.get(key)
            if graph is None:
                graph_def = engine.graph(key)
                graph = Graph(graph_def) if graph_def is not None else None
            return graph

        return step_graph

    def compare_variant(self, variant: str) -> None:
        """A converted TFLite variant against the GraphDef it came from (matched by the
        converter's fused tensor names first)."""
        path = self.open_variant(variant)
        if path:
            self.compare_with(path)

    def compare_stages(self) -> None:
        """The original and the graph after every previewed step as synced lanes."""
        rows, engine, model = self.state.rows, self.state.engine, self.state.model
        if engine is None or model is None or len(rows) < 2:
            self.state.say("Preview a pipeline first: there are no stages")
            return
        step_graph = self._step_graphs(engine)

        def work(task):
            from inspector.core.app.lanes import pipeline_lanes

            return pipeline_lanes(model.graph, step_graph, rows, task)

        def done(session):
            from inspector.gui.lanes_window import LanesWindow

            win = LanesWindow(session, self.tasks)
            self._on_owner_screen(win)
            self.windows.append(win)
            win.show()

        self.tasks.submit("compare", work, done, self._failed, label="Matching the stages")

    def open_document(self, path: str = "") -> None:
        """File > Open comparison…: a saved comparison, its models opened again from the
        paths it names (a path outside the file's folder only after a yes)."""
        w = self.dialogs.parent
        if not path:
            path, _ = QFileDialog.getOpenFileName(w, "Open comparison", "",
                                                  "Comparisons (*.json)")
        if not path:
            return
        from inspector.core.app.comparison_files import read_document
        from inspector.core.errors import InspectorError

        try:
            d, a_path, b_path, outside = read_document(path)
        except InspectorError as exc:
            QMessageBox.warning(w, "Open comparison", exc.one_line())
            return
        if outside and QMessageBox.question(
                w, "Open comparison", "The comparison names models outside its folder:\n" +
                "\n".join(outside) + "\n\nOpen them?") != QMessageBox.Yes:
            return

        def work(task):
            from inspector.core.app.comparison_files import reopen
            from inspector.core.app.opening import open_model

            a = open_model(a_path)
            b = open_model(b_path)
            return reopen(d, a.graph, b.graph, (a_path, b_path), job=task)

        def done(result, first):
            session, note = result
            self._show(session, first)
            if note:
                self.state.say(note)

        self._submit(work, "Opening the comparison", done)

    def _submit(self, work, label: str, done=None) -> None:
        """Compare as a task, then lay out both sides in the same task: the window opens with
        its pictures made, and nothing of that runs beside the GUI thread later."""
        from inspector.gui.compare_window import layouts

        def run(task):
            result = work(task)
            session = result[0] if isinstance(result, tuple) else result
            task.progress(96, 100, "laying out both sides")
            return result, layouts(session, ("A", "B"), task)

        self.tasks.submit("compare", run, lambda pair: (done or self._show)(*pair),
                          self._failed, label=label)

    def _show(self, session, first: dict | None = None) -> None:
        from inspector.gui.compare_window import CompareWindow

        win = CompareWindow(session, self.tasks, first=first)
        self._on_owner_screen(win)
        win.destroyed.connect(lambda *_: self.windows.remove(win) if win in self.windows
                              else None)
        self.windows.append(win)
        win.show()

    def _on_owner_screen(self, win) -> None:
        """A comparison or lanes window opens on the main window's screen, fitted to it."""
        owner = getattr(self.dialogs, "parent", None)       # the main window
        screen = owner.screen() if owner is not None else None
        if screen is not None and screen is not win.screen():   # opens where it is
            win.setScreen(screen)
            win.resize(*win.fitting())

    def _failed(self, exc) -> None:
        from inspector.core.errors import Cancelled

        if isinstance(exc, Cancelled):
            return
        if self.on_error is not None:
            self.on_error(f"could not compare: {exc}")
        else:
            QMessageBox.warning(self.dialogs.parent, "Compare", f"Could not compare: {exc}")
