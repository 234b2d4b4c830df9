"""The whole-graph walks behind menus and commands (Model Explorer ids, node-data import, the
TF-style DOT export, labels in the graph, front-end detection) read the Graph's columns:
the same answers as the walks over Node views they replace (kept here as the reference), on
the committed models and on hostile graphs, and no Node view made on the way."""

from __future__ import annotations

import os

import pytest

from inspector.core.model.graph import Graph
from tests.fixtures.walker_graphs import graphs_of, hostile_graph_def


@pytest.fixture
def graphs(data):
    """Opened anew for each test: a test's walks leave views the next must not see."""
    made = graphs_of(data)
    hostile = made[-1][1]
    assert hostile.duplicate_names and hostile.dangling_inputs and hostile.malformed_inputs
    return made


def _made(graph) -> int:
    return sum(v is not None for v in graph._views)


# -- the per-node walks these replace (the reference) ---------------------------------------
def _ids_by_views(graph) -> dict:
    return {node.name: str(node.index) for node in graph.nodes}


def _tf_dot_by_views(graph) -> str:
    from inspector.core.formats.dot_export import _q

    lines = ["digraph graphname {"]
    for node in graph:
        lines.append(f'  {_q(node.name)} [label={_q(node.op)}];')
        for text in node.proto.input:
            src = text.split(":")[0]
            src = src[1:] if src.startswith("^") else src
            lines.append(f'  {_q(src)} -> {_q(node.name)};')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _tensors_by_views(graph) -> dict:
    out: dict = {}
    for node in graph.nodes:
        if node.has_attr("tflite_tensor"):
            tensor = node.attr("tflite_tensor")
            tensor = tensor.decode() if isinstance(tensor, bytes) else str(tensor)
            out.setdefault(tensor, node.name)
    return out


def _scopes_by_views(graph) -> set:
    scopes = set()
    for node in graph.nodes:
        parts = node.name.split("/")[:-1]
        for k in range(1, len(parts) + 1):
            scopes.add("/".join(parts[:k]) + "/")
    return scopes


def _labels_by_views(graph):
    from inspector.core.loaders.labels import Labels

    best = None
    for node in graph:
        if node.op != "Const" or not node.has_attr("value"):
            continue
        t = node.proto.attr["value"].tensor
        if t.dtype != 7 or len(t.string_val) < 2:
            continue
        if best is None or len(t.string_val) > len(best.names):
            try:
                names = [v.decode("utf-8") for v in t.string_val]
            except UnicodeDecodeError:
                continue
            if all(0 < len(n) < 200 for n in names):
                best = Labels(names, f"the graph's constant '{node.name}'")
    return best


def _family_by_views(graph):
    from inspector.core.demo import front_end as fe

    sample = " ".join(n.name.lower() for _, n in zip(range(400), graph))
    for word, key in fe._FAMILIES:
        if word in sample:
            return key, f"assumed: {word} models usually take {fe.CONVENTIONS[key].label}"
    return "0_1", "assumed: the most common convention; change it if the answers look wrong"


# -- the tests ------------------------------------------------------------------------------
def test_model_explorer_ids_are_the_per_node_ones_and_make_no_view(graphs):
    from inspector.core.formats.me_ids import for_graph_def

    for label, graph, reference in graphs:
        assert for_graph_def(graph).of == _ids_by_views(reference), label
        assert _made(graph) == 0, label


def test_the_tf_style_dot_is_the_per_node_text_and_makes_no_view(graphs):
    from inspector.core.formats.dot_export import tf_dot

    for label, graph, reference in graphs:
        assert tf_dot(graph) == _tf_dot_by_views(reference), label
        assert _made(graph) == 0, label


def test_node_data_names_tensors_and_scopes_are_the_per_node_ones_and_make_no_view(graphs):
    from inspector.core.app.node_data_io import GraphNames

    for label, graph, reference in graphs:
        names = GraphNames(graph)
        assert names.alias("tensor_5") == _tensors_by_views(reference).get("tensor_5"), label
        assert names._tensors == _tensors_by_views(reference), label
        assert ("s1/" in names) == ("s1/" in _scopes_by_views(reference)), label
        assert names._scopes == _scopes_by_views(reference), label
        assert _made(graph) == 0, label
    tflite = dict((label, g) for label, g, _ in graphs)["digits_float.tflite"]
    names = GraphNames(tflite)
    assert names._tensor("") is None and len(names._tensors) > 5


