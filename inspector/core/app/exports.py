"""Everything the window and the command line write, through the application's door: atomic writes that never
replace a file without being told, the DOT export, memory-mapped packages, the tour page,
the command lines it copies, and the temporary .tflite files other windows open. The formats
are imported on first use (the window's start needs none of them: ~15 ms, 70 ms on the slow
machine class)."""

from __future__ import annotations

from inspector.core.formats.writer import (
    atomic_write,
    beside,
    check_target,
    node_size,
    write_graph,
)

__all__ = ["Slide", "atomic_write", "beside", "check_target", "commands",  # noqa: F822
           "dot_export", "node_size", "temporary_copy", "tour_html", "write_graph",
           "write_memmapped"]


def __getattr__(name: str):
    if name == "commands":
        from inspector.core.formats import commands as value
    elif name == "dot_export":
        from inspector.core.formats import dot_export as value
    elif name == "write_memmapped":
        from inspector.core.formats.memmapped import write_memmapped as value
    elif name in ("Slide", "tour_html"):
        from inspector.core.formats import tour_html as module

        value = getattr(module, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def temporary_copy(model_path: str, name: str, data: bytes,
                   prefix: str = "inspector-tflite-") -> str:
    """Write `data` as MODEL_NAME.tflite into a private temporary folder (removed when the
    app exits), to open it in another window; returns its path."""
    import atexit
    import os
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
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
