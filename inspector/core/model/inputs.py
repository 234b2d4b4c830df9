"""Input references (`name`, `name:port`, `^name`), edges and the scope a name sits in."""

from __future__ import annotations

import re
from typing import NamedTuple


class InputRef(NamedTuple):
    """One entry of NodeDef.input: `name`, `name:port` or `^name`."""

    node: str
    port: int
    control: bool

    def __str__(self) -> str:
        if self.control:
            return "^" + self.node
        return self.node if self.port == 0 else f"{self.node}:{self.port}"


INPUT_SYNTAX = re.compile(r"^\^?[^:^]+(:\d{1,9})?$")


def parse_input(text: str) -> InputRef:
    if text.startswith("^"):
        return InputRef(text[1:].split(":", 1)[0], -1, True)
    name, sep, port = text.partition(":")
    if sep:
        # function-body style `node:out_arg:index` keeps the trailing index as the port
        return InputRef(name, _port(port.rsplit(":", 1)[-1]), False)
    return InputRef(name, 0, False)


def _port(text: str) -> int:
    """A port's digits as a number; 0 for what is not one (the input is malformed then), and
    for digits int() refuses: '²' is a digit, and so are 4,300 of them (Python's limit)."""
    if text.isdigit():
        try:
            return int(text)
        except ValueError:
            pass
    return 0


MAX_SCOPE_DEPTH = 64


def scope_parts(name: str) -> list:
    """The name scopes a node sits in, outermost first, at most MAX_SCOPE_DEPTH of them (a
    node named 5,000 scopes deep is shown in its 64th scope, with the rest of its name)."""
    return name.split("/", MAX_SCOPE_DEPTH)[:-1]


def scope_of(name: str) -> str:
    return "/".join(scope_parts(name))


def node_name_from_input(text: str) -> str:
    """TF's NodeNameFromInput: strip a leading ^ and everything from the first ':'."""
    return (text[1:] if text.startswith("^") else text).split(":", 1)[0]


class Edge(NamedTuple):
    src: str
    src_port: int
    dst: str
    dst_index: int
    control: bool
