"""Compare models (issue 35): matching and the diff, without TensorFlow or Qt, on committed
models (the demo model and the Inception-style graph with batch norms)."""

import json
import os
import random
import subprocess
import sys

import pytest

from inspector.core.compare import provenance
from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.document import dumps, from_dict, me_mapping, to_dict
from inspector.core.compare.html_report import diff_html
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.transforms.pipeline import run_pipeline

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
ROOT = os.path.dirname(os.path.dirname(HERE))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
INCEPTION = os.path.join(DATA, "inception_jpeg.pb")


def graph_of(path):
    return load(path).graph


def copy(gd):
    out = protos.GraphDef()
    out.CopyFrom(gd)
    return out


def renamed(gd, names: dict):
    out = copy(gd)
    for node in out.node:
        node.name = names.get(node.name, node.name)
        for i, text in enumerate(node.input):
            control = text.startswith("^")
            body = text[1:] if control else text
            name, sep, port = body.partition(":")
            node.input[i] = ("^" if control else "") + names.get(name, name) + sep + port
    return out


def folded_demo():
    """Two convolutions each followed by a batch norm's Mul(Conv2D, Const), as the demo model
    is once its constants are folded (made here: folding needs TensorFlow)."""
    import numpy as np

    from inspector.core.transforms.graph_utils import tensor_const

    rng = np.random.default_rng(0)
    gd = protos.GraphDef()
    x = gd.node.add(name="pixels", op="Placeholder")
    x.attr["dtype"].type = 1
    prev = "pixels"
    for k, (cin, cout) in enumerate(((1, 4), (4, 8)), 1):
        w = tensor_const(f"conv{k}/weights", rng.standard_normal((3, 3, cin, cout))
                         .astype(np.float32))
        scale = tensor_const(f"bn{k}/scale", rng.uniform(0.5, 1.5, cout).astype(np.float32))
        gd.node.extend([w, scale])
        conv = gd.node.add(name=f"conv{k}/Conv2D", op="Conv2D", input=[prev, w.name])
        conv.attr["T"].type = 1
        conv.attr["padding"].s = b"SAME"
        conv.attr["strides"].list.i.extend([1, 1, 1, 1])
        mul = gd.node.add(name=f"bn{k}/mul_1", op="Mul", input=[conv.name, scale.name])
        mul.attr["T"].type = 1
        relu = gd.node.add(name=f"relu{k}", op="Relu", input=[mul.name])
        relu.attr["T"].type = 1
        prev = relu.name
    gd.node.add(name="output", op="Identity", input=[prev]).attr["T"].type = 1
    return gd


@pytest.mark.parametrize("path", [DEMO, INCEPTION])
def test_a_graph_equals_itself_and_itself_shuffled(path):
    ga = graph_of(path)
    d = diff_graphs(ga, Graph(copy(ga.graph_def)))
    assert d.equal and d.counts()["unchanged"] == len(ga)
    nodes = list(copy(ga.graph_def).node)
    random.Random(7).shuffle(nodes)
    shuffled = protos.GraphDef()
    shuffled.node.extend(nodes)
    d = diff_graphs(ga, Graph(shuffled))
    assert d.equal and not d.entries and not d.interface


@pytest.mark.parametrize("path", [DEMO, INCEPTION])
def test_every_node_renamed_is_matched_by_structure_and_reported_renamed(path):
    ga = graph_of(path)
    names = [n.name for n in ga]
    new = [f"n{k}" for k in range(len(names))]
    random.Random(3).shuffle(new)
    mapping = dict(zip(names, new))
    d = diff_graphs(ga, Graph(renamed(ga.graph_def, mapping)))
    m = d.matching
    non_const = [n.name for n in ga if n.op != "Const"]
    by_structure = [a for a in non_const if m.rule.get(a) in ("structure", "top-down",
                                                              "bottom-up")]
    assert len(by_structure) >= 0.95 * len(non_const)
    assert all(m.b_of.get(a) == mapping[a] for a in by_structure)   # and rightly
    assert {e.status for e in d.entries} == {"changed"}
    assert all([c.kind for c in e.changes] == ["renamed"] for e in d.entries)
    assert d.counts()["renamed"] == len(d.entries)


def test_a_renamed_scope_is_one_renamed_scope():
    ga = graph_of(INCEPTION)
    a = renamed(ga.graph_def, {n.name: "model/" + n.name for n in ga})
    b = renamed(ga.graph_def, {n.name: "model_1/" + n.name for n in ga})
    d = diff_graphs(Graph(a), Graph(b))
    assert d.matching.scopes == {"model": "model_1"}
    counts = d.counts()
    assert not counts.get("added") and not counts.get("removed") and not counts.get("renamed")


