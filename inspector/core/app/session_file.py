"""The session file beside a model (`MODEL.inspector.json`): read defensively, since it may come
with a model from anywhere. It is checked field by field, never runs anything by itself, and a
file it names outside its own folder is not used until the user enables that step."""

from __future__ import annotations

import json
import os

from inspector.core.errors import InspectorError
from inspector.core.loaders import files

SESSION_VERSION = 1
SESSION_LIMIT = 16 * 2 ** 20
MAX_ITEMS = 10_000
MAX_TEXT = 100_000


def session_path(model_path: str) -> str:
    return model_path.rstrip("/\\") + ".inspector.json"


class SessionError(InspectorError):
    """The session file cannot be used (it is kept untouched and reported)."""


def _strings(value, what: str) -> list:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise SessionError(f"'{what}' must be a list of names")
    if not all(isinstance(x, str) and len(x) <= MAX_TEXT for x in value):
        raise SessionError(f"'{what}' must hold only names (text)")
    return list(value)


def _shapes(value) -> dict:
    if not isinstance(value, dict) or len(value) > MAX_ITEMS:
        raise SessionError("'input_shapes' must map input names to shapes")
    out = {}
    for name, dims in value.items():
        if not isinstance(dims, list) or len(dims) > 64 or not all(
                isinstance(d, int) and not isinstance(d, bool) and -1 <= d < 2 ** 31
                for d in dims):
            raise SessionError(f"'input_shapes' of '{str(name)[:80]}' must be a list of sizes")
        out[name] = tuple(dims)
    return out


def _steps(value) -> list:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise SessionError("'pipeline' must be a list of steps")
    steps = []
    for k, step in enumerate(value):
        if not isinstance(step, dict) or not isinstance(step.get("name"), str):
            raise SessionError(f"pipeline step {k + 1} must have a name")
        params = step.get("params", {})
        if not isinstance(params, dict):
            raise SessionError(f"pipeline step {k + 1} ({step['name'][:40]}): 'params' must map "
                               "names to lists of values")
        clean = {}
        for key, values in params.items():
            clean[key] = _strings(values, f"{step['name'][:40]}.{str(key)[:40]}")
        enabled = step.get("enabled", True)
        if not isinstance(enabled, bool):
            raise SessionError(f"pipeline step {k + 1}: 'enabled' must be true or false")
        steps.append((step["name"], clean, enabled))
    return steps


def parse_session(text: str) -> dict:
    """The validated content of a session file: inputs, outputs, input_shapes, steps, tour."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise SessionError("nested too deeply") from None
    except ValueError as exc:
        raise SessionError(f"not JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict) or data.get("version") != SESSION_VERSION:
        raise SessionError("not a GraphDef Inspector session (unknown version)")
    from inspector.core.app.tour import TourError, parse_stops

    try:
        stops = parse_stops(data.get("tour"))
    except TourError as exc:
        raise SessionError(exc.message) from None
    return {"inputs": _strings(data.get("inputs", []), "inputs"),
            "outputs": _strings(data.get("outputs", []), "outputs"),
            "input_shapes": _shapes(data.get("input_shapes", {})),
            "steps": _steps(data.get("pipeline", [])), "tour": stops}


def read_session(path: str) -> dict:
    try:
        text = files.read_text(path, SESSION_LIMIT, "the session file", error=SessionError)
    except SessionError as exc:
        raise SessionError(exc.message, path=path) from None
    try:
        return parse_session(text)
    except SessionError as exc:
        raise SessionError(exc.message, path=path) from None


def outside_folder(session: str, value: str) -> str | None:
    """The absolute path a path parameter names when it lies outside the session file's
    folder (the file is then not used without asking), else None."""
    folder = os.path.dirname(os.path.abspath(session))
    target = os.path.realpath(os.path.join(folder, value))
    if target.startswith(os.path.realpath(folder).rstrip(os.sep) + os.sep):
        return None
    return target
