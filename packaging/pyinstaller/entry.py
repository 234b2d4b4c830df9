"""The frozen build's entry point: `graphdef-inspector ...` as from a source install.

The app starts its helper processes as `sys.executable -c CODE ...` (the TensorFlow worker)
and `sys.executable -m MODULE ...` (the big-model reader, the calibration run); in a frozen
build sys.executable is this program, so it answers those two forms as Python would."""

import os
import sys


def python_compatible() -> None:
    if sys.argv[1:2] == ["-P"] and sys.argv[2:3] in (["-c"], ["-m"]):
        # -P (no unsafe path: the legacy Keras reader): a build's sys.path never holds the
        # working folder or a script's, so it is Python's default here already
        del sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[1] in ("-c", "-m"):
        from inspector.offline import install_if_asked

        install_if_asked()    # the worker and reader processes of an offline test too
    if len(sys.argv) > 2 and sys.argv[1] == "-c":
        code = sys.argv[2]
        sys.argv = ["-c", *sys.argv[3:]]
        sys.path.insert(0, "")            # as `python -c` does (the worker deletes it)
        exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
        sys.exit(0)
    if len(sys.argv) > 2 and sys.argv[1] == "-m":
        import runpy

        module = sys.argv[2]
        sys.argv = [module, *sys.argv[3:]]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        sys.exit(0)


if __name__ == "__main__":
    # PySide6 is imported already (PyInstaller's run-time hook), in the window's process and
    # in its helpers (the TensorFlow worker, the reader): from here on no imported module's
    # source is read for PySide's feature check (inspector/gui/startup/feature_checks.py)
    from inspector.gui.startup.feature_checks import make_feature_checks_cheap, plain_imports

    make_feature_checks_cheap()
    plain_imports()
    python_compatible()
    os.environ.setdefault("INSPECTOR_FROZEN", "1")
    from inspector.launcher import main

    sys.exit(main())
