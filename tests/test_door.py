"""Issue 46.2, the door decides: the window's controllers hand work to core.app use cases that
write their results into the state, instead of submitting tasks and calling the analysis
through re-export modules themselves. SUBMITS_IN_GUI may only fall: what is left in gui/ is
layout, view and export tasks. The door's modules (core/app, core/view) are functions, not
re-exports, except the kept vocabularies below."""

from __future__ import annotations

import ast
import os
import re

from conftest import ROOT

SUBMITS_IN_GUI = 7           # tasks.submit( written in inspector/gui: layout, view, export
RE_EXPORT_IMPORTS_IN_GUI = 0  # imports by the window of a re-export module not kept below
KEPT = {   # re-export modules that stay, and why
    "inspector/core/view/vocabulary.py": "the window's presentation words and colours",
    "inspector/core/app/words.py": "the command line's numbers in words (the CLI may not "
                                   "import core.view, and its start imports nothing heavier)",
}


def _sources(*folders):
    for top in folders:
        for folder, _, files in os.walk(os.path.join(ROOT, *top.split("/"))):
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        yield os.path.relpath(path, ROOT).replace(os.sep, "/"), f.read()


def re_export_modules() -> set:
    """Modules of the door that only pass on names: no function or class of their own but
    imports from the package, or a module-level __getattr__ handing out other modules'."""
    found = set()
    for path, text in _sources("inspector/core/app", "inspector/core/view"):
        body = ast.parse(text).body
        defs = {n.name for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        imports = [n for n in body if isinstance(n, ast.ImportFrom) and
                   (n.module or "").startswith("inspector")]
        if "__getattr__" in defs or (imports and not defs and
                                     not path.endswith("__init__.py")):
            found.add(path)
    return found


def test_the_window_submits_fewer_tasks_of_its_own():
    count = sum(text.count("tasks.submit(") for _, text in _sources("inspector/gui"))
    assert count <= SUBMITS_IN_GUI


def test_the_only_re_export_modules_are_the_kept_vocabularies():
    assert re_export_modules() == set(KEPT)


def test_the_window_reaches_the_analysis_through_no_other_re_export():
    left = [path[:-3].replace("/", ".") for path in re_export_modules() - set(KEPT)]
    names = re.compile("|".join(re.escape(m) for m in left)) if left else None
    count = sum(len(names.findall(text)) for _, text in _sources("inspector/gui")) \
        if names else 0
    assert count <= RE_EXPORT_IMPORTS_IN_GUI
