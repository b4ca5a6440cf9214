"""Numbers the Tüfteln lessons (notebooks/*/tuefteln.ipynb, second edition) need beyond ``analysis``.

* ``fillings``: every way to fill the empty fields of one square with dice, keyed by the dice in the
  order the lesson names the fields (the 6×6 grid of two dice when two fields are empty).
* ``points_distribution`` / ``standard_deviation``: the points of a square whose empty fields get
  fair dice, exactly – the "random fill" model the greedy bot rates squares with.
* ``random_fillings``: the same, simulated with the engine's dice.
* ``at_least_one_six``: the complement of "no 6 among the dice of some throws".
* ``paired_games``: the strong bot's stored games and the greedy bot's games on the same throws.
* ``pick_games``: a few of those games drawn at random (a short series).
* ``six_chances``: the branches and the complement of the tree of a roll of a few dice, counted.
* ``squares_html``: squares drawn as HTML tables (a lesson shows a picture that is no answer
  without SVG: the browser test takes every SVG in the page before a prediction for an answer picture).

A square's four numbers are clockwise from the top left (TL, TR, BR, BL), 0 for an empty field,
as ``scoring.category`` and ``analysis.square_completions`` take them.
"""

from __future__ import annotations

import html
import math
from fractions import Fraction
from functools import lru_cache
from itertools import product

from ...core.errors import SpieltischError, short
from . import analysis, scoring

PLACES = analysis.POSITIONS  # ("TL", "TR", "BR", "BL"): clockwise from the top left


def _square(values) -> tuple:
    values = tuple(values)
    if len(values) != 4 or any(type(v) is not int or not 0 <= v <= 6 for v in values):
        raise SpieltischError(f"a square is four numbers 0-6 clockwise from the top left (0 = empty), not {short(values)}")
    return values


def fillings(values, order, descending_straights: bool = False) -> dict:
    """``{dice: category}`` for every way to fill the empty fields of the square ``values``: the
    first die goes to the place ``order[0]`` (a name from ``PLACES``), the second to ``order[1]``, …
    ``order`` names each empty place once. Two empty places give the 36 cells of the grid of two dice:
    ``fillings((0, 1, 0, 1), ("TL", "BR"))[(3, 3)] == "cross"``."""
    values = _square(values)
    order = tuple(order)
    empty = {PLACES[i] for i, v in enumerate(values) if v == 0}
    if sorted(order) != sorted(empty) or len(set(order)) != len(order):
        raise SpieltischError(f"name each empty place of the square once (empty: {sorted(empty)}), not {short(order)}")
    out = {}
    for dice in product(range(1, 7), repeat=len(order)):
        v = list(values)
        for place, x in zip(order, dice):
            v[PLACES.index(place)] = x
        out[dice] = scoring.category(*v, descending_straights)
    return out


def points_distribution(values, descending_straights: bool = False) -> dict:
    """``{points: probability}`` of the square ``values`` when every empty field gets a fair die,
    exactly (from ``analysis.square_completions``); ``analysis.distribution_summary`` gives its
    expected value and variance."""
    done = analysis.square_completions(_square(values), descending_straights)
    return {p: Fraction(n, done["total"]) for p, n in done["points"].items()}


def standard_deviation(dist: dict) -> float:
    """The standard deviation of a distribution ``{value: probability}`` (the root of its exact
    variance), e.g. for the funnel of a simulated mean."""
    return math.sqrt(analysis.distribution_summary(dist)["variance"])


def random_fillings(values, n: int, rng, descending_straights: bool = False) -> list:
    """The points of ``n`` squares ``values`` whose empty fields get the dice ``rng.die()`` (clockwise
    from the top left), one square after the other."""
    values = _square(values)
    if type(n) is not int or n < 0:
        raise SpieltischError(f"the number of squares is a whole number ≥ 0, not {short(n)}")
    out = []
    for _ in range(n):
        v = [x or rng.die() for x in values]
        out.append(scoring.POINTS[scoring.category(*v, descending_straights)])
    return out


