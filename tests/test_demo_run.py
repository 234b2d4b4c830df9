"""Demo runs (issue #14): the model run on a photo, sound or array, checked against a direct
TensorFlow run of the same graph; front-end and value-range detection; labels; block ends;
bad inputs refused before anything runs."""

from __future__ import annotations

import json
import os
import shutil
import wave

import numpy as np
import pytest
from conftest import DEMO, run_cli
from PIL import Image

from inspector.core.analysis.blocks import block_end, first_squash, top_blocks
from inspector.core.analysis.summary import summarize
from inspector.core.app import demo
from inspector.core.demo import front_end as fe_mod
from inspector.core.demo.feature_maps import feature_maps, output_view, scaled
from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.loaders.labels import Labels, find_labels, read_labels_file
from inspector.core.loaders.media import read_input
from inspector.core.model import protos
from inspector.core.model.graph import Graph


def _tf_run(path, feeds, fetches):
    import tensorflow as tf

    gd = tf.compat.v1.GraphDef.FromString(open(path, "rb").read())
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.import_graph_def(gd, name="")
    with tf.compat.v1.Session(graph=g) as s:
        return s.run(fetches, feeds)


def _demo(path, item_path, convention=None, labels=None):
    model = load(path)
    summary = summarize(model.graph, model.known_inputs, model.known_outputs)
    ins, outs = demo.choose_ports([], [], summary)
    plan = demo.plan(model.graph, ins, outs, convention=convention, model_path=path,
                     labels=labels)
    return plan, demo.run(demo.engine_here(model.graph.graph_def), plan,
                          read_input(item_path).first)


