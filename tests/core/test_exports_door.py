"""core.app.exports is a door of real functions, not a re-export (issue 46.2): the command
lines the Workbench copies, the memory-mapped package and the tour page go through named
functions of both front ends; the formats stay unimported until one is used."""

from __future__ import annotations

import ast
import inspect

import pytest
from conftest import DEMO

from inspector.core.app import exports
from inspector.core.formats import commands


def test_exports_has_no_module_getattr_and_every_listed_name_is_there():
    tree = ast.parse(inspect.getsource(exports))
    assert "__getattr__" not in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert all(hasattr(exports, name) for name in exports.__all__)


def test_the_command_lines_are_those_of_tensorflows_tools():
    ins, outs, shapes, types = ["x"], ["y"], {"x": [1, 8]}, {"x": "float"}
    assert exports.command_line("transform_graph", "m.pb", ins, outs, transforms="fold") == \
        commands.transform_graph("m.pb", ins, outs, "fold")
    assert exports.command_line("benchmark_model", "m.pb", ins, outs, shapes=shapes,
                                types=types) == \
        commands.benchmark_model("m.pb", ins, outs, shapes, types)
    assert "--input_shapes=1,8" in exports.command_line("tflite_convert", "m.pb", ins, outs,
                                                        shapes=shapes)
    assert exports.command_line("optimize_for_inference", "m.pb", ins, outs) == \
        commands.optimize_for_inference("m.pb", ins, outs)
    with pytest.raises(ValueError, match="no command line for 'freeze'"):
        exports.command_line("freeze", "m.pb", ins, outs)


def test_the_tour_page_has_one_section_per_slide(tmp_path):
    page = exports.tour_page("A <tour>", [dict(title="First stop", caption="what it sees"),
                                          dict(title="Second", caption="", notes="say this")],
                             subtitle="2 stops")
    assert page.count("<section") == 2 and "First stop" in page and "A &lt;tour&gt;" in page


def test_a_memory_mapped_package_through_the_door(tmp_path):
    from inspector.core.loaders import load

    graph = load(DEMO).graph
    target = tmp_path / "demo_memmapped.pb"
    written = exports.write_memmapped(graph, str(target), min_bytes=64)
    assert written.regions and target.stat().st_size == written.file_size
    package, problems = exports.check_memmapped(str(target))
    assert not problems and len(package.regions) == len(written.regions) + 1
    with pytest.raises(Exception, match="exists"):
        exports.write_memmapped(graph, str(target))
