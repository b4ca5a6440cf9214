"""The numbers of the Schraube Locker lesson: exact values against hand computations from the
rulebook and independent counts; simulations of the engine against the exact values (fixed seeds,
tolerance four standard errors, with negative controls)."""

from fractions import Fraction
from itertools import product
from math import factorial, prod

import pytest

from spieltisch.core.errors import SpieltischError
from spieltisch.core.rng import Rng
from spieltisch.games.schraube_locker import lesson_numbers as N
from spieltisch.games.schraube_locker.analysis import full_circle_probability


def within(hits: int, n: int, p: Fraction) -> bool:
    return abs(hits / n - float(p)) < 4 * (float(p) * (1 - float(p)) / n) ** 0.5


def test_number_in_roll_is_the_complement_by_hand():
    for k in range(1, 7):
        one = N.number_in_roll(k)
        assert one["miss"] == Fraction(5, 6) ** k  # Gegenereignis: no die shows the number
        assert one["hit"] == 1 - Fraction(5, 6) ** k
        assert one["total"] == 6 ** k and one["with"] + one["without"] == 6 ** k
    # an independent count over the ordered rolls of three dice
    assert N.number_in_roll(3)["with"] == sum(4 in r for r in product(range(1, 7), repeat=3)) == 91
    with pytest.raises(SpieltischError):
        N.number_in_roll(7)


def test_first_card_tree_multiplies_along_the_paths():
    t = N.first_card_tree()
    q = Fraction(5, 6) ** 6
    assert t["first"] == [1 - q, q * (1 - q), q * q * (1 - q)]
    assert t["never"] == q ** 3 and sum(t["first"]) + t["never"] == 1
    assert t["some"] == 1 - Fraction(5, 6) ** 18


def test_move_on_probability_of_the_rules_solver_is_the_tree_value():
    """Rolling all dice again until the next card's number shows is the best the rules allow."""
    for numbers in [(4, 1, 2, 3, 5, 6), (1, 1, 1, 1, 1, 1), (6, 6, 2, 2, 3, 1)]:
        assert N.move_on_probability(numbers) == 1 - Fraction(5, 6) ** 18
    assert N.move_on_probability((4, 1, 2, 3, 5, 6), rolls=1) == 1 - Fraction(5, 6) ** 6


def test_one_roll_covers_is_the_multinomial_count():
    for numbers in [(1, 2, 3, 4, 5, 6), (1, 1, 2, 2, 3, 3), (1, 1, 1, 2, 2, 2), (1, 1, 1, 1, 1, 1), (2, 2, 3, 4, 5, 6)]:
        got = N.one_roll_covers(numbers)
        hand = factorial(6) // prod(factorial(numbers.count(v)) for v in set(numbers))
        assert got["count"] == hand and got["total"] == 46656
        assert got["p"] == full_circle_probability(numbers, rolls=1)  # the rules' solver, one roll
    assert N.one_roll_covers((1, 2, 3, 4, 5, 6))["count"] == 720
    assert N.one_roll_covers((1, 1, 2, 2, 3, 3))["count"] == 90


def test_turn_card_choice_by_hand():
    # the roll misses only the 3 for the next card; five dice can lie, one die has two rolls left
    c = N.turn_card_choice((3, 5, 1, 6, 2, 4), (5, 5, 1, 6, 2, 4), 2)
    assert c["without"] == 1 - Fraction(5, 6) ** 2 == Fraction(11, 36)
    assert c["best"] == (5, 3) and c["with"] == 1
    assert c["turned"] == (1, 2, 3, 4, 5, 6) and c["gain"] == Fraction(25, 36)
    # no roll left: only the turn can complete the circle
    c0 = N.turn_card_choice((3, 5, 1, 6, 2, 4), (5, 5, 1, 6, 2, 4), 0)
    assert c0["without"] == 0 and c0["with"] == 1
    # three numbers missing: one turn helps much less
    b = N.turn_card_choice((1, 2, 3, 4, 5, 6), (1, 1, 1, 2, 3, 3), 2)
    assert b["without"] < b["with"] < Fraction(1, 2) and b["gain"] < c["gain"]
    # turning a 1 (three of them, two spare) into a missing number leaves two missing numbers
    # and three free dice: the same as a roll of 1 1 2 3 3 w
    assert b["with"] == N.turn_card_choice((1, 2, 3, 4, 5, 6), (1, 1, 2, 3, 3, 4), 2)["without"]
    with pytest.raises(SpieltischError):
        N.turn_card_choice((1, 2, 3, 4, 5, 6), (1, 2, 3), 2)


def test_lesson_table_shows_the_numbers_from_the_pawn():
    s = N.lesson_table((4, 1, 2, 3, 5, 6))
    assert s.pawns == [0, 3]
    assert [s.game.deck.die[s.top[(0 + i) % 6]] for i in range(1, 7)] == [4, 1, 2, 3, 5, 6]


def test_engine_turns_agree_with_the_exact_values():
    n = 2000
    rng = Rng(11)
    hits = sum(N.engine_turn((1, 2, 3, 4, 5, 6), rng) == 6 for _ in range(n))
    assert within(hits, n, full_circle_probability((1, 2, 3, 4, 5, 6)))
    assert not within(hits, n, full_circle_probability((1, 2, 3, 4, 5, 6), rolls=2))  # negative control
    moved = sum(N.engine_turn((4, 1, 2, 3, 5, 6), rng, "move_on") >= 1 for _ in range(n))
    assert within(moved, n, N.move_on_probability((4, 1, 2, 3, 5, 6)))
    assert not within(moved, n, N.move_on_probability((4, 1, 2, 3, 5, 6), rolls=1))  # negative control
    after = sum(N.engine_turn((3, 5, 1, 6, 2, 4), rng, first_roll=(5, 5, 1, 6, 2, 4)) == 6 for _ in range(n))
    assert within(after, n, Fraction(11, 36))