def _photo(path, size=(320, 240), fmt=None):
    h, w = size[1], size[0]
    x = np.zeros((h, w, 3), np.uint8)
    x[..., 0] = np.linspace(20, 230, w)[None]
    x[..., 1] = np.linspace(30, 200, h)[:, None]
    x[h // 3: 2 * h // 3, w // 3: 2 * w // 3, 2] = 180
    Image.fromarray(x).save(path, format=fmt)
    return x


def _wav(path, rate=16000, seconds=1.0):
    t = np.arange(int(rate * seconds)) / rate
    x = (0.4 * np.sin(2 * np.pi * 440 * t) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(x.tobytes())


def test_the_demo_model_on_a_digit_equals_a_direct_tensorflow_run(tmp_path):
    from sklearn.datasets import load_digits

    digits = load_digits()
    idx = 1600                                  # held out from the demo model's training
    pixels = np.round(digits.images[idx] * 255 / 16).astype(np.uint8)
    Image.fromarray(pixels, "L").save(tmp_path / "digit.png")
    plan, result = _demo(DEMO, str(tmp_path / "digit.png"))
    assert plan.front.feed == "pixels:0" and plan.front.channels == 1
    assert plan.labels.source == "demo_digits_labels.txt"
    view = result.outputs[0]
    assert view.kind == "classes" and view.count == 10
    direct = _tf_run(DEMO, {"pixels:0": pixels[None, :, :, None] / np.float32(255)},
                     "output:0")[0]
    want = np.argsort(-direct, kind="stable")[:5]
    assert [i for i, _ in view.top] == list(want)
    assert np.allclose([p for _, p in view.top], direct[want], atol=1e-6)
    names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    assert view.labels[0] == names[digits.target[idx]]      # and it is right
    assert result.seen.picture.shape == (8, 8) and not result.seen.warnings


def test_the_inception_fixture_decodes_a_jpeg_itself(fx, tmp_path):
    _photo(tmp_path / "cat.jpg", fmt="JPEG")
    path = os.path.join(fx, "inception_jpeg.pb")
    plan, result = _demo(path, str(tmp_path / "cat.jpg"))
    assert plan.front.feed == "DecodeJpeg/contents:0" and plan.front.sees == "Mul:0"
    assert plan.front.detected and plan.front.range == (-1.0, 127 / 128)
    assert "Sub and Mul" in plan.front.range_how
    assert result.seen.picture.shape == (299, 299, 3) and not result.seen.warnings
    data = open(tmp_path / "cat.jpg", "rb").read()
    direct = _tf_run(path, {"DecodeJpeg/contents:0": data}, "softmax:0")[0]
    view = result.outputs[0]
    assert np.allclose([p for _, p in view.top], np.sort(direct)[::-1][:5], atol=1e-6)
    assert view.labels[0].startswith("class ")      # no labels beside it
    # one strip per block the photo reaches, channels most active first
    assert {b.item for b in result.blocks} == {"conv", "conv_1", "mixed"}
    mixed = next(b for b in result.blocks if b.item == "mixed")
    assert mixed.shape == (1, 74, 74, 32) and mixed.mean[mixed.order[0]] == mixed.mean.max()


def test_a_png_for_a_jpeg_decoder_is_converted_and_said(fx, tmp_path):
    _photo(tmp_path / "p.png")
    _, result = _demo(os.path.join(fx, "inception_jpeg.pb"), str(tmp_path / "p.png"))
    assert any("converted to JPEG" in n for n in result.notes)


def test_the_mobilenet_fixture_fed_a_png_equals_a_direct_run(fx, tmp_path):
    _photo(tmp_path / "dog.png")
    path = os.path.join(fx, "mobilenet_v2.pb")
    plan, result = _demo(path, str(tmp_path / "dog.png"))
    fe = plan.front
    assert fe.feed_format == "pixels" and (fe.height, fe.width) == (224, 224)
    assert fe.convention == "-1_1" and fe.range_how.startswith("assumed: mobilenet")
    assert any("resized from 320x240 to 224x224" in n for n in result.notes)
    img = np.asarray(Image.open(tmp_path / "dog.png").convert("RGB").resize(
        (224, 224), Image.BILINEAR), np.float32) / 127.5 - 1
    direct = _tf_run(path, {"input:0": img[None]}, plan.outputs[0])[0]
    assert np.allclose(result.values[plan.outputs[0]], direct[None] if direct.ndim == 1
                       else direct, atol=1e-6)
    assert len(result.blocks) > 10


def test_a_wrong_value_range_is_said_in_plain_words(fx, tmp_path):
    _photo(tmp_path / "dog.png")
    path = os.path.join(fx, "mobilenet_v2.pb")
    _, right = _demo(path, str(tmp_path / "dog.png"))
    assert not right.seen.warnings and right.seen.squashed < 0.05
    _, wrong = _demo(path, str(tmp_path / "dog.png"), convention="0_255")
    assert wrong.seen.squashed > 0.2
    assert "first layer is at its limit" in wrong.seen.warnings[0]
    # an array scaled 0..255 for a model that expects -1..1
    np.save(tmp_path / "big.npy", np.full((1, 224, 224, 3), 200, np.float32))
    _, arr = _demo(path, str(tmp_path / "big.npy"))
    assert arr.seen.outside == 1.0 and "outside the range it expects" in arr.seen.warnings[0]


def test_a_speech_graph_hears_a_wav_and_shows_its_spectrogram(fx, tmp_path):
    _wav(tmp_path / "yes.wav")
    path = os.path.join(fx, "speech_commands.pb")
    plan, result = _demo(path, str(tmp_path / "yes.wav"))
    assert plan.front.kind == "audio" and plan.front.sees == "AudioSpectrogram:0"
    assert plan.front.samples == 16000 and plan.front.rate == 16000
    assert "spectrogram" in result.seen.description
    assert result.seen.picture.ndim == 2 and result.seen.picture.shape[1] == 98  # time ->
    direct = _tf_run(path, {"wav_data:0": open(tmp_path / "yes.wav", "rb").read()},
                     "labels_softmax:0")[0]
    view = result.outputs[0]
    assert np.allclose([p for _, p in view.top], np.sort(direct)[::-1][:5], atol=1e-6)
    labels = open(os.path.join(fx, "speech_commands_labels.txt")).read().split()
    assert view.labels[0] == labels[int(np.argmax(direct))]
    assert {b.item for b in result.blocks} == {"conv1", "conv2"}


class _NoRun:
    calls = 0

    def demo_run(self, *args, **kwargs):
        self.calls += 1
        raise AssertionError("nothing may run")


@pytest.mark.parametrize("case", ["text_as_jpg", "truncated_png", "wav_8k", "photo_for_speech",
                                  "wav_for_photos", "photo_without_picture_input", "empty"])
def test_bad_inputs_are_one_line_and_nothing_runs(fx, tmp_path, case):
    photo, speech = os.path.join(fx, "inception_jpeg.pb"), os.path.join(fx,
                                                                        "speech_commands.pb")
    model, item = photo, tmp_path / "x"
    if case == "text_as_jpg":
        item = tmp_path / "cat.jpg"
        item.write_text("this is a note, not a photo\n")
    elif case == "truncated_png":
        item = tmp_path / "cut.png"
        _photo(item)
        item.write_bytes(item.read_bytes()[:300])
    elif case == "wav_8k":
        model, item = speech, tmp_path / "low.wav"
        _wav(item, rate=8000)
    elif case == "photo_for_speech":
        model, item = speech, tmp_path / "p.png"
        _photo(item)
    elif case == "wav_for_photos":
        item = tmp_path / "s.wav"
        _wav(item)
    elif case == "photo_without_picture_input":
        model, item = os.path.join(fx, "while_v1.pb"), tmp_path / "p.png"
        _photo(item)
    else:
        item = tmp_path / "empty.jpg"
        item.write_bytes(b"")
    loaded = load(model)
    summary = summarize(loaded.graph)
    engine = _NoRun()
    with pytest.raises(InspectorError) as err:
        ins, outs = demo.choose_ports([], [], summary)
        plan = demo.plan(loaded.graph, ins, outs, model_path=model)
        demo.run(engine, plan, read_input(str(item)).first)
    assert engine.calls == 0
    line = err.value.one_line()
    assert "\n" not in line and len(line) < 300
    if case not in ("photo_without_picture_input",):
        assert str(item) in line


def test_explain_with_an_input_on_the_command_line(fx, tmp_path):
    _wav(tmp_path / "yes.wav")
    path = os.path.join(fx, "speech_commands.pb")
    code, out, err = run_cli("explain", path, "--input", str(tmp_path / "yes.wav"))
    assert code == 0, err
    assert "Run on yes.wav" in out and "spectrogram" in out
    assert "(names from speech_commands_labels.txt)" in out and "conv2:" in out
    code, out, _ = run_cli("explain", path, "--input", str(tmp_path / "yes.wav"), "--json")
    run = json.loads(out)["run"]
    assert len(run["outputs"][0]["top"]) == 5 and run["blocks"][0]["block"] == "conv1"
    (tmp_path / "names.txt").write_text("\n".join(f"word {i}" for i in range(12)))
    code, out, _ = run_cli("explain", path, "--input", str(tmp_path / "yes.wav"), "--labels",
                           str(tmp_path / "names.txt"))
    assert "word " in out and "(names from names.txt)" in out
    code, _, err = run_cli("explain", path, "--input", str(tmp_path / "nothing.wav"))
    assert code == 2 and err.count("\n") == 1 and "nothing.wav" in err


# -- pieces ------------------------------------------------------------------------------
def _graph(nodes) -> Graph:
    gd = protos.GraphDef()
    for name, op, inputs, attrs in nodes:
        n = gd.node.add(name=name, op=op)
        n.input.extend(inputs)
        for key, value in attrs.items():
            n.attr[key].CopyFrom(value)
    return Graph(gd)


def _const(value):
    from tensorboard.compat.proto import attr_value_pb2

    v = np.asarray(value, np.float32)
    attr = attr_value_pb2.AttrValue()
    attr.tensor.dtype = 1
    for d in v.shape:
        attr.tensor.tensor_shape.dim.add(size=d)
    attr.tensor.float_val.extend(v.reshape(-1).tolist())
    return {"value": attr, "dtype": attr_value_pb2.AttrValue(type=1)}


def _placeholder(shape):
    from tensorboard.compat.proto import attr_value_pb2

    attr = attr_value_pb2.AttrValue()
    for d in shape:
        attr.shape.dim.add(size=d)
    return {"dtype": attr_value_pb2.AttrValue(type=1), "shape": attr}


def test_a_placeholder_that_rescales_itself_is_fed_raw_pixels():
    g = _graph([("x", "Placeholder", [], _placeholder([1, 96, 96, 3])),
                ("mean", "Const", [], _const([127.5])), ("scale", "Const", [], _const(127.5)),
                ("sub", "Sub", ["x", "mean"], {}), ("div", "RealDiv", ["sub", "scale"], {}),
                ("conv", "Relu", ["div"], {})])
    fe = fe_mod.detect(g, ["x"])
    assert fe.convention == "0_255" and fe.range == (-1.0, 1.0) and fe.detected
    assert fe.sees == "div:0" and "Sub and RealDiv" in fe.range_how
    # the presenter's other choice changes what is fed, not what the model expects
    chosen = fe_mod.with_convention(fe, "0_1")
    assert chosen.range == (-1.0, 1.0) and chosen.convention == "0_1"


def test_conventions_and_layouts():
    assert fe_mod.CONVENTIONS["-1_1"].range == (-1.0, 1.0)
    assert fe_mod.CONVENTIONS["0_1"].range == (0.0, 1.0)
    lo, hi = fe_mod.CONVENTIONS["imagenet"].range
    assert lo == pytest.approx(-0.485 / 0.229, 1e-5) and hi == pytest.approx(0.594 / 0.225,
                                                                              1e-3)
    bgr = fe_mod.CONVENTIONS["caffe"].apply(np.array([[[10, 20, 30]]], np.uint8))
    assert np.allclose(bgr, [[[30 - 103.939, 20 - 116.779, 10 - 123.68]]])
    g = _graph([("x", "Placeholder", [], _placeholder([1, 3, 64, 48])),
                ("y", "Relu", ["x"], {})])
    fe = fe_mod.detect(g, ["x"])
    assert fe.layout == "NCHW" and (fe.height, fe.width, fe.channels) == (64, 48, 3)
    assert fe.convention == "0_1" and fe.range_how.startswith("assumed")


def test_the_block_end_is_the_last_tensor_leaving_the_block():
    g = _graph([("in", "Placeholder", [], _placeholder([1, 4])),
                ("b/a", "Relu", ["in"], {}), ("b/c", "Relu", ["b/a"], {}),
                ("b/side", "Relu", ["b/a"], {}), ("b/d", "Relu", ["b/c"], {}),
                ("out", "AddV2", ["b/d", "b/side"], {})])
    assert block_end(g, "b") == "b/d:0"
    assert top_blocks(g) == ["b"]
    assert first_squash(g, "in") == ("", "")


def test_labels_files_numbering_background_and_neighbours(tmp_path, fx):
    (tmp_path / "m.pb").write_bytes(open(DEMO, "rb").read())
    (tmp_path / "other.pb").write_bytes(b"")
    (tmp_path / "other_labels.txt").write_text("a\nb\n")
    assert find_labels(str(tmp_path / "m.pb")).names == []      # another model's file
    (tmp_path / "labels.txt").write_text("\n".join(f"{i}: n{i}" for i in range(1000)) + "\n\n")
    found = find_labels(str(tmp_path / "m.pb"))
    assert found.names[:2] == ["n0", "n1"] and found.source == "labels.txt"
    names, note = found.for_classes(1001)
    assert names[0] == "background" and names[1] == "n0" and "1001" in note
    assert Labels(["x"]).name(5, 3) == "class 5"
    (tmp_path / "empty.txt").write_text("\n")
    with pytest.raises(InspectorError, match="empty"):
        read_labels_file(str(tmp_path / "empty.txt"))


def test_labels_kept_in_the_graph(tmp_path):
    from tensorboard.compat.proto import attr_value_pb2

    attr = attr_value_pb2.AttrValue()
    attr.tensor.dtype = 7
    attr.tensor.tensor_shape.dim.add(size=3)
    attr.tensor.string_val.extend([b"cat", b"dog", b"bird"])
    g = _graph([("names", "Const", [], {"value": attr,
                                         "dtype": attr_value_pb2.AttrValue(type=7)})])
    found = find_labels(str(tmp_path / "nothing.pb"), g)
    assert found.names == ["cat", "dog", "bird"] and "names" in found.source


def test_a_folder_of_photos_skips_what_is_not_a_photo(tmp_path):
    _photo(tmp_path / "a.png")
    _photo(tmp_path / "b.jpg", fmt="JPEG")
    (tmp_path / "notes.txt").write_text("hello")
    _wav(tmp_path / "c.wav")
    got = read_input(str(tmp_path))
    assert [os.path.basename(i.path) for i in got.items] == ["a.png"]      # only it decoded
    assert [os.path.basename(p) for p in got.photos] == ["a.png", "b.jpg"]
    assert sorted(got.skipped) == ["c.wav", "notes.txt"]
    empty = tmp_path / "none"
    empty.mkdir()
    with pytest.raises(InspectorError, match="no readable JPEG"):
        read_input(str(empty))


def test_a_photo_that_claims_billions_of_pixels_is_refused_before_decoding(tmp_path):
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 2,
                                                            0, 0, 0)) + chunk(b"IEND", b"")
    (tmp_path / "bomb.png").write_bytes(png)
    with pytest.raises(InspectorError, match="million pixel limit"):
        read_input(str(tmp_path / "bomb.png"))


