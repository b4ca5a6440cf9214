"""Schraube Locker: the exact full-circle analysis against independent computations, the turn
solver, the advisor and the bots."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

import pytest
from sl_helpers import card, roll, table

from spieltisch.core.game import CHANCE
from spieltisch.core.match import Match
from spieltisch.core.registry import make_bot, make_game
from spieltisch.core.rng import Rng
from spieltisch.games.schraube_locker import analysis as A
from spieltisch.games.schraube_locker.bots import GreedyBot, StrongBot
from spieltisch.games.schraube_locker.engine import (CARDS, Place, PlacePair, Proceed, Roll, SchraubeLocker,
                                                     Stop, UseReroll, UseTurn)

KEYS = list(itertools.combinations_with_replacement(range(1, 7), 6))


# --- independent computations ------------------------------------------------------------------

@lru_cache(maxsize=None)
def free_choice(need: tuple, rolls: int) -> Fraction:
    """P(full circle) if the player could choose freely which matching dice to place (no MUST
    rule): an upper bound for every arrangement. Written here with Fractions and ordered dice
    grouped by value counts, independently of the analysis module."""
    n = sum(need)
    if n == 0:
        return Fraction(1)
    if rolls == 0:
        return Fraction(0)
    total = Fraction(0)
    groups: dict = {}
    for dice in itertools.product(range(6), repeat=n):
        have = [0] * 6
        for d in dice:
            have[d] += 1
        m = tuple(min(a, b) for a, b in zip(need, have))
        groups[m] = groups.get(m, 0) + 1
    for m, c in groups.items():
        best = max(free_choice(tuple(a - b for a, b in zip(need, sub)), rolls - 1)
                   for sub in itertools.product(*(range(x + 1) for x in m)))
        total += Fraction(c, 6 ** n) * best
    return total


def counts(numbers):
    c = [0] * 6
    for v in numbers:
        c[v - 1] += 1
    return tuple(c)


def test_one_roll_by_hand():
    """One roll: all six different numbers come up with probability 6!/6^6; six equal ones 1/6^6."""
    assert A.full_circle_probability((1, 2, 3, 4, 5, 6), rolls=1) == Fraction(720, 6 ** 6)
    assert A.full_circle_probability((4,) * 6, rolls=1) == Fraction(1, 6 ** 6)
    assert A.full_circle_probability((1, 1, 2, 2, 3, 3), rolls=1) == Fraction(720 // 8, 6 ** 6)


def test_six_different_numbers_three_ways():
    """With six different numbers the rules' best, 'place every matching die' and the free-choice
    bound coincide (placing everything is optimal there)."""
    p = A.full_circle_probability((1, 2, 3, 4, 5, 6))
    assert p == A.place_all_probability((1, 2, 3, 4, 5, 6)) == free_choice(counts((1, 2, 3, 4, 5, 6)), 3)
    assert p == Fraction(3856086575, 19591041024)
    # any arrangement of six different numbers is a relabelling of the faces
    assert A.full_circle_probability((4, 2, 6, 1, 5, 3)) == p


@pytest.mark.parametrize("key", [KEYS[i] for i in range(0, 462, 66)] + [(1, 1, 2, 2, 2, 2), (2, 5, 5, 5, 6, 6)])
def test_rules_lie_between_place_all_and_free_choice(key):
    """Placing every matching die is a legal way to play, so it cannot beat the best under the
    rules; free choice (no MUST) cannot be worse than the rules. Three separate computations."""
    rules = A.full_circle_probability(key)
    assert A.place_all_probability(key) <= rules <= free_choice(counts(key), 3)


def test_keeping_a_matching_die_back_can_be_better():
    """A finding of the exact analysis: with 1 1 2 2 2 2 face up, placing every matching die is not
    the best play (free choice is strictly better than placing all)."""
    key = (1, 1, 2, 2, 2, 2)
    assert A.place_all_probability(key) < free_choice(counts(key), 3)


def place_all_turn(numbers, rng) -> bool:
    """One turn of the engine with the policy 'place every matching die, roll while dice are left'."""
    s = table(2, numbers=numbers, pawns=[0, 3])
    while s.turn == 0 and s.last_move is None:
        if s.current_player() == CHANCE:
            s.apply_action(s.sample_chance(rng))
            continue
        legal = s.legal_actions()
        places = [a for a in legal if type(a) is Place]
        rolls = [a for a in legal if type(a) is Roll]
        s.apply_action(places[0] if places else rolls[0] if rolls else legal[-1])
    return s.last_move == 6


def test_monte_carlo_of_the_engine_agrees_with_the_exact_value():
    """10,000 seeded turns of the engine itself: within 4 standard errors of the exact value.
    Negative control: the two-roll value lies far outside that band."""
    n = 10_000
    rng = Rng(2026)
    hits = sum(place_all_turn((1, 2, 3, 4, 5, 6), rng) for _ in range(n))
    exact = A.full_circle_probability((1, 2, 3, 4, 5, 6))
    tol = 4 * (float(exact) * (1 - float(exact)) / n) ** 0.5
    assert abs(hits / n - float(exact)) < tol
    assert abs(hits / n - float(A.full_circle_probability((1, 2, 3, 4, 5, 6), rolls=2))) > tol


def test_analyze_output():
    game = SchraubeLocker(2)
    out = game.analyze()
    by = out["full_circle_probability_by_numbers"]
    assert len(by) == 462 and list(by) == sorted(by)
    assert all(len(k) == 6 and list(k) == sorted(k) for k in by)
    assert out["full_circle_probability"] == by["123456"]
    assert out["full_circle_probability"]["fraction"] == "3856086575/19591041024"
    assert out["deck"]["provenance"] == "reconstruction"
    for k in ("111111", "112233", "123456", "666666"):
        f = Fraction(by[k]["fraction"])
        assert f == A.full_circle_probability(tuple(map(int, k))) and by[k]["float"] == float(f)
    # repeats on the face-up cards make a full circle rarer
    assert Fraction(by["111111"]["fraction"]) < Fraction(by["112233"]["fraction"]) < Fraction(by["123456"]["fraction"])


# --- the turn solver and the advisor ------------------------------------------------------------------

def test_solver_agrees_with_the_full_circle_table_when_only_the_circle_counts():
    for key in [(1, 1, 2, 2, 2, 2), (3, 3, 3, 5, 5, 6), (1, 2, 3, 4, 5, 6)]:
        solver = A.TurnSolver(key, (0,) * 6 + (1,))
        value, dist = A.exact(solver.roll_value(0, 6, 6, 2), 3)
        assert value == dist[6] == A.full_circle_probability(key)
        assert sum(dist) == 1


def single_ends_mismatches(single) -> int:
    """How often ``single(solver, F, roll)`` differs from the move-by-move search (MUST checked
    after each die, as the pair variant needs) over 480 seeded positions and rolls."""
    rng = Rng(5)
    wrong = 0
    for _ in range(60):
        nums = tuple(rng.below(6) + 1 for _ in range(6))
        solver = A.TurnSolver(nums, (0,) * 7)
        searcher = A.TurnSolver(nums, (0,) * 7, combine=True)
        searcher.moves = lambda F, roll, s=searcher: [m for m in A.TurnSolver.moves(s, F, roll) if m[0] == "place"]
        for _ in range(8):
            F = rng.below(64)
            roll = tuple(sorted(rng.below(6) + 1 for _ in range(rng.below(6) + 1)))
            F, roll = solver.must(F, roll)
            wrong += single(solver, F, roll) != searcher.ends(F, roll)
    return wrong


def test_single_dice_ends_are_the_ends_found_move_by_move():
    """Without Würfel zusammenziehen the solver lists where placing can end by choosing free cards
    per face (``_single_ends``); trying move after move finds the same sets. Negative control: a
    version that lays at most one die per face is caught."""
    assert single_ends_mismatches(A.TurnSolver._single_ends) == 0
    assert single_ends_mismatches(lambda s, F, roll: A.TurnSolver._single_ends(s, F, tuple(sorted(set(roll))))) > 0


def advice_at_blau():
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3])
    roll(s, 2, 3, 4, 5, 5, 5)
    return s


def test_advice_values_every_legal_option_with_the_reach_distribution():
    s = advice_at_blau()
    obs = s.observation(0)
    game = s.game
    rows = A.options_for(game, obs)
    assert [a for a, _, _ in rows] == s.legal_actions()
    nums, vals, _ = A.turn_setup(game, obs)
    assert vals[:6] == [0] + [CARDS.points[s.top[k]] for k in (1, 2, 3, 4, 5)]
    for a, v, dist in rows:
        assert sum(dist) == 1 and all(p >= 0 for p in dist)
        assert v == sum(Fraction(x) * p for x, p in zip(vals, dist))
        if type(a) is Stop:  # the row reaches two cards now
            assert dist[2] == 1 and v == CARDS.points[s.top[2]]
    advice = game.advise(obs)
    assert advice.exact and len(advice.options) == len(rows)
    assert all(o.note and "reconstructed" in o.note["en"] for o in advice.options)
    best = max(v for _, v, _ in rows)
    assert all(o.best == (o.value == best) for o in advice.options)


def test_advice_reroll_by_hand_one_die_one_roll():
    """A hand-checkable case: the third roll with one free die, the next card needs a 3 and is worth
    p; re-rolling that one die with Wurf wiederholen reaches it with probability 1/6."""
    ww = card("wurf_wiederholen")
    s = table(2, numbers=(1, 4, 3, 6, 2, 5), pawns=[0, 3], displays=[[ww], []])
    roll(s, 4, 1, 1, 1, 1, 1)
    s.apply_action(Proceed())  # MUST: the 4 on stack 1; the next card needs a 3
    s.apply_action(Roll(5))
    roll(s, 6, 6, 6, 6, 6)
    s.apply_action(Proceed())
    s.apply_action(Roll(5))
    roll(s, 5, 5, 5, 5, 5)  # third roll: the row still ends at stack 1
    assert s.phase == "cards"
    rows = {a: (v, d) for a, v, d in A.options_for(s.game, s.observation(0))}
    p1, p2 = CARDS.points[s.top[1]], CARDS.points[s.top[2]]
    proceed = rows[Proceed()][0]
    assert proceed == p1  # nothing else can be placed usefully in front
    one = rows[UseReroll(ww, (5,))]  # a 3 with 1/6; the next card (a 6) gets no die then
    assert one[1][2] == Fraction(1, 6) and one[0] == Fraction(5, 6) * p1 + Fraction(1, 6) * p2 - CARDS.points[ww]


def test_advice_turn_card_value():
    wd = card("wuerfel_drehen")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[wd], []])
    roll(s, 1, 1, 2, 3, 5, 6)
    rows = {a: v for a, v, _ in A.options_for(s.game, s.observation(0))}
    # turning a 1 into the missing 4 completes the circle: bonus 6 + the own stack's card - the card
    assert rows[UseTurn(wd, 1, 4)] == 6 + CARDS.points[s.top[0]] - CARDS.points[wd]


def test_advisor_legal_actions_match_the_engine_in_random_games():
    """The advisor rebuilds the legal actions from the observation alone; they are the engine's."""
    for options in ({}, {"not_all_dice": True, "combine_two": True, "pawn_setup": "choose"}):
        game = SchraubeLocker(3, options)
        s, rng = game.new_initial_state(), Rng(7)
        steps = 0
        while not s.is_terminal() and steps < 1500:
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
                continue
            obs = s.observation(s.current_player())
            assert A.legal_from_observation(game, obs) == s.legal_actions()
            legal = s.legal_actions()
            s.apply_action(legal[rng.below(len(legal))])
            steps += 1


