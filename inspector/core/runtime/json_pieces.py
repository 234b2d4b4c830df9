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
(Cancelled): a superseded or cancelled read, or the app's exit, does not wait for it.
load_file reads a file so, decoding it a piece at a time (never one str of it all: that
decode of 200 MB was one 100-200 ms call), and release frees what it read in short calls.
Given `most`, it refuses a list or object of more items (TooMany) as the walk reaches it: a
hostile file's 100M-item list was an 800 MB buffer, built to be refused after the parse,
and freed in halves: the first 400 MB in one call (~30 ms; 130 ms on the slow class)."""

from __future__ import annotations

import codecs
import json
import re
import sys
from json.decoder import WHITESPACE, scanstring

from inspector.core.runtime.job import NO_JOB, Job

OBJECTS_BELOW = 2     # the top object and the objects in it are walked (depth 0 and 1)
ARRAYS_BELOW = 3      # and arrays down to depth 2 (a comparison's matching pairs)
PIECE = 4096          # characters a deeper container is read in one C call when it ends within
RUN = PIECE           # characters of a run of small values read in one C call (below)
LOOK = 1 << 16        # characters kept ahead of the walk in a file read in pieces (load_file)
CHUNK = 1 << 20       # bytes of such a file read and decoded in one call
STEP = 256            # items of a walked container freed in one call (release)

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


_END = sys.maxsize


class TooMany(Exception):
    """A list or object of more than load_file's `most` items ("a list of over 8 items")."""


class _Text:
    """The part of the document the walk reads: `s`, from the document's character `base`
    on. A file read in pieces (load_file) keeps LOOK characters ahead of the walk: at a
    position past `low`, `fill` drops what is behind it and decodes the next CHUNK bytes, so
    no call reads, decodes or joins much more than CHUNK (one str of a 200 MB file was one
    100-200 ms decode holding the GIL, and joining pieces one as long). A value longer than
    LOOK (a string, a number) grows `s` until it holds it. A text given whole (loads) is one
    `s`, never filled. `lines` and `line_at` (the newlines before `base`, the last one's
    place) give an error its line and column in the whole text."""

    __slots__ = ("s", "base", "low", "more", "lines", "line_at", "walked", "most", "longest")

    def __init__(self, s: str, more=None, walked: list | None = None, most: int = _END,
                 longest: int = _END):
        self.s, self.base, self.more, self.lines, self.line_at = s, 0, more, 0, -1
        self.walked, self.most, self.longest = walked, most, longest
        self.low = len(s) - LOOK if more is not None else _END

    def fill(self, i: int, want: int = LOOK) -> int:
        """s from i on, then pieces until `want` characters are there or the text ends:
        i's place in the new s (0)."""
        s, parts, have = self.s, [self.s[i:]], len(self.s) - i
        self.lines += s.count("\n", 0, i)
        k = s.rfind("\n", 0, i)
        if k >= 0:
            self.line_at = self.base + k
        self.base += i
        while have < want and self.more is not None:
            piece = next(self.more, None)
            if piece is None:
                self.more = None
            else:
                parts.append(piece)
                have += len(piece)
        self.s = "".join(parts)
        self.low = len(self.s) - LOOK if self.more is not None else _END
        return 0


def loads(text: str, job: Job = NO_JOB):
    """json.loads(text): the same value; json.JSONDecodeError (a ValueError) where it raises
    one, RecursionError for a document nested too deeply; Cancelled once `job` is."""
    return _document(_Text(text), job)


def load_file(fh, job: Job = NO_JOB, walked: list | None = None, most: int | None = None,
              longest: int | None = None):
    """loads of a binary file's UTF-8 text (an editor's byte order mark skipped), decoded
    CHUNK bytes at a time as the walk comes to them, never held whole: the same value, or
    the same error with its place in the whole text; UnicodeDecodeError for bytes that are
    no UTF-8 (where the walk reaches them); TooMany once a list or object passes `most`
    items, or a string (or number) passes `longest` characters (a 200 MB string was one
    150 ms decode and join). `walked` gets the containers the walk built, for release."""
    return _document(_Text("", _decoded(fh), walked, most or _END, longest or _END), job)


