"""A comparison as a document: saved as JSON (the models' paths relative to the file's
folder), read back (a path outside that folder is opened only once the user said yes), and
reopened on the models as they are now."""

from __future__ import annotations

import errno
import json
import os
import sys
import traceback

from inspector.core.app.comparing import SIDES, CompareSession, compare
from inspector.core.app.exports import is_temporary
from inspector.core.compare.diff import Diff
from inspector.core.compare.document import from_dict, to_dict
from inspector.core.errors import InspectorError
from inspector.core.formats.writer import TargetExists, atomic_write
from inspector.core.loaders import files
from inspector.core.loaders.sniff import sniff
from inspector.core.model.graph import Graph
from inspector.core.runtime import json_pieces
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.runtime.lazy_import import later

# numpy with it: imported when a saved Run both is read back, not with this module
compare_numeric = later("inspector.core.compare.numeric", globals(), "compare_numeric")


def save_document(session: CompareSession, path: str) -> list:
    """The diff as JSON with the models' paths relative to the file's folder (atomic write).
    A model that is a temporary file (a converted variant, removed when the app exits) is
    kept beside the comparison first, as COMPARISON_MODEL.tflite (written atomically, never
    over an existing file: a file of other bytes gets a number) and the comparison names
    the kept copy; the comparison never goes over one of its own models. Returns the
    copies kept."""
    why = unsaved_side(session)
    if why:
        raise InspectorError(why, path=path)
    target = os.path.abspath(path)
    for side, p in zip(SIDES, session.paths):
        if p and os.path.exists(p) and os.path.exists(target) and os.path.samefile(p, target):
            raise InspectorError(f"this is model {side}'s own file: save the comparison under "
                                 "another name", path=path)
    paths, kept = [], []
    for p in session.paths:
        if p and is_temporary(p) and os.path.exists(p):
            p = _kept_beside(p, target)
            kept.append(p)
        paths.append(p)
    data = to_dict(session.diff)
    where = os.path.dirname(target)
    data["models"] = {side: os.path.relpath(os.path.abspath(p), where) if p else ""
                      for side, p in zip(SIDES, paths)}
    if session.numeric is not None and hasattr(session.numeric, "as_dict"):
        data["numeric"] = session.numeric.as_dict()     # as `diff --numeric --json` has it
    atomic_write(path, json.dumps(data, indent=1), force=True)
    session.paths = tuple(paths)      # saved again: the kept copy, not the temporary one
    return kept


def unsaved_side(session: CompareSession) -> str:
    """Why the comparison cannot be saved to open again ('' when it can): a side that is no
    file (a pipeline step's graph, made in memory) could not be found when it is opened, so
    the file would only ever say "names no model B" (a user walk saved one from the
    Preview's Compare)."""
    for side, p in zip(SIDES, session.paths):
        if not p:
            label = session.diff.a_label if side == "A" else session.diff.b_label
            return (f"model {side} ('{label}') is not a file, so a saved comparison could not "
                    "be opened again: save that graph first (File › Save optimized graph…) "
                    "and compare the two files (File › Compare with…); Save report… keeps "
                    "this comparison as a page")
    return ""


def _kept_beside(source: str, document: str) -> str:
    """A temporary model copied beside the comparison file (the same bytes there already:
    that file; another file of that name: the next free numbered name). Written atomically
    and never over a file, not even one another program writes under the name meanwhile
    (atomic_write without force: then the next name)."""
    with open(source, "rb") as fh:
        data = fh.read()
    stem = os.path.splitext(os.path.basename(document))[0]
    root, ext = os.path.splitext(f"{stem}_{os.path.basename(source)}")
    for k in range(1, 1000):
        target = os.path.join(os.path.dirname(document),
                              f"{root}{ext}" if k == 1 else f"{root}_{k}{ext}")
        if not os.path.lexists(target):
            try:
                return atomic_write(target, data)
            except TargetExists:       # taken since the look: that file is someone's
                pass
        if _holds(target, data):
            return target
    raise InspectorError("no free name to keep the converted model beside the comparison",
                         path=document)


def _holds(path: str, data: bytes) -> bool:
    """Whether `path` is a file of exactly these bytes."""
    if not os.path.isfile(path) or os.path.getsize(path) != len(data):
        return False
    with open(path, "rb") as fh:
        return fh.read() == data


# items of a list or object a comparison file may hold: a 1M-node pair's (the scale the app
# is made for) longest, its entries, has at most 2M; a hostile 200 MB file's list of 100M
# zeros was an 800 MB buffer, built to be refused after the parse
MOST_ITEMS = 1 << 23
# characters of one string a comparison file may hold: a name or a change's words are far
# shorter; a hostile file's 200 MB string was one 150 ms decode (and join) holding the GIL
LONGEST_TEXT = 1 << 24


def read_document(path: str, job: Job = NO_JOB) -> tuple:
    """(document, path of A, path of B, paths outside the file's folder): a path elsewhere
    is only opened once the user said yes (session files' trust rule). Cancelled once `job`
    is (the parse checks it). Whatever the outcome, what the parse built is freed here, in
    short calls (json_pieces.release), not by the thread that drops the error."""
    st = files.require_regular(path, error=InspectorError)
    if st.st_size > 512 * 2 ** 20:
        raise InspectorError("the comparison file is over 512 MB", path=path)
    walked: list = []
    try:
        data = _parsed(path, job, walked)
        return _document(data, path)
    except BaseException as exc:   # its frames (and its cause's: the parse's) hold the
        _clear_frames(exc)         # document: freed below, not by the window's thread
        raise                      # when it drops the error (a refusal, a Cancelled)
    finally:      # freed in short calls: at once, a 200 MB one's was a 330 ms call
        data = None
        json_pieces.release(walked)


