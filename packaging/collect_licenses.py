"""Write the licences of what a build bundles: licenses/bundled.json (name, version, licence
per distribution installed in the build's virtualenv) and each one's licence files.
Run by packaging/build.sh with the build virtualenv's Python:
  collect_licenses.py OUT_DIR                  before PyInstaller (every installed part)
  collect_licenses.py --prune APP_DIR PYZ      after it: drop the parts the build left out"""

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
    # PySide6's wheels carry no licence texts: Qt and PySide6 are LGPL-3.0 (GPL-3.0 text too,
    # as the LGPL refers to it), taken from the system's common licences
    for text in ("LGPL-3", "GPL-3"):
        src = os.path.join("/usr/share/common-licenses", text)
        if os.path.isfile(src):
            for part in ("Qt", "PySide6_Essentials"):
                os.makedirs(os.path.join(out, part), exist_ok=True)
                shutil.copyfile(src, os.path.join(out, part, text))
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


def top_names(dist) -> set:
    try:
        text = dist.read_text("top_level.txt")
    except OSError:
        text = None
    if text:
        return {line.strip() for line in text.splitlines() if line.strip()}
    names = set()
    for f in dist.files or []:
        first = str(f).split("/")[0]
        if not first.endswith((".dist-info", ".data", ".libs")) and first != "..":
            names.add(first[:-3] if first.endswith(".py") else first.split(".")[0])
    return names


def prune(app: str, pyz: str) -> None:
    """Keep only the parts whose modules are in the build (its PYZ archive or its folder)."""
    from PyInstaller.archive.readers import ZlibArchiveReader

    internal = os.path.join(app, "_internal")
    bundled = {n.split(".")[0] for n in ZlibArchiveReader(pyz).toc}
    bundled |= {name.split(".")[0] for name in os.listdir(internal)}
    path = os.path.join(internal, "licenses", "bundled.json")
    rows = json.load(open(path, encoding="utf-8"))
    kept = []
    for row in rows:
        try:
            names = top_names(metadata.distribution(row["name"]))
        except metadata.PackageNotFoundError:
            names = None         # Qt, CPython: always in
        if names is None or names & bundled:
            kept.append(row)
        else:
            shutil.rmtree(os.path.join(internal, "licenses", row["name"]), ignore_errors=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(kept, fh, indent=1)
    print(f"licences: {len(kept)} bundled parts ({len(rows) - len(kept)} left out of the build)")


if __name__ == "__main__":
    if sys.argv[1] == "--prune":
        prune(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1])
