"""Built-in diagnostics: `graphdef-inspector --version` and `--info` (no Qt window, no
TensorFlow import: TensorFlow's version is read from its installed metadata)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys

VERSION = "0.1.0"          # pyproject.toml's [project] version (a test keeps them equal)
APP_ID = "graphdef-inspector"


def frozen() -> bool:
    """Running from a PyInstaller build (not a source checkout or a pip install)."""
    return bool(getattr(sys, "frozen", False))


def bundle_dir() -> str | None:
    """Where a frozen build keeps its files (`_internal`), else None."""
    return getattr(sys, "_MEIPASS", None) if frozen() else None


def flavour() -> str:
    """'light' or 'full' for a build (written by packaging/build.sh), 'source' otherwise."""
    folder = bundle_dir()
    if folder:
        try:
            with open(os.path.join(folder, "flavour.txt"), encoding="utf-8") as fh:
                return fh.read().strip() or "unknown"
        except OSError:
            return "unknown"
    return "source"


def config_dir() -> str:
    """Where the app's settings live (QSettings' file: `graphdef-inspector/inspector.conf`)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    return os.path.join(base, APP_ID)


def cache_dir() -> str:
    """Cached models and the crash log: `$XDG_CACHE_HOME/graphdef-inspector`."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, APP_ID)


def _dist_version(*names: str) -> str | None:
    import importlib.metadata as metadata  # ~25 ms: not at the app's start (crash log, icon)

    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def _module_version(module: str, *dists: str) -> str:
    """The version of an importable module, without importing it where that is slow."""
    try:
        if importlib.util.find_spec(module) is None:
            return "not available"
    except (ImportError, ValueError):
        return "not available"
    return _dist_version(*dists) or "available (version unknown)"


def qt_versions() -> tuple[str, str]:
    """(PySide6, Qt) versions, or 'not available'."""
    try:
        import PySide6
        from PySide6 import QtCore
    except ImportError:
        return "not available", "not available"
    return PySide6.__version__, QtCore.qVersion()


def tensorflow_version() -> str:
    """TensorFlow's version, 'not available', or 'hidden' (INSPECTOR_HIDE=tf in tests)."""
    if "tensorflow" in sys.modules and getattr(sys.modules["tensorflow"], "__version__", None):
        return sys.modules["tensorflow"].__version__
    return _module_version("tensorflow", "tensorflow-cpu", "tensorflow", "tf-nightly")


def info() -> dict:
    """Everything `--info` prints, as (label -> text)."""
    import platform

    import numpy
    from google import protobuf

    pyside, qt = qt_versions()
    worker_python = os.environ.get("INSPECTOR_TF_PYTHON")
    return {
        "GraphDef Inspector": VERSION,
        "flavour": flavour(),
        "frozen": "yes" if frozen() else "no",
        "executable": sys.executable,
        "Python": f"{platform.python_version()} ({platform.python_implementation()})",
        "platform": f"{platform.system()} {platform.release()} {platform.machine()}",
        "Qt": qt,
        "PySide6": pyside,
        "protobuf": protobuf.__version__,
        "numpy": numpy.__version__,
        "TensorFlow": tensorflow_version(),
        "TensorFlow worker Python": worker_python or "this one (--tf-python PATH to change)",
        "config dir": config_dir(),
        "cache dir": cache_dir(),
        "crash log": os.path.join(cache_dir(), "crash.log"),
        "network": "never used (no telemetry, no update checks, no expiry)",
    }


def info_text() -> str:
    rows = info()
    width = max(len(k) for k in rows)
    return "".join(f"{k + ':':<{width + 1}} {v}\n" for k, v in rows.items())


def version_text() -> str:
    return f"graphdef-inspector {VERSION} ({flavour()}{', frozen' if frozen() else ''})\n"


RUNTIME_DISTS = ("numpy", "protobuf", "tensorboard", "networkx", "pillow",
                 "PySide6-Essentials", "shiboken6", "pyqtgraph", "psutil", "tensorflow-cpu",
                 "tensorflow", "keras", "ai-edge-litert")


def source_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bundled_parts() -> list:
    """[{name, version, licence}] of what this app runs on: a build's licenses/bundled.json
    (written by packaging/collect_licenses.py), else the installed distributions."""
    folder = bundle_dir()
    if folder:
        try:
            with open(os.path.join(folder, "licenses", "bundled.json"), encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return []
    import importlib.metadata as metadata
    import platform

    rows = []
    for name in RUNTIME_DISTS:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        meta = dist.metadata
        licence = meta.get("License-Expression") or next(
            (c.split(" :: ")[-1] for c in meta.get_all("Classifier") or []
             if c.startswith("License ::")), None) or (meta.get("License") or "?")[:60]
        rows.append({"name": meta["Name"], "version": dist.version, "licence": licence})
    pyside, qt = qt_versions()
    if qt != "not available":
        rows.append({"name": "Qt", "version": qt, "licence": "LGPL-3.0-only"})
    rows.append({"name": "CPython", "version": platform.python_version(), "licence": "PSF-2.0"})
    return rows


def licences_dir() -> str | None:
    folder = bundle_dir()
    return os.path.join(folder, "licenses") if folder else None


def _icons_dir() -> str:
    """A build's icons/, or packaging/linux/icons in a checkout."""
    folder = bundle_dir()
    return os.path.join(folder, "icons") if folder else os.path.join(
        source_root(), "packaging", "linux", "icons")


def icon_path() -> str | None:
    """The app icon's SVG."""
    path = os.path.join(_icons_dir(), "graphdef-inspector.svg")
    return path if os.path.exists(path) else None


def window_icon_files() -> list:
    """The icon's PNGs, 16 to 256 px (the 16 px one drawn for that size): the window's icon
    without loading Qt's SVG plugin and library at start."""
    paths = [os.path.join(_icons_dir(), f"graphdef-inspector-{size}.png")
             for size in (16, 22, 24, 32, 48, 64, 128, 256)]
    return [p for p in paths if os.path.exists(p)]