@pytest.mark.parametrize("with_provenance", [True, False])
def test_fold_batch_norms_merges_each_batch_norm_into_its_conv(with_provenance):
    a = folded_demo()
    steps = run_pipeline(a, "fold_batch_norms", ["pixels"], ["output"])
    ga, gb = Graph(a), Graph(steps[-1].graph_def)
    prov = provenance.from_steps(ga.names(), steps) if with_provenance else None
    d = diff_graphs(ga, gb, provenance=prov)
    muls = [n.name for n in ga if n.op == "Mul" and n.name not in gb or
            (n.op == "Mul" and gb.node(n.name).op == "Conv2D")]
    assert len(muls) == 2
    merged = {e.a: e for e in d.entries if e.status == "merged"}
    for mul in muls:                       # each batch norm merged into its Conv
        assert merged[mul].op_a == "Mul" and merged[mul].op_b == "Conv2D"
    changed = [e for e in d.entries if e.status == "changed"]
    assert len(changed) == 2               # the two convolutions' weights, nothing else
    assert all([c.kind for c in e.changes] == ["values"] for e in changed)
    assert all(gb.node(e.b).op == "Const" and gb.consumer_names(e.b)[0] in
               {m.b for m in merged.values()} for e in changed)
    statuses = {e.status for e in d.entries}
    assert statuses == {"merged", "changed"}            # nothing added, removed or renamed
    assert not d.interface


def test_fold_old_batch_norms_reports_merges_into_the_conv_and_the_bias_add_split_out():
    ga = graph_of(INCEPTION)
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    d = diff_graphs(ga, gb)
    bns = [n.name for n in ga if n.op.startswith("FusedBatchNorm")]
    merged = {e.a: e.op_b for e in d.entries if e.status == "merged"}
    assert all(merged[bn] == "Conv2D" for bn in bns)
    assert not [e for e in d.entries if e.status in ("added", "removed")]


def test_quantize_weights_changes_only_constants_and_adds_their_dequantize_parts():
    ga = graph_of(DEMO)
    gd = ga.graph_def
    steps = run_pipeline(gd, "quantize_weights(minimum_size=100)", ["pixels"], ["output"])
    gb = Graph(steps[-1].graph_def)
    for prov in (None, provenance.from_steps(ga.names(), steps)):
        d = diff_graphs(ga, gb, provenance=prov)
        changed = [e for e in d.entries if e.status == "changed"]
        assert changed and all(e.op_a == "Const" and e.op_b == "Dequantize" and
                               [c.kind for c in e.changes] == ["quantized"] for e in changed)
        assert all(c.figures["cosine"] > 0.999 for e in changed for c in e.changes)
        parts = [e for e in d.entries if e.status == "split"]
        assert len(parts) == 3 * len(changed)
        assert {e.status for e in d.entries} == {"changed", "split"}


def test_one_inserted_relu_is_one_added_node_and_one_rewired_consumer():
    ga = graph_of(INCEPTION)
    gd = copy(ga.graph_def)
    target = next(n for n in gd.node if n.name == "conv_1/Relu")
    consumer = next(n for n in gd.node if "conv_1/Relu" in list(n.input))
    relu = gd.node.add(name="extra_relu", op="Relu", input=["conv_1/Relu"])
    relu.attr["T"].CopyFrom(target.attr["T"])
    consumer.input[list(consumer.input).index("conv_1/Relu")] = "extra_relu"
    d = diff_graphs(ga, Graph(gd))
    assert [(e.status, e.b) for e in d.entries if e.status != "changed"] == \
        [("added", "extra_relu")]
    changed = [e for e in d.entries if e.status == "changed"]
    assert [(e.a, [c.kind for c in e.changes]) for e in changed] == [(consumer.name,
                                                                      ["rewired"])]


def test_an_output_renamed_by_obfuscate_names_is_in_the_interface_diff():
    ga = graph_of(DEMO)
    gb = Graph(run_pipeline(ga.graph_def, "obfuscate_names", ["pixels"], [])[-1].graph_def)
    d = diff_graphs(ga, gb)
    assert any(c.kind == "output" and "renamed 'output'" in c.text for c in d.interface)
    assert not any(c.kind == "input" for c in d.interface)         # the input kept its name
    text = dumps(d)
    assert "output renamed" in text