def _parsed(path: str, job: Job, walked: list):
    try:
        # an editor's BOM is no harm; parsed in short calls as the file is read and decoded a
        # piece at a time: a task's one long C call (json.loads of a 300k pair's 110 MB:
        # ~0.7 s; the one decode of a 200 MB file into a str: 100-200 ms) held the window
        with open(path, "rb") as fh:
            return json_pieces.load_file(fh, job, walked, MOST_ITEMS, LONGEST_TEXT)
    except OSError as exc:
        raise InspectorError(f"cannot read the comparison file ({exc.strerror})",
                             path=path) from None
    except RecursionError:
        raise InspectorError("a JSON file nested too deeply to be a comparison",
                             path=path) from None
    except json_pieces.TooMany as exc:
        raise InspectorError(f"a JSON file with {exc}: no comparison holds one", path=path) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InspectorError(_not_json(path), path=path) from None
    except ValueError:      # JSON, but an integer past Python's digit limit (not "not JSON")
        raise InspectorError(f"a JSON file with a number of over {sys.get_int_max_str_digits():,}"
                             " digits: no comparison holds one", path=path) from None


def _clear_frames(exc: BaseException) -> None:
    """The locals of the finished frames of exc and of the errors it came from, dropped."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        traceback.clear_frames(exc.__traceback__)
        exc = exc.__cause__ or exc.__context__


def _document(data, path: str) -> tuple:
    if not isinstance(data, dict) or data.get("format") is None:
        raise InspectorError("a JSON file but not a comparison (Save comparison writes "
                             "one): " + ("a TensorFlow.js model: open it with File › Open"
                                        if isinstance(data, dict) and "modelTopology" in data
                                        else "it has no \"format\" field"), path=path)
    try:
        d = from_dict(data)
    except InspectorError as exc:
        raise InspectorError(exc.message, path=path) from None
    d.numeric, d.left_out = _saved_run(data.get("numeric"))
    where = os.path.dirname(os.path.abspath(path))
    models = data.get("models") if isinstance(data.get("models"), dict) else {}
    resolved, outside = [], []
    for side in SIDES:
        rel = models.get(side)
        if not isinstance(rel, str) or not rel:
            raise InspectorError(f"the comparison file names no model {side}", path=path)
        if "\0" in rel:     # no file has such a name (os.stat raised ValueError, unplaced)
            raise InspectorError(f"model {side} of the comparison is named with a NUL byte, "
                                 "which no file name holds", path=path)
        full = os.path.normpath(os.path.join(where, rel))
        if not os.path.exists(full):
            raise InspectorError(f"model {side} of the comparison {_missing(full)}: {full}",
                                 path=path)
        if os.path.commonpath([where, full]) != where:
            outside.append(full)
        resolved.append(full)
    return d, resolved[0], resolved[1], outside


def _saved_run(numeric) -> tuple:
    """(the saved Run both result (Divergence) or None, why it was left out): shown again
    when the models are as they were (reopen); a malformed one is left out and said (the
    comparison opens without it), as a session's bad part is."""
    if numeric is None:
        return None, ""
    if not isinstance(numeric, dict):
        return None, "the saved Run both result is not an object: left out"
    try:
        return compare_numeric.Divergence.from_dict(numeric), ""
    except InspectorError as exc:
        return None, f"{exc.message}: left out"


_KINDS = {"graphdef": "a TensorFlow model (a GraphDef)", "metagraph": "a TensorFlow "
          "MetaGraphDef", "savedmodel": "a TensorFlow SavedModel", "keras-h5": "a Keras model",
          "keras-zip": "a Keras model", "tfjs": "a TensorFlow.js model",
          "tflite": "a TensorFlow Lite model"}


def _not_json(path: str) -> str:
    """Why a file that is not JSON cannot be a comparison, in words: a model is named as one
    (File › Open or Compare with… is what was meant), anything else as not a comparison."""
    try:
        with open(path, "rb") as fh:
            kind, _ = sniff(path, fh.read())
    except Exception:    # noqa: BLE001 - not a model either: said below
        kind = ""
    if kind in _KINDS:
        return (f"this is {_KINDS[kind]}, not a saved comparison: open it with File › Open, "
                "or compare it with the open model with File › Compare with…")
    return ("not a comparison file: a comparison is the JSON file that Save comparison "
            "writes, and this is not JSON")


def reopen(d: Diff, ga: Graph, gb: Graph, paths: tuple, job: Job = NO_JOB) -> tuple:
    """The saved comparison on the models as they are now: (session, note). If the models
    changed since (a matched node is gone), they are compared again and the note says so."""
    m = d.matching
    if all(a in ga for a in m.b_of) and all(b in gb for b in m.a_of) and \
            all(e.a in ga or not e.a for e in d.entries) and \
            all(e.b in gb or not e.b for e in d.entries):
        session = CompareSession(d, ga, gb, paths)
        session.numeric = d.numeric   # the saved Run both, on the same models
        session.change_rows()         # here, in the task: 50k rows are not for the GUI thread
        return session, d.left_out
    fresh = compare(ga, gb, d.a_label, d.b_label, job=job, paths=paths)
    return fresh, "the models changed since the comparison was saved: compared again"


def _missing(full: str) -> str:
    """Why a model the comparison names is not there: gone, or its path cannot be resolved
    (a symbolic link loop, a folder that cannot be entered: it may well be there)."""
    try:
        os.stat(full)
    except FileNotFoundError:
        return "is gone"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "cannot be resolved: its path is a symbolic link loop"
        return f"cannot be reached ({exc.strerror or exc})"
    return "is gone"
