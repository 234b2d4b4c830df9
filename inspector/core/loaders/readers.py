"""The model readers, one registry (as Netron keeps one reader per format): each names its
kind, the file patterns the Open dialog offers, `match(ctx)` on one shared load context (the
file's first bytes sniffed once, its whole content read once and only when a reader needs
it), `open(ctx)` (None hands the file to the next reader) and what the opened model can do.
Readers are tried in registry order. Adding a format: its module with match/open, and one
`register` line here."""

from __future__ import annotations

import os
import stat
from array import array
from dataclasses import dataclass, field
from typing import Callable

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import files
from inspector.core.loaders import sniff as sniffing
from inspector.core.loaders.loaded import (
    CAPABILITIES,
    GRAPH_OPS,
    LoadedModel,
    make_graph,
    problems_of,
    read_bytes,
)
from inspector.core.loaders.loaded import CONVERT as CONVERT
from inspector.core.loaders.loaded import RUN as RUN
from inspector.core.loaders.loaded import SHAPES as SHAPES
from inspector.core.loaders.loaded import TRANSFORM as TRANSFORM
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.model.node_store import NodeStore, StoredGraphDef
from inspector.core.model.weights import WeightStore
from inspector.core.runtime import front_end
from inspector.core.runtime.job import current


@dataclass
class LoadContext:
    """What every reader's match and open see: the path, its stat, the load options, and
    the content read at most once (`head`: the first 64 KB; `data`: the whole file)."""

    path: str
    st: os.stat_result
    options: dict
    _head: bytes | None = None
    _data: bytes | None = None
    _sniffed: tuple | None = None
    _whole: tuple | None = None

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.st.st_mode)

    @property
    def head(self) -> bytes:
        if self._head is None:
            self._head = b"" if self.is_dir else files.read_file(self.path, count=65536)
        return self._head

    @property
    def kind(self) -> str:
        """The kind told by the first bytes (GRAPHDEF: "read it all and look closer")."""
        if self._sniffed is None:
            self._sniffed = (sniffing.SAVEDMODEL, False) if self.is_dir else \
                sniffing.sniff_head(self.path, self.head)
        return self._sniffed[0]

    @property
    def data(self) -> bytes:
        """The whole model file (of a SavedModel folder: its saved_model.pb)."""
        if self._data is None:
            self._data = read_bytes(self.model_file)
        return self._data

    def drop_data(self) -> bytes:
        data, self._data = self.data, None
        return data

    @property
    def model_file(self) -> str:
        return sniffing.saved_model_file(self.path) if self.is_dir else self.path

    @property
    def whole_kind(self) -> tuple[str, bool]:
        """(kind, is text) told by the whole content."""
        if self._whole is None:
            if self.is_dir:
                self._whole = (sniffing.SAVEDMODEL, sniffing.looks_like_text(self.data))
            else:
                self._whole = sniffing.sniff(self.path, self.data)
        return self._whole


@dataclass(frozen=True)
class Reader:
    kind: str                      # LoadedModel.kind of what it opens
    label: str                     # the Open dialog's words for it
    patterns: tuple                # the Open dialog's file patterns
    match: Callable                # match(ctx) -> bool
    open: Callable                 # open(ctx) -> LoadedModel, or None: try the next reader
    capabilities: frozenset = field(default=GRAPH_OPS)


REGISTRY: list = []


def register(reader: Reader) -> Reader:
    REGISTRY.append(reader)
    CAPABILITIES.setdefault(reader.kind, reader.capabilities)
    return reader


def capabilities(kind: str) -> frozenset:
    """What a model of this kind can do (every reader of that kind agrees)."""
    return CAPABILITIES.get(kind, GRAPH_OPS)


def file_filter() -> str:
    """The Open dialog's filter: every pattern of every reader, then each format alone."""
    patterns: list = []
    lines = []
    for reader in REGISTRY:
        if not reader.patterns:
            continue
        patterns += [p for p in reader.patterns if p not in patterns]
        lines.append(f"{reader.label} ({' '.join(reader.patterns)})")
    return ";;".join([f"TensorFlow models ({' '.join(patterns)})"] + lines + ["All files (*)"])


def open_with_readers(ctx: LoadContext):
    for reader in REGISTRY:
        if reader.match(ctx):
            model = reader.open(ctx)
            if model is not None:
                return model
    raise AssertionError("the GraphDef reader takes every file")   # pragma: no cover


# -- the readers, in the order they are tried ---------------------------------------------------
def _tfjs_folder(ctx: LoadContext) -> str | None:
    if not ctx.is_dir:
        return None
    from inspector.core.loaders.tfjs import model_json_in  # (numpy: not for every file)

    found = model_json_in(ctx.path)
    if found and not any(os.path.exists(os.path.join(ctx.path, n))
                         for n in ("saved_model.pb", "saved_model.pbtxt")):
        return found
    return None


def _open_tfjs(ctx: LoadContext):
    from inspector.core.loaders.tfjs import load_tfjs

    found = _tfjs_folder(ctx)
    if found:
        return load_tfjs(found, os.path.getsize(found))
    return load_tfjs(ctx.path, ctx.st.st_size)


