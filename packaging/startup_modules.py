"""The Python modules the app has imported when it has drawn its first picture (the demo
model, offscreen), one per line: packaging/build.sh writes them to the build's stage and the
PyInstaller spec stores them uncompressed in the archive (inflating them cost ~15 % of a
frozen start: bench/startup_bench.py). Run from the build's virtualenv with the source tree
on sys.path:

  python packaging/startup_modules.py OUT.txt"""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    sys.path.insert(0, ROOT)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ["INSPECTOR_EXIT_AFTER_FIRST_FRAME"] = "1"
    os.environ["INSPECTOR_SINGLE_INSTANCE"] = "0"
    os.environ.setdefault("INSPECTOR_SETTINGS", os.path.join(
        os.path.dirname(os.path.abspath(out)), "startup-modules-settings.ini"))
    from inspector.gui import app

    seen: list = []
    real = app.exit_after_first_frame

    def exit_after(window, qapp):
        real(window, qapp)
        # installed after the app's own: its filter sees the paint first, so this runs
        # before the app quits
        app.on_first_picture(window, lambda: seen.extend(sorted(sys.modules)))

    app.exit_after_first_frame = exit_after
    code = app.main([])
    if code or not seen:
        print(f"startup_modules: the app did not draw its first picture ({code})",
              file=sys.stderr)
        return 1
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("".join(f"{name}\n" for name in seen))
    print(f"startup_modules: {len(seen)} modules -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
