"""CLI: `graphdef-inspector tour MODEL --auto [--input IMAGE] -o tour.html|tour.pdf` writes a
tour that opens without the app: the auto-tour built from the model, or the tour saved in the
model's session file. Pictures are drawn by Qt on its offscreen platform (no display needed)."""

from __future__ import annotations

import os
import sys

from inspector.cli.loading import _load, of_one_model
from inspector.core.errors import InspectorError


def _stops(model, view, args, run):
    from inspector.core.app import auto_tour, demo
    from inspector.core.app.workbench import Workbench

    if not args.auto:
        bench = Workbench()
        if bench.restore(model.path, model.graph) is None or not bench.tour.stops:
            raise InspectorError("the model has no saved tour (MODEL.inspector.json); "
                                 "--auto builds one from the model", path=model.path)
        for line in bench.warnings:
            print(f"session file: {line}", file=sys.stderr)
        return bench.tour.stops
    where = os.path.dirname(os.path.abspath(model.path.rstrip("/")))
    relative = os.path.relpath(os.path.abspath(args.input), where) if args.input else ""
    return auto_tour.stops_for(model, view, demo.engine_here(model.graph.graph_def),
                               (model.known_inputs, model.known_outputs), run, relative)


@of_one_model
def cmd_tour(args) -> int:
    from inspector.core.app.exports import check_target
    from inspector.core.app.auto_tour import view_of
    from inspector.core.app.demo import run_on_file

    check_target(args.output, args.force, source=args.model)   # before any work
    model = _load(args)
    run = run_on_file(model, args.input, args.labels, args.value_range, None,
                   getattr(args, "allow_io", False))[1] if args.input else None
    view = view_of(model)
    stops = _stops(model, view, args, run)
    from inspector.gui.tour_export import export_tour, offscreen_app

    app = offscreen_app()  # noqa: F841  (kept alive while drawing)
    export_tour(args.output, view, stops, run, model.path, force=args.force)
    print(f"Wrote {args.output}: {len(stops)} stops")
    for k, stop in enumerate(stops):
        print(f"  {k + 1:2d}. {stop.title}: {stop.caption}")
    sys.stdout.flush()
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("tour", help="write a tour of the model as one HTML file or PDF slides")
    add_load_args(p)
    p.add_argument("--auto", action="store_true",
                   help="build the tour from the model (input, blocks, answer, card); "
                        "without it the tour saved in MODEL.inspector.json is used")
    p.add_argument("--input", metavar="IMAGE|WAV|NPY",
                   help="run the model on this first: what it sees and its answer")
    p.add_argument("--labels", metavar="FILE", help="class names, one per line")
    p.add_argument("--value_range", choices=["0_1", "-1_1", "0_255", "imagenet", "caffe"],
                   help="how pixels are scaled for an input the graph does not scale itself")
    p.add_argument("-o", "--output", required=True, help="tour.html or tour.pdf")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    p.set_defaults(func=cmd_tour)
