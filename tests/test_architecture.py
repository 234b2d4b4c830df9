"""Import rules: core is Qt-free, TensorFlow only in the bridge, opening a .pb stays light, and
the core's tests (tests/core) pass with neither TensorFlow nor Qt installed."""

import os
import re
import subprocess
import sys

from conftest import ROOT


def test_import_linter_contracts_hold():
    exe = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    proc = subprocess.run([exe, "--config", os.path.join(ROOT, "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 broken" in proc.stdout and "kept" in proc.stdout
    assert "layers" in open(os.path.join(ROOT, "pyproject.toml")).read()


def test_opening_a_pb_does_not_import_tensorflow(fx):
    code = ("import sys; from inspector.core.loaders import load; "
            "from inspector.core.analysis.summary import summarize; "
            f"m = load({os.path.join(fx, 'mobilenet_v2.pb')!r}); summarize(m.graph); "
            "print(len(m.graph)); "
            "bad = [k for k in sys.modules if k.split('.')[0] in "
            "('tensorflow', 'keras', 'PySide6')]; print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert int(proc.stdout.split()[0]) > 500


HEADLESS_MIN_PASSED = 300   # tests/core holds ~380 tests; a pass that runs far fewer is wrong


def test_the_core_tests_pass_without_tensorflow_or_qt():
    """The headless pass: all of tests/core, with TensorFlow, Keras and Qt hidden (a CLI-only
    install without TensorFlow). Its models are the committed ones in tests/core/data; tests
    marked `heavy` are left to the full suite."""
    env = dict(os.environ, INSPECTOR_HIDE="qt,tf", TF_CPP_MIN_LOG_LEVEL="3",
               PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "tests", "no_qt")]))
    env.pop("QT_QPA_PLATFORM", None)
    probe = ("import importlib\nfor name in ('tensorflow', 'keras', 'tf_keras', 'PySide6'):\n"
             "    try:\n        importlib.import_module(name)\n"
             "    except ModuleNotFoundError:\n        print('hidden', name)\n")
    hidden = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                            capture_output=True, text=True).stdout.split()
    assert hidden.count("hidden") == 4, hidden      # the hide-list is in effect
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:pytest-qt",
                           "-p", "no:cacheprovider", "-m", "not heavy", "tests/core"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    passed = re.search(r"(\d+) passed", proc.stdout)
    assert passed and int(passed.group(1)) > HEADLESS_MIN_PASSED, proc.stdout[-1000:]


def test_no_import_cycles_even_through_function_local_imports():
    """Every import counts, also those inside functions (kept there for start-up speed):
    a cycle hidden in a function breaks the day someone moves the import to the top."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph("inspector", include_external_packages=False)
    edges = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            edges.add_edge(module, imported)
    cycles = [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]
    assert cycles == []


def _forbidden_for(source: str) -> tuple:
    """(the forbidden modules of the contract whose only source is `source`, its ignore list,
    every folder of the core)."""
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        contracts = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c.get("source_modules") == [source]]
    domain = {f"inspector.core.{p}" for p in os.listdir(os.path.join(ROOT, "inspector", "core"))
              if os.path.isdir(os.path.join(ROOT, "inspector", "core", p, ""))
              and not p.startswith("__")}
    return set(contract["forbidden_modules"]), contract.get("ignore_imports", []), domain


def test_the_command_line_enters_the_core_through_core_app_with_no_exception():
    """inspector.cli imports only core.app, core.errors and core.runtime: the contract forbids
    every other folder of the core and ignores no import."""
    forbidden, ignored, domain = _forbidden_for("inspector.cli")
    assert forbidden == domain - {"inspector.core.app", "inspector.core.errors",
                                  "inspector.core.runtime"}
    assert ignored == []


def test_the_window_enters_the_core_through_core_app_and_draws_with_core_view():
    """inspector.gui imports only core.app, core.view, core.errors and core.runtime (as
    docs/ARCHITECTURE.md says): the contract forbids every other folder of the core (it
    left out core.compare)."""
    forbidden, ignored, domain = _forbidden_for("inspector.gui")
    assert forbidden == domain - {"inspector.core.app", "inspector.core.view",
                                  "inspector.core.errors", "inspector.core.runtime"}
    assert ignored == []
