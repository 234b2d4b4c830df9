"""A .meta with its checkpoint beside it, given to every command as a user gives it: the
window, `summarize`, `explain`, `convert` and `diff` froze it with that checkpoint, while
`flops`, `check`, `transform`, `profile` and `calibrate` read the raw training graph: `flops`
counted the gradients (72,467 FLOPs against explain's 23.1 thousand) and `check` / `profile`
failed on uninitialised variables, telling the user to give a checkpoint they take no option
for. Now all of them open it alike."""

import os

from conftest import run_cli


def _total(out: str) -> int:
    return int(out.split("Total FLOPs: ")[1].split(" ")[0].replace(",", ""))


def test_every_command_freezes_a_meta_with_the_checkpoint_beside_it(fx, tmp_path):
    meta = os.path.join(fx, "v1_training.meta")
    frozen = str(tmp_path / "frozen.pb")
    rc, _, err = run_cli("convert", meta, "-o", frozen)
    assert rc == 0 and "Frozen with the checkpoint" in err, err
    rc, out, err = run_cli("flops", meta)
    assert rc == 0, err
    rc2, frozen_out, _ = run_cli("flops", frozen)
    assert _total(out) == _total(frozen_out) == 23_100      # was 72,467 (with gradients)
    assert "gradients" not in out and "Frozen with the checkpoint" in err
    rc, out, err = run_cli("explain", meta)
    assert rc == 0 and "23.1 thousand arithmetic operations" in out, err
    rc, out, err = run_cli("check", meta, frozen, "--inputs", "input", "--outputs", "output")
    assert rc == 0, err                                     # was: uninitialized value
    assert "100.0%" in out
    rc, out, err = run_cli("profile", meta, "--inputs", "input", "--outputs", "output",
                           "--runs", "3")
    assert rc == 0 and "Average inference timings" in out, err
    rc, out, err = run_cli("transform", "--in_graph", meta, "--out_graph",
                           str(tmp_path / "t.pb"), "--transforms", "strip_unused_nodes",
                           "--inputs", "input", "--outputs", "output")
    assert rc == 0, err
    assert "gradients" not in run_cli("summarize", str(tmp_path / "t.pb"))[1]
