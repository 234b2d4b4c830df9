"""An edge's dtype is its source op's output type from TensorFlow's op registry, not the
op's input type attr `T` (issue: Dequantize's edge in a quantize_weights model said quint8).
Qt-free, TF-free: graphs written as NodeDefs like the ones TF's graph transforms write (a
Dequantize with no `dtype` attr, whose output is the registry's default, float)."""

from inspector.core.analysis.port_types import registry_dtype
from inspector.core.analysis.summary import port_dtype_shape, tensor_label
from inspector.core.model import protos
from inspector.core.model.dtypes import dtype_value
from inspector.core.model.graph import Graph
from inspector.core.view.view_graph import ViewModel


def _graph():
    gd = protos.GraphDef()

    def add(name, op, inputs=(), **types):
        node = gd.node.add(name=name, op=op)
        node.input.extend(inputs)
        for key, value in types.items():
            if isinstance(value, list):
                node.attr[key].list.type.extend(dtype_value(v) for v in value)
            elif isinstance(value, int):
                node.attr[key].i = value
            else:
                node.attr[key].type = dtype_value(value)
        return node

    add("x", "Placeholder", dtype="float")
    add("w/quantized", "Const", dtype="quint8")
    add("w/min", "Const", dtype="float")
    add("w/max", "Const", dtype="float")
    add("w", "Dequantize", ["w/quantized", "w/min", "w/max"], T="quint8")
    add("w16", "Dequantize", ["w/quantized", "w/min", "w/max"], T="quint8", dtype="bfloat16")
    add("conv", "Conv2D", ["x", "w"], T="float")
    add("cast", "Cast", ["conv"], SrcT="float", DstT="int32")
    add("shape", "Shape", ["conv"], T="float")
    add("shape64", "Shape", ["conv"], T="float", out_type="int64")
    add("argmax", "ArgMax", ["conv", "shape"], T="float", Tidx="int32")
    add("q", "QuantizeV2", ["conv", "w/min", "w/max"], T="qint8")
    add("uniq", "Unique", ["cast"], T="int32", out_idx="int64")
    add("split", "Split", ["shape", "conv"], T="float", num_split=3)
    add("sum", "AddN", ["q:1", "q:2", "split:2", "w"], T="float", N=4)
    add("odd", "MY_CUSTOM_OP", ["conv"], T="half")
    return Graph(gd)


def test_an_output_s_dtype_is_the_op_s_output_type_not_its_input_s():
    g = _graph()
    expect = {("w", 0): "float", ("w16", 0): "bfloat16", ("cast", 0): "int32",
              ("shape", 0): "int32", ("shape64", 0): "int64", ("argmax", 0): "int64",
              ("q", 0): "qint8", ("q", 1): "float", ("q", 2): "float",
              ("uniq", 0): "int32", ("uniq", 1): "int64", ("split", 2): "float",
              ("x", 0): "float", ("w/quantized", 0): "quint8", ("conv", 0): "float"}
    for (name, port), dtype in expect.items():
        assert registry_dtype(g.node(name), port) == dtype, (name, port)
        assert port_dtype_shape(g.node(name), port)[0] == dtype, (name, port)
        assert tensor_label(g, name, port) == dtype, (name, port)
    assert registry_dtype(g.node("split"), 3) == ""          # past the op's outputs
    # an op the registry does not know keeps the node's own type attrs
    assert registry_dtype(g.node("odd"), 0) == "" and tensor_label(g, "odd", 0) == "half"


def test_the_canvas_labels_dequantize_s_edge_float():
    g = _graph()
    scene = ViewModel(g, fold_constants=False).scene()
    labels = {(e.src, e.dst): e.label for e in scene.edges}
    assert labels[("w", "conv")] == "float"
    assert labels[("cast", "uniq")] == "int32"
    assert labels[("shape", "argmax")] == "int32"