def release(walked: list) -> None:
    """Free a document load_file read in short calls, once its reader dropped it: freed at
    once, a 200 MB comparison's dicts and lists were one 330 ms C call holding the GIL. The
    containers the walk built (`walked`, parents first) are emptied STEP items at a time:
    what else is in them came from one short call, so it is freed as quickly. A container
    something else still holds (from_dict keeps a map of names as it is) is left whole, and
    so is what is under it (its slot still holds its walked children)."""
    alone = _alone()
    for k in range(len(walked)):     # (not enumerate: its reused pair holds v a step longer)
        v, walked[k] = walked[k], None
        if sys.getrefcount(v) > alone:   # held elsewhere too
            continue
        if type(v) is list:
            while v:
                del v[-STEP:]
        else:
            while v:
                for _ in range(min(STEP, len(v))):
                    v.popitem()
        del v
    walked.clear()


def _alone() -> int:
    """sys.getrefcount of a container only a local holds, as release asks it: 2 up to
    Python 3.13 (the local and the call's argument), 1 where the argument is a borrowed
    reference (3.14): a fixed 2 there would take a container held once elsewhere for one
    held by none, and empty it."""
    v: list = []
    return sys.getrefcount(v)


def _decoded(fh):
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    while True:
        data = fh.read(CHUNK)
        piece = decoder.decode(data, final=not data)
        if piece:
            yield piece
        if not data:
            return


def _document(t: _Text, job: Job):
    try:
        i, value = _value(t, _ws(t, 0), 0, job)
        end = _ws(t, i)
        if end != len(t.s):
            raise json.JSONDecodeError("Extra data", t.s, end)
    except json.JSONDecodeError as exc:
        if t.base == 0:
            raise
        raise _placed(exc, t) from None
    return value


def _placed(exc: json.JSONDecodeError, t: _Text) -> json.JSONDecodeError:
    """exc (raised on t.s) as json.loads raises it on the whole text: position, line, column."""
    pos, doc = t.base + exc.pos, t.s
    lineno = t.lines + doc.count("\n", 0, exc.pos) + 1
    k = doc.rfind("\n", 0, exc.pos)
    colno = exc.pos - k if k >= 0 else pos - t.line_at
    out = json.JSONDecodeError.__new__(json.JSONDecodeError)
    ValueError.__init__(out, f"{exc.msg}: line {lineno} column {colno} (char {pos})")
    out.msg, out.doc, out.pos, out.lineno, out.colno = exc.msg, doc, pos, lineno, colno
    return out


def _ws(t: _Text, i: int) -> int:
    """The position after the whitespace at i, LOOK characters ahead of it (or the end)."""
    while True:
        if i > t.low:
            i = t.fill(i)
        j = _skip(t.s, i).end()
        if j <= t.low:
            return j
        i = j


def _cut(exc: json.JSONDecodeError, s: str) -> bool:
    """Whether the error may be the end of s cutting a value (more text would mend it)."""
    return exc.msg.startswith("Unterminated string") or exc.pos >= len(s) - _MARGIN


_MARGIN = 16       # a value that ends this close to the end of s may go on past it
_DIGITS = re.compile(r"[-+0-9.eE]*")


def _scalar(t: _Text, i: int) -> tuple:
    """raw_decode at i, s grown while the value may run past its end."""
    while True:
        s = t.s
        try:
            value, end = _DECODER.raw_decode(s, i)
        except json.JSONDecodeError as exc:
            if t.more is None or not _cut(exc, s):
                raise
        except ValueError:     # an integer past the digit limit: its length is in the words
            if t.more is None or _DIGITS.match(s, i).end() < len(s):
                raise
        else:
            if t.more is None or end < len(s) - _MARGIN:
                return end, value
        _not_longer(t, len(s) - i)
        i = t.fill(i, 2 * (len(s) - i))


def _not_longer(t: _Text, have: int) -> None:     # (load_file's `longest`, before s grows)
    if have > t.longest:
        raise TooMany(f"a string or number of over {t.longest:,} characters")


def _key(t: _Text, i: int) -> tuple:
    """scanstring at i (after the quote), s grown while the key may run past its end."""
    while True:
        s = t.s
        try:
            return scanstring(s, i)
        except json.JSONDecodeError as exc:
            if t.more is None or not _cut(exc, s):
                raise
        _not_longer(t, len(s) - i)
        i = t.fill(i - 1, 2 * (len(s) - i)) + 1


