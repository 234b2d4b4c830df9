"""Parse and print transform_graph's --transforms syntax, with errors that point at a column.

Grammar as TF's ParseTransformParameters: names [A-Za-z0-9_]+, `(` right after the name,
parameters `name=value` separated by an optional comma, values quoted ("..." with backslash
escapes kept verbatim) or a run of [A-Za-z0-9._/-]. Where TF silently drops a transform (a
missing `)`), we report an error instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from inspector.core.errors import InspectorError

_NAME = re.compile(r"[A-Za-z0-9_]+")
_BARE = re.compile(r"[A-Za-z0-9._/-]+")
_SPACE = " \t\n\v\f\r"


class TransformSyntaxError(InspectorError):
    def __init__(self, message: str, text: str, pos: int):
        self.column = pos + 1
        shown = text[pos:pos + 30] or "the end"
        super().__init__(f"--transforms, column {pos + 1}: {message} (at {shown!r})")


@dataclass
class TransformSpec:
    """One transform with its parameters; repeated parameters keep every value in order."""

    name: str
    params: dict = field(default_factory=dict)
    enabled: bool = True
    # disabled by this version only (a step it does not know): saved as enabled
    held: bool = field(default=False, compare=False, repr=False)

    def values(self, key: str) -> list:
        return list(self.params.get(key, []))

    def __str__(self) -> str:
        if not self.params:
            return self.name
        items = [f"{k}={quote(v)}" for k, vs in self.params.items() for v in vs]
        return f"{self.name}({', '.join(items)})"


def quote(value: str) -> str:
    return value if _BARE.fullmatch(value) else f'"{value}"'


def format_transforms(specs) -> str:
    return " ".join(str(s) for s in specs)


def parse_transforms(text: str) -> list:
    specs, pos, n = [], 0, len(text)
    while True:
        while pos < n and text[pos] in _SPACE:
            pos += 1
        if pos >= n:
            return specs
        m = _NAME.match(text, pos)
        if not m:
            what = "a comma between transforms is not allowed" if text[pos] == "," else \
                "expected a transform name"
            raise TransformSyntaxError(what, text, pos)
        spec, pos = TransformSpec(m.group(0)), m.end()
        specs.append(spec)
        if pos < n and text[pos] == "(":
            pos = _parse_params(text, pos, spec)
        elif pos < n and text[pos] in _SPACE:
            ahead = pos
            while ahead < n and text[ahead] in _SPACE:
                ahead += 1
            if ahead < n and text[ahead] == "(":
                raise TransformSyntaxError(f"no space allowed between '{spec.name}' and '('",
                                           text, pos)


def _parse_params(text: str, open_pos: int, spec: TransformSpec) -> int:
    pos, n = open_pos + 1, len(text)
    while True:
        if pos >= n:
            raise TransformSyntaxError(f"missing ')' for '{spec.name}(' opened at column "
                                       f"{open_pos + 1} (TensorFlow would silently drop it)",
                                       text, pos)
        if text[pos] == ")":
            return pos + 1
        start = pos
        if text[pos] == ",":
            pos += 1
        while pos < n and text[pos] in _SPACE:
            pos += 1
        m = _NAME.match(text, pos)
        if not m:
            if pos < n and text[pos] == "," or (pos < n and text[pos] == ")" and start != pos):
                raise TransformSyntaxError("expected a parameter name (no space before a comma, "
                                           "no trailing comma)", text, pos)
            hint = "" if pos >= n or text[pos] in "()" else \
                " (a value with ':', ',' or spaces must be quoted, e.g. device=\"/cpu:0\")"
            raise TransformSyntaxError(f"expected a parameter name{hint}", text, pos)
        key, pos = m.group(0), m.end()
        if pos >= n or text[pos] != "=":
            raise TransformSyntaxError(f"expected '=' after parameter '{key}'", text, pos)
        pos += 1
        value, pos = _parse_value(text, pos, key)
        spec.params.setdefault(key, []).append(value)
        if pos < n and text[pos] == '"':
            pos += 1
        if pos < n and text[pos] == "'":
            pos += 1


def _parse_value(text: str, pos: int, key: str) -> tuple[str, int]:
    n = len(text)
    if pos < n and text[pos] == '"':
        i = pos + 1
        while i < n and text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        if i >= n:
            raise TransformSyntaxError(f"unterminated quoted value for '{key}'", text, pos)
        return text[pos + 1:i], i + 1
    m = _BARE.match(text, pos)
    if not m:
        hint = " (quote values with ':', ',' or spaces, e.g. device=\"/cpu:0\")"
        raise TransformSyntaxError(f"expected a value for '{key}'{hint}", text, pos)
    return m.group(0), m.end()
