"""Marks, strip preview, diffs and input shapes on the main window (a mixin, to keep the
window module small)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMenu


class MarkingMixin:
    def apply_marks(self):
        sel = self.session.selected
        cone = None
        if self._cone and sel and not sel.endswith("/"):
            cone = {self.visible_id(n) for n in self._cone}
        view = self.session.view
        tags, dropped, badges, diff = {}, set(), {}, {}
        if view is not None:
            names = {n.name for n in view.graph}
            for kind, marks in (("IN", self.workbench.inputs), ("OUT", self.workbench.outputs)):
                for name in marks:
                    name = name.split(":")[0]
                    if name in names:
                        tags[self.visible_id(name)] = kind
            strip = self.controller.strip
            if strip is not None and view is self.controller.original_view:
                for item_id in self.canvas.items_by_id:
                    under = view.nodes_under(item_id[:-1]) if item_id.endswith("/") else [item_id]
                    if under and all(n in strip.dropped for n in under):
                        dropped.add(item_id)
                        role = strip.training_only.get(under[0]) if len(under) == 1 else None
                        if role:
                            badges[item_id] = role
            for name, state in self.controller.diff.items():
                if name in names:
                    item = self.visible_id(name)
                    diff[item] = state if item == name or diff.get(item) in (None, state) \
                        else "changed"
        heat = {}
        overlays = getattr(self, "overlays", None)
        if overlays is not None and overlays.mode != "none" and view is not None:
            heat, extra = overlays.decorate(view, self.canvas.items_by_id, self.visible_id)
            badges.update(extra)
        self.canvas.mark(self.visible_id(sel) if sel else None, cone, dropped, tags, diff, badges,
                         heat)

    def mark_selected(self, kind: str):
        name = self.session.selected
        if not name or name.endswith("/") or self.session.view is None:
            self.session.message.emit("Select a node (not a scope) to mark it")
            return
        (self.workbench.toggle_input if kind == "input" else self.workbench.toggle_output)(name)

    def trace_selected(self):
        from inspector.core.analysis.marks import trace_to_inputs

        name = self.session.selected
        view = self.controller.original_view
        if not name or name.endswith("/") or view is None:
            return []
        proposals = trace_to_inputs(view.graph, name)
        self.workbench_panel.show_proposals(proposals)
        self.workbench_dock.raise_()
        return proposals

    def input_shapes_and_types(self) -> tuple:
        """Shapes and dtypes for the marked inputs: explicit, declared, chain or inferred."""
        from inspector.core.analysis.summary import dtype_of

        shapes, types = dict(self.workbench.input_shapes), {}
        view = self.controller.original_view
        if view is None:
            return shapes, types
        summary = self.summary_panel.summary
        chain_shapes = {c.feed: c.feed_shape for c in summary.preprocessing} if summary else {}
        for text in self.workbench.inputs:
            name = text.split(":")[0]
            node = view.graph.get(name)
            if node is None:
                continue
            types[name] = dtype_of(node) or "float"
            if name in shapes:
                continue
            declared = node.attr("shape")
            inferred = (view.shapes or {}).get(name)
            dims = None
            if declared is not None and declared.dims is not None:
                dims = declared.dims
            elif inferred and inferred[0] is not None:
                dims = inferred[0]
            elif chain_shapes.get(name, "").startswith("["):
                dims = tuple(None if d == "?" else int(d)
                             for d in chain_shapes[name][1:-1].split(",") if d)
            if dims is not None:
                shapes[name] = tuple(1 if d is None else d for d in dims)
        return shapes, types

    # -- interaction --------------------------------------------------------------------

    def toggle_cone(self, on: bool):
        self._cone = None
        if on:
            self._compute_cone()
        self.apply_marks()

    def _compute_cone(self):
        from inspector.core.model.reachability import downstream, upstream

        sel, graph = self.session.selected, self.session.view.graph if self.session.view else None
        if sel and graph is not None and sel in graph:
            self._cone = upstream(graph, [sel]) | downstream(graph, [sel])
        else:
            self._cone = None

    def _context_menu(self, item_id, global_pos):
        menu = QMenu(self)
        if item_id.endswith("/"):
            expanded = item_id[:-1] in self.session.expanded
            menu.addAction("Collapse" if expanded else "Expand",
                           lambda: self.session.toggle_scope(item_id[:-1]))
        menu.addAction("Highlight upstream and downstream",
                       lambda: (self.session.select(item_id), self.cone_action.setChecked(True),
                                self.toggle_cone(True)))
        if not item_id.endswith("/"):
            inp = "Unmark input" if item_id in self.workbench.inputs else "Mark as input (I)"
            out = "Unmark output" if item_id in self.workbench.outputs else "Mark as output (O)"
            menu.addAction(inp, lambda: self.workbench.toggle_input(item_id))
            menu.addAction(out, lambda: self.workbench.toggle_output(item_id))
            menu.addAction("Trace to inputs", lambda: (self.session.select(item_id),
                                                       self.trace_selected()))
        menu.addAction("Copy name", lambda: self._copy(item_id.rstrip("/")))
        menu.popup(global_pos)
        self.context_menu = menu

    def _copy(self, text):
        QApplication.clipboard().setText(text)

    # -- function library ---------------------------------------------------------------
    def show_function(self, name: str | None = None) -> bool:
        """Show one FunctionDef of the library as a graph of its own (_Arg/_Retval ends)."""
        from PySide6.QtWidgets import QInputDialog

        from inspector.core.view.view_graph import ViewModel

        view = self.controller.original_view
        names = sorted(view.graph.functions) if view is not None else []
        if not names:
            self.session.message.emit("This graph has no function library")
            return False
        if name is None:
            name, ok = QInputDialog.getItem(self, "Function library", "Function:", names, 0,
                                            False)
            if not ok:
                return False
        self.session.view = ViewModel(view.graph.function_graph(name))
        self.session.message.emit(f"Function {name} (View > Main graph to go back)")
        self._fit_next = True
        self.request_layout()
        return True

    def show_main_graph(self) -> None:
        if self.controller.original_view is not None:
            self.session.view = self.controller.original_view
            self._fit_next = True
            self.request_layout()
