"""`diff A B` ends its process through launcher.quick_exit once the report is written and
flushed (a 100k-node pair's graphs, matching and entries took ~0.3 s to free one by one), unless
TensorFlow was loaded (`diff --numeric`: its own exit handlers run); the report and the exit
code are whole either way."""

import os
import subprocess
import sys

from conftest import ROOT

PROBE = ("import os, sys, types\n"
         "real = os._exit\n"
         "def seen(code):\n"
         "    sys.stderr.write(f'quick exit {code}\\n'); sys.stderr.flush(); real(code)\n"
         "os._exit = seen\n"
         "if sys.argv[1] == 'tf':\n"
         "    sys.modules['tensorflow'] = types.ModuleType('tensorflow')\n"
         "sys.argv = ['graphdef-inspector', 'diff'] + sys.argv[2:]\n"
         "from inspector.launcher import main\n"
         "sys.exit(main())\n")


def _diff(data, tf: str, *flags) -> subprocess.CompletedProcess:
    a, b = (os.path.join(data, n) for n in ("v1_training.pb", "while_v1.pb"))
    return subprocess.run([sys.executable, "-c", PROBE, tf, a, b, *flags],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_diff_ends_its_process_without_freeing_the_graphs(data):
    quick, slow = _diff(data, "no tf", "--no-flops"), _diff(data, "tf", "--no-flops")
    assert quick.returncode == slow.returncode == 1, quick.stderr + slow.stderr
    assert "quick exit 1" in quick.stderr and "quick exit" not in slow.stderr
    assert quick.stdout == slow.stdout and quick.stdout.startswith("Comparing ")
    assert quick.stdout.rstrip().endswith("disagree")
    as_json = _diff(data, "no tf", "--json")        # (FLOPs on: the default)
    assert "quick exit 1" in as_json.stderr and as_json.stdout.rstrip().endswith("}")


HELD = ("import os, sys, weakref\n"
        "import inspector.cli.compare as compare\n"
        "made = []\n"
        "build = compare.build_diff\n"
        "def kept(args):\n"
        "    out = build(args)\n"
        "    made.extend(weakref.ref(x) for x in (out[0], out[2]))\n"
        "    return out\n"
        "compare.build_diff = kept\n"
        "real = os._exit\n"
        "def seen(code):\n"
        "    alive = [r() is not None for r in made]\n"
        "    sys.stderr.write(f'alive at exit {alive}\\n'); sys.stderr.flush(); real(code)\n"
        "os._exit = seen\n"
        "sys.argv = ['graphdef-inspector', 'diff'] + sys.argv[1:]\n"
        "from inspector.launcher import main\n"
        "sys.exit(main())\n")


def test_the_diff_and_its_graphs_are_not_freed_before_the_quick_exit(data):
    """The diff and graph B live until os._exit ends the process: freed one by one when the
    command returned, a 300k-node pair's took ~0.35 s (~1 s on the slow class)."""
    a, b = (os.path.join(data, n) for n in ("v1_training.pb", "while_v1.pb"))
    run = subprocess.run([sys.executable, "-c", HELD, a, b, "--no-flops"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 1, run.stderr
    assert "alive at exit [True, True]" in run.stderr, run.stderr
    assert run.stdout.startswith("Comparing ")


def test_a_diff_run_in_process_holds_nothing_past_its_return(data, capsys):
    """main([...]) called by a caller (tests, scripts) does not end the process: it holds
    nothing past its return."""
    from inspector.core.runtime import gc_policy
    from inspector.launcher import main

    a, b = (os.path.join(data, n) for n in ("v1_training.pb", "while_v1.pb"))
    assert main(["diff", a, b, "--no-flops"]) == 1
    assert not gc_policy.HOLD_TILL_EXIT and not gc_policy._held
    assert capsys.readouterr().out.startswith("Comparing ")
