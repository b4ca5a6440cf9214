"""The numbers of the Schraube Locker lesson: exact values against hand computations from the
rulebook and independent counts; simulations of the engine against the exact values (fixed seeds,
tolerance four standard errors, with negative controls)."""

from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb, factorial, prod

import pytest

from spieltisch.core.errors import SpieltischError
from spieltisch.core.rng import Rng
from spieltisch.games.schraube_locker import lesson_numbers as N
from spieltisch.games.schraube_locker.analysis import full_circle_probability, place_all_probability
from spieltisch.games.schraube_locker.engine import CARDS, Place, Roll


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
    with pytest.raises(SpieltischError):
        N.engine_turn((1, 2, 3, 4, 5, 6), rng, "greedy")


def test_engine_turns_repeat_with_their_seed():
    a = N.engine_turns((1, 1, 2, 2, 3, 3), 50, seed=3)
    assert a == N.engine_turns((1, 1, 2, 2, 3, 3), 50, seed=3) and len(a) == 50
    assert a != N.engine_turns((1, 1, 2, 2, 3, 3), 50, seed=4)
    assert set(a) <= set(range(7))
    with pytest.raises(SpieltischError):
        N.engine_turns((1, 2, 3, 4, 5, 6), 0, seed=1)


# --- the small version: two cards, two dice, two rolls -------------------------------------------

def test_toy_throws_by_hand():
    """Cards 1 and 2: only (1, 2) and (2, 1) cover both; a throw with a 1 or a 2 but not both covers
    one ((1, 1) covers only the 1); 4 · 4 throws show neither. Cards 1 and 1: (1, 1) covers both,
    the 5 + 5 throws with exactly one 1 cover one."""
    t = N.toy_throws((1, 2))
    assert [(a, b) for (a, b), k in t.items() if k == 2] == [(1, 2), (2, 1)]
    assert sum(k == 1 for k in t.values()) == 18 and sum(k == 0 for k in t.values()) == 16
    assert t[(1, 1)] == t[(2, 2)] == 1 and t[(3, 4)] == 0
    u = N.toy_throws((1, 1))
    assert [(a, b) for (a, b), k in u.items() if k == 2] == [(1, 1)]
    assert sum(k == 1 for k in u.values()) == 10 and sum(k == 0 for k in u.values()) == 25
    assert N.cards_covered((1, 1, 2, 2, 3, 3), (1, 1, 1, 2, 5, 6)) == 3
    with pytest.raises(SpieltischError):
        N.toy_throws((1, 2, 3))


def test_toy_tree_adds_its_paths_to_the_solvers_value():
    """Cards 1 2: 2/36 + 18/36 · 1/6 + 16/36 · 2/36 = 53/324. Cards 1 1: each die must show a 1
    within its two rolls, independently: (1 − (5/6)²)² = 121/1296. The rules' solver agrees."""
    t = N.toy_tree((1, 2))
    assert (t["both"], t["one"], t["none"]) == (Fraction(2, 36), Fraction(18, 36), Fraction(16, 36))
    assert (t["one_then"], t["none_then"]) == (Fraction(1, 6), Fraction(2, 36))
    assert t["total"] == Fraction(2, 36) + Fraction(18, 36) / 6 + Fraction(16, 36) * Fraction(2, 36) == Fraction(53, 324)
    assert N.circle_probability((1, 2), rolls=2) == t["total"]
    u = N.toy_tree((1, 1))
    assert u["total"] == (1 - Fraction(5, 6) ** 2) ** 2 == Fraction(121, 1296) == N.circle_probability((1, 1), rolls=2)
    assert N.circle_probability((2, 1), rolls=2) == t["total"]  # the order of the cards does not matter here


def test_circle_probability_by_hand_and_for_six_cards():
    assert N.circle_probability((4,), rolls=3) == 1 - Fraction(5, 6) ** 3  # one card, one die
    assert N.circle_probability((1, 2), rolls=1) == Fraction(2, 36)
    for numbers in [(1, 2, 3, 4, 5, 6), (1, 1, 2, 2, 3, 3), (1, 1, 1, 1, 1, 1)]:
        # laying every matching die is best for these (an independent computation)
        assert N.circle_probability(numbers) == place_all_probability(numbers) == full_circle_probability(numbers)
        assert N.circle_probability(numbers, rolls=1) == N.one_roll_covers(numbers)["p"]
    with pytest.raises(SpieltischError):
        N.circle_probability((1, 2, 3, 4, 5, 6, 1))
    with pytest.raises(SpieltischError):
        N.circle_probability((1, 2), rolls=4)


