"""Opening a model the way a user means it, one function for the window and the CLI
(open_model): `load`; a SavedModel's signatures to choose from; a .meta frozen with the
checkpoint given or the one beside it, for the outputs given or the top-ranked likely ones
(and saying which). The window's `start_open` runs it in a task and hands the model to the
state."""

from __future__ import annotations

import os

from inspector.core.analysis import output_shapes
from inspector.core.analysis.output_shapes import fill_output_shapes
from inspector.core.analysis.summary import likely_outputs, summarize
from inspector.core.errors import InspectorError, ModelLoadError
from inspector.core.loaders import LoadedModel, load
from inspector.core.runtime import gc_policy

MAX_GUESSED = 4   # more equally likely outputs than this: ask instead of guessing


def summary_of(model, shapes: bool = False):
    """The summary of an opened model (likely inputs and outputs, counts, sizes), its
    signature's ports first: the window's summary and every command that shows one. With
    `shapes`, the likely outputs' shapes the graph does not record, propagated from the
    inputs (output_shapes: a frozen .meta's, a Keras file's, most .pb files' outputs showed
    none): `summarize`'s, and the window's once its first picture is up
    (marks.start_summary); the walk imports numpy, which the demo's summary never does."""
    summary = summarize(model.graph, model.known_inputs, model.known_outputs, model.signature)
    if shapes:
        fill_output_shapes(model.graph, summary, output_shapes.MOST)
    return summary


def summary_text(model, path: str, fmt: str = "text", print_structure: bool = False):
    """`summarize`'s report of an opened model: (text, warnings, error or None). fmt "tf":
    exactly what TF's summarize_graph prints (it stops at the first bad input: the error
    names it); "json" or "text": the summary of `summary_of`."""
    from inspector.core.formats import summary_format

    if fmt == "tf":
        text, warnings, ok = summary_format.tf_summary_text(model.graph, path)
        if not ok:
            node, bad = (model.graph.dangling_inputs + model.graph.malformed_inputs)[0]
            return text, warnings, InspectorError(f"{warnings[-1]} (input '{bad}' of node "
                                                  f"'{node}')", path=path, node=node)
        if print_structure:
            structure, more = summary_format.tf_structure_text(model.graph)
            text, warnings = text + structure, warnings + more
        return text, warnings, None
    with gc_policy.paused():
        s = summary_of(model, shapes=True)
    report = summary_format.report_json if fmt == "json" else summary_format.report_text
    return report(s, model, path), [], None


def open_dialog_filter() -> str:
    """The Open dialog's filter, from the reader registry."""
    from inspector.core.loaders.readers import file_filter

    return file_filter()


def model_can(model: LoadedModel, capability: str) -> bool:
    """Whether the opened model supports "transform", "run", "shapes" or "convert"."""
    return capability in model.capabilities


def open_model(path: str, *, signature: str | None = None, tags: list | None = None,
               checkpoint: str | None = None, outputs: list | None = None,
               freeze: bool = True, allow_unsafe: bool = False) -> LoadedModel:
    """The one opening function of both front ends: `load`, and a .meta frozen the way a
    user means it: with the checkpoint given, or else the one beside it (then a failure to
    freeze leaves the graph as stored, with the reason in its notes); for the outputs given,
    or else its top-ranked likely outputs (and saying which). freeze=False: not the checkpoint beside it."""
    options = dict(freeze=freeze, tags=tags, signature=signature, allow_unsafe=allow_unsafe)
    if checkpoint and outputs:
        return load(path, checkpoint=checkpoint, outputs=outputs, **options)
    model = load(path, **options)
    if model.kind != "metagraph" or model.frozen:
        return model
    if checkpoint:
        return _frozen_for_likely_outputs(path, model, checkpoint, options)
    if not freeze:
        return model
    from inspector.core.loaders.metagraph import beside

    found = beside(path)
    if not found:
        return model
    try:
        return _frozen_for_likely_outputs(path, model, found, options)
    except InspectorError as exc:
        model.notes = [f"Not frozen with the checkpoint beside it: {exc.message}"]
        return model


def _frozen_for_likely_outputs(path, first, checkpoint, options) -> LoadedModel:
    outputs = likely_outputs(first.graph)
    if not outputs or len(outputs) > MAX_GUESSED:
        shown = ", ".join(outputs[:6]) + (", ..." if len(outputs) > 6 else "")
        raise ModelLoadError("freezing needs output node names and none stands out among the "
                             f"likely outputs{f' ({shown})' if shown else ''}; name them",
                             path=path)
    model = load(path, checkpoint=checkpoint, outputs=outputs, **options)
    model.notes.append(f"Frozen for the likely output{'s' if len(outputs) > 1 else ''} "
                       f"{', '.join(outputs)}: no outputs were given (name others to change "
                       "that).")
    return model


def signatures(path: str) -> dict:
    """The public signatures of a SavedModel (key -> method, inputs, outputs); {} else."""
    if not (os.path.isdir(path) or os.path.basename(path) == "saved_model.pb"):
        return {}
    if os.path.isdir(path) and not any(os.path.exists(os.path.join(path, n)) for n in
                                       ("saved_model.pb", "saved_model.pbtxt")):
        return {}   # a TF.js folder, or no model: load() says which
    metas = metagraphs(path)
    return metas[0]["signatures"] if metas else {}


def metagraphs(path: str) -> list:
    """Every MetaGraph of a SavedModel: its tags and its signatures (`signatures`)."""
    from inspector.core.loaders.savedmodel import describe, read_saved_model

    return describe(read_saved_model(path))


def fell_back(note: str) -> bool:
    """A note saying the model was opened another way than the usual one."""
    return any(w in note for w in ("could not", "cannot", "instead", "legacy Keras"))


def start_open(state, tasks, path: str, on_choose, on_error, signature: str | None = None,
               allow_unsafe: bool = False, auto_signature: bool = False) -> None:
    """Open `path` in a task with its view (constants folded as the state says) ->
    `state.set_model`, saying its first note. A SavedModel with several signatures and none
    given (unless `auto_signature`): `on_choose(signatures)` instead."""
    fold = not state.show_constants

    def work(job):
        if signature is None and not auto_signature:
            found = signatures(path)
            if len(found) > 1:
                return found, None
        from inspector.core.view.view_graph import ViewModel

        model = open_model(path, signature=signature, allow_unsafe=allow_unsafe)
        job.check()
        view = ViewModel(model.graph, fold_constants=fold)
        gc_policy.keep_out_of_collections()  # the model lives long
        return model, view

    def done(result):
        model, view = result
        if view is None:
            on_choose(model)
            return
        state.set_model(model, view, None)
        if model.notes:
            state.say(model.notes[0].split(",")[0])

    tasks.submit("load", work, done, on_error, label=f"Opening {os.path.basename(path)}")
