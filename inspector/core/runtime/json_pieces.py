"""json.loads in many short C calls: the same value, or the same kind of error. json.loads is
one C call holding the GIL for the whole document (an 11 MB saved comparison of a 30k-node
pair: ~200 ms; a 300k pair's: seconds), and a task's long C call is a pause of the window
(docs/ARCHITECTURE.md). Here the outer containers are walked in Python, objects down to
OBJECTS_BELOW levels and arrays down to ARRAYS_BELOW, and each value under them is one C
call (a comparison's entry, a pair of names): the interpreter hands the GIL over between
them. A container deeper than that is one C call only when it ends within PIECE characters
(its first PIECE are decoded alone, a copy that short); a longer one is walked too, a level
down at a time: a hostile file's 200 MB array at depth 4, or an object of 35M keys at depth
2, held the window 3 s and 1.6 s in one call, uncancellable. The walk
checks its job every 4096 values of a container (Cancelled): a hostile 512 MB file of tiny
values takes minutes in Python, and a superseded or cancelled read, or the app's exit, does
not wait for it."""

from __future__ import annotations

import json
from json.decoder import WHITESPACE, scanstring

from inspector.core.runtime.job import NO_JOB, Job

OBJECTS_BELOW = 2     # the top object and the objects in it are walked (depth 0 and 1)
ARRAYS_BELOW = 3      # and arrays down to depth 2 (a comparison's matching pairs)
PIECE = 4096          # characters a deeper container is read in one C call when it ends within

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


def _object(s: str, i: int, depth: int, job: Job) -> tuple:
    out: dict = {}
    i = _skip(s, i).end()
    if s[i:i + 1] == "}":
        return i + 1, out
    while True:
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
    while True:
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