def test_the_document_round_trips_and_is_the_same_in_every_process(tmp_path):
    ga = graph_of(INCEPTION)
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    d = diff_graphs(ga, gb, "a.pb", "b.pb")
    data = to_dict(d)
    assert to_dict(from_dict(json.loads(json.dumps(data)))) == data
    script = ("import sys,json;sys.path.insert(0,%r);from test_compare import *;"
              "ga=graph_of(INCEPTION);gb=Graph(run_pipeline(ga.graph_def,"
              "'fold_old_batch_norms',['Mul'],['softmax'])[-1].graph_def);"
              "print(dumps(diff_graphs(ga,gb,'a.pb','b.pb')))") % HERE
    outs = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, INSPECTOR_HIDE="qt,tf")
        outs.add(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                env=env, check=True, cwd=ROOT).stdout)
    assert len(outs) == 1 and json.loads(outs.pop()) == data


def test_model_explorer_mapping_puts_each_node_in_one_entry_by_its_id():
    from inspector.core.formats.me_ids import for_graph_def

    ga = graph_of(INCEPTION)
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    ids_a, ids_b = for_graph_def(ga), for_graph_def(gb)
    mapping = me_mapping(diff_graphs(ga, gb), ids_a, ids_b)
    left = [n for e in mapping["mappingEntries"] for n in e["leftNodeIds"]]
    right = [n for e in mapping["mappingEntries"] for n in e["rightNodeIds"]]
    assert len(left) == len(set(left)) == len(ga)        # every node of A, once, by index
    assert len(right) == len(set(right))
    assert set(right) == {str(k) for k in range(len(gb))}
    assert mapping["disableMappingFallback"] is True
    conv = next(e for e in mapping["mappingEntries"]
                if ids_a.of["conv/BatchNorm"] in e["leftNodeIds"])
    assert ids_a.of["conv/Conv2D"] in conv["leftNodeIds"]
    assert ids_b.of["conv/BatchNorm"] in conv["rightNodeIds"]


def test_the_html_report_is_one_file_with_no_script_and_no_remote_reference():
    ga = graph_of(INCEPTION)
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    page = diff_html(diff_graphs(ga, gb, "a<b>.pb", "b.pb"), ga, gb)
    low = page.lower()
    assert "<script" not in low and "http://" not in low.replace("http://www.w3.org", "")
    assert "https://" not in low and "a&lt;b&gt;.pb" in page
    assert page.count("<details>") >= 3 and page.count("<section class='pic'>") >= 5


def test_a_bad_diff_file_says_what_is_wrong():
    from inspector.core.errors import InspectorError

    with pytest.raises(InspectorError, match="not a graphdef-inspector diff"):
        from_dict({"format": "x"})
    with pytest.raises(InspectorError, match="merged"):
        from_dict({"format": "graphdef-inspector diff", "a": "a", "b": "b", "entries": [],
                   "matching": {"pairs": [], "merged": {"x": 3}}})


def test_the_html_report_works_offline_in_headless_chromium(tmp_path):
    from test_tour_html import DevTools, _browser, open_page

    binary = _browser()
    if binary is None:
        pytest.skip("no Chromium found: apt-get install chromium")
    ga = graph_of(INCEPTION)
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    page = tmp_path / "diff.html"
    page.write_text(diff_html(diff_graphs(ga, gb, "a.pb", "b.pb"), ga, gb), encoding="utf-8")
    browser = DevTools(binary, str(tmp_path / "profile"))
    try:
        session = open_page(browser, page.as_uri())

        def js(expression: str):
            answer = browser.call("Runtime.evaluate", session, expression=expression,
                                  returnByValue=True)
            assert "exceptionDetails" not in answer, answer
            return answer["result"].get("value")

        # a repeated change opens to its members with a click, no script needed
        first = "document.querySelector('details')"
        assert js(f"{first}.querySelector('li').checkVisibility()") is False
        js(f"{first}.querySelector('summary').click()")
        assert js(f"{first}.open") is True
        assert js(f"{first}.querySelector('li').checkVisibility()") is True
        boxes = js("Array.from(document.querySelectorAll('.graph svg')).map(s => "
                   "s.getBoundingClientRect().width)")
        assert len(boxes) >= 10 and min(boxes) > 60        # both graphs, per change group
        sent = [e["params"]["request"]["url"] for e in browser.events
                if e.get("method") == "Network.requestWillBeSent"]
        assert sent == [page.as_uri()]                    # nothing fetched but the page
    finally:
        browser.close()


