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


# One rule for a name's or a scope path's parts, empty ones included (a file may hold names
# TensorFlow refuses: "//two/x", "a//b", "x/"): its '/'-separated parts, but a leading '/'
# stays with the first part ("/x/y" -> "/x", "y"; "//two" -> "/", "two"). So a scope's parent
# is its path up to the last '/' (the scope tree's rule), the root "" is no scope's part, and
# each scope's key among its parent's children (child_key) is its last part: "/x" and "x"
# are two children of the root, and every path is "/".join of its parts.
def path_parts(path: str, most: int = -1) -> list:
    """The parts of a scope path or node name, outermost first (the rule above; `most`:
    split at most that many times, as str.split)."""
    if path[:1] != "/":
        return path.split("/", most) if path else []
    parts = path[1:].split("/", most)
    parts[0] = "/" + parts[0]
    return parts


def child_key(path: str) -> str:
    """A scope's key among its parent's children: its last part (path_parts)."""
    parent, _, key = path.rpartition("/")
    return key if parent else path


def scope_parts(name: str) -> list:
    """The name scopes a node sits in, outermost first, at most MAX_SCOPE_DEPTH of them (a
    node named 5,000 scopes deep is shown in its 64th scope, with the rest of its name)."""
    return path_parts(name, MAX_SCOPE_DEPTH)[:-1]


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
