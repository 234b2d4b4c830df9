"""The model card: layers as defined in code, plain words for inputs and outputs, and the same
figures as the Summary and Preview panels; `explain` on the command line.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_model_card_tf.py, tests/cli/test_model_card_cli.py."""

import pytest
from conftest import DEMO

from inspector.core.analysis import model_card as mc
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph


def _graph(nodes) -> Graph:
    gd = protos.GraphDef()
    for name, op, inputs in nodes:
        gd.node.add(name=name, op=op, input=inputs)
    return Graph(gd)


def test_layers_are_convolutions_matrix_multiplications_and_pooling():
    graph = _graph([("x", "Placeholder", []), ("c1", "Conv2D", ["x", "w"]),
                    ("b1", "BiasAdd", ["c1", "b"]), ("r1", "Relu", ["b1"]),
                    ("d1", "DepthwiseConv2dNative", ["r1", "w"]),
                    ("f1", "_FusedConv2D", ["d1", "w"]), ("p1", "MaxPool", ["f1"]),
                    ("p2", "AvgPool", ["p1"]), ("m1", "MatMul", ["p2", "w"]),
                    ("m2", "BatchMatMulV2", ["m1", "w"]), ("n", "FusedBatchNormV3", ["m2"]),
                    ("s", "Softmax", ["n"]), ("w", "Const", []), ("b", "Const", [])])
    assert mc.count_layers(graph) == {"convolution": 3, "matrix multiplication": 2,
                                      "pooling": 2}
    assert mc.count_layers(_graph([("x", "Placeholder", []), ("y", "Relu", ["x"])])) == {}


@pytest.mark.parametrize("dtype, shape, words", [
    ("float", "[1,299,299,3]", "a 299x299 colour photo"),
    ("float", "[?,224,224,3]", "a 224x224 colour photo"),
    ("float", "[1,3,224,224]", "a 224x224 colour photo"),
    ("float", "[1,8,8,1]", "an 8x8 black-and-white picture"),
    ("uint8", "[1,?,?,3]", "an any-size colour photo"),
    ("float", "[1,40]", "a list of 40 numbers"),
    ("float", "[1,49,40]", "a sequence of 49 steps, 40 numbers each"),
    # walk16: basic-pitch's audio input read "An any-size black-and-white picture"
    ("float", "[?,43844,1]", "a sequence of 43,844 numbers"),
    ("float", "[224,224,3]", "a 224x224 colour photo"),
    ("float", "[?,?,3]", "an any-size colour photo"),
    ("int32", "[1,128]", "a sequence of 128 word or token numbers"),
    ("float", "[]", "a single number"),
    ("bool", "[]", "a yes/no switch"),
    ("float", "", "numbers (float, shape not recorded)"),
])
def test_inputs_in_plain_words(dtype, shape, words):
    graph = _graph([("in", "Placeholder", []), ("y", "Identity", ["in"])])
    assert mc.describe_input(graph, "in", dtype, shape) == words


def test_an_input_the_graph_decodes_itself_is_a_file():
    graph = _graph([("jpeg", "Placeholder", []), ("d", "DecodeJpeg", ["jpeg"]),
                    ("wav", "Placeholder", []), ("a", "DecodeWav", ["wav"])])
    assert mc.describe_input(graph, "jpeg", "string", "[]").startswith("a JPEG file")
    assert mc.describe_input(graph, "wav", "string", "[]").startswith("a WAV sound")


@pytest.mark.parametrize("op, dtype, shape, words", [
    ("Softmax", "float", "[1,1001]", "1,001 probabilities, one per category (they add up to 1)"),
    ("Sigmoid", "float", "[1,5]", "5 independent yes/no scores between 0 and 1"),
    ("BiasAdd", "float", "[1,10]", "10 numbers"),
    ("Identity", "float", "[1,64]", "64 numbers"),
    ("ArgMax", "int64", "[1,3]", "3 whole numbers (e.g. chosen categories)"),
    ("Conv2D", "float", "[1,64,64,21]", "a 64x64 map with 21 values per position "
                                        "(e.g. a mask or feature map)"),
    ("Relu", "float", "<unknown>", "numbers (their shape is known only when the model runs)"),
])
def test_outputs_in_plain_words(op, dtype, shape, words):
    graph = _graph([("x", "Placeholder", []), ("out", op, ["x"]), ("read", "Identity", ["out"])])
    assert mc.describe_output(graph, "out", dtype, shape) == words
    assert mc.describe_output(graph, "read", dtype, shape) == words  # through an Identity


