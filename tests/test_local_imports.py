"""Issue 46.6: an import inside a function stays there only for a reason this file names; the
rest live at their module's top. Counted, with a ceiling that only comes down. The reasons:
- heavy: a module of pyproject's banned-module-level-imports (tests/test_import_rules.py);
- optional: inside a `try` that catches its ImportError (a dependency that may be missing);
- said in place: the import's own line says why (`# noqa: F401` warm-up or registration
  imports, or a comment);
- lazy attribute: a name a module makes on first read (its `__getattr__`: core.model.protos);
- patched by a test: a test replaces the name, the function must read it when it runs;
- by module (the lists below): the first picture's path, the later imports' thread, the
  command line's --help, an entry point's order.
Which module the app imports where and on which thread: tools/import_map.py (the lists'
first two are checked against it by tests/gui/test_local_imports_startup.py)."""

from __future__ import annotations

import ast
import fnmatch
import os
import tomllib

from conftest import ROOT

CEILING = 389    # function-local import statements in inspector/ (754 before issue 46.6)

# On the demo model's first picture (imported before it, on the GUI thread or the start's
# own threads): their local imports keep a module off that path, or keep it on the thread
# that imports it now (the load thread, "inspector-imports"), or after the module that needs
# it (the model's reader forks before Qt is imported).
FIRST_PICTURE = (
    "inspector/cli/loading.py", "inspector/cli/main.py", "inspector/core/analysis/metrics.py",
    "inspector/core/app/cone.py", "inspector/core/app/exports.py",
    "inspector/core/app/inputs.py", "inspector/core/app/marks.py",
    "inspector/core/app/model_tasks.py", "inspector/core/app/opening.py",
    "inspector/core/app/pipeline_runs.py", "inspector/core/app/properties.py",
    "inspector/core/app/session_file.py",
    "inspector/core/app/start.py", "inspector/core/app/state.py",
    "inspector/core/app/workbench.py", "inspector/core/formats/writer.py",
    "inspector/core/loaders/__init__.py", "inspector/core/loaders/readers.py",
    "inspector/core/loaders/sniff.py", "inspector/core/loaders/tfjs.py",
    "inspector/core/model/columns.py", "inspector/core/model/graph.py",
    "inspector/core/model/protos.py", "inspector/core/overlays/registry.py",
    "inspector/crash_log.py", "inspector/diagnostics.py", "inspector/gui/app.py",
    "inspector/gui/controllers/canvas_controller.py",
    "inspector/gui/main_window.py",
    "inspector/gui/panels/properties.py",
    "inspector/gui/startup/window_later.py", "inspector/gui/tf_python.py",
    "inspector/worker/client.py", "inspector/worker/protocol.py",
)

# Imported after the first picture by the later imports' thread (start_order.release): a
# module imported at their top would join what that thread imports while the window answers.
AFTER_FIRST_PICTURE = (
    "inspector/core/analysis/flops.py", "inspector/core/app/compare_runs.py",
    "inspector/core/app/search.py", "inspector/core/app/sizing.py",
    "inspector/core/app/targets.py",
    "inspector/core/app/tflite_check.py", "inspector/core/mobile/quant_metrics.py",
    "inspector/core/mobile/recipes.py", "inspector/core/mobile/targets.py",
    "inspector/gui/controllers/compare_controller.py",
    "inspector/gui/controllers/overlays_controller.py",
    "inspector/gui/controllers/tour_controller.py",
)

# `graphdef-inspector --help` imports every cli module (their parsers), and each subcommand
# imports only its own use case: tests/cli/test_cli_transform_fast.py (no other cli module, no
# numpy), test_diff_identical_cli.py (no parse of identical files), test_first_steps_cli.py.
COMMAND_LINE = (
    "inspector/cli/compare.py", "inspector/cli/explain.py", "inspector/cli/memmapped.py",
    "inspector/cli/mobile.py", "inspector/cli/node_data.py", "inspector/cli/overlays.py",
    "inspector/cli/sizes.py", "inspector/cli/tflite_args.py", "inspector/cli/tour.py",
    "inspector/cli/transform.py", "inspector/core/app/diffing.py",
    "inspector/core/app/transforming.py", "inspector/core/compare/merges.py",
    "inspector/core/compare/provenance.py", "inspector/core/formats/summary_format.py",
    "inspector/core/mobile/target_lists.py", "inspector/core/tf/executor.py",
)

# An entry point whose start sets things up before it imports what follows (the worker's
# stdout and niceness before the TF layer; the smoke test's Qt platform; the launcher's
# subcommand or window).
ENTRY_ORDER = (
    "inspector/gui/startup/smoke.py", "inspector/launcher.py", "inspector/worker/server.py",
)

# (module, name): a test replaces the name where it is defined, the function reads it there
PATCHED = (("inspector/core/app/compare_runs.py", "open_model"),       # tests/gui/test_gui.py
           ("inspector/core/loaders/whole_graphdef.py", "REGISTRY"))  # tests/core/test_readers.py

_CATCHES = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def _heavy() -> tuple:
    """(pyproject's banned module-level imports, the files it lets import one at their top:
    importing such a file imports its heavy module too)"""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        lint = tomllib.load(f)["tool"]["ruff"]["lint"]
    return (lint["flake8-tidy-imports"]["banned-module-level-imports"],
            [k for k, v in lint["per-file-ignores"].items() if "TID253" in v])


