"""A Keras file whose declared input sizes would make Keras build variables far larger than the
weights it stores is refused before Keras builds anything (keras_shapes.wide_input), whichever
way the size reaches the layer: the input's width, a Flatten of a wide input, a build_config.
Each case fails on the code before keras_shapes (only size fields like units were checked)."""

import json
import os
import zipfile

import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders.keras import _check_declared_sizes
from tests.fixtures.hostile import inputs as I


def _rewrite(d, edit):
    path = I.keras_huge_units(d)
    with zipfile.ZipFile(path) as zf:
        config = json.loads(zf.read("config.json"))
        weights = zf.read("model.weights.h5")
    layers = config["config"]["layers"]
    layers[1]["config"]["units"] = 10
    edit(layers)
    out = os.path.join(d, "edited.keras")
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("config.json", json.dumps(config))
        zf.writestr("model.weights.h5", weights)
    return out


def _flatten(layers):
    layers[0]["config"]["batch_shape"] = [None, 8192, 8192]
    layers.insert(1, {"module": "keras.layers", "class_name": "Flatten",
                      "config": {"name": "flat"}})


def _through(*middle):
    """Input [None, 4096, 1] (no size over the 4096 floor), then `middle` layers, a Flatten
    and the Dense: what the layers between make of the input is carried through them."""
    def edit(layers):
        layers[0]["config"]["batch_shape"] = [None, 4096, 1]
        for k, (cls, conf) in enumerate(list(middle) + [("Flatten", {})]):
            layers.insert(1 + k, {"module": "keras.layers", "class_name": cls,
                                  "config": {"name": f"m{k}", **conf}})
    return edit


def _built(layers):
    layers[1]["config"]["build_config"] = {"input_shape": [None, 2 ** 26]}


@pytest.mark.parametrize("edit, size", [
    (lambda ls: ls[0]["config"].update(batch_shape=[None, 2 ** 26]), "67,108,864"),
    (_flatten, "67,108,864"),
    (_built, "67,108,864"),
    (_through(("UpSampling1D", {"size": 16384})), "67,108,864"),
    (_through(("Reshape", {"target_shape": [4096]}), ("RepeatVector", {"n": 16384})),
     "67,108,864"),
    (_through(("Conv1DTranspose", {"filters": 1, "kernel_size": 1, "strides": 16384,
                                   "padding": "same"})), "67,108,864"),
    (_through(("Reshape", {"target_shape": [64, 64, 1]}),
              ("Resizing", {"height": 8192, "width": 8192})), "67,108,864"),
    (_through(("Conv1D", {"filters": 4096, "kernel_size": 3, "dilation_rate": 2,
                          "padding": "same"})), "16,777,216"),
    (lambda ls: ls[0]["config"].update(batch_shape=[None, 2 ** 26, 3],
                                       name="in"), None),   # channels 3: a [3, 10] kernel
])
def test_a_layer_built_for_an_input_wider_than_any_stored_weight_is_refused(tmp_path, edit,
                                                                          size):
    path = _rewrite(str(tmp_path), edit)
    if size is None:
        _check_declared_sizes(path)
        return
    with pytest.raises(ModelLoadError) as info:
        _check_declared_sizes(path)
    assert f"layer 'probs' would be built for an input {size} wide" in info.value.message
    assert "largest dimension 144" in info.value.message


def test_an_honest_file_passes():
    _check_declared_sizes(os.path.join(os.path.dirname(__file__), "data", "tiny.keras"))
    _check_declared_sizes(os.path.join(os.path.dirname(__file__), "data", "tiny.h5"))


def _layer(cls, **conf):
    return {"module": "keras.layers", "class_name": cls, "config": {"name": "probs", **conf}}


@pytest.mark.parametrize("shape, layer, said", [
    # every size field under the 4096 floor, their product a 16 GB kernel
    ([None, 4096, 4096, 1], _layer("Conv2D", filters=1024, kernel_size=[2048, 2048]),
     "declares a variable of 4,294,967,296 elements (kernel_size x filters)"),
    ([None, 144], _layer("EinsumDense", equation="ab,bcd->acd", output_shape=[65536, 65536]),
     "declares a variable of 4,294,967,296 elements (output_shape)"),
    # each field and the input under the floor: 1024 channels times kernel_size x filters
    ([None, 64, 64, 1024], _layer("Conv2D", filters=1024, kernel_size=[64, 64]),
     "an input of 1,024 channels into a variable of 4,294,967,296 elements"),
])
def test_size_fields_that_multiply_to_a_huge_variable_are_refused(tmp_path, shape, layer, said):
    """Found by the hostile run: each of these reached Keras, which allocated a 16 GB kernel
    (stopped here only by an 8 GB address-space limit); the old code checked each size field
    alone against the 4096 floor."""
    def edit(layers):
        layers[0]["config"]["batch_shape"] = shape
        layers[1] = layer
    path = _rewrite(str(tmp_path), edit)
    with pytest.raises(ModelLoadError) as info:
        _check_declared_sizes(path)
    assert "layer 'probs'" in info.value.message and said in info.value.message
    assert "(1,440 elements)" in info.value.message


def test_a_large_honest_variable_passes(tmp_path, monkeypatch):
    """A kernel over the element floor passes when the file stores one as large."""
    def edit(layers):
        layers[0]["config"]["batch_shape"] = [None, 64, 64, 1024]
        layers[1] = _layer("Conv2D", filters=1024, kernel_size=[64, 64])
    path = _rewrite(str(tmp_path), edit)
    monkeypatch.setattr("inspector.core.loaders.keras.largest_stored_elements",
                        lambda entries: 2 ** 32)
    _check_declared_sizes(path)
