"""The bundled demo model lives inside the package and is found beside its module (issue
46.7): one path, the default of the command line, the same file a source tree, an install
and the frozen build (which copies the package with its data) all have."""

import os

import inspector
from inspector.cli.loading import _add_load_args
from inspector.core.app.demo_model import DEMO_MODEL
from inspector.core.loaders import load


def test_the_demo_model_is_inside_the_package_with_its_class_names():
    package = os.path.dirname(os.path.abspath(inspector.__file__))
    assert os.path.commonpath([package, DEMO_MODEL]) == package
    assert os.path.isfile(DEMO_MODEL)
    labels = os.path.join(os.path.dirname(DEMO_MODEL), "demo_digits_labels.txt")
    assert open(labels).read().split()[:3] == ["zero", "one", "two"]
    assert len(load(DEMO_MODEL).graph) > 10


def test_the_command_line_opens_it_by_default():
    import argparse

    p = argparse.ArgumentParser()
    _add_load_args(p)
    assert p.parse_args([]).model == DEMO_MODEL


def test_an_install_carries_it():
    """Every file beside DEMO_MODEL is package data (pyproject), so a wheel has it too."""
    import tomllib

    root = os.path.dirname(os.path.dirname(os.path.abspath(inspector.__file__)))
    with open(os.path.join(root, "pyproject.toml"), "rb") as fh:
        data = tomllib.load(fh)["tool"]["setuptools"]["package-data"]
    folder = os.path.dirname(DEMO_MODEL)
    files = {n for n in os.listdir(folder) if not n.endswith(".py") and n != "__pycache__"}
    assert files and files <= set(data["inspector.core.app.demo_model"])
