"""CLI subcommands for timings and ranges: profile, calibrate, ranges."""

from __future__ import annotations

import math
import os
import sys

from inspector.cli import tflite_args as ta
from inspector.cli.loading import of_one_model
from inspector.core.app.inputs import model_input_shapes, read_arrays
from inspector.core.errors import InspectorError
from inspector.core.runtime.job import NO_JOB, Job


def _opened(args, opened, what: str):
    """The model as the window and `summarize` open it (overlay_runs.opened: one TensorFlow
    cannot run, a .tflite, refused in one line), its notes on stderr."""
    model = opened(args.model, args.allow_io, what)
    for note in model.notes:
        print(f"note: {note}", file=sys.stderr)
    return model


@of_one_model
def cmd_profile(args) -> int:
    from inspector.core.app.overlay_runs import opened, profile_file

    arrays = read_arrays(args.npy)
    model = _opened(args, opened, "profile")
    inputs, outputs = ta.ports(model, args, required=True)   # the likely ones by default
    shapes = ta.input_shapes(args, model, inputs) or {}
    ta.note_open_sizes(model, inputs, shapes)
    prof = profile_file(model, inputs, outputs, shapes,
                        "zeros" if args.zeros else "random", args.seed, arrays, args.warmup,
                        args.runs, args.intra, args.inter, args.allow_io,
                        job=Job(on_progress=lambda d, t, what: print(what, file=sys.stderr))
                        if args.verbose else NO_JOB)
    plain, traced = prof.average_us() or 0.0, prof.average_us(traced=True) or 0.0
    sys.stdout.write(prof.text)
    print(f"Average inference timings in us: no stats: {plain:.0f}, with stats: {traced:.0f} "
          f"(tracing overhead {100.0 * (traced - plain) / max(plain, 1):+.0f}%)")
    if prof.unmatched:      # which of them TF's optimizer made while running, and why
        print(prof.match_summary())
    return 0


@of_one_model
def cmd_calibrate(args) -> int:
    from inspector.core.app.exports import atomic_write, check_target, write_graph
    from inspector.core.app.overlay_runs import calibrate_file, freeze_and_compare, opened

    # every output path is checked before the (long) work, so nothing is written on a refusal
    check_target(args.log, args.force)
    if args.freeze:
        check_target(args.freeze, args.force, source=args.model)
    if args.count < 1:
        raise InspectorError(f"--count must be at least 1 (got {args.count})")
    model = _opened(args, opened, "calibrate")
    inputs, outputs = ta.ports(model, args, required=True)   # the likely ones by default
    shapes = ta.input_shapes(args, model, inputs) or {}
    ta.note_open_sizes(model, inputs[:1], shapes)          # calibrate feeds the first only
    first = inputs[0].split(":")[0]
    shape = model_input_shapes(model, inputs[:1], shapes)[0].get(first)   # else declared
    if shape is None:
        raise InspectorError(f"the input has no shape to calibrate with: give "
                             f"--input_shape {first}=D,D,...", path=args.model, node=first)
    if args.data == "random":
        data = {"kind": "random", "count": args.count, "seed": args.seed}
    elif (args.data.endswith(".npy") and os.path.isfile(args.data)) or (
            os.path.isdir(args.data) and any(
            f.endswith(".npy") for f in os.listdir(args.data))):
        data = {"kind": "npy", "path": args.data}
    elif os.path.isdir(args.data):
        data = {"kind": "images", "path": args.data, "mean": args.mean, "std": args.std}
    else:
        raise InspectorError(f"--data: '{args.data}' is neither 'random', an existing .npy file "
                             "nor a folder")
    gd, result = calibrate_file(model, inputs, outputs, list(shape), data, args.allow_io,
                                Job(on_progress=lambda d, t, what: print(what, file=sys.stderr)))
    atomic_write(args.log, result.log_text, force=args.force)
    print(f"{result.samples} inputs, {len(result.log.records)} RequantizationRange nodes, "
          f"{sum(len(v) for v in result.log.records.values())} log lines -> {args.log}")
    if args.freeze:
        frozen, compared, hint = freeze_and_compare(
            gd, result, args.min_percentile, args.max_percentile, inputs, outputs, shapes,
            args.allow_io, Job(on_progress=lambda d, t, what: print(f"comparing: {what}",
                                                                    file=sys.stderr)))
        write_graph(frozen, args.freeze, force=args.force, source=args.model)
        for r in compared:
            top1 = "" if r.top1_agreement is None else \
                f", top-1 agreement {100 * r.top1_agreement:.0f}%"
            print(f"{r.name}: max abs error {r.max_abs_error:.3g} (float vs eight-bit){top1}")
        print(hint)
        print(f"Wrote the frozen eight-bit graph to {args.freeze}")
    return 0


