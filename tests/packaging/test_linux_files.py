"""The Linux desktop files of issue 37: the desktop entry validates, the MIME types recognise
our files by content where the extension is ambiguous (checked with the desktop's own
machinery: update-mime-database and `xdg-mime query filetype` through GIO), and the icon's
PNGs are the hicolor sizes with a drawing in them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINUX = os.path.join(ROOT, "packaging", "linux")
DATA = os.path.join(ROOT, "tests", "core", "data")


def need(tool):
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (packaging/setup.sh installs it)")


def test_desktop_entry_validates():
    need("desktop-file-validate")
    out = subprocess.run(["desktop-file-validate",
                          os.path.join(LINUX, "graphdef-inspector.desktop")],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "error" not in out.stdout, out.stdout + out.stderr
    text = open(os.path.join(LINUX, "graphdef-inspector.desktop")).read()
    types = [t for t in text.split("MimeType=")[1].splitlines()[0].split(";") if t]
    xml = open(os.path.join(LINUX, "graphdef-inspector.xml")).read()
    assert all(f'type="{t}"' in xml for t in types)     # every type it claims is defined


@pytest.fixture(scope="module")
def mime_home(tmp_path_factory):
    need("update-mime-database")
    need("xdg-mime")
    need("gio")
    home = tmp_path_factory.mktemp("share")
    os.makedirs(home / "mime" / "packages")
    shutil.copy(os.path.join(LINUX, "graphdef-inspector.xml"), home / "mime" / "packages")
    subprocess.run(["update-mime-database", str(home / "mime")], check=True,
                   capture_output=True)
    return home


def filetype(mime_home, path) -> str:
    env = dict(os.environ, XDG_DATA_DIRS=f"{mime_home}:/usr/share",
               XDG_DATA_HOME=str(mime_home), XDG_CURRENT_DESKTOP="GNOME")
    out = subprocess.run(["xdg-mime", "query", "filetype", str(path)], capture_output=True,
                         text=True, env=env)
    return out.stdout.strip()


def test_xdg_mime_maps_fixtures_to_our_types_by_content(mime_home, tmp_path):
    def renamed(src, name):
        dst = tmp_path / name
        os.makedirs(dst.parent, exist_ok=True)
        shutil.copy(os.path.join(DATA, src), dst)
        return dst

    tfjs = tmp_path / "tfjs" / "model.json"
    os.makedirs(tfjs.parent)
    tfjs.write_text(json.dumps({"format": "graph-model", "modelTopology": {"node": []}}))
    cases = {
        os.path.join(DATA, "v1_training.pb"): "application/x-tensorflow-graphdef",
        os.path.join(DATA, "inception_jpeg.pb"): "application/x-tensorflow-graphdef",
        os.path.join(DATA, "two_signatures", "saved_model.pb"):
            "application/x-tensorflow-savedmodel",
        renamed(os.path.join("two_signatures", "saved_model.pb"), "exported.pb"):
            "application/x-tensorflow-savedmodel",                 # by content
        os.path.join(DATA, "text_really.pb"): "text/x-tensorflow-pbtxt",   # by content
        os.path.join(DATA, "v1_training.pbtxt"): "text/x-tensorflow-pbtxt",
        os.path.join(DATA, "v1_training.meta"): "application/x-tensorflow-metagraph",
        os.path.join(DATA, "digits_float.tflite"): "application/x-tflite",
        renamed("digits_int8.tflite", "model.bin"): "application/x-tflite",   # TFL3 magic
        tfjs: "application/x-tensorflowjs-model",   # by name: any *.json stays JSON
    }
    got = {os.path.basename(str(p)): filetype(mime_home, p) for p in cases}
    want = {os.path.basename(str(p)): t for p, t in cases.items()}
    assert got == want


def test_unknown_content_is_claimed_only_by_its_extension(mime_home, tmp_path):
    """A .pb whose content no rule knows keeps the likeliest .pb type (the app then says
    what is wrong with it); the same bytes under another name are not ours."""
    (tmp_path / "weights.pb").write_bytes(bytes(range(7, 200)))
    (tmp_path / "weights.bin").write_bytes(bytes(range(7, 200)))
    assert filetype(mime_home, tmp_path / "weights.pb") == "application/x-tensorflow-graphdef"
    assert "tensorflow" not in filetype(mime_home, tmp_path / "weights.bin")


def test_icon_pngs_are_the_hicolor_sizes_with_a_drawing():
    from PIL import Image

    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        image = Image.open(os.path.join(LINUX, "icons", f"graphdef-inspector-{size}.png"))
        assert image.size == (size, size)
        colours = image.convert("RGB").getcolors(size * size)
        assert len(colours) >= 4, size        # background, edges and three node colours
    assert open(os.path.join(LINUX, "icons", "graphdef-inspector.svg")).read().startswith(
        "<svg")
