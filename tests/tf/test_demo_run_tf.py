"""Demo runs (issue #14): the model run on a photo, sound or array, checked against a direct
TensorFlow run of the same graph; front-end and value-range detection; labels; block ends;
bad inputs refused before anything runs.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_demo_run.py, tests/cli/test_demo_run_cli.py."""

from __future__ import annotations

import os
import wave

import numpy as np
import pytest
from conftest import DEMO
from PIL import Image
from test_demo_run import _graph, _photo, _wav  # noqa: F401

from inspector.core.analysis.summary import summarize
from inspector.core.app import demo
from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.loaders.media import read_input


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


def test_a_demo_run_is_a_use_case_whose_result_lives_in_the_state(tmp_path):
    """The window's demo run without Qt: the answer goes to state.demo and equals the CLI's."""
    import queue

    from inspector.core.analysis.summary import summarize
    from inspector.core.app import demo_runs
    from inspector.core.app.state import AppState
    from inspector.core.loaders import load
    from inspector.core.runtime.tasks import Tasks
    from inspector.core.view.view_graph import ViewModel

    pixels = (np.arange(64).reshape(8, 8) * 4).astype(np.uint8)
    Image.fromarray(pixels, "L").save(tmp_path / "digit.png")
    model = load(DEMO)
    state = AppState()
    state.set_model(model, ViewModel(model.graph))
    state.engine = demo.engine_here(model.graph.graph_def)
    state.set_summary(model, summarize(model.graph))
    seen, errors, posted = [], [], queue.Queue()
    state.demo_changed.connect(lambda run: run is not None and seen.append(run))
    assert demo_runs.start_run(state, Tasks(posted.put), str(tmp_path / "digit.png"), [], {},
                               errors.append)
    while not seen and not errors:
        posted.get(timeout=60)()
    assert errors == [] and state.demo is seen[0]
    _, cli = _demo(DEMO, str(tmp_path / "digit.png"))
    assert state.demo.outputs[0].top == cli.outputs[0].top
