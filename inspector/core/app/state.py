"""The one application state (Qt-free, napari-style): every change goes through a method that
emits; views and panels only listen. It holds the model and what is shown of it (view,
expansion, scene, selection, cone), the workbench (marks and pipeline), the strip and pipeline
previews, the step shown after a transform, and the overlay. `decorations_changed` is the one
event the canvas needs besides a new scene: the pure core.view.decorations(state) says what
to paint on each item. Each use case's result (results.RESULTS) is a field with a generated
`set_<field>(value)` that stores it and emits `<field>_changed(value)`."""

from __future__ import annotations

from inspector.core.app.results import RESULTS, result_setter
from inspector.core.app.workbench import Workbench
from inspector.core.model.inputs import path_parts
from inspector.core.runtime.events import Event
from inspector.core.view.expansion import expand_all


class AppState:
    def __init__(self):
        self.workbench = Workbench()
        self.consent: set = set()          # findings the user allowed to run (this session)
        self.model_changed = Event()       # (model)
        self.summary_changed = Event()     # (summary) of the model, after its first picture
        self.view_changed = Event()        # (view) the graph shown, or how it is shown
        self.expansion_changed = Event()   # ()
        self.scene_changed = Event()       # (scene)
        self.scene_shown = Event()         # (scene) built on the canvas and painted
        self.selection_changed = Event()   # (name or None)
        self.strip_changed = Event()       # (StripPreview or None)
        self.rows_changed = Event()        # (rows)
        self.step_changed = Event()        # (row, after)
        self.step_view_wanted = Event()    # (key) show_step needs that row's graph laid out
        self.original_view_wanted = Event()  # (graph, fold_constants) a view to build off
        #                                      the GUI thread, then hand to put_original_view
        self.shapes_changed = Event()      # (view)
        self.decorations_changed = Event()  # () tags, dimming, diff, heat, badges, cone
        self.first_frame = Event()         # (model) its first picture is on screen
        self.trace_requested = Event()     # (node) follow it back to its feed points
        self.op_doc_changed = Event()      # (op, text or None) TF's description, app/properties.py
        self.tflite_preview_changed = Event()  # (Preview or None) app/tflite_check.py
        self.comparison_ready = Event()    # (compare_runs.Opened) a window to open for it
        for name, _, _ in RESULTS:
            setattr(self, name + "_changed", Event())
        self.message = Event()             # (text) for the status bar
        self.outcome = Event()             # (text) said as what asked-for work found (tell)
        self.error = Event()               # (text) for a dialog
        self.workbench.changed.connect(self.decorations_changed.emit)
        self._views: dict = {}             # preview row key -> ViewModel of that step
        self.engine = None                 # the preview engine of the model (see preview.py)
        self.op_docs: dict = {}            # op -> TF's own description (None: it has none)
        self.reset()

    def reset(self) -> None:
        self.model = self.summary = None
        self.original_view = self.view = None
        self.expanded: frozenset = frozenset({""})
        self.expansion_note = ""       # what Expand all left collapsed, and why
        self.expansion_asked = False   # the expansion is Expand all's: its picture's count
        #                                and note are said even while other work runs
        self.scene = None
        self.selected: str | None = None
        self._back: list = []
        self._forward: list = []
        self.cone = False
        self.cone_nodes: frozenset = frozenset()
        self.strip = None
        self.rows: tuple = ()
        self.step, self.after = 0, True
        self.shown_key = None          # key of the preview row whose graph is shown
        self.diff: dict = {}
        self.show_constants, self.direction = False, "TB"
        self._views = {}
        self.tflite: dict = {}         # variant -> tflite_mapping.Mapping of the last preview
        self.tflite_preview = None     # the last conversion preview (set_tflite_preview)
        self.framed = None             # the model whose first picture is on screen
        for name, empty, _ in RESULTS:
            setattr(self, name, empty() if callable(empty) else empty)

    # -- model and view -------------------------------------------------------------------
    def set_model(self, model, view, summary=None) -> None:
        show_constants, direction = self.show_constants, self.direction
        self.reset()
        self.show_constants, self.direction = show_constants, direction
        view.direction = direction
        self.model, self.summary, self.original_view, self.view = model, summary, view, view
        from inspector.core.app.preview import open_engine

        self.engine = open_engine(model)
        self.model_changed.emit(model)
        self.demo_changed.emit(None)
        self.view_changed.emit(view)
        self.expansion_changed.emit()

    def frame_shown(self, model) -> None:
        """The first picture of `model` is on screen (what waits for it starts now)."""
        if model is self.model:
            self.framed = model
            self.first_frame.emit(model)

    def set_summary(self, model, summary) -> None:
        """The summary of `model`, computed after it opened (dropped if another model is
        open by now)."""
        if model is self.model:
            self.summary = summary
            self.summary_changed.emit(summary)

    def show_view(self, view) -> None:
        """Show another graph (a step's result, a function body, the original)."""
        if view is self.view:
            self.decorations_changed.emit()
            return
        view.direction = self.direction
        self.view = view
        self.view_changed.emit(view)

    def set_layout_options(self, show_constants: bool | None = None,
                           direction: str | None = None) -> None:
        """Constants as nodes or as badges (the model's view is rebuilt: a listener builds it
        off the GUI thread and hands it to put_original_view), and the layout direction."""
        if show_constants is not None and show_constants != self.show_constants:
            self.show_constants = show_constants
            if self.original_view is not None:
                self.original_view_wanted.emit(self.original_view.graph, not show_constants)
        if direction is not None and direction != self.direction:
            self.direction = direction
            if self.view is not None:
                self.view.direction = direction
                self.view_changed.emit(self.view)

    def put_original_view(self, view) -> None:
        """The model's view rebuilt for the current constants option: installed (and shown if
        the model's graph is shown) unless the model or the option changed meanwhile."""
        current = self.original_view
        if current is None or view.graph is not current.graph or \
                view.fold_constants == self.show_constants:
            return
        view.shapes = current.shapes
        showing_original = self.view is current
        self.original_view = view
        self._views = {}
        if showing_original:
            self.show_view(view)

    def set_shapes(self, view, shapes: dict) -> None:
        view.shapes = shapes
        if view is self.view:
            self.shapes_changed.emit(view)

    # -- expansion --------------------------------------------------------------------------
    def _set_expanded(self, expanded, note: str = "", asked: bool = False) -> bool:
        """note: said with the picture; asked: Expand all's (expansion_asked)."""
        expanded = frozenset(expanded) | {""}
        self.expansion_note, self.expansion_asked = note, asked
        if expanded != self.expanded:
            self.expanded = expanded
            self.expansion_changed.emit()
            return True
        return False

    def set_expanded(self, path: str, on: bool) -> None:
        if not path:
            return
        if on:
            parts = path_parts(path)
            self._set_expanded(self.expanded | {"/".join(parts[:i])
                                                for i in range(1, len(parts) + 1)})
        else:
            self._set_expanded(p for p in self.expanded
                               if p != path and not p.startswith(path + "/"))

    def show_scopes(self, paths) -> None:
        """Exactly these scopes open (a tour stop); paths the graph lacks are left out."""
        if self.view is None:
            return
        known = {s.path for s in self.view.root.walk()}
        self._set_expanded(p for p in paths if p in known)

    def open_scopes(self, paths) -> None:
        """These scopes open too (a restored session); paths the graph lacks are left out (a
        look-up each: no walk of a big graph's scope tree)."""
        if self.view is not None:
            scopes = self.view.hierarchy.scopes
            self._set_expanded(self.expanded | {p for p in paths if p in scopes})

    def toggle_scope(self, path: str) -> None:
        self.set_expanded(path, path not in self.expanded)

    def expand_all(self) -> None:      # here and now (the window's menu: in a task)
        if self.view is not None:
            self.expand_to(expand_all(self.view.hierarchy))

    def expand_to(self, found) -> None:
        """Open an expansion.Expansion's scopes too; its note is said with the picture."""
        if not self._set_expanded(self.expanded | found.paths, found.note, asked=True):
            self.say(found.note or "Every scope is open")

    def collapse_all(self) -> None:
        self._set_expanded({""})

    def reveal(self, name: str) -> bool:
        """Expand the scopes around a node so it is drawn; True if anything changed."""
        from inspector.core.model.graph import scope_parts

        host = self._host(name)
        parts = self.view.parts(host) if self.view is not None else scope_parts(host)
        wanted = {"/".join(parts[:i]) for i in range(1, len(parts) + 1)}
        if wanted <= self.expanded:
            return False
        self._set_expanded(self.expanded | wanted)
        return True

    def visible_id(self, name: str) -> str:
        """The item that shows node `name` now: itself or its outermost collapsed scope."""
        if name.endswith("/") or self.view is None:
            return name
        return self.view.owner(self._host(name), self.expanded)

    def _host(self, name: str) -> str:
        """The node drawn for `name` (a folded constant is drawn as its consumer's badge)."""
        if self.view is None or name.endswith("/"):
            return name
        return self.view.badge_host(name)

    # -- scene, selection, cone ---------------------------------------------------------------
    def set_scene(self, scene) -> None:
        self.scene = scene
        self.scene_changed.emit(scene)
        self.decorations_changed.emit()

    def select(self, name: str | None, record: bool = True) -> None:
        if name == self.selected:
            return
        if record and self.selected is not None:
            self._back.append(self.selected)
            self._forward.clear()
        self.selected = name
        self.cone_nodes = frozenset()
        self.selection_changed.emit(name)
        self.decorations_changed.emit()

    def back(self) -> bool:
        """The node selected before (False: none; the menu says so)."""
        if self._back:
            self._forward.append(self.selected)
            self.select(self._back.pop(), record=False)
            return True
        return False

    def forward(self) -> bool:
        if self._forward:
            self._back.append(self.selected)
            self.select(self._forward.pop(), record=False)
            return True
        return False

    def set_cone(self, on: bool, nodes=frozenset()) -> None:
        self.cone, self.cone_nodes = on, frozenset(nodes) if on else frozenset()
        self.decorations_changed.emit()

    # -- workbench previews ------------------------------------------------------------------
    def set_strip(self, strip) -> None:
        self.strip = strip
        self.strip_changed.emit(strip)
        self.decorations_changed.emit()

    def set_rows(self, rows, final: bool = True) -> None:
        """New preview rows. While a recompute is still sending partial rows the step shown
        stays; the final rows drop it only if that step is gone or failed."""
        self.rows = tuple(rows)
        self.rows_changed.emit(self.rows)
        if not final:
            return
        alive = {row.key for row in self.rows}
        self._views = {k: v for k, v in self._views.items() if k in alive}
        if self.step >= len(self.rows) or (self.step and self.rows[self.step].report is None):
            self.show_step(0)
        elif self.step and self.rows[self.step].key != self.shown_key:
            self.show_step(self.step)  # the same step, recomputed: show what it is now

    def show_step(self, row: int, after: bool | None = None) -> None:
        """Show the graph after step `row` with what it added and changed, or the original
        with what the step removes (row 0: the original, no diff). A step's graph comes
        from the preview engine: until `put_step_view` brings it, the canvas keeps what
        it shows and `step_view_wanted` asks for it."""
        self.after = self.after if after is None else after
        self.step = row if 0 <= row < len(self.rows) else 0
        report = self.rows[self.step].report if self.step else None
        self.shown_key = self.rows[self.step].key if report is not None else None
        view = self.original_view
        if report is None:
            self.diff = {}
        elif self.after:
            view = self._views.get(self.shown_key)
            if view is None:
                self.step_changed.emit(self.step, self.after)
                self.step_view_wanted.emit(self.shown_key)
                return
            self.diff = {**{n: "added" for n in report.added},
                         **{n: "changed" for n in report.changed}}
        else:
            self.diff = {n: "removed" for n in report.removed}
        self.step_changed.emit(self.step, self.after)
        if view is not None:
            self.show_view(view)

    def shows_the_model(self) -> bool:
        """The canvas shows the model's graph or the graph after one of its pipeline steps
        (not a function's body): the scopes open there are the model's session's."""
        return self.view is not None and (
            self.view is self.original_view or
            (self.shown_key is not None and self.view is self._views.get(self.shown_key)))

    def step_graph(self, key: bytes):
        """The graph of preview row `key` if it was already fetched for the canvas (None:
        ask the preview engine for it)."""
        view = self._views.get(key)
        return view.graph if view is not None else None

    def put_step_view(self, key: bytes, view) -> None:
        """A step's graph, fetched and laid out off the GUI thread: shown if that step is
        still the one asked for, kept while its row lives."""
        if key not in {row.key for row in self.rows}:
            return
        self._views[key] = view
        if key == self.shown_key and self.after:
            self.show_step(self.step)

    # -- results of use cases (RESULTS' set_<field> are added after the class) ----------------
    def set_op_doc(self, op: str, text) -> None:
        self.op_docs[op] = text
        self.op_doc_changed.emit(op, text)

    def open_comparison(self, opened) -> None:     # nothing kept: the window holds it
        self.comparison_ready.emit(opened)

    def set_tflite_preview(self, preview) -> None:
        """The last conversion preview and how its variants' ops map onto the nodes."""
        self.tflite_preview = preview
        self.tflite = {r.variant: r.mapping for r in (preview.variants if preview else [])
                       if r.mapping is not None}
        self.tflite_preview_changed.emit(preview)
        self.overlay_changed.emit(self.overlay)     # Properties tells "merged into"

    def trace(self, name: str) -> None:
        self.trace_requested.emit(name)

    # -- messages ------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.message.emit(text)

    def tell(self, text: str) -> None:
        """Say what work the user asked for found: the status line keeps it past the work
        that starts after it (walk16: a check's result gave way to the opening's later
        work, then to "Ready")."""
        self.message.emit(text)
        self.outcome.emit(text)

    def fail(self, text: str) -> None:
        self.error.emit(text)

    def fail_unreadable(self, graph, exc) -> None:
        """A node of `graph` whose NodeDef does not parse (a big model's nodes are read when
        reached): its one-line error, once per graph and node."""
        told = self.__dict__.setdefault("_unreadable", {})
        key = (exc.path, exc.node)
        if told.get(key) != id(graph):       # (an id: the model is not kept alive by it)
            told[key] = id(graph)
            self.fail(exc.one_line())


for _name, _, _repaint in RESULTS:
    setattr(AppState, f"set_{_name}", result_setter(_name, _repaint))
del _name, _repaint
