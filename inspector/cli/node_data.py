"""`overlay export|import`: Model Explorer node-data JSON both ways, through the same use
cases as the window (core/app/node_data_io.py). Export fills the overlay from a file (timings,
a range log, a node-data file), from the TFLite check (compat) or from a target report."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from types import SimpleNamespace

from inspector.cli.loading import _load
from inspector.cli.tflite_args import add_port_arguments, ports
from inspector.core.app.targets import report_of
from inspector.core.errors import InspectorError


def _state(model):
    """What the overlay use cases and the registry read and write, without a window: the
    model, its graph, an overlay."""
    from inspector.core.app.results import OverlayState

    view = SimpleNamespace(graph=model.graph)
    state = SimpleNamespace(model=model, view=view, original_view=view, demo=None,
                            overlay=OverlayState(), expanded=frozenset({""}),
                            visible_id=lambda name: name)
    state.set_overlay = lambda overlay: setattr(state, "overlay", overlay)
    return state


def _fill(state, args) -> None:
    """The overlay filled by the window's own use cases (core.app.overlay_runs,
    tflite_check, targets, node_data_io)."""
    from inspector.core.app import node_data_io as io
    from inspector.core.app import overlay_runs

    mode = args.overlay
    if mode == "timings":
        if not args.timings:
            raise InspectorError("--overlay timings needs --timings FILE (benchmark_model "
                                 "output or a Chrome trace)")
        overlay_runs.import_timings(state, args.timings)
        profile = state.overlay.profile
        if profile is not None and profile.nodes and \
                len(profile.unmatched) + len(profile.runtime_only) == len(profile.nodes):
            raise InspectorError(profile.match_summary(), path=args.timings)   # why no data
    elif mode == "ranges":
        if not args.ranges:
            raise InspectorError("--overlay ranges needs --ranges LOG (a requantization log)")
        overlay_runs.import_ranges(state, args.ranges)
    elif mode == "compat":
        from inspector.core.app import tflite_check

        ins, outs = ports(state.model, args)
        checked = tflite_check.check(state.model.graph, ins, outs)
        state.set_overlay(replace(state.overlay, compat=checked.statuses()))
    elif mode == "node-data":
        if not args.node_data:
            raise InspectorError("--overlay node-data needs --node-data FILE")
        placed = io.read_onto(state.model.graph, args.node_data, state.model)
        state.set_overlay(replace(state.overlay, node_data=placed))
    elif mode == "targets":
        state.set_overlay(replace(state.overlay, targets=report_of(state.model, args.target)))
    else:
        raise InspectorError(f"the CLI cannot fill the '{mode}' overlay (choose from "
                             f"{', '.join(m for m in EXPORTABLE if io.overlay_exists(m))})")
    state.set_overlay(replace(state.overlay, mode=mode))


EXPORTABLE = ("timings", "ranges", "compat", "node-data", "targets")


def cmd_overlay_export(args) -> int:
    from inspector.core.app import node_data_io as io
    from inspector.core.app.exports import check_target

    check_target(args.output, args.force)
    model = _load(args)
    state = _state(model)
    _fill(state, args)
    written = io.export_node_data(state, args.output, args.overlay, force=args.force)
    print(f"Wrote {written:,} node-data entries ({args.overlay}) to {args.output}")
    return 0


def cmd_overlay_import(args) -> int:
    from inspector.core.app import node_data_io as io

    model = _load(args)
    placed = io.read_onto(model.graph, args.file, model)
    if args.json:
        json.dump({"name": placed.name, "entries": placed.total,
                   "values": placed.values, "colours": placed.colours,
                   "keys": placed.keys, "unmatched": list(placed.unmatched)},
                  sys.stdout, indent=1)
        print()
        return 0
    print(f"'{placed.name}': {len(placed.values):,} of {placed.total:,} entries on nodes")
    for node, value in list(placed.values.items())[:args.limit]:
        print(f"  {node}  {value if isinstance(value, str) else format(value, '.6g')}  "
              f"{placed.colours[node]}")
    if len(placed.values) > args.limit:
        print(f"  ... and {len(placed.values) - args.limit:,} more (--limit)")
    if placed.unmatched:
        print(io.unmatched_text(placed, args.limit))
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("overlay", help="Model Explorer node-data JSON: export an overlay, "
                                       "or import one onto the model")
    both = p.add_subparsers(dest="direction")
    e = both.add_parser("export", help="write an overlay as Model Explorer node-data JSON")
    add_load_args(e)
    e.add_argument("--overlay", required=True, choices=EXPORTABLE)
    e.add_argument("-o", "--output", required=True)
    e.add_argument("--timings", help="timings: benchmark_model output or a Chrome trace")
    e.add_argument("--ranges", help="ranges: a requantization range log")
    e.add_argument("--node-data", dest="node_data", help="node-data: a node-data file")
    e.add_argument("--target", default="ethos-u55-128", help="targets: the target to report")
    add_port_arguments(e)          # compat: the ports checked
    e.add_argument("--force", action="store_true")
    e.set_defaults(func=cmd_overlay_export)
    i = both.add_parser("import", help="match a node-data file onto the model's nodes")
    add_load_args(i)
    i.add_argument("file", help="a Model Explorer node-data JSON file")
    i.add_argument("--json", action="store_true")
    i.add_argument("--limit", type=int, default=20)
    i.set_defaults(func=cmd_overlay_import)