def test_feature_maps_rank_channels_and_scale_three_ways():
    x = np.zeros((1, 200, 100, 3), np.float32)
    x[..., 1] = 5.0
    x[..., 2] = np.linspace(0, 1, 100)[None, None]
    fm = feature_maps("blk", "t:0", x)
    assert fm.order == [1, 2, 0] and fm.maps.shape == (3, 50, 25)
    per_channel = scaled(fm, [2], "channel")
    assert per_channel.max() >= 245 and per_channel.min() <= 10   # its own range
    per_block = scaled(fm, [2], "block")
    assert per_block.max() <= 52          # 1 of 5 on the block's scale
    assert scaled(fm, [2], "model", (0.0, 10.0)).max() <= 26
    assert feature_maps("blk", "t:0", np.zeros((1, 10), np.float32)) is None


def test_an_answer_of_nans_is_said_not_ranked():
    view = output_view("out:0", np.array([[np.nan, 0.2, 0.8]], np.float32), "Softmax")
    assert view.kind == "table" and "NaN" in view.note and not view.top


@pytest.mark.parametrize("value, op, kind", [
    (np.array([[0.1, 0.7, 0.2]], np.float32), "Softmax", "classes"),
    (np.array([[2.0, -1.0, 0.5]], np.float32), "BiasAdd", "classes"),
    (np.zeros((1, 32, 32, 3), np.float32), "Conv2D", "image"),
    (np.linspace(0, 1, 100).astype(np.float32)[None], "Tanh", "curve"),
    (np.array([[1.0, 2.0, 3.0, 4.0]], np.float32), "Tanh", "table"),
    (np.float32(3.0), "Sum", "value"),
])
def test_answers_are_shown_in_the_shape_that_fits(value, op, kind):
    view = output_view("out:0", value, op)
    assert view.kind == kind
    if kind == "classes":
        assert abs(sum(p for _, p in view.top) - 1) < 1e-6
        assert ("softmax" in view.scores) == (op == "BiasAdd")


