"""Which inputs and outputs a feature uses when the user marked none: one rule for the window
(profile, calibrate, demo, TFLite, the card, tours, "Use suggested inputs and outputs") and
the command line. Marks win, side by side; else the inputs the summary scores as real feed
points (100 or more) and the outputs that share the top score (70 or more: a real answer,
not a leftover). A model whose signature declares its ports gets those, every one of them, as
the command line takes them (model.known_inputs/outputs): a guess is capped, a declaration
is not (the TF.js SSD hand detector's 8 outputs were cut to 3 in the window)."""

from __future__ import annotations

from inspector.core.analysis.summary import SIGNATURE_SCORE, summarize
from inspector.core.errors import InspectorError

MAX_INPUTS, MAX_OUTPUTS = 4, 3
INPUT_SCORE, OUTPUT_SCORE = 100, 70


def suggested_ports(summary) -> tuple[list, list]:
    """(inputs, outputs) the summary ranks as the model's real ports."""
    if summary is None:
        return [], []
    ins = [c.name for c in summary.inputs if c.score >= SIGNATURE_SCORE] or \
        [c.name for c in summary.inputs if c.score >= INPUT_SCORE][:MAX_INPUTS]
    top = max((c.score for c in summary.outputs), default=0)
    outs = [c.name for c in summary.outputs if c.score == top] if top >= OUTPUT_SCORE else []
    return ins, outs if top >= SIGNATURE_SCORE else outs[:MAX_OUTPUTS]


def ports_to_use(marked_inputs, marked_outputs, summary) -> tuple[list, list]:
    """The marks, else the suggestions, for each side on its own."""
    ins, outs = list(marked_inputs), list(marked_outputs)
    if ins and outs:
        return ins, outs
    auto_ins, auto_outs = suggested_ports(summary)
    return ins or auto_ins, outs or auto_outs


def _quiet(note: str) -> None:
    pass


def model_ports(model, inputs: list | None, outputs: list | None, required: bool = False,
                say=_quiet) -> tuple[list, list]:
    """The ports a command runs an opened model from: the names given, the likely ones for a
    side given none (None; `say` hears which it took), each checked to be in the graph. The
    command line's rule (compat, tflite, profile, calibrate, check). `required`: a side left
    to the default that finds nothing is an error naming its flag."""
    ins, outs = list(inputs or []), list(outputs or [])
    if inputs is None or outputs is None:
        # the summary as opening.summary_of makes it (its signature's ports first)
        summary = summarize(model.graph, model.known_inputs, model.known_outputs,
                            model.signature)
        auto_ins, auto_outs = ports_to_use(model.known_inputs, model.known_outputs, summary)
        ins = auto_ins if inputs is None else ins
        outs = auto_outs if outputs is None else outs
        for flag, given, names, what in (("--inputs", inputs, ins, "input"),
                                         ("--outputs", outputs, outs, "output")):
            if required and given is None and not names:     # the one line said
                raise InspectorError(f"no likely {what} found in the model: give {flag} "
                                     "NAME[,NAME]", path=model.path)
        say(f"using inputs {','.join(ins) or '(none)'} and outputs "
            f"{','.join(outs) or '(none)'} (give --inputs/--outputs to choose)")
    for name in ins + outs:
        if ":" in name and name in model.graph:     # a node named 'y:z' or ':' (hostile17:
            # taken as node 'y' port 'z', it read "no such node" or "a signature that names
            # none" on a GraphDef)
            raise InspectorError("its name holds ':', which TensorFlow refuses in a node's "
                                 "name: give --inputs and --outputs", path=model.path,
                                 node=name)
        if not name.split(":")[0]:       # a SavedModel signature's tensor of no name
            raise InspectorError("an input or output with no tensor name (a signature that "
                                 "names none): give --inputs and --outputs",
                                 path=model.path)
        if name.split(":")[0] not in model.graph:
            raise InspectorError("no such node in the model", path=model.path,
                                 node=name.split(":")[0])
    return ins, outs


def marked_or_suggested(state) -> tuple[list, list]:
    """The state's marks, else the suggestions; raises when there is still no output."""
    bench = state.workbench
    ins, outs = ports_to_use(bench.inputs, bench.outputs, state.summary)
    if not outs:
        raise InspectorError("mark the model's output first (no likely output stands out)")
    return ins, outs


def ports_or_say(state) -> tuple[list, list] | None:
    """marked_or_suggested(state), or None after telling the user why there are none."""
    try:
        return marked_or_suggested(state)
    except InspectorError as exc:
        state.fail(exc.one_line())
        return None
