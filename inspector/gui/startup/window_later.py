"""The main window's parts hidden at start (panel_table's rows made later, and its parts with
no dock), made after the first picture, when their dock is first shown or when first read
(later_panels): the Search, Overlays and Legend panels (tabs behind Summary, Properties and
Minimap), the Pipeline panel (its controller is made with the window), the Preview panel,
the Inputs and outputs panel (its controller, too, is made with the window), the Phone panel
with its Quantization tab, the Demo, Sizes and Tour panels, the model card,
the Target report, the comparisons and File > Export. Each builder imports its modules
itself (not the window's module: ~25 ms of a start, ~0.1 s on the slow machine class) and
returns the parts it made (later_panels puts them on the window); each controller reads the
state itself, so nothing that happened before it existed is replayed here."""

from __future__ import annotations

import dis
import importlib

from inspector.gui import panel_table


def build_pipeline(w) -> dict:
    """The Pipeline panel, given to the pipeline's controller (made with the window: the
    session and the preview need it, the panel does not)."""
    from inspector.gui.panels.pipeline_panel import PipelinePanel

    panel = PipelinePanel()
    w.pipeline_dock.widget().setWidget(panel)
    w.pipeline.attach(panel)
    return {"pipeline_panel": panel}


def build_legend(w) -> dict:
    """The Legend panel (the colours of the open view's categories or overlay)."""
    from inspector.gui.panels.legend import Legend

    legend = Legend(w.state)
    w.legend_dock.widget().setWidget(legend)
    legend.refresh()
    return {"legend": legend}


def build_card(w) -> dict:
    """The model card (it covers the window while shown) and its controller."""
    from inspector.gui.controllers.model_card_controller import ModelCardController
    from inspector.gui.panels.model_card_panel import ModelCardPanel

    panel = ModelCardPanel(w)
    return {"card_panel": panel, "card": ModelCardController(w.state, w.tasks, panel)}


def build_exporter(w) -> dict:
    """File > Export's DOT, SVG and PNG writer (with it the file writers and protobuf's text
    format, which the first picture needs not)."""
    from inspector.gui.canvas.exporting import Exporter

    return {"exporter": Exporter(w.state, w.tasks, w.canvas)}


def build_preview(w) -> dict:
    """The Preview panel and its controller."""
    from inspector.gui.controllers.preview_controller import PreviewController
    from inspector.gui.panels.preview_panel import PreviewPanel

    panel = PreviewPanel()
    panel.compare_requested.connect(lambda *a: w.compare_ctl.compare_step(*a))
    panel.stages_requested.connect(lambda *a: w.compare_ctl.compare_stages(*a))
    panel.jump.connect(w.jump_to)
    w.preview_dock.widget().setWidget(panel)
    return {"preview_panel": panel,
            "preview": PreviewController(w.state, w.tasks, panel, w.dialogs)}


def build_mobile(w) -> dict:
    """The Phone (TFLite) panel with its Quantization tab and their controllers."""
    from inspector.gui.controllers.mobile_controller import MobileController
    from inspector.gui.controllers.quant_controller import QuantController
    from inspector.gui.panels.mobile_panel import MobilePanel
    from inspector.gui.panels.quant_panel import QuantPanel

    s, t = w.state, w.tasks
    panel, quant_panel = MobilePanel(), QuantPanel()
    panel.tabs.addTab(quant_panel, "Quantization")
    mobile = MobileController(s, t, panel, w.dialogs)
    mobile.window_wanted.connect(w.open_beside)
    quant = QuantController(s, t, quant_panel, panel, w.dialogs)
    quant.beside_wanted.connect(lambda path: quant.adopt_beside(w.open_beside(path)))
    panel.compare_requested.connect(lambda *a: w.compare_ctl.compare_variant(*a))
    panel.jump.connect(w.jump_to)
    quant_panel.jump.connect(w.jump_to)
    w.mobile_dock.widget().setWidget(panel)
    return {"mobile_panel": panel, "quant_panel": quant_panel, "mobile": mobile,
            "quant": quant}


