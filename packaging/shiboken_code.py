"""PySide's support code compiled once, at build time. shiboken6 carries its Python support
package (shibokensupport: signatures, enums, features) as source inside its library and
compiles it at every start (~12 ms here, ~50 ms on the slow machine class: a quarter of
importing PySide6). This records each module's source and code object; the frozen build's
run-time hook (pyinstaller/rth_shiboken_code.py) hands the code over when shiboken asks to
compile that very source. Run from the build's virtualenv (its Python is the build's):

  python packaging/shiboken_code.py OUT.bin"""

from __future__ import annotations
import __future__

import builtins
import marshal
import os
import sys

FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag


def record() -> dict:
    """{file name: (source, marshalled code, future flags)} of every module shiboken compiles
    as it starts. compile() takes the `from __future__` flags of the code calling it: those of
    shiboken's caller are passed on explicitly and kept (not this module's own)."""
    if "shiboken6" in sys.modules:
        raise RuntimeError("shiboken6 is imported already: its support code is compiled")
    real = builtins.compile
    seen = {}

    def recording(source, filename, mode, *args, **kwargs):
        if (isinstance(filename, str) and filename.startswith("shibokensupport/")
                and mode == "exec" and not args and not kwargs):
            flags = sys._getframe(1).f_code.co_flags & FUTURE_FLAGS
            code = real(source, filename, mode, flags, True)
            seen[filename] = (source, marshal.dumps(code), flags)
            return code
        return real(source, filename, mode, *args, **kwargs)

    builtins.compile = recording
    try:
        import shiboken6  # noqa: F401
    finally:
        builtins.compile = real
    return seen


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    seen = record()
    if not seen:
        print("shiboken_code: shiboken6 compiled no support module (a PySide6 that ships "
              "them compiled?): nothing to record", file=sys.stderr)
    tmp = sys.argv[1] + ".tmp"
    with open(tmp, "wb") as f:
        f.write(marshal.dumps(seen))
    os.replace(tmp, sys.argv[1])
    print(f"shiboken_code: {len(seen)} modules, {os.path.getsize(sys.argv[1]) // 1024} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
