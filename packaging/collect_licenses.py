"""Write the licences of what a build bundles: licenses/bundled.json (name, version, licence
per distribution installed in the build's virtualenv) and each one's licence files.
Run by packaging/build.sh with the build virtualenv's Python: collect_licenses.py OUT_DIR."""

import json
import os
import shutil
import sys
from importlib import metadata

SKIP = {"pip", "setuptools", "wheel", "pyinstaller", "pyinstaller-hooks-contrib", "altgraph",
        "packaging"}


def licence_of(dist) -> str:
    meta = dist.metadata
    text = meta.get("License-Expression") or ""
    if not text:
        classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or []
                       if c.startswith("License ::")]
        text = ", ".join(classifiers) or (meta.get("License") or "").splitlines()[0:1]
        text = text if isinstance(text, str) else (text[0] if text else "see licence files")
    return text[:120]


def main(out: str) -> None:
    os.makedirs(out, exist_ok=True)
    rows = []
    for dist in sorted(metadata.distributions(), key=lambda d: d.metadata["Name"].lower()):
        name = dist.metadata["Name"]
        if name.lower() in SKIP:
            continue
        files = [f for f in dist.files or [] if "licen" in str(f).lower()
                 or "copying" in str(f).lower() or "notice" in str(f).lower()]
        folder = os.path.join(out, name)
        for f in files:
            src = dist.locate_file(f)
            if os.path.isfile(src):
                os.makedirs(folder, exist_ok=True)
                shutil.copyfile(src, os.path.join(folder, os.path.basename(str(f))))
        rows.append({"name": name, "version": dist.version, "licence": licence_of(dist)})
    rows.append({"name": "Qt", "version": _qt_version(), "licence": "LGPL-3.0-only (Qt's "
                 "libraries are separate files in _internal/PySide6/Qt/lib: replaceable)"})
    rows.append({"name": "CPython", "version": sys.version.split()[0],
                 "licence": "PSF-2.0"})
    with open(os.path.join(out, "bundled.json"), "w", encoding="utf-8") as fh:
        json.dump(rows, fh, indent=1)


def _qt_version() -> str:
    try:
        from PySide6 import QtCore
        return QtCore.qVersion()
    except ImportError:
        return "?"


if __name__ == "__main__":
    main(sys.argv[1])
