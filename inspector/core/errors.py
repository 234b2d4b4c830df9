"""Errors that carry a one-line, user-facing message."""

from __future__ import annotations

import re


# What to do about an error of a kind (InspectorError's `hint`), in each front end's own words:
# the command line names its options, the window its fields (each sets its own at its start:
# cli.main, gui.main_window); core says it plainly. Applied when the line is made, so an
# error raised in the app's worker reads in the window's words.
HINTS = {"input_size": "give its size"}


class InspectorError(Exception):
    """A problem with the user's input, reported as one line: what, which file, which node
    (and what to do, `hint`: a key of HINTS)."""

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

    def one_line(self) -> str:
        where = []
        if self.path:
            where.append(str(self.path))
        if self.node:
            where.append(f"node '{self.node}'")
        prefix = ": ".join(where)
        text = f"{prefix}: {self.message}" if prefix else self.message
        todo = HINTS.get(getattr(self, "hint", None) or "")
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
