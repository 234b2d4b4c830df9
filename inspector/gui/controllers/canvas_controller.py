"""The canvas and its minimap following the state: layouts off the GUI thread when the view,
the expansion or the known shapes change; decorations when anything painted on items changes;
clicks, keys and the context menu turned into state changes; navigation and zoom."""

from __future__ import annotations

import os
import threading
import time

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMenu

from inspector.core.app import cone
from inspector.core.app.decorations import decorations
from inspector.core.app.expanding import start_expand_all
from inspector.core.errors import Cancelled
from inspector.core.view.navigation import neighbour
from inspector.core.view.vocabulary import count
from inspector.gui.canvas.edges import edge_geometry
from inspector.gui.canvas.minimap import boxes_picture, minimap_groups, scene_bounds


SCREEN_WAIT = 2.0      # seconds a layout task waits for its first picture to be on screen,
# at most (a canvas that is not shown paints nothing)


def _wait(task, on_screen) -> None:
    """Until `on_screen` is set (or SCREEN_WAIT is over); Cancelled when the task is."""
    end = time.monotonic() + SCREEN_WAIT
    while not on_screen.wait(0.05) and time.monotonic() < end:
        task.check()
    task.check()


def opening_text(state, tasks, not_drawn) -> str:
    """"Opening NAME…" while a model loads, and while it is laid out for its first picture
    (`not_drawn`: the model whose first picture is not drawn yet); '' otherwise."""
    loading = tasks.label_of("load")
    if loading:
        return f"{loading}…"
    model = state.model
    if model is not None and model is not_drawn and tasks.is_busy():
        return f"Opening {os.path.basename(model.path.rstrip('/'))}…"
    return ""


