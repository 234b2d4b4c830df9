# Run-time hook of the frozen build, run before PyInstaller's own (which import PySide6):
# shiboken's support modules, compiled at build time (packaging/shiboken_code.py), are handed
# over when shiboken compiles their source at start-up, instead of being compiled again. Only
# an exact match of file name, source and `from __future__` flags is served; anything else is
# compiled as before (with its caller's flags), and the hook takes itself out once every
# recorded module has been served.


def _serve_shiboken_code(path):
    import __future__

    import builtins
    import marshal
    import sys

    try:
        with open(path, "rb") as f:
            table = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(table, dict) or not table:
        return None
    real = builtins.compile
    future = 0
    for name in __future__.all_feature_names:
        future |= getattr(__future__, name).compiler_flag

    def compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1,  # noqa: A001
                **kwargs):
        if not dont_inherit:     # the caller's `from __future__` flags, as compile() takes them
            flags |= sys._getframe(1).f_code.co_flags & future
        hit = table.get(filename) if isinstance(filename, str) else None
        if hit is not None and mode == "exec" and optimize == -1 and not kwargs \
                and len(hit) == 3 and hit[2] == flags and hit[0] == source:
            del table[filename]
            if not table:
                builtins.compile = real
            return marshal.loads(hit[1])
        return real(source, filename, mode, flags, True, optimize, **kwargs)

    builtins.compile = compile
    return table


def _install():
    import os
    import sys

    base = getattr(sys, "_MEIPASS", None)
    if base:
        _serve_shiboken_code(os.path.join(base, "shiboken-code.bin"))


_install()
