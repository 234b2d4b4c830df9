"""Sizes: the treemap of the open model (and, while a pipeline step is shown, of the step
beside it), computed off the GUI thread; duplicated constants are looked for on request (it
reads their bytes); a click on a tile goes to its scope or node."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject

from inspector.core.view.vocabulary import human_bytes


class SizesController(QObject):
    def __init__(self, state, tasks, panel):
        super().__init__(panel)
        self.state, self.tasks, self.p = state, tasks, panel
        self.by = "scope"
        self.biggest: dict = {}      # op type or dtype -> its biggest node (click target)
        self.shown = 0               # sizes delivered (tests wait on it)
        self.stale = True            # the state changed while the panel was out of sight
        panel.by_changed.connect(self.set_by)
        panel.tile_clicked.connect(self.go_to)
        panel.duplicates_requested.connect(self.find_duplicates)
        self.visible = False         # the panel's dock is on screen (main window tells)
        self._sized = self._framed = None   # the model whose sizes / first picture are shown
        state.model_changed.connect(lambda *_: self._model_changed())
        state.first_frame.connect(self._first_frame)
        state.view_changed.connect(lambda *_: self.refresh())
        tasks.busy.connect(lambda *_: self._show_waiting())
        if state.model is not None and state.framed is state.model:
            self._first_frame(state.model)    # its first picture is up: sizes when shown

    def _first_frame(self, model) -> None:
        self._framed = model
        self._show_waiting()
        self.refresh()

    def _model_changed(self) -> None:
        self._sized = self._framed = None            # the previous model is let go
        self.p.show_sizes(None, self.by, {}, "")     # not the previous model's tiles
        self._show_waiting()

    def _show_waiting(self) -> None:
        """"Opening NAME…" while it loads and until its first picture, then "Measuring
        NAME…" until its sizes are shown."""
        loading, model = self.tasks.label_of("load"), self.state.model
        text = f"{loading}…" if loading else ""
        if not loading and model is not None and self._sized is not model:
            name = os.path.basename(model.path.rstrip("/"))
            text = f"Measuring {name}…" if self._framed is model else f"Opening {name}…"
        self.p.show_waiting(text)

    def set_visible(self, on: bool) -> None:
        self.visible = on
        if on and self.stale:
            self.refresh()

    def set_by(self, by: str) -> None:
        self.by = by
        self.refresh()

    def refresh(self) -> None:
        from inspector.core.app.queries import sizes as sz

        model, original, view = self.state.model, self.state.original_view, self.state.view
        if model is None or original is None:
            return
        if not self.visible:             # no work for a panel nobody looks at (big models)
            self.stale = True
            return
        self.stale = False
        by = self.by
        step = view.graph if view is not None and view is not original else None
        graph, size = original.graph, model.file_size if model.kind == "graphdef" else 0

        def measure(g):
            nodes = sz.node_sizes(g)
            root = sz.group(g, nodes, by)
            biggest = {}
            if by != "scope":
                for node in g:
                    key = sz.group_key(node, by)
                    if nodes[node.name] > nodes.get(biggest.get(key, ""), -1):
                        biggest[key] = node.name
            return root, {n.name: n.op for n in g}, biggest, sum(nodes.values())

        def work(task):
            from inspector.core.runtime import gc_policy

            with gc_policy.paused():     # a full collection over a big graph stalls the GUI
                before = measure(graph)
                return before, measure(step) if step is not None else None

        def done(result):
            (root, ops, biggest, total), after = result
            self.biggest = biggest
            text = f"{human_bytes(total)} in {len(ops):,} nodes"
            if size:
                text += f"; the file is {human_bytes(size)}: {size - total:,} bytes are " \
                        "graph-level fields (versions, library)"
            titles = ("", "")
            if after is not None:
                titles = ("Original", "After the selected pipeline step")
                text += f". After the step: {human_bytes(after[3])} " \
                        f"({100 * (after[3] - total) / (total or 1):+.1f}%)"
            self.p.show_sizes(root, by, ops, text, after[0] if after else None,
                              after[1] if after else None, titles)
            self._sized = model
            self._show_waiting()
            self.shown += 1

        self.tasks.submit("sizes", work, done, lambda exc: None, label="Sizing the graph",
                          quiet=True)

    def go_to(self, ident: str) -> None:
        view = self.state.view
        if view is None:
            return
        if ident in self.biggest:
            ident = self.biggest[ident]
        if ident.endswith("/") or ident in view.graph:
            self.p.jump.emit(ident)          # a scope ("path/") is shown open, selected

    def find_duplicates(self) -> None:
        from inspector.core.app.queries import duplicates

        original = self.state.original_view
        if original is None:
            return
        graph = original.graph

        def work(task):
            return duplicates(graph, task)

        def done(dup):
            if not dup.groups:
                self.p.show_duplicates("No constant is stored twice.")
                return
            sets = "; ".join(f"{len(names)} x {human_bytes(size)} (e.g. "
                             f"{'/'.join(names[0].split('/')[-3:])})"
                             for size, names in dup.groups[:2])
            self.p.show_duplicates(f"{human_bytes(dup.wasted)} in {dup.tensors} duplicated "
                                   f"tensors could be shared: {sets}")

        self.tasks.submit("duplicates", work, done,
                          lambda exc: self.state.fail(getattr(exc, "message", str(exc))),
                          label="Looking for constants stored twice")
