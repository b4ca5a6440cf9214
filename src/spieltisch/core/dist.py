"""Exact finite distributions over ``Fraction`` probabilities (dice and what is computed from them)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product


class Dist:
    """An immutable mapping outcome -> exact probability; outcomes with probability 0 are dropped."""

    __slots__ = ("_p",)

    def __init__(self, weights):
        items = weights.items() if isinstance(weights, dict) else weights
        acc: dict = {}
        for outcome, w in items:
            acc[outcome] = acc.get(outcome, 0) + Fraction(w)
        total = sum(acc.values())
        if total <= 0:
            raise ValueError("a distribution needs positive total weight")
        self._p = {k: v / total for k, v in acc.items() if v}

    @staticmethod
    def uniform(outcomes) -> "Dist":
        return Dist((o, 1) for o in outcomes)

    @staticmethod
    def die(sides: int = 6) -> "Dist":
        return Dist.uniform(range(1, sides + 1))

    @staticmethod
    def dice(n: int, sides: int = 6, ordered: bool = False) -> "Dist":
        """``n`` fair dice: ordered tuples, or (default) sorted tuples with multinomial weights."""
        faces = range(1, sides + 1)
        if ordered:
            return Dist.uniform(product(faces, repeat=n))
        return Dist((tuple(sorted(t)), 1) for t in product(faces, repeat=n))

    def items(self):
        return self._p.items()

    def outcomes(self):
        return list(self._p)

    def __getitem__(self, outcome) -> Fraction:
        return self._p.get(outcome, Fraction(0))

    def __len__(self):
        return len(self._p)

    def __eq__(self, other):
        return isinstance(other, Dist) and self._p == other._p

    def __hash__(self):
        return hash(frozenset(self._p.items()))

    def map(self, f) -> "Dist":
        return Dist((f(o), p) for o, p in self._p.items())

    def __add__(self, other: "Dist") -> "Dist":
        """Sum of two independent distributions."""
        return Dist((a + b, p * q) for a, p in self._p.items() for b, q in other._p.items())

    def joint(self, other: "Dist") -> "Dist":
        return Dist(((a, b), p * q) for a, p in self._p.items() for b, q in other._p.items())

    def prob(self, predicate) -> Fraction:
        return sum((p for o, p in self._p.items() if predicate(o)), Fraction(0))

    def mean(self) -> Fraction:
        return sum((Fraction(o) * p for o, p in self._p.items()), Fraction(0))

    def variance(self) -> Fraction:
        m = self.mean()
        return sum(((Fraction(o) - m) ** 2 * p for o, p in self._p.items()), Fraction(0))

    def sample(self, rng):
        return sample_exact(self._p.items(), rng)

    def __repr__(self):
        body = ", ".join(f"{o!r}: {p}" for o, p in sorted(self._p.items(), key=lambda kv: repr(kv[0])))
        return f"Dist({{{body}}})"


def sample_exact(outcomes, rng):
    """Draw from ``(outcome, Fraction)`` pairs summing to 1, exactly: one uniform integer below the
    common denominator, so no float rounding ever biases the law."""
    outcomes = list(outcomes)
    denom = math.lcm(*(p.denominator for _, p in outcomes))
    r = rng.below(denom)
    for outcome, p in outcomes:
        r -= p.numerator * (denom // p.denominator)
        if r < 0:
            return outcome
    raise ValueError("chance probabilities do not sum to 1")


def exact_json(value) -> dict:
    """An exact number for JSON output: ``{"fraction": "p/q", "float": x}``."""
    f = Fraction(value)
    return {"fraction": f"{f.numerator}/{f.denominator}", "float": float(f)}
