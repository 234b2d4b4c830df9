"""The optimization workbench state: marked inputs/outputs and the transform pipeline, with
undo/redo, transform_graph text in both directions, and a session file beside the model."""

from __future__ import annotations

import errno
import json
import os
import time

from inspector.core.app.session_file import (
    SESSION_VERSION,
    SessionError,
    outside_folder,
    parse_session,
    read_session,
    session_path,
    session_paths,
    sizes_held_back,
)
from inspector.core.app.tour import Tour
from inspector.core.errors import InspectorError
from inspector.core.runtime.events import Event
from inspector.core.transforms.names import MODULE_OF

MAX_TEXT = 1_000_000
from inspector.core.transforms.syntax import (
    TransformSpec,
    format_transforms,
    parse_transforms,
)


class Workbench:
    def __init__(self):
        self.changed = Event()           # () after every edit, undo or redo
        self.tour = Tour()               # saved in the same file; not part of undo
        self.reset()

    def reset(self) -> None:
        """Forget marks, pipeline and history (listeners stay connected)."""
        self.inputs: list = []
        self.outputs: list = []
        self.steps: list = []            # TransformSpec, each with .enabled
        self.input_shapes: dict = {}
        self.expanded: list = []         # the scopes left open (kept in the session file)
        self.warnings: list = []         # what restoring a session file held back
        self.unreadable: str | None = None  # a session file we could not read (kept as is)
        self.partly_read: str | None = None  # one we read only in part (kept before saving)
        self._undo: list = []
        self._redo: list = []
        self.tour.stops = []

    # -- snapshots and history ----------------------------------------------------------
    def to_dict(self) -> dict:
        return {"version": SESSION_VERSION, "inputs": list(self.inputs),
                "outputs": list(self.outputs),
                "input_shapes": {k: list(v) for k, v in self.input_shapes.items()},
                "pipeline": [{"name": s.name, "params": s.params,
                              "enabled": s.enabled or s.held} for s in self.steps]}

    def load_dict(self, data: dict) -> None:
        self._apply(parse_session(json.dumps(data)))

    def _apply(self, session: dict) -> None:
        self.inputs, self.outputs = session["inputs"], session["outputs"]
        self.input_shapes = session["input_shapes"]
        self.steps = [TransformSpec(name, params, enabled)
                      for name, params, enabled in session["steps"]]
        for spec in self.steps:     # a step this version does not know is not run, and its
            if spec.name not in MODULE_OF and spec.enabled:   # file keeps it enabled
                spec.enabled, spec.held = False, True

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

    def set_input_shapes(self, shapes: dict) -> None:
        """The sizes given for inputs ({name: [dims]}; inputs.set_input_sizes)."""
        def apply():
            self.input_shapes = {k: list(v) for k, v in shapes.items()}
        self._edit(apply)

    # -- pipeline -----------------------------------------------------------------------
    @property
    def text(self) -> str:
        return format_transforms(s for s in self.steps if s.enabled)

    @property
    def text_lines(self) -> str:
        """The same text with one transform per line (transform_graph reads either)."""
        return "\n".join(format_transforms([s]) for s in self.steps if s.enabled)

    def set_text(self, text: str) -> None:
        """Replace the pipeline by transform_graph text: refused (TransformError) for bad
        syntax, empty text, unknown transforms and parameter values they cannot take."""
        from inspector.core.transforms.pipeline import check_names

        if len(text) > MAX_TEXT:
            raise InspectorError(f"the text is {len(text):,} characters long; a pipeline of "
                                 f"at most {MAX_TEXT:,} is accepted")
        specs = parse_transforms(text)  # raises with a column on bad syntax
        if not specs:
            raise InspectorError("the text holds no transforms")
        check_names(specs)
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
            self.steps[index].enabled, self.steps[index].held = on, False
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
        """Write the session beside the model (in the data folder for the demo or a read-only
        folder: `session_paths`). A session file we could not read is first moved aside
        (never overwritten), once."""
        from inspector.core.formats.writer import atomic_write

        path = session_paths(model_path)[0]
        if path != session_path(model_path):
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
            except OSError as exc:
                raise InspectorError(f"cannot make the sessions folder ({exc.strerror})",
                                     path=path) from None
        for held, what in ((self.unreadable, "unreadable"), (self.partly_read, "partly-read")):
            if held == path and os.path.lexists(path):
                try:
                    _keep_aside(path, f"{path}.{what}-{time.strftime('%Y%m%d-%H%M%S')}")
                except OSError as exc:
                    raise InspectorError(f"cannot keep the {what} session file aside "
                                         f"({exc.strerror}); not saving over it",
                                         path=path) from None
        self.unreadable = self.partly_read = None
        data = self.to_dict()
        if self.tour.stops:
            data["tour"] = self.tour.to_list()
        if self.expanded:
            data["expanded"] = list(self.expanded)
        atomic_write(path, json.dumps(data, indent=2) + "\n", force=True)
        return path

    def restore(self, model_path: str, graph=None) -> str | None:
        """Load the session saved for the model (the data folder's copy first, then the one
        beside it: `session_paths`), without writing anything. With the model's `graph`,
        an input size that contradicts its declared shape or that no made-up input could
        take is dropped and said (session_file.sizes_held_back). An unreadable
        file is reported (SessionError) and left as it is until the first save moves it aside.
        Steps naming files outside the session's folder are disabled (self.warnings). A part
        that fails its check (a step, a stop, the marks) is dropped and said in
        self.warnings; every other part is restored, and the file is moved aside, not
        overwritten, by the first save."""
        self.warnings, self.unreadable, self.partly_read = [], None, None
        path = next((p for p in session_paths(model_path)[1] if os.path.lexists(p)), None)
        if path is None:
            return None
        try:
            session = read_session(path)
        except SessionError as exc:
            self.reset()
            self.unreadable = path
            raise SessionError(f"session file not used: {exc.message}", path=path) from None
        if graph is not None:
            session["input_shapes"], said = sizes_held_back(graph, session["input_shapes"])
            session["dropped"] += said
        self._apply(session)
        self.expanded = session["expanded"]
        self.tour.replace(session["tour"])
        if session["dropped"]:
            self.partly_read = path
            self.warnings.extend(session["dropped"])
        self._hold_back_unknown()
        self._hold_back_outside_paths(session_path(model_path))  # the model's folder
        self._undo.clear()
        self._redo.clear()
        self.changed.emit()
        return path

    def _hold_back_unknown(self) -> None:
        """A step this version has no transform for (a newer version's, or a typo) is kept,
        so that saving does not lose it (enabled or not, as the file said), but not run
        (_apply disables it) and said (by name, not imported)."""
        for k, spec in enumerate(self.steps):
            if spec.name not in MODULE_OF:
                name = "".join(c if c.isprintable() else "?" for c in spec.name[:60])
                self.warnings.append(f"step {k + 1} ('{name}{'…' if len(spec.name) > 60 else ''}"
                                     "') is not a transform this version knows: kept, "
                                     "disabled, and not run")

    def _hold_back_outside_paths(self, session: str) -> None:
        import inspector.core.transforms  # noqa: F401  (registers every transform)
        from inspector.core.transforms.base import REGISTRY

        for k, spec in enumerate(self.steps):
            if not spec.params:     # nothing that could name a path; and asking the registry
                continue            # imports the transform's module (numpy: not at start)
            info = REGISTRY.get(spec.name)
            kinds = {p.name: p.kind for p in info.params} if info else {}
            for key, values in spec.params.items():
                for value in values:
                    target = outside_folder(session, value) if kinds.get(key) == "path" \
                        else None
                    if target and spec.enabled:
                        spec.enabled = False
                        self.warnings.append(
                            f"step {k + 1} ({spec.name}) reads {target}, outside the session "
                            "file's folder: it stays disabled until you enable it")


