"""The auto-tour: a walk through a model built from the model itself. The input (and what the
model sees, after a demo run), each top-level block in data-flow order with repeated blocks
folded as "x N", the output with its top answers, and the model card. Captions come from the
glossary and the blocks' own numbers."""

from __future__ import annotations

import re

from inspector.core.analysis.blocks import main_scopes
from inspector.core.analysis.glossary import plain
from inspector.core.app.card import card
from inspector.core.app.demo import choose_ports
from inspector.core.app.tour import Stop
from inspector.core.model.parameters import weight_homes
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.model.humanize import count, tf_human_readable_num
from inspector.core.view.view_graph import ViewModel

MIN_RECT = (520.0, 320.0)   # a stop never zooms in further than this area of the scene
PAD = 50.0
MAX_BLOCK_STOPS = 40        # a long model folds the rest into its last stop
LAYER_CATEGORIES = ("convolution", "matmul", "pooling")


def wrapper_paths(view, flops=None) -> list:
    """Scopes the model sits in (Keras's model name, slim's InceptionV3/InceptionV3): opened
    so its blocks show (blocks.main_scopes)."""
    known = flops is not None and not flops.unknown
    return main_scopes(view.graph, flops.per_node if known else None)


def flow_order(scene) -> list:
    """The scene's boxes (not frames) in data-flow order; ties, and graphs with cycles
    between boxes, follow the layout's reading order."""
    import networkx as nx

    boxes = {i: it for i, it in scene.items.items() if it.kind != "frame"}
    g = nx.DiGraph()
    g.add_nodes_from(boxes)
    g.add_edges_from((e.src, e.dst) for e in scene.edges
                     if not e.control and e.src in boxes and e.dst in boxes)
    place = {i: (it.y, it.x, i) for i, it in boxes.items()}
    try:
        return list(nx.lexicographical_topological_sort(g, key=place.get))
    except nx.NetworkXUnfeasible:
        return sorted(boxes, key=place.get)


def _downstream(scene, starts) -> set:
    """Boxes the inputs reach (parts upstream of the input, such as a decoder whose output
    is the marked input, are not what the model computes from it)."""
    succ: dict = {}
    for e in scene.edges:
        succ.setdefault(e.src, []).append(e.dst)
    seen, stack = set(starts), list(starts)
    while stack:
        for nxt in succ.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def area(items: list) -> tuple:
    """The rectangle a stop shows: its boxes, padded, at least MIN_RECT."""
    x0 = min(it.x for it in items) - PAD
    y0 = min(it.y for it in items) - PAD
    x1 = max(it.x + it.w for it in items) + PAD
    y1 = max(it.y + it.h for it in items) + PAD
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = max(x1 - x0, MIN_RECT[0]), max(y1 - y0, MIN_RECT[1])
    return (cx - w / 2, cy - h / 2, w, h)


def _signature(it) -> tuple:
    return (it.op_mix, it.child_count, it.params, it.category)


def _runs(units: list) -> list:
    """Consecutive units (lists of blocks) with the same make-up folded into one run."""
    runs: list = []
    for unit in units:
        if runs and [_signature(b) for b in runs[-1][-1]] == [_signature(b) for b in unit]:
            runs[-1].append(unit)
        else:
            runs.append([unit])
    return runs


# a layer type's own digits (slim's Conv2d_1a_3x3 is no block "Conv2d")
_LAYER_TYPE = re.compile(r"(?i)^(conv|separableconv|depthwiseconv|maxpool(ing)?|avgpool(ing)?|"
                         r"pool(ing)?|upsampling|zeropadding|cropping|globalaveragepooling|"
                         r"globalmaxpooling)[123]d$")


def _block_key(it) -> str | None:
    """The block a flatly named layer belongs to, read from its name: Keras names a block's
    layers block_1_expand, block_1_depthwise_BN ... (MobileNet v2), conv2_block1_1_conv
    (ResNet), block1a_dwconv (EfficientNet): the name up to its first part with a digit, when
    a word follows (not a layer's own number: dense_1, batch_normalization_2)."""
    name = it.label if it.kind == "scope" else it.id.rsplit("/", 1)[-1]
    parts = name.split("_")
    for k, part in enumerate(parts):
        if any(c.isdigit() for c in part) and not _LAYER_TYPE.match(part):
            rest = parts[k + 1:]
            return "_".join(parts[:k + 1]) if any(not r.isdigit() for r in rest) else None
    return None


def _units(blocks: list) -> list:
    """The blocks as units: consecutive layers of one named block (see _block_key) together,
    every other block alone. A Keras MobileNet v2 is 150 boxes in one scope: its tour showed
    the first 40 layers one by one and folded the 116 others into one stop."""
    units: list = []
    for it in blocks:
        key = _block_key(it)
        if units and key is not None and _block_key(units[-1][-1]) == key:
            units[-1].append(it)
        else:
            units.append([it])
    return units


# ops that only pass values on: a scope of nothing else computes nothing to show
_PASS_ON = frozenset({"Identity", "IdentityN", "NoOp", "StopGradient", "Snapshot",
                      "PreventGradient"})