def _open_tflite(ctx: LoadContext):
    from inspector.core.loaders.tflite_graph import load_tflite

    return load_tflite(ctx.path, ctx.st.st_size)


def _open_keras(ctx: LoadContext):
    from inspector.core.loaders.keras import load_keras

    return load_keras(ctx.path, os.path.getsize(ctx.path), ctx.options.get("freeze", True))


def _binary_graphdef_head(ctx: LoadContext) -> bool:
    return not ctx.is_dir and ctx.kind == sniffing.GRAPHDEF and \
        not sniffing.looks_like_text(ctx.head[:4096])


def _is_memmapped(ctx: LoadContext) -> bool:
    from inspector.core.loaders.memmapped import looks_memmapped

    return _binary_graphdef_head(ctx) and looks_memmapped(ctx.path)


def _open_memmapped(ctx: LoadContext):
    from inspector.core.loaders.memmapped import load_memmapped

    return load_memmapped(ctx.path, ctx.st.st_size)


def opens_lazily(ctx: LoadContext) -> bool:
    from inspector.core.loaders.lazy_graphdef import LAZY_ABOVE

    return (_binary_graphdef_head(ctx) and LAZY_ABOVE <= ctx.st.st_size <= files.PROTOBUF_LIMIT
            and os.path.basename(ctx.path) != "saved_model.pb"
            and sniffing.clearly_binary(ctx.head))


def _open_lazily(ctx: LoadContext):
    return _load_lazily(ctx.path, ctx.st)


def _load_lazily(path: str, st) -> LoadedModel | None:
    """A big binary GraphDef: structure now, large tensor values when someone reads them
    (None when the file's first fields are not a GraphDef's: it is read whole then). Big
    files are read by a reader process while this one builds the nodes (reader_process)."""
    from inspector.core.loaders import reader_process
    from inspector.core.loaders.lazy_graphdef import open_lazily

    stream = reader_process.take(path, st)
    if stream is None and st.st_size >= reader_process.STREAM_ABOVE:
        stream = reader_process.start(path, st, front_end.WINDOW)
    if stream is not None:
        graph = _receive(stream, path)
        if graph is not None:
            return LoadedModel(path, sniffing.GRAPHDEF, graph, st.st_size, False,
                               problems=problems_of(graph, path))
    sizes: list = []
    opened = open_lazily(path, st, sizes=sizes)
    if opened is None:
        return None
    graph_def, weights = opened
    _check_graph_def(graph_def, path)
    graph, problems = make_graph(graph_def, path, weights=weights)
    graph.stored_sizes = array("I", sizes)
    return LoadedModel(path, sniffing.GRAPHDEF, graph, st.st_size, False, problems=problems)


def _check_graph_def(graph_def, path: str) -> None:
    from inspector.core.loaders.protofile import check_kind

    check_kind(graph_def, "GraphDef", path)
    if not graph_def.node and not graph_def.library.function:
        raise ModelLoadError("the model holds no nodes (an empty graph, or not a TensorFlow "
                             "model at all)", path=path)


def _receive(stream, path: str) -> Graph | None:
    """The graph a reader process sends, its weights read from our own descriptor of the
    same file; None when the reader did not finish or the file changed (read here then)."""
    from inspector.core.loaders import reader_process

    # the window and `summarize` read few NodeDefs: they stay bytes in the file (other
    # commands walk them all)
    stored = (front_end.WINDOW or front_end.FEW_NODES) and \
        stream.stamp[0] >= reader_process.STORE_FROM
    structure = StoredGraphDef(NodeStore(path)) if stored else protos.GraphDef()
    graph = Graph(structure, name=os.path.basename(path), complete=False)
    graph.stored_sizes = array("I")
    done = None
    try:
        done = reader_process.receive(stream, graph, current())
    finally:
        if done is None and stored:
            structure.store.close()
    if done is None:
        return None
    slots, scanned, fd = done
    weights = None
    if slots:
        weights = WeightStore(path, fd, stream.stamp, slots, scanned)
    else:
        os.close(fd)
    _check_graph_def(structure.sample() if stored else structure, path)
    graph.finish(weights)
    return graph


def _open_savedmodel(ctx: LoadContext):
    from inspector.core.loaders.savedmodel import load_saved_model

    o = ctx.options
    kind, is_text = ctx.whole_kind
    return load_saved_model(ctx.path, ctx.model_file, ctx.drop_data(), is_text,
                            os.path.getsize(ctx.model_file), o["freeze"], o["tags"],
                            o["signature"], o["allow_unsafe"])


def _open_metagraph(ctx: LoadContext):
    from inspector.core.loaders.metagraph import load_metagraph

    o = ctx.options
    _, is_text = ctx.whole_kind
    return load_metagraph(ctx.path, ctx.drop_data(), is_text, ctx.st.st_size, o["checkpoint"],
                          o["outputs"], o["allow_unsafe"])


