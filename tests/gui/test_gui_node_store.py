"""A big model's nodes kept as bytes in the file (node_store) show the same in the app as the
model read whole: node panel, search, a strip preview measured by TensorFlow in the worker;
a node whose bytes do not parse is one line in the node panel and the window goes on."""

import json
import os
import shutil
import subprocess
import sys

from conftest import ROOT

from tests.core.test_node_store import _broken
from tests.fixtures import scale_models


def test_a_stored_model_shows_what_the_whole_one_shows(tmp_path):
    source = scale_models.blocks_graph(10_000)
    stored, whole = str(tmp_path / "stored.pb"), str(tmp_path / "whole.pb")
    shutil.copy(source, stored)
    shutil.copy(source, whole)
    broken, name = _broken(source, tmp_path, 7000)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_node_store_worker.py"),
                           stored, whole, broken, name, str(tmp_path / "settings.ini")],
                          cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    got, want = seen["stored"], seen["whole"]
    assert got.pop("structure") == got.pop("still") == "StoredGraphDef"
    assert want.pop("structure") == want.pop("still") == "GraphDef"
    assert got == want
    attrs = [row for rows in (v for k, v in got.items() if k not in ("search", "rows"))
             for row in rows if row.startswith("attributes")]
    assert attrs and got["search"] and got["rows"][0][2] > 0
    errors = [row for row in seen["broken"] if row.startswith("error")]
    assert len(errors) == 1 and f"node '{name}'" in errors[0] and broken in errors[0]
    assert "not a valid NodeDef" in errors[0]
    assert seen["after"][0].startswith("name") and seen["tensorflow_here"] == []
