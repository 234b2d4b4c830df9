"""The use cases' results the application state holds (state.AppState): RESULTS, one row a
result (its field, its value on a new model, whether the canvas repaints when it changes),
the setter AppState gets for each, and OverlayState, the overlay's result."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class OverlayState:
    """What the overlay shows: timings of one profile, ranges from a log, or the TFLite
    compatibility of each node (colours, and a status bar on each collapsed scope)."""

    mode: str = "none"                 # a mode of overlays.registry (kept in session files)
    profiles: tuple = ()               # Profile objects, newest last
    current: int = -1                  # index into profiles
    records: dict = field(default_factory=dict)   # RequantizationRange node -> [(min, max)]
    log_text: str = ""
    min_percentile: float = 5.0
    max_percentile: float = 5.0
    compat: dict = field(default_factory=dict)         # node -> TFLite status
    compat_scopes: dict = field(default_factory=dict)  # scope path -> ((status, n), ...)
    compat_notes: dict = field(default_factory=dict)   # node -> converter messages
    comparison: str = ""       # float vs eight-bit outputs after the last calibration
    node_data: object = None   # overlays.node_data.Placed: an imported Model Explorer file
    targets: object = None     # mobile.targets.TargetReport: where each op runs on a target

    @property
    def profile(self):
        return self.profiles[self.current] if 0 <= self.current < len(self.profiles) else None


# A use case's result: (field, its value on a new model, whether the canvas repaints when it
# changes). Each gets the event `<field>_changed(value)` and the setter `set_<field>(value)`.
RESULTS = (
    ("overlay", OverlayState, True),   # OverlayState: the overlay and what it shows
    ("demo", None, True),              # overlays.demo_run.DemoRun: the last demo run
    ("quant", None, True),             # QuantRun: recipes tried, chosen, applied (quantization)
    ("tflite_check", None, False),     # TFLiteCheck: the model's TFLite check (tflite_check)
    ("card", None, False),             # CardResult: the model card and its comparison (card)
    ("search", None, False),           # SearchResult: the last search (search)
    ("described", None, False),        # Described: a constant's values (properties)
    ("scope_facts", None, False),      # ScopeFacts: the selected scope's (properties)
    ("sizes", None, False),            # SizesResult: where the bytes go (sizing)
    ("duplicates", None, False),       # Duplicates: repeated constants (sizing)
    ("proposals", list, False),        # feed points traced from an output (marks)
    ("output_check", None, False),     # OutputCheck: the pipeline's numeric check (pipeline_runs)
    ("ops_header", None, False),       # OpsHeader: the last ops_to_register.h (selective_build)
)


def result_setter(name: str, repaint: bool):
    """AppState's `set_<name>(value)` of a RESULTS row."""
    def set_result(self, value) -> None:
        setattr(self, name, value)
        getattr(self, name + "_changed").emit(value)
        if repaint:
            self.decorations_changed.emit()
    set_result.__name__ = set_result.__qualname__ = f"set_{name}"
    set_result.__doc__ = f"Store `{name}` and emit {name}_changed" + \
        (" and decorations_changed." if repaint else ".")
    return set_result
