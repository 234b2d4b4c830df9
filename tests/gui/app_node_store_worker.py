"""Run by tests/gui/test_gui_node_store.py in a fresh process: the app as users start it
(TensorFlow in the worker) opens the same model twice, once with its nodes kept as bytes in
the file (node_store: the threshold lowered for this 10 MB model) and once as a GraphDef,
and sees through the window what a user sees: the node panel, search, a strip preview
measured in the worker (FLOPs from TensorFlow); then a model with a node that does not parse.
Prints one JSON line of what it saw."""

import json
import sys

from app_with_worker import finish, start_window, wait

from inspector.core.loaders import reader_process


def panel_rows(win) -> list:
    tree, out = win.properties.tree, []

    def walk(item, depth):
        out.append("  " * depth + " | ".join(item.text(c) for c in range(tree.columnCount())))
        for k in range(item.childCount()):
            walk(item.child(k), depth + 1)

    for k in range(tree.topLevelItemCount()):
        walk(tree.topLevelItem(k), 0)
    return out


def opened(app, win, path: str, store_from: int) -> dict:
    reader_process.STREAM_ABOVE, reader_process.STORE_FROM = 1, store_from
    win.open_path(path)
    wait(app, lambda: win.state.model is not None and win.state.model.path == path and
         win.scenes_drawn > 0 and not win.tasks.is_busy())
    graph = win.state.model.graph
    seen = {"structure": type(graph.structure).__name__}
    last = graph.name_list[-1]
    for name in (graph.name_list[5000], last):
        win.state.select(name)
        wait(app, lambda: win.properties.shown == name or not win.tasks.is_busy())
        seen[name] = panel_rows(win)
    searches = win.search.searches
    win.search_panel.box.setText("padding=same")
    wait(app, lambda: win.search.searches > searches and not win.tasks.is_busy())
    seen["search"] = list(win.search_panel.matches)
    win.workbench.set_marks(["input"], [last])
    win.workbench.set_text("strip_unused_nodes")
    wait(app, lambda: len(win.state.rows) == 2 and not win.tasks.is_busy() and
         all(r.metrics.flops is not None for r in win.state.rows), 300)
    seen["rows"] = [[r.metrics.node_count, r.metrics.const_parameters, r.metrics.flops.total]
                    for r in win.state.rows]
    seen["still"] = type(graph.structure).__name__    # the window never made it whole
    return seen


def main(stored: str, whole: str, broken: str, broken_name: str, settings: str) -> int:
    from inspector.gui.app import tune_runtime

    tune_runtime()          # as the app's start: the window's process
    app, client, win = start_window(settings)
    seen = {"stored": opened(app, win, stored, 1), "whole": opened(app, win, whole, 2 ** 62)}
    reader_process.STORE_FROM = 1
    win.last_error = ""
    win.open_path(broken)
    wait(app, lambda: win.state.model is not None and win.state.model.path == broken and
         win.scenes_drawn > 0)
    win.state.select(broken_name)
    seen["broken"] = panel_rows(win)
    graph = win.state.model.graph
    win.state.select(graph.name_list[3])      # the window goes on
    seen["after"] = panel_rows(win)[:2]
    seen["error"] = win.last_error
    return finish(win, client, seen)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
