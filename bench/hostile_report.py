"""Run the whole hostile-input manifest and print the figures: python bench/hostile_report.py

Same runs as tests/cli/test_hostile.py (in-process, or isolated under a time limit with peak
memory measured), counted by outcome: clean one-line errors, consent refusals, successful loads, and
anything else (tracebacks, hangs, memory blow-ups)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def main() -> int:
    import pytest

    from tests.cli.test_hostile import (
        _fill,
        _run_in_process,
        _run_isolated,
        check_outcome,
    )
    from tests.fixtures.hostile.manifest import LOADER_CASES, LOADER_COMMANDS, all_cases

    counts, failures = Counter(), []
    cases = all_cases()
    for case in cases:
        with tempfile.TemporaryDirectory() as tmp:
            directory = os.path.join(tmp, "in")
            os.mkdir(directory)
            argv = _fill(case.argv, case.make(directory), directory, os.path.join(tmp, "out"))
            try:
                code, out, err = (_run_isolated(argv, _Path(tmp)) if case.isolate
                                  else _run_in_process(argv))
                check_outcome(case, code, out, err)
            except (AssertionError, pytest.fail.Exception) as exc:
                failures.append(f"{case.id}: {str(exc)[:200]}")
                counts["unexpected"] += 1
                continue
            refused = "not pure computation" in err or "refusing" in err
            counts["consent refusals" if code == 2 and refused else
                   "clean errors" if code == 2 else "succeeded"] += 1
    report = {"hostile files": len(LOADER_CASES),
              "hostile argument combinations": len(cases) - len(LOADER_CASES) * len(LOADER_COMMANDS),
              "runs": len(cases), **counts}
    print(json.dumps(report, indent=2))
    for line in failures:
        print(line)
    return 1 if failures else 0


class _Path(str):
    def __truediv__(self, other):
        return os.path.join(self, other)


if __name__ == "__main__":
    sys.exit(main())
