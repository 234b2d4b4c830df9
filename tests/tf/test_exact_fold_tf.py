"""Exact constant folding in numpy (transforms/exact_ops.py) against TensorFlow, the oracle:
every kernel on random cases, bit for bit (and where TF refuses, numpy refuses too); every
fixture folded with and without TensorFlow to the same bytes, and to TF's own fold_constants'
values; an exact pipeline never imports TensorFlow; a non-exact op still folds in TF."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from inspector.core.loaders import load
from inspector.core.model import protos, safety, tensors
from inspector.core.transforms import run_pipeline
from inspector.core.transforms.exact_ops import EXACT_OPS, ExactEvaluator, NotExact

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.path.expanduser(os.environ.get("XDG_CACHE_HOME", "~/.cache"))


def tf():
    import tensorflow

    return tensorflow


def test_every_exact_op_is_stateless_pure_and_has_a_cpu_kernel():
    from tensorflow.python.framework import kernels, op_def_registry

    for op in EXACT_OPS:
        op_def = op_def_registry.get(op)
        assert op_def is not None and not op_def.is_stateful, op
        assert op in safety.PURE_OPS, op
        assert any(k.device_type in ("CPU", "DEFAULT") for k in
                   kernels.get_registered_kernels_for_op(op).kernel), op


# -- every kernel against TF's, bit for bit ----------------------------------------------------
RNG = np.random.default_rng(38)
FLOATS, INTS = (np.float32, np.float64), (np.int32, np.int64)


def rand(dtype, shape):
    dt = np.dtype(dtype)
    if dt == np.object_:  # strings
        out = np.empty(shape, dtype=object)
        out.flat[:] = [bytes(RNG.integers(0, 256, RNG.integers(0, 5)).astype(np.uint8))
                       for _ in range(out.size)]
        return out
    if dt == np.bool_:
        return RNG.random(shape) < 0.5
    if dt.kind == "f":
        scale = 10.0 ** RNG.uniform(-45 if dt == np.float32 else -320, 38, shape)
        out = (RNG.standard_normal(shape) * scale).astype(dt)
        if out.size and RNG.random() < 0.3:  # specials now and then
            out.flat[RNG.integers(out.size)] = RNG.choice([np.inf, -np.inf, -0.0, np.nan])
        return out
    info = np.iinfo(dt)
    hi = min(info.max, 2 ** 40) if RNG.random() < 0.2 else 100
    return RNG.integers(max(info.min, -hi), hi, shape, endpoint=True).astype(dt)


def rshape(rank=None):
    return tuple(int(d) for d in RNG.integers(0 if RNG.random() < 0.1 else 1, 5,
                                             RNG.integers(0, 4) if rank is None else rank))


def cases():
    """(op name, builder(tf) -> output tensor or list of them), many per op."""
    out = []
    for _ in range(40):
        for op in ("Add", "AddV2", "Sub", "Mul", "Maximum", "Minimum", "FloorDiv", "FloorMod"):
            dt = RNG.choice(INTS if op in ("Maximum", "Minimum", "FloorDiv", "FloorMod")
                            else FLOATS + INTS)
            a = rshape()
            b = a[RNG.integers(0, len(a) + 1):] if RNG.random() < 0.5 else a
            x, y = rand(dt, a), rand(dt, b)
            out.append((op, lambda t, op=op, x=x, y=y: getattr(t.raw_ops, op)(x=x, y=y)))
        dt = RNG.choice(FLOATS + INTS)
        x = rand(dt, rshape())
        out.append(("Neg", lambda t, x=x: t.raw_ops.Neg(x=x)))
        src, dst = RNG.choice([np.float32, np.float64, np.int32, np.int64, np.int8, np.int16,
                               np.uint8, np.uint16, np.bool_], 2)
        x = rand(src, rshape())
        if np.dtype(src).kind == "f" and RNG.random() < 0.7:
            x = (x % 300.0 - 150.0).astype(src)
        out.append(("Cast", lambda t, x=x, dst=dst: t.raw_ops.Cast(x=x, DstT=t.as_dtype(dst))))
    for _ in range(60):
        x = rand(RNG.choice([np.float32, np.int32, np.bool_, np.int64, np.float16, np.uint8,
                             np.object_]), rshape())
        shape = list(x.shape)
        RNG.shuffle(shape)
        if shape and RNG.random() < 0.5:
            shape[RNG.integers(len(shape))] = -1
        out.append(("Reshape", lambda t, x=x, s=shape: t.raw_ops.Reshape(
            tensor=x, shape=np.array(s, np.int32))))
        perm = RNG.permutation(x.ndim)
        out.append(("Transpose", lambda t, x=x, p=perm: t.raw_ops.Transpose(
            x=x, perm=p.astype(np.int32))))
        d = int(RNG.integers(-x.ndim - 1, x.ndim + 1))
        out.append(("ExpandDims", lambda t, x=x, d=d: t.raw_ops.ExpandDims(
            input=x, axis=np.int32(d))))
        ones = np.reshape(x, [1] + list(x.shape) + [1])
        dims = [int(v) for v in RNG.choice([0, -1, 1, x.ndim + 1], RNG.integers(0, 3),
                                           replace=False)]
        out.append(("Squeeze", lambda t, x=ones, d=dims: t.raw_ops.Squeeze(
            input=x, axis=d)))
        axis = int(RNG.integers(-x.ndim - 1, x.ndim + 1))
        out.append(("Pack", lambda t, x=x, a=axis: t.raw_ops.Pack(values=[x, x, x], axis=a)))
        if x.ndim:
            a = int(RNG.integers(-x.ndim, x.ndim))
            out.append(("Unpack", lambda t, x=x, a=a: t.raw_ops.Unpack(
                value=x, num=x.shape[a], axis=a)))
            out.append(("ConcatV2", lambda t, x=x, a=a: t.raw_ops.ConcatV2(
                values=[x, x[..., :1] if a in (-1, x.ndim - 1) else x], axis=np.int32(a))))
            out.append(("Concat", lambda t, x=x, a=a: t.raw_ops.Concat(
                concat_dim=np.int32(a), values=[x, x])))
            begin = [int(RNG.integers(0, d + 1)) for d in x.shape]
            size = [int(RNG.integers(-1, d - b + 1)) for d, b in zip(x.shape, begin)]
            out.append(("Slice", lambda t, x=x, b=begin, s=size: t.raw_ops.Slice(
                input=x, begin=np.array(b, np.int64), size=np.array(s, np.int64))))
            idx = RNG.integers(0, max(x.shape[a], 1) + (RNG.random() < 0.1), rshape())
            out.append(("GatherV2", lambda t, x=x, i=idx, a=a: t.raw_ops.GatherV2(
                params=x, indices=i.astype(np.int32), axis=np.int32(a))))
            mult = RNG.integers(0, 3, x.ndim).astype(np.int32)
            out.append(("Tile", lambda t, x=x, m=mult: t.raw_ops.Tile(input=x, multiples=m)))
        out.append(("StridedSlice", strided_slice_case(x)))
        out.append(("IdentityN", lambda t, x=x: t.raw_ops.IdentityN(input=[x, x])))
        for op in ("Snapshot", "StopGradient", "PreventGradient"):
            out.append((op, lambda t, x=x, op=op: getattr(t.raw_ops, op)(input=x)))
        for op in ("Shape", "Size", "Rank", "ZerosLike", "OnesLike", "Identity"):
            out.append((op, lambda t, x=x, op=op: getattr(t.raw_ops, op)(input=x) if op in (
                "Shape", "Size", "Rank") else getattr(t.raw_ops, op)(x=x) if op != "Identity"
                else t.raw_ops.Identity(input=x)))
        value = rand(RNG.choice([np.float32, np.int64, np.bool_, np.object_]), ())
        out.append(("Fill", lambda t, s=rshape(), v=value: t.raw_ops.Fill(
            dims=np.array(s, np.int32), value=v)))
        target = list(rshape(x.ndim + int(RNG.integers(0, 2))))
        for i in range(1, x.ndim + 1):
            if RNG.random() < 0.8:
                target[-i] = x.shape[-i]
        out.append(("BroadcastTo", lambda t, x=x, s=target: t.raw_ops.BroadcastTo(
            input=x, shape=np.array(s, np.int64))))
        start, limit = (int(v) for v in RNG.integers(-30, 30, 2))
        delta = int(RNG.choice([-7, -2, -1, 1, 3, 5]))
        dt = RNG.choice(INTS)
        out.append(("Range", lambda t, a=start, b=limit, c=delta, dt=dt: t.raw_ops.Range(
            start=dt(a), limit=dt(b), delta=dt(c))))
        b = rand(np.bool_, rshape())
        axes = np.array(RNG.integers(-max(b.ndim, 1), max(b.ndim, 1), RNG.integers(0, 3)),
                        np.int32)
        for op in ("All", "Any"):
            out.append((op, lambda t, b=b, ax=axes, op=op: getattr(t.raw_ops, op)(
                input=b, axis=ax, keep_dims=bool(RNG.random() < 0.5))))
    return out


def strided_slice_case(x):
    n = int(RNG.integers(1, x.ndim + 2))
    begin, end = RNG.integers(-6, 6, n), RNG.integers(-6, 6, n)
    strides = RNG.choice([-3, -2, -1, 1, 1, 1, 2], n)
    masks = [int(RNG.integers(0, 2 ** n)) if RNG.random() < p else 0
             for p in (0.5, 0.5, 0.2, 0.2, 0.4)]
    if masks[2]:
        masks[2] = 1 << int(RNG.integers(n))

    def build(t):
        return t.raw_ops.StridedSlice(
            input=x, begin=begin.astype(np.int32), end=end.astype(np.int32),
            strides=strides.astype(np.int32), begin_mask=masks[0], end_mask=masks[1],
            ellipsis_mask=masks[2], new_axis_mask=masks[3], shrink_axis_mask=masks[4])
    return build


def test_every_kernel_matches_tensorflow_bit_for_bit():
    t = tf()
    exact: dict = {}
    for op, build in cases():
        graph = t.Graph()
        with graph.as_default():
            try:
                result = build(t)
            except (ValueError, TypeError, t.errors.InvalidArgumentError):
                continue  # TF refuses the graph itself
        outs = result if isinstance(result, list) else [result]
        gd = protos.GraphDef.FromString(graph.as_graph_def().SerializeToString())
        nodes = {n.name: n for n in gd.node}
        with t.compat.v1.Session(graph=graph) as sess:
            try:
                want = sess.run(outs)
            except t.errors.OpError:
                want = None
        evaluator = ExactEvaluator(nodes, 2 ** 30)
        try:
            got = [evaluator.value(o.name) for o in outs]
        except NotExact:
            continue  # handed to TensorFlow: never wrong, only slower
        assert want is not None, f"{op}: TF refuses, numpy folded {got}"
        for w, g in zip(want, got):
            w = np.asarray(w)
            if w.dtype.kind == "S":  # sess.run gives a string scalar as numpy bytes_, which
                w = w.astype(object)  # drops trailing NULs (the tensor keeps them)
                g = np.array(g.item().rstrip(b"\0"), dtype=object)
            assert (w.dtype, w.shape) == (g.dtype, g.shape), (op, w, g)
            assert w.tobytes() == np.array(g, order="C").tobytes() if w.dtype != object \
                else w.tolist() == g.tolist(), (op, w, g)
        exact[op] = exact.get(op, 0) + 1
    assert set(exact) == EXACT_OPS - {"Const"}, exact
    assert min(exact.values()) >= 5, exact


# -- every fixture model: folded with and without TensorFlow to the same bytes ----------------
def io_of(gd) -> tuple:
    """Placeholders in, nodes nothing reads out (what a user would mark)."""
    read = {i.lstrip("^").split(":")[0] for n in gd.node for i in n.input}
    return ([n.name for n in gd.node if n.op == "Placeholder"],
            [n.name for n in gd.node if n.name not in read and n.op not in (
                "NoOp", "Const", "Assign", "AssignVariableOp", "SaveV2", "RestoreV2")])


def folded_values(gd) -> dict:
    """Folded constants by the node they replace (TF numbers its names differently): sorted
    (dtype, shape, bytes) per node; values TF makes that we cannot decode (variants) left out."""
    out: dict = {}
    for n in gd.node:
        if "__cf__" in n.name:
            try:
                a = tensors.to_numpy(n.attr["value"].tensor)
            except ValueError:
                continue
            data = repr(a.tolist()) if a.dtype == object else a.tobytes()
            out.setdefault(re.sub(r"/_\d+__cf__\d+$", "", n.name), []).append(
                (a.dtype.str, a.shape, data))
    return {k: sorted(v) for k, v in out.items()}


def cf(name: str) -> str:
    return re.sub(r"/_\d+__cf__\d+$", "/CF", name)


def structure(gd) -> dict:
    """node (folds named by what they replace) -> op, data inputs, control inputs as a set
    (TF's GraphDef writer sorts them)."""
    return {cf(n.name): (n.op, tuple(cf(i) for i in n.input if not i.startswith("^")),
                         frozenset(cf(i) for i in n.input if i.startswith("^")))
            for n in gd.node}


def unexplained_differences(ours, native) -> list:
    """Nodes that differ, except where TF folded a variant (a TensorList: no numpy array holds
    it, so ours keeps the node that makes it, and what feeds that node)."""
    a, b = structure(ours), structure(native)
    variant = {cf(n.name)[:-3] for n in native.node
               if n.op == "Const" and n.attr["dtype"].type == 21}
    keep = set(variant)
    for name in sorted(variant):
        stack = [name]
        while stack:
            for i in a.get(stack.pop(), ("", (), ()))[1]:
                src = i.split(":")[0]
                if src not in keep and src not in b:
                    keep.add(src)
                    stack.append(src)
    return [k for k in set(a) | set(b) if a.get(k) != b.get(k) and k not in keep
            and k[:-3] not in variant
            and not any(i.split(":")[0] in variant for i in a.get(k, ("", (), ()))[1])]


def fixture_models():
    from tests.fixtures import fixture_dir, scale_models, wild_models
    from tests.fixtures.keras2_models import keras2_dir
    from tests.fixtures.keras_rnn_models import keras_rnn_dir

    fx = fixture_dir()
    out = [os.path.join(fx, n) for n in (
        "inception_jpeg.pb", "mobilenet_v2.pb", "speech_commands.pb", "v1_training.pb",
        "while_v1.pb", "while_v2.pb", "tiny.keras", "tiny.h5", "two_signatures")]
    out += [os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb"),
            os.path.join(keras_rnn_dir(), "lstm_dropout.keras"),
            os.path.join(keras_rnn_dir(), "gru_old.h5"), os.path.join(keras2_dir(), "lstm_gru.h5")]
    out.append(scale_models.flat_graph(1000))
    for name in ("basic_pitch_saved_model", "basic_pitch_tfjs", "handtrack_tfjs0", "fer_h5",
                 "deeplc_keras", "handtrack_float32"):
        try:
            out.append(wild_models.model(name))
        except wild_models.Unavailable:
            continue
    return out


SEED_PREFIX = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
               'op=CheckNumerics) ')


