"""Shared fixtures for tests/core, tests/cli, tests/tf and tests/gui.

`data`: the small models committed in tests/core/data (no TensorFlow needed to read them; see
its MANIFEST.json). `fx`: real TensorFlow graphs built once per fixture-builder version and
cached; tests/core never uses it (checked at collection)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# sessions the app writes for read-only or packaged models (the demo's) go to the data
# folder: the test run's own, for every test and every app or CLI it starts, never the
# tester's (a demo session with a marked output, left there by one run, changed another's
# answers)
_DATA_HOME = tempfile.mkdtemp(prefix="inspector-tests-xdg-data-")
os.environ["XDG_DATA_HOME"] = _DATA_HOME

TESTS = os.path.dirname(os.path.abspath(__file__))
# every Python this run starts (`python tests/gui/app_*.py`, workers, children) imports this
# checkout's `inspector`, not whichever tree the venv's editable install points at: a helper's
# worktree or a CI dry run's clone tested main's code through the scripts, and deleting that
# tree made them fail with "No module named 'inspector'"
os.environ["PYTHONPATH"] = os.pathsep.join(
    [os.path.dirname(TESTS)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                if p and p != os.path.dirname(TESTS)])
FOLDERS = ("core", "cli", "tf", "gui")
# helpers are shared by module name (`from test_gui import open_and_wait`) whatever folder
# the importing test is in; pytest itself imports each test file under its own name
for _folder in FOLDERS:
    if os.path.join(TESTS, _folder) not in sys.path:
        sys.path.insert(1, os.path.join(TESTS, _folder))

from inspector.core.tf.executor import install  # noqa: E402
from tests.fixtures import cache_root, fixture_dir  # noqa: E402,F401  (the fixtures below)

install()  # core functions called by the tests run TensorFlow in this process

ROOT = os.path.dirname(TESTS)
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
DATA = os.path.join(TESTS, "core", "data")


def pytest_configure(config):
    config.addinivalue_line("markers", "heavy(reason): too slow for the headless pass of "
                            "tests/core (tests/test_architecture.py); runs in the full suite")


def pytest_collection_modifyitems(config, items):
    """tests/core runs without TensorFlow: its tests read tests/core/data, never `fx`."""
    core = os.path.join(TESTS, "core") + os.sep
    wrong = [item.nodeid for item in items
             if str(item.path).startswith(core) and "fx" in getattr(item, "fixturenames", ())]
    if wrong:
        raise pytest.UsageError("tests in tests/core use the `fx` fixture (models built with "
                                "TensorFlow); use `data` (tests/core/data): " + ", ".join(wrong))


def _shared_sessions() -> list:
    import glob

    return glob.glob(os.path.join(glob.escape(cache_root()), "**", "*.inspector.json"),
                     recursive=True)


@pytest.fixture(autouse=True)
def no_session_beside_shared_fixtures():
    """The window writes a model's session beside it (marks, pipeline, the scopes left
    open): a test that opens a cached fixture in place must not leave one there for the
    next test, or the next run, to restore (a scope left open by one test made another's
    first double-click close it). Each test starts and ends without them (another test run
    on the same machine may have removed one between the listing and the removal)."""
    for path in _shared_sessions():
        _remove_if_there(path)
    yield
    for path in _shared_sessions():
        _remove_if_there(path)


def _remove_if_there(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


@pytest.fixture(scope="session")
def data() -> str:
    """Folder of the small committed models (tests/core/data, made by its make.py)."""
    return DATA


@pytest.fixture(scope="session")
def fx() -> str:
    """Folder of fixture models (built with TensorFlow on first use)."""
    return fixture_dir()


@pytest.fixture
def model(tmp_path) -> str:
    """A private copy of the Inception-style model (sessions and logs are written beside it)."""
    import shutil

    path = tmp_path / "inception.pb"
    shutil.copy(os.path.join(DATA, "inception_jpeg.pb"), path)
    return str(path)


@pytest.fixture(scope="session")
def demo_model() -> str:
    return DEMO


def run_cli(*args, cwd=None):
    """Run the CLI in a subprocess: (exit code, stdout, stderr)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, env=env, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow

    # the demo's session goes to the user's data folder: a test's own, not the tester's
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.tasks.cancel()
    win.tasks.wait(10.0)