class CanvasController(QObject):
    def __init__(self, state, tasks, canvas, minimap):
        super().__init__(canvas)
        self.state, self.tasks, self.canvas, self.minimap = state, tasks, canvas, minimap
        self.scenes_drawn = 0
        self.fit_next = False
        self.pending_center: str | None = None
        self.pending_toggled: tuple | None = None   # (scope id, opened) a user toggled
        self._first_frame_of = None
        self._asked = None      # what the layout in flight was asked for
        self._drawn = None      # (scene, edge geometry, minimap groups) of the last layout
        self._laid_for = (None, None)   # (the last scene laid out, the expansion it shows)
        self._told = None       # the expansion whose Expand all result was said
        self._counted = None    # (id of the view, expansion) whose picture's count was said
        self._on_screen = None  # (scene, threading.Event) a layout task waits on: set once
        # that scene is built and painted
        s = state
        s.model_changed.connect(self._model_changed)
        s.view_changed.connect(self._view_changed)
        s.expansion_changed.connect(self.request_layout)
        s.shapes_changed.connect(lambda *_: self.request_layout())
        s.scene_changed.connect(self._show_scene)
        s.original_view_wanted.connect(self._build_original_view)
        s.decorations_changed.connect(self.redecorate)
        s.selection_changed.connect(self._selection_changed)
        canvas.clicked.connect(s.select)
        canvas.activated.connect(self._activated)
        canvas.enter_pressed.connect(self._enter)
        canvas.walk.connect(self.walk)
        canvas.mark_key.connect(self.mark_selected)
        canvas.context_requested.connect(self.context_menu)
        tasks.busy.connect(lambda *_: self._show_waiting())

    # -- layout and drawing ------------------------------------------------------------------
    def _model_changed(self, model):
        self.fit_next = True
        self._first_frame_of = model
        self._show_waiting()

    def _show_waiting(self) -> None:
        self.canvas.show_waiting(opening_text(self.state, self.tasks, self._first_frame_of))

    def _view_changed(self, view):
        self.fit_next = True
        self.request_layout()

    def request_layout(self):
        view = self.state.view
        if view is None:
            return
        # what the layout needs, taken here: the task shares nothing with this thread
        expanded = frozenset(self.state.expanded)
        direction, shapes, cache = self.state.direction, view.shapes, view.cache
        size = self.minimap.picture_size()
        asked = (view, expanded, id(shapes), direction)
        if asked == self._asked and self.tasks.is_busy("layout"):
            return     # opening a model changes the view and the expansion: one layout
        self._asked = asked

        def drawn(scene, cache=None, on_screen=None):
            """The scene with what the canvas and the minimap draw of it, prepared here."""
            return (scene, edge_geometry(scene.edges, scene.items, scene.direction),
                    _minimap(scene, None, size), cache, on_screen)

        def work(task):
            mine = cache.copy()      # this task's own; the view adopts it when it is done
            scene = view.scene(expanded, task, defer_params=True, direction=direction,
                               shapes=shapes, cache=mine)
            if view.params_deferred():
                # a big graph: show it now, then again with the scopes' parameter counts,
                # read once it is on screen (reading them holds the GIL that the GUI thread
                # needs to build and paint it)
                on_screen = threading.Event()
                task.partial(drawn(scene, None, on_screen))
                _wait(task, on_screen)
                view.graph.const_facts()
                scene = view.scene(expanded, task, direction=direction, shapes=shapes,
                                   cache=mine)
            return drawn(scene, mine)

        def show(result):
            scene, geometry, minimap, filled, on_screen = result
            if on_screen is not None:
                self._wait_for_screen(scene, on_screen)
            else:       # the task's last result: its wait is over (a picture not painted
                self._let_go()      # within SCREEN_WAIT is not held on to)
            if filled is not None:
                view.adopt(filled)
            self._drawn = (scene, geometry, minimap)
            self._laid_for = (scene, expanded)
            self.state.set_scene(scene)

        def failed(exc):
            self._let_go()
            if not isinstance(exc, Cancelled):
                self.state.fail(f"Layout failed: {exc}")

        self._let_go()      # the layout in flight is cancelled: its wait ends
        self.tasks.submit("layout", work, show, failed, on_partial=show, label="Laying out")

    def _build_original_view(self, graph, fold_constants: bool):
        """The model's view with constants folded or not (about 1 s on 300k nodes)."""
        from inspector.core.view.view_graph import ViewModel

        current = self.state.original_view
        if current is not None and current.graph is graph and \
                current.fold_constants == fold_constants:
            self.tasks.cancel("view")       # toggled back before the other view was built
            return
        self.tasks.submit("view", lambda task: ViewModel(graph, fold_constants=fold_constants),
                          self.state.put_original_view,
                          lambda exc: self.state.fail(f"Could not rebuild the view: {exc}"),
                          label="Rebuilding the view")

    def _prepared(self, scene) -> tuple:
        """(edge geometry, minimap groups) prepared with `scene` by its layout task, else
        (None, None): the canvas and the minimap then work them out."""
        drawn = self._drawn
        return drawn[1:] if drawn is not None and drawn[0] is scene else (None, None)

    def _show_scene(self, scene):
        self.canvas.show_scene(scene, lambda: self._scene_built(scene), self._prepared(scene)[0])

    def _scene_built(self, scene):
        self.minimap.show_scene(scene, *(self._prepared(scene)[1] or ()))
        self._minimap_of = (scene, None)     # in the op categories' colours
        if self._drawn is not None and self._drawn[0] is scene:
            self._drawn = None
        self.scenes_drawn += 1
        self.redecorate()
        if self.fit_next:
            self.fit_next = False
            self.canvas.show_start()
        if self.pending_center:
            name, self.pending_center = self.pending_center, None
            self.canvas.center_on_item(self.state.visible_id(name))
        if self.pending_toggled:
            item_id, opened = self.pending_toggled
            node = self.canvas.items_by_id.get(item_id)
            if node is not None and (node.item.kind == "frame") == opened:  # (not a picture
                self.pending_toggled = None                   # from before the toggle)
                self.canvas.show_toggled(item_id)
        if self._first_frame_of is not None and self._first_frame_of is self.state.model:
            model, self._first_frame_of = self._first_frame_of, None
            self._show_waiting()
            # TensorFlow work starts after the first frame (its import would delay it)
            QTimer.singleShot(300, self, lambda: self._after_first_frame(model))
        # a picture of what was drawn already (its labels redrawn: shapes came, the
        # direction changed) is not said, whether its first drawing was said or came while
        # work ran: the line keeps "Ready" after the work
        shown = (id(self.state.view), self.state.expanded)
        fresh, self._counted = shown != self._counted, shown
        if self._expand_all_result(scene) or (fresh and not self.tasks.is_busy()):
            note = self.state.expansion_note
            caption = getattr(self.state.view, "caption", "")    # a function's body
            self.state.say((f"{caption}: " if caption else "") +
                           f"{count(len(scene.items), 'item')} shown" +
                           (f". {note}" if note else ""))
        self._painted(scene)

    def _wait_for_screen(self, scene, on_screen) -> None:
        """`on_screen` set once `scene` is built and painted (one waits at a time: an older
        one is let go now)."""
        self._let_go()
        self._on_screen = (scene, on_screen)

    def _let_go(self) -> None:
        """The layout task waiting for its picture goes on; its scene is no longer held."""
        if self._on_screen is not None:
            self._on_screen[1].set()
            self._on_screen = None

    def _painted(self, scene) -> None:
        """`scene` is built: painted now (not in a later turn, after the work that waited
        for it has taken the GIL), then said (state.scene_shown) and let the layout task
        waiting for it go on."""
        self.canvas.flush_scene()
        self.canvas.paint_now()
        if self._on_screen is not None and self._on_screen[0] is scene:
            self._let_go()
        self.state.scene_shown.emit(scene)

    def _expand_all_result(self, scene) -> bool:
        """Whether `scene` is the first picture of an Expand all: its count and what it left
        collapsed are said even while other work runs (the line names that work after them,
        then keeps them when it ends). Any other picture is said only when no work runs: the
        line then returns to "Ready" from the work's words, not to a count said meanwhile."""
        expanded, (laid, laid_open) = self.state.expanded, self._laid_for
        if not self.state.expansion_asked or self._told is expanded or laid is not scene or \
                laid_open != expanded:
            return False
        self._told = expanded
        return True

    def _after_first_frame(self, model):
        if model is self.state.model:
            self.state.frame_shown(model)
            self.infer_shapes(self.state.original_view)

    def infer_shapes(self, view):
        """Tensor shapes for edge labels (core.app.cone.start_shapes)."""
        cone.start_shapes(self.state, self.tasks, view,
                          lambda exc: self.state.say(f"No tensor shapes: {exc}"))

    def redecorate(self):
        d = decorations(self.state)
        self.canvas.decorate(d)
        self._recolour_minimap(d.heat)

    def _recolour_minimap(self, heat: dict) -> None:
        """The minimap in the colours of the canvas: an overlay's, else the op categories'
        (regrouped off the GUI thread when the overlay or the scene changes)."""
        scene = self.state.scene
        overlay = self.state.overlay if heat else None
        shown = getattr(self, "_minimap_of", (None, None))
        if scene is None or (shown[0] is scene and shown[1] is overlay):
            return
        if self._drawn is not None and self._drawn[0] is scene:
            return      # not drawn yet: its build's end shows the layout's minimap, then
            #             decorates it again (and recolours it here if an overlay paints it)
        self._minimap_of = (scene, overlay)
        size = self.minimap.picture_size()
        self.tasks.submit("minimap", lambda task: _minimap(scene, heat or None, size),
                          lambda made: scene is self.state.scene and
                          self.minimap.show_scene(scene, *made), quiet=True)

    def expand_all(self) -> None:
        """View > Expand all scopes (core.app.expanding: counted in a task, then opened)."""
        start_expand_all(self.state, self.tasks)

    # -- interaction -------------------------------------------------------------------------
    def _activated(self, item_id: str):
        if item_id.endswith("/"):
            self.toggle(item_id)

    def _enter(self) -> None:
        """Enter opens or closes the scope whose box (or frame) shows the selection, as a
        double-click does; on a node drawn as itself it does nothing (nor while presenting:
        the tour's keys move between stops)."""
        name = self.state.selected
        if not name or self.canvas.style.presenting:
            return
        shown = self.state.visible_id(name)
        if shown.endswith("/") and shown in self.canvas.items_by_id:
            self.toggle(shown)

    def toggle(self, item_id: str) -> None:
        """Open or close the scope a user chose; once drawn, its frame or box is brought
        into view (canvas.show_toggled)."""
        self.pending_toggled = (item_id, item_id[:-1] not in self.state.expanded)
        self.state.toggle_scope(item_id[:-1])

    def _selection_changed(self, name):
        if self.state.cone:
            self.set_cone(True)

    def jump_to(self, name: str) -> None:
        """Select a node, expanding scopes as needed, and centre it."""
        self.state.select(name)
        if self.state.reveal(name):
            self.pending_center = name
        else:
            self.canvas.center_on_item(self.state.visible_id(name))

    def walk(self, direction: str):
        view, name = self.state.view, self.state.selected
        if view is None or not name:
            return
        target = neighbour(view.graph, name, direction, view)
        if target:
            self.jump_to(target)

    def zoom_to_selection(self):
        node = None
        if self.state.selected:
            node = self.canvas.items_by_id.get(self.state.visible_id(self.state.selected))
        if node is None:
            self.state.say("Select a node or a scope to zoom to it")
            return
        self.canvas.fitInView(node.sceneBoundingRect().adjusted(-150, -150, 150, 150),
                              Qt.KeepAspectRatio)

    def set_cone(self, on: bool):
        """Highlight everything upstream and downstream of the selected node."""
        cone.start_cone(self.state, self.tasks, on)

    def mark_selected(self, kind: str):
        name = self.state.selected
        if not name or name.endswith("/") or self.state.view is None:
            self.state.say("Select a node (not a scope) to mark it")
            return
        bench = self.state.workbench
        (bench.toggle_input if kind == "input" else bench.toggle_output)(name)

    def context_menu(self, item_id, global_pos):
        s, bench = self.state, self.state.workbench
        menu = QMenu(self.canvas)
        if item_id.endswith("/"):
            expanded = item_id[:-1] in s.expanded
            menu.addAction("Collapse" if expanded else "Expand",
                           lambda: self.toggle(item_id))
        menu.addAction("Highlight upstream and downstream",
                       lambda: (s.select(item_id), self.set_cone(True)))
        if not item_id.endswith("/"):
            inp = "Unmark input" if item_id in bench.inputs else "Mark as input (I)"
            out = "Unmark output" if item_id in bench.outputs else "Mark as output (O)"
            menu.addAction(inp, lambda: bench.toggle_input(item_id))
            menu.addAction(out, lambda: bench.toggle_output(item_id))
            menu.addAction("Trace to inputs", lambda: (s.select(item_id), s.trace(item_id)))
        name = item_id[:-1] if item_id.endswith("/") else item_id   # a scope's path: "/",
        menu.addAction("Copy name",                                 # "a/" kept whole
                       lambda: QApplication.clipboard().setText(name))
        menu.popup(global_pos)
        self.menu = menu
        return menu

    # -- other graphs --------------------------------------------------------------------------
    def show_function(self, name: str) -> bool:
        """One FunctionDef of the library as a graph of its own (_Arg/_Retval ends)."""
        def failed(exc):
            self.state.fail(f"Could not show function {name}: {exc}")

        return cone.start_function_view(self.state, self.tasks, name, failed)

    def show_main_graph(self) -> None:
        if self.state.original_view is not None:
            self.state.show_view(self.state.original_view)


def _minimap(scene, heat, size) -> tuple:
    """(groups, picture) of the minimap for `scene`, made in a task (Minimap.show_scene)."""
    groups = minimap_groups(scene, heat)
    return groups, boxes_picture(groups, scene_bounds(scene), size)