def test_copies_do_not_pick_up_a_neighbours_labels(fx, tmp_path):
    shutil.copy(os.path.join(fx, "inception_jpeg.pb"), tmp_path / "inception_jpeg.pb")
    shutil.copy(os.path.join(fx, "speech_commands_labels.txt"), tmp_path)
    shutil.copy(os.path.join(fx, "speech_commands.pb"), tmp_path)
    assert find_labels(str(tmp_path / "inception_jpeg.pb")).names == []
    assert len(find_labels(str(tmp_path / "speech_commands.pb")).names) == 12


def test_a_graph_that_reads_files_asks_before_a_demo_run(tmp_path):
    """The run goes through the same rule as every other: ReadFile is not pure computation,
    so nothing runs without the user's yes (UnsafeGraphError carries what it would run)."""
    import tensorflow as tf

    from inspector.core.errors import UnsafeGraphError

    secret = tmp_path / "secret.png"
    Image.fromarray(np.full((4, 4, 3), 9, np.uint8)).save(secret)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 4, 4, 3], name="image")
        side = tf.cast(tf.io.decode_png(tf.io.read_file(str(secret)), channels=3), tf.float32)
        tf.nn.softmax(tf.reshape(x + side, [1, -1]), name="scores")
    path = tmp_path / "sneaky.pb"
    path.write_bytes(g.as_graph_def().SerializeToString())
    _photo(tmp_path / "p.png")
    model = load(str(path))
    plan = demo.plan(model.graph, ["image"], ["scores"], model_path=str(path))
    call = demo.engine_here(model.graph.graph_def)
    item = read_input(str(tmp_path / "p.png")).first
    with pytest.raises(UnsafeGraphError) as err:
        demo.run(call, plan, item)
    assert any(f.op == "ReadFile" for f in err.value.findings)
    result = demo.run(call, plan, item, allow_io=True)      # the user said yes
    assert result.outputs[0].kind == "classes"


