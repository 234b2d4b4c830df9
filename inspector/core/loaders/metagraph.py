"""MetaGraphDef (.meta): view the graph as is, or freeze it with a checkpoint."""

from __future__ import annotations

import os

from inspector.core.errors import ModelLoadError
from inspector.core.loaders.files import read_text
from inspector.core.loaders.load_time import metagraph_restore_findings, refuse
from inspector.core.loaders.loaded import LoadedModel, make_graph
from inspector.core.loaders.protofile import parse
from inspector.core.model import protos
from inspector.core.runtime.executor import tensorflow


def check_checkpoint(prefix: str, path: str) -> None:
    if not (os.path.exists(prefix + ".index") or os.path.isfile(prefix)):
        raise ModelLoadError(f"checkpoint '{prefix}' not found (expected {prefix}.index)",
                             path=path)


def _state_prefix(folder: str) -> str | None:
    """The prefix a folder's `checkpoint` state file names, found in that folder even when the
    file holds the author's absolute paths (an empty name: files named `.index`, `.meta`)."""
    state = os.path.join(folder, "checkpoint")
    if not os.path.isfile(state):
        return None

    for line in read_text(state, 1 << 20, "checkpoint state file").splitlines():
        key, _, value = line.partition(":")
        if key.strip() != "model_checkpoint_path":
            continue
        # only its file name counts: the checkpoint is looked for in this folder, never
        # where the state file points (the author's home, or `../` anywhere else)
        prefix = os.path.join(folder, os.path.basename(value.strip().strip('"')))
        if os.path.exists(prefix + ".index"):
            return prefix
    return None


def find_checkpoint(given: str, meta_path: str) -> str:
    """The checkpoint prefix to restore. `given` may be a prefix, a folder (its `checkpoint`
    state file, the checkpoint named like the .meta, or its only checkpoint) or the state
    file itself."""
    if os.path.isfile(given) and os.path.basename(given) == "checkpoint":
        given = os.path.dirname(given) or "."
    if not os.path.isdir(given):
        check_checkpoint(given, meta_path)
        return given
    folder = given
    prefix = _state_prefix(folder)
    if prefix:
        return prefix
    stem = os.path.basename(meta_path)
    stem = stem[:-len(".meta")] if stem.endswith(".meta") else None
    if stem is not None and os.path.exists(os.path.join(folder, stem + ".index")):
        return os.path.join(folder, stem)
    try:
        indexes = sorted((f for f in os.listdir(folder) if f.endswith(".index")),
                         key=lambda f: os.path.getmtime(os.path.join(folder, f)))
    except OSError as exc:
        raise ModelLoadError(f"cannot look for a checkpoint in '{folder}': "
                             f"{exc.strerror or exc}", path=meta_path) from None
    if not indexes:
        raise ModelLoadError(f"no checkpoint in '{folder}' (no .index file)", path=meta_path)
    return os.path.join(folder, indexes[-1][:-len(".index")])


def beside(meta_path: str) -> str | None:
    """The checkpoint that sits beside a .meta, if any."""
    try:
        return find_checkpoint(os.path.dirname(os.path.abspath(meta_path)), meta_path)
    except ModelLoadError:
        return None


def load_metagraph(path, data, is_text, size, checkpoint, outputs, allow_unsafe=False):
    meta = parse(data, protos.MetaGraphDef, is_text, path)
    tags = list(meta.meta_info_def.tags)
    if not checkpoint:
        graph, problems = make_graph(meta.graph_def, path)
        model = LoadedModel(path, "metagraph", graph, size, is_text, tags=tags,
                            problems=problems)
        found = beside(path)
        if found:
            shown = os.path.basename(found) or "with an empty name"
            model.notes.append(f"A checkpoint sits beside it ({shown}): give it as the "
                               "checkpoint to freeze the weights into the graph.")
        return model
    checkpoint = find_checkpoint(checkpoint, path)
    if not outputs:
        raise ModelLoadError("freezing with a checkpoint needs output node names", path=path)
    if not allow_unsafe:
        refuse(metagraph_restore_findings(meta), path, "restoring the checkpoint")
    graph_def = tensorflow().freeze_metagraph(meta.SerializeToString(), checkpoint,
                                              list(outputs), path)
    graph, problems = make_graph(graph_def, path)
    model = LoadedModel(path, "metagraph", graph, size, is_text, frozen=True, tags=tags,
                        problems=problems)
    model.notes.append(f"Frozen with the checkpoint '{checkpoint}'.")
    return model