def test_profi_variants_in_the_solver():
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], options={"combine_two": True, "not_all_dice": True})
    s.apply_action(Roll(6))
    roll(s, 1, 3, 2, 6, 6, 6)
    rows = A.options_for(s.game, s.observation(0))
    acts = [a for a, _, _ in rows]
    assert PlacePair(1, 3, 1) in acts and any(type(a) is Roll and a.count < 6 for a in acts)
    for _, v, dist in rows:
        assert sum(dist) == 1


# --- bots ----------------------------------------------------------------------------------------------

def test_bots_play_full_games_with_legal_moves():
    for names in (["strong", "greedy", "random", "greedy"],):
        m = Match("schraube-locker", 4, {}, 3)
        bots = [make_bot(m.game, n) for n in names]
        rng = Rng(4)
        while not m.is_terminal():
            if m.current_player() == CHANCE:
                m.step_chance()
                continue
            p = m.current_player()
            legal = m.legal_actions()
            a = bots[p].act(m.state.observation(p), tuple(legal), rng)
            assert a in legal
            m.apply(a)


def test_bot_choice_does_not_change_with_hidden_content():
    """Secured cards of others and the face-down stacks redrawn: the strong bot plays the same."""
    from test_rules import forty_point_hand
    h = forty_point_hand()
    s = table(3, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3, 3], secured=[[], [(h["s4"], h["m5"])], []])
    roll(s, 2, 3, 4, 5, 5, 5)
    bot = StrongBot(s.game)
    choice = bot.act(s.observation(0), s._legal_actions(), Rng(1))
    for seed in range(5):
        r = s.resample_hidden(0, Rng(seed))
        assert r.observation(0) == s.observation(0)
        assert bot.act(r.observation(0), r._legal_actions(), Rng(1)) == choice