def test_node_data_import_matches_by_name_scope_and_tensor_without_views(tmp_path):
    import json

    from inspector.core.app.node_data_io import read_onto

    gd = hostile_graph_def(6000)
    graph = Graph(gd)
    path = tmp_path / "nd.json"
    path.write_text(json.dumps({"main": {"results": {
        "s1/b1/n1": {"value": 1.0}, "s2/": {"value": 2.0}, "tensor_3": {"value": 3.0},
        "x/": {"value": 4.0}, "nothing": {"value": 5.0}}}}))
    placed = read_onto(graph, str(path))
    tensor_3 = _tensors_by_views(Graph(gd))["tensor_3"]
    assert placed.values == {"s1/b1/n1": 1.0, "s2/": 2.0, tensor_3: 3.0, "x/": 4.0}
    assert placed.unmatched == ("nothing",)
    assert _made(graph) == 0


def test_labels_in_the_graph_are_the_per_node_ones_and_make_no_view(graphs):
    from inspector.core.loaders.labels import _graph_labels

    found = 0
    for label, graph, reference in graphs:
        got = _graph_labels(graph)
        assert got == _labels_by_views(reference), label
        found += got is not None
        assert _made(graph) == 0, label
    assert found >= 2


def test_front_end_detection_is_the_per_node_one_and_views_only_its_nodes(graphs):
    from inspector.core.demo import front_end as fe

    audio = 0
    for label, graph, reference in graphs:
        assert fe.family_convention(graph) == _family_by_views(reference), label
        got = fe._audio(graph)
        ops = {n.op for n in reference}
        expected = _audio_by_views(reference) if "DecodeWav" in ops else None
        assert got == expected, label
        audio += got is not None
        if "DecodeWav" not in ops:
            assert _made(graph) == 0, label
        assert fe.detect(graph, []) == fe.detect(reference, []), label
        assert _made(graph) <= 40, label       # the few nodes detection looks at
    assert audio >= 1


def _audio_by_views(graph):
    """front_end._audio as it walked every Node view."""
    from inspector.core.demo import front_end as fe

    for node in graph:
        if node.op != "DecodeWav" or not node.data_inputs:
            continue
        source = graph.get(node.data_inputs[0].node)
        if source is None or source.op not in ("Placeholder", "PlaceholderWithDefault"):
            continue
        sees = node.name
        for edge in graph.data_consumers(node.name):
            if graph.node(edge.dst).op in ("AudioSpectrogram", "Mfcc"):
                sees = edge.dst
                break
        rate, how = fe.DEFAULT_RATE, "assumed: speech models use 16 kHz"
        for n in graph:
            if n.op == "Mfcc" and len(n.data_inputs) > 1:
                value = fe._const_value(graph, n.data_inputs[1].node)
                if value is not None and value.size == 1 and 0 < value.reshape(-1)[0] < 1e7:
                    rate, how = int(value.reshape(-1)[0]), "from the graph"
        samples = int(node.attr("desired_samples", -1) or -1)
        return fe.FrontEnd("audio", fe._tensor(source.name), "wav", "string",
                           fe._tensor(sees), channels=int(node.attr("desired_channels", -1)
                                                          or 1), rank=0,
                           rate=rate, samples=max(samples, 0), range=(-1.0, 1.0),
                           range_how=f"sample rate {how}", detected=True)
    return None


def _tflite_ids_by_views(model, graph) -> dict:
    from inspector.core.formats import me_ids

    main = model.subgraphs[0]
    ops, tensors = me_ids.tflite_numbering(main)
    of: dict = {}
    producers = getattr(graph, "tflite_producers", {})
    for t, node_id in tensors.items():
        name = producers.get(t)
        if name is None or name not in graph or "tflite_index" in graph.node(name).proto.attr:
            continue
        of.setdefault(name, node_id)
    for node in graph.nodes:
        if "tflite_index" in node.proto.attr:
            of[node.name] = ops.get(int(node.proto.attr["tflite_index"].i))
    return {k: v for k, v in of.items() if v is not None}


def test_tflite_operator_and_tensor_walks_are_the_per_node_ones_without_views(data, graphs):
    from inspector.core.app.opening import open_model
    from inspector.core.app.quantization import QuantRun, for_tflite_graph
    from inspector.core.formats import me_ids
    from inspector.core.mobile.measured import Measured, Row
    from inspector.core.mobile.quant_metrics import TensorError
    from inspector.core.mobile.targets import op_nodes

    for label, graph, reference in graphs:
        ops = {int(n.attr("tflite_index")): n.name for n in reference.nodes
               if n.has_attr("tflite_index")}
        assert op_nodes(graph) == ops, label
        tensors = {}
        for n in reference:
            t = n.attr("tflite_tensor") if n.has_attr("tflite_tensor") else None
            if t:
                tensors.setdefault(t.decode() if isinstance(t, bytes) else t, n.name)
        errors = [TensorError(t, "ADD", mse=k) for k, t in enumerate(tensors)] + \
            [TensorError("no such tensor", "ADD")]
        run = QuantRun(Measured([Row("int8", tensors=errors)]), ("int8", ""))
        got = for_tflite_graph(run, graph).row()
        assert [(e.tensor, e.nodes) for e in got.tensors] == \
            [(t, [n]) for t, n in tensors.items()], label
        assert _made(graph) == 0, label
    for name in ("digits_float.tflite", "digits_int8.tflite"):
        model = open_model(os.path.join(data, name))
        reference = open_model(os.path.join(data, name))
        assert me_ids.for_model(model).of == _tflite_ids_by_views(reference.tflite,
                                                                  reference.graph)
        assert _made(model.graph) == 0


