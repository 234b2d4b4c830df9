"""Model Explorer node-data files, both ways, as use cases of the window and the CLI: any
overlay of the registry that has data is written as node-data JSON under the graph id and
node ids Model Explorer gives the model's file (formats/me_ids.py; an input of a .tflite by
its tensor name); a node-data file (ours, Model Explorer's, ai-edge-quantizer's `validate`, a
vendor's profiler) becomes the "node-data" overlay, matched by tensor name, Model Explorer
node id (a file keyed by the model's ME graph id, or bare) or node name, with the entries that
name no node listed. Nothing changes unless the whole file passed its checks and at least one
entry names a node."""

from __future__ import annotations

from dataclasses import replace
from itertools import repeat
from operator import itemgetter
from types import SimpleNamespace

from inspector.core.errors import InspectorError
from inspector.core.formats import me_ids
from inspector.core.formats.writer import atomic_write
from inspector.core.model import attrs as attr_codec
from inspector.core.model.graph_index import PIECE
from inspector.core.overlays import node_data, registry


class GraphNames:
    """The names an entry may land on: the graph's nodes and its scopes ("a/b/"), and
    Model Explorer's node ids when `ids` (id -> node) are given."""

    def __init__(self, graph, ids: dict | None = None):
        self.graph, self._scopes, self._tensors, self._ids = graph, None, None, ids or {}

    def alias(self, key: str):
        """The node a TFLite graph's full tensor name belongs to (its operator, or the
        constant: node names are only the first part of such names, made unique), else the
        node of that Model Explorer id (as ME resolves a key: tensor name, then id)."""
        found = self._tensor(key)
        if found is None and key in self._ids and self._ids[key] in self.graph:
            found = self._ids[key]
        return found

    def _tensor(self, key: str):
        if self._tensors is None:      # the NodeDefs and the name column: no Node view
            self._tensors = {}
            names = self.graph.name_list
            for i, proto in enumerate(self.graph.structure.node):
                if "tflite_tensor" in proto.attr:
                    tensor = attr_codec.decode(proto.attr["tflite_tensor"])
                    tensor = tensor.decode() if isinstance(tensor, bytes) else str(tensor)
                    self._tensors.setdefault(tensor, names[i])
        return self._tensors.get(key)

    def __contains__(self, name: str) -> bool:
        if not name.endswith("/"):
            return name in self.graph
        if self._scopes is None:
            self._scopes = scope_keys(self.graph.name_list)
        return name in self._scopes


def scope_keys(names: list) -> set:
    """Every scope of these node names as "a/", "a/b/" (from each distinct parent path: a
    C-level pass over the names, PIECE at a time)."""
    parents: set = set()
    for lo in range(0, len(names), PIECE):
        parents.update(map(itemgetter(0, 1), map(str.rpartition, names[lo:lo + PIECE],
                                                 repeat("/"))))
    scopes: set = set()
    for head, sep in parents:
        if sep:
            parts = head.split("/")
            scopes.update("/".join(parts[:k]) + "/" for k in range(1, len(parts) + 1))
    return scopes


class _Showing:
    """The state as if overlay `mode` were the one shown (values(state) of some overlays
    read the shown mode)."""

    def __init__(self, state, mode: str):
        self._state, self.overlay = state, replace(state.overlay, mode=mode)

    def __getattr__(self, name):
        return getattr(self._state, name)


def overlay_exists(mode: str) -> bool:
    """An overlay of this mode is registered."""
    return registry.get(mode) is not None


def snapshot(state):
    """What an export reads of the state, taken on the GUI thread for a task (the overlay
    and the view are replaced, never changed, so the task reads a consistent copy)."""
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
    if model is None:
        raise InspectorError("open a model before exporting node data")
    ids = me_ids.for_model(model)
    keyed, keyed_colours = {}, {}
    for node, value in values.items():
        key = ids.key(node)
        if key is not None and key not in keyed:
            keyed[key] = value
            if node in colours:
                keyed_colours[key] = colours[node]
    if not keyed:
        scopes = all(node.endswith("/") for node in values)
        raise InspectorError(f"none of the {overlay.label} overlay's {len(values):,} values is "
                             "on a node Model Explorer shows for this file" +
                             (" (they are on scopes, which Model Explorer does not key data "
                              "by)" if scopes else ""))
    return node_data.build(keyed, keyed_colours, ids.graph, overlay.label)


def export_node_data(state, path: str, mode: str | None = None, force: bool = True) -> int:
    """Write the overlay (the one shown when `mode` is None); returns the entries written
    (values on nodes the file does not have, e.g. ones a transform made, are left out)."""
    document = overlay_document(state, mode or state.overlay.mode)
    atomic_write(path, node_data.dumps(document), force=force)
    return sum(len(g["results"]) for g in document.values())


def read_onto(graph, path: str, model=None) -> node_data.Placed:
    """A node-data file matched onto `graph` (raises InspectorError when nothing matches);
    with the `model` it was opened from, Model Explorer's ids for that file resolve too."""
    try:
        ids = me_ids.for_model(model) if model is not None else None
    except InspectorError:
        ids = None                     # a kind ME numbers otherwise: names and tensors only
    data = node_data.read(path, ids.graph if ids else None)
    by_id = ids.node_of() if ids and data.graphs in ((ids.graph,), ("",)) else None
    placed = node_data.place(data, GraphNames(graph, by_id))
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
    placed = read_onto(view.graph, path, state.model)
    show(state, placed)
    return placed


def start_import(state, tasks, path: str, on_error) -> None:
    """Read and match a node-data file in a task; it becomes the overlay shown, said with
    how many entries found a node."""
    view = state.original_view or state.view
    if view is None:
        return
    graph, model = view.graph, state.model

    def done(placed):
        show(state, placed)
        missed = unmatched_text(placed, 5)
        state.say(f"Node data '{placed.name}': {len(placed.values):,} of "
                  f"{placed.total:,} entries on nodes" + (f"; {missed}" if missed else ""))

    tasks.submit("node-data", lambda job: read_onto(graph, path, model), done, on_error,
                 label="Reading node data")


def start_export(state, tasks, path: str, mode: str, on_error) -> None:
    """Write the overlay `mode` as Model Explorer node data in a task (from a snapshot of
    the state taken now), said with how many entries it holds."""
    seen = snapshot(state)
    tasks.submit("node-data-export", lambda job: export_node_data(seen, path, mode),
                 lambda n: state.say(f"Wrote the {mode} overlay as Model Explorer node data "
                                     f"({n:,} entries): {path}"),
                 on_error, label="Writing node data")


def show(state, placed: node_data.Placed) -> None:
    """Matched node data (read in a task by the window) becomes the overlay shown."""
    state.set_overlay(replace(state.overlay, node_data=placed, mode="node-data"))


def unmatched_text(placed: node_data.Placed, limit: int = 20) -> str:
    if not placed.unmatched:
        return ""
    more = len(placed.unmatched) - limit
    return (f"{len(placed.unmatched):,} entries named no node: "
            + ", ".join(placed.unmatched[:limit]) + (f" and {more:,} more" if more > 0 else ""))
