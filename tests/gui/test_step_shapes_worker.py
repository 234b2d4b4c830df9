"""A pipeline step's graph gets its own tensor shapes through the real TensorFlow worker
(6b675b5 was tested with the tests' in-process engine only): the app as users start it,
fold_constants added, the step's row clicked; its edges are labelled with shapes TF
inferred for the step's graph in the worker, and the GUI process never imports TF."""

import json
import os
import subprocess
import sys

from conftest import DATA, ROOT


def test_a_steps_graph_gets_its_shapes_from_the_worker_and_draws_them(tmp_path):
    model = tmp_path / "inception.pb"
    model.write_bytes(open(os.path.join(DATA, "inception_jpeg.pb"), "rb").read())
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_step_shapes_worker.py"),
                           str(model), str(tmp_path / "settings.ini")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["engine"] == "RemotePreview" and seen["tensorflow_here"] == []
    assert seen["step"] == 1
    assert seen["step_pool"] == seen["original_pool"] == [[1, 74, 74, 16]]
    assert seen["step_shaped"] >= 0.9
    # the step's picture: shape labels placed on its edges, and painted at 100 %
    assert "float [1,74,74,32]" in seen["labels"], seen["labels"]
    assert set(seen["painted"]) & {"float [1,2592]", "float [1,10]", "float [1,9,9,32]"}, \
        seen["painted"]                  # inferred: no node declares these
