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
