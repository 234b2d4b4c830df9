"""Loaders: content sniffing, every fixture kind, freezing checked by running TensorFlow.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_loaders_tf.py, tests/cli/test_loaders_cli.py."""

import os

import pytest
from conftest import run_cli

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from inspector.core.loaders.savedmodel import describe, read_saved_model
from tests.fixtures.hostile.manifest import LOADER_CASES as MANIFEST


@pytest.mark.parametrize("name,kind,text", [
    ("inception_jpeg.pb", "graphdef", False), ("v1_training.pbtxt", "graphdef", True),
    ("text_really.pb", "graphdef", True), ("v1_training.meta", "metagraph", False),
    ("while_v1.pb", "graphdef", False), ("while_v2.pb", "graphdef", False),
])
def test_kinds_are_sniffed_from_content(data, name, kind, text):
    m = load(os.path.join(data, name))
    assert (m.kind, m.is_text) == (kind, text)
    assert len(m.graph) > 5 and not m.problems


def graph_with_debug_info(demo_model):
    """The demo model with one stack trace in debug_info (field 5, as TF writes it)."""
    from inspector.core.model import protos

    with open(demo_model, "rb") as f:
        graph_def = protos.GraphDef.FromString(f.read())
    graph_def.debug_info.files.append("make_demo_model.py")
    frame = graph_def.debug_info.traces["digits_1/relu1_1/Relu"].file_line_cols.add()
    frame.file_index, frame.line, frame.col, frame.func = 0, 42, 4, "call"
    return graph_def


def test_a_graph_def_with_debug_info_opens_and_keeps_it(demo_model, tmp_path):
    """Issue 38.2: GraphDef field 5 (debug_info) was taken for a MetaGraphDef's."""
    from inspector.core.loaders.lazy_graphdef import open_lazily
    from inspector.core.loaders.sniff import GRAPHDEF, METAGRAPH, sniff_binary
    from inspector.core.model import protos

    graph_def = graph_with_debug_info(demo_model)
    data = graph_def.SerializeToString()
    path = tmp_path / "digits_debug.pb"
    path.write_bytes(data)
    model = load(str(path))
    assert model.kind == "graphdef" and len(model.graph) == len(graph_def.node) == 59
    assert model.graph.graph_def.debug_info == graph_def.debug_info
    lazy, _ = open_lazily(str(path), os.stat(path))  # the reading of big files
    assert lazy.debug_info == graph_def.debug_info
    # saved: converted, and through a pipeline
    out = tmp_path / "out.pb"
    code, _, err = run_cli("convert", str(path), "-o", str(out))
    assert code == 0, err
    assert protos.GraphDef.FromString(out.read_bytes()).debug_info == graph_def.debug_info
    from inspector.core.transforms import run_pipeline

    (report,) = run_pipeline(graph_def, "strip_unused_nodes", ["pixels"],
                             ["digits_1/logits_1/BiasAdd"])
    assert len(report.graph_def.node) < 59 and report.graph_def.debug_info == graph_def.debug_info
    # one node only (field 1 once) still sniffs as a GraphDef; MetaGraphDefs with a
    # signature_def (field 5) still as MetaGraphDefs
    single = protos.GraphDef()
    single.node.add().CopyFrom(graph_def.node[0])
    single.versions.producer = 1
    single.debug_info.CopyFrom(graph_def.debug_info)
    assert sniff_binary(single.SerializeToString(), "") == GRAPHDEF
    meta = protos.MetaGraphDef()
    meta.signature_def["serving_default"].method_name = "tensorflow/serving/predict"
    meta.collection_def["x"].node_list.value.append("a")
    assert sniff_binary(meta.SerializeToString(), "") == METAGRAPH
    meta.graph_def.CopyFrom(single)
    assert sniff_binary(meta.SerializeToString(), "") == METAGRAPH
    meta.meta_info_def.tags.append("serve")
    assert sniff_binary(meta.SerializeToString(), "") == METAGRAPH
    # TensorFlow reads the file as a GraphDef too
    tf = pytest.importorskip("tensorflow")
    theirs = tf.compat.v1.GraphDef.FromString(data)
    assert len(theirs.node) == 59 and "digits_1/relu1_1/Relu" in theirs.debug_info.traces


