"""The command line's use cases in core.app, without TensorFlow or Qt: summarize's report,
the range log, the preview's variant names, the read-only-view rule of transform/check."""

import os

import pytest

from inspector.core.app.opening import open_model, summary_text
from inspector.core.app.overlay_runs import chosen_ranges_of, read_range_log
from inspector.core.app.quantization import preview_variants
from inspector.core.app.transforming import load_graph_def
from inspector.core.errors import InspectorError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")


def test_summary_text_gives_each_format_of_the_same_model():
    model = open_model(DEMO)
    text, warnings, error = summary_text(model, DEMO)
    assert error is None and warnings == [] and "digits" in text
    tf_text, _, tf_error = summary_text(model, DEMO, "tf", print_structure=True)
    assert tf_error is None and tf_text.startswith("Found ") and tf_text != text
    assert summary_text(model, DEMO, "json")[0].lstrip().startswith("{")


def test_a_range_log_is_read_and_its_ranges_chosen(tmp_path):
    log_file = tmp_path / "r.log"
    log_file.write_text(";a/eightbit/requant_range__print__;__requant_min_max:[0.5][3]\n"
                        ";a/eightbit/requant_range__print__;__requant_min_max:[1][4]\n")
    _, log = read_range_log(str(log_file))
    chosen, warnings = chosen_ranges_of(log, 0.0, 0.0)
    assert chosen == {"a/eightbit/requant_range": (0.5, 4.0)}
    assert any("zero" in w for w in warnings)
    (tmp_path / "empty.log").write_text("nothing here\n")
    with pytest.raises(InspectorError, match="no min/max range logs"):
        read_range_log(str(tmp_path / "empty.log"))


def test_preview_variants_name_the_choices_on_a_bad_one():
    assert preview_variants(["float", "int8"]) == ["float", "int8"]
    with pytest.raises(InspectorError, match="unknown variant 'int3'.*float16"):
        preview_variants(["float", "int3"])


def test_transform_and_check_refuse_a_read_only_view(tmp_path):
    assert len(load_graph_def(DEMO).node) > 10
    not_a_model = tmp_path / "m.tflite"
    not_a_model.write_bytes(b"\x1c\x00\x00\x00TFL3" + b"\x00" * 64)
    with pytest.raises(InspectorError):
        load_graph_def(str(not_a_model))