def _styled_by_views(graph, inputs=(), outputs=(), fold_constants=True, clusters=True):
    """dot_export.styled_dot as it walked Node views (the reference)."""
    from inspector.core.analysis.summary import const_source, tensor_label
    from inspector.core.formats import dot_export as de
    from inspector.core.model import op_categories

    keep = de.between(graph, inputs, outputs) if (inputs or outputs) else None
    folded: dict = {}
    hidden = set()
    if fold_constants:
        for node in graph:
            if keep is not None and node.name not in keep:
                continue
            consumers = graph.consumers(node.name)
            src = const_source(graph, node.name)
            if src is None or not consumers:
                continue
            if all(keep is None or e.dst in keep for e in consumers):
                hidden.add(node.name)
                for e in consumers:
                    if not e.control and const_source(graph, e.dst) is None:
                        folded.setdefault(e.dst, []).append(de._badge(graph, src))
    shown = [n for n in graph if n.name not in hidden and (keep is None or n.name in keep)]
    lines = ["digraph G {",
             '  graph [rankdir=TB, fontname="Helvetica", fontsize=11, newrank=true, '
             'nodesep=0.25, ranksep=0.4];',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
             'color="#555555", margin="0.12,0.04"];',
             '  edge [fontname="Helvetica", fontsize=8, color="#666666", fontcolor="#444444"];']
    node_lines: dict = {}
    for node in shown:
        cat = op_categories.category(node.op)
        label = [node.op, node.short_name if node.short_name != node.op else ""]
        label += sorted(set(folded.get(node.name, [])))[:6]
        text = "\\n".join(de._q(x)[1:-1] for x in label if x)
        node_lines.setdefault(node.scope if clusters else "", []).append(
            f'{de._q(node.name)} [label="{text}", fillcolor="{op_categories.COLOURS[cat]}", '
            f'tooltip={de._q(node.name)}];')
    lines += de._emit_scopes(node_lines, indent="  ")
    shown_names = {n.name for n in shown}
    for node in shown:
        for ref in node.inputs:
            if ref.node not in shown_names:
                continue
            attrs = ['style=dashed', 'color="#999999"'] if ref.control else []
            label = "" if ref.control else tensor_label(graph, ref.node, ref.port)
            if label:
                attrs.append(f"label={de._q(' ' + label)}")
            suffix = f" [{', '.join(attrs)}]" if attrs else ""
            lines.append(f"  {de._q(ref.node)} -> {de._q(node.name)}{suffix};")
    lines += de._legend([n.op for n in shown])
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_the_styled_dot_is_the_per_node_text_and_views_few_nodes(data):
    from inspector.core.formats.dot_export import styled_dot
    from inspector.core.model.reachability import between

    for label, graph, reference in graphs_of(data):
        names = reference.name_list
        for args in (dict(), dict(fold_constants=False, clusters=False),
                     dict(inputs=[names[len(names) // 3]], outputs=[names[-1]])):
            assert styled_dot(graph, **args) == _styled_by_views(reference, **args), \
                (label, args)
    graph = Graph(hostile_graph_def(6000, seed=5))
    part = between(graph, [graph.name_list[5900]], [graph.name_list[-1]])
    assert 1 < len(part) < 100
    styled_dot(graph, inputs=[graph.name_list[5900]], outputs=[graph.name_list[-1]])
    assert _made(graph) <= len(part)        # the part drawn, not the whole graph


def test_the_styled_export_runs_with_collections_paused(monkeypatch):
    """Its views and lines of a big graph are not walked by collections (3.3 -> 3.0 s of CPU
    at 300k nodes, bench/walkers.py)."""
    import gc

    from inspector.core.app import exports
    from inspector.core.formats import dot_export

    seen, real = [], dot_export.styled_dot
    monkeypatch.setattr(dot_export, "styled_dot",
                        lambda g, **kw: seen.append(gc.isenabled()) or real(g, **kw))
    text = exports.dot_text(Graph(hostile_graph_def(300)))
    assert seen == [False] and gc.isenabled() and text.startswith("digraph G {")
