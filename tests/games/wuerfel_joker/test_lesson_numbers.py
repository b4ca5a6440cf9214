"""The numbers the Würfel Joker lessons state, computed by the engine's analysis (exact)."""

from fractions import Fraction

import pytest

from spieltisch import make_game
from spieltisch.core.errors import SpieltischError
from spieltisch.games.wuerfel_joker.spiel1 import analysis as a1
from spieltisch.games.wuerfel_joker.spiel2 import analysis as a2
from spieltisch.games.wuerfel_joker.spiel2 import engine as S2
from spieltisch.games.wuerfel_joker.spiel2.bots import OptimalBot, ThresholdBot


def test_complement_rule_for_a_joker_throw():
    c = a1.joker_throw_chances(3)
    assert c["at_least_one_1"] == Fraction(91, 216) == 1 - Fraction(5, 6) ** 3
    assert c["no_1"] == Fraction(125, 216)
    assert c["lost"] == Fraction(64, 216) and c["no_1_but_a_6"] == Fraction(61, 216)
    assert a1.joker_throw_chances(1) == {"at_least_one_1": Fraction(1, 6), "no_1": Fraction(5, 6),
                                         "no_1_but_a_6": Fraction(1, 6), "lost": Fraction(4, 6)}
    with pytest.raises(SpieltischError, match="1 to 3 dice"):
        a1.joker_throw_chances(4)


def _makes(a: int, b: int, five_up: bool) -> set:
    """The slides a throw makes, straight from the rulebook's words (not the engine's tables): one
    of the four operations on the two dice (larger minus / divided by smaller, exactly), a Pasch
    also its own number; with slide 5 up, 5 added to or taken from the first result (which may lie
    outside 1-9: 6 x 2 - 5 = 7), never to a Pasch's single number."""
    hi, lo = max(a, b), min(a, b)
    first = {hi + lo, hi - lo, hi * lo} if hi != lo else {hi + lo, hi * lo}
    if hi % lo == 0:
        first.add(hi // lo)
    made = set(first) | ({a} if a == b else set())
    if five_up:
        made |= {r + 5 for r in first} | {r - 5 for r in first}
    return {r for r in made if 1 <= r <= 9}


def test_last_slide_counted_as_the_game_is_played():
    """One slide left down, all others up: a Pasch that cannot push it is declined and thrown again
    (the rulebook's Pasch rule), so it does not count; counted by hand from the rulebook, the 7 alone
    is easiest (22 of 32 counting throws), then the 2, then the 1 and the 6 (every Pasch pushes
    them), the 5 hardest. The engine's throw table (which colours both grids of the lesson) and its
    counts agree throw by throw."""
    chance = {}
    for last in range(1, 10):
        up = [v for v in range(1, 10) if v != last]
        push = [(a, b) for a in range(1, 7) for b in range(1, 7) if last in _makes(a, b, last != 5)]
        again = [(a, a) for a in range(1, 7) if last not in _makes(a, a, last != 5)]
        table = a2.throw_table(up)
        assert sorted(t for t, (kind, _, _) in table.items() if kind == "push") == sorted(push), last
        assert sorted(t for t, (kind, _, _) in table.items() if kind == "again") == sorted(again), last
        assert a2.throw_counts(up) == {"push": len(push), "bust": 36 - len(push) - len(again), "again": len(again)}
        chance[last] = a2.counted_push_chance(up)
        assert chance[last] == Fraction(len(push), 36 - len(again))
    ranking = sorted(chance, key=chance.get, reverse=True)
    assert ranking[:4] == [7, 2, 1, 6] and chance[7] == Fraction(11, 16) and chance[2] == Fraction(10, 16)
    assert chance[1] == chance[6] == Fraction(22, 36) < chance[2] and ranking[-1] == 5 and chance[5] == Fraction(9, 31)
    # counted the other way (a Pasch that pushes nothing as a failure), 1, 6 and 7 would tie at 22/36
    assert [v for v in range(1, 10) if a2.push_chance([u for u in range(1, 10) if u != v]) == Fraction(22, 36)] == [1, 6, 7]
    # 6 x 2 - 5 = 7: the first result may lie above 9 (the lesson states this reading)
    assert 7 in _makes(6, 2, True) and (6, 2) in [t for t, (k, _, _) in a2.throw_table([1, 2, 3, 4, 5, 6, 8, 9]).items() if k == "push"]


def test_with_1_5_6_up_31_of_36_throws_still_push():
    assert a2.push_chance([1, 5, 6]) == Fraction(31, 36)
    p = a2.pushable([1, 5, 6])
    assert len(p) == 36 and p[(6, 2)] == frozenset({3, 4, 7, 8, 9})  # 8, 4, 3; 8−5, 4+5, 12−5, 3+5
    assert a2.pushable([])[(6, 2)] == frozenset({8, 4, 3})  # the rulebook's example
    with pytest.raises(SpieltischError, match="1–9"):
        a2.pushable([0])


def test_policy_value_of_the_optimal_bot_is_the_solver_value():
    game = make_game("wuerfel-joker-2", 1, {"rounds": 1})
    assert a2.policy_value(OptimalBot(game)) == a2.solve({}).start_value()
    cautious = a2.policy_value(ThresholdBot())
    assert cautious < a2.solve({}).start_value()
    assert a2.policy_value(OptimalBot(make_game("wuerfel-joker-2", 1, {"x5_on_stop": True})),
                           {"x5_on_stop": True}) == a2.solve({"x5_on_stop": True}).start_value()


def test_option_help_calls_decisions_decisions():
    helps = {o.name: o.help for o in S2.Spiel2Game.option_specs}
    assert "decision D2" in helps["five_ops"] and "decision D3" in helps["x5_on_stop"]
    assert "(rulebook)" not in helps["five_ops"] and "rulebook:" not in helps["x5_on_stop"]


def test_throw_table_averages_to_the_solver_value():
    sol = a2.solve({})
    for down in ([9], [8, 9], [2, 3, 4, 7, 8, 9]):
        up = [v for v in range(1, 10) if v not in down]
        table = a2.throw_table(up)
        counted = [val for kind, _, val in table.values() if kind != "again"]
        assert sum(counted, Fraction(0)) / len(counted) == sol.throw_value(a2.mask_of(up))
    only9 = a2.throw_table([1, 2, 3, 4, 5, 6, 7, 8])
    kinds = [k for k, _, _ in only9.values()]
    assert (kinds.count("push"), kinds.count("bust"), kinds.count("again")) == (14, 18, 4)
    assert only9[(3, 6)] == ("push", 9, Fraction(45)) and only9[(1, 2)] == ("bust", None, Fraction(-60))
    assert sol.throw_value(a2.mask_of([1, 2, 3, 4, 5, 6, 7, 8])) == Fraction(-205, 8)
    with pytest.raises(SpieltischError, match="already over"):
        a2.throw_table(range(1, 10))
