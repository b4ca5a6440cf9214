"""Estimates with 95 % confidence intervals: the "simulate" half of compute-then-simulate."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .rng import Rng

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    mean: float
    lo: float
    hi: float
    n: int

    def contains(self, value) -> bool:
        return self.lo <= float(value) <= self.hi

    def to_json(self) -> dict:
        return {"mean": self.mean, "ci95": [self.lo, self.hi], "n": self.n}

    def __str__(self):
        return f"{self.mean:.4f} (95% CI {self.lo:.4f}..{self.hi:.4f}, n={self.n})"


def mean_ci(values, z: float = Z95) -> Estimate:
    """Mean with a normal-approximation interval (sample standard deviation): 95 %, or ``z``
    standard errors either side."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def paired_tie(lead, other) -> bool:
    """Whether ``other`` cannot be told apart from ``lead`` when value i of both came from the same
    random numbers (common random numbers, e.g. play-out i of two options on the same hidden cards):
    the 95 % interval of the mean paired difference reaches 0. Compares the first min(len) pairs."""
    k = min(len(lead), len(other))
    if k < 2:
        return list(lead[:k]) == list(other[:k])
    return mean_ci([x - y for x, y in zip(lead[:k], other[:k])]).lo <= 0


def proportion_ci(successes: float, n: int) -> Estimate:
    """Share with a Wilson 95 % interval (good near 0 and 1)."""
    if n <= 0:
        raise ValueError("no trials")
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return Estimate(p, lo, hi, n)


def monte_carlo(trial, n: int, seed: int, progress=None) -> Estimate:
    """Run ``trial(rng) -> number`` ``n`` times with one seeded generator; mean with 95 % CI.

    Trials that return booleans give a proportion with a Wilson interval.
    """
    rng = Rng(seed)
    values = []
    every = max(1, n // 20)
    for i in range(n):
        values.append(trial(rng))
        if progress and (i + 1) % every == 0:
            progress(i + 1, n)
    if all(isinstance(v, bool) for v in values):
        return proportion_ci(sum(values), n)
    return mean_ci([float(v) for v in values])
