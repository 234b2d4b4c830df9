"""The session file beside a model (`MODEL.inspector.json`; in the user's data folder for the
demo and read-only folders, `session_paths`): read defensively, since it may come
with a model from anywhere. It is checked field by field, never runs anything by itself, and a
file it names outside its own folder is not used until the user enables that step."""

from __future__ import annotations

import json
import os
import re

from inspector.core.errors import InspectorError
from inspector.core.loaders import files
from inspector.core.model.dtypes import item_size
from inspector.core.runtime import feed_budget
from inspector.core.runtime.feed_budget import dims_text

SESSION_VERSION = 1
SESSION_LIMIT = 16 * 2 ** 20
MAX_ITEMS = 10_000
MAX_TEXT = 100_000


def session_path(model_path: str) -> str:
    """The session file beside the model; also the anchor its relative paths are resolved
    against, wherever the file is kept (see `session_paths`)."""
    return model_path.rstrip("/\\") + ".inspector.json"


def data_session_path(model_path: str) -> str:
    """Where the session of a model that must not be written beside is kept:
    `$XDG_DATA_HOME/graphdef-inspector/sessions/` (`~/.local/share` without it), named by a
    hash of the model's path (relative to the app for the bundled demo, so a frozen build's
    changing temporary folder keeps one session) and its file name."""
    import zlib   # not hashlib: its OpenSSL waits until the first picture is up

    from inspector.core.formats.writer import among_app_files

    full = os.path.abspath(model_path.rstrip("/\\"))
    key = among_app_files(full)
    key = ("app:" + key if key is not None else full).encode("utf-8", "surrogateescape")
    digest = f"{zlib.crc32(key):08x}{zlib.adler32(key):08x}"
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "graphdef-inspector", "sessions",
                        f"{digest}-{os.path.basename(full)}.inspector.json")


def session_paths(model_path: str) -> tuple:
    """(where the session is written, the files it is read from, first found first): beside
    the model, or, for a model among the app's files (the demo) or in a folder the user cannot
    write, the user's data folder, read first, and then the file beside the model (the demo's
    shipped marks). Either way paths inside are resolved against the model's folder, as if
    the file sat beside it."""
    from inspector.core.formats.writer import not_for_writing

    beside = session_path(model_path)
    if not not_for_writing(model_path):
        return beside, (beside,)
    kept = data_session_path(model_path)
    return kept, (kept, beside)


class SessionError(InspectorError):
    """The session file cannot be used (it is kept untouched and reported)."""


def _strings(value, what: str) -> list:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise SessionError(f"'{what}' must be a list of names")
    if not all(isinstance(x, str) and len(x) <= MAX_TEXT for x in value):
        raise SessionError(f"'{what}' must hold only names (text)")
    return list(value)


def _shapes(value, dropped: list) -> dict:
    """The input sizes; a size that is no list of sizes 1 or more is dropped (and said), the
    others kept."""
    if not isinstance(value, dict) or len(value) > MAX_ITEMS:
        raise SessionError("'input_shapes' must map input names to shapes")
    out = {}
    for name, dims in value.items():
        shown = _shown(name)
        if not isinstance(dims, list) or len(dims) > 64 or not all(
                isinstance(d, int) and not isinstance(d, bool) and d < 2 ** 31 for d in dims):
            dropped.append(f"'input_shapes' of '{shown}' must be a list of sizes: dropped")
        elif any(d < 1 for d in dims):
            dropped.append(f"'input_shapes' of '{shown}': [{','.join(map(str, dims))}] has a "
                           "size under 1: dropped")
        else:
            out[name] = tuple(dims)
    return out


def _shown(name) -> str:
    return "".join(c if c.isprintable() else "?" for c in str(name)[:80])


def size_misfit(node, dims) -> str:
    """Why sizes `dims` do not fit the declared shape of input `node` ('' when they fit or
    it declares none): another number of dimensions, or another size where one is fixed."""
    known = node.declared_dims
    if known is None or (len(known) == len(dims) and all(
            k is None or k == d for k, d in zip(known, dims))):
        return ""
    shown = ",".join("?" if k is None else str(k) for k in known)
    return f"{node.name}={dims_text(dims)} does not fit its declared shape [{shown}]"


def sizes_held_back(graph, shapes: dict) -> tuple:
    """(the restored input sizes that fit the model, one line for each one dropped): sizes
    that contradict an input's declared shape, or that a made-up input could not take (past
    the feed budget, feed_budget.feed_limit), go. A name the model lacks is kept as it is."""
    kept, said, limit = {}, [], None
    for name, dims in shapes.items():
        node = graph.get(name)
        misfit = size_misfit(node, dims) if node is not None else ""
        if not misfit and node is not None:
            attr = node.proto.attr
            each = item_size(attr["dtype"].type) if "dtype" in attr else 4
            need = max(each, 1)
            for d in dims:
                need *= d
            limit = limit or feed_budget.feed_limit()
            if need > limit[0]:
                words = feed_budget.size_words
                misfit = f"{name}={dims_text(dims)} needs {words(need)}, past the " \
                         f"{words(limit[0])} that made-up inputs may take ({limit[1]})"
        if misfit:
            said.append(f"'input_shapes' of '{_shown(name)}': {misfit}: dropped")
        else:
            kept[name] = dims
    return kept, said


def _step(step, k: int):
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
    return step["name"], clean, enabled


