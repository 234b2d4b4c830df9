"""CLI subcommands over the transform engine and metrics: transform, flops, check."""

from __future__ import annotations

import argparse
import sys

from inspector.cli.loading import of_one_model
from inspector.cli.run_args import parse_input_shapes, split_names
from inspector.core.app.inputs import read_arrays
from inspector.core.app.words import count, human_bytes, latency, tf_human_readable_num
from inspector.core.errors import InspectorError
from inspector.core.runtime import gc_policy


def _note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)


def _fmt_delta(new, old, fmt) -> str:
    if old in (None, 0) or new is None:
        return fmt(new) if new is not None else "-"
    return f"{fmt(new)} ({100.0 * (new - old) / old:+.1f}%)"


def metrics_table(rows: list) -> str:
    """rows: (label, Metrics) in order; deltas against the first row. The gzip and FLOPs
    columns appear when they were computed (gzip_bytes -1 and flops None mean not asked)."""
    base = rows[0][1]
    gzip = any(m.gzip_bytes >= 0 for _, m in rows)
    flops_col = any(m.flops is not None for _, m in rows)
    header = f"{'step':<28} {'nodes':>12} {'size':>22}" + (f" {'gzip':>22}" if gzip else "") + \
        f" {'params':>18}" + (f" {'FLOPs':>18}" if flops_col else "")
    lines = [header, "-" * len(header)]
    base_flops = base.flops.total if base.flops and base.flops.known else None
    for label, m in rows:
        line = (f"{label[:28]:<28} {_fmt_delta(m.node_count, base.node_count, str):>12} "
                f"{_fmt_delta(m.serialized_bytes, base.serialized_bytes, human_bytes):>22}")
        if gzip:
            line += f" {_fmt_delta(m.gzip_bytes, base.gzip_bytes, human_bytes):>22}"
        params = _fmt_delta(m.const_parameters + m.variable_parameters,
                            base.const_parameters + base.variable_parameters,
                            tf_human_readable_num)
        line += f" {params:>18}"
        if flops_col:
            flops = m.flops.total if m.flops and m.flops.known else None
            text = "unknown" if flops is None else \
                _fmt_delta(flops, base_flops, tf_human_readable_num)
            line += f" {text:>18}"
        lines.append(line)
    notes = sorted({note for _, m in rows if m.flops for note in m.flops.assumed} |
                   {f"FLOPs unknown: {m.flops.unknown}" for _, m in rows
                    if m.flops and m.flops.unknown})
    if not (gzip and flops_col):
        notes.append("more columns: " + ", ".join(
            ([] if gzip else ["--gzip (compressed size)"]) +
            ([] if flops_col else ["--flops (imports TensorFlow)"])))
    return "\n".join(lines + [f"({note})" for note in notes])


def cmd_transform(args) -> int:
    # a graph's messages and the steps' indexes live until the output is written: collecting
    # while they are made finds nothing to free (and costs ~10 % of a pure-Python pipeline)
    with gc_policy.paused(freeze=False):
        return _transform(args)


def _transform(args) -> int:
    from inspector.core.app.transforming import transform_file

    def on_step(i, report):
        note = f"  [{report.spec.name}: ignored error: {report.ignored_error}]" \
            if report.ignored_error else (f"  [{report.outcome()}]" if report.unchanged else "")
        note += f"  [WARNING: {report.warning}]" if report.warning else ""
        print(f"Applied {report.spec}{' (TF native)' if report.native else ''}: "
              f"-{len(report.removed)} +{len(report.added)} ~{len(report.changed)} nodes "
              f"in {report.seconds:.2f} s{note}", file=sys.stderr)

    # gzip and FLOPs cost seconds on a big graph (FLOPs import TensorFlow): only when asked
    rows, nodes = transform_file(
        args.in_graph, args.out_graph, args.transforms, split_names(args.inputs),
        split_names(args.outputs), parse_input_shapes(args.input_shape),
        as_text=args.output_as_text, force=args.force, gzip=args.gzip,
        flops=(args.flops or bool(args.input_shape)) and not args.no_flops,
        metrics=not args.no_metrics, on_step=on_step, say=_note)
    if rows:
        print(metrics_table(rows))
    print(f"Wrote {count(nodes, 'node')} to {args.out_graph}.")
    return 0


