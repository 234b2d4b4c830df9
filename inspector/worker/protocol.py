"""Messages between the app and its TensorFlow worker: 8-byte lengths (the pickle, how many
out-of-band buffers, each buffer's), the pickle (protocol 5), then the buffers.
Both ends are our own code (the model never travels as a pickle: graphs go as their
serialization, arrays as numpy buffers, inside our own tuples).

App -> worker:  ("call", id, operation, args, kwargs); the caller's functions travel as
                Callback(index), its cancel Event as CancelFlag, its job token as JobMark
                ("cancel", id) cancels the running call
Worker -> app:  ("progress", id, index, args) · ("result", id, value) · ("error", id, exc)
                · ("layer", id, name): the layer a Keras load is building
"""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import struct

from inspector.core.model import protos

HEADER = struct.Struct("<Q")
MAX_MESSAGE = 8 << 30  # a frame claiming more than this is a broken pipe, not a message
# operations that exist only for tests of the process boundary (INSPECTOR_WORKER_TEST=1)
TEST_OPERATIONS = ("_abort", "_import_unchecked", "_sleep", "_allocate", "_pid", "_modules")
# the pipeline preview and work on the model (core.app.model_tasks), in the worker beside the
# model it opens itself (preview_host)
PREVIEW_OPERATIONS = ("model",)     # ("model", ref, operation of the engine, ...)
MAX_BUFFERS = 1 << 20  # one per array or graph: thousands of folded constants are normal


class ProtocolError(Exception):
    """The other end went away or sent something that is not a message."""


SLICE = 5_000    # items per separately pickled slice of a big result (20,000 held the GIL 19-42 ms)


_KINDS = {dict: "dict", list: "list", set: "set", frozenset: "frozenset"}


def _join(kind: str, parts: list):
    """Rebuild a sliced container. Each slice is its own short pickle.loads, and this loop
    lets other threads (the GUI thread) run between them: one pickle.loads of a 300k-entry
    shape table holds the GIL for 200 ms (and of a strip preview's 300k-name set, 186 ms)."""
    out = {} if kind == "dict" else [] if kind == "list" else set()
    for part in parts:
        piece = pickle.loads(part)
        out.extend(piece) if kind == "list" else out.update(piece)
    return frozenset(out) if kind == "frozenset" else out


class _Sliced:
    """A big dict, list, set or frozenset travelling as slices (see _join)."""

    def __init__(self, value):
        self.kind = _KINDS[type(value)]
        items = list(value.items()) if self.kind == "dict" else \
            value if self.kind == "list" else list(value)
        self.parts = [pickle.dumps(dict(items[i:i + SLICE]) if self.kind == "dict"
                                   else items[i:i + SLICE], protocol=5)
                      for i in range(0, len(items), SLICE)]

    def __reduce__(self):
        return _join, (self.kind, self.parts)


def sliced(value, depth: int = 6):
    """value with its big dicts, lists and sets made _Sliced, also inside tuples, short lists and
    dataclasses (a preview row's FLOP report holds a 300k-entry dict), copied where changed."""
    kind = type(value)
    if kind in _KINDS and len(value) > SLICE:
        return _Sliced(value)
    if depth == 0:
        return value
    if kind is tuple or (kind is list and len(value) <= 64):
        parts = [sliced(v, depth - 1) for v in value]
        return kind(parts) if any(a is not b for a, b in zip(parts, value)) else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changed = {}
        for f in dataclasses.fields(value):
            old = getattr(value, f.name)
            new = sliced(old, depth - 1)
            if new is not old:
                changed[f.name] = new
        if changed:
            value = copy.copy(value)
            for name, new in changed.items():
                object.__setattr__(value, name, new)   # frozen ones too: a private copy
    return value


def send(fd: int, message) -> None:
    """Pickle protocol 5 with big byte buffers (graphs) out of band: they go to the pipe as
    they are, in 1 MB writes that release the GIL, never copied into one frame."""
    buffers: list = []
    data = pickle.dumps(message, protocol=5, buffer_callback=buffers.append)
    raws = [b.raw() for b in buffers]
    _write_all(fd, HEADER.pack(len(data)) + HEADER.pack(len(raws)) + b"".join(
        HEADER.pack(r.nbytes) for r in raws))
    _write_all(fd, data)
    for raw in raws:
        _write_all(fd, raw)


