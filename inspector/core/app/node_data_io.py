"""Model Explorer node-data files, both ways, as use cases of the window and the CLI: any
overlay of the registry that has data is written as node-data JSON; a node-data file (ours,
ai-edge-quantizer's `validate`, a vendor's profiler) becomes the "node-data" overlay, matched
by node or tensor name, with the entries that name no node listed. Nothing changes unless the
whole file passed its checks and at least one entry names a node."""

from __future__ import annotations

import os
from dataclasses import replace

from inspector.core.errors import InspectorError
from inspector.core.overlays import node_data, registry


class GraphNames:
    """The names an entry may land on: the graph's nodes and its scopes ("a/b/")."""

    def __init__(self, graph):
        self.graph, self._scopes, self._tensors = graph, None, None

    def alias(self, key: str):
        """The node a TFLite graph's full tensor name belongs to (its operator, or the
        constant): node names are only the first part of such names, made unique."""
        if self._tensors is None:
            self._tensors = {}
            for node in self.graph.nodes:
                if node.has_attr("tflite_tensor"):
                    tensor = node.attr("tflite_tensor")
                    tensor = tensor.decode() if isinstance(tensor, bytes) else str(tensor)
                    self._tensors.setdefault(tensor, node.name)
        return self._tensors.get(key)

    def __contains__(self, name: str) -> bool:
        if not name.endswith("/"):
            return name in self.graph
        if self._scopes is None:
            scopes = set()
            for node in self.graph.nodes:
                parts = node.name.split("/")[:-1]
                for k in range(1, len(parts) + 1):
                    scopes.add("/".join(parts[:k]) + "/")
            self._scopes = scopes
        return name in self._scopes


class _Showing:
    """The state as if overlay `mode` were the one shown (values(state) of some overlays
    read the shown mode)."""

    def __init__(self, state, mode: str):
        self._state, self.overlay = state, replace(state.overlay, mode=mode)

    def __getattr__(self, name):
        return getattr(self._state, name)


def snapshot(state):
    """What an export reads of the state, taken on the GUI thread for a task (the overlay
    and the view are replaced, never changed, so the task reads a consistent copy)."""
    from types import SimpleNamespace

    return SimpleNamespace(overlay=state.overlay, view=state.view, model=state.model,
                           original_view=state.original_view,
                           demo=getattr(state, "demo", None))


def exportable(state) -> list:
    """(mode, label) of every overlay that has data to export now."""
    out = []
    for o in registry.REGISTRY.values():
        shown = _Showing(state, o.mode)
        if o.mode != "none" and o.has_data(shown) and o.values(shown):
            out.append((o.mode, o.label))
    return out


def overlay_document(state, mode: str) -> dict:
    """The overlay `mode` of the state as ModelNodeData (raises InspectorError)."""
    overlay = registry.get(mode)
    if overlay is None:
        raise InspectorError(f"no overlay '{mode}' (choose from "
                             f"{', '.join(m for m in registry.modes() if m != 'none')})")
    shown = _Showing(state, mode)
    values = overlay.values(shown) if overlay.has_data(shown) else {}
    if not values:
        raise InspectorError(f"the {overlay.label} overlay has no data to export")
    colours = overlay.colours(shown) if overlay.colours is not None else {}
    model = getattr(state, "model", None)
    graph_id = os.path.basename(model.path.rstrip("/")) if model is not None else "main"
    return node_data.build(values, colours, graph_id, overlay.label)


def export_node_data(state, path: str, mode: str | None = None, force: bool = True) -> int:
    """Write the overlay (the one shown when `mode` is None); returns the entries written."""
    from inspector.core.formats.writer import atomic_write

    document = overlay_document(state, mode or state.overlay.mode)
    atomic_write(path, node_data.dumps(document), force=force)
    return sum(len(g["results"]) for g in document.values())


def read_onto(graph, path: str) -> node_data.Placed:
    """A node-data file matched onto `graph` (raises InspectorError when nothing matches)."""
    data = node_data.read(path)
    placed = node_data.place(data, GraphNames(graph))
    if not placed.values:
        first = next(iter(data.results))
        raise InspectorError(f"none of the {len(data.results):,} node-data entries names a "
                             f"node of this graph (the first is '{first[:80]}')", path=path)
    return placed


def import_node_data(state, path: str) -> node_data.Placed:
    """The file as the node-data overlay, shown (raises InspectorError; nothing changes)."""
    view = state.original_view or state.view
    if view is None:
        raise InspectorError("open a model before importing node data")
    placed = read_onto(view.graph, path)
    show(state, placed)
    return placed


def show(state, placed: node_data.Placed) -> None:
    """Matched node data (read in a task by the window) becomes the overlay shown."""
    state.set_overlay(replace(state.overlay, node_data=placed, mode="node-data"))


def unmatched_text(placed: node_data.Placed, limit: int = 20) -> str:
    if not placed.unmatched:
        return ""
    more = len(placed.unmatched) - limit
    return (f"{len(placed.unmatched):,} entries named no node: "
            + ", ".join(placed.unmatched[:limit]) + (f" and {more:,} more" if more > 0 else ""))
