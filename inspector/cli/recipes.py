"""`tflite MODEL --recipe NAME [--keep-float REGEX] [--data DIR] -o DIR --json`: each
quantization recipe's file, size, latency estimate, time on this machine and error (of the
answers, and per tensor: MSE, SNR, cosine, max) as a table or JSON. Same code as the panel
(core/mobile/recipes.py through the model's engine)."""

from __future__ import annotations

import json
import sys

from inspector.cli import wording
from inspector.cli.loading import _load
from inspector.cli.tflite_args import convertible, input_shapes, output_targets, ports, source
from inspector.core.app.demo import engine_here
from inspector.core.app.exports import atomic_write
from inspector.core.app.quantization import recipe_figures, recipe_names, run_recipes


def cmd_recipes(args) -> int:
    names = recipe_names(args.recipe, args.keep_float)
    model = convertible(_load(args))     # (a .tflite given: said before any -o folder)
    targets = output_targets(args, names)
    ins, outs = ports(model, args)
    report = run_recipes(engine_here(model.graph.graph_def), ins, outs,
                         input_shapes(args, model, ins), names, args.keep_float,
                         source(args), args.compare, args.allow_io)
    for w in report.warnings:
        print(f"WARNING: {wording.said(w)}", file=sys.stderr)
    rows, best = recipe_figures(report)
    for row, out in zip(report.results, rows):
        if row.model is not None and row.recipe in targets:
            atomic_write(targets[row.recipe], row.model, force=args.force, source=args.model)
            out["file"] = targets[row.recipe]
    if args.json:
        json.dump({"model": args.model, "inputs": ins, "outputs": outs,
                   "data": report.sample_source, "interpreter": report.engine,
                   "kernels": report.kernels,
                   "keep_float": args.keep_float, "tensor_samples": report.tensor_samples,
                   "compared": min(args.compare, report.samples),
                   "pareto": best, "recipes": rows},
                  sys.stdout, indent=1, allow_nan=False)
        print()
    else:
        _table(report, rows)
    return 0 if all(not (r.errors or r.failed) for r in report.results) else 1


def _num(value, fmt):
    return "-" if value is None else format(value, fmt)


def _ms(value) -> str:
    """Milliseconds without scientific notation (1,150 not 1.15e+03)."""
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}" if value >= 0.01 else \
        f"{value:.4f}"


def _table(report, rows) -> None:
    print(f"Representative data: {report.sample_source}")
    kernels = report.kernels
    print(f"Answers compared with the TF graph by {report.engine or 'no interpreter'} on "
          f"{kernels.get('answers', '?')}; per-tensor error (and \"builtin SNR\") on "
          f"{report.tensor_samples} inputs against the float .tflite on "
          f"{kernels.get('tensors', '?')}")
    print(f"{'recipe':<16}{'size':>10}{'est. ms':>9}{'host ms':>9}{'MSE':>11}{'SNR dB':>8}"
          f"{'builtin':>8}{'cosine':>8}{'max |err|':>11}  tool")
    for r in rows:
        if r["failed"]:
            print(f"{r['recipe']:<16}  failed: {r['failed']}")
        if r["errors"] and not r["failed"]:
            print(f"{r['recipe']:<16}  failed: {r['errors'][0]}")
        if not r["size"]:
            continue
        o, b = r["output"], r["output_builtin"]
        name = "  fallback" if r["failed"] else r["recipe"]
        print(f"{name:<16}{r['size']:>10,}{_ms(r['latency_ms_estimate']):>9}"
              f"{_ms(r['host_ms']):>9}{_num(o.get('mse'), '.3g'):>11}"
              f"{_num(o.get('snr_db'), '.1f'):>8}{_num(b.get('snr_db'), '.1f'):>8}"
              f"{_num(o.get('cosine'), '.4f'):>8}{_num(o.get('max_abs'), '.3g'):>11}"
              f"  {r['tool']}")
        worst = r["tensors"][:3]
        if worst:
            print("                worst tensors: " + "; ".join(
                f"{w['nodes'][0] if w['nodes'] else w['tensor']} "
                f"({_num(w['snr_db'], '.1f')} dB)" for w in worst))
        if r["note"]:
            print(f"                {r['note']}")
        if r.get("file"):
            print(f"                wrote {r['file']}")
