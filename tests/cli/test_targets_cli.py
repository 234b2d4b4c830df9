"""`targets MODEL.tflite [--target T] --json` and the target overlay as node data (issue 36)."""

import json
import os

from conftest import run_cli


def test_targets_json_names_share_and_figures(data):
    code, out, err = run_cli("targets", os.path.join(data, "digits_int8.tflite"),
                             "--target", "ethos-u55-128", "--target", "npu-ethos-u55",
                             "--json")
    assert code == 0, err
    vela, pre = json.loads(out)["targets"]
    assert vela["target"] == "ethos-u55-128" and vela["share"] == 1.0
    assert vela["figures"]["vela_npu_operators"] == 32 and vela["off_accelerator"] == []
    assert "ethos-u-vela 5.2.0" in vela["source"]
    assert pre["operators"] == 6 and pre["on_accelerator"] == 6


def test_targets_text_lists_what_stays_off_the_npu(data):
    code, out, err = run_cli("targets", os.path.join(data, "digits_float.tflite"),
                             "--target", "npu-ethos-u85")
    assert code == 0, err
    assert "0 of 6 operators on the accelerator (0%)" in out
    assert "off  #0 CONV_2D" in out and "computes in float32" in out


def test_targets_refuses_what_it_cannot_read(data):
    code, out, err = run_cli("targets", os.path.join(data, "inception_jpeg.pb"))
    assert code == 2 and "reads a .tflite" in err and len(err.strip().splitlines()) == 1
    code, out, err = run_cli("targets", os.path.join(data, "digits_int8.tflite"), "--target",
                             "tpu")
    assert code == 2 and "unknown target 'tpu'" in err


def test_the_target_overlay_round_trips_through_node_data(data, tmp_path):
    model = os.path.join(data, "digits_float.tflite")
    out = tmp_path / "t.json"
    code, stdout, err = run_cli("overlay", "export", model, "--overlay", "targets",
                                "--target", "npu-ethos-u55", "-o", str(out))
    assert code == 0, err
    code, stdout, err = run_cli("overlay", "import", model, str(out), "--json")
    assert code == 0, err
    got = json.loads(stdout)
    assert len(got["values"]) == 6 and set(got["values"].values()) == {"CPU fallback"}
    assert got["unmatched"] == []


def test_a_vendor_list_of_your_own(data, tmp_path):
    rules = tmp_path / "acme_npu.txt"
    rules.write_text("# label: ACME NPU\n# source: ACME SDK 1.2 op table\n"
                     "# activations: INT8\nCONV_2D\nMAX_POOL_2D\nRESHAPE\n")
    code, out, err = run_cli("targets", os.path.join(data, "digits_int8.tflite"), "--rules",
                             str(rules), "--json")
    assert code == 0, err
    (r,) = json.loads(out)["targets"]
    assert r["target"] == "npu-acme_npu" and r["on_accelerator"] == 4
    assert {o["op"] for o in r["off_accelerator"]} == {"FULLY_CONNECTED", "SOFTMAX"}
    assert "ACME SDK 1.2" in r["source"]


def test_the_cpu_report_leaks_no_runtime_log_line(data):
    """LiteRT printed "INFO: Created TensorFlow Lite XNNPACK delegate for CPU." into the
    terminal of `targets --target cpu` (the report's own lines say what ran)."""
    code, out, err = run_cli("targets", os.path.join(data, "digits_int8.tflite"),
                             "--target", "cpu")
    assert code == 0, err
    assert "CPU (XNNPACK)" in out
    assert "INFO:" not in err and "INFO:" not in out, err
