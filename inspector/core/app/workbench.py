"""The optimization workbench state: marked inputs/outputs and the transform pipeline, with
undo/redo, transform_graph text in both directions, and a session file beside the model."""

from __future__ import annotations

import json
import os
import time

from inspector.core.errors import InspectorError
from inspector.core.app.session import Signal
from inspector.core.transforms.syntax import TransformSpec, format_transforms, parse_transforms

SESSION_VERSION = 1


def session_path(model_path: str) -> str:
    return model_path.rstrip("/\\") + ".inspector.json"


class Workbench:
    def __init__(self):
        self.changed = Signal()          # () after every edit, undo or redo
        self.reset()

    def reset(self) -> None:
        """Forget marks, pipeline and history (listeners stay connected)."""
        self.inputs: list = []
        self.outputs: list = []
        self.steps: list = []            # TransformSpec, each with .enabled
        self.input_shapes: dict = {}
        self._undo: list = []
        self._redo: list = []

    # -- snapshots and history ----------------------------------------------------------
    def to_dict(self) -> dict:
        return {"version": SESSION_VERSION, "inputs": list(self.inputs),
                "outputs": list(self.outputs),
                "input_shapes": {k: list(v) for k, v in self.input_shapes.items()},
                "pipeline": [{"name": s.name, "params": s.params, "enabled": s.enabled}
                             for s in self.steps]}

    def load_dict(self, data: dict) -> None:
        if not isinstance(data, dict) or data.get("version") != SESSION_VERSION:
            raise InspectorError("not a GraphDef Inspector session (unknown version)")
        self.inputs = [str(x) for x in data.get("inputs", [])]
        self.outputs = [str(x) for x in data.get("outputs", [])]
        self.input_shapes = {k: tuple(v) for k, v in data.get("input_shapes", {}).items()}
        self.steps = [TransformSpec(str(s["name"]), {k: [str(x) for x in v]
                                                     for k, v in s.get("params", {}).items()},
                                    bool(s.get("enabled", True)))
                      for s in data.get("pipeline", [])]

    def _edit(self, fn) -> None:
        self._undo.append(json.dumps(self.to_dict()))
        self._redo.clear()
        fn()
        self.changed.emit()

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append(json.dumps(self.to_dict()))
        self.load_dict(json.loads(self._undo.pop()))
        self.changed.emit()
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append(json.dumps(self.to_dict()))
        self.load_dict(json.loads(self._redo.pop()))
        self.changed.emit()
        return True

    # -- marks --------------------------------------------------------------------------
    def toggle_input(self, name: str) -> None:
        self._edit(lambda: _toggle(self.inputs, name))

    def toggle_output(self, name: str) -> None:
        self._edit(lambda: _toggle(self.outputs, name))

    def set_marks(self, inputs: list, outputs: list) -> None:
        def apply():
            self.inputs, self.outputs = list(inputs), list(outputs)
        self._edit(apply)

    # -- pipeline -----------------------------------------------------------------------
    @property
    def text(self) -> str:
        return format_transforms(s for s in self.steps if s.enabled)

    def set_text(self, text: str) -> None:
        specs = parse_transforms(text)  # raises with a column on bad syntax
        if format_transforms(specs) == self.text:
            return

        def apply():
            self.steps = specs
        self._edit(apply)

    def add_step(self, name: str, index: int | None = None, params: dict | None = None) -> None:
        spec = TransformSpec(name, dict(params or {}))
        self._edit(lambda: self.steps.insert(len(self.steps) if index is None else index, spec))

    def move_step(self, src: int, dst: int) -> None:
        def apply():
            spec = self.steps.pop(src)
            self.steps.insert(dst, spec)
        self._edit(apply)

    def remove_step(self, index: int) -> None:
        self._edit(lambda: self.steps.pop(index))

    def set_enabled(self, index: int, on: bool) -> None:
        def apply():
            self.steps[index].enabled = on
        self._edit(apply)

    def set_param(self, index: int, key: str, values: list) -> None:
        def apply():
            if values:
                self.steps[index].params[key] = list(values)
            else:
                self.steps[index].params.pop(key, None)
        self._edit(apply)

    # -- session file -------------------------------------------------------------------
    def save(self, model_path: str) -> str:
        from inspector.core.formats.writer import atomic_write

        path = session_path(model_path)
        atomic_write(path, json.dumps(self.to_dict(), indent=2) + "\n", force=True)
        return path

    def restore(self, model_path: str) -> str | None:
        """Load the session saved beside the model. An unreadable file is kept as a backup
        and reported (InspectorError); the workbench then starts empty."""
        path = session_path(model_path)
        if not os.path.exists(path):
            return None
        try:
            with open(path, encoding="utf-8") as fh:
                self.load_dict(json.load(fh))
        except (OSError, ValueError, KeyError, TypeError, InspectorError) as exc:
            backup = f"{path}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}"
            try:
                os.replace(path, backup)
            except OSError:
                backup = path
            self.reset()
            raise InspectorError(f"session file is unreadable ({str(exc)[:120]}); kept it as "
                                 f"{backup}", path=path) from None
        self._undo.clear()
        self._redo.clear()
        self.changed.emit()
        return path


def _toggle(items: list, name: str) -> None:
    if name in items:
        items.remove(name)
    else:
        items.append(name)
