"""Errors that carry a one-line, user-facing message."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

# What to do about an error of a kind (InspectorError's `hint`), said plainly: core's words,
# what str(error) says. Each front end has its own table (the command line names its options,
# cli.main.HINTS; the window its fields, gui.wording.HINTS) and words an error with it where
# it shows it (`said`), so an error raised in the app's worker reads in the window's words
# and the wording never depends on which front end ran last in the process (read-only).
PLAIN_HINTS: Mapping = MappingProxyType({"input_size": "give its size"})


def said(thing, hints: Mapping = PLAIN_HINTS) -> str:
    """What a front end shows of `thing` (an InspectorError, a HintedText warning, any
    exception or text), its hint in the front end's words (`hints`; a kind the table lacks
    in core's plain words, a kind it words "" unsaid)."""
    if isinstance(thing, InspectorError):
        return thing.one_line(hints)
    if isinstance(thing, HintedText):
        return thing.worded(hints)
    return str(thing)


def _todo(kind: str | None, hints: Mapping) -> str:
    return hints.get(kind, PLAIN_HINTS.get(kind, "")) if kind else ""


class HintedText(str):
    """A line made in core (a warning) that ends with what to do (`hint`, a kind of
    PLAIN_HINTS): as a str, in core's plain words; `said(line, hints)` in a front end's."""

    def __new__(cls, text: str, hint: str, joiner: str = ": "):
        todo = _todo(hint, PLAIN_HINTS)
        self = super().__new__(cls, f"{text}{joiner}{todo}" if todo else text)
        self.text, self.hint, self.joiner = text, hint, joiner
        return self

    def __reduce__(self):       # crosses the worker pipe whole
        return HintedText, (self.text, self.hint, self.joiner)

    def worded(self, hints: Mapping) -> str:
        todo = _todo(self.hint, hints)
        return f"{self.text}{self.joiner}{todo}" if todo else self.text


class InspectorError(Exception):
    """A problem with the user's input, reported as one line: what, which file, which node
    (and what to do, `hint`: a kind of PLAIN_HINTS, worded by each front end: `said`)."""

    def __init__(self, message: str, path: str | None = None, node: str | None = None,
                 hint: str | None = None):
        self.message = message
        self.path = path
        self.node = node
        self.hint = hint
        super().__init__(self.one_line())

    def __reduce__(self):
        """Pickled whole (message, file, node, findings…): errors cross the worker pipe."""
        return _rebuild, (type(self), dict(self.__dict__))

    def one_line(self, hints: Mapping = PLAIN_HINTS) -> str:
        """The one line; its hint in `hints`' words (a front end's table; core's plain
        words by default, as str(self))."""
        where = []
        if self.path:
            where.append(str(self.path))
        if self.node:
            where.append(f"node '{self.node}'")
        prefix = ": ".join(where)
        text = f"{prefix}: {self.message}" if prefix else self.message
        todo = _todo(getattr(self, "hint", None), hints)
        if todo:
            text = f"{text}: {todo}"
        return " ".join(_clip(_printable(word)) for word in text.split())

    def naming(self, path: str | None) -> "InspectorError":
        """This error said of the file `path` (one of two models: which one) when it names
        none yet; itself, to raise again."""
        if path and not self.path:
            self.path = path
            Exception.__init__(self, self.one_line())
        return self


def _printable(word: str) -> str:
    """Control characters (an ESC that would recolour the terminal, a NUL, a bidi override)
    from a model's names shown as escapes, never sent to the terminal or a dialog as they are."""
    if word.isprintable():
        return word
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in word)


# what a terminal acts on rather than shows: C0/C1 controls but newline and tab, bidi overrides
# and isolates, zero-width and line/paragraph separators
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f"
                      "\u2028-\u202e\u2060-\u2069\ufeff]")


def printable_text(text: str) -> str:
    """`text` (a command's output: lines of a model's names) with the characters a terminal
    would act on (an ESC that clears the screen, a NUL, a bidi override) shown as escapes;
    newlines and tabs kept."""
    return _CONTROL.sub(lambda m: ascii(m.group())[1:-1], text)


def _clip(word: str, limit: int = 400) -> str:
    """A name of 100 kB (a hostile model's) keeps the message one readable line."""
    if len(word) <= limit:
        return word
    return f"{word[:160]}…({len(word) - 220:,} more characters)…{word[-60:]}"


def _rebuild(cls, state: dict):
    error = cls.__new__(cls)
    error.__dict__.update(state)
    Exception.__init__(error, error.one_line())
    return error


class ModelLoadError(InspectorError):
    """The file or directory cannot be read as a model."""


class UnsafeGraphError(InspectorError):
    """Running, folding or loading would execute operations that are not pure computation
    (files, network, Python, ...); `findings` lists them. Needs the user's permission."""

    def __init__(self, message: str, path: str | None = None, node: str | None = None,
                 findings: list | None = None):
        self.findings = list(findings or [])
        super().__init__(message, path=path, node=node)


class TensorFlowUnavailable(InspectorError):
    """The operation needs TensorFlow, which is not installed."""


class Cancelled(Exception):
    """A superseded or cancelled request was abandoned (not an error to report)."""
