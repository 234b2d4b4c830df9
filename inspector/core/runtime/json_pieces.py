"""json.loads in many short C calls: the same value, or the same kind of error. json.loads is
one C call holding the GIL for the whole document (an 11 MB saved comparison of a 30k-node
pair: ~200 ms; a 300k pair's: seconds), and a task's long C call is a pause of the window
(docs/ARCHITECTURE.md). Here the outer containers are walked in Python, objects down to
OBJECTS_BELOW levels and arrays down to ARRAYS_BELOW, and each value under them is one C
call (a comparison's entry, a pair of names): the interpreter hands the GIL over between
them. A container deeper than that is one C call only when it ends within PIECE characters
(its first PIECE are decoded alone, a copy that short); a longer one is walked too, a level
down at a time: a hostile file's 200 MB array at depth 4, or an object of 35M keys at depth
2, held the window 3 s and 1.6 s in one call, uncancellable. A run of small values
(numbers, literals, plain strings, flat arrays of them: RUN) is one C call of at most RUN
characters, not one a value: 2M zeros took 6.6 s against json.loads' 0.37 s, now as long
as json.loads. The walk checks its job every 4096 values of a container and after each run
(Cancelled): a superseded or cancelled read, or the app's exit, does not wait for it."""

from __future__ import annotations

import json
import re
from json.decoder import WHITESPACE, scanstring

from inspector.core.runtime.job import NO_JOB, Job

OBJECTS_BELOW = 2     # the top object and the objects in it are walked (depth 0 and 1)
ARRAYS_BELOW = 3      # and arrays down to depth 2 (a comparison's matching pairs)
PIECE = 4096          # characters a deeper container is read in one C call when it ends within
RUN = PIECE           # characters of a run of small values read in one C call (below)

# A run of small values, each followed by its comma: numbers, true, false, null, strings with
# no escape nor control character, and flat arrays of those (a comparison's pairs); in an
# object, each after its key (a string as above) and colon. Such a run is valid JSON by
# construction, so it is decoded in one call of at most RUN characters as "[run]" or
# "{run}": the same values as one at a time (json.loads's own number and string rules),
# ~20x fewer Python steps on a file of tiny values (2M zeros). Anything else (NaN, an
# escape, an object) is read a value at a time as before, with json.loads's errors.
_NUM = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_STR = r'"[^"\\\x00-\x1f]*"'
_SCALAR = rf"(?:{_NUM}|{_STR}|true|false|null)"
_SMALL = rf"(?:{_SCALAR}|\[[ \t\n\r]*(?:{_SCALAR}[ \t\n\r]*(?:,[ \t\n\r]*{_SCALAR}[ \t\n\r]*)*)?\])"
_WS = r"[ \t\n\r]*"
_ITEMS = re.compile(rf"(?:{_WS}{_SMALL}{_WS},)+")
_PLAIN = re.compile(r'[^"\[\]{}]*')
_MEMBERS = re.compile(rf"(?:{_WS}{_STR}{_WS}:{_WS}{_SMALL}{_WS},)+")

_DECODER = json.JSONDecoder()
_skip = WHITESPACE.match


def loads(text: str, job: Job = NO_JOB):
    """json.loads(text): the same value; json.JSONDecodeError (a ValueError) where it raises
    one, RecursionError for a document nested too deeply; Cancelled once `job` is."""
    i, value = _value(text, _skip(text, 0).end(), 0, job)
    end = _skip(text, i).end()
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def _value(s: str, i: int, depth: int, job: Job) -> tuple:
    c = s[i:i + 1]
    if c == "{" and depth < OBJECTS_BELOW:
        return _object(s, i + 1, depth + 1, job)
    if c == "[" and depth < ARRAYS_BELOW:
        return _array(s, i + 1, depth + 1, job)
    if c == "{" or c == "[":
        try:          # a container is self-delimiting: decoded from its first PIECE, it is whole
            value, end = _DECODER.raw_decode(s[i:i + PIECE], 0)
            return i + end, value
        except json.JSONDecodeError:      # longer (or malformed: the walk raises it there)
            walk = _object if c == "{" else _array
            return walk(s, i + 1, depth + 1, job)
    value, end = _DECODER.raw_decode(s, i)
    return end, value


def _run(s: str, i: int, pattern, wrap: str):
    """(the values of the run of small values at i, the position after its last comma), or
    None when there is no run there."""
    m = pattern.match(s, i, i + RUN - 1)       # "[run]": RUN characters at most
    if m is None:
        return None
    try:
        return _DECODER.raw_decode(wrap[0] + s[i:m.end() - 1] + wrap[1], 0)[0], m.end()
    except ValueError:        # (none by construction: read a value at a time then)
        return None


def _plain_run(s: str, i: int):
    """_run of an array's values up to the last comma before i + RUN with no string, array
    or object among them (numbers, true, false, null): decoded as one "[...]" without the
    pattern's check (5x its speed on 2M zeros); None where that is no valid JSON (the walk
    then reads them a value at a time and raises json.loads's error) or no comma."""
    end = s.rfind(",", i, _PLAIN.match(s, i, i + RUN - 1).end())
    if end <= i:
        return None
    try:
        return _DECODER.raw_decode("[" + s[i:end] + "]", 0)[0], end + 1
    except ValueError:
        return None


def _object(s: str, i: int, depth: int, job: Job) -> tuple:
    out: dict = {}
    i = _skip(s, i).end()
    if s[i:i + 1] == "}":
        return i + 1, out
    tried = i
    while True:
        run = None
        if i >= tried:
            run = _run(s, i, _MEMBERS, "{}")
            if run is None:
                tried = i + RUN
        if run is not None:
            out.update(run[0])      # a key met again keeps its place, takes the last value
            job.check()
            i = _skip(s, run[1]).end()
        if s[i:i + 1] != '"':
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes",
                                       s, i)
        key, i = scanstring(s, i + 1)
        i = _skip(s, i).end()
        if s[i:i + 1] != ":":
            raise json.JSONDecodeError("Expecting ':' delimiter", s, i)
        i, value = _value(s, _skip(s, i + 1).end(), depth, job)
        out[key] = value
        job.every(len(out))
        i = _skip(s, i).end()
        c = s[i:i + 1]
        if c == "}":
            return i + 1, out
        if c != ",":
            raise json.JSONDecodeError("Expecting ',' delimiter", s, i)
        i = _skip(s, i + 1).end()


def _array(s: str, i: int, depth: int, job: Job) -> tuple:
    out: list = []
    i = _skip(s, i).end()
    if s[i:i + 1] == "]":
        return i + 1, out
    tried = i            # no run is looked for again before this position (one failed)
    while True:
        run = None
        if i >= tried:
            run = _plain_run(s, i) or _run(s, i, _ITEMS, "[]")
            if run is None:
                tried = i + RUN
        if run is not None:
            out += run[0]
            job.check()
            i = _skip(s, run[1]).end()
        i, value = _value(s, i, depth, job)
        out.append(value)
        job.every(len(out))
        i = _skip(s, i).end()
        c = s[i:i + 1]
        if c == "]":
            return i + 1, out
        if c != ",":
            raise json.JSONDecodeError("Expecting ',' delimiter", s, i)
        i = _skip(s, i + 1).end()
