"""`graphdef-inspector --smoke-test OUT.png` (issue 37): the app end to end in a fresh
process, as CI runs it on the built artifact; here from the source tree with TensorFlow
hidden (the light build's situation)."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def smoke(out, **env):
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "tests", "no_qt"), ROOT]), INSPECTOR_HIDE="tf",
        QT_QPA_PLATFORM="offscreen", **env)
    return subprocess.run([sys.executable, "-m", "inspector", "--smoke-test", str(out)],
                          capture_output=True, text=True, env=environ, timeout=240)


def test_smoke_test_without_tensorflow_exports_a_drawn_png_and_svg(tmp_path):
    out = smoke(tmp_path / "shot.png")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "smoke test passed" in out.stdout
    assert "quantize_weights: 65 nodes" in out.stdout        # the preview ran
    assert "tensorflow in this process's sys.modules: no" in out.stdout
    from PySide6.QtGui import QImage

    image = QImage(str(tmp_path / "shot.png"))
    assert image.width() > 100 and image.height() > 100
    assert len({image.pixel(x, y) for x in range(0, image.width(), 3)
                for y in range(0, image.height(), 3)}) > 10   # not blank
    root = ET.parse(tmp_path / "shot.svg").getroot()
    assert root.tag.endswith("svg")
    assert any(el.text and "digits_1" in el.text for el in root.iter())
    assert not os.path.exists(os.path.join(ROOT, "inspector/core/app/demo_model/settings.ini"))


def test_smoke_test_fails_loudly(tmp_path):
    out = smoke(tmp_path / "shot.png", INSPECTOR_SMOKE_TIMEOUT="0")
    assert out.returncode == 1
    assert "smoke test FAILED: timed out" in out.stderr
    assert not (tmp_path / "shot.png").exists()
