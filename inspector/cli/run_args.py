"""What the commands that run or measure a graph (`transform`, `check`, `flops`, `profile`,
`calibrate`, `explain`) read from their arguments in transform_graph's syntax: TF's comma
lists of node names and --input_shape NAME=d0,d1,..."""

from __future__ import annotations

from inspector.core.errors import InspectorError

MAX_DIM = 2 ** 31 - 1


def split_names(text: str | None) -> list:
    """TF's comma lists: split on ',' with no trimming; '' is an empty list."""
    return text.split(",") if text else []


def _whole(text: str) -> bool:
    """ASCII digits, ten at most: str.isdigit takes '²' and '١٢' too (int('²') raised
    ValueError out of the command), and int() of 5,000 digits raises past Python's limit."""
    return text.isascii() and text.isdigit() and len(text) <= 10


def _short(text: str) -> str:
    """An argument as a message quotes it: 5,000 digits made a 10 kB line."""
    return text if len(text) <= 80 else f"{text[:60]}…({len(text) - 70:,} more)…{text[-10:]}"


def parse_input_shapes(items) -> dict:
    """NAME=d0,d1,... arguments (? or -1 for unknown) -> {name: dims}. NAME:0 (a tensor
    name) is the node NAME; another port, or one input given twice, is refused (as
    core.app.inputs.parse_sizes, the tflite command's and the window's)."""
    shapes, given = {}, {}
    for item in items or []:
        name, sep, dims = item.partition("=")
        if not sep or not name:
            raise InspectorError(f"--input_shape wants NAME=d0,d1,... (got '{item}')")
        node, colon, port = name.partition(":")
        if colon and not (_whole(port) and int(port) == 0):
            raise InspectorError(f"--input_shape {_short(item)}: an input is a node's output "
                                 f"0 ({_short(node)} or {_short(node)}:0), not :{_short(port)}")
        if node in given:
            raise InspectorError(f"--input_shape {item}: input {node} is given twice (also "
                                 f"{given[node]})")
        given[node] = item
        out = []
        for d in (d.strip() for d in dims.split(",") if d.strip() != ""):
            if d in ("?", "-1"):
                out.append(None)
            elif _whole(d) and int(d) <= MAX_DIM:
                out.append(int(d))
            else:
                raise InspectorError(f"--input_shape: '{_short(d)}' in '{_short(item)}' is "
                                     f"not a dimension (0 to {MAX_DIM}, or ? for unknown)")
        shapes[node] = tuple(out)
    return shapes
