"""Files the user hands the window, read safely: demo inputs (photos, sounds, arrays,
folders), class names, text files such as logs."""

from __future__ import annotations

from inspector.core.loaders.files import read_text
from inspector.core.loaders.labels import find_labels, read_labels_file
from inspector.core.loaders.media import is_demo_input, read_input

__all__ = ["find_labels", "is_demo_input", "read_input", "read_labels_file", "read_text"]
