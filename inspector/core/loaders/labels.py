"""Class names for a classifier's scores: a labels file beside the model (`labels.txt`,
`*labels*.txt`, `retrained_labels.txt`, also in a SavedModel's `assets/`), a list of strings
kept as a constant in the graph, or a file the presenter picks; else "class 17"."""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.loaders import files

LABELS_LIMIT = 4 * 2 ** 20
MAX_LABELS = 100_000


@dataclass
class Labels:
    names: list = field(default_factory=list)
    source: str = ""            # plain words: where they came from

    def for_classes(self, count: int) -> tuple[list, str]:
        """Names for `count` scores, and a note: a 1001-score ImageNet model with 1000 names
        has 'background' first."""
        names = list(self.names)
        note = ""
        if names and len(names) == count - 1:
            names = ["background"] + names
            note = "class 0 is 'background' (the 1001-class ImageNet layout)"
        elif names and len(names) != count:
            note = f"{self.source} has {len(self.names):,} names for {count:,} scores"
        return names, note

    def name(self, index: int, count: int) -> str:
        names, _ = self.for_classes(count)
        if 0 <= index < len(names) and names[index]:
            return names[index]
        return f"class {index}"


def read_labels_file(path: str) -> Labels:
    text = files.read_text(path, LABELS_LIMIT, "the labels file", error=InspectorError)
    if "\0" in text:
        raise InspectorError("not a text file of class names (it holds binary data)",
                             path=path)
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise InspectorError("the labels file is empty", path=path)
    if len(lines) > MAX_LABELS:
        raise InspectorError(f"the labels file has {len(lines):,} lines, over "
                             f"{MAX_LABELS:,}", path=path)
    # "0 tench" / "0: tench" / "n01440764 tench" numbered lists keep only the name
    parts = [line.split(None, 1) for line in lines]
    if all(len(p) == 2 and p[0].rstrip(":").isdigit() for p in parts if p):
        lines = [p[1] if len(p) == 2 else "" for p in parts]
    return Labels(lines, os.path.basename(path))


_MODEL_EXTENSIONS = (".pb", ".pbtxt", ".meta", ".h5", ".hdf5", ".keras", ".tflite")


def _candidates(model_path: str) -> list:
    """Labels files that belong to this model: named after it, or generic names; a
    `*labels*.txt` named after another model in the same folder is that model's."""
    path = model_path.rstrip("/")
    folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
    stem = os.path.splitext(os.path.basename(path))[0]
    try:
        others = {os.path.splitext(n)[0] for n in os.listdir(folder)
                  if n.lower().endswith(_MODEL_EXTENSIONS)} - {stem}
    except OSError:
        others = set()
    found = []
    for where in (folder, os.path.join(folder, "assets")):
        for pattern in (f"{glob.escape(stem)}*labels*.txt", "labels.txt",
                        "retrained_labels.txt", "*labels*.txt"):
            for candidate in sorted(glob.glob(os.path.join(glob.escape(where), pattern))):
                name = os.path.basename(candidate)
                owners = [o for o in others | {stem} if o and name.startswith(o)]
                if owners and max(owners, key=len) != stem:
                    continue          # named after another model (the longest match owns it)
                if os.path.isfile(candidate) and candidate not in found:
                    found.append(candidate)
    return found


def _graph_labels(graph) -> Labels | None:
    best = None
    protos, node_names = graph.structure.node, graph.name_list
    for i in graph.nodes_of_op("Const"):      # the op column: no Node view made
        attr = protos[i].attr
        if "value" not in attr:
            continue
        t = attr["value"].tensor
        if t.dtype != 7 or len(t.string_val) < 2:    # DT_STRING, a list of at least two
            continue
        if best is None or len(t.string_val) > len(best.names):
            try:
                names = [v.decode("utf-8") for v in t.string_val]
            except UnicodeDecodeError:
                continue
            if all(0 < len(n) < 200 for n in names):
                best = Labels(names, f"the graph's constant '{node_names[i]}'")
    return best


def find_labels(model_path: str, graph=None) -> Labels:
    """The labels that come with a model; empty Labels when there are none."""
    for path in _candidates(model_path):
        try:
            return read_labels_file(path)
        except InspectorError:
            continue
    if graph is not None:
        found = _graph_labels(graph)
        if found is not None:
            return found
    return Labels()
