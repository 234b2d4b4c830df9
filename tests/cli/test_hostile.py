"""Every entry of the hostile-input manifest gets the outcome it names: a clean one-line error
(exit 2), a refusal for consent, or success; never a traceback, a hang or a memory blow-up."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys

import pytest

from tests.fixtures.hostile.manifest import all_cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CASES = all_cases()
PEAK_LIMIT_KIB = 3 * 2 ** 20   # 3 GiB: TensorFlow alone takes about 1 GiB
TIME_LIMIT = 240


def _fill(argv, path, directory, out):
    return [a.replace("{path}", path).replace("{dir}", directory).replace("{out}", out)
            for a in argv]


def _run_in_process(argv):
    from inspector.launcher import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def _run_isolated(argv, tmp_path):
    peak_file = str(tmp_path / "peak.txt")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", INSPECTOR_PEAK_FILE=peak_file)
    try:
        proc = subprocess.run([sys.executable, "-m", "tests.fixtures.hostile.run_limited", *argv],
                              cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung: no answer within {TIME_LIMIT} s")
    peak = int(open(peak_file).read()) if os.path.exists(peak_file) else 0
    assert peak < PEAK_LIMIT_KIB, f"peak memory {peak / 2 ** 20:.1f} GiB"
    return proc.returncode, proc.stdout, proc.stderr


def check_outcome(case, code, out, err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert "Traceback" not in err, err[-2000:]
    # progress lines may come first; the error is one line, the last one
    error_lines = [ln for ln in lines if ln.startswith("graphdef-inspector: error:")]
    clean_error = code == 2 and len(error_lines) == 1 and lines[-1] == error_lines[0]
    # summarize of a graph TF refuses lists its problems and exits 1 (with one last line)
    listed = case.argv[:1] == ["summarize"] and (
        "Problem: " in out or re.search(r'"problems": \[\s*"', out))
    done = 1 if listed else 0
    if code == 1:
        assert listed and lines[-1].endswith("TensorFlow would refuse this graph"), err[-1000:]
    if case.expect == "ok":
        assert code == 0, err[-1000:]
    elif case.expect == "problems":
        assert code == done, err[-1000:]
        assert case.message in out + err
    elif case.expect == "clean":
        assert code == done or clean_error, (code, err[-1000:])
    else:
        assert clean_error, (code, err[-1000:])
        assert case.message in error_lines[0], error_lines[0]
        # a model's names never reach the terminal raw (escapes, NULs) nor as 100 kB lines
        assert error_lines[0].isprintable() and len(error_lines[0]) < 2000, error_lines[0][:300]
        if "calls itself" in error_lines[0]:   # no option lets it run: none is offered
            assert "--allow_io" not in error_lines[0], error_lines[0]
        if case.expect == "refused":
            assert "permission" in error_lines[0] or "refusing" in error_lines[0]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input(case, tmp_path):
    directory = tmp_path / "in"
    directory.mkdir()
    path = case.make(str(directory))
    argv = _fill(case.argv, path, str(directory), str(tmp_path / "out"))
    before = set(os.listdir(directory))
    if case.isolate:
        code, out, err = _run_isolated(argv, tmp_path)
    else:
        code, out, err = _run_in_process(argv)
    check_outcome(case, code, out, err)
    # nothing is ever written beside the input, and no temporary files are left anywhere
    assert set(os.listdir(directory)) == before
    assert not [f for f in os.listdir(tmp_path) if ".inspector-" in f]


def test_manifest_is_large_enough():
    assert len(CASES) >= 150
