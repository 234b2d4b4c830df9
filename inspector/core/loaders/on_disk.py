"""The bytes a model takes on disk: every file a user copies or checks with `ls -l` / `du` to
have the model, in every format. The diff's "file bytes" row (compare.diff.file_size), and the
files its "gzip bytes" compresses where they are not the GraphDef alone (graph_flops)."""

from __future__ import annotations

import json
import os
import stat

from inspector.core.errors import InspectorError
from inspector.core.loaders import sniff
from inspector.core.runtime.lazy_import import later

# the checkpoint finder, with the protobuf reader it imports: only for a .meta (compare.diff
# imports this module, and a diff of two same files parses nothing: cli/quick_diff)
metagraph = later("inspector.core.loaders.metagraph", globals(), "metagraph")

WALK_LIMIT = 100_000      # files counted in a folder at most (a folder this big is no model)
JSON_LIMIT = 64 << 20     # a model.json / weights_manifest.json read at most (tfjs's limit)


def model_bytes(path: str) -> int:
    """What the model at `path` takes on disk (the sizes of model_files), 0 when that cannot
    be told (no path, nothing there, unreadable)."""
    try:
        return sum(os.stat(f).st_size for f in model_files(path))
    except OSError:
        return 0


def model_files(path: str) -> list:
    """The files of the model at `path`, [] when they cannot be told:
    - a folder: its regular files, all of them (a SavedModel: saved_model.pb, variables/,
      assets/, fingerprint.pb); a TF.js folder: its model.json and weight shards;
    - saved_model.pb(txt): its folder's files, as the folder;
    - a TF.js model.json: it and the weight shards its manifest lists (a shard once); TF.js
      0.x's tensorflowjs_model.pb: it, weights_manifest.json and its shards;
    - a .meta: it and the checkpoint beside it that opening it restores (.index, .data-*);
    - any other file (.pb, .pbtxt, .tflite, .h5, .keras): itself."""
    try:
        if not path:
            return []
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            json_path = os.path.join(path, "model.json")
            if os.path.isfile(json_path) and not any(
                    os.path.exists(os.path.join(path, n))
                    for n in ("saved_model.pb", "saved_model.pbtxt")):
                return _tfjs(json_path, os.path.getsize(json_path))
            return _folder(path)
        if not stat.S_ISREG(st.st_mode):
            return []
        name = os.path.basename(path)
        if name in ("saved_model.pb", "saved_model.pbtxt"):
            return _folder(os.path.dirname(os.path.abspath(path)))
        if name == "tensorflowjs_model.pb":
            manifest = os.path.join(os.path.dirname(os.path.abspath(path)),
                                    "weights_manifest.json")
            if os.path.isfile(manifest):
                return [path] + _tfjs(manifest, os.path.getsize(manifest))
        if name.endswith(".meta"):
            return [path] + _checkpoint(path)
        with open(path, "rb") as fh:
            head = fh.read(4096)
        if head.lstrip()[:1] == b"{" and sniff.sniff_head(path, head)[0] == sniff.TFJS:
            return _tfjs(path, st.st_size)
        return [path]
    except (OSError, ValueError, RecursionError, InspectorError):
        return []


def _folder(folder: str) -> list:
    """The regular files under `folder` (links not followed, WALK_LIMIT files at most)."""
    out, count = [], 0
    for top, dirs, names in os.walk(folder):
        for name in sorted(names):
            full = os.path.join(top, name)
            if stat.S_ISREG(os.lstat(full).st_mode):
                out.append(full)
            count += 1
            if count >= WALK_LIMIT:
                return out
    return out


def _tfjs(json_path: str, size: int) -> list:
    """The json file and the shards its manifest lists inside its folder, each once (a
    model.json: {"weightsManifest": [...]}; weights_manifest.json: the list itself)."""
    if size > JSON_LIMIT:
        return [json_path]
    with open(json_path, "rb") as fh:
        doc = json.loads(fh.read())
    groups = doc.get("weightsManifest") if isinstance(doc, dict) else doc
    folder = os.path.dirname(os.path.abspath(json_path))
    inside = os.path.realpath(folder).rstrip(os.sep) + os.sep
    seen, out = set(), [json_path]
    for group in groups if isinstance(groups, list) else ():
        paths = group.get("paths") if isinstance(group, dict) else None
        for name in paths if isinstance(paths, list) else ():
            if not isinstance(name, str) or name in seen or os.path.isabs(name):
                continue
            seen.add(name)
            shard = os.path.join(folder, name)
            if os.path.realpath(shard).startswith(inside) and os.path.isfile(shard):
                out.append(shard)
    return out


def _checkpoint(meta_path: str) -> list:
    """The checkpoint's files beside a .meta (metagraph.beside), [] when there is none."""
    prefix = metagraph.beside(meta_path)
    if not prefix:
        return []
    folder, stem = os.path.split(prefix)
    out = []
    for name in sorted(os.listdir(folder or ".")):
        if name == stem + ".index" or name.startswith(stem + ".data-"):
            full = os.path.join(folder, name)
            if stat.S_ISREG(os.lstat(full).st_mode):
                out.append(full)
    return out


def gzip_files(path: str) -> list | None:
    """The files a diff's "gzip bytes" compresses for the model at `path`: its files on disk
    (model_files) when they are more than one GraphDef or .tflite file (a TF.js folder, a
    SavedModel, a .meta and its checkpoint, a Keras file), so that the row goes with "file
    bytes"; None where the GraphDef's own gzip size is that figure (or nothing is there)."""
    files = model_files(path)
    if len(files) != 1:
        return files or None
    try:
        with open(files[0], "rb") as fh:
            kind = sniff.sniff_head(files[0], fh.read(4096))[0]
    except (OSError, ValueError, InspectorError):
        return None
    return None if kind in (sniff.GRAPHDEF, sniff.TFLITE) else files
