"""Demo runs (issue #14): the model run on a photo, sound or array, checked against a direct
TensorFlow run of the same graph; front-end and value-range detection; labels; block ends;
bad inputs refused before anything runs.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_demo_run_tf.py, tests/cli/test_demo_run_cli.py."""

from __future__ import annotations

import os
import shutil
import wave

import numpy as np
import pytest
from conftest import DEMO
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


class _NoRun:
    calls = 0

    def demo_run(self, *args, **kwargs):
        self.calls += 1
        raise AssertionError("nothing may run")


@pytest.mark.parametrize("case", ["text_as_jpg", "truncated_png", "wav_8k", "photo_for_speech",
                                  "wav_for_photos", "photo_without_picture_input", "empty"])
def test_bad_inputs_are_one_line_and_nothing_runs(data, tmp_path, case):
    photo, speech = os.path.join(data, "inception_jpeg.pb"), os.path.join(data,
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
        model, item = os.path.join(data, "while_v1.pb"), tmp_path / "p.png"
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


def test_a_batch_of_sequences_is_an_array_not_an_any_height_picture():
    """walk16: basic-pitch's audio input float [?,43844,1] was read as a picture 43844 wide
    of any height (224 assumed): the conversion preview's random data came in [0, 255] and a
    photo would have been fed. A rank-3 input is [H,W,C] only when both sides are open or
    both known; else it is an array (random data in [0, 1], .npy files)."""
    from inspector.core.mobile.tflite_preview import _detected_range

    for shape in ([-1, 43844, 1], [-1, 1024, 3]):
        g = _graph([("x", "Placeholder", [], _placeholder(shape)), ("y", "Relu", ["x"], {})])
        fe = fe_mod.detect(g, ["x"])
        assert fe.kind == "array" and fe.dims == tuple(None if d < 0 else d for d in shape)
        assert _detected_range(g, ["x:0"], None) == (0.0, 1.0)
    for shape in ([224, 224, 3], [-1, -1, 3]):        # still pictures
        g = _graph([("x", "Placeholder", [], _placeholder(shape)), ("y", "Relu", ["x"], {})])
        assert fe_mod.detect(g, ["x"]).kind == "image"


def test_the_block_end_is_the_last_tensor_leaving_the_block():
    g = _graph([("in", "Placeholder", [], _placeholder([1, 4])),
                ("b/a", "Relu", ["in"], {}), ("b/c", "Relu", ["b/a"], {}),
                ("b/side", "Relu", ["b/a"], {}), ("b/d", "Relu", ["b/c"], {}),
                ("out", "AddV2", ["b/d", "b/side"], {})])
    assert block_end(g, "b") == "b/d:0"
    assert top_blocks(g) == ["b"]
    assert first_squash(g, "in") == ("", "")


def test_labels_files_numbering_background_and_neighbours(tmp_path, data):
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


def test_a_runs_results_draw_themselves_for_the_window():
    """What the window draws of state.demo comes from the run's own objects (no picture
    module to import): maps in the colour scale and as a mosaic, an answer image, a
    spectrogram in colour and a photo as it is."""
    from inspector.core.demo.demo_run import Seen
    from inspector.core.demo.feature_maps import colour_lut, mosaic

    x = np.zeros((1, 40, 40, 3), np.float32)
    x[..., 1] = np.linspace(0, 1, 40)[None, None]
    fm = feature_maps("blk", "t:0", x)
    lut = fm.colour_scale()
    assert lut.shape == (256, 3) and (lut == colour_lut()).all()
    assert int(lut[0].sum()) < int(lut[255].sum())     # low dark, high bright
    coloured = fm.coloured([1])
    assert coloured.shape == (1, 40, 40, 3)
    assert (coloured[0, 0, -1] == lut[255]).all() and (coloured[0, 0, 0] == lut[0]).all()
    whole = fm.mosaic(40, 2, "block")
    assert (whole == mosaic(scaled(fm, fm.order, "block"), 40, 2)).all()
    assert whole.shape == (2 * 44 + 4, 2 * 44 + 4, 3)
    answer = output_view("out:0", np.linspace(-1, 1, 64, dtype=np.float32).reshape(1, 8, 8))
    assert answer.kind == "image"
    picture = answer.picture()
    assert picture.dtype == np.uint8 and picture.min() == 0 and picture.max() == 255
    db = np.tile(np.arange(0, 256, 32, dtype=np.uint8), (4, 1))
    heard = Seen(db, "a spectrogram", (0, 1), 0.0, 1.0, kind="spectrogram")
    assert heard.shown().shape == (4, 8, 3) and (heard.shown()[0, 0] == lut[0]).all()
    seen = Seen(db, "a photo", (0, 1), 0.0, 1.0)
    assert seen.shown() is db


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


def test_copies_do_not_pick_up_a_neighbours_labels(data, tmp_path):
    shutil.copy(os.path.join(data, "inception_jpeg.pb"), tmp_path / "inception_jpeg.pb")
    shutil.copy(os.path.join(data, "speech_commands_labels.txt"), tmp_path)
    shutil.copy(os.path.join(data, "speech_commands.pb"), tmp_path)
    assert find_labels(str(tmp_path / "inception_jpeg.pb")).names == []
    assert len(find_labels(str(tmp_path / "speech_commands.pb")).names) == 12


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
