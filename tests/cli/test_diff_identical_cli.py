"""`diff A B` of two files with the same bytes answers from the bytes: no parse, no matching,
no TensorFlow, at any size (issue 47); anything else takes the full path."""

import json
import os
import shutil
import subprocess
import sys

from conftest import ROOT, run_cli

DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
INCEPTION = os.path.join(ROOT, "tests", "core", "data", "inception_jpeg.pb")
TFLITE = os.path.join(ROOT, "tests", "core", "data", "digits_int8.tflite")

# the CLI as `graphdef-inspector diff ...` runs it, then what it imported
PROBE = """
import sys
from inspector.launcher import main
calls = []
if sys.argv[-1] == '--count-matching':      # diff_graphs counted, then run (imports it first)
    sys.argv.pop()
    import inspector.core.compare.diff as diff
    real = diff.diff_graphs
    diff.diff_graphs = lambda *a, **k: calls.append(1) or real(*a, **k)
import os
from inspector.core.app import identical
from inspector.core.runtime import mapped_compare
answers = []
if os.environ.get('PROBE_HALVES_FROM'):     # smaller files through the big files' way
    identical.HALVES_FROM = int(os.environ['PROBE_HALVES_FROM'])
    real_same = mapped_compare.same
    mapped_compare.same = lambda *a: answers.append(real_same(*a)) or answers[-1]
if os.environ.get('PROBE_CUT'):             # this file cut short once both are mapped
    real_children = mapped_compare._in_children
    def cut_then_compare(*a):
        os.truncate(os.environ['PROBE_CUT'], 0)
        return real_children(*a)
    mapped_compare._in_children = cut_then_compare
code = main(['diff'] + sys.argv[1:])
heavy = sorted(m for m in ('google.protobuf', 'inspector.core.model.graph',
                           'inspector.core.compare.matching', 'inspector.core.analysis.summary',
                           'inspector.cli.main', 'argparse')
               if m in sys.modules)
print('MAPPED', answers, file=sys.stderr)
print('IMPORTED', 'tensorflow' in sys.modules, 'inspector.core.loaders.protofile' in sys.modules,
      bool(calls), 'numpy' in sys.modules, ','.join(heavy) or '-', file=sys.stderr)
sys.exit(code)
"""


