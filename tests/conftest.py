"""Shared fixtures: real TensorFlow graphs built once per fixture-builder version and cached."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from inspector.core.tf.executor import install  # noqa: E402
from tests.fixtures import fixture_dir  # noqa: E402,F401  (the session fixture below)

install()  # core functions called by the tests run TensorFlow in this process

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "resources", "demo_digits.pb")


@pytest.fixture(scope="session")
def fx() -> str:
    """Folder of fixture models (built with TensorFlow on first use)."""
    return fixture_dir()


@pytest.fixture
def model(fx, tmp_path) -> str:
    """A private copy of the Inception-style fixture (sessions and logs are written beside it)."""
    import shutil

    path = tmp_path / "inception.pb"
    shutil.copy(os.path.join(fx, "inception_jpeg.pb"), path)
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
def window(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.tasks.cancel()
    win.tasks.wait(10.0)
