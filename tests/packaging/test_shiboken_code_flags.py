"""packaging/shiboken_code.py records the code objects shiboken itself would compile. Python's
compile() takes the `from __future__` flags of the code calling it: shiboken's compile sits in
signature_bootstrap.py (annotations), but the recorder's compile is called from the recorder's
own wrapper, so a module without its own `from __future__ import annotations`
(shibokensupport/signature/lib/pyi_generator.py) gets whatever shiboken_code.py imports. This
holds the two equal: the code served at start-up is the code shiboken would have made."""

from __future__ import annotations
import __future__

import marshal
import subprocess
import sys

from conftest import ROOT

FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag


def _bootstrap_flags() -> int:
    """The `from __future__` flags shiboken's own compile() call passes on."""
    import PySide6.QtCore  # noqa: F401  (shiboken's support modules, from its zip)

    zfile = sys.modules["shibokensupport.feature"].__loader__.zfile
    source = zfile.open("signature_bootstrap.py").read()
    return compile(source, "signature_bootstrap.py", "exec", dont_inherit=True).co_flags \
        & FUTURE_FLAGS


def test_recorded_code_is_what_shibokens_own_compile_makes(tmp_path):
    out = tmp_path / "shiboken-code.bin"
    proc = subprocess.run([sys.executable, f"{ROOT}/packaging/shiboken_code.py", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    table = marshal.loads(out.read_bytes())
    flags = _bootstrap_flags()
    differ = [name for name, (source, code, recorded) in table.items()
              if recorded != flags or marshal.loads(code) != compile(
                  source, name, "exec", flags=flags, dont_inherit=True)]
    assert table
    assert differ == []
