"""Child process of a calibration run: runs a logged graph on every calibration input so that
TensorFlow's Print kernels write their range lines to this process's stderr.

Usage (internal): python -m inspector.core.calibration_child SPEC.json
Progress goes to stdout as `progress DONE TOTAL`; the outputs of each run are saved as .npy.
"""

from __future__ import annotations

import glob
import json
import os
import sys

import numpy as np


def samples(spec: dict, tf):
    data, shape = spec["data"], tuple(spec["input_shape"])
    kind = data["kind"]
    if kind == "random":
        rng = np.random.default_rng(data.get("seed", 0))
        for _ in range(int(data.get("count", 8))):
            yield rng.standard_normal(shape).astype(np.float32)
    elif kind == "npy":
        path = data["path"]
        files = sorted(glob.glob(os.path.join(path, "*.npy"))) if os.path.isdir(path) else [path]
        for f in files:
            arr = np.load(f, allow_pickle=False).astype(np.float32)
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
            img = tf.io.decode_image(tf.io.read_file(f), channels=shape[-1], expand_animations=False)
            img = tf.image.resize(tf.cast(img, tf.float32), shape[1:3])
            yield ((img.numpy() - mean) / std)[None].astype(np.float32)


def main(spec_path: str) -> int:
    with open(spec_path) as fh:
        spec = json.load(fh)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    gd = tf.compat.v1.GraphDef.FromString(open(spec["graph"], "rb").read())
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(gd, name="")
    feed_name = spec["input"] if ":" in spec["input"] else spec["input"] + ":0"
    fetches = [o if ":" in o else o + ":0" for o in spec["outputs"]]
    items = list(samples(spec, tf))
    with tf.compat.v1.Session(graph=graph) as sess:
        for i, x in enumerate(items):
            outs = sess.run(fetches, {feed_name: x})
            np.save(os.path.join(spec["out_dir"], f"input_{i}.npy"), x)
            np.save(os.path.join(spec["out_dir"], f"output_{i}.npy"), outs[0])
            sys.stderr.flush()
            print(f"progress {i + 1} {len(items)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