def test_a_saved_comparison_names_its_models_and_refuses_paths_outside_silently(tmp_path):
    from inspector.core.app.comparing import CompareSession
    from inspector.core.app.comparison_files import read_document, reopen, save_document

    ga = graph_of(INCEPTION)
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    b_path = tmp_path / "b.pb"
    b_path.write_bytes(gb.graph_def.SerializeToString())
    session = CompareSession(diff_graphs(ga, gb), ga, gb, (INCEPTION, str(b_path)))
    doc = tmp_path / "cmp.json"
    save_document(session, str(doc))
    d, a, b, outside = read_document(str(doc))
    assert (a, b) == (os.path.normpath(INCEPTION), str(b_path))
    assert outside == [os.path.normpath(INCEPTION)]        # not beside the file: ask first
    again, note = reopen(d, ga, gb, (a, b))
    assert not note and again.diff.matching.b_of == session.diff.matching.b_of
    other, note = reopen(d, ga, Graph(copy(ga.graph_def)), (a, b))   # B is not what it was
    assert "compared again" in note and other.diff.equal


def test_collapsed_scopes_carry_change_counts_and_the_share_of_weights_changed():
    from inspector.core.app.comparing import compare

    ga = graph_of(INCEPTION)
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    session = compare(ga, gb, "a", "b")
    session.changed_only(False)                           # every scope collapsed
    expanded = session.expanded["B"]
    scene = session.views["B"].scene(expanded)
    painted = session.paint("B", scene.items, expanded)
    diff, badges = painted[0], painted[1]
    assert badges["conv/"].startswith("~2 split 2") and "weights changed" in badges["conv/"]
    assert diff["conv/"] == "changed" and "pool" not in diff      # untouched: no mark
    scopes = [i for i, it in scene.items.items() if i.endswith("/") and it.kind != "frame"]
    dimmed = session.decorations("B", painted).dimmed
    assert "conv/" not in dimmed and dimmed == {s for s in scopes if s not in diff}
    session.changed_only(True)                            # just the paths to changes open
    assert "conv" in session.expanded["B"] and "mixed/tower_0" in session.expanded["B"]


def _paint_node_by_node(session, side, items, expanded):
    """The comparison's scope marks as first written: every marked node asked which item
    shows it (the reference for the by-scope version)."""
    from collections import Counter

    diff, counts, weights = {}, {}, {}
    for name, look in session.marks[side].items():
        item = session.visible(side, name, expanded)
        if item in items:
            if item.endswith("/"):
                counts.setdefault(item, Counter())[look] += 1
            else:
                diff[item] = look
    for name, changed in session.weights_changed[side].items():
        item = session.visible(side, name, expanded)
        if item.endswith("/") and item in items:
            weights[item] = weights.get(item, 0.0) + changed
    return diff, counts, weights


def test_scope_marks_by_scope_equal_asking_every_marked_node():
    """The canvas's diff colours and badges, counted per scope (a 50k-node step stalled on
    asking every node), are the ones asking every marked node gives, at every opening."""
    from inspector.core.app.comparing import BADGE_ORDER, SYMBOL, compare

    ga = graph_of(INCEPTION)
    steps = run_pipeline(ga.graph_def, 'strip_unused_nodes(type=float, shape="1,299,299,3") '
                         'remove_nodes(op=Identity, op=CheckNumerics) '
                         'quantize_weights(minimum_size=100)', ["Mul"], ["softmax"])
    s = compare(ga, Graph(steps[-1].graph_def), "A", "B",
                steps=steps)
    rng = random.Random(5)
    seen = 0
    for side in ("A", "B"):
        view = s.views[side]
        scopes = sorted(p for p in view.hierarchy.scopes if p)
        for opened in ([], scopes, rng.sample(scopes, len(scopes) // 2), ["mixed"]):
            expanded = frozenset({""} | set(opened))
            scene = view.scene(expanded)
            diff, badges, _ = s.paint(side, scene.items, expanded)
            ref_diff, counts, weights = _paint_node_by_node(s, side, scene.items, expanded)
            assert {k: v for k, v in diff.items() if not k.endswith("/")} == ref_diff
            assert {k for k in diff if k.endswith("/")} == set(counts)
            for item, c in counts.items():
                assert badges[item].startswith(
                    " ".join(f"{SYMBOL[k]}{c[k]}" for k in BADGE_ORDER if c[k]))
                assert ("weights changed" in badges[item]) == bool(weights.get(item))
                seen += 1
            seen += len(ref_diff)
    assert seen > 50