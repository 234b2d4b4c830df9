"""Error between a float tensor and its quantized counterpart, the measures ai-edge-quantizer's
validate() names: mean squared error, signal-to-noise ratio, cosine similarity and the largest
absolute error. The SNR here is in dB, 10·log10(Σ ref² / Σ (ref − got)²) exactly; validate()'s
is the plain ratio with 1e-9 added to its MSE, so 10·log10 of it reads lower on tensors of
small values (up to 1.1 dB on MobileNetV2's weights rounded to 8 bits; equal to numpy's
figure here within 1e-12 dB). Sums are kept so that several runs add up: the figures are
those of all runs' values taken together (equal to one computation on the concatenated
arrays). Pure numpy."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture

METRICS = ("mse", "snr_db", "cosine", "max_abs")


@dataclass
class Sums:
    count: int = 0
    squared_error: float = 0.0     # sum (ref - got)^2
    ref_energy: float = 0.0        # sum ref^2
    got_energy: float = 0.0        # sum got^2
    dot: float = 0.0               # sum ref * got
    max_abs: float = 0.0

    def add(self, ref, got) -> None:
        ref = np.asarray(ref, np.float64).reshape(-1)
        got = np.asarray(got, np.float64).reshape(-1)
        if ref.shape != got.shape:
            raise ValueError(f"shapes differ: {ref.size} and {got.size} values")
        diff = ref - got
        self.count += ref.size
        self.squared_error += float(diff @ diff)
        self.ref_energy += float(ref @ ref)
        self.got_energy += float(got @ got)
        self.dot += float(ref @ got)
        if ref.size:
            self.max_abs = max(self.max_abs, float(np.max(np.abs(diff))))

    def metrics(self) -> dict:
        """{mse, snr_db (inf: no error), cosine (1.0 when both are all zeros), max_abs,
        nsr (noise over signal energy, the relative error the ranking uses)}."""
        mse = self.squared_error / self.count if self.count else 0.0
        if self.squared_error == 0.0:
            snr = math.inf
        elif self.ref_energy == 0.0:
            snr = -math.inf
        else:
            snr = 10.0 * math.log10(self.ref_energy / self.squared_error)
        norms = math.sqrt(self.ref_energy * self.got_energy)
        cosine = self.dot / norms if norms else (1.0 if self.squared_error == 0.0 else 0.0)
        nsr = self.squared_error / self.ref_energy if self.ref_energy else \
            (0.0 if self.squared_error == 0.0 else math.inf)
        return {"mse": mse, "snr_db": snr, "cosine": cosine, "max_abs": self.max_abs,
                "nsr": nsr}


def metrics(ref, got) -> dict:
    """The metrics of one pair of arrays."""
    sums = Sums()
    sums.add(ref, got)
    return sums.metrics()


@dataclass
class TensorError:
    tensor: str                    # the .tflite tensor's name (';'-joined GraphDef nodes)
    op: str                        # the TFLite op that makes it
    nodes: list = field(default_factory=list)   # GraphDef nodes it maps to
    mse: float = 0.0
    snr_db: float = math.inf
    cosine: float = 1.0
    max_abs: float = 0.0
    nsr: float = 0.0
    dtype: str = ""                # the variant's dtype of the tensor (int8, float32...)


def per_tensor(sums: dict, ops: dict, dtypes: dict, names) -> list:
    """TensorError per tensor (`sums`: tensor -> Sums), worst (highest noise over signal)
    first, each mapped to the GraphDef nodes its name holds."""
    from inspector.core.mobile.tflite_mapping import nodes_of

    out = []
    for tensor, acc in sums.items():
        found = acc.metrics()
        out.append(TensorError(tensor, ops.get(tensor, ""), nodes_of(tensor, names),
                               found["mse"], found["snr_db"], found["cosine"],
                               found["max_abs"], found["nsr"], dtypes.get(tensor, "")))
    out.sort(key=lambda e: (-e.nsr if not math.isnan(e.nsr) else 0.0, e.tensor))
    return out


def node_errors(errors: list) -> dict:
    """GraphDef node -> its TensorError (the worst one when several tensors name it)."""
    found: dict = {}
    for err in errors:                       # worst first: the first one seen stays
        for node in err.nodes:
            found.setdefault(node, err)
    return found


def plain(value: float) -> float | None:
    """A figure for JSON: infinities and NaN become None."""
    return None if value is None or not math.isfinite(value) else float(value)
