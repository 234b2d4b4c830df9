"""The bundled demo model (a small convnet trained on 8x8 digits, its class names beside it),
found inside the package, beside this module: the one path both front ends open by default,
from a source tree, an install or the frozen build (each has the package's files as files;
importlib.resources gave the same path and cost the app's start ~7-20 ms of imports).
resources/make_demo_model.py makes it again."""

from __future__ import annotations

import os

DEMO_MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo_digits.pb")
