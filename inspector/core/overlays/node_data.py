"""Model Explorer's node-data JSON as an export and import format of the overlay registry
(not a second overlay system). The format, as google-ai-edge/model-explorer writes it
(src/server/package/src/model_explorer/node_data_builder.py, and the UI's
NodeDataProviderGraphData in src/ui/.../visualizer/common/types.ts):

    ModelNodeData  = {graph id: GraphNodeData, ...}
    GraphNodeData  = {"results": {node id or output tensor name: {"value": number or text,
                                  "bgColor"?: css colour, "textColor"?: css colour}},
                      "thresholds"?: [{"value": number, "bgColor": colour}, ...],
                      "gradient"?: [{"stop": 0..1, "bgColor": colour}, ...], "name"?: text}

ai-edge-quantizer's `validate` (model_validator.create_json_for_model_explorer) writes a bare
GraphNodeData keyed by TFLite tensor names; a {"graphsData": {...}} wrapper is read too. ME
shows a graph's data only under that graph's id ("main", or a .tflite subgraph's name) and a
bare file on the graph shown; node ids are the ones its adapters give (formats/me_ids.py).
Reading checks size, nesting, types and colours before anything changes."""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.overlays.decorate import heat_colour

MAX_BYTES = 64 * 1024 * 1024      # a node-data file beyond this is refused before reading
MAX_ENTRIES = 2_000_000
MAX_KEY = 4096                    # characters in a node key
MAX_TEXT = 256                    # characters in a text value
MAX_GRAPHS = 1000
_GRAPH_KEYS = ("results", "thresholds", "gradient")
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\Z")
_RGB = re.compile(r"rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[\d.]+\s*)?\)\Z")
_NAME = re.compile(r"[a-zA-Z]{1,32}\Z")
PALETTE = ("#9fd8c3", "#f4c56a", "#ee9a72", "#9ccfee", "#dba6c7", "#c8d77f", "#f2a7a7",
           "#b9b3e6", "#e6cf9f", "#a7d3d8", "#d8b48f", "#cfcfcf")


@dataclass(frozen=True)
class NodeData:
    """One file's entries, checked: key -> value (float or str) and key -> colour."""
    name: str
    results: dict
    colours: dict = field(default_factory=dict)
    thresholds: tuple = ()         # ((upper value, colour), ...) in the file's order
    gradient: tuple = ()           # ((stop 0..1, colour), ...) sorted by stop
    graphs: tuple = ()             # the graph ids read


@dataclass(frozen=True)
class Placed:
    """NodeData matched onto a graph: node -> value, node -> colour (every valued node),
    and the entries that named no node."""
    name: str
    values: dict
    colours: dict
    unmatched: tuple
    total: int
    numeric: bool
    thresholds: tuple = ()
    gradient: tuple = ()
    keys: dict = field(default_factory=dict)   # node -> the file's key that named it
    scopes: dict = field(default_factory=dict)  # "a/b/" -> the colour a collapsed scope
    #                                              shows: its largest value's (numbers) or
    #                                              its first node's (texts)


# -- reading ---------------------------------------------------------------------------------
def _not_an_object(text, head) -> str:
    """What a file whose top level is not a JSON object holds, said before it is parsed (a
    list nested 100,000 deep was 'the top level is not an object')."""
    if not text:
        return "the file is empty"
    if not head and not text.strip():
        return "the file holds only white space"
    if head[:1] in ("[", b"["):
        return "the top level is a list, not an object"
    return "the top level is not an object"


def _fail(what: str, path: str):
    raise InspectorError(f"not Model Explorer node data: {what}", path=path)


def colour(text, where: str, path: str) -> str:
    """A CSS colour Model Explorer accepts, as a hex or name Qt accepts too."""
    if not isinstance(text, str) or len(text) > 64:
        _fail(f"{where} is not a colour", path)
    text = text.strip()
    if _HEX.match(text) or _NAME.match(text):
        return text
    m = _RGB.match(text)
    if m and all(int(v) <= 255 for v in m.groups()):
        return "#{:02x}{:02x}{:02x}".format(*(int(v) for v in m.groups()))
    _fail(f"{where} is not a colour ({text[:40]!r})", path)