def transforms():
    """Every transform (name -> TransformInfo: params, doc) for the pipeline editor; listing
    them imports their modules (numpy): not before the first picture."""
    from inspector.core.transforms import REGISTRY

    return REGISTRY


def validate_param(param, text: str) -> str:
    """An error message for a parameter value, or '' when it is fine (the same rules as the
    pipeline applies before it runs: transforms.base.Param.check)."""
    from inspector.core.transforms.base import TransformError

    if not text:
        return f"{param.name} is required" if param.required else ""
    values = text.split(",") if param.repeated and param.kind != "shape" else [text]
    try:
        param.check("", values)
    except TransformError as exc:
        return exc.message.lstrip(": ")
    return ""


def _toggle(items: list, name: str) -> None:
    if name in items:
        items.remove(name)
    else:
        items.append(name)


def _keep_aside(path: str, stem: str) -> None:
    """Move `path` to `stem` (or stem-2, -3...: a copy kept aside before, in the same
    second), never over a file: a hard link fails on a taken name, where a check and then a
    rename could go over a copy made between the two."""
    for k in range(1, 1000):
        backup = stem if k == 1 else f"{stem}-{k}"
        try:
            os.link(path, backup, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError:                # no hard links on this file system: check, then move
            if os.path.lexists(backup):
                continue
            os.replace(path, backup)
            return
        os.unlink(path)
        return
    raise FileExistsError(errno.EEXIST, "no free name beside it", stem)
