"""Open any supported model file or directory into a Graph (content-sniffed)."""

from __future__ import annotations

import os
from array import array
from dataclasses import dataclass, field

from inspector.core.errors import InspectorError, ModelLoadError
from inspector.core.loaders import files
from inspector.core.loaders import sniff as sniffing
from inspector.core.model import protos
from inspector.core.model.graph import Graph


@dataclass
class Signature:
    """A SavedModel signature: tensor names keyed by the signature's own input/output keys,
    and the (dtype, shape) the signature declares for each key, where it declares them."""

    key: str
    inputs: dict = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    input_specs: dict = field(default_factory=dict)
    output_specs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ModelRef:
    """Which file, as it was when opened, and how: enough for another process (the worker)
    to open the same model itself instead of receiving its bytes."""

    path: str
    stamp: tuple          # (size, modification time in ns) of the path when it was opened
    options: tuple = ()   # sorted (keyword, value) pairs given to `load`


def file_stamp(path: str) -> tuple:
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns)


@dataclass
class LoadedModel:
    path: str
    kind: str
    graph: Graph
    file_size: int = 0
    is_text: bool = False
    frozen: bool = False
    tags: list = field(default_factory=list)
    signature: Signature | None = None
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)   # plain words on how the model was opened
    ref: ModelRef | None = None   # how to open exactly this model again (set by `load`)

    @property
    def capabilities(self) -> frozenset:
        """What can be done with it (readers.TRANSFORM, RUN, SHAPES, CONVERT)."""
        from inspector.core.loaders.readers import capabilities

        return capabilities(self.kind)

    @property
    def known_inputs(self) -> list:
        return list(self.signature.inputs.values()) if self.signature else []

    @property
    def known_outputs(self) -> list:
        return list(self.signature.outputs.values()) if self.signature else []


def read_bytes(path: str) -> bytes:
    """A whole model file (regular files only, within protobuf's 2 GB limit)."""
    return files.read_file(path, files.PROTOBUF_LIMIT, "the model file")


def make_graph(graph_def, path: str, name: str = "", weights=None) -> tuple[Graph, list]:
    if not graph_def.node and not graph_def.library.function:
        raise ModelLoadError("the model holds no nodes (an empty graph, or not a TensorFlow "
                             "model at all)", path=path)
    graph = Graph(graph_def, name=name or os.path.basename(path), weights=weights)
    return graph, _problems(graph, path)


def _problems(graph: Graph, path: str) -> list:
    if graph.duplicate_names:
        dup = graph.duplicate_names[0]
        more = len(graph.duplicate_names) - 1
        extra = f" (and {more} more)" if more else ""
        raise ModelLoadError(f"duplicate node name{extra}; TensorFlow would refuse this graph",
                             path=path, node=dup)
    return graph.problems()


def load(path: str, *, freeze: bool = True, tags: list | None = None,
         signature: str | None = None, checkpoint: str | None = None,
         outputs: list | None = None, allow_unsafe: bool = False) -> LoadedModel:
    """Load a model. SavedModels and Keras files are frozen (needs TensorFlow) unless
    freeze=False (a Keras file then shows its layers from its config); a MetaGraphDef is frozen only when a checkpoint and outputs are given.
    Freezing refuses models whose loading would run ops that are not pure computation
    (initialisers writing files, ...) unless `allow_unsafe`."""
    path = os.fspath(path)
    st = files.stat_input(path)
    options = {"freeze": freeze, "tags": tags, "signature": signature,
               "checkpoint": checkpoint, "outputs": outputs, "allow_unsafe": allow_unsafe}
    model = _load(path, st, **options)
    if model.kind == "keras-layers":    # no Keras loaded it: reopened as the same view, no retry
        options["freeze"] = False
    model.ref = ModelRef(path, (st.st_size, st.st_mtime_ns), tuple(sorted(
        (k, tuple(v) if isinstance(v, list) else v) for k, v in options.items())))
    return model


def reload(ref: ModelRef) -> LoadedModel:
    """The model `ref` names, opened again; refused when the file changed since."""
    try:
        now = file_stamp(ref.path)
    except OSError as exc:
        raise ModelLoadError(f"cannot open the model again: {exc.strerror}",
                             path=ref.path) from None
    if now != tuple(ref.stamp):
        raise ModelLoadError("the model file changed on disk since it was opened; open it "
                             "again", path=ref.path)
    options = {k: list(v) if isinstance(v, tuple) else v for k, v in ref.options}
    return load(ref.path, **options)


def _load_lazily(path: str, st) -> LoadedModel | None:
    """A big binary GraphDef: structure now, large tensor values when someone reads them
    (None when the file's first fields are not a GraphDef's: it is read whole then). Big
    files are read by a reader process while this one builds the nodes (reader_process)."""
    from inspector.core.loaders import reader_process
    from inspector.core.loaders.lazy_graphdef import open_lazily

    stream = reader_process.take(path, st)
    if stream is None and st.st_size >= reader_process.STREAM_ABOVE:
        stream = reader_process.start(path, st)
    if stream is not None:
        graph = _receive(stream, path)
        if graph is not None:
            return LoadedModel(path, sniffing.GRAPHDEF, graph, st.st_size, False,
                               problems=_problems(graph, path))
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
    from inspector.core.model.weights import WeightStore
    from inspector.core.runtime.job import current

    graph = Graph(protos.GraphDef(), name=os.path.basename(path), complete=False)
    graph.stored_sizes = array("I")
    done = reader_process.receive(stream, graph, current())
    if done is None:
        return None
    slots, scanned, fd = done
    weights = None
    if slots:
        weights = WeightStore(path, fd, stream.stamp, slots, scanned)
    else:
        os.close(fd)
    _check_graph_def(graph.structure, path)
    graph.finish(weights)
    return graph


def _load(path: str, st, **options) -> LoadedModel:
    """The first reader of the registry that matches the file opens it."""
    from inspector.core.loaders.readers import LoadContext, open_with_readers

    try:
        return open_with_readers(LoadContext(path, st, options))
    except InspectorError:
        raise
    except (RecursionError, MemoryError) as exc:
        raise ModelLoadError(f"cannot load model: {type(exc).__name__}", path=path) from None
