"""The comparison's canvases keep, from one scene to the next, the boxes drawn alike: a step
opens one scope and closes another, and the rest only moves (with its cached pixmap)."""

from __future__ import annotations

_BOX_FIELDS = ("kind", "label", "sublabel", "category", "w", "h", "badges", "child_count",
               "params", "op_mix", "alike", "caption")


def same_box(a, b) -> bool:
    """Two scene items drawn alike wherever they stand (everything but x and y equal)."""
    return all(getattr(a, f) == getattr(b, f) for f in _BOX_FIELDS)


def keep_boxes(canvas, scene) -> dict:
    """The boxes of the new `scene` that `canvas` already shows alike, kept and moved (with
    their pixmaps); the other boxes and the edge tiles leave the scene. A box whose move is
    not a whole number of pixels at the canvas's zoom is painted again."""
    old, kept, gs = canvas.items_by_id, {}, canvas.scene()
    for item_id, item in scene.items.items():
        node = old.get(item_id)
        if node is not None and same_box(node.item, item):
            kept[item_id] = node
    for item_id, node in old.items():
        if item_id not in kept:
            gs.removeItem(node)
    for layer in canvas._edge_layers:
        gs.removeItem(layer)
    canvas._edge_layers = []
    scale = canvas.transform().m11()
    for item_id, node in kept.items():
        item, was = scene.items[item_id], node.item
        node.item = item
        if item.x != was.x or item.y != was.y:
            node.setPos(item.x, item.y)
            if not (((item.x - was.x) * scale).is_integer() and
                    ((item.y - was.y) * scale).is_integer()):
                node.update()
    return kept