# --- how far the pawn gets -------------------------------------------------------------------------

def test_reach_distribution_by_hand_six_equal_cards():
    """Six cards showing 1: each die is rolled until it shows a 1 (three rolls at most), independently;
    the pawn gets as many cards as dice showed a 1: binomial with n = 6, p = 1 − (5/6)³."""
    p = 1 - Fraction(5, 6) ** 3
    assert N.reach_distribution((1,) * 6) == [comb(6, k) * p ** k * (1 - p) ** (6 - k) for k in range(7)]
    assert N.mean_reach((1,) * 6) == 6 * p
    # one roll, six different cards: the pawn stays unless the first card's number shows
    assert N.reach_distribution((1, 2, 3, 4, 5, 6), rolls=1)[0] == Fraction(5, 6) ** 6


def test_reach_distribution_full_circle_is_the_independent_value():
    for numbers in [(1, 2, 3, 4, 5, 6), (1, 1, 2, 2, 3, 3), (1, 1, 2, 3, 4, 5), (3, 3, 1, 1, 2, 2)]:
        d = N.reach_distribution(numbers)
        assert sum(d) == 1 and all(x >= 0 for x in d)
        assert d[6] == place_all_probability(numbers)
        assert N.mean_reach(numbers) == sum(k * x for k, x in enumerate(d))


def test_reach_distribution_is_what_the_engine_plays():
    """The engine's turns (every matching die on the nearest free card) against the exact distribution,
    every reach within four standard errors; the farthest card instead is caught (negative control)."""
    n = 3000
    for numbers, seed in [((1, 1, 2, 2, 3, 3), 21), ((1, 2, 3, 4, 5, 6), 22)]:
        exact = N.reach_distribution(numbers)
        got = Counter(N.engine_turns(numbers, n, seed))
        assert all(within(got[d], n, exact[d]) for d in range(7)), (numbers, got)
    rng = Rng(23)
    far = Counter(N.engine_turn((1, 1, 2, 2, 3, 3), rng, farthest=True) for _ in range(n))
    exact = N.reach_distribution((1, 1, 2, 2, 3, 3))
    assert not all(within(far[d], n, exact[d]) for d in range(7))
    assert far[5] < n * exact[5] / 2  # the far 3 leaves card 5 free: the row rarely ends there


def test_lay_nearest_follows_the_must_rule():
    # the next free card (a 2) gets the 2 first; the 3 goes on card 5, the nearer of the two 3s
    assert N.lay_nearest((1, 1, 2, 2, 3, 3), (True, False, False, False, False, False), (2, 3, 5)) == \
        (True, False, True, False, True, False)


# --- the advisor -----------------------------------------------------------------------------------

def test_the_advisor_keeps_dice_where_laying_all_wins_less():
    """Lage A (only the 3 for the next card missing): laying all five matching dice leaves one die
    with two rolls for the 3 — the pawn stays with (5/6)² = 25/36, or goes round with 11/36 and takes
    the bonus card and the start stack's card. The advisor, valuing points, does better."""
    cards, roll = (3, 5, 1, 6, 2, 4), (5, 5, 1, 6, 2, 4)
    action, value, dist = N.laid_all(cards, roll)
    table = N.lesson_table(cards)
    start_card = CARDS.points[table.top[table.pawns[0]]]
    assert type(action) is Roll and action.count == 1
    assert dist == [Fraction(25, 36)] + [Fraction(0)] * 5 + [Fraction(11, 36)]
    assert value == Fraction(11, 36) * (CARDS.bonus_points + start_card)
    steps = N.advised_steps(cards, roll)
    laid = [a for a, _, _ in steps if type(a) is Place]
    assert 1 <= len(laid) < 5 and type(steps[-1][0]) is Roll and steps[-1][0].count == 6 - len(laid)
    assert steps[0][1] > value and steps[-1][2][0] < Fraction(25, 36)
    assert sum(steps[-1][2]) == 1
