"""Open any supported model file or directory into a Graph (content-sniffed by the readers
of readers.py; what they hand back is loaded.LoadedModel)."""

from __future__ import annotations

import os

from inspector.core.errors import InspectorError, ModelLoadError
from inspector.core.loaders import files
from inspector.core.runtime.lazy_import import later

TYPE_CHECKING = False       # typing's constant, without importing typing
if TYPE_CHECKING:
    from inspector.core.loaders.loaded import LoadedModel, ModelRef

# the loaders' public names (loaded.py) are imported on first use: a same-bytes diff reads
# sniff without them (their dataclasses and typing: ~30 ms on a slow machine)
_loaded = later("inspector.core.loaders.loaded", globals(), "_loaded")
on_disk = later("inspector.core.loaders.on_disk", globals(), "on_disk")   # a SavedModel's files
LOADED = ("LoadedModel", "ModelRef", "Signature", "file_stamp", "make_graph", "read_bytes")


def __getattr__(name: str):
    if name in LOADED:
        return getattr(_loaded, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    model.ref = _loaded.ModelRef(path, (st.st_size, st.st_mtime_ns), tuple(sorted(
        (k, tuple(v) if isinstance(v, list) else v) for k, v in options.items())))
    if model.kind in ("savedmodel", "metagraph") or \
            os.path.basename(path) == "tensorflowjs_model.pb":  # its folder; a .meta and its
        model.disk_bytes = on_disk.model_bytes(path)  # checkpoint; TF.js 0.x's manifest, shards
    return model


def reload(ref: ModelRef) -> LoadedModel:
    """The model `ref` names, opened again; refused when the file changed since."""
    try:
        now = _loaded.file_stamp(ref.path)
    except OSError as exc:
        raise ModelLoadError(f"cannot open the model again: {exc.strerror}",
                             path=ref.path) from None
    if now != tuple(ref.stamp):
        raise ModelLoadError("the model file changed on disk since it was opened; open it "
                             "again", path=ref.path)
    options = {k: list(v) if isinstance(v, tuple) else v for k, v in ref.options}
    return load(ref.path, **options)


def _load(path: str, st, **options) -> LoadedModel:
    """The first reader of the registry that matches the file opens it."""
    from inspector.core.loaders.readers import LoadContext, open_with_readers

    try:
        return open_with_readers(LoadContext(path, st, options))
    except InspectorError:
        raise
    except (RecursionError, MemoryError) as exc:
        raise ModelLoadError(f"cannot load model: {type(exc).__name__}", path=path) from None
