"""What every command that reads a model shares: its arguments and opening it as the user
means it (core.app.opening), with the notes on how it was opened on stderr."""

from __future__ import annotations

import argparse
import functools
import sys

from inspector.core.app.demo_model import DEMO_MODEL
from inspector.core.errors import InspectorError
from inspector.core.runtime import gc_policy


def _split(text: str | None) -> list:
    return [t for t in (text or "").split(",") if t]


def _add_load_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", nargs="?", default=DEMO_MODEL,
                   help="GraphDef (.pb/.pbtxt), SavedModel dir, .meta, .keras/.h5, TF.js "
                        "model.json or .tflite (default: the bundled demo model)")
    p.add_argument("--signature", help="SavedModel signature to freeze (default serving_default)")
    p.add_argument("--tags", help="SavedModel MetaGraph tags, comma separated")
    p.add_argument("--checkpoint", help="checkpoint to freeze a .meta with: its prefix, or the folder holding it")
    p.add_argument("--freeze_outputs", help="output node names for freezing a .meta (default: the likely outputs)")
    p.add_argument("--no-freeze", action="store_true",
                   help="show a SavedModel's raw graph instead of freezing a signature")
    p.add_argument("--allow_io", action="store_true",
                   help="allow loading models whose initialisers run operations that are not "
                        "pure computation (files, network, Python)")


def _load(args, notes: bool = True):
    """The model of args.model, its notes said on stderr (`notes` False: by the caller)."""
    from inspector.core.app.opening import open_model

    with gc_policy.paused():    # a big graph's objects all live: collecting them finds nothing
        model = open_model(args.model, freeze=not args.no_freeze,
                           tags=_split(args.tags) or None, signature=args.signature,
                           checkpoint=args.checkpoint,
                           outputs=_split(args.freeze_outputs) or None,
                           allow_unsafe=args.allow_io)
    gc_policy.keep_out_of_collections()
    if notes:
        say_notes(model)
    return model


def say_notes(model) -> None:
    for note in model.notes:
        print(f"note: {note}", file=sys.stderr)


def of_one_model(command):
    """A command that reads one model: an InspectorError naming no file (TensorFlow's refusal
    to import the graph, the converter's, a made-up input's size) names the model's, as every
    other error of the command does ('TensorFlow cannot import the graph: Shape [-5,3] ...'
    said no file)."""
    @functools.wraps(command)
    def run(args):
        try:
            return command(args)
        except InspectorError as exc:
            if not exc.path and isinstance(getattr(args, "model", None), str) and \
                    not exc.message.startswith("--"):     # (an option's refusal: not the file's)
                exc.path = args.model
            raise
    return run
