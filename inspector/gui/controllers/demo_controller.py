"""Demo runs in the window: a dropped photo, folder, WAV or .npy (or Demo > Run on a file…)
runs the open model off the GUI thread, in the TensorFlow worker; the results go to the
state, which the Demo panel and the canvas's feature-map strips listen to."""

from __future__ import annotations

import os

from inspector.core.app import demo_runs
from inspector.core.errors import InspectorError, UnsafeGraphError
from inspector.core.view.hierarchy import scope_at
from inspector.gui.wording import said

WARM_AT_OPEN = 128 * 2 ** 20   # models up to this size get their demo session at open
MAX_BLOCKS = 120     # block ends fetched per run (collapsed scopes, in data-flow order)
INPUT_FILTER = "Photos, sounds, arrays (*.jpg *.jpeg *.png *.bmp *.gif *.wav *.npy);;All (*)"


class DemoController:
    def __init__(self, state, tasks, panel, dialogs):
        self.state, self.tasks, self.p, self.dialogs = state, tasks, panel, dialogs
        self.input_path: str | None = None
        self.convention = ""          # the presenter's value range ("" = as detected)
        self.labels = None            # a labels file the presenter picked
        self.runs = 0
        self.grid = None
        self.tried: set = set()       # scene items whose block ends the last run fetched
        panel.run_requested.connect(self.choose_input)
        panel.labels_requested.connect(self.choose_labels)
        panel.range_chosen.connect(self.set_range)
        state.demo_changed.connect(panel.show_run)
        state.demo_changed.connect(self._ran)
        state.model_changed.connect(self._model_changed)
        state.scene_changed.connect(self._scene_changed)
        state.shapes_changed.connect(self._shapes_known)
        view = state.original_view
        if view is not None and view is state.view and view.shapes is not None:
            self._shapes_known(view)          # TensorFlow answered before it existed

    def _ran(self, run) -> None:
        if run is not None:
            self.runs += 1

    def _model_changed(self, *_):
        self._warmed = None      # never keep a model the window has let go (its memory)
        self.input_path, self.convention, self.labels = None, "", None
        self.tried = set()
        self.p.set_range("")
        if self.grid is not None:
            self.grid.close()

    # -- what the presenter does ------------------------------------------------------------
    def choose_input(self) -> None:
        path = self.dialogs.pick_file("Run the model on…", INPUT_FILTER)
        if path:
            self.run_on(path)

    def choose_labels(self) -> None:
        path = self.dialogs.pick_file("Class names, one per line", "Text (*.txt);;All (*)")
        if not path:
            return
        try:
            self.labels = demo_runs.read_labels(path)
        except InspectorError as exc:
            self.state.fail(said(exc))
            return
        self.rerun()

    def set_range(self, key: str) -> None:
        self.convention = key
        self.rerun()

    def rerun(self) -> None:
        if self.input_path and self.state.model is not None:
            self.run_on(self.input_path)

    def show_grid(self, item_id: str) -> None:
        from inspector.gui.panels.feature_grid import FeatureGrid

        run = self.state.demo
        maps = next((b for b in (run.blocks if run else []) if b.item == item_id), None)
        if maps is None:
            return
        if self.grid is not None:
            self.grid.close()
        self.grid = FeatureGrid(maps, run.blocks, self.dialogs.parent)
        self.grid.show()

    def _shapes_known(self, view) -> None:
        """TensorFlow has answered for this model (shape inference): a model of moderate
        size gets its demo session now, so the first photo dropped answers at once (the
        session costs the worker about the model's size in memory; big models wait for the
        Demo panel)."""
        model = self.state.model
        if model is not None and view is self.state.original_view and \
                0 < getattr(model, "file_size", 0) <= WARM_AT_OPEN:
            self.warm()

    def _scene_changed(self, scene) -> None:
        """Scopes opened since the last run get their feature maps: run the input again."""
        if not self.input_path or self.state.view is not self.state.original_view:
            return
        shown = {i for i, it in scene.items.items() if it.kind == "scope"}
        if shown - self.tried:
            self.rerun()

    def _open_wrapper(self):
        """A model inside one wrapper scope (Keras's model name) shows its blocks: open it,
        and return the blocks it will show (scope tree order), else None."""
        s = self.state
        if s.scene is None or s.view is not s.original_view:
            return None
        scopes = [i for i, it in s.scene.items.items() if it.kind == "scope"]
        if len(scopes) != 1 or scopes[0][:-1] in s.expanded:
            return None
        wrapper = scopes[0][:-1]
        scope = scope_at(s.view.graph.scope_tree(), wrapper)
        paths = [c.path for c in scope.children.values()]
        self.tried = {p + "/" for p in paths}
        s.set_expanded(wrapper, True)
        return paths[:MAX_BLOCKS], {p: p + "/" for p in paths[:MAX_BLOCKS]}

    # -- the run ------------------------------------------------------------------------------
    def _blocks(self) -> tuple[list, dict]:
        s = self.state
        if s.scene is None or s.view is not s.original_view:
            return [], {}
        scopes = [it for it in s.scene.items.values() if it.kind == "scope"]
        scopes.sort(key=lambda it: (it.y, it.x))
        self.tried = {it.id for it in scopes}     # shown now: only new ones ask for a rerun
        ids = [it.id for it in scopes[:MAX_BLOCKS]]
        return [i[:-1] for i in ids], {i[:-1]: i for i in ids}

    def warm(self) -> None:
        """Get the model's session ready in the worker before the first input arrives (the
        Demo panel was shown, or a photo is being dragged over the window). Quiet, and only
        once per model."""
        s = self.state
        if s.model is None or self.input_path or getattr(self, "_warmed", None) is s.model:
            return
        paths, item_ids = self._blocks()
        if demo_runs.warm(s, self.tasks, paths, item_ids):
            self._warmed = s.model

    def run_on(self, path: str, allow_io: bool = False) -> None:
        s = self.state
        paths, item_ids = (self._open_wrapper() or self._blocks()) if s.original_view \
            else ([], {})

        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.dialogs.consent(exc, "Running the model"):
                    self.run_on(path, True)
                return
            self.p.show_run(s.demo)
            s.fail(said(exc))

        self.input_path = path
        if demo_runs.start_run(s, self.tasks, path, paths, item_ids, failed, self.convention,
                               self.labels, allow_io):
            self.p.busy(f"Running the model on {os.path.basename(path.rstrip('/'))}…")
