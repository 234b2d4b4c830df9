"""How far one tensor is from another (B's value against A's): MSE, SNR, cosine and the
peak-relative error, max|B - A| / max|A| (not `check`'s max relative error, the largest
|B - A| / |A| of any one element). Pure numpy, computed where both models ran (the worker, in the app) so that
only the figures travel, never the tensors."""

from __future__ import annotations

import numpy as np


def metrics(a, b) -> dict:
    """MSE, SNR (dB; inf when equal), cosine and peak-relative error (max|B - A| / max|A|) of
    B against A (four dot products in float64)."""
    x, y = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    err = y - x
    noise = float(err @ err)
    signal = float(x @ x)
    mse = noise / err.size if err.size else 0.0
    snr = float("inf") if noise == 0 else (float(10 * np.log10(signal / noise)) if signal
                                           else float("-inf"))
    nx, ny = np.sqrt(signal), np.sqrt(float(y @ y))
    cosine = 1.0 if noise == 0 else float(x @ y / (nx * ny)) if nx and ny else 0.0
    scale = float(np.max(np.abs(x))) if x.size else 0.0
    max_err = float(np.max(np.abs(err))) if err.size else 0.0
    rel = max_err / scale if scale else (0.0 if max_err == 0 else float("inf"))
    return {"mse": mse, "snr_db": snr, "cosine": cosine, "peak_rel_error": rel,
            "max_abs_error": max_err}


def compared(va, vb, same_size: bool = False) -> dict | str:
    """metrics(va, vb), or why the two cannot be compared; `same_size`: shapes may differ
    when the element counts agree (a .tflite drops or adds unit dimensions)."""
    if va is None or vb is None:
        return "not kept by the interpreter"
    va, vb = np.asarray(va), np.asarray(vb)
    if va.shape != vb.shape and not (same_size and va.size == vb.size):
        return f"shapes differ: {va.shape} vs {vb.shape}"
    if va.dtype.kind not in "fiub" or vb.dtype.kind not in "fiub":
        return f"not numbers ({va.dtype if va.dtype.kind not in 'fiub' else vb.dtype})"
    return metrics(va, vb)
