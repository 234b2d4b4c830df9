"""CLI: `graphdef-inspector diff A B [--json] [--html OUT] [--me-mapping OUT]` compares two
models (or A with what a pipeline makes of it: `diff A --pipeline "..."`). Exit codes as TF's
compare_graphs: 0 equal, 1 different, 2 bad input."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading

from inspector.cli.loading import _load, _split, say_notes
from inspector.core.app.diffing import (
    after_pipeline,
    diff_models,
    diff_text,
    gzip_key,
    read_ahead,
    start_a_costs,
    write_json,
)
from inspector.core.app.identical import identical_diff, same_bytes
from inspector.core.errors import InspectorError
from inspector.core.runtime import gc_policy
from inspector.core.runtime.job import Job, running


def _open(path: str, args, notes: bool = True):
    ns = argparse.Namespace(**{**vars(args), "model": path})

    return _load(ns, notes)


class _OpenApart:
    """B opened on a thread of its own while A opens on this one, where both files are read
    by reader processes that send every piece with its columns: this process only adds
    them (100k nodes: ~0.13 s of CPU a model), and the two readers' walks overlap. The
    thread's model, its notes said (after A's) or its error raised by `model()`."""

    def __init__(self, path: str, args, hand_over):
        self._model, self._error, self.hand_over = None, None, hand_over
        self._job = Job()
        self._thread = threading.Thread(target=self._run, args=(path, args),
                                        name="diff-open-b", daemon=True)
        self._thread.start()

    def _run(self, path: str, args) -> None:
        try:
            with running(self._job):
                self._model = _open(path, args, notes=False)
        except BaseException as exc:  # noqa: BLE001  (raised by model(), after A's open)
            self._error = exc

    def stop(self) -> None:
        """A did not open (or the diff stopped before B's model was asked for): B's reader
        stopped, its open left (a daemon thread)."""
        if self.hand_over is not None:
            self._job.cancel()
            self.hand_over(keep=False)

    def model(self):
        self._thread.join()
        self.hand_over = None
        if self._error is not None:
            raise self._error
        say_notes(self._model)
        return self._model


def build_diff(args):
    """(diff, model A, graph B, model B): B from a file, or from A through --pipeline (with
    the pipeline's own provenance; model B is then None). core.app.diffing.diff_models: the
    window's rules."""
    if args.limit < 0:
        raise InspectorError(f"--limit must be 0 or more, not {args.limit}")
    for flag, given, used_with in (("--inputs", args.inputs, args.pipeline or args.numeric),
                                   ("--outputs", args.outputs, args.pipeline or args.numeric),
                                   ("--input", args.input, args.numeric)):
        if given is not None and not used_with:     # said, not ignored (an identical pair reads no names)
            raise InspectorError(f"{flag} is used only with "
                                 f"{'--numeric' if flag == '--input' else '--pipeline or --numeric'}"
                                 "; without it, diff compares the whole models")
    if args.other and not (args.pipeline or args.html or args.me_mapping or args.numeric):
        size = same_bytes(args.model, args.other)    # the same bytes: no parse, no TF
        if size is not None:
            return identical_diff(args.model, args.other, size), None, None, None
    ahead_a, ahead = read_ahead(args.model, args.other) if args.other and not args.pipeline \
        else (None, None)
    b_apart = None          # (both readers forked, then B opened on a thread while A opens)
    if ahead is not None and ahead_a is not None:
        ahead()
        b_apart = _OpenApart(args.other, args, ahead)
    try:
        if ahead_a is not None:
            ahead_a()
        a = _open(args.model, args)
    except BaseException:
        if b_apart is not None:
            b_apart.stop()
        elif ahead is not None:
            ahead(keep=False)
        raise
    if ahead is not None and b_apart is None:
        ahead()
    a_costs = None      # A's FLOPs and gzip size counted in a forked copy while B loads
    keys = [gzip_key(a), None]     # each file's gzip size kept across runs
    if args.other and not args.pipeline and not args.no_flops and b_apart is None:
        a_costs = start_a_costs(a.graph, args.model, keys[0])   # (B opened apart: both
    #   sides' costs in one copy while they match, A's FLOPs first: diff_models)
    try:
        missing = [n for n in _split(args.inputs) + _split(args.outputs)
                   if n.split(":")[0] not in a.graph]
        if missing:
            raise InspectorError(f"no node named {', '.join(repr(n) for n in missing)} in A "
                                 "(--inputs/--outputs name nodes of the first model)",
                                 path=args.model)
        steps, b = None, None
        if args.pipeline:
            if args.other:
                raise InspectorError("give B or --pipeline, not both")
            gb, steps = after_pipeline(a.graph, args.pipeline, _split(args.inputs),
                                       _split(args.outputs))
            for step in steps:      # (quantize_weights' zeros that Dequantize makes NaN)
                if step.warning:
                    print(f"WARNING: {step.spec}: {step.warning}", file=sys.stderr)
            b_label, b_path = f"{args.model} after {args.pipeline}", ""
        elif args.other:
            b = b_apart.model() if b_apart is not None else _open(args.other, args)
            gb, b_label, b_path = b.graph, args.other, args.other
            keys[1] = gzip_key(b)
        else:
            raise InspectorError("diff needs a second model (B) or --pipeline")
        d = diff_models(a.graph, gb, (args.model, b_label), steps, (args.model, b_path),
                        totals=not args.no_flops, a_costs=a_costs, gzip_keys=tuple(keys))
    except BaseException:       # (B does not open: A's copy is not waited for)
        if b_apart is not None:
            b_apart.stop()
        if a_costs is not None and hasattr(a_costs, "pid"):
            with contextlib.suppress(OSError):
                os.kill(a_costs.pid, signal.SIGKILL)
        raise
    return d, a, gb, b


def numeric(d, a, gb, args):
    """Both models run on the same input (--input FILE.npy for the first input, else seeded
    random values): a GraphDef in TensorFlow, a .tflite in LiteRT; every matched pair's
    tensors compared (a quantized .tflite's dequantized)."""
    import numpy as np

    from inspector.core.app.opening import summary_of
    from inspector.core.app.comparing import numeric_between

    ga = a.graph
    summary = summary_of(a)
    first = None
    if args.input:
        from inspector.core.app.inputs import read_array

        first = np.asarray(read_array(args.input))
    try:
        return numeric_between(d, ga, gb, summary, _split(args.inputs), _split(args.outputs),
                               first_input=first, threshold=args.threshold,
                               allow_io=args.allow_io, every_candidate=True,
                               paths=(args.model, args.other or ""))
    except InspectorError as exc:
        if "cannot be made up" not in exc.message:
            raise
        raise InspectorError(f"input '{exc.node}' takes strings (encoded bytes), which cannot "
                             "be made up: give a tensor past the decoder with --inputs (e.g. "
                             "--inputs Mul) or an array with --input FILE.npy",
                             node=exc.node) from None


def _numeric_text(result, limit: int = 40) -> str:
    """What ran each side, how the inputs were made, the first activation past the threshold
    and every compared layer in A's order (the worst marked)."""
    per = result.per_node
    engines = " · ".join(f"{side}: {e}" for side, e in zip("AB", result.engines) if e)
    lines = ["", f"Numeric divergence ({len(per)} matched tensors compared, threshold: "
                 f"peak-relative error {result.threshold:g}; {engines}):"]
    lines += [f"  input {note}" for note in result.inputs]
    b_of = dict(result.pairs)

    def layer(a):
        op = result.layers.get(a)
        return f"{a} -> {op} {b_of[a]}" if op else a

    if result.first:
        lines.append(f"  first activation past it: {layer(result.first)} "
                     f"(SNR {per[result.first]['snr_db']:.1f} dB)")
    else:
        lines.append("  no activation past it")
    layers = [a for a, _ in result.pairs if a not in result.constant]
    worst = min(layers, key=lambda a: per[a]["snr_db"], default=None)
    lines.append("  per layer, in A's order (SNR: signal over B's error, higher is closer):")
    shown = layers[:max(limit, 1)]
    width = min(64, max((len(layer(a)) for a in shown), default=0))
    for a in shown:
        m = per[a]
        mark = "  <- worst" if a == worst else ("  <- first" if a == result.first else "")
        lines.append(f"    {layer(a):{width}s}  SNR {m['snr_db']:6.1f} dB  cosine "
                     f"{m['cosine']:.6f}  peak rel {m['peak_rel_error']:.3g}{mark}")
    if len(layers) > len(shown):
        lines.append(f"    ... and {len(layers) - len(shown)} more (--limit)")
    if result.constant:
        low = min(result.constant, key=lambda a: per[a]["snr_db"])
        lines.append(f"  and {len(result.constant)} weights or nodes computed from weights only "
                     f"(no input reaches them): lowest SNR {per[low]['snr_db']:.1f} dB at "
                     f"{low}")
    for name, why in result.skipped[:5]:
        lines.append(f"  (not compared: {name}: {why})")
    return "\n".join(lines) + "\n"


def cmd_diff(args) -> int:
    if args.html or args.me_mapping:
        from inspector.core.app.exports import atomic_write, check_target

        for target in (args.html, args.me_mapping):
            if target:
                check_target(target, args.force, source=args.model)
    if args.me_mapping and args.pipeline:
        raise InspectorError("--me-mapping needs B as a file Model Explorer can open: write "
                             "the pipeline's output with `transform --out_graph B.pb` and "
                             "compare A with B.pb")
    d, a, gb, b = build_diff(args)
    gc_policy.hold_till_exit(d, a, gb, b)     # freed by the process's end, not one by one
    if args.me_mapping:             # before anything is written: a side may have no ids
        from inspector.core.app import model_explorer

        ids = model_explorer.mapping_ids(a, b)
    result = numeric(d, a, gb, args) if args.numeric else None   # before anything is written
    if args.html:
        from inspector.core.app.comparing import report_page

        atomic_write(args.html, report_page(d, a.graph, gb, result), force=args.force)
        print(f"Wrote {args.html}", file=sys.stderr)
    if args.me_mapping:
        atomic_write(args.me_mapping, json.dumps(model_explorer.mapping(d, ids), indent=1),
                     force=args.force)
        print(f"Wrote {args.me_mapping} (Model Explorer: sync navigation, upload mapping)",
              file=sys.stderr)
    if args.json:
        write_json(d, sys.stdout.write,        # streamed: 300k entries never one text
                   {"numeric": result.as_dict()} if result is not None else None)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(diff_text(d, args.limit))
        if result is not None:
            sys.stdout.write(_numeric_text(result, args.limit))
    sys.stdout.flush()
    return 0 if d.equal else 1


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("diff", help="compare two models: what changed, matched by structure "
                                    "and names (exit 0 equal, 1 different, 2 bad input)",
                       description="Compare model A with model B: each a GraphDef "
                                   "(.pb/.pbtxt), SavedModel folder, .meta, .keras/.h5, "
                                   "TensorFlow.js model.json or TensorFlow Lite .tflite file "
                                   "(a GraphDef against its .tflite maps every operator to "
                                   "its nodes). Exit 0 equal, 1 different, 2 bad input.")
    add_load_args(p)
    p.add_argument("other", nargs="?", help="model B, any of the same kinds, .tflite too "
                                            "(or use --pipeline)")
    p.add_argument("--pipeline", help="compare A with A after these transforms")
    p.add_argument("--inputs", help="inputs for --pipeline or --numeric, comma separated")
    p.add_argument("--outputs", help="outputs for --pipeline or --numeric, comma separated")
    p.add_argument("--json", action="store_true", help="the whole diff as JSON")
    p.add_argument("--html", metavar="OUT", help="write a one-file HTML report")
    p.add_argument("--me-mapping", metavar="OUT",
                   help="write Model Explorer's side-by-side mapping file")
    p.add_argument("--numeric", action="store_true",
                   help="run both models on the same input and compare every matched tensor "
                        "(a GraphDef in TensorFlow, a .tflite in LiteRT, int8 dequantized): "
                        "per-layer SNR and the first activation past --threshold")
    p.add_argument("--input", metavar="FILE.npy", help="the input for --numeric (default: "
                                                      "seeded random values)")
    p.add_argument("--threshold", type=float, default=1e-3,
                   help="peak-relative error (max|B - A| / max|A| of a tensor) past which "
                        "a node diverges (--numeric)")
    p.add_argument("--no-flops", action="store_true",
                   help="skip gzip size, FLOPs and latency (counted from the graphs' own shapes; "
                        "TensorFlow's shape inference only where those leave ops unknown)")
    p.add_argument("--limit", type=int, default=40, help="changes listed in the text report")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(func=cmd_diff)



