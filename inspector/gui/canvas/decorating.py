"""Decorating a graph canvas's boxes: selection, cone, dimming, IN/OUT tags, diff states,
overlay badges, heat colours, status bars and feature-map strips, in slices of the event
loop. A mixin of GraphCanvas."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QTimer
from shiboken6 import isValid


class Decorating:
    """GraphCanvas's decorate(): each box's look set, repainted only when it changed."""

    DECORATE_SLICE = 1000   # items recoloured per event-loop turn (no stall over budget:
    #                         2500 took 47 ms on the slow class, after Expand all on 300k)

    def decorate(self, d) -> None:
        """Apply core.app.decorations.Decorations: selection, cone, dimming, IN/OUT tags,
        diff states, overlay badges and heat colours. Thousands of items are done in slices,
        one per event-loop turn; a newer call drops the rest of an older one."""
        self._decoration = getattr(self, "_decoration", 0) + 1
        # the ids, not (id, box) pairs: making 30k pairs took 7 ms (27 on the slow class)
        by_id = self.items_by_id
        ids = list(by_id)
        if len(ids) <= self.DECORATE_SLICE:
            self._decorate_slice(self._decoration, d, by_id, ids, 0)
        else:          # a big picture: its first slice too in a turn of its own (a picture
            QTimer.singleShot(1, self, partial(    # just drawn: not in the turn it is shown;
                self._decorate_slice, self._decoration, d, by_id, ids, 0))   # the timers die
            #                                          with the canvas: see _decorate_slice

    def _decorate_slice(self, generation, d, by_id, ids, start: int) -> None:
        """One slice; the next a turn later (a 1 ms timer: a chain of 0 ms ones runs several
        slices back to back before any timer, as the stall heartbeat, gets a turn)."""
        if generation != self._decoration or by_id is not self.items_by_id:
            return      # a newer decoration, or a newer picture (its boxes of this one may
            #             be deleted already: its own on_done decorates it)
        # CI's deleted boxes: the slices of a canvas deleted at a test's end (under load
        # they outlived it) ran in the next test on its deleted boxes. The timers are the
        # canvas's now and die with it; isValid stays as a cheap guard (~0.1 ms a slice)
        # against a box deleted any other way: raising here would leave the rest undecorated
        self._decorate_items(d, [(i, by_id[i]) for i in ids[start:start + self.DECORATE_SLICE]
                                 if i in by_id and isValid(by_id[i])])
        if start + self.DECORATE_SLICE < len(ids):   # a partial, not a cycle (see _build_slice)
            QTimer.singleShot(1, self, partial(self._decorate_slice, generation, d, by_id, ids,
                                               start + self.DECORATE_SLICE))

    def _decorate_items(self, d, items) -> None:
        self.style.strips = bool(d.strips)
        plain = bool(d.strips)               # after a demo run, blocks speak plain words
        for item_id, node in items:
            look = (item_id == d.selected, item_id in d.cone, item_id in d.dimmed,
                    d.tags.get(item_id, ""), d.diff.get(item_id, ""),
                    d.badges.get(item_id, ""), d.heat.get(item_id), d.bars.get(item_id), plain)
            self._set_strip(node, d.strips.get(item_id))
            if getattr(node, "look", None) == look:
                continue                     # unchanged: not repainted (a step of n / p
            node.look = look                 # changes two boxes, not every box in view)
            outside = bool(node.tag or node.badge)
            (node.selected, node.in_cone, node.dimmed, node.tag, node.diff, badge,
             node.heat, node.bar, node.plain) = look
            node.show_badge(badge)
            if outside != bool(node.tag or node.badge):
                node.update()                # where its old tag or badge was, then
                node.fit_rect()              # room for the new one (or none)
            node.update()

    @staticmethod
    def _set_strip(node, maps) -> None:
        strip = getattr(node, "strip", None)
        if strip is not None and strip.maps is maps:
            return
        if strip is not None:
            strip.setParentItem(None)
            if strip.scene() is not None:
                strip.scene().removeItem(strip)
            node.strip = None
        if maps is not None:
            from inspector.gui.canvas.feature_strip import FeatureStrip

            node.strip = FeatureStrip(node, maps)