@pytest.fixture(scope="module")
def fixture_folds():
    """Per fixture: (name, numpy-first fold, TF-only fold, TF's own fold_constants), once."""
    from inspector.core.runtime.executor import tensorflow

    rows = []
    for path in fixture_models():
        gd = load(path).graph.graph_def
        ins, outs = io_of(gd)
        steps = "fold_constants(ignore_errors=true)"
        if path.endswith("inception_jpeg.pb"):  # the seed pipeline's first steps, then fold
            ins, outs = ["Mul"], ["softmax"]
            gd = run_pipeline(gd, SEED_PREFIX, ins, outs)[-1].graph_def
        os.environ["INSPECTOR_EXACT_FOLD"] = "0"
        try:
            via_tf = run_pipeline(gd, steps, ins, outs)[-1]
        finally:
            del os.environ["INSPECTOR_EXACT_FOLD"]
        ours = run_pipeline(gd, steps, ins, outs)[-1]
        native = tensorflow().run_native_transform(gd, ins, outs, steps)
        rows.append((os.path.basename(path.rstrip("/")), ours, via_tf, native))
    return rows


def test_fold_on_every_fixture_is_tensorflows_bit_for_bit(fixture_folds):
    in_numpy = 0
    for name, ours, via_tf, native in fixture_folds:
        assert ours.graph_def.SerializeToString(deterministic=True) == \
            via_tf.graph_def.SerializeToString(deterministic=True), name
        mine, theirs = folded_values(ours.graph_def), folded_values(native)
        assert all(mine[k] == theirs.get(k) for k in mine), name  # TF's own values, bytes
        assert not ours.ignored_error, (name, ours.ignored_error)
        assert not unexplained_differences(ours.graph_def, native), name  # TF's structure
        in_numpy += sum("__cf__" in k and "TensorFlow" not in why
                        for k, why in ours.reasons.items())
    assert in_numpy >= 200, in_numpy  # mobilenet_v2 54, basic-pitch 50, flat 99, ...
    names = {row[0] for row in fixture_folds}
    assert {"mobilenet_v2.pb", "demo_digits.pb", "tiny.keras", "flat_1000_0.pb"} <= names