def at_least_one_six(throws: int = 15) -> Fraction:
    """P(at least one 6 among the ``2 * throws`` dice of ``throws`` throws of two dice) = 1 − P(no 6),
    exactly (``analysis.sixes_distribution``)."""
    return 1 - analysis.sixes_distribution(throws)[0]


@lru_cache(maxsize=4)
def paired_games(side: str = "A") -> dict:
    """The strong bot's stored games on ``side`` and the greedy bot's games on the same throws (the
    same simulation seed: the throws come from the chance seed alone, the bots' choices from another):
    ``{"games", "seed", "strong": [...], "greedy": [...]}``, game by game. The greedy games are
    played here (about 0.02 s a game), the strong ones are stored (about a second a game in the browser)."""
    stored = analysis.stored_bot_scores("strong", side)
    greedy = analysis.bot_scores("greedy", side, stored["games"], stored["seed"])
    return {"games": stored["games"], "seed": stored["seed"], "strong": tuple(stored["scores"]),
            "greedy": tuple(greedy)}


def pick_games(rng, n: int, games: int) -> list:
    """``n`` different game numbers out of ``range(games)``, drawn at random with ``rng`` (a short
    series of the stored games), in the order drawn."""
    if type(n) is not int or type(games) is not int or not 0 <= n <= games:
        raise SpieltischError(f"draw 0 to {short(games)} games, not {short(n)}")
    pool = list(range(games))
    for i in range(n):  # the first n steps of a Fisher–Yates shuffle
        j = i + rng.below(games - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:n]


class Squares:
    """Squares drawn as HTML (``text/html``) with a text form (``text/plain``), for a kit widget."""

    def __init__(self, html_text: str, text: str):
        self.html, self.text = html_text, text

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self.html, "text/plain": self.text}

    def __str__(self) -> str:
        return self.text


def squares_html(squares, size: int = 30) -> Squares:
    """Squares side by side as HTML tables, drawn as on the sheet (top row TL TR, bottom row BL BR):
    ``squares`` is a list of ``(values, caption)``, the four numbers clockwise from the top left, 0 an
    empty field. The text form lists each square as "TL TR / BL BR: caption" (· for an empty field)."""
    cell = (f"width:{size}px;height:{size}px;border:1px solid #555;text-align:center;"
            f"font:bold {round(size * 0.55)}px sans-serif")
    out, lines = [], []
    for values, caption in squares:
        tl, tr, br, bl = _square(values)
        shown = ["" if v == 0 else str(v) for v in (tl, tr, bl, br)]
        rows = "".join(f"<tr><td style='{cell}'>{a}</td><td style='{cell}'>{b}</td></tr>"
                       for a, b in (shown[:2], shown[2:]))
        out.append("<figure style='display:inline-block;margin:0 14px 6px 0;text-align:center'>"
                   f"<table style='border-collapse:collapse;border:3px solid #222;margin:auto'>{rows}</table>"
                   f"<figcaption style='font:13px sans-serif;margin-top:3px'>{html.escape(caption)}</figcaption></figure>")
        dots = [v or "·" for v in shown]
        lines.append(f"{dots[0]} {dots[1]} / {dots[2]} {dots[3]}: {caption}")
    return Squares(f"<div>{''.join(out)}</div>", "\n".join(lines))


def six_chances(dice: int) -> dict:
    """One roll of ``dice`` fair dice (1 to 6 of them), counted over all 6^dice ordered rolls:
    ``{"six": P(a given die shows 6) for one die, "some": P(at least one 6), "none": P(no 6)}`` –
    the branches and the complement of a tree diagram."""
    if type(dice) is not int or not 1 <= dice <= 6:
        raise SpieltischError(f"1 to 6 dice, not {short(dice)}")
    rolls = list(product(range(1, 7), repeat=dice))
    some = sum(1 for r in rolls if 6 in r)
    return {"six": Fraction(sum(1 for r in rolls if r[0] == 6), len(rolls)),
            "some": Fraction(some, len(rolls)), "none": Fraction(len(rolls) - some, len(rolls))}