def _steps(value, dropped: list) -> list:
    """The pipeline's steps; a bad step is dropped (and said), the others kept in order."""
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise SessionError("'pipeline' must be a list of steps")
    steps = []
    for k, step in enumerate(value):
        try:
            steps.append(_step(step, k))
        except SessionError as exc:
            dropped.append(f"{exc.message}: step dropped")
    return steps


_PARTS = (("inputs", [], lambda v, d: _strings(v, "inputs")),
          ("outputs", [], lambda v, d: _strings(v, "outputs")),
          ("input_shapes", {}, _shapes),
          ("pipeline", [], _steps),
          ("expanded", [], lambda v, d: _strings(v, "expanded")))


def _int(digits: str):
    """A JSON integer; one too long for Python's int() (over 4,300 digits) becomes a float
    (inf), so that only the part holding it fails its check, not the whole file."""
    return int(digits) if len(digits) <= 4000 else float(digits)


_DECODER = json.JSONDecoder(parse_int=_int)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


def _loads(text: str) -> tuple:
    """(the file's JSON, one line for each top-level part left out): a part nested too
    deeply for the parser is left out alone (hostile17: a 'tour' of 100,000 nested lists
    refused the whole file, marks and pipeline with it), read a part at a time then."""
    try:
        return json.loads(text, parse_int=_int), []
    except RecursionError:
        pass
    ws, out, deep = json.decoder.WHITESPACE.match, {}, []
    i = ws(text, 0).end()
    if text[i:i + 1] != "{":
        raise RecursionError
    i = ws(text, i + 1).end()
    while text[i:i + 1] != "}":
        if text[i:i + 1] != '"':
            raise ValueError(f"a part's name expected at character {i}")
        key, i = json.decoder.scanstring(text, i + 1)
        i = ws(text, i).end()
        if text[i:i + 1] != ":":
            raise ValueError(f"':' expected at character {i}")
        i = ws(text, i + 1).end()
        try:
            out[key], i = _DECODER.raw_decode(text, i)
        except RecursionError:
            i = _past(text, i)
            deep.append(f"'{_shown(key)}' is nested too deeply: dropped")
        i = ws(text, i).end()
        if text[i:i + 1] == ",":
            i = ws(text, i + 1).end()
        elif text[i:i + 1] != "}":
            raise ValueError(f"',' or '}}' expected at character {i}")
    if ws(text, i + 1).end() != len(text):
        raise ValueError(f"extra data at character {i + 1}")
    return out, deep


def _past(text: str, i: int) -> int:
    """The position after the list or object that starts at i (its strings skipped)."""
    depth = 0
    for m in _TOKEN.finditer(text, i):
        token = m.group()
        if token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth -= 1
            if depth == 0:
                return m.end()
    raise ValueError("a part is not closed")


def parse_session(text: str) -> dict:
    """The content of a session file: inputs, outputs, input_shapes, steps, tour, and
    `dropped`: one message per part (or step, or stop) that failed its check and was left
    out; every other part is kept. Only a file that is not a session at all is refused. A file
    written by a newer version keeps what this one understands."""
    try:
        data, deep = _loads(text)
    except RecursionError:
        raise SessionError("nested too deeply") from None
    except ValueError as exc:
        raise SessionError(f"not JSON ({str(exc)[:80]})") from None
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, float) and version.is_integer():
        version = int(version)     # 1.0: another writer's number for 1 (hostile17)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SessionError("not a GraphDef Inspector session (unknown version)")
    from inspector.core.app.tour import parse_stops_keeping

    out, dropped = {}, deep
    for key, empty, parse in _PARTS:
        try:
            out[key] = parse(data.get(key, empty), dropped)
        except SessionError as exc:
            out[key] = type(empty)()
            dropped.append(f"{exc.message}: '{key}' dropped")
    out["steps"] = out.pop("pipeline")
    out["tour"], tour_dropped = parse_stops_keeping(data.get("tour"))
    out["dropped"] = dropped + tour_dropped
    if version > SESSION_VERSION:
        out["dropped"].append(f"written by a newer version ({version}): parts this version "
                              "does not know were left out")
    return out


def read_session(path: str) -> dict:
    """The session file's parts (parse_session); one that is not valid UTF-8 (an editor's
    Latin-1, a damaged copy) is read with each byte it cannot decode as U+FFFD and says so
    in 'dropped' (what is restored may hold those characters), not silently."""
    try:
        data = files.read_file(path, SESSION_LIMIT, "the session file", error=SessionError)
    except SessionError as exc:
        raise SessionError(exc.message, path=path) from None
    bad = ""
    try:     # an editor's byte order mark is no harm (json.loads refuses it: the whole file)
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8-sig", errors="replace")
        bad = (f"the file is not valid UTF-8 (from byte {exc.start:,}): what could not be "
               "read was restored as \ufffd")
    try:
        session = parse_session(text)
    except SessionError as exc:
        raise SessionError(exc.message, path=path) from None
    if bad:
        session["dropped"].insert(0, bad)
    return session


def outside_folder(session: str, value: str) -> str | None:
    """The absolute path a path parameter names when it lies outside the session file's
    folder (the file is then not used without asking), else None. `session` is the path
    beside the model (`session_path`), also for a session kept in the data folder."""
    folder = os.path.dirname(os.path.abspath(session))
    if "\0" in value:      # no file has such a name: never inside (realpath would raise)
        return os.path.join(folder, value.replace("\0", "\\0"))
    target = os.path.realpath(os.path.join(folder, value))
    if target.startswith(os.path.realpath(folder).rstrip(os.sep) + os.sep):
        return None
    return target
