"""Write inspector/core/mobile/tflite_flex_ops.txt: the TF ops the Select-TF-ops (flex)
delegate of the installed TensorFlow can run, read from the allowlist compiled into the
TensorFlow build (inspector.core.tf.lite.flex_allowlist). The compatibility overlay reads the
file, so it needs no TensorFlow. Also inspector/core/loaders/tflite_codes.txt: the builtin
operator codes and tensor types of TFLite's schema (the .tflite reader needs no TensorFlow).
Run with the TensorFlow the app is tested with:

    .venv/bin/python tools/make_tflite_ops.py
"""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "inspector", "core", "mobile", "tflite_flex_ops.txt")
CODES = os.path.join(ROOT, "inspector", "core", "loaders", "tflite_codes.txt")


def write_codes(version: str) -> None:
    from tensorflow.lite.python import schema_py_generated as schema

    lines = [f"# TFLite schema enums of TensorFlow {version}: 'op CODE NAME' and "
             "'type CODE NAME'; made by tools/make_tflite_ops.py"]
    for kind, enum in (("op", schema.BuiltinOperator), ("type", schema.TensorType)):
        pairs = sorted((v, k) for k, v in vars(enum).items() if k.isupper())
        lines += [f"{kind} {v} {k}" for v, k in pairs]
    with open(CODES, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {CODES}: {len(lines) - 1} codes")


def main() -> int:
    sys.path.insert(0, ROOT)
    from inspector.core.tf import lite
    from inspector.core.tf.runtime import tf

    names = lite.flex_allowlist()
    lines = [f"# flex allowlist of TensorFlow {tf().__version__} "
             f"(tflite::flex::GetFlexAllowlist), {len(names)} ops; made by "
             "tools/make_tflite_ops.py", *names]
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {OUT}: {len(names)} ops")
    write_codes(tf().__version__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