def cmd_ranges(args) -> int:
    from inspector.core.app.overlay_runs import chosen_ranges_of, read_range_log

    for flag, value in (("--min_percentile", args.min_percentile),
                        ("--max_percentile", args.max_percentile)):
        if not math.isfinite(value) or not 0.0 <= value < 50.0:
            raise InspectorError(f"{flag} must be a percentile from 0 to below 50 (got {value})")
    _, log = read_range_log(args.log, what="the log")
    chosen, warnings = chosen_ranges_of(log, args.min_percentile, args.max_percentile)
    width = max(len(n) for n in chosen)
    print(f"{'node':<{width}}  {'runs':>5}  {'min':>12}  {'max':>12}  "
          f"{'lowest min':>12}  {'highest max':>12}")
    for name, (lo, hi) in chosen.items():
        pairs = log.records[name]
        print(f"{name:<{width}}  {len(pairs):>5}  {lo:>12.6g}  {hi:>12.6g}  "
              f"{min(p[0] for p in pairs):>12.6g}  {max(p[1] for p in pairs):>12.6g}")
    for warning in warnings:
        print(f"warning: {warning}")
    if log.lines_skipped:
        print(f"{log.lines_skipped} lines with the marker could not be parsed")
    return 0


def add_parsers(sub) -> None:
    p = sub.add_parser("profile", help="per-node timings in TensorFlow (benchmark_model tables)")
    p.add_argument("model")
    ta.add_port_arguments(p)
    p.add_argument("--input_shape", "--input-shape", action="append",
                   help="NAME=d0,d1,... (default: the declared shape, else the window's)")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--intra", type=int, default=0, help="intra-op threads (0 = TF's default)")
    p.add_argument("--inter", type=int, default=1, help="inter-op threads (mobile: 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--zeros", action="store_true")
    p.add_argument("--npy", action="append", help="NAME=file.npy")
    p.add_argument("--allow_io", action="store_true")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=cmd_profile)
    p = sub.add_parser("calibrate", help="log requantization ranges on calibration inputs")
    p.add_argument("model")
    ta.add_port_arguments(p)
    p.add_argument("--input_shape", "--input-shape", action="append",
                   help="NAME=d0,d1,... (default: the declared shape, else the window's)")
    p.add_argument("--data", default="random", help="'random' (the default), a .npy file, or "
                                                    "a folder of .npy files or images")
    p.add_argument("--count", type=int, default=8, help="random inputs to use")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mean", type=float, default=0.0, help="images: subtract this ...")
    p.add_argument("--std", type=float, default=1.0, help="... then divide by this")
    p.add_argument("--log", required=True, help="write the range lines here (TF format)")
    p.add_argument("--freeze", help="also write the graph with frozen ranges here")
    p.add_argument("--min_percentile", type=float, default=5.0)
    p.add_argument("--max_percentile", type=float, default=5.0)
    p.add_argument("--allow_io", action="store_true",
                   help="allow running graphs with file or network ops")
    p.add_argument("--force", action="store_true")
    p.set_defaults(func=cmd_calibrate)
    p = sub.add_parser("ranges", help="per-node ranges from a requantization log")
    p.add_argument("log")
    p.add_argument("--min_percentile", type=float, default=5.0)
    p.add_argument("--max_percentile", type=float, default=5.0)
    p.set_defaults(func=cmd_ranges)