def receive(fd: int):
    (size,) = HEADER.unpack(_read_exactly(fd, HEADER.size))
    (count,) = HEADER.unpack(_read_exactly(fd, HEADER.size))
    if size > MAX_MESSAGE or count > MAX_BUFFERS:
        raise ProtocolError(f"a message of {size} bytes and {count} buffers announced")
    sizes = [HEADER.unpack(_read_exactly(fd, HEADER.size))[0] for _ in range(count)]
    if sum(sizes) > MAX_MESSAGE:
        raise ProtocolError(f"buffers of {sum(sizes)} bytes announced")
    data = _read_exactly(fd, size)
    return pickle.loads(data, buffers=[_read_into(fd, n) for n in sizes])


def _read_into(fd: int, size: int) -> bytearray:
    """Read `size` bytes straight into one buffer (no joining of chunks)."""
    out = bytearray(size)
    view, done = memoryview(out), 0
    while done < size:
        try:
            got = os.readv(fd, [view[done: done + (1 << 20)]])
        except OSError as exc:
            raise ProtocolError(f"the pipe closed while reading: {exc}") from exc
        if not got:
            raise ProtocolError("the other end closed the pipe")
        done += got
    return out


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view[: 1 << 20])
        except (BrokenPipeError, OSError) as exc:
            raise ProtocolError(f"the pipe closed while writing: {exc}") from exc
        view = view[written:]


def _read_exactly(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        try:
            chunk = os.read(fd, min(left, 1 << 20))
        except OSError as exc:
            raise ProtocolError(f"the pipe closed while reading: {exc}") from exc
        if not chunk:
            raise ProtocolError("the other end closed the pipe")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class Callback:
    """Stands for a function of the caller (progress): calls become messages."""

    def __init__(self, index: int):
        self.index = index


class JobMark:
    """Stands for the caller's job token: its progress and partials become messages (the
    Callback indices, or None when nobody listens), its cancel a ("cancel", id) message."""

    def __init__(self, progress: int | None, partial: int | None):
        self.progress, self.partial = progress, partial


class CancelFlag:
    """Stands for the caller's cancel Event: the caller cancels by ending this process."""

    def is_set(self) -> bool:
        return False

    def set(self) -> None:
        pass


class GraphBytes:
    """A GraphDef on the pipe as its serialization, made and parsed node by node: one C call
    over a 100 MB graph (pickling the message) holds the GIL, and the window, for ~0.3 s.
    `made` counts those made in this process: an answer that brought none has no graph to
    put in (received_graphs)."""

    made = 0

    def __init__(self, data):
        self.data = data
        GraphBytes.made += 1

    def __reduce_ex__(self, protocol):
        if protocol >= 5:  # the bytes travel out of band, never copied into the pickle
            return GraphBytes, (pickle.PickleBuffer(self.data),)
        return GraphBytes, (bytes(self.data),)


def pack(value):
    """GraphDefs (also inside tuples, lists and dicts) -> GraphBytes, for sending."""
    return _walk(value, lambda v: GraphBytes(protos.serialize_graph_def(v))
                 if isinstance(v, protos.GraphDef) else None, {})


def unpack(value):
    """GraphBytes (also inside tuples, lists and dicts) -> GraphDefs, parsed in pieces."""
    def graph(v):
        if not isinstance(v, GraphBytes):
            return None
        from inspector.core.loaders.protofile import parse

        return parse(v.data, protos.GraphDef, False, "(from the TensorFlow worker)")

    return _walk(value, graph, {})


def received_graphs(value, made: int):
    """An answer received after GraphBytes.made was `made`: unpack(value), or value as it is
    when it brought no graph (walking a 1M-node shape table made a new 1M-entry dict, whose
    growth held the GIL ~55 ms at normal speed on the window's side)."""
    return unpack(value) if GraphBytes.made != made else value


def _walk(value, swap, seen: dict):
    """`value` with swap(v) put in for every v it answers (not None), inside tuples, lists and
    dicts; a container with nothing swapped inside is `value` itself, and one seen before is
    walked once: what the pickle shared stays shared (e.g. one shape list for every node of
    that shape in a dict of 100k nodes)."""
    swapped = swap(value)
    if swapped is not None:
        return swapped
    is_dict = type(value) is dict
    if not (is_dict or isinstance(value, (tuple, list))):
        return value
    key = id(value)
    if key in seen:
        return seen[key]
    if is_dict:
        walked = {k: _walk(v, swap, seen) for k, v in value.items()}
        changed = any(walked[k] is not v for k, v in value.items())
    else:
        walked = [_walk(v, swap, seen) for v in value]
        changed = any(w is not v for w, v in zip(walked, value))
        if changed:
            walked = type(value)(walked)
    seen[key] = walked if changed else value
    return seen[key]