def test_text_and_binary_give_the_same_graph(data):
    a = load(os.path.join(data, "v1_training.pb")).graph.graph_def
    b = load(os.path.join(data, "v1_training.pbtxt")).graph.graph_def
    assert a == b


def test_saved_model_signatures_listed_without_freezing(data):
    metas = describe(read_saved_model(os.path.join(data, "two_signatures")))
    assert metas[0]["tags"] == ["serve"]
    sigs = metas[0]["signatures"]
    assert set(sigs) == {"serving_default", "embed"}
    assert sigs["embed"]["inputs"]["features"]["shape"] == "[?,4]"
    assert "probabilities" in sigs["serving_default"]["outputs"]


def test_missing_checkpoint_is_a_clear_error(data):
    with pytest.raises(ModelLoadError, match="checkpoint .* not found"):
        load(os.path.join(data, "v1_training.meta"), checkpoint="/nonexistent/ckpt",
             outputs=["output"])


LOADER_CASES = [c for c in MANIFEST if not c[4]]  # the isolated ones run in test_hostile


@pytest.mark.parametrize("case", LOADER_CASES, ids=[c[0].__name__ for c in LOADER_CASES])
def test_every_manifest_input_loads_or_fails_with_its_message(case, tmp_path):
    """The loaders on the hostile-input manifest (the same inputs and messages the CLI and
    the app are tested with): a ModelLoadError naming the problem, or a graph."""
    from inspector.core.errors import InspectorError

    make, expect, message, overrides, _ = case
    expect, message = overrides.get("summarize", (expect, message))
    path = make(str(tmp_path))
    if expect in ("error", "refused"):
        with pytest.raises(InspectorError) as info:
            load(path)
        assert message in info.value.one_line()
        assert "\n" not in info.value.one_line()
    else:
        try:
            model = load(path)
        except InspectorError as exc:
            assert expect == "clean", exc.one_line()
            return
        assert len(model.graph) > 0
        if expect == "problems":
            assert any(message in p for p in model.problems)


def test_dangling_inputs_still_load_with_problems_listed(data):
    path = os.path.join(data, "bad", "dangling.pb")
    m = load(path)
    assert len(m.graph) == 3
    assert m.problems == ["node 'y' has input 'ghost', which is not in the graph",
                          "node 'z' has input 'phantom', which is not in the graph"]
    code, out, err = run_cli("summarize", path)
    # everything summarized, the problems listed, and exit 1: TF would refuse the graph
    # (it exited 0; --format=tf exits 2 as summarize_graph fails)
    assert code == 1 and "Problem: node 'y' has input 'ghost'" in out
    assert "Benchmark: " in out and err.strip().splitlines()[-1] == (
        f"graphdef-inspector: {path}: 2 problems (listed above; the first: node 'y' has input "
        "'ghost', which is not in the graph): TensorFlow would refuse this graph")
    code, out, err = run_cli("summarize", "--json", path)
    assert code == 1 and "'ghost', which is not in the graph" in out
    code, out, err = run_cli("summarize", "--format=tf", path)
    assert code == 2 and "Invalid input ghost for node y" in out


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "over_2gb"])
def test_non_regular_or_oversized_files_are_refused_before_reading(tmp_path, kind):
    """Refused from the file's metadata, with one line: never blocks on a FIFO, never reads
    /dev/zero forever, never allocates a 2.2 GB buffer (the file below is sparse)."""
    from inspector.core.errors import ModelLoadError

    path = {"device": "/dev/zero"}.get(kind, str(tmp_path / "x.pb"))
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        os.mkdir(path)
    elif kind == "over_2gb":
        with open(path, "wb") as f:
            f.truncate(2200 << 20)
    words = {"fifo": "FIFO", "device": "device", "directory": "holds no model",
             "over_2gb": "2 GB limit"}[kind]
    with pytest.raises(ModelLoadError, match=words) as info:
        load(path)
    assert "\n" not in info.value.one_line()


