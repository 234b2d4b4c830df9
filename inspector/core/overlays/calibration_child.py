"""Child process of a calibration run: runs a logged graph on every calibration input so that
TensorFlow's Print kernels write their range lines to this process's stderr.

Usage (internal): python -m inspector.core.overlays.calibration_child SPEC.json
Progress goes to stdout as `progress DONE TOTAL`; the outputs of each run are saved as .npy.
"""

from __future__ import annotations

import ctypes
import glob
import json
import os
import signal
import sys

import numpy as np

from inspector.core.loaders.arrays import load_npy
from inspector.core.model import protos
from inspector.core.runtime import feed_budget
from inspector.core.tf import run as tf_run


def samples(spec: dict, decode_image):
    data, shape = spec["data"], tuple(spec["input_shape"])
    kind = data["kind"]
    if kind == "random":
        rng = np.random.default_rng(data.get("seed", 0))
        for _ in range(int(data.get("count", 8))):
            yield feed_budget.random(rng, shape, np.float32)     # sized by calibrate()
    elif kind == "npy":
        path = data["path"]
        files = sorted(glob.glob(os.path.join(path, "*.npy"))) if os.path.isdir(path) else [path]
        for f in files:
            arr = load_npy(f).astype(np.float32)
            if arr.shape == shape[1:] or (arr.ndim == len(shape) and arr.shape[0] != shape[0]
                                          and arr.shape[1:] == shape[1:] and len(files) == 1):
                batch = arr[None] if arr.shape == shape[1:] else arr
                for item in batch:
                    yield item[None]
            else:
                yield arr.reshape(shape)
    else:  # a folder of images, resized to the input and normalised
        mean, std = float(data.get("mean", 0.0)), float(data.get("std", 1.0))
        files = sorted(f for f in glob.glob(os.path.join(data["path"], "*"))
                       if f.lower().endswith((".jpg", ".jpeg", ".png", ".bmp", ".gif")))
        for f in files:
            img = decode_image(f, shape[-1], shape[1:3])
            yield ((img - mean) / std)[None].astype(np.float32)


def die_with_parent(parent: int | None) -> None:
    """Linux ends this process when the one that started it dies (the worker, killed in the
    middle of a calibration), so no orphan keeps running TensorFlow."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return   # not Linux: we still end at the next progress line (a broken pipe)
    if parent is not None and os.getppid() != parent:
        sys.exit(1)   # it died before we asked


def main(spec_path: str) -> int:
    with open(spec_path) as fh:
        spec = json.load(fh)
    die_with_parent(spec.get("parent"))

    graph_def = protos.GraphDef.FromString(open(spec["graph"], "rb").read())
    items = list(samples(spec, tf_run.decode_image))
    print(f"progress 0 {len(items)}", flush=True)
    with tf_run.session_for(graph_def, allow_unsafe=spec.get("allow_unsafe", False)) as run:
        for i, x in enumerate(items):
            outs = run({spec["input"]: x}, spec["outputs"])
            np.save(os.path.join(spec["out_dir"], f"input_{i:06d}.npy"), x)
            np.save(os.path.join(spec["out_dir"], f"output_{i:06d}.npy"), outs[0])
            sys.stderr.flush()
            print(f"progress {i + 1} {len(items)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
