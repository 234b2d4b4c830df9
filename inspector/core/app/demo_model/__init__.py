"""The bundled demo model (a small convnet trained on 8x8 digits, its class names beside it),
found inside the package through importlib.resources: the one path both front ends open by
default, from a source tree, an install or the frozen build. resources/make_demo_model.py
makes it again."""

from __future__ import annotations

from importlib.resources import files

DEMO_MODEL = str(files(__name__) / "demo_digits.pb")
