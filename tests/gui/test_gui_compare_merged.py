"""The merged view on a big pair (issue 47: no GUI stall over 50 ms in the diff window):
its graph is built off the GUI thread in short steps, never in one long C call holding the
GIL (Graph(gd) of a 100k-node merged graph held it ~0.5 s), and it shows what it showed."""

import os
import threading

from PySide6.QtCore import Qt
from test_gui import open_and_wait

from inspector.core.compare import merged as merged_module
from inspector.core.compare.merged import STEP, merged_graph
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.fixtures.scale_models import blocks_graph


def _rows(graph) -> list:
    return [(n.name, n.op, [(r.node, r.port, r.control) for r in n.inputs])
            for n in graph.nodes]


def test_the_merged_view_of_a_big_pair_is_built_off_the_gui_thread_in_steps(
        qtbot, window, monkeypatch):
    a, b = blocks_graph(20_000, 0), blocks_graph(18_000, 0)   # B lost A's last 200 blocks
    open_and_wait(qtbot, window, a)
    ctl = window.compare_ctl
    before = len(ctl.windows)
    ctl.compare_with(b)
    qtbot.waitUntil(lambda: len(ctl.windows) > before, timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    qtbot.waitUntil(win.ready, timeout=60000)

    indexed = []                         # (thread, nodes indexed in one call)
    original = Graph.add_new_nodes

    def spy(graph, *args, **kwargs):
        indexed.append((threading.current_thread(), len(graph.structure.node) -
                        len(graph._names)))
        return original(graph, *args, **kwargs)

    made = []                            # every GraphDef the merged view makes

    class Recording:
        def __getattr__(self, name):
            return getattr(protos, name)

        def GraphDef(self, *args):  # noqa: N802  (protobuf's name)
            made.append(protos.GraphDef(*args))
            return made[-1]

    monkeypatch.setattr(Graph, "add_new_nodes", spy)
    monkeypatch.setattr(merged_module, "protos", Recording())
    qtbot.mouseClick(win.merged_box, Qt.LeftButton)          # the user's click
    qtbot.waitUntil(lambda: win.merged_on and win.ready(), timeout=60000)
    monkeypatch.setattr(Graph, "add_new_nodes", original)
    monkeypatch.setattr(merged_module, "protos", protos)
    assert not win.boxes["A"].isVisible()

    session = win.session
    view, ghosts = session.merged
    assert len(ghosts) >= 2000 and len(view.graph) == len(session.graphs["B"]) + len(ghosts)
    assert indexed and all(t is not threading.main_thread() for t, _ in indexed)
    assert max(n for _, n in indexed) <= STEP, max(n for _, n in indexed)
    # no whole copy of B made first (copied, then freed at once, with the GIL held): the
    # only GraphDef of more than STEP nodes is the merged graph's own
    assert [len(gd.node) for gd in made if len(gd.node) > STEP] == [len(view.graph)]

    # the same graph as Graph(gd) made it before, so the same picture
    gd, same_ghosts = merged_graph(session.diff, session.graphs["A"], session.graphs["B"])
    assert same_ghosts == ghosts
    assert view.graph.structure.SerializeToString(deterministic=True) == \
        gd.SerializeToString(deterministic=True)
    assert _rows(view.graph) == _rows(Graph(gd))
    canvas = win.canvases["B"]
    painted = win._drawn["M"][1]
    assert painted and set(painted) <= set(canvas.items_by_id)
    assert set(painted.values()) >= {"removed"} or "changed" in painted.values()

    qtbot.mouseClick(win.merged_box, Qt.LeftButton)          # and off again
    qtbot.waitUntil(lambda: not win.merged_on and win.ready(), timeout=60000)
    assert win.boxes["A"].isVisible()
    if os.environ.get("INSPECTOR_SHOTS"):
        win.grab().save(os.path.join(os.environ["INSPECTOR_SHOTS"], "compare_merged_big.png"))
