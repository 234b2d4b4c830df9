"""CLI for the phone: `compat` (will it convert to TFLite, node by node), `tflite` (convert
in several variants and compare them with the TF graph) and `ops-header` (ops_to_register.h
for a selective TensorFlow build)."""

from __future__ import annotations

import json
import os
import sys

from inspector.cli import tflite_args as ta
from inspector.cli import wording
from inspector.cli.loading import _load, of_one_model
from inspector.core.app.inputs import model_input_shapes
from inspector.core.app.words import milliseconds
from inspector.core.errors import InspectorError, printable_text


@of_one_model
def cmd_compat(args) -> int:
    from inspector.core.app import tflite_check
    from inspector.core.app.demo import engine_here

    model = _load(args)
    why = tflite_check.refusal_of(model)
    if why:
        raise InspectorError(why, path=model.path)
    ins, outs = ta.ports(model, args)
    checked = tflite_check.check(model.graph, ins, outs)
    if args.confirm:
        shapes, _ = model_input_shapes(model, ins)
        checked = tflite_check.confirm(checked, model.graph, engine_here(model.graph.graph_def),
                                       shapes, allow_io=args.allow_io)
    result, confirmed = checked.compat, checked.confirmed or None
    if args.json:
        json.dump(dict(model=args.model, **checked.as_dict()), sys.stdout, indent=1)
        print()
        return _converter_exit(confirmed)
    print(f"TensorFlow Lite compatibility of {os.path.basename(args.model.rstrip('/'))} "
          f"(inputs {','.join(ins)}; outputs {','.join(outs)})")
    for _status, count, label in checked.counted():
        print(f"  {count:7,d}  {label}")
    problems = result.problems()
    if problems:
        print(f"\nNodes to look at, worst first ({len(problems)}):")
        for name, c in problems[:args.limit]:
            print(f"  {c.status:<12} {name}  ({c.reason})")
        if len(problems) > args.limit:
            print(f"  ... and {len(problems) - args.limit} more (--limit)")
    else:
        print("\nEvery node maps to a TFLite builtin or is removed by conversion.")
    missing = result.missing_mobile_kernels()
    if missing:
        print(f"\nNo kernel in the default mobile TensorFlow build (\"No OpKernel was "
              f"registered\"), training-only first: strip those ({len(missing)}):")
        for name, op, why in missing[:args.limit]:
            print(f"  {op:<24} {name}  ({why})")
    if confirmed is not None:
        print(f"\n{tflite_check.converter_verdict(confirmed)}")
        for name, messages in confirmed["nodes"].items():
            print(f"  {name}: {messages[0]}")
        unplaced = dict.fromkeys(f"{e.get('code') or 'error'}: {e.get('message')}"
                                 for e in confirmed["unplaced"])   # both passes say it
        for text in unplaced:
            print(f"  (no node) {text}")
        for name, said, got in confirmed["disagree"]:
            print(f"  differs: {name}: static {said}, converter {got}")
    return _converter_exit(confirmed)


def _converter_exit(confirmed: dict | None) -> int:
    """`compat --confirm`'s exit code: 1 when TFLite's converter failed (the check failed,
    as `check` says of NaN answers), with one line on stderr for a script's log; else 0.
    The window shows the same verdict and nothing else (tflite_check.converter_verdict)."""
    if not confirmed or not confirmed.get("failed"):
        return 0
    print(f"graphdef-inspector: compat --confirm failed: TFLite's converter failed: "
          f"{printable_text(confirmed['failed'].splitlines()[0].rstrip('.'))}",
          file=sys.stderr)
    return 1


@of_one_model
def cmd_tflite(args) -> int:
    if args.recipe:
        from inspector.cli.recipes import cmd_recipes

        return cmd_recipes(args)
    from inspector.core.app.demo import engine_here
    from inspector.core.app.exports import atomic_write
    from inspector.core.app.quantization import preview_variants

    variants = preview_variants(ta.split(args.variants))
    model = ta.convertible(_load(args))     # (a .tflite given: said before any -o folder)
    targets = ta.output_targets(args, variants)
    ins, outs = ta.ports(model, args)
    shapes = ta.input_shapes(args, model, ins)
    result = engine_here(model.graph.graph_def).tflite_preview(ins, outs, shapes,
                            variants=variants,
                            source=ta.source(args), compare_count=args.compare,
                            allow_io=args.allow_io)
    for w in result.warnings:
        print(f"WARNING: {wording.said(w)}", file=sys.stderr)
    print(f"Representative data: {result.sample_source}")
    if result.engine:
        print(f"Answers compared with the TF graph's on {min(args.compare, result.samples)} "
              f"inputs by {result.engine} on {result.kernels.get('answers', '?')}")
    else:
        print("Answers not compared: no variant could be run here (each one's notes say why)")
    head = f"{'variant':<9}{'size':>11}{'gzip':>11}{'ops':>6}  {'top-1':>6}{'max |err|':>11}" \
           f"  {'latency (est., phone)':<22}tool"
    print(head)
    for row in result.variants:
        if row.errors:
            print(f"{row.variant:<9}  conversion failed: {row.errors[0]['message']}")
            continue
        top1 = f"{row.top1:.0%}" if row.top1 is not None else "-"
        err = f"{row.max_abs_error:.3g}" if row.max_abs_error is not None else "-"
        ms = row.latency_ms.get("phone")
        print(f"{row.variant:<9}{row.size:>11,}{row.gzip_size:>11,}{row.op_count:>6}  "
              f"{top1:>6}{err:>11}  {milliseconds(ms) if ms else '-':<22}{row.tool}")
        for side, ports in (("in ", row.inputs), ("out", row.outputs)):
            for p in ports:
                q = f" scale {p['scale']:.6g} zero point {p['zero_point']}" if p["scale"] \
                    else ""
                print(f"           {side} {p['name']}: {p['dtype']} {p['shape']}{q}")
        builtin = sorted(o for o in row.ops if not o.startswith("Flex"))
        print(f"           builtin ops: {', '.join(builtin)}")
        if row.flex_ops:
            print(f"           Select TF ops: {', '.join(row.flex_ops)}")
        for w in row.gpu_warnings[:5]:  # the analyzer's warnings, or its verdict
            print(f"           GPU: {w}")
        if row.note:
            print(f"           {row.note}")
        if row.variant in targets:
            atomic_write(targets[row.variant], row.model, force=args.force, source=args.model)
            print(f"           wrote {targets[row.variant]}")
    return 0 if all(not r.errors for r in result.variants) else 1