def probe(*args, count_matching=True, **env):
    """(exit code, stdout, [TF imported, A parsed, matched, numpy imported]); without
    `count_matching` the matcher is not imported by the probe itself, and a fifth item lists
    the heavy modules the run imported (protobuf, the graph, the matcher, the analyses, the
    command line's parser). `env`: PROBE_HALVES_FROM, PROBE_CUT (see PROBE)."""
    extra = ["--count-matching"] if count_matching else []
    proc = subprocess.run([sys.executable, "-c", PROBE, *args, *extra], capture_output=True,
                          text=True, cwd=ROOT, timeout=300,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", **env))
    probe.stderr = proc.stderr
    flags = proc.stderr.rsplit("IMPORTED", 1)[1].split()[:5]
    out = [flag == "True" for flag in flags[:4]]
    return proc.returncode, proc.stdout, out if count_matching else out + [flags[4]]


def test_two_files_with_the_same_bytes_are_equal_without_a_parse(tmp_path):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(DEMO, a)
    shutil.copy(DEMO, b)
    code, out, (tf, parsed, matched, numpy) = probe(str(a), str(b))
    assert code == 0
    assert f"Equal: the two files hold the same bytes ({os.path.getsize(DEMO):,} bytes)" in out
    assert not tf and not parsed and not matched
    assert not numpy          # not even numpy (0.2-0.4 s of a start on a slow machine)
    code, out, (tf, parsed, _, numpy, heavy) = probe(str(a), str(b), count_matching=False)
    assert code == 0 and "the same bytes" in out and not (tf or parsed or numpy)
    assert heavy == "-"       # nor protobuf, the graph, the matcher, the analyses or a parser
    code, out, (*_, heavy) = probe(str(a), str(b), "--json", count_matching=False)
    assert code == 0 and json.loads(out)["equal"] and heavy == "-"
    for path in (TFLITE, os.path.join(ROOT, "tests", "core", "data", "v1_training.pbtxt")):
        code, out, _ = run_cli("diff", path, path)
        assert code == 0 and "the same bytes" in out


def test_the_json_of_the_same_bytes_is_a_comparison_file_that_reopens(tmp_path):
    from inspector.core.compare.document import from_dict, text_report

    code, out, err = run_cli("diff", DEMO, DEMO, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["equal"] and data["verdict"] == "equal" and data["quality"]["same_file_bytes"]
    assert "the same bytes" in text_report(from_dict(data))


def test_other_bytes_and_bad_files_take_the_full_path(tmp_path):
    code, out, err = run_cli("diff", DEMO, INCEPTION)       # different models: parsed, matched
    assert code == 1 and "the same bytes" not in out
    changed = tmp_path / "changed.pb"              # same size, one byte of a name changed
    data = bytearray(open(DEMO, "rb").read())
    at = data.rfind(b"logits")
    data[at] = ord("L")
    changed.write_bytes(bytes(data))
    code, out, (_, parsed, matched, _) = probe(DEMO, str(changed))
    assert code == 1 and "the same bytes" not in out and parsed and matched
    bad = tmp_path / "bad.pb"                      # the same garbage twice: still an error
    bad.write_bytes(b"\x0a\xff\xff\xff\xff garbage")
    code, out, err = run_cli("diff", str(bad), str(bad))
    assert code == 2 and "bad.pb" in err and len(err.strip().splitlines()) == 1


def _full_path(*args) -> tuple:
    """`diff` through the command line's parser (cli.main), not the launcher's early answer."""
    proc = subprocess.run([sys.executable, "-c", "import sys; from inspector.cli.main import "
                           "main; sys.exit(main(sys.argv[1:]))", "diff", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return proc.returncode, proc.stdout


def test_the_early_answer_prints_what_the_full_command_prints(tmp_path):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(DEMO, a)
    shutil.copy(DEMO, b)
    for extra in ([], ["--json"], ["--limit", "3", "--no-flops"], ["--limit=0", "--json"]):
        code, out, (*_, heavy) = probe(str(a), str(b), *extra, count_matching=False)
        assert (code, out) == _full_path(str(a), str(b), *extra), extra
        assert code == 0 and heavy == "-", extra
    from inspector.cli.quick_diff import plain_args

    assert plain_args(["--json", "A", "B"]) == ("A", "B", True, 40)
    assert plain_args(["A", "B", "--limit", "7"]) == ("A", "B", False, 7)
    for declined in (["A"], ["A", "B", "C"], ["A", "B", "--html", "x.html"], ["A", "-h"],
                     ["A", "B", "--limit", "x"], ["A", "B", "--limit"], ["A", "--numeric", "B"],
                     ["A", "B", "--limit=-1"], ["A", ""]):
        assert plain_args(declined) is None, declined


def test_big_files_are_compared_mapped_and_a_difference_anywhere_takes_the_full_path(
        tmp_path):
    """Files from PROBE_HALVES_FROM bytes take the big files' way (mapped_compare, two forked
    children): equal copies answer from it; a byte changed first or last, or a byte more,
    goes on to the full diff (A parsed), which reports it."""
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    data = open(DEMO, "rb").read()
    a.write_bytes(data)
    b.write_bytes(data)
    code, out, (tf, parsed, matched, _) = probe(str(a), str(b), PROBE_HALVES_FROM="1024")
    assert code == 0 and "the same bytes" in out and not (tf or parsed or matched)
    assert "MAPPED [True]" in probe.stderr
    last = bytearray(data)
    last[data.rfind(b"logits")] = ord("L")          # the last node's name, one byte
    for other, mapped in ((b"\x0b" + data[1:], "False"), (bytes(last), "False"),
                          (data + b"\n", "")):
        b.write_bytes(other)
        code, out, (_, parsed, _, _) = probe(str(a), str(b), PROBE_HALVES_FROM="1024")
        assert code in (1, 2) and "the same bytes" not in out and parsed, probe.stderr
        assert f"MAPPED [{mapped}]" in probe.stderr    # compared once, not again by the parser
    b.write_bytes(bytes(last))
    code, out, (_, parsed, matched, _) = probe(str(a), str(b), PROBE_HALVES_FROM="1024")
    assert code == 1 and parsed and matched and "Different: 1 changed" in out


def test_a_file_cut_short_while_compared_is_one_line_and_exit_2(tmp_path):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(DEMO, a)
    shutil.copy(DEMO, b)
    code, out, _ = probe(str(a), str(b), PROBE_HALVES_FROM="1024", PROBE_CUT=str(b))
    errors = [line for line in probe.stderr.splitlines() if not line.startswith(("IMPORTED",
                                                                                  "MAPPED"))]
    assert code == 2 and out == "" and len(errors) == 1, probe.stderr
    assert errors[0] == (f"graphdef-inspector: error: {b}: the file changed while it was "
                         "compared; compare again")


def test_tfjs_0x_models_whose_graph_files_are_alike_but_weights_differ_are_not_equal(
        tmp_path):
    """Regression: two TF.js 0.x models (tensorflowjs_model.pb: a GraphDef whose constants
    have no values, the weights in the shards weights_manifest.json lists beside it) with the
    same graph file and other weights were "Equal: the two files hold the same bytes". The
    graph file is now compared only within one folder, as a .meta or saved_model.pb."""
    sides = []
    for name, scale in (("a", 1.0), ("b", 2.0)):
        folder = tmp_path / name
        folder.mkdir()
        g = {"node": [{"name": "w", "op": "Const", "attr": {"dtype": {"type": "DT_FLOAT"}}},
                      {"name": "y", "op": "Identity", "input": ["w"],
                       "attr": {"T": {"type": "DT_FLOAT"}}}]}
        from google.protobuf import json_format

        from inspector.core.model import protos

        (folder / "tensorflowjs_model.pb").write_bytes(
            json_format.ParseDict(g, protos.GraphDef()).SerializeToString())
        (folder / "group1-shard1of1").write_bytes(
            bytes(__import__("struct").pack("<4f", *(scale * k for k in (1, 2, 3, 4)))))
        (folder / "weights_manifest.json").write_text(json.dumps(
            [{"paths": ["group1-shard1of1"],
              "weights": [{"name": "w", "shape": [4], "dtype": "float32"}]}]))
        sides.append(str(folder / "tensorflowjs_model.pb"))
    code, out, err = run_cli("diff", *sides, "--no-flops")
    assert code == 1 and "the same bytes" not in out, out + err
    assert "w: values changed" in out, out
