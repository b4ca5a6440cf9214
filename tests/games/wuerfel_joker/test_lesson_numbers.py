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


def test_one_slide_left_the_easiest_is_a_three_way_tie():
    chance = {v: a2.push_chance([u for u in range(1, 10) if u != v]) for v in range(1, 10)}
    best = max(chance.values())
    assert best == Fraction(22, 36)
    assert [v for v in chance if chance[v] == best] == [1, 6, 7]
    assert min(chance, key=chance.get) == 5 and chance[5] == Fraction(9, 36)  # slide 5 down: no ±5


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