def _plumbing(view, it) -> bool:
    """A scope of pass-through ops only: TF's function inlining leaves 'Func/...' scopes of
    Identity nodes (the TF.js SSD hand detector's tour had a stop 'Func: Processing step. 1
    node'), which are no block of the model."""
    graph = view.graph
    return all(getattr(graph.get(n), "op", "") in _PASS_ON
               for n in view.nodes_under(it.id[:-1]))


def _flops_of(view, items, flops) -> int:
    if flops is None or flops.unknown:
        return 0
    total = 0
    for it in items:
        names = view.nodes_under(it.id[:-1]) if it.kind == "scope" else [it.id]
        total += sum(flops.per_node.get(n, 0) for n in names)
    return total


def _learned_of(view, items, learned: dict) -> int:
    total = 0
    for it in items:
        names = view.nodes_under(it.id[:-1]) if it.kind == "scope" else [it.id]
        total += sum(learned.get(n, 0) for n in names)
    return total


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")) \
        if text else ""


def _scope_words(caption: str) -> str:
    """'feature extractor block x2: pattern detection + switching' -> 'Feature extractor
    block: pattern detection and switching'."""
    role, _, kinds = caption.partition(":")
    role = re.sub(r" x\d+$", "", role.strip()) or "processing step"
    parts = [k.strip() for k in kinds.split("+") if k.strip()]
    parts = [k for k in parts if k not in role]
    if not parts:
        return role
    does = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{role}: {does}"


def _block_stop(view, run: list, flops, expanded: list, k: int, learned=None) -> Stop:
    first = run[0]
    label = (lambda it: it.label if it.kind == "scope" else
             (it.id if it.id == it.label else f"{it.id} ({it.label})"))
    name = label(first) if len(run) == 1 else f"{label(first)} … {label(run[-1])}"
    title = f"{name} (x {len(run)})" if len(run) > 1 else name
    if first.kind == "scope":
        caption = _scope_words(first.caption)
        if len(run) > 1:
            caption += f", repeated {len(run)} times with the same make-up"
    else:
        caption = f"{first.label}: {plain(first.label)}"
        if len(run) > 1:
            caption += f" ({len(run)} of them in a row)"
    numbers = _numbers(view, run, flops, learned)
    notes = f"Stop {k}: {title}. " + " · ".join(numbers)
    return Stop(title=title, caption=_sentence(caption) + " " + " · ".join(numbers),
                notes=notes, kind="graph", expanded=list(expanded), rect=area(run),
                focus=[it.id for it in run], overlay="activations")


def _numbers(view, items: list, flops, learned=None) -> list:
    """learned: {node: learned numbers counted at it} (weight_homes(learned=True)), the
    card's rule, so that a block's count is a part of the card's; the boxes' own `params`
    are the Summary's count (a pooling's axes, a batch norm's epsilon too)."""
    numbers = [count(sum(it.child_count if it.kind == "scope" else 1 for it in items), "node")]
    params = _learned_of(view, items, learned) if learned is not None else \
        sum(it.params or 0 for it in items)
    if params:
        numbers.append(f"{tf_human_readable_num(params)} learned numbers")
    ops = _flops_of(view, items, flops)
    if ops:
        numbers.append(f"{tf_human_readable_num(ops)} operations per input")
    return numbers


def _group_stop(view, run: list, flops, expanded: list, k: int, learned=None) -> Stop:
    """A stop for one named block of layers (or a run of blocks with the same make-up)."""
    first, last = _block_key(run[0][0]), _block_key(run[-1][0])
    title = first if len(run) == 1 else f"{first} … {last} (x {len(run)})"
    does: list = []
    for it in run[0]:
        words = _scope_words(it.caption) if it.kind == "scope" else plain(it.label)
        part = words.partition(": ")[2] or words
        if part and part not in does:
            does.append(part)
    items = [it for unit in run for it in unit]
    caption = f"a block of {count(len(run[0]), 'step')}" + (
        ": " + (does[0] if len(does) == 1 else ", ".join(does[:-1]) + " and " + does[-1])
        if does else "")
    if len(run) > 1:
        caption += f", repeated {len(run)} times with the same make-up"
    numbers = _numbers(view, items, flops, learned)
    return Stop(title=title, caption=_sentence(caption) + " " + " · ".join(numbers),
                notes=f"Stop {k}: {title}. " + " · ".join(numbers), kind="graph",
                expanded=list(expanded), rect=area(items), focus=[it.id for it in items],
                overlay="activations")


def _ports(view, inputs, outputs, expanded, scene) -> tuple:
    def visible(names):
        ids = []
        for n in names:
            base = n.split(":")[0]
            if base in view.graph:
                item = view.owner(base, set(expanded))
                if item in scene.items and item not in ids:
                    ids.append(item)
        return ids
    return visible(inputs), visible(outputs)


