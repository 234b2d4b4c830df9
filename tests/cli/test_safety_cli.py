"""A model is untrusted input: nothing in it runs, folds or loads unless every op it reaches is
pure computation or the user said yes. Each hostile fixture would write a marker file or leak a
secret; the marker must not appear, and with permission it does (so the fixture is real).

This file holds the tests that drive the command line; the others are in
tests/tf/test_safety_tf.py, tests/core/test_safety.py."""

from __future__ import annotations

import os

from tests.fixtures import hostile_models as H


def test_plain_summarize_refuses_a_saved_model_with_a_writing_initialiser(tmp_path):
    from tests.conftest import run_cli

    marker = str(tmp_path / "marker")
    path = H.saved_model_tf1_main_op(str(tmp_path), marker)
    code, _, err = run_cli("summarize", path)
    assert code == 2 and "not pure computation" in err and "--allow_io" in err
    assert not os.path.exists(marker)