def cmd_ops_header(args) -> int:
    from inspector.core.app.demo import engine_here
    from inspector.core.app.exports import check_target
    from inspector.core.app.selective_build import write_header

    check_target(args.output, args.force, source=args.model)
    model = _load(args)
    header = write_header(engine_here(model.graph.graph_def), model, args.output,
                          force=args.force)
    print(f"Wrote {args.output}: {len(header.ops)} ops, {len(header.kernels)} kernel classes "
          f"(from the kernel registry of the installed TensorFlow; build with the same "
          f"version).")
    if header.missing:
        print(f"No CPU kernel in this TensorFlow for: {', '.join(header.missing)}",
              file=sys.stderr)
    return 0


def cmd_tflite_info(args) -> int:
    from inspector.core.app.tflite_file import read_tflite, tflite_figures, tflite_text

    model = read_tflite(args.model)
    if not args.json:
        sys.stdout.write(tflite_text(model, args.limit))
        return 0
    json.dump(tflite_figures(model), sys.stdout, indent=1)
    print()
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("tflite-info", help="a .tflite file's ops, quantized tensors and "
                                           "biggest buffers (no TensorFlow needed)")
    p.add_argument("model")
    p.add_argument("--limit", type=int, default=15, help="rows per list (default 15)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_tflite_info)
    p = sub.add_parser("compat", help="will it convert to TensorFlow Lite? status per node "
                                      "(exit 0 checked, 1 --confirm's converter failed, 2 bad "
                                      "input)")
    add_load_args(p)
    ta.add_port_arguments(p)
    p.add_argument("--confirm", action="store_true",
                   help="also convert with TF's converter and place its errors on nodes")
    p.add_argument("--limit", type=int, default=40, help="nodes listed (default 40)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_compat)
    p = sub.add_parser("tflite", help="convert to TFLite (float, dynamic, float16, int8; "
                                      "--recipe: quantization recipes) and compare each "
                                      "with the TF graph")
    add_load_args(p)
    ta.add_port_arguments(p)
    p.add_argument("--variants", default="float,dynamic,float16,int8")
    p.add_argument("--data", help="representative data: a folder of photos, a folder of "
                                  ".npy files, or .npy files (comma list); without it, random "
                                  "data (with a warning)")
    p.add_argument("--samples", type=int, default=100,
                   help="representative samples used (default 100)")
    p.add_argument("--compare", type=int, default=16,
                   help="inputs the answers are compared on (default 16)")
    p.add_argument("-o", "--output", help="folder to write MODEL_VARIANT.tflite files to (made if "
                                             "missing)")
    p.add_argument("--force", action="store_true", help="overwrite existing .tflite files")
    p.add_argument("--recipe", help="quantization recipes (comma list, or 'all'): "
                                    "float, dynamic, float16, int8, int16x8, int4-blockwise; "
                                    "built by ai-edge-quantizer, measured with LiteRT")
    p.add_argument("--keep-float", default="", metavar="REGEX",
                   help="with --recipe: leave the layers whose TFLite tensor names match "
                        "REGEX float (mixed precision)")
    p.add_argument("--json", action="store_true", help="with --recipe: the table as JSON")
    p.add_argument("--input-shape", "--input_shape", action="append", default=[],
                   metavar="NAME=D,D,..",
                   help="an input's shape where the graph declares none (repeatable; "
                        "default: the shape the window uses, inferred or from a decoding "
                        "chain)")
    p.set_defaults(func=cmd_tflite)
    p = sub.add_parser("ops-header", help="write ops_to_register.h for a selective "
                                          "TensorFlow mobile build")
    add_load_args(p)
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(func=cmd_ops_header)
