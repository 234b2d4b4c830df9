"""Properties of the selected node: inputs/outputs with types, every attr decoded, and for
constants their statistics, a histogram, the first values and export to .npy."""

from __future__ import annotations

import io
import os

from PySide6 import QtWidgets    # (QFileDialog: its class made when first asked for)
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.core.app.exports import atomic_write
from inspector.core.errors import InspectorError
from inspector.core.runtime.lazy_import import later
from inspector.core.view import vocabulary
from inspector.core.view.vocabulary import (
    TensorValue,
    count,
    format_shape,
    glossary,
    human_bytes,
    port_dtype,
    shape_dims,
    shape_of,
    tf_human_readable_num,
)
from inspector.gui.panels.chart_slot import ChartSlot
from inspector.gui.panels.name_cells import start_elided, whole_role
from inspector.gui.wording import said

LIST_LATER = 20_000    # nodes from which a graph's consumer index is made in a task

np = later("numpy", globals(), "np")     # not imported before the app's first picture
KEYS_SHARE = 0.6       # of the tree's width the Property column may take for long names
OPS_LISTED = 40        # a scope's op types listed (most nodes first)


class PropertiesPanel(QWidget):
    jump = Signal(str)
    tensor_wanted = Signal(str)   # a constant whose values should be described
    consumers_wanted = Signal(str)   # a big graph's consumer index is needed (made in a task)
    scope_wanted = Signal(str)    # a selected scope ("a/b/") whose facts should be counted

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Property", "Value"])
        self.tree.setColumnWidth(0, 150)
        self._keys_elided = None        # set when the first names are shown (_fit_keys)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.plot = ChartSlot()
        self.plot.setMaximumHeight(150)
        self.plot.hide()
        self.export_button = QPushButton("Export values to .npy…")
        self.export_button.clicked.connect(self.export_npy)
        self.export_button.hide()
        self.title = QLabel("Select a node")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.meaning = QLabel("")          # the glossary: what the op does, both tiers
        self.meaning.setWordWrap(True)
        self.meaning.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.meaning.setStyleSheet("QLabel { background: #eef5f9; padding: 6px; "
                                   "border-radius: 4px; }")
        self.meaning.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for w in (self.title, self.meaning, self.tree, self.plot, self.export_button):
            layout.addWidget(w)
        self.tensor = None
        self.tensor_name = ""
        self.shown = None          # the node the tree describes
        self.tensor_row = None     # "reading the values…" until the description comes
        self.scope_row = None      # a scope's "counting…" until its facts come
        state.selection_changed.connect(self.show_node)
        state.overlay_changed.connect(   # a TFLite status, converter's words or mapping came
            lambda o: (o.mode == "compat" or state.tflite) and self.show_node(state.selected))
        state.model_changed.connect(lambda *_: self.show_node(None))

    def show_meaning(self, op: str) -> None:
        """Tier 1 (plain words) and Tier 2 (the op registry's facts) of the glossary."""
        from html import escape

        tech = glossary.technical(op)
        version = glossary.facts_version()
        text = f"<b>What it does:</b> {escape(glossary.plain(op))}"
        if tech:
            text += (f"<br><span style='color:#52606d'><b>Technically:</b> {escape(tech)} "
                     f"(TensorFlow {version} op registry)</span>")
        self.meaning_op = op
        self.meaning.setText(text)
        self.meaning.show()

    def show_doc(self, op: str, doc: str | None) -> None:
        """TensorFlow's own description, credited (read at run time, never stored by us)."""
        from html import escape

        if not doc or getattr(self, "meaning_op", None) != op or self.meaning.isHidden():
            return
        if "TensorFlow says" in self.meaning.text():
            return
        self.meaning.setText(self.meaning.text() + "<br><span style='color:#52606d'><b>"
                             f"TensorFlow says:</b> {escape(doc)} <i>(from the documentation "
                             f"of tf.raw_ops.{escape(op)}, TensorFlow "
                             f"{glossary.facts_version() or ''})</i></span>")

    def _row(self, parent, key, value, target=None):
        item = QTreeWidgetItem([key, str(value)])
        if target:
            item.setData(0, Qt.UserRole, target)
            item.setToolTip(0, str(key))          # the whole name, however narrow
            item.setToolTip(1, f"double-click to go to {target}")
        (parent.addChild(item) if parent is not None else self.tree.addTopLevelItem(item))
        return item

    def _double_clicked(self, item, _col):
        target = item.data(0, Qt.UserRole)
        if target:
            self.jump.emit(target)

    def _tflite_rows(self, name: str) -> None:
        """The node's TFLite status when the compatibility check has run."""
        overlay = self.state.overlay
        status = overlay.compat.get(name) if overlay.compat else None
        mapped = [(v, m.op_of(name)) for v, m in self.state.tflite.items()]
        mapped = [(v, op) for v, op in mapped if op is not None]
        if status is None and not mapped:
            return
        top = self._row(None, "TFLite", vocabulary.STATUS_LABELS[status] if status
                        else "converted")
        for message in overlay.compat_notes.get(name, []):
            self._row(top, "converter", message)
        for variant, op in mapped:
            others = [n for n in op.nodes if n != name]
            text = f"{op.op} #{op.index}" + (f", merged with {len(others)} other node(s)"
                                              if others else "")
            if op.max_abs_error is not None:
                text += f"; int8 error up to {op.max_abs_error:.3g}"
            self._row(top, variant, text)

    def show_node(self, name):
        try:
            self._show_node(name)
        except InspectorError as exc:     # a big model's NodeDef read now (node_store)
            self._row(None, "error", said(exc)).setToolTip(1, said(exc))
            if self.state.view is not None:   # and a dialog saying which node of which file
                self.state.fail_unreadable(self.state.view.graph, exc)

    def _show_node(self, name):
        self.tree.clear()
        self.plot.hide()
        self.export_button.hide()
        self.tensor = None
        self.meaning.hide()
        graph = self.state.view.graph if self.state.view else None
        if not name or graph is None:
            self.title.setText("Select a node")
            return
        if name.endswith("/"):
            self._show_scope(name)
            return
        node = graph.get(name)
        if node is None:
            return
        self.title.setText(f"<b>{node.op}</b> {node.name}")
        self.show_meaning(node.op)
        self._row(None, "name", node.name)
        self._row(None, "op", node.op)
        self._row(None, "device", node.device or "(none)")
        self._tflite_rows(name)
        ins = self._row(None, "inputs", len(node.inputs))
        shapes = self.state.view.shapes or {}
        for ref in node.inputs:
            src = graph.get(ref.node)
            known = shapes.get(ref.node)
            shape = format_shape(known[ref.port]) if known and ref.port < len(known) else \
                (shape_of(src) if src else "")
            desc = f"{port_dtype(src, ref.port)} {shape}".strip() if src else "missing!"
            self._row(ins, str(ref), "control" if ref.control else desc, ref.node)
        known = shapes.get(name)
        if known is None and node.has_attr("_output_shapes"):
            known = [shape_dims(x) for x in node.proto.attr["_output_shapes"].list.shape]
        ports = self._row(None, "outputs", len(known) if known else "?")
        for port, dims in enumerate(known or []):
            self._row(ports, f"{name}:{port}",
                      f"{port_dtype(node, port)} {format_shape(dims)}".strip())
        if len(graph) >= LIST_LATER and not graph.consumers_known():
            # sorting every input of a big graph held the GUI thread ~90 ms at the first
            # click of a 300k-node graph (before the summary's task made it)
            self._row(None, "consumers", "listing…")
            self.consumers_wanted.emit(name)
        else:
            self._consumer_rows(graph, name)
        attrs = self._row(None, "attributes", len(shown := node.shown_attrs))
        for key, value in shown.items():
            if isinstance(value, TensorValue):
                self._row(attrs, key, f"{value.dtype} {value.shape} ({human_bytes(value.nbytes)})")
            else:
                self._row(attrs, key, value if not isinstance(value, list) else
                          "[" + ", ".join(map(str, value[:32])) + (", …]" if len(value) > 32
                                                                   else "]"))
        self.tree.expandAll()
        self._fit_keys()
        const = self.state.view.const_source(name) if self.state.view else None
        self.shown = name
        if const is not None:
            self.tensor_row = self._row(None, "tensor", "reading the values…")
            self._lift(self.tensor_row)
            self.tensor_wanted.emit(const.name)

    def _lift(self, row) -> None:
        """A constant's values right under its op: below its inputs, outputs, consumers
        and attributes its statistics were out of sight at 1366x768 (walk16)."""
        tree = self.tree
        at = next((k + 1 for k in range(tree.topLevelItemCount())
                   if tree.topLevelItem(k).text(0) == "op"), None)
        index = tree.indexOfTopLevelItem(row)
        if at is None or index < 0 or index == at:
            return
        expanded = row.isExpanded()
        tree.takeTopLevelItem(index)
        tree.insertTopLevelItem(at, row)
        row.setExpanded(expanded)

    def _show_scope(self, name: str) -> None:
        """A selected scope: its name now, what it holds and what crosses its border once
        counted (core/app/properties.start_scope_facts, a task: show_scope)."""
        path = name[:-1]
        group = self.state.view.group_label(path)    # a group of a too-big scope: "a … z"
        shown = group or path
        self.title.setText(("<b>Group</b> " if group else "<b>Scope</b> ") +
                           shown.replace("&", "&amp;").replace("<", "&lt;"))
        self.shown = name
        self._row(None, "name", shown).setToolTip(1, shown)
        if group:
            self._row(None, "in scope", path.rpartition("/")[0] or "(the top level)")
        self.scope_row = self._row(None, "nodes", "counting…")
        self.scope_wanted.emit(name)

    def show_scope(self, facts) -> None:
        """The facts (core.view.scope_facts.ScopeFacts) of the scope shown."""
        if facts is None or facts.shown != self.shown:
            return
        index = self.tree.indexOfTopLevelItem(self.scope_row)
        if index >= 0:
            self.tree.takeTopLevelItem(index)
        self._row(None, "nodes", f"{facts.nodes:,}")
        ops = self._row(None, "op types", len(facts.ops))
        for op, n in facts.ops[:OPS_LISTED]:
            self._row(ops, op, f"{n:,}")
        if len(facts.ops) > OPS_LISTED:
            self._row(ops, "…", f"{len(facts.ops) - OPS_LISTED} more op types")
        self._row(None, "parameters", f"{facts.params:,}" + (
            f" ({tf_human_readable_num(facts.params)})" if facts.params >= 1000 else ""))
        self._row(None, "constants", f"{facts.consts:,}")
        self._row(None, "constant data", human_bytes(facts.const_bytes))
        ins, outs = "made outside the scope, read inside", "made inside, read outside"
        badges = "{}; drawn as badges on their readers: no edge crosses the border for them"
        for key, crossings, total, tip in (                  # constants apart: no edge
                ("inputs", facts.inputs, facts.n_inputs, ins),
                ("outputs", facts.outputs, facts.n_outputs, outs),
                ("constant inputs", facts.const_inputs, facts.n_const_inputs, badges.format(ins)),
                ("constant outputs", facts.const_outputs, facts.n_const_outputs,
                 badges.format(outs))):
            if not total and key.startswith("constant"):
                continue
            top = self._row(None, key, count(total, "tensor"))
            top.setToolTip(1, f"{count(total, 'tensor')} {tip}")
            for c in crossings:       # the producer's node: double-click goes there
                read = f"read by {count(c.readers, 'node')} " + (
                    "inside" if key.endswith("inputs") else "outside")
                row = self._row(top, c.tensor, c.desc + (
                    f" · {c.readers} readers" if c.readers > 1 else ""), c.producer)
                row.setToolTip(1, f"{c.tensor}: {c.desc}, {read}")
                row.setData(0, whole_role(), True)        # wrapped, not cut
            if total > len(crossings):
                self._row(top, "…", f"{total - len(crossings):,} more")
        self.tree.expandAll()
        self._fit_keys()
        self.tree.doItemsLayout()      # the names' lines in the column's width

    def _consumer_rows(self, graph, name: str, at: int | None = None) -> None:
        consumers = graph.consumers(name)
        outs = self._row(None, "consumers", len(consumers))
        if at is not None:           # in place of "listing…"
            self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(outs))
            self.tree.takeTopLevelItem(at)
            self.tree.insertTopLevelItem(at, outs)
        for edge in consumers[:200]:
            self._row(outs, edge.dst, f"{'^' if edge.control else ''}port {edge.src_port}"
                      if not edge.control else "control", edge.dst)

    def _fit_keys(self) -> None:
        """The Property column as wide as its longest key (node names of inputs and
        consumers), from 150 px up to KEYS_SHARE of the tree's width, while the values
        beside them (dtypes and shapes, ports) keep the room they need."""
        fm, tree, keys, values = self.tree.fontMetrics(), self.tree, 0, 0
        if self._keys_elided is None:
            self._keys_elided = start_elided(tree)
            tree.setItemDelegateForColumn(0, self._keys_elided)
        for at in range(min(tree.topLevelItemCount(), 50)):
            top = tree.topLevelItem(at)
            rows = [(top, 0)] + [(top.child(k), 1) for k in range(min(top.childCount(), 200))]
            for row, level in rows:
                keys = max(keys, fm.horizontalAdvance(row.text(0)) + level * tree.indentation())
                if row.text(0) != "name":      # (the node's own: whole in the title above)
                    values = max(values, fm.horizontalAdvance(row.text(1)))
        view = tree.viewport().width()
        room = min(int(view * KEYS_SHARE), view - values - 16)
        tree.setColumnWidth(0, max(150, min(keys + tree.indentation() + 12, room)))

    def _listing_row(self, name: str, graph):
        """The "consumers" row of `name` while it is shown on `graph` (else None)."""
        view = self.state.view
        if name != self.shown or view is None or view.graph is not graph:
            return None
        for at in range(self.tree.topLevelItemCount()):
            if self.tree.topLevelItem(at).text(0) == "consumers":
                return at
        return None

    def show_consumers(self, name: str, graph) -> None:
        """The consumers of `name`, once the graph's consumer index is made (a task)."""
        at = self._listing_row(name, graph)
        if at is not None:
            self._consumer_rows(graph, name, at)
            self.tree.topLevelItem(at).setExpanded(True)
            self._fit_keys()

    def consumers_failed(self, name: str, graph, why: str) -> None:
        """The consumer index could not be made: said in place of "listing…"."""
        at = self._listing_row(name, graph)
        if at is not None:
            row = self.tree.topLevelItem(at)
            row.setText(1, f"not listed: {why}")
            row.setToolTip(1, why)

    def show_tensor(self, node: str, described) -> None:
        """The description (core.analysis.tensor_stats) of the constant behind `node`."""
        if node != self.shown:
            return
        index = self.tree.indexOfTopLevelItem(self.tensor_row)
        if index >= 0:
            self.tree.takeTopLevelItem(index)
        if described is None:
            return
        values, stats = described.values, described.stats
        self.tensor, self.tensor_name = values, described.name
        top = self._row(None, "tensor", f"{stats['dtype']} {stats['shape']}")
        for key in ("min", "max", "mean", "std"):
            if key in stats:
                self._row(top, key, f"{stats[key]:.6g}")
        if "zeros" in stats:
            self._row(top, "zeros", f"{100 * stats['zeros']:.1f}%")
        self._row(top, "first values", ", ".join(f"{v:.5g}" if isinstance(v, float) else str(v)
                                                 for v in described.first))
        for note in described.notes:
            self._row(top, "note", note)
        self._row(top, "bytes", human_bytes(stats["bytes"]))    # (the statistics first)
        self._lift(top)
        top.setExpanded(True)
        self.tree.scrollToTop()
        if described.counts is not None:
            counts, edges = described.counts, described.edges

            def histogram(plot, pg):
                plot.clear()
                plot.addItem(pg.BarGraphItem(x0=edges[:-1], x1=edges[1:], height=counts,
                                             brush="#6fa8dc", pen="#3d6f9e"))
                plot.setTitle("value histogram", size="8pt")
            self.plot.draw(histogram)
            self.plot.show()
        self.export_button.show()

    def export_npy(self, path: str | None = None) -> str | None:
        if self.tensor is None:
            return None
        if not path:
            model = self.state.model
            folder = os.path.dirname(model.path.rstrip("/")) if model else ""
            path, _ = QtWidgets.QFileDialog.getSaveFileName(
                self, "Export tensor", os.path.join(
                    folder, self.tensor_name.replace("/", "_") + ".npy"), "NumPy (*.npy)")
        if not path:
            return None

        buf = io.BytesIO()
        np.save(buf, self.tensor, allow_pickle=False)
        atomic_write(path, buf.getvalue(), force=True)  # the save dialog asked already
        self.state.message.emit(f"Saved {self.tensor_name} to {path}")
        return path