@of_one_model
def cmd_flops(args) -> int:
    from inspector.core.app.transforming import flops_of

    speed = args.gflops * 1e9 if args.gflops else None
    f, rates, lite = flops_of(args.model, parse_input_shapes(args.input_shape), speed,
                              say=_note)
    whose = " the ops fused into its operators" if lite else ""
    if f.unknown:
        raise InspectorError(f"FLOPs cannot be counted: {f.unknown}", path=args.model)
    print(f"Total FLOPs: {f.total:,} ({tf_human_readable_num(f.total)}); TF's flops registry "
          f"counts{whose} {f.tf_total:,} ({tf_human_readable_num(f.tf_total)})")
    if lite:
        print(f"  (counted from {f.source}, without TensorFlow)")
    elif f.source:
        print(f"  (counted from {f.source})")
    fused = f.fused()
    if fused:
        print(f"  (TF's registry counts nothing for {', '.join(fused)}: counted here as the "
              f"base op plus each fused step, {tf_human_readable_num(sum(fused.values()))})")
    for note in f.assumed:
        print(f"  ({note})" if lite else f"  ({note}; give --input_shape for another size)")
    for name, (rate, ms) in rates.items():
        print(f"  estimated latency on {name} ({rate / 1e9:g} GFLOP/s): {latency(ms)}")
    print("By op type: " + ", ".join(f"{op} {tf_human_readable_num(v)}" for op, v in f.by_op()))
    print(f"Top {args.top} nodes:")
    for name, value in f.top(args.top):
        print(f"  {value:>16,}  {100.0 * value / max(f.total, 1):5.1f}%  {name}")
    if f.unknown_shape:
        print(f"{count(len(f.unknown_shape), 'node')} not counted (unknown shapes; give --input_shape): "
              + ", ".join(f.unknown_shape[:10]) + (" ..." if len(f.unknown_shape) > 10 else ""))
    return 0


def _names(text: str | None) -> list | None:
    """A flag's comma list, None when the flag was not given (`--inputs ''`: none)."""
    return None if text is None else split_names(text)


def cmd_check(args) -> int:
    from inspector.core.app.transforming import check_files

    arrays = read_arrays(args.npy)     # checked before any work starts
    shapes = parse_input_shapes(args.input_shape)
    # not given: the original's likely ports (said on stderr), as compat, tflite, profile
    results = check_files(args.original, args.transformed, _names(args.inputs),
                          _names(args.outputs), shapes, "zeros" if args.zeros else
                          "random", args.seed, arrays, args.allow_io, say=_note)
    print(f"{'output':<32} {'shape':<16} {'max abs err':>12} {'max rel err':>12} {'top-1':>8}")
    for r in results:
        top1 = "-" if r.top1_agreement is None else f"{100 * r.top1_agreement:.1f}%"
        print(f"{r.name:<32} {str(r.shape):<16} {r.max_abs_error:>12.3g} "
              f"{r.max_rel_error:>12.3g} {top1:>8}")
    for r in results:
        if r.warning():
            print(f"WARNING: {r.name}: {r.warning()}")
    failed = [r.name for r in results if any(r.non_finite)]
    if failed:      # the errors and top-1 of NaNs say nothing: the check failed (exit 1)
        print(f"graphdef-inspector: check failed: {', '.join(failed)} answered NaN or infinite "
              "values (counts above)", file=sys.stderr)
        return 1
    return 0


def add_parsers(sub) -> None:
    p = sub.add_parser("transform", help="apply graph transforms (transform_graph syntax)")
    p.add_argument("--in_graph", required=True)
    p.add_argument("--out_graph", required=True)
    p.add_argument("--inputs", default="")
    p.add_argument("--outputs", default="")
    p.add_argument("--transforms", required=True)
    p.add_argument("--output_as_text", action="store_true")
    p.add_argument("--input_shape", "--input-shape", action="append",
                   help="NAME=d0,d1,... for FLOPs (implies --flops)")
    p.add_argument("--gzip", action="store_true", help="add each step's gzip size to the table")
    p.add_argument("--flops", action="store_true",
                   help="add each step's FLOPs to the table (imports TensorFlow)")
    p.add_argument("--no_flops", action="store_true", help=argparse.SUPPRESS)  # the default now
    p.add_argument("--no_metrics", action="store_true", help="skip the metrics table")
    p.add_argument("--force", action="store_true", help="allow overwriting --out_graph")
    p.set_defaults(func=cmd_transform)
    p = sub.add_parser("flops", help="FLOPs per node and in total, with latency estimates")
    p.add_argument("model", help="a GraphDef (.pb/.pbtxt), or a .tflite (counted from its own "
                                 "tensors, without TensorFlow)")
    p.add_argument("--input_shape", "--input-shape", action="append", help="NAME=d0,d1,...")
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--gflops", type=float, help="your device's speed in GFLOP/s")
    p.set_defaults(func=cmd_flops)
    p = sub.add_parser("check", help="run two graphs in TensorFlow and compare their outputs "
                                     "(exit 0 compared, 1 an output answered NaN or infinite "
                                     "values, 2 bad input)",
                       description="Run two graphs in TensorFlow on the same inputs and "
                                   "compare their outputs. Exit 0 compared, 1 failed (an "
                                   "output of either graph answered NaN or infinite values: "
                                   "their errors and top-1 say nothing), 2 bad input.")
    p.add_argument("original")
    p.add_argument("transformed")
    p.add_argument("--inputs", help="input node names (default: the original's likely inputs)")
    p.add_argument("--outputs",
                   help="output node names (default: the original's likely outputs)")
    p.add_argument("--input_shape", "--input-shape", action="append")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--zeros", action="store_true", help="feed zeros instead of random values")
    p.add_argument("--npy", action="append", help="NAME=file.npy to feed an input from a file")
    p.add_argument("--allow_io", action="store_true",
                   help="allow running graphs with file or network ops")
    p.set_defaults(func=cmd_check)
