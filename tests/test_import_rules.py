"""Heavy modules (numpy, pyqtgraph, TensorFlow, ...: pyproject's banned-module-level-imports)
are imported inside the function that needs them, never at a module's top, except in the
modules pyproject names as off the first picture's path. Ruff's TID253 checks it when the venv
has ruff; else this file checks the same rule, read from the same table, with the ast module."""

from __future__ import annotations

import ast
import fnmatch
import os
import shutil
import subprocess
import sys
import tomllib

from conftest import ROOT


def _config() -> tuple[list, dict]:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        lint = tomllib.load(f)["tool"]["ruff"]["lint"]
    return lint["flake8-tidy-imports"]["banned-module-level-imports"], \
        {k: v for k, v in lint["per-file-ignores"].items() if "TID253" in v}


def _sources() -> list:
    out = []
    for folder, _, files in os.walk(os.path.join(ROOT, "inspector")):
        out += [os.path.relpath(os.path.join(folder, f), ROOT) for f in files if f.endswith(".py")]
    return sorted(out)


def _is_type_checking(node) -> bool:
    test = node.test
    return isinstance(node, ast.If) and (getattr(test, "id", "") == "TYPE_CHECKING" or
                                         getattr(test, "attr", "") == "TYPE_CHECKING")


def module_level_imports(source: str) -> list:
    """(line, module) of every import that runs when the module is imported: not inside a
    function, not under `if TYPE_CHECKING:`."""
    found = []

    def walk(nodes):
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(node, ast.If) and _is_type_checking(node):
                walk(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.extend((node.lineno, a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append((node.lineno, node.module))
            walk(ast.iter_child_nodes(node))

    walk(ast.parse(source).body)
    return found


def _banned(module: str, banned: list) -> bool:
    return any(module == b or module.startswith(b + ".") for b in banned)


def _ignored(path: str, ignores: dict) -> bool:
    return any(fnmatch.fnmatch(path, pattern) for pattern in ignores)


def test_heavy_modules_are_imported_where_they_are_needed():
    banned, ignores = _config()
    assert "numpy" in banned and "pyqtgraph" in banned and "tensorflow" in banned
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable))
    if ruff:
        proc = subprocess.run([ruff, "check", "--select", "TID253", "--no-cache", "inspector"],
                              cwd=ROOT, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    bad = []
    for path in _sources():
        if _ignored(path, ignores):
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            bad += [f"{path}:{line} imports {m} at its top"
                    for line, m in module_level_imports(f.read()) if _banned(m, banned)]
    assert bad == []


def test_each_module_allowed_a_heavy_import_at_its_top_still_has_one():
    """The exceptions only shrink: a module that no longer needs one leaves the list."""
    banned, ignores = _config()
    stale = []
    for pattern in ignores:
        if "*" in pattern:
            continue
        with open(os.path.join(ROOT, pattern), encoding="utf-8") as f:
            source = f.read()
        if not any(_banned(m, banned) for _, m in module_level_imports(source)) and \
                not any(_listed(m, ignores) for m in _top_modules(source)):
            stale.append(pattern)
    assert stale == []


def _top_modules(source: str) -> list:
    """The modules a module's top imports, with `from package import module`'s modules."""
    lines = {line for line, _ in module_level_imports(source)}
    out = [m for _, m in module_level_imports(source)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.lineno in lines and node.module:
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def _listed(module: str, ignores: dict) -> bool:
    """`module` is one of ours that pyproject lets import a heavy module at its top."""
    base = os.path.join(*module.split("."))
    return module.startswith("inspector.") and any(
        _ignored(f, ignores) for f in (base + ".py", os.path.join(base, "__init__.py")))


def test_a_module_that_imports_a_listed_one_at_its_top_is_listed_too():
    """A module pyproject lets import a heavy module at its top is heavy itself (importing it
    imports numpy, TensorFlow, ...): a module importing it at its top is listed too, or
    imports it inside the function that needs it."""
    banned, ignores = _config()
    bad = []
    for path in _sources():
        if _ignored(path, ignores):
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            bad += [f"{path} imports {m} at its top" for m in _top_modules(f.read())
                    if _listed(m, ignores)]
    assert bad == []


def test_the_rule_sees_what_it_should():
    src = ("import os\nimport numpy as np\nfrom typing import TYPE_CHECKING\n"
           "if TYPE_CHECKING:\n    import pyqtgraph\n"
           "try:\n    from PIL import Image\nexcept ImportError:\n    pass\n"
           "def f():\n    import scipy\n"
           "class C:\n    import psutil\n")
    assert [m for _, m in module_level_imports(src)] == ["os", "numpy", "typing", "PIL",
                                                          "psutil"]