def test_feeding_one_output_does_not_hide_a_file_read_behind_another(tmp_path):
    """Found in review: feeding `input:0` of an IdentityN cut the whole node from the safety
    walk, while TF still ran `input:1`, which read a file. The walk now cuts fed tensors."""
    import tensorflow as tf

    from inspector.core.errors import UnsafeGraphError
    from inspector.core.model import safety

    (tmp_path / "secret.txt").write_text("42")
    g = tf.Graph()
    with g.as_default():
        raw = tf.compat.v1.placeholder(tf.float32, [1, 4, 4, 3], name="raw_image")
        number = tf.strings.to_number(tf.io.read_file(str(tmp_path / "secret.txt")))
        pair = tf.raw_ops.IdentityN(input=[raw, number], name="input")
        tf.nn.softmax(tf.reshape(pair[0] + pair[1], [1, -1]), name="probs")
    gd = g.as_graph_def()
    reached = {n.name for n in safety.reached_nodes(gd, ["probs:0"], ["input:0"])}
    assert "ReadFile" in reached and "input" in reached
    assert "ReadFile" not in {n.name for n in safety.reached_nodes(gd, ["input:0"],
                                                                    ["input:0"])}
    path = tmp_path / "bypass.pb"
    path.write_bytes(gd.SerializeToString())
    np.save(tmp_path / "x.npy", np.zeros((1, 4, 4, 3), np.float32))
    model = load(str(path))
    plan = demo.plan(model.graph, ["input:0"], ["probs:0"], model_path=str(path))
    with pytest.raises(UnsafeGraphError):
        demo.run(demo.engine_here(model.graph.graph_def), plan,
                 read_input(str(tmp_path / "x.npy")).first)


