"""Würfel Joker, Spiel 2: rulebook examples (golden), start throws, ±5, Pasch, minus points, errors, solvers."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch import Match, make_game
from spieltisch.core.bots import RandomBot
from spieltisch.core.errors import IllegalActionError, OptionError, RecordError, SpieltischError
from spieltisch.core.game import CHANCE, SPECTATOR, TERMINAL
from spieltisch.core.rng import Rng
from spieltisch.core.stats import mean_ci, proportion_ci
from spieltisch.games.wuerfel_joker.spiel2 import analysis as solver2
from spieltisch.games.wuerfel_joker.spiel2.bots import OptimalBot, ThresholdBot
from spieltisch.games.wuerfel_joker.spiel2.engine import (
    ACCEPT, ALL_ACTIONS, CHOOSE, DECLINE, DOUBLES_BUST, PUSH, ROLL, START, START_OF, START_THROWS, STOP,
    STOP_OR_THROW, THROW, THROW_OF, THROWS, Spiel2Game, StartThrow, formations, makeable, ways)

GID = "wuerfel-joker-2"


def mask_of(up):
    return sum(1 << (v - 1) for v in up)


def position(up=(), dice=None, players=1, **options):
    """A hand-built position: slides ``up`` pushed, then (optionally) the throw ``dice``."""
    return Spiel2Game(players, options).position(up, dice)


def german(e: IllegalActionError) -> IllegalActionError:
    """Every refusal says its rule and what is wrong in German too."""
    assert e.rule_de and e.detail_de and e.rule_de.strip() and e.detail_de.strip(), (e.rule, e.detail)
    assert e.message("de") != e.message("en")
    return e


def pushes(state):
    return {a.value for a in state.legal_actions() if a in PUSH[1:]}


# --- rulebook examples (golden) ------------------------------------------------------------------
def test_example_1_six_two_without_five():
    assert makeable(6, 2, five_up=False) == {8, 4, 3}
    assert pushes(position((), (6, 2))) == {8, 4, 3}
    assert pushes(position((), (2, 6))) == {8, 4, 3}
    texts = [t for _, t in formations(6, 2, False)]
    assert "6:2 = 3" in texts and not any("12" in t for t in texts)  # 6x2 = 12 is not possible


def test_example_2_pasch_three():
    assert makeable(3, 3, five_up=False) == {9, 1, 6, 3}
    state = position((), (3, 3))
    assert pushes(state) == {9, 1, 6, 3}
    assert DECLINE in state.legal_actions()  # usable doubles may be declined too


def test_example_3_four_two_with_five_up():
    assert makeable(4, 2, five_up=True) == {8, 2, 6, 3, 7, 1}
    assert pushes(position((5,), (4, 2))) == {8, 2, 6, 3, 7, 1}
    texts = {t for _, t in formations(4, 2, True)}
    assert {"4×2−5 = 3", "4:2+5 = 7", "4+2−5 = 1", "4−2+5 = 7", "4+2 = 6", "4−2 = 2", "4:2 = 2", "4×2 = 8"} <= texts
    assert not any("4+5" in t for t in texts)  # the 5 is never used first


def test_ways_lists_each_formation_of_free_values():
    assert ways(4, 2, mask_of((5, 2))) == {
        1: ["4+2−5 = 1"], 3: ["4×2−5 = 3"], 6: ["4+2 = 6"], 7: ["4−2+5 = 7", "4:2+5 = 7"], 8: ["4×2 = 8"]}
    assert ways(6, 2, 0) == {3: ["6:2 = 3"], 4: ["6−2 = 4"], 8: ["6+2 = 8"]}


def test_five_after_out_of_range_intermediate():
    assert 7 in makeable(6, 2, five_up=True)  # 6x2-5 = 7 although 6x2 = 12 alone is not possible
    assert 12 not in makeable(6, 2, five_up=True)
    assert makeable(6, 2, five_up=True) == {8, 4, 3, 3, 9, 7}


def test_five_rules():
    # slide 5 down: no ±5
    assert pushes(position((), (4, 2))) == {6, 2, 8}
    # the 5 is not applied to the single die of a Pasch: 4,4 makes no 9 (4+5) even with 5 up
    assert makeable(4, 4, five_up=True) == {8, 3, 1, 6, 4}
    # option five_ops=all: also x5 and exact :5 after the first operation. By hand, that adds only
    # (5+5):5 = 2 and (1+4):5 = 1; the other multiples of 5 give values made anyway, and x5 only makes 5.
    extra = {(a, b): makeable(a, b, True, "all") - makeable(a, b, True) - {5} for a in range(1, 7) for b in range(a, 7)}
    assert {k: v for k, v in extra.items() if v} == {(5, 5): {2}, (1, 4): {1}}
    assert pushes(position((5,), (5, 5), five_ops="all")) == {1, 2, 6}
    assert pushes(position((5,), (5, 5))) == {1, 6}


def test_doubles_decline_usable_and_unusable():
    state = position((), (3, 3))
    state.apply_action(DECLINE)
    assert state.phase == THROW and state.mask == 0 and state.current_player() == CHANCE
    # 1,1 makes 2 and 1 (and with 5 up 7, 6): with 1, 2 up and 5 down it pushes nothing
    state = position((1, 2), (1, 1))
    assert state.phase == DOUBLES_BUST
    assert state.legal_actions() == [DECLINE, ACCEPT]
    before = state.clone()
    state.apply_action(ACCEPT)
    assert state.scores() == [-(45 - 3 + 2)]
    before.apply_action(DECLINE)
    assert before.phase == THROW and before.scores() == [0] and before.mask == mask_of((1, 2))


def test_bust_minus_points_times_five():
    # only 9 down, 5 up; 1,2 makes 3,1,2,8,6,7: nothing -> (9 + 3) x 5
    state = position((1, 2, 3, 4, 5, 6, 7, 8), (1, 2), rounds=1)
    assert state.scores() == [-60] and state.current_player() == TERMINAL
    assert state.log[-1][2:4] == (-60, "bust")
    # 5 and 9 down: no x5
    state = position((1, 2, 3, 4, 6, 7, 8), (1, 2))
    assert state.scores() == [-(14 + 3)]


def test_stop_minus_points_and_option_x5_on_stop():
    up = (1, 2, 3, 4, 5, 6, 7)
    for x5, points in ((False, -9), (True, -45)):
        state = position(up, (4, 4), x5_on_stop=x5)  # 4+4 = 8
        state.apply_action(PUSH[8])
        assert state.phase == STOP_OR_THROW and state.legal_actions() == [STOP, ROLL]
        state.apply_action(STOP)
        assert state.scores() == [points]
    state = position((1, 2, 3, 4, 6, 7), (4, 4), x5_on_stop=True)
    state.apply_action(PUSH[8])
    state.apply_action(STOP)
    assert state.scores() == [-14]  # slide 5 down: no x5


def test_all_nine_up_plus_45_and_turn_passes():
    state = position((1, 2, 3, 4, 5, 6, 7, 8), (4, 5), players=2, rounds=1)
    state.apply_action(PUSH[9])
    assert state.scores() == [45, 0]
    assert state.player == 1 and state.mask == 0 and state.phase == THROW and state.turn == ()
    assert state.log[-1][:4] == (1, 0, 45, "all_up")


def test_rounds_and_turn_order():
    m = Match(GID, 3, {"rounds": 2}, seed=5)
    m.play([RandomBot()] * 3, Rng(1))
    first = m.state.first
    seats = [first, (first + 1) % 3, (first + 2) % 3]  # clockwise from the starter
    assert [(r, p) for r, p, *_ in m.state.log] == [(r, p) for r in (1, 2) for p in seats]
    assert m.state.scores() == [sum(e[2] for e in m.state.log if e[1] == p) for p in range(3)]
    assert all(isinstance(s, int) for s in m.state.scores())


# --- start throws: "Jeder Spieler würfelt mit beiden Würfeln einmal und addiert die Augen. Der Spieler
# mit der höchsten Augenzahl beginnt." -------------------------------------------------------------
def start(state, *throws):
    for t in throws:
        state.apply_action(START_OF[t])
    return state


def test_the_highest_sum_begins():
    state = Spiel2Game(3, {"rounds": 2}).new_initial_state()
    assert state.phase == START and state.current_player() == CHANCE and state.chance_player() == 0
    start(state, (2, 3))
    assert state.chance_player() == 1
    start(state, (1, 1), (6, 4))  # 5, 2, 10: player 3 begins
    assert state.first == state.player == 2 and state.phase == THROW and state.chance_player() == 2
    ends = []
    while not state.is_terminal():  # every turn: throw 6+2, push 8, stop
        state.apply_action(THROW_OF[(6, 2)])
        state.apply_action(PUSH[8])
        state.apply_action(STOP)
        ends.append(state.log[-1][:2])
    assert ends == [(1, 2), (1, 0), (1, 1), (2, 2), (2, 0), (2, 1)]  # a round: everyone once, from the starter
    assert state.scores() == [-74, -74, -74]
    obs = state.observation(0)
    assert obs["starter"] == 2 and [t["sum"] for t in obs["start_throws"]] == [5, 2, 10]
    assert obs["sheet"] == [[-37, -37]] * 3 and obs["last_turn"]["player"] == 1


def test_only_the_tied_players_throw_again_until_one_is_highest():
    state = start(Spiel2Game(4).new_initial_state(), (6, 5), (3, 3), (5, 6), (1, 2))  # 11, 6, 11, 3
    assert state.phase == START and state.chance_player() == 0
    assert state.observation(SPECTATOR)["start_throwers"] == [0, 2]
    start(state, (4, 4))
    assert state.chance_player() == 2  # players 2 and 4 (lower sums) do not throw again
    start(state, (2, 6))  # 8 : 8, a tie again
    assert state.phase == START and state.chance_player() == 0
    start(state, (1, 1), (1, 2))
    assert state.first == 2 and state.phase == THROW
    assert [(t["round"], t["player"]) for t in state.observation(3)["start_throws"]] == [
        (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 2), (3, 0), (3, 2)]
    text = state.render(lang="de")
    assert "Stechen 1: Spieler 1 4+4 = 8, Spieler 3 2+6 = 8" in text and "Spieler 3 beginnt" in text


def test_one_player_has_no_start_throw():
    state = Spiel2Game(1).new_initial_state()
    assert state.phase == THROW and state.chance_outcomes()[0][0] is THROWS[0]
    assert state.observation(0)["start_throws"] == []


def test_start_throw_chance_is_exact_and_sampled_like_two_dice():
    state = Spiel2Game(2).new_initial_state()
    out = state.chance_outcomes()
    assert [a for a, _ in out] == list(START_THROWS) and all(p == Fraction(1, 36) for _, p in out)
    r1, r2 = Rng(3), Rng(3)
    for _ in range(100):
        t = state.sample_chance(r1)
        assert type(t) is StartThrow and (t.a, t.b) == (r2.die(), r2.die())
    assert START_OF[(6, 2)].to_json() == ["start", 6, 2]
    assert START_OF[(6, 2)].label("de") == "Anfangswurf 6+2" and START_OF[(6, 2)].label("en") == "start throw 6+2"


def test_start_throw_refusals():
    state = Spiel2Game(2).new_initial_state()
    before = state.snapshot()
    for bad in (THROW_OF[(6, 2)], STOP, PUSH[3], ["start", 6, 2], ["start", 7, 1], "start"):
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(bad)
        german(e.value)
        assert state.snapshot() == before
    with pytest.raises(IllegalActionError) as e:
        state.apply_action(PUSH[3])
    assert e.value.rule == "start throw" and e.value.rule_de == "Wer beginnt"
    start(state, (6, 6), (1, 1))
    with pytest.raises(IllegalActionError) as e:
        state.apply_action(START_OF[(6, 6)])
    assert german(e.value).rule == "start throw"


def test_a_version_1_record_is_refused_naming_the_version():
    m = Match(GID, 2, {"rounds": 1}, 4)
    m.resolve_chance()
    record = dict(m.to_record(), version=1)
    assert m.to_record()["version"] == 2
    with pytest.raises(RecordError, match=r"wuerfel-joker-2 v1.*plays v2"):
        Match.from_record(record)


# --- options -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,options,words", [
    (2, {"rounds": 0}, "between 1 and 100"),
    (2, {"rounds": 101}, "between 1 and 100"),
    (2, {"five_ops": "times"}, "one of plus_minus, all"),
    (2, {"x5_on_stop": "maybe"}, "true or false"),
    (2, {"jokers": 3}, "no option 'jokers'"),
    (0, {}, "1-8 players"),
    (9, {}, "1-8 players"),
])
def test_option_errors(players, options, words):
    with pytest.raises(OptionError, match=words):
        make_game(GID, players, options)


def test_defaults():
    g = make_game(GID)
    assert g.num_players == 2 and g.options == {"rounds": 10, "five_ops": "plus_minus", "x5_on_stop": False}


# --- illegal actions -----------------------------------------------------------------------------
@pytest.mark.parametrize("up,dice,action,rule,words", [
    ((8,), (6, 2), PUSH[8], "slide already up", "slide 8 is already up"),
    ((), (6, 2), PUSH[7], "the five", "6×2−5 needs slide 5 up"),
    ((), (6, 2), PUSH[6], "dice arithmetic", "6 and 2 make 3, 4 or 8"),
    ((), (6, 2), DECLINE, "Pasch", "not a Pasch"),
    ((), (6, 2), STOP, "stop after a push", "only after a push"),
    ((), (6, 2), ROLL, "one slide per throw", "push a slide"),
    ((), (6, 2), ACCEPT, "Pasch", "not a Pasch"),
    ((), (3, 3), ACCEPT, "Pasch", "can push a slide"),
    ((), None, STOP, "turn order", "must throw"),
    ((), None, PUSH[3], "turn order", "must throw"),
])
def test_illegal_actions_name_the_rule(up, dice, action, rule, words):
    state = position(up, dice)
    before = state.snapshot()
    with pytest.raises(IllegalActionError, match=words) as e:
        state.apply_action(action)
    assert e.value.rule == rule
    german(e.value)
    assert state.snapshot() == before


def test_illegal_after_push_and_at_the_end():
    state = position((), (6, 2), rounds=1)
    state.apply_action(PUSH[8])
    for bad, rule in ((PUSH[4], "one slide per throw"), (DECLINE, "Pasch"), (THROW_OF[(1, 1)], "turn order")):
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(bad)
        assert german(e.value).rule == rule
    state.apply_action(STOP)
    assert state.is_terminal()
    with pytest.raises(IllegalActionError) as e:
        state.apply_action(STOP)
    assert german(e.value).rule == "end of game"


def test_json_form_is_not_an_action():
    state = position((), (6, 2))
    with pytest.raises(IllegalActionError) as e:
        state.apply_action(["push", 8])
    assert german(e.value).rule == "action format"


def test_look_alikes_are_refused_in_german_too():
    state = position((), (6, 2))
    before = state.snapshot()
    for bad in (PUSH.__class__, ["push", 8.0], ["push", True], ("push", 8), "Stop", "roll", object(),
                type(PUSH[8])(8.0), type(PUSH[8])(True), type(PUSH[8])("8"), type(PUSH[8])(None), StartThrow(6.0, 2)):
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(bad)
        german(e.value)
        assert state.snapshot() == before


def test_german_rule_names_follow_the_rulebook():
    cases = [(position((), (6, 2)), PUSH[6], "Grundrechenarten", "6 und 2 ergeben 3, 4 oder 8; nicht 6"),
             (position((), (6, 2)), PUSH[7], "Die Fünf", None),
             (position((), (6, 2)), DECLINE, "Pasch", None),
             (position((8,), (6, 2)), PUSH[8], "Slide schon oben", "Slide 8 ist schon oben")]
    for state, bad, rule_de, detail_de in cases:
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(bad)
        assert e.value.rule_de == rule_de
        assert detail_de is None or e.value.detail_de == detail_de


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), players=st.integers(1, 3),
       five_ops=st.sampled_from(["plus_minus", "all"]), junk=st.sampled_from([None, 0, "stop", ["push", 3], 3.5]))
def test_random_illegal_actions_leave_state_unchanged(seed, steps, players, five_ops, junk):
    m = Match(GID, players, {"rounds": 3, "five_ops": five_ops}, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if m.is_terminal():
            break
        if m.current_player() == CHANCE:
            m.step_chance()
        else:
            legal = m.legal_actions()
            m.apply(legal[rng.below(len(legal))])
    state = m.state
    before = state.snapshot()
    legal = state.legal_actions()
    for bad in (*ALL_ACTIONS, junk):
        if bad in legal:
            continue
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(bad)
        assert e.value.rule and e.value.rule != "legal moves"
        german(e.value)
        assert state.snapshot() == before
    json.dumps(state.observation(0))


def test_legal_actions_cannot_corrupt_the_engine():
    state = position((), (3, 3))
    legal = state.legal_actions()
    legal.clear()
    assert pushes(state) == {9, 1, 6, 3}


def test_sample_chance_is_two_dice():
    state = position()
    r1, r2 = Rng(42), Rng(42)
    for _ in range(200):
        t = state.sample_chance(r1)
        a, b = r2.die(), r2.die()
        assert (t.a, t.b) == (a, b)
    assert sum(p for _, p in state.chance_outcomes()) == 1 and len(state.chance_outcomes()) == 36


def test_observation_public_and_json():
    m = Match(GID, 2, {"rounds": 2}, 3)
    m.resolve_chance()
    obs = m.state.observation(1)
    assert json.loads(json.dumps(obs)) == obs and obs["phase"] in (CHOOSE, DOUBLES_BUST)
    assert not any("rng" in k or "seed" in k for k in obs)
    spectator = m.state.observation(SPECTATOR)
    assert spectator["viewer"] is None and dict(spectator, viewer=1) == obs  # all public
    obs["totals"].append(99)
    obs["sheet"][0].append(99)
    assert m.state.observation(1) == dict(spectator, viewer=1)  # the caller got a copy
    text = m.state.render()
    assert "Dice" in text and "Totals" in text and "Würfel" in m.state.render(lang="de")
    assert m.game.render_observation(spectator, "de") == m.state.render(lang="de") and str(m.state) == text
    assert "start throw: player 1" in text


def test_every_action_has_a_german_and_an_english_label():
    for a in ALL_ACTIONS:
        assert a.label("de") and a.label("en") and a.label("de") != a.label("en"), a
    assert (PUSH[7].label("de"), PUSH[7].label("en")) == ("schiebe 7", "push 7")
    assert (STOP.label("de"), ROLL.label("de"), DECLINE.label("de")) == (
        "aufhören", "weiterwürfeln", "auf den Pasch verzichten")
    assert THROW_OF[(6, 2)].label("de") == "Wurf 6+2"


def test_action_text_and_json():
    assert str(PUSH[7]) == "push 7" and PUSH[7].to_json() == ["push", 7]
    assert str(STOP) == "stop" and STOP.to_json() == "stop"
    assert str(DECLINE) == "decline doubles"
    assert str(THROW_OF[(6, 2)]) == "throw 6+2" and THROW_OF[(6, 2)].to_json() == ["throw", 6, 2]
    assert len(set(ALL_ACTIONS)) == len(ALL_ACTIONS) == 9 + 4 + 36 + 36


def test_record_round_trip():
    m = Match(GID, 3, {"rounds": 4, "five_ops": "all", "x5_on_stop": True}, seed=11)
    m.play([OptimalBot(m.game, "expected"), ThresholdBot(m.game), RandomBot()], Rng(2))
    again = Match.from_json(m.to_json())
    assert again.state.snapshot() == m.state.snapshot()
    assert again.to_json() == m.to_json()


# --- solvers -------------------------------------------------------------------------------------
NINE_DOWN = (1, 2, 3, 4, 5, 6, 7, 8)  # only slide 9 still down, slide 5 up
# By hand: a op b must be 9, 4 or 14. Unordered pairs doing it: 3+6, 4+5, 1+3, 2+2, 5-1, 6-2, 3x3, 1x4 (4:1).
MAKES_NINE = {(3, 6), (4, 5), (1, 3), (2, 2), (1, 5), (2, 6), (3, 3), (1, 4)}


def test_all_up_with_only_nine_down_by_hand():
    mask = mask_of(NINE_DOWN)
    ordered = sum(1 if a == b else 2 for a, b in MAKES_NINE)  # 12 + 2 = 14 of 36
    other_doubles = 6 - sum(1 for a, b in MAKES_NINE if a == b)  # 4: declined, throw again
    p = Fraction(ordered, 36) / (1 - Fraction(other_doubles, 36))
    assert p == Fraction(7, 16)
    sol = solver2.solve({}, "all_up")
    assert sol.throw_value(mask) == p
    assert {(a, b) for a in range(1, 7) for b in range(a, 7) if 9 in makeable(a, b, True)} == MAKES_NINE


def test_expected_with_only_nine_down_by_hand():
    mask = mask_of(NINE_DOWN)
    pairs = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    total = Fraction(0)
    for a, b in pairs:
        if (a, b) in MAKES_NINE:
            w = 45
        elif a == b:
            continue  # a bust of at least (9+2)*5 is worse than throwing again: declined
        else:
            w = -(9 + a + b) * 5
        total += w * (1 if a == b else 2)
    t = total / (36 - 4)
    assert t == Fraction(-820, 32)
    sol = solver2.solve({}, "expected")
    assert sol.throw_value(mask) == t
    assert sol.after_push_value(mask) == -9 and not sol.goes_on(mask)
    assert sol.declined_doubles(mask) == (1, 4, 5, 6)
    state = position(NINE_DOWN[:-1], (4, 4))  # push 8 with 4+4, then decide
    state.apply_action(PUSH[8])
    assert sol.decision_values(state) == [(STOP, -9), (ROLL, t)]
    assert sol.best_action(state) is STOP


def _float_value_iteration(five_ops, objective, x5_on_stop=False):
    """Independent check: plain value iteration in floats straight from ``makeable``."""
    V, T = {}, {}
    for mask in range(510, -1, -1):
        five = bool(mask & 16)
        down = sum(v for v in range(1, 10) if not mask >> (v - 1) & 1)
        ws = []
        for a in range(1, 7):
            for b in range(1, 7):
                free = [v for v in makeable(a, b, five, five_ops) if not mask >> (v - 1) & 1]
                if free:
                    ws.append((a == b, max((45.0 if objective == "expected" else 1.0) if mask | 1 << (v - 1) == 511
                                           else V[mask | 1 << (v - 1)] for v in free)))
                else:
                    ws.append((a == b, -(down + a + b) * (5 if five else 1) if objective == "expected" else 0.0))
        t = 0.0
        for _ in range(60):
            t = sum(max(w, t) if d else w for d, w in ws) / 36
        T[mask] = t
        stop = -down * (5 if x5_on_stop and five else 1) if objective == "expected" else 0.0
        V[mask] = max(stop, t)
    return T


@pytest.mark.parametrize("five_ops,objective,x5", [("plus_minus", "expected", False), ("all", "all_up", False),
                                                   ("plus_minus", "expected", True)])
def test_solver_matches_float_value_iteration(five_ops, objective, x5):
    T = _float_value_iteration(five_ops, objective, x5)
    sol = solver2.solve({"five_ops": five_ops, "x5_on_stop": x5}, objective)
    for mask in range(511):
        assert abs(float(sol.throw_value(mask)) - T[mask]) < 1e-9


def test_solver_cache():
    # the solver's speed is measured in benchmarks/run.py, not here (a timed test depends on the machine)
    solver2._CACHE.clear()
    for obj in ("expected", "all_up"):
        sol = solver2.solve({"five_ops": "all", "x5_on_stop": True}, obj)
        assert solver2.solve({"five_ops": "all", "x5_on_stop": True}, obj) is sol


def _turn_points(bot, objective_check, n_games, rounds=100, options=None):
    points, ends = [], []
    for s in range(n_games):
        m = Match(GID, 1, {"rounds": rounds, **(options or {})}, seed=1000 + s)
        m.play([bot], Rng(s))
        points += [e[2] for e in m.state.log]
        ends += [e[3] == "all_up" for e in m.state.log]
    return points, ends


def test_optimal_bot_monte_carlo_agrees_with_exact_value():
    g = make_game(GID, 1)
    points, _ = _turn_points(OptimalBot(g, "expected"), None, 150)  # 15000 turns
    est = mean_ci(points)
    assert est.contains(solver2.solve({}, "expected").start_value()), est


def test_all_up_bot_monte_carlo_agrees_with_exact_probability():
    g = make_game(GID, 1, {"five_ops": "all"})
    _, ends = _turn_points(OptimalBot(g, "all_up"), None, 100, options={"five_ops": "all"})
    est = proportion_ci(sum(ends), len(ends))
    assert est.contains(solver2.solve({"five_ops": "all"}, "all_up").start_value()), est


def test_optimal_not_worse_than_threshold_bot():
    g = make_game(GID, 1)
    points, _ = _turn_points(ThresholdBot(g), None, 40)  # 4000 turns, fixed seeds
    est = mean_ci(points)
    exact = solver2.solve({}, "expected").start_value()
    assert exact >= est.lo, (float(exact), est)  # the optimum is not below the bot's 95 % CI


def test_policies_evaluated_exactly():
    e, u = solver2.solve({}, "expected"), solver2.solve({}, "all_up")
    assert solver2.evaluate(e, "expected") == e.start_value()
    assert solver2.evaluate(u, "all_up") == u.start_value()
    assert solver2.evaluate(e, "all_up") <= u.start_value()
    assert solver2.evaluate(u, "expected") <= e.start_value()


def test_advise_and_decision_values():
    state = position((5,), (4, 2))
    game = state.game
    advice = game.advise(state.observation(state.current_player()))
    assert {o.action for o in advice.options} == set(state.legal_actions()) and advice.exact
    dv = solver2.solve(state, "expected").decision_values(state)
    assert [(o.action, o.value) for o in advice.options] == dv
    assert [o.best for o in advice.options] == [v == dv[0][1] for _, v in dv] and advice.options[0].best
    seven = advice.option_for(PUSH[7])
    assert set(seven.note["en"].split("; ")) == {"4:2+5 = 7", "4−2+5 = 7"}
    assert [v for _, v in dv] == sorted((v for _, v in dv), reverse=True)
    assert solver2.solve(state, "expected").best_action(state) is dv[0][0]
    up = game.advise(state.observation(state.current_player()), objective="all_up")
    assert [(o.action, o.value) for o in up.options] == solver2.solve(state, "all_up").decision_values(state)
    with pytest.raises(SpieltischError):
        game.advise(position().observation(0))  # chance node: nothing to decide
    with pytest.raises(SpieltischError):
        game.advise(state.observation(0), objective="fun")


def test_analyze():
    out = make_game(GID, 2).analyze()
    json.dumps(out)
    assert out["optimal_expected_score"]["fraction"] == str(solver2.solve({}, "expected").start_value())
    assert Fraction(out["max_all_up_probability"]["fraction"]) == solver2.solve({}, "all_up").start_value()
    assert len(out["variants"]) == 4
