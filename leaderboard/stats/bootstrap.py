"""Resampling statistics: cluster bootstrap weights and percentile intervals.

A cluster bootstrap draws question ids (not instances) with replacement, because the same question
is asked at every noise rate: its answers are correlated, and a mean over noise rates resampled per
instance would give intervals that are too narrow. Drawing is expressed as a weight matrix
W[r, i] = how often id i was drawn in replicate r, so any per-id statistic's replicates are a matrix
product, and every cell built on the same data file reuses the same draws (consistent intervals).
"""

from __future__ import annotations

import zlib

import numpy as np

CONFIDENCE = 0.95


def rng_for(seed: int, label: str) -> np.random.Generator:
    """A generator that depends only on the seed and a stable label (not on dict or run order)."""
    return np.random.default_rng([seed, zlib.crc32(label.encode("utf-8"))])


def draw_weights(n: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """W (resamples x n): multiplicity of each of n clusters in each bootstrap replicate."""
    if n == 0 or resamples <= 0:
        return np.zeros((max(resamples, 0), n))
    idx = rng.integers(0, n, size=(resamples, n))
    flat = (idx + (np.arange(resamples) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=resamples * n).reshape(resamples, n).astype(float)


def ratio_replicates(
    weights: np.ndarray, numerator: np.ndarray, denominator: np.ndarray, empty: float = np.nan
) -> np.ndarray:
    """Replicates of sum(num) / sum(den) under the cluster weights; `empty` where a replicate has
    den 0."""
    num = weights @ numerator
    den = weights @ denominator
    out = np.full(num.shape, empty, dtype=float)
    np.divide(num, den, out=out, where=den > 0)
    return out


def percentile_ci(
    replicates: np.ndarray | None, confidence: float = CONFIDENCE
) -> tuple[float, float] | None:
    """Percentile interval of the finite replicates; None when there are none."""
    if replicates is None or replicates.size == 0:
        return None
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return None
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(finite, [alpha, 1 - alpha])
    return float(lo), float(hi)
