"""The model readers, one registry (as Netron keeps one reader per format): each names its
kind, the file patterns the Open dialog offers, `match(ctx)` on one shared load context (the
file's first bytes sniffed once, its whole content read once and only when a reader needs
it), `open(ctx)` (None hands the file to the next reader) and what the opened model can do.
Readers are tried in registry order. Adding a format: its module with match/open, and one
`register` line here."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import Callable

from inspector.core.loaders import files
from inspector.core.loaders import sniff as sniffing

# What an opened model can do (LoadedModel.capabilities):
TRANSFORM = "transform"      # the pipeline's transforms rewrite it
RUN = "run"                  # TensorFlow can run it (profile, check, demo, calibrate)
SHAPES = "shapes"            # TensorFlow's shape inference applies (else shapes are stored)
CONVERT = "convert"          # it can be converted to TFLite
GRAPH_OPS = frozenset({TRANSFORM, RUN, SHAPES, CONVERT})


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
            from inspector.core.loaders import read_bytes

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
    return reader


# kinds a reader gives besides its own: views that nothing runs or rewrites (a Keras file's
# layers read from its config when no Keras can load it)
VIEW_ONLY = frozenset({"keras-layers"})


def capabilities(kind: str) -> frozenset:
    """What a model of this kind can do (every reader of that kind agrees)."""
    if kind in VIEW_ONLY:
        return frozenset()
    for reader in REGISTRY:
        if reader.kind == kind:
            return reader.capabilities
    return GRAPH_OPS


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
    from inspector.core.loaders.tfjs import model_json_in

    if not ctx.is_dir:
        return None
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
    from inspector.core.loaders.tflite import load_tflite

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
    from inspector.core.loaders import _load_lazily

    return _load_lazily(ctx.path, ctx.st)


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
    from inspector.core.loaders import LoadedModel, make_graph, tfjs
    from inspector.core.loaders.protofile import parse
    from inspector.core.model import protos

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
