"""Everything the window and the command line write, through the application's door: atomic writes that never
replace a file without being told, the DOT export, memory-mapped packages, the tour page,
the command lines it copies, and the temporary .tflite files other windows open. The formats
are imported on first use (the window's start needs none of them: ~15 ms, 70 ms on the slow
machine class)."""

from __future__ import annotations

import os
import shutil
import tempfile

from inspector.core.formats.writer import (
    atomic_write,
    beside,
    check_target,
    node_size,
    write_graph,
)
from inspector.core.runtime import gc_policy

__all__ = ["atomic_write", "beside", "check_memmapped", "check_target", "command_line",
           "dot_text", "memmapped_regions", "node_size", "start_memmapped", "temporary_copy", "tour_page",
           "write_dot", "write_graph", "write_memmapped"]

TOOLS = ("transform_graph", "benchmark_model", "tflite_convert", "optimize_for_inference")


def command_line(tool: str, model_path: str, inputs: list, outputs: list, *,
                 transforms: str = "strip_unused_nodes", shapes: dict | None = None,
                 types: dict | None = None, kind: str = "graphdef") -> str:
    """The command line of TensorFlow's own `tool` (one of TOOLS) on the model with these
    inputs and outputs, ready to paste (the Workbench's Copy as). A model these tools cannot
    read (`kind`: a SavedModel, .meta, Keras, TF.js) is written as a GraphDef first, by the
    command before '&&', as summarize's benchmark line says."""
    from inspector.core.formats import commands

    model_path, first = commands.graphdef_for(model_path, kind)
    if tool not in TOOLS:
        raise ValueError(f"no command line for {tool!r}: one of {', '.join(TOOLS)}")
    line = _tool_line(commands, tool, model_path, inputs, outputs, transforms, shapes, types)
    return f"{first} && {line}" if first else line


def _tool_line(commands, tool, model_path, inputs, outputs, transforms, shapes, types) -> str:
    if tool == "transform_graph":
        return commands.transform_graph(model_path, inputs, outputs, transforms)
    if tool == "benchmark_model":
        return commands.benchmark_model(model_path, inputs, outputs, shapes or {}, types or {})
    if tool == "tflite_convert":
        return commands.tflite_convert(model_path, inputs, outputs, shapes or {})
    return commands.optimize_for_inference(model_path, inputs, outputs)


def write_memmapped(graph, path: str, min_bytes: int | None = None, force: bool = False,
                    source: str | None = None):
    """The graph as a memory-mapped package (`memmapped -o` and Phone > Save memory-mapped
    package): written atomically, streamed one constant at a time; returns what was
    written (regions, bytes mapped, file size)."""
    from inspector.core.formats import memmapped

    least = memmapped.MIN_BYTES if min_bytes is None else min_bytes
    return memmapped.write_memmapped(graph, path, least, force, source)


def start_memmapped(state, tasks, path: str, on_error, force: bool = False) -> None:
    """The window's: the open graph written as a memory-mapped package in a task; the
    status says what it holds."""
    model = state.model
    if model is None:
        return

    def done(written) -> None:
        state.say(f"Wrote {path}: {len(written.regions)} constant regions, "
                  f"{written.mapped_bytes / 2 ** 20:.1f} MB mapped on the phone instead of "
                  "copied to the heap (estimate)")

    tasks.submit("memmapped", lambda job: write_memmapped(model.graph, path, force=force,
                                                          source=model.path),
                 done, on_error, label="Writing the memory-mapped package")


def tour_page(title: str, slides: list, subtitle: str = "") -> str:
    """A tour as one self-contained HTML page; each slide a dict of its title, caption,
    notes, svg, picture (PNG bytes) and bars."""
    from inspector.core.formats.tour_html import Slide, tour_html

    return tour_html(title, [Slide(**slide) for slide in slides], subtitle=subtitle)


TEMPORARY_FOLDERS: set = set()     # temporary_copy's folders: gone when the app exits


def is_temporary(path: str) -> bool:
    """Whether `path` is one of temporary_copy's files (removed when the app exits)."""
    return bool(path) and os.path.dirname(os.path.abspath(path)) in TEMPORARY_FOLDERS


def temporary_copy(model_path: str, name: str, data: bytes,
                   prefix: str = "inspector-tflite-") -> str:
    """Write `data` as MODEL_NAME.tflite into a private temporary folder (removed when the
    app exits), to open it in another window; returns its path."""
    import atexit

    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    TEMPORARY_FOLDERS.add(os.path.abspath(folder))
    stem = os.path.splitext(os.path.basename(model_path.rstrip("/")))[0]
    path = os.path.join(folder, f"{stem}_{name}.tflite")
    atomic_write(path, data)
    return path


def dot_text(graph, *, tf_style: bool = False, inputs=(), outputs=(),
             fold_constants: bool = True, rankdir: str = "TB", clusters: bool = True) -> str:
    """The graph as Graphviz DOT: TF's own graph_to_dot text, or the styled one (the
    subgraph between `inputs` and `outputs`, constants folded, name scopes grouped)."""
    from inspector.core.formats import dot_export

    if tf_style:
        return dot_export.tf_dot(graph)
    with gc_policy.paused():    # a big graph's views and lines: no collection walks them
        return dot_export.styled_dot(graph, inputs=inputs, outputs=outputs,
                                     fold_constants=fold_constants, rankdir=rankdir,
                                     clusters=clusters)


def write_dot(graph, path: str, *, force: bool = False, **style) -> str:
    """Export DOT (or SVG/PNG/PDF by the path's extension) of both front ends: `dot_text`
    written atomically; returns the path written."""
    from inspector.core.formats import dot_export

    return dot_export.write(dot_text(graph, **style), path, force=force)


def check_memmapped(path: str):
    """A memory-mapped package checked: (the package, its problems as sentences)."""
    from inspector.core.loaders.memmapped import check

    return check(path)


def memmapped_regions(path: str) -> list:
    """A package's regions for listing: (name, offset, length, node, dtype, dims)."""
    from inspector.core.loaders.memmapped import region_rows

    return region_rows(path)
