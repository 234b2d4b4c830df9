"""The numeric section of the comparison's HTML report (Run both): what ran each side, the
first activation past the threshold, the worst layers with B's op, weights apart."""

from inspector.core.compare.numeric import Divergence
from inspector.core.compare.numeric_report import numeric_html


def test_the_section_names_the_engines_the_layers_and_keeps_weights_apart():
    d = Divergence(first="conv/Relu", engines=("TensorFlow 2.21.0", "LiteRT 2.3.0"))
    d.per_node = {"conv/Relu": {"snr_db": 40.0, "cosine": 0.9999, "peak_rel_error": 0.01},
                  "w/read": {"snr_db": 30.0, "cosine": 0.999, "peak_rel_error": 0.02}}
    d.pairs = [("conv/Relu", "conv/Relu"), ("w/read", "w")]
    d.layers, d.constant = {"conv/Relu": "CONV_2D"}, {"w/read"}
    html = numeric_html(d)
    assert "First activation past it: <code>conv/Relu</code>" in html
    assert "Ran A in TensorFlow 2.21.0, B in LiteRT 2.3.0" in html
    assert "<code>conv/Relu</code> (CONV_2D)" in html
    assert "<code>w/read</code>" not in html and "1 weights or nodes computed" in html