def test_a_vector_is_scores_per_category_only_where_something_says_so():
    graph = _graph([("x", "Placeholder", []), ("embed", "MatMul", ["x", "w"]),
                    ("out", "Identity", ["embed"]), ("w", "Const", []),
                    ("logits", "BiasAdd", ["x", "w"]), ("read", "Identity", ["logits"]),
                    ("scores", "MatMul", ["x", "w"]), ("flat", "Reshape", ["scores", "w"]),
                    ("top", "ArgMax", ["flat", "w"]),
                    ("sm", "Softmax", ["x"]), ("Predictions/Reshape_1", "Reshape", ["sm", "w"])])
    assert mc.describe_output(graph, "out", "float", "[1,64]") == "64 numbers"
    assert mc.describe_output(graph, "out", "float", "[1,64]", class_count=64) == \
        "64 scores, one per category"
    assert mc.describe_output(graph, "out", "float", "[1,1001]", class_count=1000) == \
        "1,001 scores, one per category"            # a background class first
    assert mc.describe_output(graph, "read", "float", "[1,10]") == \
        "10 scores, one per category"               # its name says so
    assert mc.describe_output(graph, "scores", "float", "[1,7]") == \
        "7 scores, one per category"                # an ArgMax picks one
    assert mc.describe_output(graph, "Predictions/Reshape_1", "float", "[1,1001]") == \
        "1,001 probabilities, one per category (they add up to 1)"


def test_a_measured_time_is_labelled_measured(data):
    from inspector.core.analysis.summary import summarize

    graph = load(DEMO).graph
    card = mc.build_card(graph, summarize(graph), "demo", None, measured_ms=1.25)
    fact = card.fact("measured time")
    assert fact.measured and "measured" in fact.text and fact.value == 1.25


def test_a_tiny_model_s_speed_reads_under_a_hundredth_of_a_ms_not_about_under(data):
    """A model of a few hundred operations runs in under 0.01 ms on every device: the card
    said 'about under 0.01 ms on a typical phone'."""
    from inspector.core.analysis.flops import FlopReport
    from inspector.core.analysis.summary import summarize

    graph = load(DEMO).graph
    card = mc.build_card(graph, summarize(graph), "demo", FlopReport(total=500))
    speeds = [f.text for f in card.facts if f.label.startswith("speed on ")]
    assert speeds and all(t.startswith("under 0.01 ms on a ") for t in speeds), speeds
    big = mc.build_card(graph, summarize(graph), "demo", FlopReport(total=2 * 10 ** 9))
    assert big.fact("speed on typical phone").text == "about 200 ms on a typical phone"


def test_the_cards_measured_time_is_the_untraced_runs_average_as_profile_prints_it():
    """The card's "measured" time of a profile run here is the average of its untraced runs,
    the "no stats" figure `profile` prints (benchmark_model's convention); it was the traced
    runs', which tracing slows (+7 % on MobileNetV2: 11.5 ms for 10.8). An imported log has
    no untraced runs: its runs' total; without one, its nodes' times a run (a loop's node
    counting every call)."""
    from types import SimpleNamespace

    from inspector.core.app.card import measured_ms
    from inspector.core.overlays.profiling import NodeTime, Profile

    ran = Profile({"a": NodeTime("a", "MatMul", 0.5)}, "TensorFlow, 2 traced runs",
                  run_totals_us=[15000.0, 16000.0], untraced_us=[10000.0, 12000.0])
    assert measured_ms(SimpleNamespace(profile=ran)) == 11.0
    log = Profile({"a": NodeTime("a", "MatMul", 0.5)}, "benchmark_model output",
                  run_totals_us=[2500.0])
    assert measured_ms(SimpleNamespace(profile=log)) == 2.5
    loop = Profile({"a": NodeTime("a", "MatMul", 0.25, times=20),
                    "b": NodeTime("b", "Relu", 0.5)}, "benchmark_model output")
    assert measured_ms(SimpleNamespace(profile=loop)) == 5.5
    assert measured_ms(SimpleNamespace(profile=None)) is None and measured_ms(None) is None
    # one figure, in one place: the card and `profile`'s "no stats" line both read
    # Profile.average_us (the review's item: they computed it apart)
    assert ran.average_us() == 11000.0 and ran.average_us(traced=True) == 15500.0
    assert log.average_us() is None and loop.average_us(traced=True) is None


