"""packaging/linux/make_deb.sh on a stand-in app folder (the real build is tested by
packaging/test-artifact.sh in CI): the .deb's layout, its control fields, and an install and
removal in a scratch root (dpkg --root, maintainer scripts chrootless) that leaves nothing."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAKE_DEB = os.path.join(ROOT, "packaging", "linux", "make_deb.sh")


@pytest.fixture(scope="module")
def deb(tmp_path_factory):
    for tool in ("dpkg-deb", "dpkg"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed")
    work = tmp_path_factory.mktemp("deb")
    app = work / "graphdef-inspector"
    os.makedirs(app / "_internal")
    (app / "graphdef-inspector").write_text("#!/bin/sh\necho graphdef-inspector stand-in\n")
    (app / "graphdef-inspector").chmod(0o755)
    (app / "_internal" / "flavour.txt").write_text("light\n")
    subprocess.run(["bash", MAKE_DEB, str(app), "light", "0.1.0", str(work / "out")],
                   check=True, capture_output=True)
    (path,) = (work / "out").glob("*.deb")
    return path


def test_deb_layout_and_control(deb):
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True,
                             check=True).stdout
    for path in ("./opt/graphdef-inspector/graphdef-inspector",
                 "./usr/bin/graphdef-inspector -> /opt/graphdef-inspector/graphdef-inspector",
                 "./usr/share/applications/graphdef-inspector.desktop",
                 "./usr/share/mime/packages/graphdef-inspector.xml",
                 "./usr/share/icons/hicolor/16x16/apps/graphdef-inspector.png",
                 "./usr/share/icons/hicolor/512x512/apps/graphdef-inspector.png",
                 "./usr/share/icons/hicolor/scalable/apps/graphdef-inspector.svg"):
        assert path in listing, path
    assert "root/root" in listing                       # root-owned files
    field = lambda name: subprocess.run(["dpkg-deb", "-f", str(deb), name],  # noqa: E731
                                        capture_output=True, text=True).stdout.strip()
    assert field("Package") == "graphdef-inspector"
    assert field("Conflicts") == "graphdef-inspector-full"


def test_install_and_remove_in_a_scratch_root_leaves_nothing(deb, tmp_path):
    root = tmp_path / "root"
    for folder in ("var/lib/dpkg/info", "var/lib/dpkg/updates", "usr/share/mime/packages"):
        os.makedirs(root / folder)
    (root / "var/lib/dpkg/status").touch()
    if os.path.exists("/usr/share/mime/packages/freedesktop.org.xml"):
        shutil.copy("/usr/share/mime/packages/freedesktop.org.xml",
                    root / "usr/share/mime/packages")
    dpkg = ["dpkg", f"--root={root}", "--force-script-chrootless", "--force-depends",
            f"--log={tmp_path / 'dpkg.log'}"]
    out = subprocess.run([*dpkg, "-i", str(deb)], capture_output=True, text=True)
    if out.returncode != 0 and "chrootless" in out.stderr:
        pytest.skip("this dpkg cannot run maintainer scripts chrootless")
    assert out.returncode == 0, out.stderr
    assert (root / "opt/graphdef-inspector/graphdef-inspector").exists()
    if shutil.which("update-mime-database"):
        assert (root / "usr/share/mime/mime.cache").exists()      # postinst ran
        assert "tensorflow" in (root / "usr/share/mime/globs2").read_text()
    out = subprocess.run([*dpkg, "-r", "graphdef-inspector"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    left = [str(p) for p in root.rglob("*graphdef-inspector*")   # dpkg's own records aside
            if not str(p).startswith(str(root / "var"))]
    assert not left and not (root / "opt/graphdef-inspector").exists()
    if (root / "usr/share/mime/globs2").exists():
        assert "tensorflow" not in (root / "usr/share/mime/globs2").read_text()