def _number(value, where: str, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        _fail(f"{where} is not a number", path)
    try:
        value = float(value)
    except OverflowError:          # a 400-digit integer (under the 4,300-digit limit)
        value = math.inf
    if not math.isfinite(value):
        _fail(f"{where} is not a finite number", path)
    return value


def _value(value, where: str, path: str):
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            _fail(f"{where} is a text of over {MAX_TEXT} characters", path)
        return value
    return _number(value, where, path)


def _graph(data, gid: str, path: str, out: dict) -> None:
    if not isinstance(data, dict):
        _fail(f"graph '{gid[:80]}' is not an object", path)
    results = data.get("results")
    if not isinstance(results, dict):
        _fail(f"graph '{gid[:80]}' has no \"results\" object", path)
    if len(out["results"]) + len(results) > MAX_ENTRIES:
        _fail(f"more than {MAX_ENTRIES:,} entries", path)
    for key, entry in results.items():
        where = f"results['{key[:80]}']"
        if len(key) > MAX_KEY:
            _fail(f"a key of over {MAX_KEY} characters in graph '{gid[:80]}'", path)
        if not isinstance(entry, dict) or "value" not in entry:
            _fail(f"{where} is not an object with a \"value\"", path)
        value = _value(entry["value"], f"{where}.value", path)
        if key in out["results"]:
            continue                      # the first graph that names a key wins
        out["results"][key] = value
        if entry.get("bgColor") is not None:
            out["colours"][key] = colour(entry["bgColor"], f"{where}.bgColor", path)
    for name, pair in (("thresholds", ("value", "bgColor")), ("gradient", ("stop", "bgColor"))):
        items = data.get(name) or []
        if not isinstance(items, list) or len(items) > 1000:
            _fail(f"\"{name}\" of graph '{gid[:80]}' is not a short list", path)
        if items and not out[name]:
            rows = []
            for k, item in enumerate(items):
                if not isinstance(item, dict):
                    _fail(f"{name}[{k}] is not an object", path)
                number = _number(item.get(pair[0]), f"{name}[{k}].{pair[0]}", path)
                rows.append((number, colour(item.get(pair[1], "white"),
                                            f"{name}[{k}].{pair[1]}", path)))
            out[name] = tuple(sorted(rows) if name == "gradient" else rows)
    if isinstance(data.get("name"), str) and not out["name"]:
        out["name"] = data["name"][:MAX_TEXT]


def _same(d):
    return d


def _float(text):
    return float(text)


def _int(text):
    """A JSON integer; one past Python's int() digit limit (4,300) is a float (inf), so
    the value's own check names it ('not a finite number') rather than the decoder
    ('Exceeds the limit (4300 digits)... use sys.set_int_max_str_digits()')."""
    return int(text) if len(text) <= 4000 else float(text)


def parse(text: str | bytes, path: str = "", graph: str | None = None) -> NodeData:
    """Checked node data from the text of a file (raises InspectorError, one line). With
    `graph` (a Model Explorer graph id) and a file that has that graph, only its data, as
    Model Explorer reads it; else every graph's, the first to name a key winning."""
    if len(text) > MAX_BYTES:
        _fail(f"the file is over {MAX_BYTES // 2**20} MB", path)

    def refuse(constant):
        raise ValueError(f"{constant} is not a number JSON allows")
    head = text[:64].lstrip()
    if head[:1] not in ("{", b"{"):
        _fail(_not_an_object(text, head), path)
    try:
        # Python hooks: the decoder returns to the interpreter per object and number, so a
        # task parsing a big file lets the GUI thread run (one C call would hold the GIL
        # for the whole file: 220 ms at 13 MB here, 19 ms with the hooks)
        data = json.loads(text, parse_constant=refuse, object_hook=_same,
                          parse_float=_float, parse_int=_int)
    except RecursionError:
        _fail("nested too deeply", path)
    except (ValueError, UnicodeDecodeError) as exc:
        _fail(f"not JSON ({str(exc).splitlines()[0][:120]})", path)
    if not isinstance(data, dict):
        _fail("the top level is not an object", path)
    if isinstance(data.get("graphsData"), dict):
        data = data["graphsData"]
    out = {"results": {}, "colours": {}, "thresholds": (), "gradient": (), "name": ""}
    if "results" in data:                 # a bare GraphNodeData (ai-edge-quantizer)
        graphs = [("", data)]
    else:
        graphs = [(k, v) for k, v in data.items() if k != "version"]
        if graph is not None and isinstance(data.get(graph), dict):
            graphs = [(graph, data[graph])]
        if len(graphs) > MAX_GRAPHS:
            _fail(f"more than {MAX_GRAPHS} graphs", path)
        if not graphs:
            _fail("no graph with \"results\"", path)
    for gid, graph in graphs:
        _graph(graph, gid, path, out)
    if not out["results"]:
        _fail("no results", path)
    name = out["name"] or (graphs[0][0] if len(graphs) == 1 else "") or \
        os.path.splitext(os.path.basename(path))[0]
    return NodeData(name, out["results"], out["colours"], out["thresholds"], out["gradient"],
                    tuple(g for g, _ in graphs))


def read(path: str, graph: str | None = None) -> NodeData:
    """A node-data file, its size checked before it is read (`graph`: as parse)."""
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise InspectorError(f"cannot read the node-data file ({exc.strerror})",
                             path=path) from None
    if not os.path.isfile(path):
        raise InspectorError("the node-data file is not a regular file", path=path)
    if size > MAX_BYTES:
        _fail(f"the file is {size / 2**20:.0f} MB, over {MAX_BYTES // 2**20} MB", path)
    with open(path, "rb") as f:
        return parse(f.read(MAX_BYTES + 1), path, graph)


# -- matching --------------------------------------------------------------------------------
def candidates(key: str):
    """Names a key may mean: itself, without its output index, each part of a TFLite fused
    tensor name ("a;b;c"), each without its index."""
    seen = []
    for part in [key] + key.split(";"):
        for name in (part, re.sub(r":\d+\Z", "", part)):
            if name and name not in seen:
                seen.append(name)
                yield name


def targets(key: str, names, alias) -> list:
    """The nodes an entry colours: the node the graph knows the key by (alias), the key
    itself (without its output index), else every node a TFLite fused name ("a;b;c") names,
    as tflite_mapping maps an operator onto the GraphDef nodes fused into it."""
    node = alias(key)
    if node is not None:
        return [node]
    for name in (key, re.sub(r":\d+\Z", "", key)):
        if name in names:
            return [name]
    found = []
    parts = key.split(";")
    for part in parts if len(parts) > 1 else ():
        name = re.sub(r":\d+\Z", "", part)
        if name and name in names and name not in found:
            found.append(name)
    return found


def place(data: NodeData, names) -> Placed:
    """Match the entries onto the graph's node names (`names`: a container of them, with
    an optional alias(key) -> node for names the graph knows under another one)."""
    values, keys, unmatched = {}, {}, []
    alias = getattr(names, "alias", None) or (lambda key: None)
    for key, value in data.results.items():
        found = targets(key, names, alias)
        if not found:
            unmatched.append(key)
        for node in found:
            if node not in values:
                values[node], keys[node] = value, key
    numeric = all(not isinstance(v, str) for v in values.values())
    placed = Placed(data.name, values, {}, tuple(unmatched), len(data.results), numeric,
                    data.thresholds, data.gradient, keys)
    own = {n: data.colours[k] for n, k in keys.items() if k in data.colours}
    colours = colours_of(placed, own)
    return Placed(**{**placed.__dict__, "colours": colours,
                     "scopes": scope_colours(values, colours, numeric)})


def scope_colours(values: dict, colours: dict, numeric: bool) -> dict:
    """Each scope's colour when collapsed, counted once here (off the GUI thread) so that
    painting visits only what is on screen."""
    best: dict = {}
    for node, value in values.items():
        parts = node.rstrip("/").split("/")[:-1]
        for k in range(1, len(parts) + 1):
            scope = "/".join(parts[:k]) + "/"
            old = best.get(scope)
            if old is None or (numeric and value > values[old]):
                best[scope] = node
    return {scope: colours[node] for scope, node in best.items()}


def _hex_rgb(text: str):
    if _HEX.match(text) and len(text) in (4, 7, 9):
        t = text[1:]
        t = "".join(c * 2 for c in t) if len(t) == 3 else t[:6]
        return tuple(int(t[i:i + 2], 16) for i in (0, 2, 4))
    return None


def _between(stops: tuple, f: float) -> str:
    lo = stops[0]
    for hi in stops[1:]:
        if f <= hi[0]:
            a, b = _hex_rgb(lo[1]), _hex_rgb(hi[1])
            if a is None or b is None:
                return lo[1] if f - lo[0] < hi[0] - f else hi[1]
            t = 0.0 if hi[0] == lo[0] else (f - lo[0]) / (hi[0] - lo[0])
            return "#{:02x}{:02x}{:02x}".format(*(round(x + (y - x) * t) for x, y in zip(a, b)))
        lo = hi
    return stops[-1][1]


def colours_of(placed: Placed, own: dict) -> dict:
    """Every valued node's colour, by Model Explorer's rules: its own bgColor, else the
    gradient (min to max), else the first threshold at or above its value (none past the
    last: white), else our heat scale (numbers) or a palette per label (texts)."""
    values = placed.values
    out = {}
    if placed.numeric and values:
        lo, hi = min(values.values()), max(values.values())
        span = (hi - lo) or 1.0
    labels: dict = {}
    for node, value in values.items():
        if node in own:
            out[node] = own[node]
        elif isinstance(value, str):
            k = labels.setdefault(value, len(labels))
            out[node] = PALETTE[k % len(PALETTE)]
        elif placed.gradient:
            out[node] = _between(placed.gradient, (value - lo) / span)
        elif placed.thresholds:
            out[node] = next((c for t, c in placed.thresholds if value <= t), "#ffffff")
        else:
            out[node] = heat_colour((value - lo) / span)
    return out


# -- writing ---------------------------------------------------------------------------------
GRADIENT = tuple((stop, heat_colour(stop)) for stop in (0.0, 0.5, 1.0))


def build(values: dict, colours: dict, graph_id: str, name: str) -> dict:
    """ModelNodeData for one graph: a result per node (its colour when the overlay paints
    one per node; numbers otherwise take our heat scale as a gradient)."""
    results = {}
    for node, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            continue
        if not isinstance(value, str):
            value = float(value)
            if not math.isfinite(value):
                continue
        entry = {"value": value}
        if node in colours:
            entry["bgColor"] = colours[node]
        results[node] = entry
    graph = {"name": name, "results": results}
    if any(not isinstance(e["value"], str) for e in results.values()) and not colours:
        graph["gradient"] = [{"stop": s, "bgColor": c} for s, c in GRADIENT]
    return {graph_id: graph}


def dumps(data: dict) -> str:
    return json.dumps(data, indent=1, allow_nan=False) + "\n"
