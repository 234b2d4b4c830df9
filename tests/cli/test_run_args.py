"""--input_shape as transform, check, flops, profile, calibrate and explain read it
(cli.run_args.parse_input_shapes): NAME:0 is the node NAME; another port and one input given
twice are refused in one line (they were taken silently: image:1 as image, the last of two)."""

from __future__ import annotations

import pytest

from inspector.cli.run_args import parse_input_shapes
from inspector.core.errors import InspectorError
from tests.conftest import DEMO, run_cli


def test_a_tensor_name_at_port_0_is_its_node_and_other_ports_and_twice_are_refused():
    assert parse_input_shapes(["image:0=1,?,4,3", "mask=2"]) == {"image": (1, None, 4, 3),
                                                                  "mask": (2,)}
    for items, said in (
            (["image=1,2,2,3", "image=1,4,4,3"],
             "--input_shape image=1,4,4,3: input image is given twice (also image=1,2,2,3)"),
            (["image:0=1,2,2,3", "image=1,4,4,3"], "input image is given twice"),
            (["image:1=1,2,2,3"], "--input_shape image:1=1,2,2,3: an input is a node's "
                                  "output 0 (image or image:0), not :1")):
        with pytest.raises(InspectorError) as caught:
            parse_input_shapes(items)
        assert said in caught.value.one_line(), (items, caught.value.one_line())


def test_flops_refuses_an_input_given_twice_in_one_line():
    code, out, err = run_cli("flops", DEMO, "--input-shape", "pixels=2,8,8,1",
                             "--input-shape", "pixels:0=1,8,8,1")
    assert code == 2 and err == ("graphdef-inspector: error: --input_shape pixels:0=1,8,8,1: "
                                 "input pixels is given twice (also pixels=2,8,8,1)\n"), err
