"""A tour: the stops a presenter walks through, kept in the model's session file. A stop says
what the canvas shows (opened scopes, selection, visible rectangle, overlay, spotlight) and
what the presenter says (caption, notes). Stops read from a file are checked field by field:
the file may come with a model from anywhere."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.overlays.registry import tour_modes
from inspector.core.runtime.events import Event

KINDS = ("graph", "input", "sees", "output", "card")
MAX_STOPS = 10_000
MAX_TEXT = 20_000
MAX_NAMES = 10_000


class TourError(InspectorError):
    """A tour in a session file that cannot be used."""


@dataclass
class Stop:
    title: str = "Stop"
    caption: str = ""
    notes: str = ""
    kind: str = "graph"              # graph, input, sees (what the model sees), output, card
    expanded: list = field(default_factory=list)   # scope paths open at this stop
    selected: str = ""               # node or item selected ("" for none)
    rect: tuple | None = None        # visible rectangle (x, y, w, h) in scene units
    overlay: str = "none"            # an overlay mode of overlays.registry.tour_modes()
    focus: list = field(default_factory=list)      # item ids the spotlight keeps lit
    input: str = ""                  # the demo input, relative to the session file's folder

    def to_dict(self) -> dict:
        data = asdict(self)
        data["rect"] = list(self.rect) if self.rect else None
        return data


def _text(value, what: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise TourError(f"{what} must be text of at most {limit:,} characters")
    return value


def _names(value, what: str) -> list:
    if not isinstance(value, list) or len(value) > MAX_NAMES or not all(
            isinstance(x, str) and len(x) <= 4096 for x in value):
        raise TourError(f"{what} must be a list of names")
    return list(value)


def _rect(value, what: str):
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e9
            and math.isfinite(v) for v in value):    # (the size first: isfinite(10**400) raises)
        raise TourError(f"{what}: 'rect' must be four finite numbers (x, y, width, height)")
    if value[2] <= 0 or value[3] <= 0:
        raise TourError(f"{what}: 'rect' must have a positive width and height")
    return tuple(float(v) for v in value)


def parse_stop(data, k: int) -> Stop:
    what = f"tour stop {k + 1}"
    if not isinstance(data, dict):
        raise TourError(f"{what} must be an object")
    kind = data.get("kind", "graph")
    overlay = data.get("overlay", "none")
    if kind not in KINDS:
        raise TourError(f"{what}: unknown kind {str(kind)[:40]!r}")
    if overlay not in tour_modes():
        raise TourError(f"{what}: unknown overlay {str(overlay)[:40]!r}")
    return Stop(title=_text(data.get("title", "Stop"), f"{what}: 'title'", 500),
                caption=_text(data.get("caption", ""), f"{what}: 'caption'"),
                notes=_text(data.get("notes", ""), f"{what}: 'notes'"),
                kind=kind,
                expanded=_names(data.get("expanded", []), f"{what}: 'expanded'"),
                selected=_text(data.get("selected") or "", f"{what}: 'selected'", 4096),
                rect=_rect(data.get("rect"), what), overlay=overlay,
                focus=_names(data.get("focus", []), f"{what}: 'focus'"),
                input=_text(data.get("input") or "", f"{what}: 'input'", 4096))


def parse_stops(value) -> list:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_STOPS:
        raise TourError(f"'tour' must be a list of at most {MAX_STOPS:,} stops")
    return [parse_stop(d, k) for k, d in enumerate(value)]


def parse_stops_keeping(value) -> tuple[list, list]:
    """(the stops that can be used, one message per stop dropped): a session file with one
    bad stop keeps every other one."""
    if value is None:
        return [], []
    if not isinstance(value, list) or len(value) > MAX_STOPS:
        return [], [f"'tour' must be a list of at most {MAX_STOPS:,} stops: tour dropped"]
    stops, dropped = [], []
    for k, data in enumerate(value):
        try:
            stops.append(parse_stop(data, k))
        except TourError as exc:
            dropped.append(f"{exc.message}: stop dropped")
    return stops, dropped


class Tour:
    """The stops of the open model, with edits that emit `changed`."""

    def __init__(self):
        self.changed = Event()       # () after every edit
        self.stops: list = []

    def to_list(self) -> list:
        return [s.to_dict() for s in self.stops]

    def replace(self, stops: list) -> None:
        self.stops = list(stops)
        self.changed.emit()

    def add(self, stop: Stop, index: int | None = None) -> int:
        index = len(self.stops) if index is None else max(0, min(index, len(self.stops)))
        self.stops.insert(index, stop)
        self.changed.emit()
        return index

    def update(self, index: int, stop: Stop) -> None:
        self.stops[index] = stop
        self.changed.emit()

    def move(self, src: int, dst: int) -> None:
        if src == dst or not (0 <= src < len(self.stops)):
            return
        stop = self.stops.pop(src)
        self.stops.insert(max(0, min(dst, len(self.stops))), stop)
        self.changed.emit()

    def rename(self, index: int, title: str) -> None:
        self.stops[index].title = title[:500]
        self.changed.emit()

    def set_text(self, index: int, caption: str | None = None, notes: str | None = None) -> None:
        stop = self.stops[index]
        if caption is not None:
            stop.caption = caption[:MAX_TEXT]
        if notes is not None:
            stop.notes = notes[:MAX_TEXT]
        self.changed.emit()

    def remove(self, index: int) -> None:
        del self.stops[index]
        self.changed.emit()
