"""MetaGraphDef (.meta): view the graph as is, or freeze it with a checkpoint."""

from __future__ import annotations

import os

from inspector.core.errors import ModelLoadError
from inspector.core.loaders.protofile import parse
from inspector.core.model import protos


def check_checkpoint(prefix: str, path: str) -> None:
    if not (os.path.exists(prefix + ".index") or os.path.exists(prefix)):
        raise ModelLoadError(f"checkpoint '{prefix}' not found (expected {prefix}.index)",
                             path=path)


def load_metagraph(path, data, is_text, size, checkpoint, outputs, allow_unsafe=False):
    from inspector.core.loaders import LoadedModel, make_graph

    meta = parse(data, protos.MetaGraphDef, is_text, path)
    tags = list(meta.meta_info_def.tags)
    if checkpoint:
        if not outputs:
            raise ModelLoadError("freezing with a checkpoint needs output node names", path=path)
        check_checkpoint(checkpoint, path)
        if not allow_unsafe:
            from inspector.core.loaders.load_time import (
                metagraph_restore_findings,
                refuse,
            )

            refuse(metagraph_restore_findings(meta), path, "restoring the checkpoint")
        from inspector.core.model.executor import tensorflow
        graph_def = tensorflow().freeze_metagraph(meta.SerializeToString(), checkpoint,
                                               list(outputs), path)
        graph, problems = make_graph(graph_def, path)
        return LoadedModel(path, "metagraph", graph, size, is_text, frozen=True, tags=tags,
                           problems=problems)
    graph, problems = make_graph(meta.graph_def, path)
    return LoadedModel(path, "metagraph", graph, size, is_text, tags=tags, problems=problems)
