"""How the canvas paints: normal or presentation (colour-blind-safe palette with its text
colours, no text under a minimum pixel size, spotlight on the current block). One object per
canvas, shared by its items; changing it and updating the viewport restyles everything."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.view.palette import palette

MIN_TEXT_PX = 12.0      # presentation: smallest text in scene units (x the zoom on screen)
BADGE_OVER = 24.0       # a badge wider than its box may reach this far past either side
STACKED = 4.0           # a collapsed scope's stacked look: its box again, this far down right
MIN_BEND = 20.0         # an edge's curve leaves and enters its boxes this far straight at least
                        # (edges._smooth draws it; frame_lanes._crosses counts on it)


@dataclass
class CanvasStyle:
    presenting: bool = False
    colours: dict = field(default_factory=lambda: palette(False))
    spotlight: frozenset | None = None   # item ids kept lit; None: no spotlight
    font_scale: float = 1.0              # exports: text larger than on screen
    strips: bool = False                 # feature strips are drawn (edge labels avoid them)
    ring: str | None = None              # the selection as a ring of this colour around the
    #                                      box, its border keeping its diff colour (compare)

    def present(self, on: bool) -> None:
        self.presenting = on
        self.colours = palette(on)
        if not on:
            self.spotlight = None

    def fill_and_text(self, category: str) -> tuple:
        return self.colours.get(category, self.colours["other"])

    def px(self, points: float) -> float:
        """Pixel size of a font given in points at 96 dpi, raised to the presentation
        minimum while presenting."""
        size = points * 4.0 / 3.0 * self.font_scale
        return max(size, MIN_TEXT_PX) if self.presenting else size

    def lit(self, item_id: str) -> bool:
        if self.spotlight is None:
            return True
        return item_id in self.spotlight or any(
            s.startswith(item_id) for s in self.spotlight if item_id.endswith("/"))