def build_demo(w) -> dict:
    """The Demo panel and the demo runs' controller."""
    from inspector.gui.controllers.demo_controller import DemoController
    from inspector.gui.panels.demo_panel import DemoPanel

    panel = DemoPanel()
    demo = DemoController(w.state, w.tasks, panel, w.dialogs)
    w.demo_dock.visibilityChanged.connect(lambda on: on and demo.warm())
    w.canvas.strip_clicked.connect(demo.show_grid)
    w.demo_dock.widget().setWidget(panel)
    if w.demo_dock.isVisible():
        demo.warm()
    return {"demo_panel": panel, "demo": demo}


def build_sizes(w) -> dict:
    """The Sizes panel (treemaps) and its controller."""
    from inspector.gui.controllers.sizes_controller import SizesController
    from inspector.gui.panels.sizes_panel import SizesPanel

    panel = SizesPanel()
    sizes = SizesController(w.state, w.tasks, panel)
    w.sizes_dock.visibilityChanged.connect(sizes.set_visible)
    panel.jump.connect(w.jump_to)
    w.sizes_dock.widget().setWidget(panel)
    sizes.set_visible(w.sizes_dock.isVisible())
    return {"sizes_panel": panel, "sizes": sizes}


def build_tour(w) -> dict:
    """The Tour panel and the tours' controller (stops, auto-tour, presentation mode)."""
    from inspector.gui.canvas.stage import Stage
    from inspector.gui.controllers.tour_controller import TourController
    from inspector.gui.panels.tour_panel import TourPanel
    from inspector.gui.presentation import PresentationChrome

    panel = TourPanel()
    tour = TourController(w.state, w.tasks, panel, w.canvas, Stage(w.canvas),
                          PresentationChrome(w), w.dialogs)
    tour.run_wanted.connect(lambda path: w.demo.run_on(path))
    tour.card_wanted.connect(w._tour_card)
    w.tour_dock.widget().setWidget(panel)
    return {"tour_panel": panel, "tour": tour}


def build_targets(w) -> dict:
    """The Target report's controller (its window is made when first opened)."""
    from inspector.gui.controllers.targets_controller import TargetsController

    return {"targets": TargetsController(w.state, w.tasks, w.dialogs, w._gate_later)}


def build_compare(w) -> dict:
    """The comparisons' controller (File > Compare with…, the Preview and Phone panels)."""
    from inspector.gui.controllers.compare_controller import CompareController

    return {"compare_ctl": CompareController(
        w.state, w.tasks, w.dialogs, lambda variant: w.mobile.open_variant(variant, show=False))}


def build_default(w, row) -> dict:
    """A panel row with no builder of its own: its panel, its controller made from its
    collaborators (the controller reads the state itself) or given the panel (the row's
    `attach`: made with the window), its jumps to the canvas."""
    panel = panel_table.load(row.panel)()
    if hasattr(panel, "jump"):
        panel.jump.connect(w.jump_to)
    getattr(w, f"{row.name}_dock").widget().setWidget(panel)
    if row.attach:
        getattr(w, row.attach).attach(panel)
        return {f"{row.name}_panel": panel}
    return {f"{row.name}_panel": panel,
            row.name: panel_table.load(row.controller)(w.state, w.tasks, panel, w.dialogs)}


def _builder(spec: str | None, row=None):
    """A builder named by its "module:function" (its module imported when it runs)."""
    if spec is None:
        return lambda w: build_default(w, row)
    return lambda w: panel_table.load(spec)(w)


def later_modules() -> list:
    """The modules the builders import when they run (the import statements in each
    builder's code, and the default builder's panel and controller modules): imported on a
    thread after the first picture (start_order.preload), the builders that then run on the
    GUI thread only make widgets (~10-40 ms a group instead of 50-240 ms with the imports)."""
    specs = [row.builder for row in panel_table.PANELS if row.builder]
    specs += [spec for spec, _ in panel_table.DOCKLESS.values()]
    out = []
    for spec in specs:
        module, _, name = spec.partition(":")
        fn = getattr(importlib.import_module(module), name)
        out += [ins.argval for ins in dis.get_instructions(fn) if ins.opname == "IMPORT_NAME"]
    for row in panel_table.PANELS:
        if row.later and not row.builder:
            out += [spec.partition(":")[0] for spec in (row.panel, row.controller) if spec]
    return list(dict.fromkeys(out))


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