def _open_graphdef(ctx: LoadContext):
    from inspector.core.loaders import tfjs
    from inspector.core.loaders.protofile import parse

    _, is_text = ctx.whole_kind
    graph_def = parse(ctx.drop_data(), protos.GraphDef, is_text, ctx.path)
    notes = tfjs.fill_old_format(graph_def, ctx.path) \
        if tfjs.old_format_manifest(ctx.path) else []
    graph, problems = make_graph(graph_def, ctx.path)
    return LoadedModel(ctx.path, sniffing.GRAPHDEF, graph, ctx.st.st_size, is_text,
                       problems=problems, notes=notes)


def _whole_is(kind: str) -> Callable:
    return lambda ctx: not ctx.is_dir and ctx.kind == sniffing.GRAPHDEF and \
        ctx.whole_kind[0] == kind


register(Reader("tfjs", "TensorFlow.js graph model", ("model.json",),
                lambda ctx: _tfjs_folder(ctx) is not None or
                (not ctx.is_dir and ctx.kind == sniffing.TFJS), _open_tfjs))
register(Reader("tflite", "TensorFlow Lite model", ("*.tflite",),
                lambda ctx: not ctx.is_dir and ctx.kind == sniffing.TFLITE, _open_tflite,
                frozenset()))
register(Reader("keras", "Keras model", ("*.keras", "*.h5", "*.hdf5"),
                lambda ctx: not ctx.is_dir and ctx.kind in (sniffing.KERAS_H5,
                                                            sniffing.KERAS_ZIP), _open_keras))
register(Reader("memmapped", "Memory-mapped GraphDef", (), _is_memmapped, _open_memmapped))
register(Reader("graphdef", "Binary GraphDef (large, read lazily)", (), opens_lazily,
                _open_lazily))
register(Reader("savedmodel", "SavedModel", ("saved_model.pb", "saved_model.pbtxt"),
                lambda ctx: ctx.is_dir or _whole_is(sniffing.SAVEDMODEL)(ctx),
                _open_savedmodel))
register(Reader("metagraph", "MetaGraph", ("*.meta",), _whole_is(sniffing.METAGRAPH),
                _open_metagraph))
register(Reader("graphdef", "GraphDef", ("*.pb", "*.pbtxt"), lambda ctx: True,
                _open_graphdef))


def prestart(path: str, window: bool = True):
    """Start reading a big binary GraphDef before it is opened (the process has one thread,
    so the reader is a fork): the model the app was started with, before the window exists
    (before Qt is imported), kept for its open at once; or (window False) a command's next
    model (`diff A B`'s B, walked and its columns read while A loads), returned as
    hand_over(keep) to call once the open before it is over (an open stops the started
    readers it does not take): kept for B's open, or stopped. None where the file is not
    read so (the real open reads it as before and reports any problem)."""
    if not window:
        return prestart_all([path])[0]
    st = _streamed(path, window)
    stream = None if st is None else _reader_process().start(path, st, window=window)
    if stream is not None:
        _reader_process().keep_started(path, stream)
    return None


def prestart_all(paths: list) -> list:
    """prestart(path, window=False) of the last path, and of every path where all are read
    so (`diff A B`: A and B), then each reader forked before any of their threads start (a
    running thread stops the next fork: A was read by a started interpreter, its columns
    and constants' facts made here) and sending every piece with its columns (the models
    are opened at once, on two threads: this process is the busier side). One
    hand_over(keep) or None per path, each to call before the open of its model (kept for
    it, pinned: the other opens do not stop it)."""
    reader_process = _reader_process()
    sts = [_streamed(path, False) for path in paths]
    every = all(st is not None for st in sts) and len(paths) > 1
    if not every:
        sts = [None] * (len(paths) - 1) + sts[-1:]
    streams = [None if st is None else reader_process.start(path, st, window=False,
                                                            drain=False, full=every)
               for path, st in zip(paths, sts)]
    for stream in streams:
        if stream is not None:
            stream.drain()
    return [None if stream is None else _hand_over(reader_process, path, stream)
            for path, stream in zip(paths, streams)]


def _hand_over(reader_process, path: str, stream):
    def hand_over(keep: bool = True) -> None:
        if keep:
            reader_process.keep_started(path, stream, pinned=True)
        else:
            stream.kill()

    return hand_over


def _reader_process():
    from inspector.core.loaders import reader_process

    return reader_process


def _streamed(path: str, window: bool):
    """The file's stat where a reader process reads it ahead (for the window, or a
    command's big enough file), else None."""
    reader_process = _reader_process()
    try:
        st = files.stat_input(path)
        ctx = LoadContext(path, st, {}, files.read_file(path, count=4096))
        if not opens_lazily(ctx) or not window and (
                st.st_size < reader_process.STREAM_ABOVE or _is_memmapped(ctx)):
            return None
    except Exception:  # noqa: BLE001  (the real open reports any problem)
        return None
    protos.NodeDef, protos.GraphDef     # noqa: B018  the reader and this process both parse
    # with protobuf's messages: imported once, before the fork
    return st
