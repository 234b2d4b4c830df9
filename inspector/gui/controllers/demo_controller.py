"""Demo runs in the window: a dropped photo, folder, WAV or .npy (or Demo > Run on a file…)
runs the open model off the GUI thread, in the TensorFlow worker; the results go to the
state, which the Demo panel and the canvas's feature-map strips listen to."""

from __future__ import annotations

import os

from inspector.core.errors import InspectorError, UnsafeGraphError

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
        state.model_changed.connect(self._model_changed)
        state.scene_changed.connect(self._scene_changed)
        state.shapes_changed.connect(self._shapes_known)

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
        from inspector.core.app.files import read_labels_file

        path = self.dialogs.pick_file("Class names, one per line", "Text (*.txt);;All (*)")
        if not path:
            return
        try:
            self.labels = read_labels_file(path)
        except InspectorError as exc:
            self.state.fail(exc.one_line())
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
        scope = s.view.graph.scope_tree()
        for part in wrapper.split("/"):
            scope = scope.children[part]
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
        Demo panel was shown, or a photo is being dragged over the window): the first run
        imports the graph, seconds for a big model. Quiet, and only once per model."""
        from inspector.core.app import demo

        s = self.state
        model, engine = s.model, s.engine
        if model is None or engine is None or self.input_path or \
                getattr(self, "_warmed", None) is model:
            return
        self._warmed = model
        ins, outs = demo.choose_ports(s.workbench.inputs, s.workbench.outputs, s.summary)
        paths, item_ids = self._blocks()
        shapes = s.original_view.shapes if s.original_view else None

        def work(task):
            plan = demo.plan(model.graph, ins, outs, shapes, None, paths, "", None, item_ids)
            demo.run(engine, plan, demo.stand_in(plan.front), job=task)

        self.tasks.submit("demo-warm", work, lambda _: None, lambda _: None, quiet=True)

    def run_on(self, path: str, allow_io: bool = False) -> None:
        from inspector.core.app import demo
        from inspector.core.app.files import read_input

        s = self.state
        model, view, engine = s.model, s.original_view, s.engine
        if model is None or view is None:
            s.say("Open a model first: then drop a photo, sound or .npy on it to run it.")
            return
        if engine is None:
            s.fail("Demo runs need TensorFlow, which is not available here.")
            return
        self.input_path = path
        ins, outs = demo.choose_ports(s.workbench.inputs, s.workbench.outputs, s.summary)
        paths, item_ids = self._open_wrapper() or self._blocks()
        shapes, convention, labels = view.shapes, self.convention, self.labels
        name = os.path.basename(path.rstrip("/"))
        self.p.busy(f"Running the model on {name}…")

        def work(task):
            task.progress(0, 0, f"reading {name}")
            inputs = read_input(path)
            task.check()
            plan = demo.plan(model.graph, ins, outs, shapes, convention or None, paths,
                             model.path, labels, item_ids)
            task.check()
            run = demo.run(engine, plan, inputs.first, allow_io, job=task)
            if len(inputs.photos) > 1:
                run.notes.append(f"the first of {len(inputs.photos)} photos in the folder")
            if inputs.skipped:
                run.notes.append(f"{len(inputs.skipped)} other file(s) in the folder skipped")
            return run

        def done(run):
            if s.model is model:
                self.runs += 1
                s.set_demo(run)
                top = next((v for v in run.outputs if v.kind == "classes"), None)
                s.say(f"Ran on {run.label}: " + (f"{top.labels[0]} "
                      f"({top.top[0][1] * 100:.1f} %)" if top else "done"))

        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.dialogs.consent(exc, "Running the model"):
                    self.run_on(path, True)
                return
            self.p.show_run(s.demo)
            s.fail(getattr(exc, "one_line", lambda: str(exc))())

        self.tasks.submit("demo", work, done, failed, label=f"Running the model on {name}")
