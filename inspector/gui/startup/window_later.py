"""The main window's parts hidden at start (panel_table's rows made later, and its parts with
no dock), made after the first picture, when their dock is first shown or when first read
(later_panels): the Preview panel, the Phone panel with its Quantization tab, the Demo, Sizes
and Tour panels, the Target report and the comparisons. Each builder imports its modules
itself (not the window's module: ~25 ms of a start, ~0.1 s on the slow machine class)."""

from __future__ import annotations

from inspector.gui import panel_table


def build_preview(w) -> None:
    """The Preview panel and its controller."""
    from inspector.gui.controllers.preview_controller import PreviewController
    from inspector.gui.panels.preview_panel import PreviewPanel

    s = w.state
    w.preview_panel = panel = PreviewPanel()
    w.preview = PreviewController(s, w.tasks, panel, w.dialogs)
    panel.compare_requested.connect(lambda *a: w.compare_ctl.compare_step(*a))
    panel.stages_requested.connect(lambda *a: w.compare_ctl.compare_stages(*a))
    panel.jump.connect(w.jump_to)
    w.preview_dock.widget().setWidget(panel)
    if s.rows:
        w.preview._rows_changed(s.rows)
        w.preview._step_changed(s.step, s.after)
    w._gate_later(("preview_panel",))


def build_mobile(w) -> None:
    """The Phone (TFLite) panel with its Quantization tab and their controllers."""
    from inspector.gui.controllers.mobile_controller import MobileController
    from inspector.gui.controllers.quant_controller import QuantController
    from inspector.gui.panels.mobile_panel import MobilePanel
    from inspector.gui.panels.quant_panel import QuantPanel

    s, t = w.state, w.tasks
    w.mobile_panel = panel = MobilePanel()
    w.mobile = MobileController(s, t, panel, w.dialogs)
    w.mobile.window_wanted.connect(w.open_beside)
    w.quant_panel = QuantPanel()
    panel.tabs.addTab(w.quant_panel, "Quantization")
    w.quant = QuantController(s, t, w.quant_panel, panel, w.dialogs)
    w.quant.beside_wanted.connect(lambda path: w.quant.adopt_beside(w.open_beside(path)))
    panel.compare_requested.connect(lambda *a: w.compare_ctl.compare_variant(*a))
    panel.jump.connect(w.jump_to)
    w.quant_panel.jump.connect(w.jump_to)
    w.mobile_dock.widget().setWidget(panel)
    if s.tflite_check is not None:
        w.mobile._show_check(s.tflite_check)
    if s.overlay is not None:
        w.mobile._overlay_changed(s.overlay)
    if s.quant is not None:
        w.quant._show(s.quant)
    w._gate_later(("mobile_panel", "quant_panel"))


def build_demo(w) -> None:
    """The Demo panel and the demo runs' controller."""
    from inspector.gui.controllers.demo_controller import DemoController
    from inspector.gui.panels.demo_panel import DemoPanel

    s = w.state
    w.demo_panel = panel = DemoPanel()
    w.demo = DemoController(s, w.tasks, panel, w.dialogs)
    w.demo_dock.visibilityChanged.connect(lambda on: on and w.demo.warm())
    w.canvas.strip_clicked.connect(w.demo.show_grid)
    w.demo_dock.widget().setWidget(panel)
    view = s.original_view
    if view is not None and view is s.view and view.shapes is not None:
        w.demo._shapes_known(view)          # TensorFlow answered before it existed
    if w.demo_dock.isVisible():
        w.demo.warm()
    w._gate_later(("demo_panel",))


def build_sizes(w) -> None:
    """The Sizes panel (treemaps) and its controller."""
    from inspector.gui.controllers.sizes_controller import SizesController
    from inspector.gui.panels.sizes_panel import SizesPanel

    s = w.state
    w.sizes_panel = panel = SizesPanel()
    w.sizes = SizesController(s, w.tasks, panel)
    w.sizes_dock.visibilityChanged.connect(w.sizes.set_visible)
    panel.jump.connect(w.jump_to)
    w.sizes_dock.widget().setWidget(panel)
    if s.model is not None and w.scenes_drawn:
        w.sizes._first_frame(s.model)       # its first picture is up: sizes when shown
    w.sizes.set_visible(w.sizes_dock.isVisible())


def build_tour(w) -> None:
    """The Tour panel and the tours' controller (stops, auto-tour, presentation mode)."""
    from inspector.gui.canvas.stage import Stage
    from inspector.gui.controllers.tour_controller import TourController
    from inspector.gui.panels.tour_panel import TourPanel
    from inspector.gui.presentation import PresentationChrome

    w.tour_panel = panel = TourPanel()
    w.tour = TourController(w.state, w.tasks, panel, w.canvas, Stage(w.canvas),
                            PresentationChrome(w), w.dialogs)
    w.tour.run_wanted.connect(lambda path: w.demo.run_on(path))
    w.tour.card_wanted.connect(w._tour_card)
    w.tour_dock.widget().setWidget(panel)
    panel.show_stops(w.tour.tour.stops)     # a session file's tour, restored before it


def build_targets(w) -> None:
    """The Target report's controller (its window is made when first opened)."""
    from inspector.gui.controllers.targets_controller import TargetsController

    w.targets = TargetsController(w.state, w.tasks, w)


def build_compare(w) -> None:
    """The comparisons' controller (File > Compare with…, the Preview and Phone panels)."""
    from inspector.gui.controllers.compare_controller import CompareController

    w.compare_ctl = CompareController(w)


def build_default(w, row) -> None:
    """A panel row with no builder of its own: its panel, its controller made from its
    collaborators (the controller reads the state itself), its jumps to the canvas."""
    panel = panel_table.load(row.panel)()
    setattr(w, f"{row.name}_panel", panel)
    setattr(w, row.name, panel_table.load(row.controller)(w.state, w.tasks, panel, w.dialogs))
    if hasattr(panel, "jump"):
        panel.jump.connect(w.jump_to)
    getattr(w, f"{row.name}_dock").widget().setWidget(panel)
    w._gate_later((f"{row.name}_panel",))


def _builder(spec: str | None, row=None):
    """A builder named by its "module:function" (its module imported when it runs)."""
    if spec is None:
        return lambda w: build_default(w, row)
    return lambda w: panel_table.load(spec)(w)


def groups() -> dict:
    """group -> (builder, the window attributes it makes, the dock it fills: made after the
    first picture or on its first show; None: made on first read only), from the panel
    table's rows made later and its parts with no dock."""
    out = {row.name: (_builder(row.builder, row), row.attributes, f"{row.name}_dock")
           for row in panel_table.PANELS if row.later}
    out.update({group: (_builder(spec), names, None)
                for group, (spec, names) in panel_table.DOCKLESS.items()})
    return out


def group_of_dock(window, dock) -> str | None:
    """The group that fills `dock` (None: a panel made with the window)."""
    return next((group for group, (_, _, name) in groups().items()
                 if name and getattr(window, name) is dock), None)
