"""Qt-free application state that views subscribe to (napari-style: models emit, views listen)."""

from __future__ import annotations

from typing import Callable


class Signal:
    """A minimal event: connect callbacks, emit arguments to them in order."""

    def __init__(self):
        self._slots: list = []

    def connect(self, fn: Callable) -> None:
        self._slots.append(fn)

    def disconnect(self, fn: Callable) -> None:
        self._slots = [s for s in self._slots if s is not fn]

    def emit(self, *args) -> None:
        for fn in list(self._slots):
            fn(*args)


class Session:
    """The open model, what is expanded and selected, navigation history, search state."""

    def __init__(self):
        self.model = None
        self.view = None            # ViewModel of the open graph
        self.scene = None           # last laid-out Scene
        self.selected: str | None = None
        self.expanded: set = {""}
        self.show_constants = False
        self._back: list = []
        self._forward: list = []
        self.model_changed = Signal()      # (model)
        self.expansion_changed = Signal()  # ()
        self.scene_changed = Signal()      # (scene)
        self.selection_changed = Signal()  # (name or None)
        self.message = Signal()            # (text) for the status bar

    def set_model(self, model, view) -> None:
        self.model, self.view, self.scene = model, view, None
        self.selected = None
        self.expanded = {""}
        self._back.clear()
        self._forward.clear()
        self.model_changed.emit(model)
        self.expansion_changed.emit()

    def set_scene(self, scene) -> None:
        self.scene = scene
        self.scene_changed.emit(scene)

    # -- expansion ----------------------------------------------------------------------
    def toggle_scope(self, path: str) -> None:
        self.set_expanded(path, path not in self.expanded)

    def set_expanded(self, path: str, on: bool) -> None:
        if not path:
            return
        if on:
            parts = path.split("/")
            self.expanded |= {"/".join(parts[:i]) for i in range(1, len(parts) + 1)}
        else:
            self.expanded = {p for p in self.expanded if p != path and not p.startswith(path + "/")}
        self.expansion_changed.emit()

    def expand_all(self) -> None:
        if self.view is not None:
            self.expanded = {s.path for s in self.view.root.walk()}
            self.expansion_changed.emit()

    def collapse_all(self) -> None:
        self.expanded = {""}
        self.expansion_changed.emit()

    def reveal(self, name: str) -> bool:
        """Expand the scopes around a node so it is drawn; True if anything changed."""
        from inspector.core.model.graph import scope_of

        scope = scope_of(name)
        if not scope:
            return False
        parts = scope.split("/")
        wanted = {"/".join(parts[:i]) for i in range(1, len(parts) + 1)}
        if wanted <= self.expanded:
            return False
        self.expanded |= wanted
        self.expansion_changed.emit()
        return True

    # -- selection and history ----------------------------------------------------------
    def select(self, name: str | None, record: bool = True) -> None:
        if name == self.selected:
            return
        if record and self.selected is not None:
            self._back.append(self.selected)
            self._forward.clear()
        self.selected = name
        self.selection_changed.emit(name)

    def back(self) -> None:
        if self._back:
            self._forward.append(self.selected)
            self.select(self._back.pop(), record=False)

    def forward(self) -> None:
        if self._forward:
            self._back.append(self.selected)
            self.select(self._forward.pop(), record=False)
