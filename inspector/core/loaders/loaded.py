"""What a reader hands back: the loaded model (kind, graph, signature, problems, notes, how
to open it again) and the helpers every reader shares (reading a file within protobuf's
limit, making the Graph and its problems)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import files

if TYPE_CHECKING:
    from inspector.core.model.graph import Graph

# What an opened model can do; each reader says for its kind (readers.register fills this)
TRANSFORM = "transform"      # the pipeline's transforms rewrite it
RUN = "run"                  # TensorFlow can run it (profile, check, demo, calibrate)
SHAPES = "shapes"            # TensorFlow's shape inference applies (else shapes are stored)
CONVERT = "convert"          # it can be converted to TFLite
GRAPH_OPS = frozenset({TRANSFORM, RUN, SHAPES, CONVERT})
CAPABILITIES: dict = {}      # kind -> frozenset


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
    # what its files take on disk (on_disk.model_bytes, set by `load`: a SavedModel's folder,
    # a .meta and its checkpoint, a TF.js model's shards), where file_size is the bytes of
    # what was read as its graph (a SavedModel's: its frozen GraphDef's)
    disk_bytes: int = 0

    @property
    def size_on_disk(self) -> int:
        """The size a user checks with `ls -l` / `du` (the summary's, the diff's file bytes)."""
        return self.disk_bytes or self.file_size

    @property
    def capabilities(self) -> frozenset:
        """What can be done with it (TRANSFORM, RUN, SHAPES, CONVERT): its reader says."""
        return CAPABILITIES.get(self.kind, GRAPH_OPS)

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
    from inspector.core.model.graph import Graph  # a same-bytes diff imports no graph

    graph = Graph(graph_def, name=name or os.path.basename(path), weights=weights)
    return graph, problems_of(graph, path)


def problems_of(graph: Graph, path: str) -> list:
    if graph.duplicate_names:
        dup = graph.duplicate_names[0]
        more = len(graph.duplicate_names) - 1
        extra = f" (and {more} more)" if more else ""
        raise ModelLoadError(f"duplicate node name{extra}; TensorFlow would refuse this graph",
                             path=path, node=dup)
    return graph.problems()


def bytes_on_disk(model) -> int:
    """What a model's files take on disk, the one rule for every place that says it (the
    summary's text and JSON, the Summary panel): LoadedModel.size_on_disk; a model-like
    object without one (made here, not loaded): its file_size."""
    return getattr(model, "size_on_disk", 0) or model.file_size