def _value(t: _Text, i: int, depth: int, job: Job) -> tuple:
    s = t.s
    c = s[i:i + 1]
    if c == "{" and depth < OBJECTS_BELOW:
        return _object(t, i + 1, depth + 1, job)
    if c == "[" and depth < ARRAYS_BELOW:
        return _array(t, i + 1, depth + 1, job)
    if c == "{" or c == "[":
        try:          # a container is self-delimiting: decoded from its first PIECE, it is whole
            value, end = _DECODER.raw_decode(s[i:i + PIECE], 0)
            return i + end, value
        except json.JSONDecodeError:      # longer (or malformed: the walk raises it there)
            walk = _object if c == "{" else _array
            return walk(t, i + 1, depth + 1, job)
    if t.more is not None:
        return _scalar(t, i)
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


# The walks below keep `s` as t.s: read again after each call that may fill it (_ws, _key,
# _value); a position past t.low gets LOOK characters ahead of it from _ws.

def _object(t: _Text, i: int, depth: int, job: Job) -> tuple:
    out: dict = {}
    if t.walked is not None:
        t.walked.append(out)
    s = t.s
    i = _skip(s, i).end()
    if i > t.low:
        i = _ws(t, i)
        s = t.s
    if s[i:i + 1] == "}":
        return i + 1, out
    tried = t.base + i
    while True:
        run = None
        if t.base + i >= tried:
            run = _run(s, i, _MEMBERS, "{}")
            if run is None:
                tried = t.base + i + RUN
        if run is not None:
            out.update(run[0])      # a key met again keeps its place, takes the last value
            job.check()
            if len(out) > t.most:
                raise TooMany(f"an object of over {t.most:,} items")
            i = _skip(s, run[1]).end()
            if i > t.low:
                i = _ws(t, i)
                s = t.s
        if s[i:i + 1] != '"':
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes",
                                       s, i)
        try:
            key, i = scanstring(s, i + 1)
        except json.JSONDecodeError:
            if t.more is None:
                raise
            key, i = _key(t, i + 1)
            s = t.s
        i = _skip(s, i).end()
        if i > t.low:
            i = _ws(t, i)
            s = t.s
        if s[i:i + 1] != ":":
            raise json.JSONDecodeError("Expecting ':' delimiter", s, i)
        i = _skip(s, i + 1).end()
        if i > t.low:
            i = _ws(t, i)
        i, value = _value(t, i, depth, job)
        s = t.s
        out[key] = value
        job.every(len(out))
        if len(out) > t.most:
            raise TooMany(f"an object of over {t.most:,} items")
        i = _skip(s, i).end()
        if i > t.low:
            i = _ws(t, i)
            s = t.s
        c = s[i:i + 1]
        if c == "}":
            return i + 1, out
        if c != ",":
            raise json.JSONDecodeError("Expecting ',' delimiter", s, i)
        i = _skip(s, i + 1).end()
        if i > t.low:
            i = _ws(t, i)
            s = t.s


def _array(t: _Text, i: int, depth: int, job: Job) -> tuple:
    out: list = []
    if t.walked is not None:
        t.walked.append(out)
    s = t.s
    i = _skip(s, i).end()
    if i > t.low:
        i = _ws(t, i)
        s = t.s
    if s[i:i + 1] == "]":
        return i + 1, out
    tried = t.base + i   # no run is looked for again before this place (one failed)
    while True:
        run = None
        if t.base + i >= tried:
            run = _plain_run(s, i) or _run(s, i, _ITEMS, "[]")
            if run is None:
                tried = t.base + i + RUN
        if run is not None:
            out += run[0]
            job.check()
            if len(out) > t.most:
                raise TooMany(f"a list of over {t.most:,} items")
            i = _skip(s, run[1]).end()
            if i > t.low:
                i = _ws(t, i)
        i, value = _value(t, i, depth, job)
        s = t.s
        out.append(value)
        job.every(len(out))
        if len(out) > t.most:
            raise TooMany(f"a list of over {t.most:,} items")
        i = _skip(s, i).end()
        if i > t.low:
            i = _ws(t, i)
            s = t.s
        c = s[i:i + 1]
        if c == "]":
            return i + 1, out
        if c != ",":
            raise json.JSONDecodeError("Expecting ',' delimiter", s, i)
        i = _skip(s, i + 1).end()
        if i > t.low:
            i = _ws(t, i)
            s = t.s