def test_summarize_s_last_line_names_the_file_and_the_first_problem_escaped(tmp_path):
    """The exit-1 line said '1 problem (listed above)' with no file nor node (the hostile
    run); it names both now, a hostile name's control characters escaped as in every error."""
    from tests.fixtures.hostile import inputs as hostile

    path = hostile.control_char_input(str(tmp_path))
    code, out, err = run_cli("summarize", path)
    last = err.strip().splitlines()[-1]
    assert code == 1 and last.startswith(f"graphdef-inspector: {path}: 1 problem (listed above;")
    assert "'\\x00nul\\x1b[2J\\u202e', which is not in the graph" in last and last.isprintable()
    code, out, err = run_cli("summarize", "--json", path)
    assert code == 1 and f"{path}: 1 problem (in its 'problems'; the first: node" in err


@pytest.mark.parametrize("how", [[], ["--format=tf"], ["--format=tf", "--print_structure"]])
def test_summarize_never_sends_a_model_s_control_characters_to_the_terminal(tmp_path, how):
    """The 'Problem:' line (and TF's 'Invalid input ... for node z') wrote the name's NUL, ESC
    [2J (clear the screen) and bidi override to stdout as they are (the hostile run)."""
    from tests.fixtures.hostile import inputs as hostile

    path = hostile.control_char_input(str(tmp_path))
    code, out, err = run_cli("summarize", *how, path)
    assert "\x1b" not in out + err and "\x00" not in out + err and "\u202e" not in out + err
    assert "\\x00nul\\x1b[2J\\u202e" in out


def test_a_main_input_an_operator_also_writes_is_counted_once_in_the_file_s_bytes(tmp_path):
    """The review's item: a main-subgraph input that is also an operator's output (ABS x -> x)
    was counted in the Placeholder's bytes and again in the operator's. The nodes' bytes
    are now the main subgraph's tensors and operators, each once (tflite_bytes' figures)."""
    import pytest

    pytest.importorskip("ai_edge_litert.schema_py_generated")
    import flatbuffers
    from ai_edge_litert import schema_py_generated as S

    from inspector.core.loaders import load

    model = S.ModelT()
    model.version, model.description, model.buffers = 3, b"in place", [S.BufferT()]
    code = S.OperatorCodeT()
    code.builtinCode, code.deprecatedBuiltinCode, code.version = S.BuiltinOperator.ABS, \
        S.BuiltinOperator.ABS, 1
    model.operatorCodes = [code]
    g = S.SubGraphT()
    t = S.TensorT()
    t.shape, t.type, t.buffer, t.name = [1, 4], S.TensorType.FLOAT32, 0, b"x"
    g.tensors, g.inputs, g.outputs, g.name = [t], [0], [0], b"main"
    op = S.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0], [0]
    g.operators = [op]
    model.subgraphs = [g]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    path = tmp_path / "in_place.tflite"
    path.write_bytes(bytes(builder.Output()))
    loaded = load(str(path))
    main = loaded.tflite.subgraphs[0]
    assert loaded.tflite.sized and main.tensors[0].file_bytes > 0
    once = sum(t.file_bytes for t in main.tensors) + sum(o.file_bytes for o in main.operators)
    assert loaded.graph.sizes_in_file and sum(loaded.graph.stored_sizes) == once


def test_one_rule_for_bytes_on_disk_and_two_names_for_two_file_lists(tmp_path, data):
    """The review's items: the Summary panel repeated `size_on_disk or file_size` the summary's
    text had as its own function (now loaders.loaded.bytes_on_disk, read by both); and
    sniff.model_files (names in a folder that look like models, for an error message) and
    on_disk.model_files (the files one model takes) shared a name."""
    import os
    from types import SimpleNamespace

    from inspector.core.loaders import load, on_disk, sniff
    from inspector.core.loaders.loaded import bytes_on_disk
    from inspector.core.view import vocabulary

    assert vocabulary.bytes_on_disk is bytes_on_disk
    assert bytes_on_disk(SimpleNamespace(file_size=42)) == 42
    path = os.path.join(data, "digits_int8.tflite")
    assert bytes_on_disk(load(path)) == os.path.getsize(path)
    (tmp_path / "m.meta").write_bytes(b"x")
    assert sniff.model_like_names(str(tmp_path)) == ["m.meta"]
    assert not hasattr(sniff, "model_files") and on_disk.model_files(path) == [path]
