"""The demo model's session (seen on a new-user walk): marking an output on the bundled demo
rewrote the session file shipped inside the package (site-packages, or read-only in a frozen
build). Now the session goes to the user's data folder and comes back from there."""

import glob
import hashlib

import pytest
from PySide6.QtCore import QSettings, Qt
from test_gui import open_and_wait

from conftest import DEMO

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHIPPED = DEMO + ".inspector.json"
NODE = "digits_1/relu1_1/Relu"


def test_marking_the_demo_leaves_the_package_alone_and_comes_back(qtbot, window, tmp_path,
                                                                   monkeypatch):
    from inspector.gui.main_window import MainWindow

    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    shipped = open(SHIPPED, "rb").read()
    digest = hashlib.sha256(shipped).hexdigest()
    open_and_wait(qtbot, window, DEMO)
    assert window.workbench.outputs == ["output"]          # the shipped marks, first open
    window.jump_to(NODE)
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key_O)                 # mark an output, as a user does
    assert window.workbench.outputs == ["output", NODE]
    kept = str(data / "graphdef-inspector" / "sessions" / "*-demo_digits.pb.inspector.json")
    qtbot.waitUntil(lambda: bool(glob.glob(kept)), timeout=10000)
    assert hashlib.sha256(open(SHIPPED, "rb").read()).hexdigest() == digest
    other = MainWindow(QSettings(str(tmp_path / "o.ini"), QSettings.IniFormat))
    qtbot.addWidget(other)
    other.show()
    open_and_wait(qtbot, other, DEMO)
    assert other.workbench.outputs == ["output", NODE]
    assert other.workbench.text == window.workbench.text
    other.tasks.cancel()
    other.tasks.wait(10.0)
    assert hashlib.sha256(open(SHIPPED, "rb").read()).hexdigest() == digest
