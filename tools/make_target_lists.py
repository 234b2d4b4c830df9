"""Writes the Ethos-U operator lists of the pre-flight NPU check
(inspector/core/mobile/target_npu_ethos_u55.txt and target_npu_ethos_u85.txt) from Vela's own
report: `vela --supported-ops-report` (SUPPORTED_OPS.md), run in a temporary folder. Run it
again when the installed ethos-u-vela changes. The GPU list (target_gpu_ops.txt) is written by
hand from TensorFlow's gpu_compatibility.cc (its header names the commit)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from importlib.metadata import version

HERE = os.path.join(os.path.dirname(__file__), "..", "inspector", "core", "mobile")
TABLES = {"npu_ethos_u55": ("Ethos-U55 and Ethos-U65 TFLite Summary Table",
                            "Arm Ethos-U55 / Ethos-U65 (as Vela places ops)"),
          "npu_ethos_u85": ("Ethos-U85 TFLite Summary Table", "Arm Ethos-U85 (as Vela places ops)")}


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "ethosu.vela", "--supported-ops-report"],
                       cwd=folder, check=True, capture_output=True)
        text = open(os.path.join(folder, "SUPPORTED_OPS.md")).read()
    vela = version("ethos-u-vela")
    for name, (title, label) in TABLES.items():
        part = text.split("## " + title, 1)[1].split("\n## ", 1)[0]
        ops = re.findall(r"^\| ([A-Z][A-Z0-9_]+) \|", part, re.M)
        with open(os.path.join(HERE, f"target_{name}.txt"), "w") as f:
            f.write(f"# label: {label}\n"
                    f"# source: ethos-u-vela {vela}, `vela --supported-ops-report` "
                    f"(SUPPORTED_OPS.md, \"{title}\"); written by tools/make_target_lists.py\n"
                    "# activations: INT8 INT16 UINT8\n"
                    "# static-shapes: yes\n"
                    "# Each op also has generic and op-specific constraints (shapes, types, "
                    "parameters) that only a Vela compile checks.\n")
            f.write("\n".join(ops) + "\n")
        print(f"{name}: {len(ops)} operators")
    return 0


if __name__ == "__main__":
    sys.exit(main())
