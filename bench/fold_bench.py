"""Issue 38.16 in one run, as whole processes (what a user waits for), on the ~2.2k-node,
~96 MB Inception v3 graph of transform_bench.py:

1. the seed pipeline (transform_bench.PIPELINE) through our CLI against TF's native
   transform_graph engine;
2. a pure-Python pipeline (strip_unused_nodes + remove_nodes) through our CLI (target < 1 s on
   the slow class, measured on its emulation, bench/slow_class.py, where this runs as root;
   no TensorFlow imported; pure_slow_bench.py runs this part alone);
3. fold_constants with exact numpy folding against the same step with every subgraph sent to
   TensorFlow (INSPECTOR_EXACT_FOLD=0): `fold_constants(exclude_op=Rsqrt)`, whose foldable
   subgraphs are then all numpy-exact (no TensorFlow in the process), and plain
   `fold_constants`, whose batch-norm Rsqrt subgraphs still need TensorFlow;
4. the same comparison for fold_constants alone on a frozen Keras model from a package
   registry (DeepLC) and a 32k-node graph, whose foldable subgraphs are all exact.

Each pair of figures is measured alternately (a, b, a, b, ...), so both see the same load.
Prints this machine's Python speed first and, for every figure of ours, an estimate for the
slow machine class (Python loop at 0.88 s; figures scaled by that ratio, an upper bound for
the parts that are not Python).

Run: .venv/bin/python bench/fold_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
from pure_slow_bench import slow_class_figure  # noqa: E402
from pure_transform_bench import NATIVE, OURS, same_nodes, whole_process  # noqa: E402
from pure_transform_bench import PIPELINE as PURE  # noqa: E402
from scale import python_speed  # noqa: E402
from transform_bench import CACHE, build  # noqa: E402
from transform_bench import PIPELINE as SEED  # noqa: E402

SLOW_CLASS = 0.88   # seconds for python_speed() on the slow 2-core machine class
INPUTS, OUTPUTS = "Mul", "Identity"


STEP_TIMES = """  # the fold step alone, TensorFlow imported first, both ways, best of 3
import json, os, sys
from inspector.core.tf.executor import install
from inspector.core.tf import runtime
from inspector.core.loaders import load
from inspector.core.transforms import run_pipeline
install()
runtime.tf()
io = (["Mul"], ["Identity"])
pre = run_pipeline(load(sys.argv[1]).graph.graph_def, sys.argv[2], *io)[-1].graph_def
out = {}
for mode in ("1", "0", "1", "0"):
    os.environ["INSPECTOR_EXACT_FOLD"] = mode
    seconds = [run_pipeline(pre, sys.argv[3], *io)[-1].seconds for _ in range(3)]
    out[mode] = min(seconds + [out.get(mode, 9e9)])
