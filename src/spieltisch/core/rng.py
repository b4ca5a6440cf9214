"""Seeded randomness that gives the same numbers in CPython 3.11+ and in Pyodide.

``random.Random`` seeded with an int and ``getrandbits`` are stable across Python versions; we build
everything else (bounded integers, choices) on ``getrandbits`` ourselves instead of relying on
``randrange``/``choice``, whose algorithms are not promised to stay the same.
"""

from __future__ import annotations

import random

MAX_SEED = 2**64 - 1


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    return seed


class Rng:
    __slots__ = ("_r", "_bits")

    def __init__(self, seed: int):
        self._r = random.Random(check_seed(seed))
        self._bits = self._r.getrandbits

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)`` by rejection sampling on ``getrandbits``."""
        if n <= 0:
            raise ValueError("n must be positive")
        k = n.bit_length()
        bits = self._bits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def die(self, sides: int = 6) -> int:
        """One fair die, 1..sides."""
        return self.below(sides) + 1

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def uniform(self) -> float:
        """Float in [0, 1) with 53 random bits."""
        return self._bits(53) / 9007199254740992.0

    def spawn(self) -> int:
        """A fresh 63-bit seed for a sub-stream (e.g. one game of a simulation)."""
        return self._bits(63)