def test_review_findings_are_one_line_before_anything_allocates_or_runs(fx, tmp_path):
    """From the hostile review: declared sizes are checked first, inputs TF would choke on
    are refused or converted before the run, and each message names the file or node."""
    from tensorboard.compat.proto import attr_value_pb2

    # a .npy header declaring terabytes (200 bytes on disk)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000, 100), }"
    header += " " * (118 - len(header)) + "\n"
    (tmp_path / "huge.npy").write_bytes(b"\x93NUMPY\x01\x00" + bytes([len(header), 0]) +
                                        header.encode())
    with pytest.raises(InspectorError, match="declares"):
        read_input(str(tmp_path / "huge.npy"))
    # a model whose input declares 100000 x 100000 pixels
    shape = attr_value_pb2.AttrValue()
    for d in (1, 100000, 100000, 3):
        shape.shape.dim.add(size=d)
    g = _graph([("x", "Placeholder", [], {"dtype": attr_value_pb2.AttrValue(type=1),
                                          "shape": shape}), ("y", "Softmax", ["x"], {})])
    with pytest.raises(InspectorError, match="more than a demo run feeds") as err:
        demo.plan(g, ["x"], ["y"])
    assert err.value.node == "x"
    # a 16-bit grey PNG keeps its brightness (Pillow alone clips it to white)
    grey = (np.arange(64 * 64).reshape(64, 64) * 16).astype(np.uint16)
    Image.fromarray(grey).save(tmp_path / "g16.png")
    pixels = read_input(str(tmp_path / "g16.png")).first.pixels
    assert abs(float(pixels.mean()) - grey.mean() / 257) < 1.5
    # an 8-bit WAV is converted for TF's 16-bit-only decoder, and said so
    rate = 16000
    with wave.open(str(tmp_path / "w8.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(rate)
        w.writeframes((128 + 60 * np.sin(np.arange(rate) / 8)).astype(np.uint8).tobytes())
    _, result = _demo(os.path.join(fx, "speech_commands.pb"), str(tmp_path / "w8.wav"))
    assert any("converted to 16-bit" in n for n in result.notes)
    # a truncated WAV is refused when read, not inside TensorFlow
    _wav(tmp_path / "ok.wav")
    data = (tmp_path / "ok.wav").read_bytes()
    (tmp_path / "cut.wav").write_bytes(data[: len(data) // 2])
    with pytest.raises(InspectorError, match="truncated"):
        read_input(str(tmp_path / "cut.wav"))
    # an array for a graph that decodes its own JPEG; an array of the wrong size
    np.save(tmp_path / "a.npy", np.zeros((1, 224, 224, 3), np.float32))
    with pytest.raises(InspectorError, match="not an array"):
        _demo(os.path.join(fx, "inception_jpeg.pb"), str(tmp_path / "a.npy"))
    np.save(tmp_path / "small.npy", np.zeros((1, 100, 100, 3), np.float32))
    with pytest.raises(InspectorError, match=r"takes \[1,224,224,3\]") as err:
        _demo(os.path.join(fx, "mobilenet_v2.pb"), str(tmp_path / "small.npy"))
    assert "small.npy" in err.value.one_line()


def test_a_labels_file_belongs_to_the_model_with_the_longest_matching_name(tmp_path):
    for name in ("speech.pb", "speech_v2.pb"):
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "speech_v2_labels.txt").write_text("d\nf\nk\n")
    assert find_labels(str(tmp_path / "speech.pb")).names == []
    assert find_labels(str(tmp_path / "speech_v2.pb")).names == ["d", "f", "k"]
    (tmp_path / "labels.json").write_text("{}")
    (tmp_path / "labels.txt").write_text("a\nb\n")
    assert find_labels(str(tmp_path / "speech.pb")).names == ["a", "b"]
    (tmp_path / "bin.txt").write_bytes(b"a\0b\n")
    with pytest.raises(InspectorError, match="binary"):
        read_labels_file(str(tmp_path / "bin.txt"))


def test_a_saved_model_s_labels_asset_is_found(tmp_path):
    folder = tmp_path / "classifier"
    (folder / "assets").mkdir(parents=True)
    (folder / "saved_model.pb").write_bytes(b"")
    (folder / "assets" / "imagenet_labels.txt").write_text("tench\ngoldfish\n")
    found = find_labels(str(folder))
    assert found.names == ["tench", "goldfish"] and found.source == "imagenet_labels.txt"