def build(view, inputs: list, outputs: list, card=None, demo=None, flops=None,
          input_path: str = "") -> list:
    """The stops of the auto-tour of `view` (a core ViewModel). inputs/outputs: node names
    (the user's marks or the summary's best guesses); card: its ModelCard; demo: the last
    DemoRun (what the model sees and its answer); input_path: that run's input, relative to
    the session file's folder."""
    expanded = [""] + wrapper_paths(view, flops)
    scene = view.scene(frozenset(expanded))
    order = flow_order(scene)
    items = scene.items
    in_ids, out_ids = _ports(view, inputs, outputs, expanded, scene)
    stops = []
    describe_in = card.inputs[0].plain if card and card.inputs else ""
    describe_out = card.outputs[0].plain if card and card.outputs else ""
    if in_ids:
        name = in_ids[0].rstrip("/")
        stops.append(Stop(
            title="The input", kind="input", expanded=list(expanded), selected=in_ids[0],
            rect=area([items[i] for i in in_ids]), focus=list(in_ids), input=input_path,
            caption=_sentence(f"What goes in: {describe_in}" if describe_in else
                              f"What goes in: the tensor fed to {name}"),
            notes=f"Input node: {', '.join(i.rstrip('/') for i in in_ids)}"))
    if demo is not None and demo.seen is not None:
        stops.append(Stop(
            title="What the model sees", kind="sees", expanded=list(expanded),
            selected=in_ids[0] if in_ids else "",
            rect=area([items[i] for i in in_ids]) if in_ids else None, focus=list(in_ids),
            input=input_path, caption=_sentence(demo.seen.description),
            notes="\n".join(demo.seen.warnings)))
    ports = set(in_ids) | set(out_ids)
    reached = _downstream(scene, in_ids) if in_ids else set(order)
    blocks = [items[i] for i in order if i not in ports and i in reached and (
        (items[i].kind == "scope" and not _plumbing(view, items[i])) or
        (items[i].kind == "node" and items[i].category in LAYER_CATEGORIES))]
    if not any(it.kind == "scope" for it in blocks):
        blocks = [it for it in blocks if it.kind == "node"]
    runs = _runs(_units(blocks))
    learned = weight_homes(view.graph, learned=True)
    if len(runs) > MAX_BLOCK_STOPS:
        runs = runs[:MAX_BLOCK_STOPS - 1] + [[[it] for r in runs[MAX_BLOCK_STOPS - 1:]
                                              for u in r for it in u]]   # one stop, "a … b"
    for run in runs:
        if all(len(unit) == 1 for unit in run):
            stops.append(_block_stop(view, [u[0] for u in run], flops, expanded,
                                     len(stops) + 1, learned))
        else:
            stops.append(_group_stop(view, run, flops, expanded, len(stops) + 1, learned))
    if out_ids:
        caption = f"What comes out: {describe_out}" if describe_out else \
            f"What comes out of {out_ids[0].rstrip('/')}"
        answer = _answer(demo)
        stops.append(Stop(
            title="The answer", kind="output", expanded=list(expanded), selected=out_ids[0],
            rect=area([items[i] for i in out_ids]), focus=list(out_ids), input=input_path,
            caption=_sentence(caption) + (f" {answer}" if answer else ""),
            notes=f"Output node: {', '.join(i.rstrip('/') for i in out_ids)}"))
    if card is not None:
        facts = [f.text for f in card.facts[:4]]
        stops.append(Stop(title="The model in numbers", kind="card", expanded=list(expanded),
                          caption=_sentence("; ".join(facts)) if facts else "",
                          notes=card.title))
    return stops


def _answer(demo) -> str:
    if demo is None:
        return ""
    for out in demo.outputs:
        if out.kind == "classes" and out.top:
            index, p = out.top[0]
            name = out.labels[0] if out.labels else f"class {index}"
            return f"For this input the top answer is “{name}” ({p * 100:.0f} %)."
    return ""


def stops_for(model, view, engine, marks=((), ()), demo=None, relative: str = "",
              summary=None, job: Job = NO_JOB) -> list:
    """The auto-tour of an opened model, the same on `tour --auto` and Tour > Auto-tour: its
    card (core.app.card), the ports (marks first), then `build`."""
    made = card(model, engine, None, summary, job=job)
    ins, outs = choose_ports(marks[0], marks[1], made.summary)
    return build(view, ins, outs, made.card, demo, made.flops, relative)


def start_auto_tour(state, tasks, relative: str, on_error, then=None) -> None:
    """Build the open model's auto-tour in a task; its stops replace the workbench's tour
    (`then(stops)` just before)."""
    model, view, wb = state.model, state.original_view, state.workbench
    if model is None or view is None:
        return
    marks, summary, engine, demo = (list(wb.inputs), list(wb.outputs)), state.summary, \
        state.engine, state.demo

    def done(stops):
        if model is state.model:
            if then is not None:
                then(stops)
            wb.tour.replace(stops)
            state.say(f"Auto-tour: {len(stops)} stops")

    tasks.submit("tour", lambda job: stops_for(model, view, engine, marks, demo, relative,
                                               summary, job),
                 done, on_error, label="Building the tour")


def view_of(model):
    """The view a tour's pictures are drawn from (`tour`: all scopes as the window opens
    them)."""
    return ViewModel(model.graph)