print("BENCH", json.dumps(out), file=sys.stderr)
"""


def paired(runs: int, a: tuple, b: tuple) -> tuple:
    """Time two whole-process jobs (code, args, extra env) alternately, so that both see the
    same load on a shared machine: ((best, median, line) of a, the same of b)."""
    got: dict = {0: ([], ""), 1: ([], "")}
    for _ in range(runs):
        for k, (code, args, extra) in enumerate((a, b)):
            best, _, line = whole_process(code, args, 1, **extra)
            got[k][0].append(best)
            got[k] = (got[k][0], line)
    return tuple((min(t), statistics.median(t), line) for t, line in (got[0], got[1]))


def cli(path: str, out: str, steps: str) -> list:
    return ["transform", "--in_graph", path, "--out_graph", out, "--inputs", INPUTS,
            "--outputs", OUTPUTS, "--transforms", steps, "--force"]


def same_bytes(a: str, b: str) -> bool:
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def exact_graphs() -> list:
    """(label, .pb path, inputs, outputs): a frozen Keras model from a package registry
    (DeepLC: ExpandDims/Reshape/Squeeze of weights; skipped when the registry cannot give it)
    and a 32k-node TF1-style graph (weights behind `read` Identity nodes)."""
    from tests.fixtures import scale_models, wild_models

    out = []
    path = os.path.join(CACHE, "deeplc_frozen.pb")
    if not os.path.exists(path):
        try:
            keras = wild_models.model("deeplc_keras")
        except wild_models.Unavailable as exc:
            print(f"  (DeepLC skipped: {exc})")
            keras = None
        if keras:
            from inspector.core.loaders import load
            from inspector.core.tf.executor import install

            install()
            with open(path + ".tmp", "wb") as fh:
                fh.write(load(keras).graph.graph_def.SerializeToString())
            os.replace(path + ".tmp", path)
    if os.path.exists(path):
        from inspector.core.loaders import load

        gd = load(path).graph.graph_def
        read = {i.lstrip("^").split(":")[0] for n in gd.node for i in n.input}
        ins = ",".join(n.name for n in gd.node if n.op == "Placeholder")
        outs = ",".join(n.name for n in gd.node if n.name not in read and n.op != "Const")
        out.append((f"DeepLC, frozen Keras ({len(gd.node)} nodes)", path, ins, outs))
    out.append(("blocks_32000 (32k nodes, 33 MB)", scale_models.blocks_graph(32_000), "input",
                "output"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one-cpu", type=int, default=1, metavar="N",
                        help="the slow class emulated on CPU N (slow_class.py --one-cpu)")
    args = parser.parse_args()
    runs = args.runs
    speed = python_speed()
    scale = SLOW_CLASS / speed
    print(f"this machine's Python speed: a loop of 10M additions takes {speed:.2f} s "
          f"(slow class: {SLOW_CLASS:.2f} s, so x{scale:.1f} there)")
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, "inception_v3_jpeg.pb")
    if not os.path.exists(path):
        build(path)
    print(f"graph: {os.path.getsize(path) / 2 ** 20:.1f} MB; runs per figure: {runs} "
          "(best and median wall seconds, whole processes)")
    figures = {}

    def row(key: str, label: str, best: float, median: float, ours: bool = True) -> None:
        slow = f"; slow class ~{best * scale:.2f} s" if ours else ""
        print(f"  {label:<44} best {best:5.2f} s  median {median:5.2f} s{slow}")
        figures[key] = best

    with tempfile.TemporaryDirectory() as tmp:
        out = {k: os.path.join(tmp, f"{k}.pb") for k in
               ("seed", "native", "pure", "exact", "exact_tf", "mixed", "mixed_tf")}
        whole_process(OURS, cli(path, out["pure"], PURE), 1)  # warm-up: .pyc, page cache

        print(f"1. seed pipeline: {SEED}")
        (s_best, s_med, _), (n_best, n_med, _) = paired(
            runs, (OURS, cli(path, out["seed"], SEED), {}),
            (NATIVE, [path, out["native"], INPUTS, OUTPUTS, SEED], {}))
        row("seed ours", "ours (CLI)", s_best, s_med)
        row("seed native", "TF native transform_graph", n_best, n_med, ours=False)
        print(f"  ratio ours/native {s_best / n_best:.2f} (target <= 1.00: "
              f"{'met' if s_best <= n_best else 'NOT met'} on this machine); same nodes as "
              f"TF native: {same_nodes(out['seed'], out['native'])} (TF's engine leaves "
              "FusedBatchNormV3 unfolded and names folds differently)")

        print(f"2. pure-Python pipeline: {PURE}")
        p_best, p_med, line = whole_process(OURS, cli(path, out["pure"], PURE), runs)
        row("pure ours", "ours (CLI)", p_best, p_med)
        slow = slow_class_figure(path, out["pure"], runs, args.one_cpu, speed)
        figures["pure slow class"] = slow["slow_best"]

        print("3. fold_constants, exact numpy folding vs every subgraph in TensorFlow")
        for key, steps in (("exact", PURE + " fold_constants(exclude_op=Rsqrt)"),
                           ("mixed", PURE + " fold_constants")):
            (a_best, a_med, a_line), (b_best, b_med, _) = paired(
                runs, (OURS, cli(path, out[key], steps), {}),
                (OURS, cli(path, out[f"{key}_tf"], steps), {"INSPECTOR_EXACT_FOLD": "0"}))
            print(f"  {steps}")
            row(f"fold {key} numpy", "numpy where exact (default)", a_best, a_med)
            row(f"fold {key} tf", "all in TensorFlow (INSPECTOR_EXACT_FOLD=0)", b_best, b_med)
            print(f"  ratio numpy/TF {a_best / b_best:.2f}; heavy modules with numpy: "
                  f"{a_line.split(' ', 2)[-1]}; identical output files: "
                  f"{same_bytes(out[key], out[key + '_tf'])}")
            step = steps.rsplit(" ", 1)[-1]
            _, _, line = whole_process(STEP_TIMES, [path, PURE, step], 1)
            alone = json.loads(line.split(" ", 1)[1])
            print(f"  the step alone in one process (TF already imported): numpy where exact "
                  f"{alone['1']:.3f} s, all in TF {alone['0']:.3f} s, ratio "
                  f"{alone['1'] / alone['0']:.2f}")
            figures[f"step {key} numpy"], figures[f"step {key} tf"] = alone["1"], alone["0"]
        print("4. fold_constants alone on graphs whose foldable subgraphs are all exact")
        for name, graph, ins, outs in exact_graphs():
            steps = "fold_constants"
            args = ["transform", "--in_graph", graph, "--out_graph", out["exact"], "--inputs",
                    ins, "--outputs", outs, "--transforms", steps, "--force"]
            (a_best, a_med, a_line), (b_best, b_med, _) = paired(
                runs, (OURS, args, {}), (OURS, args[:4] + [out["exact_tf"]] + args[5:],
                                         {"INSPECTOR_EXACT_FOLD": "0"}))
            print(f"  {name}")
            row(f"{name} numpy", "numpy where exact (default)", a_best, a_med)
            row(f"{name} tf", "all in TensorFlow (INSPECTOR_EXACT_FOLD=0)", b_best, b_med)
            print(f"  ratio numpy/TF {a_best / b_best:.2f}; heavy modules with numpy: "
                  f"{a_line.split(' ', 2)[-1]}; identical output files: "
                  f"{same_bytes(out['exact'], out['exact_tf'])}")
    print(f"this machine's Python speed at the end: {python_speed():.2f} s (a shared machine's "
          "load changes during the run; each pair above was measured alternately)")
    slow = figures["pure slow class"]
    print(f"the slow class: the pure-Python pipeline takes {slow:.2f} s there (section 2): the "
          f"1 s budget {'holds' if slow < 1 else 'does NOT hold'}")
    print(json.dumps({"python_speed": speed, **figures}))


if __name__ == "__main__":
    main()