def _is_heavy(module: str, heavy: tuple) -> bool:
    banned, exempt = heavy
    if any(module == b or module.startswith(b + ".") for b in banned):
        return True
    base = os.path.join(*module.split("."))
    return module.startswith("inspector.") and any(
        fnmatch.fnmatch(f, p) for f in (base + ".py", os.path.join(base, "__init__.py"))
        for p in exempt)


def _guards_import(node: ast.Try) -> bool:
    for handler in node.handlers:
        if handler.type is None:
            return True
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if any(getattr(t, "id", getattr(t, "attr", "")) in _CATCHES for t in types):
            return True
    return False


def local_imports(source: str) -> list:
    """(import node, optional) of every import inside a function's body (at any depth);
    optional: in the body of a `try` that catches ImportError."""
    found = []

    def walk(node, in_func: bool, optional: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(child, True, False)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                if in_func:
                    found.append((child, optional))
            elif in_func and isinstance(child, ast.Try) and _guards_import(child):
                for stmt in child.body:
                    walk(ast.Module(body=[stmt], type_ignores=[]), True, True)
                for part in (child.handlers, child.orelse, child.finalbody):
                    for stmt in part:
                        walk(ast.Module(body=[stmt], type_ignores=[]), True, optional)
            else:
                walk(child, in_func, optional)

    walk(ast.parse(source), False, False)
    return found


def _module_of(path: str) -> str:
    name = path[:-3].replace(os.sep, ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def _absolute(node: ast.ImportFrom, path: str) -> str:
    if not node.level:
        return node.module
    parts = _module_of(path).split(".")
    if not path.endswith("__init__.py"):
        parts = parts[:-1]
    parts = parts[:len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def _made_on_first_read(module: str, name: str) -> bool:
    """`name` comes from the module's own __getattr__ (it imports something when read)."""
    base = os.path.join(ROOT, *module.split("."))
    path = base + ".py" if os.path.exists(base + ".py") else os.path.join(base, "__init__.py")
    if not module.startswith("inspector.") or not os.path.exists(path):
        return False
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    if not any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body):
        return False
    defined = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in getattr(node, "targets", [getattr(node, "target", None)]):
                defined |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return name not in defined


def reason(path: str, node, optional: bool, line: str, heavy: tuple) -> str | None:
    """Why this local import of module `path` (relative to the repository) stays; None: it
    should move to the module's top."""
    if isinstance(node, ast.Import):
        targets, names = [a.name for a in node.names], []
    else:
        base = _absolute(node, path)
        targets = [base] + [f"{base}.{a.name}" for a in node.names]
        names = [(base, a.name) for a in node.names]
    if any(_is_heavy(t, heavy) for t in targets):
        return "heavy"
    if optional:
        return "optional"
    if "#" in line:
        return "said in place"
    if names and any(_made_on_first_read(*n) for n in names):
        return "lazy attribute"
    if names and any((path, n) in PATCHED for _, n in names):
        return "patched by a test"
    for label, modules in (("first picture", FIRST_PICTURE),
                           ("after the first picture", AFTER_FIRST_PICTURE),
                           ("command line", COMMAND_LINE), ("entry order", ENTRY_ORDER)):
        if path in modules:
            return label
    return None


def _all() -> list:
    """(path, line number, reason) of every function-local import in inspector/."""
    heavy, out = _heavy(), []
    for folder, _, files in os.walk(os.path.join(ROOT, "inspector")):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.relpath(os.path.join(folder, name), ROOT)
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                source = f.read()
            lines = source.splitlines()
            for node, optional in local_imports(source):
                out.append((path, node.lineno,
                            reason(path, node, optional, lines[node.end_lineno - 1], heavy)))
    return out


def test_local_imports_do_not_grow():
    found = _all()
    assert len(found) <= CEILING, (
        f"{len(found)} imports inside functions (ceiling {CEILING}): import at the module's top "
        "unless a reason of tests/test_local_imports.py holds")


def test_each_local_import_has_its_reason():
    bad = [f"{path}:{line}" for path, line, why in _all() if why is None]
    assert bad == [], ("imports inside functions with no reason: move them to the module's "
                       "top, or (when tools/import_map.py shows a start-up path needs it) add "
                       "the module to its list here: " + ", ".join(bad))


def test_the_lists_name_modules_that_still_need_them():
    """A module leaves its list once it has no local import that list explains."""
    used = {(path, why) for path, _, why in _all()}
    stale = [(path, label) for label, modules in (
        ("first picture", FIRST_PICTURE), ("after the first picture", AFTER_FIRST_PICTURE),
        ("command line", COMMAND_LINE), ("entry order", ENTRY_ORDER))
        for path in modules if (path, label) not in used]
    stale += [p for p in PATCHED if (p[0], "patched by a test") not in used]
    assert stale == [], "these modules no longer need their entry: remove it"


def test_the_reasons_are_seen():
    src = ("def f():\n"
           "    import numpy\n"
           "    try:\n"
           "        import h5py_maybe\n"
           "    except ImportError:\n"
           "        pass\n"
           "    import json  # why\n"
           "    from inspector.core.model.protos import step_stats_pb2\n"
           "    from inspector.core.model.protos import varint\n"
           "import os\n")
    found = local_imports(src)
    lines = src.splitlines()
    whys = [reason("inspector/x.py", n, o, lines[n.lineno - 1], (["numpy"], []))
            for n, o in found]
    assert whys == ["heavy", "optional", "said in place", "lazy attribute", None]
