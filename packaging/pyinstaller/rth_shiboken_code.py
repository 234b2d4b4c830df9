# Run-time hook of the frozen build, run before PyInstaller's own (which import PySide6):
# shiboken's support modules, compiled at build time (packaging/shiboken_code.py), are handed
# over when shiboken compiles their source at start-up, instead of being compiled again. Only
# an exact match of file name and source is served; anything else is compiled as before, and
# the hook takes itself out once every recorded module has been served.


def _serve_shiboken_code(path):
    import builtins
    import marshal

    try:
        with open(path, "rb") as f:
            table = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(table, dict) or not table:
        return None
    real = builtins.compile

    def compile(source, filename, mode, *args, **kwargs):  # noqa: A001 (stands in for it)
        hit = table.get(filename) if isinstance(filename, str) else None
        if hit is not None and mode == "exec" and not args and not kwargs \
                and hit[0] == source:
            del table[filename]
            if not table:
                builtins.compile = real
            return marshal.loads(hit[1])
        return real(source, filename, mode, *args, **kwargs)

    builtins.compile = compile
    return table


def _install():
    import os
    import sys

    base = getattr(sys, "_MEIPASS", None)
    if base:
        _serve_shiboken_code(os.path.join(base, "shiboken-code.bin"))


_install()