def test_a_non_exact_op_still_folds_through_tensorflow_with_its_bytes(fixture_folds):
    """The digits demo's batch norms need Rsqrt (Eigen's, not correctly rounded): those
    subgraphs go to TensorFlow, the others fold in numpy, all equal to TF's own fold."""
    name, ours, via_tf, native = next(r for r in fixture_folds if r[0] == "demo_digits.pb")
    by_tf = [k for k, why in ours.reasons.items() if why.endswith("(computed in TensorFlow)")]
    by_numpy = [k for k, why in ours.reasons.items() if "__cf__" in k and k not in by_tf]
    assert len(by_tf) == 4 and len(by_numpy) == 4
    assert all("batchnorm" in k for k in by_tf)
    theirs = folded_values(native)
    assert folded_values(ours.graph_def) == theirs and len(theirs) == 8


# -- an exact pipeline never imports TensorFlow ---------------------------------------------------
CHILD = """
import sys
from inspector.cli.main import main
rc = main(sys.argv[1:])
heavy = sorted(m for m in ("tensorflow", "keras", "sklearn") if m in sys.modules)
print("HEAVY", rc, heavy, file=sys.stderr)
"""


def test_a_pipeline_whose_folds_are_all_exact_never_imports_tensorflow(tmp_path):
    from test_exact_fold import exact_graph

    from inspector.core.runtime.executor import tensorflow

    tiny = load(os.path.join(__import__("tests.fixtures", fromlist=["x"]).fixture_dir(),
                             "tiny.keras")).graph.graph_def
    for name, gd, io in (("handmade", exact_graph(), ("x", "out")),
                         ("tiny_keras", tiny, tuple(",".join(v) for v in io_of(tiny)))):
        src, dst = tmp_path / f"{name}.pb", tmp_path / f"{name}_folded.pb"
        src.write_bytes(gd.SerializeToString())
        steps = "strip_unused_nodes remove_nodes(op=Identity) fold_constants"
        env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([sys.executable, "-c", CHILD, "transform", "--in_graph", str(src),
                               "--out_graph", str(dst), "--inputs", io[0], "--outputs", io[1],
                               "--transforms", steps], capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=300)
        assert "HEAVY 0 []" in proc.stderr, proc.stderr[-2000:]
        ours = protos.GraphDef.FromString(dst.read_bytes())
        assert any("__cf__" in n.name for n in ours.node), name
        native = tensorflow().run_native_transform(gd, io[0].split(","), io[1].split(","),
                                                   steps)
        assert folded_values(ours) == folded_values(native), name


def test_a_fold_that_needs_tensorflow_imports_it_without_scikit_learn(tmp_path):
    """Issue 38.16: importing TF imported Keras and, through Keras' sklearn wrappers,
    scikit-learn (~1 s of TF's ~4 s); it is hidden while TF imports and works afterwards."""
    demo = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
    code = CHILD + "import sklearn.datasets\nprint('SKLEARN', 'ok', file=sys.stderr)\n"
    proc = subprocess.run([sys.executable, "-c", code, "transform", "--in_graph", demo,
                           "--out_graph", str(tmp_path / "f.pb"), "--inputs", "pixels",
                           "--outputs", "output", "--transforms", "fold_constants"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env=dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3"))
    assert "HEAVY 0 ['keras', 'tensorflow']" in proc.stderr, proc.stderr[-2000:]
    assert "SKLEARN ok" in proc.stderr
