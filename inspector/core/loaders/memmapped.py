"""Memory-mapped GraphDef packages (see core/formats/memmapped.py for the layout): found by
their tail (an 8-byte directory offset and a directory naming "memmapped_package://."),
checked region by region, and opened as a graph whose ImmutableConst nodes are Const nodes
again, their bytes left in the file and read when someone looks at them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from inspector.core.errors import ModelLoadError
from inspector.core.loaders.loaded import LoadedModel, make_graph
from inspector.core.model import dtypes, protos
from inspector.core.model.tensors import shape_dims
from inspector.core.model.weights import LAZY_MARK, TENSOR_CONTENT, Slot, WeightStore

PREFIX = "memmapped_package://"
GRAPH_REGION = PREFIX + "."
ALIGNMENT = 64
MAX_DIRECTORY = 64 << 20     # a directory is names and numbers: never this big


@dataclass
class Region:
    name: str
    offset: int
    length: int


@dataclass
class Package:
    path: str
    size: int
    regions: list
    directory_offset: int
    problems: list = field(default_factory=list)   # one line each
    lengths_inferred: bool = False   # no lengths recorded (TF 1.x's writer): next offset

    @property
    def tensor_bytes(self) -> int:
        return sum(r.length for r in self.regions if r.name != GRAPH_REGION)


def _varint(data: bytes, pos: int, end: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if pos >= end or shift > 63:
            raise ValueError("a number runs past its field")
        b = data[pos]
        value |= (b & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if b < 0x80:
            return value, pos


def _fields(data: bytes, pos: int, end: int):
    while pos < end:
        key, pos = _varint(data, pos, end)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos, end)
        elif wire == 2:
            n, pos = _varint(data, pos, end)
            if pos + n > end:
                raise ValueError("a field runs past the end of the directory")
            value, pos = data[pos:pos + n], pos + n
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            value, pos = data[pos:pos + width], pos + width
        else:
            raise ValueError(f"wire type {wire} has no place in a directory")
        yield number, wire, value


def parse_directory(data: bytes) -> list:
    regions = []
    for number, wire, elem in _fields(data, 0, len(data)):
        if number != 1 or wire != 2:
            continue
        name, offset, length = "", 0, 0
        for n, w, value in _fields(elem, 0, len(elem)):
            if n == 1 and w == 0:
                offset = value
            elif n == 2 and w == 2:
                name = bytes(value).decode("utf-8", errors="replace")
            elif n == 3 and w == 0:
                length = value
        regions.append(Region(name, offset, length))
    return regions


def read_package(path: str) -> Package:
    """The directory of a package; raises ModelLoadError when the file is not one."""
    size = os.path.getsize(path)
    with open(path, "rb") as fh:
        if size < 8:
            raise ModelLoadError("truncated memory-mapped package: shorter than the 8-byte "
                                 "directory offset it must end with", path=path)
        fh.seek(size - 8)
        where = int.from_bytes(fh.read(8), "little")
        if where > size - 8 or size - 8 - where > MAX_DIRECTORY:
            raise ModelLoadError(f"not a memory-mapped package (or truncated): its last 8 "
                                 f"bytes point to byte {where:,} of {size:,}", path=path)
        fh.seek(where)
        raw = fh.read(size - 8 - where)
    if GRAPH_REGION.encode() not in raw:    # a C-speed scan before any Python parsing
        raise ModelLoadError(f"not a memory-mapped package: its directory has no "
                             f"'{GRAPH_REGION}' region", path=path)
    try:
        regions = parse_directory(raw)
    except ValueError as exc:
        raise ModelLoadError(f"the directory of the memory-mapped package does not parse: "
                             f"{exc}", path=path) from None
    if not any(r.name == GRAPH_REGION for r in regions):
        raise ModelLoadError(f"not a memory-mapped package: its directory has no "
                             f"'{GRAPH_REGION}' region", path=path)
    package = Package(path, size, regions, where)
    package.problems = _region_problems(package)
    return package


def looks_memmapped(path: str) -> bool:
    try:
        read_package(path)
    except (ModelLoadError, OSError):
        return False
    return True


def _region_problems(p: Package) -> list:
    out, seen, end = [], set(), 0
    all_zero = all(r.length == 0 for r in p.regions)
    p.lengths_inferred = all_zero
    for k, r in enumerate(p.regions):
        if all_zero:   # packages written before lengths were recorded: up to the next one
            nxt = p.regions[k + 1].offset if k + 1 < len(p.regions) else p.directory_offset
            r.length = max(nxt - r.offset, 0)
        if r.name in seen:
            out.append(f"duplicate region name '{r.name}'")
        seen.add(r.name)
        if not r.name.startswith(PREFIX):
            out.append(f"region '{r.name}' lacks the '{PREFIX}' prefix")
        if r.offset < end:
            out.append(f"region '{r.name}' starts at byte {r.offset:,}, inside the previous "
                       f"region (which ends at {end:,}): offsets must increase")
        if r.offset + r.length > p.directory_offset:
            out.append(f"region '{r.name}' ({r.offset:,} + {r.length:,} bytes) runs past "
                       f"the directory at byte {p.directory_offset:,}")
        if r.name != GRAPH_REGION and r.offset % ALIGNMENT:
            out.append(f"region '{r.name}' starts at byte {r.offset:,}, not a multiple of "
                       f"{ALIGNMENT} (tensors must be aligned for mapping)")
        end = max(end, r.offset + r.length)
    return out


def _graph_def(p: Package):
    g = next(r for r in p.regions if r.name == GRAPH_REGION)
    if g.offset + g.length > p.directory_offset:
        raise ModelLoadError("the graph region runs past the directory", path=p.path)
    with open(p.path, "rb") as fh:
        fh.seek(g.offset)
        data = fh.read(g.length)
    try:
        return protos.GraphDef.FromString(data)
    except Exception:  # noqa: BLE001  (DecodeError and friends)
        raise ModelLoadError("the graph region of the memory-mapped package does not parse",
                             path=p.path) from None


def check(path: str) -> tuple[Package, list]:
    """The package and every problem found (one line each; none for a valid file): regions
    aligned, in order, inside the file, uniquely named, each as long as the dtype and shape
    of the ImmutableConst reading it say."""
    p = read_package(path)
    return p, _check(p)[0]


def _check(p: Package) -> tuple[list, object]:
    """(problems, the package's GraphDef as stored) of a package read by read_package."""
    problems = list(p.problems)
    regions = {r.name: r for r in p.regions}
    graph_def = _graph_def(p)
    used = set()
    for node in graph_def.node:
        if node.op != "ImmutableConst":
            continue
        name = node.attr["memory_region_name"].s.decode("utf-8", errors="replace")
        used.add(name)
        r = regions.get(name)
        if r is None:
            problems.append(f"node '{node.name}' reads region '{name}', which the directory "
                            "does not list")
            continue
        dims = shape_dims(node.attr["shape"].shape) or ()
        count = 1
        for d in dims:
            count *= max(d or 0, 0)
        want = count * dtypes.item_size(node.attr["dtype"].type)
        if p.lengths_inferred and want <= r.length < want + ALIGNMENT:
            r.length = want          # the rest is the padding before the next region
        elif want != r.length:
            problems.append(f"region '{name}' holds {r.length:,} bytes; node '{node.name}' "
                            f"({dtypes.dtype_name(node.attr['dtype'].type)} "
                            f"{list(dims)}) needs {want:,}")
    for r in p.regions:
        if r.name != GRAPH_REGION and r.name not in used:
            problems.append(f"region '{r.name}' is read by no node")
    return problems, graph_def


def region_rows(path: str) -> list:
    """One row per region for listing: (name, offset, length, node, dtype name, dims) with
    the ImmutableConst that reads it (node "" and dtype "graph" for the GraphDef region;
    node "" when no node reads a region)."""
    p = read_package(path)
    readers = {}
    for node in _graph_def(p).node:
        if node.op == "ImmutableConst":
            name = node.attr["memory_region_name"].s.decode("utf-8", errors="replace")
            readers.setdefault(name, (node.name,
                                      dtypes.dtype_name(node.attr["dtype"].type),
                                      shape_dims(node.attr["shape"].shape)))
    rows = []
    for r in p.regions:
        node, dtype, dims = ("", "graph", ()) if r.name == GRAPH_REGION else \
            readers.get(r.name, ("", "?", ()))
        rows.append((r.name, r.offset, r.length, node, dtype, dims))
    return rows


def load_memmapped(path: str, size: int):
    """Open a package as a graph: ImmutableConst nodes become Const nodes whose bytes stay
    in the file (a WeightStore reads them on demand)."""
    p = read_package(path)
    problems, graph_def = _check(p)       # the graph region is read and parsed once
    if problems:
        raise ModelLoadError(f"damaged memory-mapped package: {problems[0]}"
                             + (f" (and {len(problems) - 1} more problems)"
                                if len(problems) > 1 else ""), path=path)
    regions = {r.name: r for r in p.regions}
    slots = []
    for k, node in enumerate(graph_def.node):
        if node.op != "ImmutableConst":
            continue
        region = regions[node.attr["memory_region_name"].s.decode()]
        dtype, shape = node.attr["dtype"].type, node.attr["shape"].shape
        node.op = "Const"
        tensor = node.attr["value"].tensor
        tensor.dtype = dtype
        tensor.tensor_shape.CopyFrom(shape)
        tensor.version_number = LAZY_MARK
        node.attr["memory_region"].s = region.name.encode()
        del node.attr["shape"]
        del node.attr["memory_region_name"]
        slots.append(Slot(k, "value", TENSOR_CONTENT, region.offset, region.length, 0))
    store = None
    if slots:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        st = os.fstat(fd)
        store = WeightStore(path, fd, (st.st_size, st.st_mtime_ns), slots, 0)
    graph, graph_problems = make_graph(graph_def, path, weights=store)
    notes = [f"memory-mapped package: {len(slots)} constant region(s), "
             f"{p.tensor_bytes / 2 ** 20:.1f} MB mapped on the phone instead of copied "
             "to the heap (an estimate: the bytes of the mapped constants)"]
    return LoadedModel(path, "memmapped", graph, size, frozen=True, problems=graph_problems,
                       notes=notes)
