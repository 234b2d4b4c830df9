"""Issue 38.16 on the command line: a pure-Python pipeline on a model big enough to be opened
lazily (its weights left in the file, copied back into the output) writes the very file and
prints the very table the copying path gives, and its process imports neither numpy, nor the
TF layer, nor the other subcommands' modules. (Its time is bench/pure_slow_bench.py's.)"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEPS = "strip_unused_nodes remove_nodes(op=Identity, op=CheckNumerics)"


def _expected(src: str, inputs: list, outputs: list) -> tuple[bytes, str]:
    """The output file and metrics table of the copying path (each step its own graph)."""
    from inspector.cli.transform import metrics_table
    from inspector.core.analysis.metrics import compute_metrics
    from inspector.core.loaders import load
    from inspector.core.model import protos
    from inspector.core.transforms import run_pipeline

    graph_def = load(src).graph.graph_def
    reports = run_pipeline(graph_def, STEPS, inputs, outputs)
    rows = [("original", compute_metrics(graph_def, with_flops=False, with_gzip=False))] + \
        [(r.spec.name, compute_metrics(r.graph_def, with_flops=False, with_gzip=False))
         for r in reports]
    return protos.serialize_graph_def(reports[-1].graph_def), metrics_table(rows)


@pytest.mark.parametrize("name,inputs,outputs", [("mobilenet_v2.pb", "input", "Identity"),
                                                 ("inception_jpeg.pb", "Mul", "softmax")])
def test_a_pure_pipeline_writes_the_file_and_table_of_the_copying_path(fx, tmp_path, name,
                                                                      inputs, outputs):
    src = os.path.join(fx, name)
    out = tmp_path / "out.pb"
    args = ["transform", "--in_graph", src, "--out_graph", str(out), "--inputs", inputs,
            "--outputs", outputs, "--transforms", STEPS]
    code = ("import sys\nfrom inspector.launcher import main\n"
            f"rc = main({args!r})\n"
            "print('modules:', rc, sorted(m for m in sys.modules if m == 'numpy' or "
            "m.startswith(('tensorflow', 'inspector.core.tf.', 'inspector.cli.')) and m not in "
            "('inspector.core.tf.executor', 'inspector.core.tf.child_ops', "
            "'inspector.cli.main', 'inspector.cli.loading', 'inspector.cli.wording', "
            "'inspector.cli.transform', 'inspector.cli.run_args')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert proc.returncode == 0, proc.stderr
    # (the executor's child_ops is stdlib only: how it would ask a Keras child, tf/keras_child)
    assert proc.stdout.splitlines()[-1] == "modules: 0 []", proc.stdout
    data, table = _expected(src, [inputs], [outputs])
    assert out.read_bytes() == data
    assert proc.stdout.startswith(table + "\n"), (proc.stdout, table)
    assert [p.name for p in tmp_path.iterdir()] == ["out.pb"]


def _help(parser, name: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), pytest.raises(SystemExit):
        parser.parse_args([name, "--help"])
    return buf.getvalue()


def test_each_subcommand_alone_is_the_one_of_the_whole_command_line():
    from inspector.cli.main import SUBCOMMANDS, build_parser

    whole = build_parser()
    assert set(whole._subparsers._group_actions[0].choices) == set(SUBCOMMANDS)
    for name in SUBCOMMANDS:
        alone = build_parser(name)
        alone_names = set(alone._subparsers._group_actions[0].choices)
        assert name in alone_names and len(alone_names) <= 4    # its own module's only
        assert _help(alone, name) == _help(whole, name), name
