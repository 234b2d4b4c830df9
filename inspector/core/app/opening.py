"""Opening a model the way a user means it: `load`, and for a .meta given a checkpoint but no
outputs, freezing for the top-ranked likely outputs (and saying which)."""

from __future__ import annotations

from inspector.core.analysis.summary import likely_outputs
from inspector.core.errors import ModelLoadError
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
