"""Transform benchmark: the seed pipeline on a ~2.7k-node, ~96 MB Inception v3 graph,
our engine against TensorFlow's native engine in the same run, plus the time for all metrics.

Run: .venv/bin/python bench/transform_bench.py   (first run builds the graph, ~1 minute)
"""

from __future__ import annotations

import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from inspector.core.tf.executor import install  # noqa: E402

install()  # TensorFlow work runs in this process
CACHE = os.path.join(ROOT, "bench", ".cache")
PIPELINE = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
            'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
            'fold_old_batch_norms quantize_weights')


def build(path: str) -> None:
    """Keras InceptionV3 (weights=None) behind a DecodeJpeg front end, frozen, unfolded."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2,
    )

    model = tf.keras.applications.InceptionV3(weights=None)

    @tf.function(input_signature=[tf.TensorSpec([], tf.string, name="jpeg")])
    def serve(jpeg):
        img = tf.cast(tf.io.decode_jpeg(jpeg, channels=3), tf.float32)
        img = tf.compat.v1.image.resize_bilinear(tf.expand_dims(img, 0), [299, 299])
        img = tf.multiply(tf.subtract(img, 128.0), 1 / 128.0, name="Mul")
        return tf.identity(model(img, training=False), name="softmax")

    frozen = convert_variables_to_constants_v2(serve.get_concrete_function(),
                                               lower_control_flow=False)
    gd = frozen.graph.as_graph_def()
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())


def timed(fn, runs: int):
    times = []
    result = None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return result, min(times), statistics.median(times)


def main() -> None:
    from inspector.core.analysis.metrics import compute_metrics
    from inspector.core.loaders import load
    from inspector.core.tf import engine, runtime
    from inspector.core.transforms import run_pipeline

    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, "inception_v3_jpeg.pb")
    if not os.path.exists(path):
        build(path)
    gd = load(path).graph.graph_def
    names = {n.name for n in gd.node}
    mul = next(n for n in names if n.endswith("Mul") and "/" not in n.rstrip("Mul")[:-1]
               and n.split("/")[-1] == "Mul" and n.count("/") <= 1)
    out = "Identity" if "Identity" in names else "softmax"
    print(f"graph: {len(gd.node)} nodes, {gd.ByteSize() / 2 ** 20:.1f} MB; "
          f"inputs={mul} outputs={out}")
    runtime.tf()  # import once, outside the timings (the app imports it once too)
    theirs, t_min, t_med = timed(lambda: engine.run_native_transform(
        gd, [mul], [out], PIPELINE), 3)
    ours, o_min, o_med = timed(lambda: run_pipeline(gd, PIPELINE, [mul], [out]), 3)
    final = ours[-1].graph_def
    print(f"TF native engine : best {t_min:.2f} s, median {t_med:.2f} s -> {len(theirs.node)} "
          f"nodes, {theirs.ByteSize() / 2 ** 20:.1f} MB")
    print(f"ours             : best {o_min:.2f} s, median {o_med:.2f} s -> {len(final.node)} "
          f"nodes, {final.ByteSize() / 2 ** 20:.1f} MB")
    for r in ours:
        print(f"   {r.spec.name:<22} {r.seconds:6.2f} s  -{len(r.removed)} +{len(r.added)} "
              f"~{len(r.changed)}")
    print(f"ratio ours/native: {o_min / t_min:.2f} (target <= 1.0; absolute target <= 3 s)")
    _, m_min, _ = timed(lambda: compute_metrics(gd, {mul: (1, 299, 299, 3)}), 2)
    _, n_min, _ = timed(lambda: compute_metrics(gd, with_flops=False), 2)
    print(f"all metrics (size, gzip, params, FLOPs via TF shapes): {m_min:.2f} s; "
          f"without FLOPs: {n_min:.2f} s")


if __name__ == "__main__":
    main()
