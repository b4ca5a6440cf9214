"""Seeded randomness that gives the same numbers in CPython 3.11+ and in Pyodide.

The generator is BLAKE2b in counter mode: block ``i`` of a stream is the 64-byte BLAKE2b digest of
(seed, i), and numbers are taken from those bytes by rejection sampling, so every value is exactly
uniform. BLAKE2b is a fixed standard (RFC 7693) that every CPython and Pyodide build carries
(``hashlib.algorithms_guaranteed``), so the numbers depend on nothing platform-specific.

Why not ``random.Random``: seeding a Mersenne Twister costs ~6 µs (624 words to initialise), and
every game is seeded twice (chance and bots) so that it can be replayed from its own seed; that
was more than half the cost of a one-turn game. Here a new stream costs nothing until it is used,
and a block of 64 bytes (about 60 dice) costs one ~1 µs hash.
"""

from __future__ import annotations

from hashlib import blake2b

from .errors import SpieltischError, short

MAX_SEED = 2**64 - 1
_PERSON = b"spieltisch/rng1"  # domain separation: these streams are ours, version 1
_BLOCK = 64
# a hasher with the parameters set: copying it and feeding (seed, block) gives the same digest as a
# new ``blake2b(..., digest_size=64, person=_PERSON)`` at half the cost (no keyword parsing)
_HASHER = blake2b(digest_size=_BLOCK, person=_PERSON)


def secret_seed(seed: int, secret: int) -> int:
    """The seed of a game's chance stream when its hidden parts come from a ``secret``: a BLAKE2b
    hash of both, so the seed alone (shown on the page, in the record) says nothing about the
    stream, and neither does any other game's secret."""
    h = blake2b(digest_size=8, person=b"spieltisch/sec1")
    h.update(check_seed(seed).to_bytes(8, "little") + check_seed(secret, "secret").to_bytes(8, "little"))
    return int.from_bytes(h.digest(), "little")


def check_seed(seed, what: str = "seed") -> int:
    """A seed (or a secret) is a whole number from 0 to 2**64-1 (a ``SpieltischError``, a
    ``ValueError``, if not)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise SpieltischError(f"{what} must be a whole number from 0 to {MAX_SEED} (2**64-1), got {short(seed)}")
    return seed


class Rng:
    __slots__ = ("_seed", "_block", "_buf", "_pos")

    def __init__(self, seed: int):
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:  # the common case without a call
            check_seed(seed)
        self._seed = seed
        self._block = 0
        self._buf = b""
        self._pos = _BLOCK  # empty: the first draw hashes block 0

    def _refill(self) -> None:
        h = _HASHER.copy()
        # the 16 bytes hashed: seed (8 bytes, little-endian), then the block number (8 bytes)
        h.update((self._seed | self._block << 64).to_bytes(16, "little"))
        self._buf = h.digest()
        self._block += 1
        self._pos = 0

    def _take(self, k: int) -> int:
        """The next ``k`` bytes (k <= 64) as a little-endian integer; a block's tail shorter than
        ``k`` is skipped."""
        if self._pos + k > _BLOCK:
            self._refill()
        pos = self._pos
        self._pos = pos + k
        return int.from_bytes(self._buf[pos:pos + k], "little")

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)``, exactly: a draw above the largest multiple of ``n``
        is rejected and drawn again."""
        if n <= 256:
            if n <= 0:
                raise ValueError("n must be positive")
            limit = 256 - 256 % n
            while True:
                pos = self._pos
                if pos == _BLOCK:
                    self._refill()
                    pos = 0
                b = self._buf[pos]
                self._pos = pos + 1
                if b < limit:
                    return b % n
        k = (n.bit_length() + 7) // 8
        if k > _BLOCK:
            raise ValueError("n is too large (at most 512 bits)")
        span = 1 << (8 * k)
        limit = span - span % n
        while True:
            x = self._take(k)
            if x < limit:
                return x % n

    def die(self, sides: int = 6) -> int:
        """One fair die, 1..sides."""
        return self.below(sides) + 1

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def uniform(self) -> float:
        """Float in [0, 1) with 53 random bits."""
        return (self._take(7) >> 3) / 9007199254740992.0

    def spawn(self) -> int:
        """A fresh 63-bit seed for a sub-stream (e.g. one game of a simulation)."""
        return self._take(8) >> 1
