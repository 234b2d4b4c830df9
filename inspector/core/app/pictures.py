"""What the demo panels draw: feature maps as pictures, their colour scales and mosaics, and
what the model sees as a picture."""

from __future__ import annotations

from inspector.core.demo.feature_maps import colour_lut, mosaic, scaled, to_picture

__all__ = ["colour_lut", "mosaic", "scaled", "to_picture"]