def test_learned_numbers_leave_out_shapes_and_single_numbers_and_count_integer_biases(data):
    """The card's learned numbers are the weights' elements, as Keras's count_params() counts
    them (tests/tf/test_model_card_tf.py checks Keras). The digits .tflite, float and int8:
    conv filter and bias, dense weights and bias, 9,930 numbers either way (the
    int8 file's biases are int32 arrays); its RESHAPE's 2-element shape is not learned (the
    old count, every constant's elements, said 9,932). A scalar (an epsilon) is not counted;
    a variable's initial value, read only by its Assign, is not counted again."""
    import os

    from inspector.core.analysis.summary import summarize
    from inspector.core.model.parameters import learned_elements

    for name in ("digits_float.tflite", "digits_int8.tflite"):
        graph = load(os.path.join(data, name)).graph
        assert learned_elements(graph) == 9930, name
        assert "RESHAPE" in graph.op_counts()
    gd = protos.GraphDef()
    for name, dtype, dims, value in (("eps", 1, [], None), ("w", 1, [3, 4], None),
                                     ("shape", 3, [2], None), ("bias", 3, [4], None),
                                     ("init", 1, [5], None)):
        node = gd.node.add(name=name, op="Const")
        node.attr["dtype"].type = dtype
        tensor = node.attr["value"].tensor
        tensor.dtype = dtype
        for d in dims:
            tensor.tensor_shape.dim.add(size=d)
    var = gd.node.add(name="v", op="VariableV2")
    var.attr["dtype"].type = 1
    var.attr["shape"].shape.dim.add(size=5)
    gd.node.add(name="x", op="Placeholder")
    gd.node.add(name="mm", op="MatMul", input=["x", "w"])
    gd.node.add(name="add", op="AddV2", input=["mm", "eps"])
    gd.node.add(name="r", op="Reshape", input=["add", "shape"])
    gd.node.add(name="fc", op="FULLY_CONNECTED", input=["r", "w", "bias"])
    gd.node.add(name="assign", op="Assign", input=["v", "init"])
    assert learned_elements(Graph(gd)) == 12 + 4 + 5       # w, the int bias, the variable
    graph = Graph(gd)
    card = mc.build_card(graph, summarize(graph))         # the summary's count says 29
    fact = card.fact("learned numbers")
    assert fact.value == 21 and "count_params" in fact.definition


def test_a_rank_1_input_s_length_is_not_read_as_a_batch_of_the_outputs():
    """b670feb reads an output's first size as the inputs' batch when it equals their first
    size. A rank-1 input has no batch: [16] token ids are one sequence, and its [16,8]
    output (a vector of 8 per token) read '8 numbers'. A rank-2 or more input's first size
    still reads as a batch ([2,8,8,1] in, [2,10] out: 10 per input). Fails on b670feb."""
    from inspector.core.analysis.summary import summarize

    graph = _graph([("tokens", "Placeholder", []), ("emb", "Const", []),
                    ("out", "GatherV2", ["emb", "tokens"])])
    card = mc.build_card(graph, summarize(graph), input_ports=[("tokens:0", "int32", "[16]")],
                         output_ports=[("out:0", "float", "[16,8]")])
    assert card.outputs[0].plain == "a block of numbers shaped [16,8]"
    card = mc.build_card(graph, summarize(graph),
                         input_ports=[("tokens:0", "float", "[2,8,8,1]")],
                         output_ports=[("out:0", "float", "[2,10]")])
    assert card.outputs[0].plain == "10 numbers"
