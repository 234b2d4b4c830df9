"""An edge to or from a node inside an open scope (a frame) crosses each frame's border by
lanes where no box is: the band between two layers of the frame's layout (items are centred
in their layer, V_GAP apart; above the first layer, the PAD under the frame's title) and the
strip inside the frame's right border (PAD wide: the layout keeps it clear). Drawn straight
from the outer route to the node, such an edge ran over the frame's other nodes, forward
edges and back edges alike (note15)."""

from __future__ import annotations

from collections import namedtuple

from inspector.core.view.projection import PAD
from inspector.gui.canvas.style import MIN_BEND

Box = namedtuple("Box", "id kind x y w h")
OFF = PAD / 2        # a lane's distance from the border or the layer it runs along


def frames_of(item_id: str, items: dict) -> list:
    """The open scopes (frames) an item sits in, outermost first: its id's prefixes up to
    each '/' that are frames holding its box."""
    out, item = [], items.get(item_id)
    end = len(item_id) - 1 if item_id.endswith("/") else len(item_id)
    k = item_id.find("/", 0, end)
    while k >= 0:
        frame = items.get(item_id[:k + 1])
        if frame is not None and frame.kind == "frame" and item is not None and \
                frame.x <= item.x and item.x + item.w <= frame.x + frame.w + 0.01 and \
                frame.y <= item.y and item.y + item.h <= frame.y + frame.h + 0.01:
            out.append(frame)
        k = item_id.find("/", k + 1, end)
    return out


class Lanes:
    """Routes of edges whose ends are inside frames, for one scene's items (all in top to
    bottom coordinates: a left to right scene's are turned about its diagonal first)."""

    def __init__(self, items: dict, lr: bool):
        self.lr = lr
        self.items = {k: self._turned(v) for k, v in items.items()} if lr else items
        self._layers: dict | None = None       # frame id -> {layer centre: (top, bottom)}
        self._children: dict = {}              # frame id -> the boxes directly in it
        self._frames: dict = {}                # item id -> frames_of it (asked again and
        #                                        again: an item has many edges)
        self.none = not any(v.kind == "frame" for v in items.values())

    def frames(self, item_id: str) -> list:
        out = self._frames.get(item_id)
        if out is None:
            out = self._frames[item_id] = frames_of(item_id, self.items)
        return out

    def _turned(self, v):
        return Box(v.id, v.kind, v.y, v.x, v.h, v.w)

    def route(self, edge, under: float) -> tuple | None:
        """(start, bend points, end) of an edge with an end inside a frame the other end is
        not in (None for any other edge): it leaves its source's frames and enters its
        target's through their borders by lanes, between the outer route's points. A back
        edge (its target's outermost part above its source's) leaves from the top and
        enters from the bottom, as edge_ends has it. `under`: the target's stacked look."""
        if self.none:
            return None
        items = self.items
        fa, fb = self.frames(edge.src), self.frames(edge.dst)
        if len(fa) == len(fb) and all(x is y for x, y in zip(fa, fb)):   # (none to cross)
            return None
        k = 0
        while k < len(fa) and k < len(fb) and fa[k] is fb[k]:
            k += 1          # outermost first: the shared ones lead both lists
        fa, fb = fa[k:], fb[k:]
        a, b = items[edge.src], items[edge.dst]
        top_a, top_b = (fa[0] if fa else a), (fb[0] if fb else b)
        back = top_b.y + top_b.h <= top_a.y
        if not back and self._clear(edge, a, b, fa + fb):
            return None        # drawn straight, as any other edge: it crosses no box
        start = (a.x + a.w / 2, a.y if back else a.y + a.h)
        pts = []
        cur, x = a, start[0]
        for frame in reversed(fa):              # out of each frame, innermost first
            band = self._band(frame, cur, below=not back)
            lane = frame.x + frame.w - OFF
            pts += [(x, band), (lane, band), (lane, frame.y if back else frame.y + frame.h)]
            cur, x = frame, lane
        outer = [(p[1], p[0]) for p in edge.points] if self.lr else list(edge.points)
        pts += outer
        for k, frame in enumerate(fb):          # into each frame, outermost first
            inner = fb[k + 1] if k + 1 < len(fb) else b
            lane = frame.x + frame.w - OFF
            band = self._band(frame, inner, below=back)
            goal = inner.x + inner.w - OFF if k + 1 < len(fb) else inner.x + inner.w / 2
            pts += [(lane, frame.y + frame.h if back else frame.y), (lane, band), (goal, band)]
        end = (b.x + b.w / 2, b.y + b.h + under if back else b.y)
        if self.lr:
            start, end = (start[1], start[0]), (end[1], end[0])
            pts = [(y, x) for x, y in pts]
        return start, pts, end

    def _clear(self, edge, a, b, frames: list) -> bool:
        """Whether the edge drawn as any other (a's bottom, the outer route's points, b's top)
        keeps KEEP_OFF off every box directly in `frames` but its own ends (an edge into the
        first node of an open scope had gone round by its right border for nothing)."""
        line = [(a.x + a.w / 2, a.y + a.h),
                *([(p[1], p[0]) for p in edge.points] if self.lr else edge.points),
                (b.x + b.w / 2, b.y)]
        ends = {a.id, b.id} | {f.id for f in frames}     # (its frames: crossed)
        for frame in frames:
            for box in self.children(frame.id):
                if box.id not in ends and any(_crosses(p, q, box) for p, q in
                                              zip(line, line[1:])):
                    return False
        return True

    def children(self, frame_id: str) -> list:
        """The boxes directly in a frame (its own items and open scopes)."""
        self.layers(frame_id)
        return self._children.get(frame_id, [])

    def _band(self, frame, item, below: bool) -> float:
        """The y of the lane across `frame` just above (below) the layer `item` is in."""
        top, bottom = self.layers(frame.id).get(round(item.y + item.h / 2, 1),
                                                (item.y, item.y + item.h))
        return bottom + OFF if below else top - OFF

    def layers(self, frame_id: str) -> dict:
        """{layer centre: (top, bottom)} of a frame's own items (its layout's layers)."""
        if self._layers is None:
            self._layers, self._children = {}, {}
            for k, v in self.items.items():
                inside = self.frames(k)
                if not inside:
                    continue
                self._children.setdefault(inside[-1].id, []).append(v)
                rows = self._layers.setdefault(inside[-1].id, {})
                centre = round(v.y + v.h / 2, 1)
                top, bottom = rows.get(centre, (v.y, v.y + v.h))
                rows[centre] = (min(top, v.y), max(bottom, v.y + v.h))
        return self._layers.get(frame_id, {})


KEEP_OFF = 4.0       # an edge drawn as any other keeps this far off a box


def _crosses(p, q, box) -> bool:
    """Whether the curve drawn from p to q (edges._smooth: it leaves and enters vertically,
    so it stays in the rectangle p and q span, MIN_BEND more up and down at most) may come
    within KEEP_OFF of `box`."""
    bend = MIN_BEND + KEEP_OFF
    return not (max(p[0], q[0]) + KEEP_OFF <= box.x or
                min(p[0], q[0]) - KEEP_OFF >= box.x + box.w or
                max(p[1], q[1]) + bend <= box.y or min(p[1], q[1]) - bend >= box.y + box.h)
