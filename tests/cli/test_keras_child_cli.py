"""The command line loads a Keras file in a child process held to a memory and a time limit
(tf/keras_child): a file that passes the size check (a channels-first convolution it does
not model) and has Keras build a 1.4 GB kernel ends in one line naming the file, the layer
and the limit, and nothing grows past the limit; a normal file loads as before."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.fixtures.hostile import inputs as I

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "core", "data")
TIME_LIMIT = 300         # generous: the bound is "never hangs", not a speed
PEAK_LIMIT_KIB = int(2.5 * 2 ** 20)   # TF alone ~0.5 GB; the old code peaked at ~4 GB+


def _cli(argv, tmp_path, **env):
    peak_file = str(tmp_path / "peak.txt")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", INSPECTOR_PEAK_FILE=peak_file, **env)
    try:
        proc = subprocess.run([sys.executable, "-m", "tests.fixtures.hostile.run_limited",
                               *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung: no answer within {TIME_LIMIT} s")
    peak = int(open(peak_file).read()) if os.path.exists(peak_file) else 0
    return proc, peak


def _one_error_line(proc) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("graphdef-inspector: error:")]
    assert proc.returncode == 2 and len(errors) == 1 and lines[-1] == errors[0], \
        (proc.returncode, proc.stderr[-2000:])
    return errors[0]


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_a_keras_file_that_would_allocate_gigabytes_ends_in_one_line(tmp_path, mode):
    """Fails on the old code: Keras built the kernel in the command's own process (peak
    ~4 GB here, 8.8 GB at 4096x4096) and the line said only 'OOM when allocating' if the
    machine refused it. 'spawn': the child is a new Python (this process had imported
    TensorFlow already, say)."""
    path = I.keras_channels_first(str(tmp_path))
    proc, peak = _cli(["flops", path], tmp_path,
                      **({"INSPECTOR_KERAS_CHILD": "spawn"} if mode == "spawn" else {}))
    line = _one_error_line(proc)
    assert path in line and "Keras needed more than the" in line, line
    assert "of memory allowed for this file building layer 'probs' and was stopped" in line
    assert "INSPECTOR_KERAS_MEMORY_GB" in line and line.isprintable()
    assert 0 < peak < PEAK_LIMIT_KIB, f"peak {peak / 2 ** 20:.2f} GiB"


def test_summarize_shows_the_layers_and_says_why_it_was_not_frozen(tmp_path):
    path = I.keras_channels_first(str(tmp_path))
    proc, peak = _cli(["summarize", path], tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "(keras-layers," in proc.stdout and "Keras needed more than" in proc.stderr
    assert 0 < peak < PEAK_LIMIT_KIB, f"peak {peak / 2 ** 20:.2f} GiB"


@pytest.mark.parametrize("name, command", [("tiny.keras", "flops"), ("tiny.h5", "convert")])
def test_a_normal_keras_file_is_frozen_through_the_child(tmp_path, name, command):
    argv = [command, os.path.join(DATA, name)] + \
        (["-o", str(tmp_path / "frozen.pb")] if command == "convert" else [])
    proc, _ = _cli(argv, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "read-only" not in proc.stderr + proc.stdout
    assert command != "convert" or "Wrote 28 nodes" in proc.stdout, proc.stdout


def test_a_load_past_its_time_limit_is_stopped_with_one_line(tmp_path):
    """Fails on the old code (no limit: it loads). The child is stopped, with its group."""
    path = os.path.join(DATA, "tiny.keras")
    proc, _ = _cli(["flops", path], tmp_path, INSPECTOR_KERAS_SECONDS="0.2")
    line = _one_error_line(proc)
    assert "Keras did not load it within 0.2 s and was stopped" in line, line
    assert "INSPECTOR_KERAS_SECONDS" in line


def test_in_process_main_after_tensorflow_still_uses_a_child(tmp_path, monkeypatch):
    """main() in a process that imported TensorFlow (not fork-safe): a new Python loads it."""
    pytest.importorskip("tensorflow")
    import contextlib
    import io

    import tensorflow  # noqa: F401
    from inspector.core.runtime import front_end
    from inspector.launcher import main

    monkeypatch.setenv("INSPECTOR_KERAS_MEMORY_GB", "0.75")
    path = I.keras_channels_first(str(tmp_path))
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["flops", path])
    assert code == 2 and "Keras needed more than the 0.8 GB" in err.getvalue(), err.getvalue()
    assert front_end.KERAS_IN_CHILD is False      # only for the command's run


def test_flops_of_a_keras_file_asks_the_child_and_never_imports_tensorflow_here():
    """The child that loaded the file answers the command's TensorFlow operations (shape
    inference): the command's own process imports no TensorFlow, and the answer is the one
    the in-process load gives (INSPECTOR_KERAS_CHILD=0). Fails on the old code (TensorFlow
    imported here, twice with the child: flops of tiny.keras took 1.7x as long)."""
    code = ("import sys; from inspector.launcher import main; "
            f"code = main(['flops', {os.path.join(DATA, 'tiny.keras')!r}]); "
            "print('TF here:', 'tensorflow' in sys.modules, 'exit', code)")
    outs = []
    for mode in ("1", "0"):
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, timeout=TIME_LIMIT,
                              env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3",
                                       INSPECTOR_KERAS_CHILD=mode))
        assert proc.returncode == 0, proc.stderr[-2000:]
        outs.append(proc.stdout)
    assert outs[0].splitlines()[-1] == "TF here: False exit 0", outs[0][-500:]
    assert outs[1].splitlines()[-1] == "TF here: True exit 0"
    assert outs[0].splitlines()[:-1] == outs[1].splitlines()[:-1]


CHILD_OF_A_KILLED_COMMAND = """
import os, sys, time
from inspector.core.tf import keras_child

