"""packaging/shiboken_code.py and the frozen build's run-time hook: shiboken's support modules
are compiled once at build time and handed over at start-up when shiboken compiles that very
source; anything else (another source, another file) is compiled as before."""

from __future__ import annotations

import json
import marshal
import subprocess
import sys

from conftest import ROOT

# the run-time hook as the frozen build runs it (sys._MEIPASS = the folder holding the table),
# then PySide imported; reports what was compiled for real
AFTER_HOOK = r"""
import builtins, json, runpy, sys
compiled = []
real = builtins.compile
def counting(source, filename, *args, **kwargs):
    compiled.append(filename)
    return real(source, filename, *args, **kwargs)
builtins.compile = counting
sys._MEIPASS = sys.argv[1]
runpy.run_path(sys.argv[2])
from PySide6 import QtCore
thing = QtCore.QObject()
thing.setObjectName("probe")
print(json.dumps({"compiled": [f for f in compiled if str(f).startswith("shibokensupport/")],
                  "hook gone": builtins.compile is counting,
                  "works": [thing.objectName(), QtCore.Qt.AlignmentFlag.AlignLeft.name,
                            "shibokensupport.signature.loader" in sys.modules]}))
"""
HOOK = f"{ROOT}/packaging/pyinstaller/rth_shiboken_code.py"


def _table(tmp_path):
    out = tmp_path / "shiboken-code.bin"
    proc = subprocess.run([sys.executable, f"{ROOT}/packaging/shiboken_code.py", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


def _start(folder):
    proc = subprocess.run([sys.executable, "-c", AFTER_HOOK, str(folder), HOOK],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_support_modules_are_not_compiled_at_start(tmp_path):
    table = marshal.loads(_table(tmp_path).read_bytes())
    assert "shibokensupport/signature/loader.py" in table and len(table) >= 5
    seen = _start(tmp_path)
    assert seen["compiled"] == []            # every one served from the table
    assert seen["hook gone"] is True         # builtins.compile is itself again
    assert seen["works"] == ["probe", "AlignLeft", True]      # PySide as before


def test_another_source_is_compiled_as_before(tmp_path):
    path = _table(tmp_path)
    table = marshal.loads(path.read_bytes())
    source, code, flags = table["shibokensupport/signature/loader.py"]
    table["shibokensupport/signature/loader.py"] = (source + b"\n# another build\n", code, flags)
    path.write_bytes(marshal.dumps(table))
    seen = _start(tmp_path)
    assert seen["compiled"] == ["shibokensupport/signature/loader.py"]
    assert seen["works"] == ["probe", "AlignLeft", True]


def test_no_table_or_a_broken_one_changes_nothing(tmp_path):
    assert len(_start(tmp_path)["compiled"]) >= 5            # no file: all compiled
    (tmp_path / "shiboken-code.bin").write_bytes(b"\x00not marshal")
    seen = _start(tmp_path)
    assert len(seen["compiled"]) >= 5 and seen["works"] == ["probe", "AlignLeft", True]


# a module with `from __future__ import annotations` compiling code while the hook is still in
# place (an entry never served): compile() must take the caller's flags, not the hook's
INHERITS = r"""
from __future__ import annotations
import builtins, marshal, runpy, sys
sys._MEIPASS = sys.argv[1]
runpy.run_path(sys.argv[2])
assert builtins.compile.__module__ != "builtins"          # still in place
exec(compile("def f(x: Undefined): pass", "<probe>", "exec"))
print("ok")
"""


def test_while_in_place_compile_keeps_the_callers_future_flags(tmp_path):
    (tmp_path / "shiboken-code.bin").write_bytes(marshal.dumps(
        {"shibokensupport/never_asked.py": (b"x = 1\n", marshal.dumps(compile("x = 1", "n",
                                                                              "exec")), 0)}))
    proc = subprocess.run([sys.executable, "-c", INHERITS, str(tmp_path), HOOK],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
