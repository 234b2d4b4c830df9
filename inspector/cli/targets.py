"""`targets MODEL.tflite [--target T ...] [--json]`: per target, the share of the model's
operators on its accelerator and each operator left out with its reason and what to do
(core/mobile/targets.py, the same code as the window's Target report)."""

from __future__ import annotations

import json
import sys

from inspector.cli.loading import _load, of_one_model
from inspector.core.app.targets import (
    choices,
    headline,
    other_figures,
    report_of,
    rules_report,
    target_name,
)

DEFAULT = ("cpu", "gpu", "ethos-u55-128", "npu-ethos-u55")


@of_one_model
def cmd_targets(args) -> int:
    targets = [target_name(t) for t in (args.target or ([] if args.rules else DEFAULT))]
    model = _load(args)
    reports = [report_of(model, t) for t in targets]
    if args.rules:
        reports.append(rules_report(model, args.rules))
    if args.json:
        json.dump({"model": args.model, "targets": [r.as_json() for r in reports]},
                  sys.stdout, indent=1)
        print()
        return 0

    for r in reports:
        print(r.summary())
        if headline(r.figures):
            print(f"  {headline(r.figures)}")
        print(f"  how: {r.source}")
        for name, value in other_figures(r.figures):
            print(f"  {name}: {value}")
        for note in r.notes:
            print(f"  note: {note}")
        costly = sorted((p for p in r.ops if dict(p.cost).get("cycles")),
                        key=lambda p: -dict(p.cost)["cycles"])[:args.limit]
        if costly:
            print("  cycles per operator (Vela's estimate): " + ", ".join(
                f"#{p.index} {p.op} {dict(p.cost)['cycles']:,}" for p in costly))
        for p in r.off[:args.limit]:
            print(f"  off  #{p.index} {p.op} {p.node}: {p.reason}\n       do: {p.advice}")
        if len(r.off) > args.limit:
            print(f"  ... and {len(r.off) - args.limit} more (--limit)")
        print()
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("targets", help="per target (CPU/XNNPACK, GPU, Ethos-U via Vela, "
                                       "pre-flight NPU lists): which ops run on the "
                                       "accelerator, which do not and why")
    add_load_args(p)
    p.add_argument("--target", action="append",
                   help=f"repeatable; one of {', '.join(n for n, _ in choices())} (default: "
                        f"{', '.join(DEFAULT)})")
    p.add_argument("--rules", help="a pre-flight check against your own operator list (one "
                                   "op a line; '# label:', '# source:', '# activations:', "
                                   "'# static-shapes:' headers as in the shipped lists)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--limit", type=int, default=30)
    p.set_defaults(func=cmd_targets)