def load(path, watch):                  # in the child: a load that would take a minute
    open(sys.argv[1] + ".tmp", "w").write(str(os.getpid()))
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    time.sleep(60)

keras_child.freeze(sys.argv[2], load)
"""


def test_the_child_ends_when_the_command_is_killed(tmp_path):
    """Regression: the Keras child (a fork of the command; here its load sleeps) runs in a
    group of its own and the command keeps its time limit, so a command killed mid-load
    (`timeout 60 graphdef-inspector summarize m.keras` sends SIGTERM) left the child loading
    (and legacy Keras's process under it) until the load ended by itself. The child ends
    with its group once the command is gone."""
    import signal
    import time

    import psutil

    pid_file = str(tmp_path / "child.pid")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "")
                                                  .split(os.pathsep) if p])
    command = subprocess.Popen([sys.executable, "-c", CHILD_OF_A_KILLED_COMMAND, pid_file,
                                os.path.join(DATA, "tiny.keras")], cwd=ROOT, env=env)
    child = None
    try:
        end = time.monotonic() + 120
        while not os.path.exists(pid_file):
            assert command.poll() is None and time.monotonic() < end, "no child loaded"
            time.sleep(0.1)
        child = psutil.Process(int(open(pid_file).read()))
        command.send_signal(signal.SIGKILL)
        command.wait(10)
        end = time.monotonic() + 10
        while _alive(child):
            assert time.monotonic() < end, "the child outlived the command"
            time.sleep(0.1)
    finally:
        if command.poll() is None:
            command.kill()
        if child is not None and _alive(child):
            child.kill()


def _alive(process) -> bool:
    import psutil

    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


INTERRUPTED_MID_LOAD = """
import os, sys, time
from inspector.core.tf import freeze

def load(path, watch):                  # in the child: a load that would take two minutes
    open(sys.argv[1] + ".tmp", "w").write(str(os.getpid()))
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    time.sleep(120)

freeze.freeze_keras_here = load
from inspector.launcher import main
sys.exit(main(["summarize", sys.argv[2]]))
"""


def test_ctrl_c_during_a_keras_load_stops_the_command_and_its_child(tmp_path):
    """The review's report: `summarize x.h5 & sleep 2.5; kill -INT $!` in a script went on
    to exit 0 with the whole output. That is the shell, not the command: a non-interactive
    shell starts `&` commands with SIGINT ignored (SigIgn in /proc/PID/status; `sleep 30 &
    kill -INT $!` does not stop sleep either), and a process that inherits SIGINT ignored
    keeps it so. With SIGINT as a terminal's Ctrl-C leaves it (default), the command acts on
    it mid-load: 'interrupted', exit 130 (main's KeyboardInterrupt), and the Keras child
    (its own process group: Ctrl-C does not reach it) is stopped with its group. Passes on
    the old code too: this pins it (the load here sleeps, so the signal lands mid-load)."""
    import signal
    import time

    import psutil

    pid_file = str(tmp_path / "child.pid")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "")
                                                  .split(os.pathsep) if p])
    command = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_MID_LOAD, pid_file, os.path.join(DATA, "tiny.h5")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal's
    child = None
    try:
        end = time.monotonic() + 120
        while not os.path.exists(pid_file):
            assert command.poll() is None and time.monotonic() < end, "no child loaded"
            time.sleep(0.1)
        child = psutil.Process(int(open(pid_file).read()))
        command.send_signal(signal.SIGINT)
        out, err = command.communicate(timeout=30)     # generous: the load sleeps 120 s
        assert command.returncode == 130, (command.returncode, err[-2000:])
        assert err.splitlines()[-1] == "graphdef-inspector: interrupted" and out == "", err
        assert "Traceback" not in err, err[-2000:]
        end = time.monotonic() + 10
        while _alive(child):
            assert time.monotonic() < end, "the Keras child outlived the interrupted command"
            time.sleep(0.1)
    finally:
        if command.poll() is None:
            command.kill()
        if child is not None and _alive(child):
            child.kill()
