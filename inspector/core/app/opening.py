"""Opening a model the way a user means it (the window and the CLI): `load`; a SavedModel's
signatures to choose from; a .meta frozen with the checkpoint beside it, and for a .meta given
a checkpoint but no outputs, frozen for the top-ranked likely outputs (and saying which)."""

from __future__ import annotations

import os

from inspector.core.analysis.summary import likely_outputs
from inspector.core.errors import InspectorError, ModelLoadError
from inspector.core.loaders import LoadedModel, load

MAX_GUESSED = 4   # more equally likely outputs than this: ask instead of guessing


def open_dialog_filter() -> str:
    """The Open dialog's filter, from the reader registry."""
    from inspector.core.loaders.readers import file_filter

    return file_filter()


def model_can(model: LoadedModel, capability: str) -> bool:
    """Whether the opened model supports "transform", "run", "shapes" or "convert"."""
    return capability in model.capabilities


def open_model(path: str, opened: LoadedModel | None = None, **options) -> LoadedModel:
    """`opened`: the model as already loaded without the checkpoint, if the caller has it."""
    if not options.get("checkpoint") or options.get("outputs"):
        return load(path, **options)
    first = opened or load(path, **dict(options, checkpoint=None))
    if first.kind != "metagraph":
        return load(path, **options)
    outputs = likely_outputs(first.graph)
    if not outputs or len(outputs) > MAX_GUESSED:
        shown = ", ".join(outputs[:6]) + (", ..." if len(outputs) > 6 else "")
        raise ModelLoadError("freezing needs output node names and none stands out among the "
                             f"likely outputs{f' ({shown})' if shown else ''}; name them",
                             path=path)
    model = load(path, **dict(options, outputs=outputs))
    model.notes.append(f"Frozen for the likely output{'s' if len(outputs) > 1 else ''} "
                       f"{', '.join(outputs)}: no outputs were given (name others to change "
                       "that).")
    return model


def signatures(path: str) -> dict:
    """The public signatures of a SavedModel (key -> method, inputs, outputs); {} else."""
    if not (os.path.isdir(path) or os.path.basename(path) == "saved_model.pb"):
        return {}
    if os.path.isdir(path) and not any(os.path.exists(os.path.join(path, n)) for n in
                                       ("saved_model.pb", "saved_model.pbtxt")):
        return {}   # a TF.js folder, or no model: load() says which
    from inspector.core.loaders.savedmodel import describe, read_saved_model
    metas = describe(read_saved_model(path))
    return metas[0]["signatures"] if metas else {}


def fell_back(note: str) -> bool:
    """A note saying the model was opened another way than the usual one."""
    return any(w in note for w in ("could not", "cannot", "instead", "legacy Keras"))


def open_for_user(path: str, signature, allow_unsafe: bool):
    """The model as a user wants to look at it: a .meta with a checkpoint beside it is frozen
    with that checkpoint for its likely outputs (the graph as stored, with the reason, when
    that cannot be done)."""
    model = load(path, signature=signature, allow_unsafe=allow_unsafe)
    found = None
    if model.kind == "metagraph" and not model.frozen:
        from inspector.core.loaders.metagraph import beside

        found = beside(path)
    if not found:
        return model
    try:
        return open_model(path, opened=model, checkpoint=found, allow_unsafe=allow_unsafe)
    except InspectorError as exc:
        model.notes = [f"Not frozen with the checkpoint beside it: {exc.message}"]
        return model
