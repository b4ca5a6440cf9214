"""Chance nodes that draw from a deck: a multiset of card kinds with counts.

Drawing the top card of a well-shuffled deck is the same law as drawing a card uniformly from the
cards that are left, so a game does not have to store a shuffled order (which a state would have to
hide, and a record could never reproduce from outcomes alone): it keeps a ``Deck`` of the cards not
yet drawn and, at each chance node, lists ``deck.outcomes()`` — each kind with probability
count/total — or draws with ``deck.sample(rng)``. Skip-Bo's 168 cards are 13 kinds, not 168 slots.

A ``Deck`` is immutable: ``without``/``plus``/``draw`` return a new deck, and copying or
deep-copying one returns it unchanged, so ``State.clone()`` costs nothing for it.

The kinds keep the order they were first given in, also when their count drops to 0, so a deck
that loses a card and gets it back samples exactly as before. ``sample`` gives the very numbers
``dist.sample_exact(deck.outcomes(), rng)`` gives (same draws from the generator, same card), with
integers only: a game may use either and its records replay the same.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from .errors import SpieltischError, short


class DeckError(SpieltischError):
    """Drawing from an empty deck, or taking out a card that is not in it. ``str(e)`` is English,
    ``detail_de`` the same in German."""

    def __init__(self, detail: str, detail_de: str):
        self.detail = detail
        self.detail_de = detail_de
        super().__init__(detail)


def _check_count(kind, n) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise DeckError(f"the count of card {short(kind)} must be a whole number, got {short(n)}",
                        f"die Anzahl der Karte {short(kind)} muss eine ganze Zahl sein, nicht {short(n)}")
    if n < 0:
        raise DeckError(f"the count of card {short(kind)} cannot be negative ({n})",
                        f"die Anzahl der Karte {short(kind)} kann nicht negativ sein ({n})")
    return n


def _kind_json(kind):
    to_json = getattr(kind, "to_json", None)
    return to_json() if to_json is not None else kind


class Deck:
    """A multiset of card kinds (any hashable values, e.g. ``1..12`` and ``"wild"``).

    ``Deck({1: 12, 2: 12, "wild": 24})`` or ``Deck([(1, 12), ...])``; ``Deck.of(cards)`` counts a
    list of single cards. Equality is multiset equality (the order of the kinds does not matter for
    ``==``; it only fixes which card a given random number picks)."""

    __slots__ = ("_kinds", "_counts", "_index", "_total")

    def __init__(self, counts: Mapping | Iterable = ()):
        items = counts.items() if isinstance(counts, Mapping) else counts
        kinds: list = []
        tally: list[int] = []
        index: dict = {}
        for item in items:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise DeckError(
                    f"a deck is made of (kind, count) pairs, got {short(item)}; Deck.of(cards) counts single cards",
                    f"ein Stapel besteht aus Paaren (Art, Anzahl), nicht {short(item)}; Deck.of(Karten) zählt einzelne Karten",
                )
            kind, n = item
            n = _check_count(kind, n)
            i = index.get(kind)
            if i is None:
                index[kind] = len(kinds)
                kinds.append(kind)
                tally.append(n)
            else:
                tally[i] += n
        self._kinds = tuple(kinds)
        self._counts = tuple(tally)
        self._index = index
        self._total = sum(tally)

    @classmethod
    def of(cls, cards: Iterable) -> "Deck":
        """The deck holding exactly ``cards`` (one entry per card), kinds in order of first sight."""
        # counted here rather than checked pair by pair in ``__init__``: a count made by counting is
        # a whole number above zero (this runs for every redrawn position of Undo's check)
        tally: dict = {}
        for c in cards:
            tally[c] = tally.get(c, 0) + 1
        kinds = tuple(tally)
        return cls._make(kinds, tuple(tally.values()), {k: i for i, k in enumerate(kinds)}, sum(tally.values()))

    @classmethod
    def _make(cls, kinds: tuple, counts: tuple, index: dict, total: int) -> "Deck":
        # shares ``kinds`` and ``index`` with the deck it derives from: both are never changed
        d = object.__new__(cls)
        d._kinds, d._counts, d._index, d._total = kinds, counts, index, total
        return d

    # --- reading -------------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """Number of cards left."""
        return self._total

    def __len__(self) -> int:
        return self._total

    def __bool__(self) -> bool:
        return self._total > 0

    def count(self, kind) -> int:
        """How many cards of ``kind`` are left (0 for a kind the deck never had)."""
        i = self._index.get(kind)
        return 0 if i is None else self._counts[i]

    def __contains__(self, kind) -> bool:
        return self.count(kind) > 0

    def kinds(self) -> list:
        """The kinds with at least one card left, in the deck's order."""
        return [k for k, n in zip(self._kinds, self._counts) if n]

    def counts(self) -> dict:
        """``{kind: count}`` of the kinds with at least one card left."""
        return {k: n for k, n in zip(self._kinds, self._counts) if n}

    def cards(self) -> list:
        """Every card left, one entry per card, grouped by kind in the deck's order."""
        return [k for k, n in zip(self._kinds, self._counts) for _ in range(n)]

    def probability(self, kind) -> Fraction:
        """Exact probability that the next card drawn is ``kind``."""
        self._need_cards()
        return Fraction(self.count(kind), self._total)

    def outcomes(self) -> list[tuple[Any, Fraction]]:
        """Every kind that can be drawn next with its exact probability count/total (they sum to
        1), in the deck's order: what a chance node's ``chance_outcomes()`` returns."""
        self._need_cards()
        t = self._total
        return [(k, Fraction(n, t)) for k, n in zip(self._kinds, self._counts) if n]

    # --- drawing -------------------------------------------------------------------------------
    def sample(self, rng):
        """One kind drawn with probability count/total, using ``rng.below`` once (rejections inside
        it aside). The same law as ``outcomes()``, and the same draw as ``sample_exact`` on them:
        that draws below the common denominator of count/total, which is total / gcd(counts)."""
        # O(kinds) integer work and no Fraction: this runs at every chance node of a simulation
        self._need_cards()
        counts = self._counts
        g = math.gcd(*counts)
        r = rng.below(self._total // g)
        for kind, n in zip(self._kinds, counts):
            r -= n // g
            if r < 0:
                return kind
        raise AssertionError("unreachable: r < total // g")

    def draw(self, rng) -> tuple[Any, "Deck"]:
        """``(kind, rest)``: one card drawn with ``sample`` and the deck without it."""
        kind = self.sample(rng)
        return kind, self.without(kind)

    def deal(self, n: int, rng) -> tuple[list, "Deck"]:
        """``(cards, rest)``: ``n`` cards drawn one at a time, and the deck without them."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise DeckError(f"cannot deal {short(n)} cards", f"{short(n)} Karten können nicht gegeben werden")
        if n > self._total:
            raise DeckError(f"cannot deal {n} cards: the deck holds only {self._total}",
                            f"{n} Karten können nicht gegeben werden: der Stapel hat nur {self._total}")
        deck, out = self, []
        for _ in range(n):
            card, deck = deck.draw(rng)
            out.append(card)
        return out, deck

    # --- changing (new decks) ------------------------------------------------------------------
    def without(self, kind, n: int = 1) -> "Deck":
        """This deck with ``n`` cards of ``kind`` taken out."""
        n = _check_count(kind, n)
        i = self._index.get(kind)
        have = 0 if i is None else self._counts[i]
        if have < n:
            raise DeckError(
                f"cannot take {n} × {short(kind)} out of the deck: it holds {have}",
                f"{n} × {short(kind)} kann nicht aus dem Stapel genommen werden: er enthält {have}",
            )
        if n == 0:
            return self
        counts = list(self._counts)
        counts[i] -= n
        return Deck._make(self._kinds, tuple(counts), self._index, self._total - n)

    def remove_all(self, cards: Iterable) -> "Deck":
        """This deck without every card in ``cards`` (one entry per card)."""
        deck = self
        for c in cards:
            deck = deck.without(c)
        return deck

    def plus(self, kind, n: int = 1) -> "Deck":
        """This deck with ``n`` more cards of ``kind`` (a new kind goes last)."""
        n = _check_count(kind, n)
        i = self._index.get(kind)
        if i is None:
            index = dict(self._index)
            index[kind] = len(self._kinds)
            return Deck._make(self._kinds + (kind,), self._counts + (n,), index, self._total + n)
        counts = list(self._counts)
        counts[i] += n
        return Deck._make(self._kinds, tuple(counts), self._index, self._total + n)

    def plus_all(self, cards: Iterable) -> "Deck":
        """This deck with every card in ``cards`` (one entry per card) put back."""
        deck = self
        for c in cards:
            deck = deck.plus(c)
        return deck

    def _need_cards(self) -> None:
        if not self._total:
            raise DeckError("cannot draw: the deck is empty", "es kann nicht gezogen werden: der Stapel ist leer")

    # --- values --------------------------------------------------------------------------------
    def to_json(self) -> list:
        """``[[kind, count], ...]`` in the deck's order, kinds with count 0 included (they keep
        their place); a kind with a ``to_json()`` is written as that."""
        return [[_kind_json(k), n] for k, n in zip(self._kinds, self._counts)]

    @classmethod
    def from_json(cls, data, kind=None) -> "Deck":
        """The deck ``to_json`` wrote; ``kind(value)`` turns a JSON kind back into a card (default:
        the value itself, lists read as tuples so that they are hashable)."""
        if not isinstance(data, list) or not all(isinstance(e, list) and len(e) == 2 for e in data):
            raise DeckError("a deck is written as [[kind, count], ...]",
                            "ein Stapel wird als [[Art, Anzahl], ...] geschrieben")
        decode = kind if kind is not None else _tuples
        return cls((decode(k), n) for k, n in data)

    def __eq__(self, other):
        if not isinstance(other, Deck):
            return NotImplemented
        return self._total == other._total and self.counts() == other.counts()

    def __hash__(self):
        return hash(frozenset(self.counts().items()))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (Deck, (list(zip(self._kinds, self._counts)),))

    def __repr__(self):
        body = ", ".join(f"{short(k)}: {n}" for k, n in zip(self._kinds, self._counts))
        return f"Deck({{{body}}})"


def _tuples(value):
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