def test_strong_bot_plays_the_solver_best():
    s = advice_at_blau()
    bot = StrongBot(s.game)
    a = bot.act(s.observation(0), s._legal_actions(), Rng(0))
    rows = A.turn_options(s.game, s.observation(0), s.legal_actions(), lambda c: bot.card_value(s.observation(0), c))
    assert max(v for _, v, _ in rows) == dict((x, v) for x, v, _ in rows)[a]


def test_greedy_bot_stops_at_a_good_card():
    s = table(2, tops=[card("schraube", 1), card("mutter", 6, die=3), card("schraube", 2),
                       card("mutter", 1), card("schraube", 4, die=4), card("doppel_mutter", 2)], pawns=[0, 3])
    roll(s, 3, 1, 1, 1, 1, 6)  # MUST: the 3 onto stack 1 (a 6-point card)
    assert GreedyBot().act(s.observation(0), s._legal_actions(), Rng(0)) == Stop()


def test_registry_bots():
    game = make_game("schraube-locker", 4)
    assert set(game.bots) == {"greedy", "strong"}


@pytest.mark.parametrize("bad", [None, {}, {"game": "tuefteln"}, 5, "observation"])
def test_advisor_refuses_what_is_not_an_observation(bad):
    from spieltisch.core.errors import SpieltischError
    with pytest.raises(SpieltischError, match="not an observation of schraube-locker"):
        SchraubeLocker(2).advise(bad)


def test_advisor_refuses_an_observation_without_a_player_to_move():
    from spieltisch.core.errors import SpieltischError
    s = table(2)  # the first roll is pending: a chance node
    with pytest.raises(SpieltischError, match="nothing to advise"):
        s.game.advise(s.observation(0))
