"""The Target report and the two result tables as users reach them (TensorFlow in the worker,
1366x768, buttons clicked): Run report is off until there is a file to report on and says
where to make one; after the Quantization tab ran recipes, the report reads the selected
recipe's file (not "Convert four variants"); the Vela figures lead with time, SRAM and flash
in units; the Conversion preview and the Quantization tab give one result shape, each row
naming its tool and each error column its measure. Fresh process (it owns a worker)."""

import json
import os
import re
import subprocess
import sys

from conftest import DEMO, ROOT


def test_target_report_reads_the_recipes_file_and_both_tables_name_their_tool(tmp_path):
    import shutil

    model = tmp_path / "demo_digits.pb"             # its marks are saved beside it
    shutil.copy(DEMO, model)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_targets_worker.py"),
                           str(model), str(tmp_path / "settings.ini"), str(tmp_path)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["engine"] == "RemotePreview" and seen["tensorflow_here"] == []
    # 14: nothing to report on yet: Run is off and the summary says where to make a file
    assert seen["run_enabled_before"] is False
    assert "Phone > Quantization: Run recipes" in seen["summary_before"]
    # 14: after the recipes ran, the selected recipe's file is the subject
    assert seen["run_enabled_after"] is True
    assert seen["label"].startswith("Ethos-U55-128 NPU, the int8 recipe's file (selected, ")
    # 14: time, SRAM and flash first, in units, no scientific notation anywhere
    assert re.match(r"[\d.,]+ (µs|ms) per inference \([\d,]+ per second\) · SRAM [\d.,]+ "
                    r"KiB · flash [\d.,]+ KiB · [\d,]+ cycles", seen["headline"])
    assert not re.search(r"\de[+-]\d", seen["headline"] + seen["details"])
    assert len(seen["details"].splitlines()) <= 4          # not 20 raw key: value lines
    # 15: one result shape, one row class, the tool named in every row of both tables
    assert seen["shapes"] == ["Measured", "Measured", "Row", "Row"]
    quant = {r["Recipe"]: r for r in seen["quant_rows"]}
    preview = {r["Variant"]: r for r in seen["preview_rows"]}
    assert quant["dynamic"]["Tool"] == "ai-edge-quantizer"
    assert preview["dynamic"]["Tool"] == "TF's converter"
    for measure in ("Max |err|", "MSE"):                  # the same measures, named alike
        assert preview["dynamic"][measure] not in ("", "-")
        assert quant["dynamic"][measure] not in ("", "-")
        assert seen["quant_tips"][measure] == seen["preview_tips"][measure] != ""
    assert "XNNPACK" in seen["quant_tips"]["SNR dB"]
    assert "without XNNPACK" in seen["quant_tips"]["Builtin SNR"]
    assert quant["int8"]["Builtin SNR"] not in ("", "-")
    for name in ("target_before.png", "quantization_tab.png", "target_report.png"):
        assert (tmp_path / name).stat().st_size > 0
