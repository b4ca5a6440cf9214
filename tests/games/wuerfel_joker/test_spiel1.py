"""Würfel Joker Spiel 1: rulebook examples, start throws, rules, options, errors, solver, bots, records.

Table values other than the rulebook's own facts (kleine Brücke = 7, doubling per joker, so 28 with two
jokers) are a reconstruction: tests read them from the data file instead of hard-coding them.
"""

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.core.bots import RandomBot
from spieltisch.core.errors import IllegalActionError, OptionError, RecordError
from spieltisch.core.game import CHANCE, SPECTATOR, TERMINAL
from spieltisch.core.match import Match
from spieltisch.core.rng import Rng
from spieltisch.core.stats import mean_ci
from spieltisch.games.wuerfel_joker.spiel1 import engine as spiel1
from spieltisch.games.wuerfel_joker.spiel1.bots import OptimalBot, ThresholdBot, threshold_choose
from spieltisch.games.wuerfel_joker.spiel1.analysis import Solution, policy_value, solve
from spieltisch.games.wuerfel_joker.spiel1.engine import (
    DICE, JOKERS, START_DICE, STOP, STOP_POINTS, THROW_AGAIN, Assign, Dice, Spiel1Game, StartDice, TableError,
    load_table, mask_of,
)

GAME_ID = "wuerfel-joker-1"
RAW_TABLE = json.loads(
    (spiel1.resources.files(spiel1.__package__) / "table.json").read_text(encoding="utf-8"))
POINTS = {r["id"]: r["points"] for r in RAW_TABLE["rows"]}


def new_state(players=1, **options):
    return Spiel1Game(players, options).new_initial_state()


def german(e: IllegalActionError) -> IllegalActionError:
    """Every refusal says its rule and what is wrong in German too."""
    assert e.rule_de and e.detail_de and e.rule_de.strip() and e.detail_de.strip(), (e.rule, e.detail)
    assert e.message("de") != e.message("en")
    return e


def begin(state, starter=0):
    """Play the start throws so that ``starter`` begins: 6 6 6 for them, 1 1 1 for everyone else."""
    for p in range(state.num_players):
        assert state.chance_player() == p
        state.apply_action(START_DICE[(6, 6, 6) if p == starter else (1, 1, 1)])
    assert state.player == state.first == starter and state.phase == spiel1.THROW
    return state


def play(state, *actions):
    for a in actions:
        if isinstance(a, tuple):
            a = DICE[a]
        state.apply_action(a)
    return state


def at_12346_with_two_dice(**options):
    """Slides 1,2,3,4,6 up, one die out, two dice in play (rulebook examples 2 and 3)."""
    s = new_state(**options)
    play(s, (1, 2, 3), Assign((1, 2, 3), 3), THROW_AGAIN, (4, 6, 5), Assign((4, 6), 2))
    assert s.pushed == mask_of([1, 2, 3, 4, 6]) and s.dice == 2 and s.phase == spiel1.DECIDE
    return s


def at_kleine_bruecke_two_jokers():
    """Example 4: slides 1 and 6 up, two jokers thrown, three dice in play."""
    s = new_state()
    play(s, (2, 4, 1), Assign((1, 6), 3), JOKERS, (1, 3, 1))
    assert s.jokers == 2 and s.dice == 3 and s.phase == spiel1.JOKER_DECIDE
    return s


# --- rulebook examples -----------------------------------------------------------------------------


def test_example_1_assignments_and_kleine_bruecke():
    s = play(new_state(), (1, 2, 4))
    legal = s.legal_actions()
    for pushed in ((1, 2, 4), (2, 5), (1, 6)):
        assert Assign(pushed, 3) in legal
    # the rulebook's list is not complete: 1+2 -> 3 and the 4 is just as legal
    assert Assign((3, 4), 3) in legal
    assert {a.pushed for a in legal if a.keep == 3} == {(1, 2, 4), (2, 5), (1, 6), (3, 4)}
    assert str(Assign((1, 6), 3)) == "push 1+6, keep 3 dice"
    assert str(legal[legal.index(Assign((1, 6), 3))]) == "push 1+6 (2+4→6), keep 3 dice"
    play(s, Assign((1, 6), 3))
    assert s.stop_value() == 7  # rulebook: kleine Brücke = 7
    assert JOKERS in s.legal_actions()
    play(s, STOP)
    assert s.scores() == [7] and not s.is_terminal() and s.round == 1


def test_example_1_one_round_game_ends():
    s = play(new_state(rounds=1), (1, 2, 4), Assign((1, 6), 3), STOP)
    assert s.is_terminal() and s.scores() == [7] and s.winners() == [0]


def test_example_2_nothing_can_be_set_loses_kleiner_schritt():
    s = at_12346_with_two_dice()
    assert s.stop_value() == POINTS["kleiner_schritt"][0]
    play(s, THROW_AGAIN)
    assert s.current_player() == CHANCE
    play(s, (3, 4))
    assert s.scores() == [0] and s.last_turn["score"] == 0
    assert s.phase == spiel1.THROW and s.round == 1 and s.pushed == 0 and s.dice == 3


def test_example_3_the_six_stays_and_may_stop():
    s = at_12346_with_two_dice()
    play(s, THROW_AGAIN, (4, 6))
    assert s.legal_actions() == [Assign((), 1)]  # the 4 is out, the 6 stays, nothing is pushed
    play(s, Assign((), 1))
    assert s.dice == 1
    assert s.legal_actions() == [STOP, THROW_AGAIN, JOKERS]
    assert s.stop_value() == POINTS["kleiner_schritt"][0]
    s2 = s.clone()
    play(s, STOP)
    assert s.scores() == [POINTS["kleiner_schritt"][0]]
    play(s2, THROW_AGAIN)
    assert s2.dice == 1 and s2.current_player() == CHANCE
    assert len(s2.chance_outcomes()) == 6


def test_example_4_two_jokers_28_or_everything_lost():
    s = at_kleine_bruecke_two_jokers()
    assert s.stop_value() == 28  # rulebook
    stop, go = s.clone(), s.clone()
    play(stop, STOP)
    assert stop.scores() == [28]
    play(go, THROW_AGAIN, (2, 3, 4))
    assert go.scores() == [0] and go.last_turn["score"] == 0


def test_doubling_facts_of_the_rulebook():
    row = next(r for r in spiel1.ROWS if r.id == "kleine_bruecke")
    assert row.slides == (1, 6) and row.exact
    assert row.points[0] == 7 and row.points[2] == 28
    for r in spiel1.ROWS:  # "Die Werte verdoppeln sich"
        assert [r.points[0] * 2**j for j in range(4)] == list(r.points)


# --- rows ------------------------------------------------------------------------------------------


def test_exact_rows_reject_extra_slides_schritt_rows_allow_them():
    assert STOP_POINTS[mask_of([1, 6])] == 7
    assert STOP_POINTS[mask_of([1, 2, 6])] == 0  # no row: kleine Brücke is exact
    assert STOP_POINTS[mask_of([1, 2, 3, 4, 6])] == POINTS["kleiner_schritt"][0]
    assert STOP_POINTS[mask_of([1, 2, 3, 4])] == POINTS["kleiner_schritt"][0]
    assert STOP_POINTS[mask_of([1, 2, 3, 4, 5, 6])] == POINTS["grosser_schritt"][0]


def test_stop_points_follow_the_data_file_for_every_slide_set():
    for mask in range(64):
        pushed = {v for v in range(1, 7) if mask >> (v - 1) & 1}
        best = 0
        for r in RAW_TABLE["rows"]:
            ok = pushed == set(r["slides"]) if r["exact"] else pushed >= set(r["slides"])
            if ok:
                best = max(best, r["points"][0])
        assert STOP_POINTS[mask] == best, sorted(pushed)


def test_jokers_need_a_table_combination():
    s = play(new_state(), (1, 2, 6), Assign((1, 2, 6), 3))
    assert JOKERS not in s.legal_actions() and s.stop_value() == 0
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(JOKERS)
    assert german(e.value).rule == "jokers need a table combination"
    assert s.snapshot() == before


# --- elimination and the 6 ---------------------------------------------------------------------------


def test_unassigned_die_is_eliminated_but_a_six_stays():
    s = play(new_state(), (6, 3, 2))
    legal = s.legal_actions()
    assert Assign((3,), 2) in legal  # 3 pushed, the 6 stays, the 2 is out
    assert Assign((3,), 1) not in legal
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(Assign((3,), 1))
    assert german(e.value).rule == "unassigned dice are eliminated"
    assert Assign((), 1) in legal  # push nothing: only the 6 stays
    assert Assign((2, 3, 6), 3) in legal
    assert Assign((5, 6), 3) in legal  # 3+2 -> 5


def position(pushed, dice, **options):
    """A hand-built position: ``pushed`` slides up, ``dice`` in play, about to decide."""
    s = new_state(**options)
    s.pushed, s.dice, s.phase = mask_of(pushed), dice, spiel1.DECIDE
    return s


def test_only_a_thrown_six_stays():
    s = new_state()
    play(s, (5, 6, 1), Assign((5, 6), 2))  # slides 5, 6 up; the 1 is out
    play(s, THROW_AGAIN, (6, 5))
    assert s.legal_actions() == [Assign((), 1)]
    s = new_state()
    play(s, (6, 1, 1), Assign((6,), 1))  # push the real 6, drop both 1s
    play(s, THROW_AGAIN, (6,))
    assert s.legal_actions() == [Assign((), 1)]
    # an added 6 (2+4) is an ordinary group: it can push slide 6 but never stays unpushed
    s = play(position([1, 2, 3, 4, 5], 2), THROW_AGAIN, (2, 4))
    assert s.legal_actions() == [Assign((6,), 2)]
    s = play(position([1, 2, 3, 4, 6], 2), THROW_AGAIN, (2, 4))
    assert s.scores() == [0] and s.round == 1


def test_no_die_left_scores_zero_and_passes_the_turn():
    s = begin(new_state(players=2))
    play(s, (1, 6, 3), Assign((1, 6), 2))  # kleine Brücke with two dice (3 dropped)
    play(s, THROW_AGAIN, (1, 1))  # slide 1 up, 1+1 = 2 free -> can push 2
    assert s.legal_actions() == [Assign((2,), 2)]
    play(s, Assign((2,), 2), THROW_AGAIN, (1, 1))  # now 1 and 2 are up: nothing can be set
    assert s.player == 1 and s.scores() == [0, 0] and s.round == 0


# --- jokers ----------------------------------------------------------------------------------------


def test_must_throw_at_least_once_in_the_jokers():
    s = play(new_state(), (1, 2, 4), Assign((1, 6), 3), JOKERS)
    assert s.current_player() == CHANCE
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(STOP)
    assert german(e.value).rule == "must throw at least once in the jokers"
    assert e.value.rule_de == "Joker: kein Zurück"
    assert s.snapshot() == before


def test_joker_throw_outcomes():
    base = POINTS["kleine_bruecke"]
    s = play(new_state(), (1, 2, 4), Assign((1, 6), 3), JOKERS)
    three = play(s.clone(), (1, 1, 1))
    assert three.scores() == [base[3]] and three.last_turn["jokers"] == 3  # all down: turn ends
    one = play(s.clone(), (1, 5, 5))
    assert one.jokers == 1 and one.dice == 3 and one.stop_value() == base[1] == 14
    six = play(s.clone(), (6, 6, 2))  # no 1 but a 6: may stop with the jokers so far, or go on with one die
    assert six.jokers == 0 and six.dice == 1 and six.legal_actions() == [STOP, THROW_AGAIN]
    assert six.stop_value() == 7
    lost = play(s.clone(), (2, 3, 5))
    assert lost.scores() == [0]
    capped = at_kleine_bruecke_two_jokers()
    play(capped, THROW_AGAIN, (1, 1, 4))  # two more 1s, but only one joker is left
    assert capped.scores() == [56]
    one_die = play(s.clone(), (6, 3, 3), THROW_AGAIN, (1,))
    assert one_die.jokers == 1 and one_die.dice == 1 and one_die.stop_value() == 14


def test_jokers_keep_the_frozen_row_value_and_options_after_1():
    s = play(new_state(), (1, 2, 4), Assign((1, 6), 3), JOKERS, (1, 4, 4))
    assert s.legal_actions() == [STOP, THROW_AGAIN]
    play(s, THROW_AGAIN)
    assert s.dice == 3  # with at least one 1 the player goes on with all dice in play


# --- options ---------------------------------------------------------------------------------------


def test_options_validation():
    g = Spiel1Game(1)
    assert g.options == {"rounds": 10, "must_assign_max": False}
    assert Spiel1Game(8, {"rounds": "3", "must_assign_max": "yes"}).options == {"rounds": 3, "must_assign_max": True}
    for bad in ({"rounds": 0}, {"rounds": 101}, {"rounds": True}, {"must_assign_max": 2}, {"table": "x"}):
        with pytest.raises(OptionError):
            Spiel1Game(1, bad)
    for n in (0, 9):
        with pytest.raises(OptionError):
            Spiel1Game(n)


def test_must_assign_max():
    s = play(new_state(must_assign_max=True), (1, 2, 4))
    assert {a.pushed for a in s.legal_actions()} == {(1, 2, 4), (2, 5), (1, 6), (3, 4)}
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(Assign((1, 2), 2))
    assert german(e.value).rule == "must assign as many dice as possible"
    assert s.snapshot() == before
    s = play(new_state(must_assign_max=True), (6, 6, 6))  # a single 6 still need not be pushed
    assert set(s.legal_actions()) == {Assign((6,), 3), Assign((), 3)}
    s = play(new_state(), (1, 2, 4))
    assert Assign((1, 2), 2) in s.legal_actions()


def test_rounds_and_turn_order():
    s = begin(new_state(players=3, rounds=2))
    for turn in range(6):
        assert s.player == turn % 3 and s.round == turn // 3
        play(s, (1, 2, 4), Assign((1, 6), 3), STOP)
    assert s.is_terminal() and s.scores() == [14, 14, 14] and s.winners() == [0, 1, 2]


# --- start throws (rulebook: "Jeder Spieler würfelt zunächst mit 3 Würfeln und addiert seine
# Augenzahl. Der Spieler mit der höchsten Augenzahl beginnt.") ------------------------------------------


def start(state, *throws):
    for t in throws:
        state.apply_action(START_DICE[t])
    return state


def test_the_highest_sum_begins_and_rounds_go_round_from_there():
    s = new_state(players=3, rounds=2)
    assert s.current_player() == CHANCE and s.phase == spiel1.START
    assert [s.chance_player()] == [0]
    start(s, (1, 2, 3))  # player 1: 6
    assert s.chance_player() == 1
    start(s, (6, 6, 5))  # player 2: 17
    assert s.chance_player() == 2 and s.phase == spiel1.START
    start(s, (4, 4, 4))  # player 3: 12
    assert s.first == s.player == 1 and s.phase == spiel1.THROW and s.chance_player() == 1
    # clockwise from the starter; a round is complete when everyone had one turn
    order = []
    while not s.is_terminal():
        order.append((s.round, s.player))
        play(s, (1, 2, 4), Assign((1, 6), 3), STOP)
    assert order == [(0, 1), (0, 2), (0, 0), (1, 1), (1, 2), (1, 0)]
    assert s.scores() == [14, 14, 14]
    obs = s.observation(0)
    assert obs["starter"] == 1 and obs["start_throwers"] == []
    assert obs["sheet"] == [[7, 7]] * 3 and obs["last_turn"]["player"] == 0
    assert [(t["player"], t["dice"], t["sum"], t["round"]) for t in obs["start_throws"]] == [
        (0, [1, 2, 3], 6, 1), (1, [6, 6, 5], 17, 1), (2, [4, 4, 4], 12, 1)]


def test_only_the_tied_players_throw_again():
    s = start(new_state(players=3), (6, 5, 4), (1, 1, 2), (3, 6, 6))  # 15, 4, 15: players 1 and 3 tie
    assert s.phase == spiel1.START and s.chance_player() == 0
    assert s.observation(SPECTATOR)["start_throwers"] == [0, 2]
    start(s, (2, 2, 2))  # player 1: 6
    assert s.chance_player() == 2  # player 2 (4, lower) does not throw again
    start(s, (5, 5, 5))  # player 3: 15
    assert s.first == 2 and s.player == 2 and s.phase == spiel1.THROW
    assert [(t["round"], t["player"]) for t in s.observation(1)["start_throws"]] == [
        (1, 0), (1, 1), (1, 2), (2, 0), (2, 2)]


def test_ties_throw_again_until_one_is_highest():
    s = start(new_state(players=2), (3, 3, 3), (4, 4, 1), (6, 1, 1), (2, 2, 4))  # 9:9, then 8:8
    assert s.phase == spiel1.START and s.chance_player() == 0
    start(s, (1, 1, 1), (1, 1, 2))  # 3 : 4
    assert s.first == 1 and s.phase == spiel1.THROW
    text = s.render(SPECTATOR, "de")
    assert "Anfangswurf: Spieler 1 3+3+3 = 9, Spieler 2 4+4+1 = 9" in text
    assert "Stechen 2: Spieler 1 1+1+1 = 3, Spieler 2 1+1+2 = 4" in text and "Spieler 2 beginnt" in text
    assert "start throw: player 1 3+3+3 = 9" in s.render() and "player 2 begins" in str(s)


def test_one_player_has_no_start_throw():
    s = new_state(players=1)
    assert s.phase == spiel1.THROW and s.dice == 3
    assert all(type(a) is Dice for a in s.legal_actions())
    obs = s.observation(0)
    assert obs["start_throws"] == [] and obs["starter"] == 0


def test_start_throw_chance_is_exact_and_sampled_like_three_dice():
    s = new_state(players=2)
    out = s.chance_outcomes()
    assert len(out) == 216 and all(type(a) is StartDice and p == Fraction(1, 216) for a, p in out)
    assert {a.values for a, _ in out} == set(START_DICE)
    r1, r2 = Rng(9), Rng(9)
    for _ in range(100):
        assert s.sample_chance(r1).values == (r2.die(), r2.die(), r2.die())
    a = START_DICE[(1, 2, 4)]
    assert a.to_json() == ["start", 1, 2, 4]
    assert a.label("de") == "Anfangswurf 1 2 4" and a.label("en") == "start throw 1 2 4"


def test_start_throw_refusals_name_the_rule_in_german():
    s = new_state(players=2)
    before = s.snapshot()
    for bad in (DICE[(1, 2, 4)], STOP, Assign((1, 6), 3), StartDice((1, 2)), StartDice((0, 7, 7))):
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(bad)
        german(e.value)
        assert s.snapshot() == before
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(STOP)
    assert e.value.rule_de == "Wer beginnt" and "Spieler 1" in e.value.detail_de
    begin(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(START_DICE[(6, 6, 6)])
    assert german(e.value).rule == "start throw"


def test_a_version_1_record_is_refused_naming_the_version():
    m = Match(GAME_ID, 2, {"rounds": 1}, 4)
    m.resolve_chance()
    record = dict(m.to_record(), version=1)
    assert m.to_record()["version"] == 2
    with pytest.raises(RecordError, match=r"wuerfel-joker-1 v1.*plays v2"):
        Match.from_record(record)


# --- actions, observation, errors ------------------------------------------------------------------


def test_action_json_and_str():
    assert Assign((1, 6), 3).to_json() == ["assign", [1, 6], 3]
    assert STOP.to_json() == "stop" and THROW_AGAIN.to_json() == "throw" and JOKERS.to_json() == "jokers"
    assert Dice((1, 2, 4)).to_json() == ["dice", 1, 2, 4] and str(Dice((1, 2, 4))) == "dice 1 2 4"
    assert hash(Assign((1, 6), 3, "x")) == hash(Assign((1, 6), 3)) and Assign((1, 6), 3, "x") == Assign((1, 6), 3)
    assert str(Assign((), 1, "6 stays")) == "push nothing (6 stays), keep 1 die"


def test_chance_outcomes_are_exact():
    s = new_state()
    out = s.chance_outcomes()
    assert len(out) == 216 and sum(p for _, p in out) == 1 and all(p == Fraction(1, 216) for _, p in out)
    rng = Rng(5)
    counts = {}
    for _ in range(6000):
        d = s.sample_chance(rng)
        assert d in s.legal_actions()
        counts[d.values[0]] = counts.get(d.values[0], 0) + 1
    assert all(850 < c < 1150 for c in counts.values())


def test_observation_and_render():
    s = at_kleine_bruecke_two_jokers()
    o = s.observation(0)
    assert json.loads(json.dumps(o)) == o
    assert o["pushed"] == [1, 6] and o["jokers"] == 2 and o["in_jokers"] and o["base"] == 7
    assert o["phase"] == "joker_decide" and o["dice_in_play"] == 3 and o["stop_value"] == 28
    assert not any("seed" in k or "rng" in k for k in o)
    text = s.render()
    assert "slides up: 1 6" in text and "Joker 2/3" in text
    assert "small bridge" in text and "kleine Brücke" in s.render(lang="de") and str(s) == text
    # the text comes from the observation alone, the spectator's too (everything here is public)
    spectator = s.observation(SPECTATOR)
    assert spectator["viewer"] is None and dict(spectator, viewer=0) == o
    assert s.game.render_observation(spectator, "de") == s.render(lang="de") == s.render(0, "de")


def test_every_action_has_a_german_and_an_english_label():
    assert Assign((1, 6), 2).label("de") == "schiebe 1+6, behalte 2 Würfel"
    assert Assign((1, 6), 2).label("en") == "push 1+6, keep 2 dice"
    assert Assign((), 1, "6 stays").label("de") == "schiebe nichts (6 bleibt), behalte 1 Würfel"
    assert Assign((), 2, "2×6 stay").label("de") == "schiebe nichts (2×6 bleiben), behalte 2 Würfel"
    assert Assign((1, 6), 3, "2+4→6").label("en") == "push 1+6 (2+4→6), keep 3 dice"
    assert (STOP.label("de"), STOP.label("en")) == ("aufhören", "stop")
    assert (THROW_AGAIN.label("de"), THROW_AGAIN.label("en")) == ("weiterwürfeln", "throw again")
    assert (JOKERS.label("de"), JOKERS.label("en")) == ("in die Joker", "go into the jokers")
    assert (DICE[(1, 2, 4)].label("de"), DICE[(1, 2, 4)].label("en")) == ("Wurf 1 2 4", "throw 1 2 4")
    s = play(new_state(), (1, 2, 4))
    for a in s.legal_actions() + list(DICE.values()) + list(START_DICE.values()):
        assert a.label("de") and a.label("en") and a.label("de") != a.label("en")


def test_wrong_phase_errors_name_the_rule():
    s = play(new_state(), (1, 2, 4))
    cases = [(STOP, "assign after a throw"), (Assign((7,), 1), "groups must add to 1–6"),
             (Assign((1, 5), 2), "groups must add to 1–6"), (Dice((1, 2, 3)), "turn order"),
             ("nonsense", "actions"), (["assign", [9], 1], "groups must add to 1–6")]
    for action, rule in cases:
        before = s.snapshot()
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(action)
        assert e.value.rule == rule, (action, e.value)
        german(e.value)
        assert s.snapshot() == before
    play(s, Assign((1, 6), 3), STOP, (1, 2, 3), Assign((1, 2, 3), 3), THROW_AGAIN, (1, 5, 5))
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(Assign((1, 5), 2))
    assert str(e.value).startswith("slide 1 is already up")
    assert german(e.value).detail_de == "Slide 1 ist schon oben"
    play(s, Assign((5,), 1))
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(Assign((4,), 1))
    assert german(e.value).rule == "one assignment per throw"


def test_look_alikes_are_refused_in_german_too():
    s = play(new_state(), (1, 2, 4))
    before = s.snapshot()
    for bad in (Assign((1.0, 6.0), 3), Assign((1, 6), 3.0), Assign((True, 6), 3), ["assign", [1, 6], 3],
                ["assign", [6, 1], 3], ("assign", (1, 6), 3), Dice((1.0, 2.0, 4.0)), "jokers", "Stop",
                Assign("16", 3), Assign(None, None), Dice(None), object()):
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(bad)
        german(e.value)
        assert s.snapshot() == before


def _candidate_actions(draw):
    pushed = draw(st.lists(st.integers(0, 8), max_size=3))
    return draw(st.sampled_from([
        STOP, THROW_AGAIN, JOKERS, Assign(tuple(pushed), draw(st.integers(-1, 4))),
        Assign(tuple(sorted(set(p for p in pushed if 1 <= p <= 6))), draw(st.integers(0, 3))),
        Dice(tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))),
        "stop", ["assign", [1, 6], 3], None, 7,
    ]))


@st.composite
def position_and_action(draw):
    options = {"rounds": 2, "must_assign_max": draw(st.booleans())}
    m = Match(GAME_ID, draw(st.integers(1, 3)), options, draw(st.integers(0, 2**32)))
    steps = draw(st.integers(0, 30))
    rng = Rng(draw(st.integers(0, 2**32)))
    for _ in range(steps):
        if m.is_terminal():
            break
        if m.current_player() == CHANCE:
            m.step_chance()
        else:
            legal = m.legal_actions()
            m.apply(legal[rng.below(len(legal))])
    return m, _candidate_actions(draw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_and_action())
def test_illegal_actions_raise_and_change_nothing(case):
    m, action = case
    s = m.state
    legal = s.legal_actions()
    if action in legal:
        return
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(action)
    assert e.value.rule and str(e.value)
    german(e.value)
    assert s.snapshot() == before


def test_random_play_conformance():
    for seed in range(200):
        m = Match(GAME_ID, 2, {"rounds": 2, "must_assign_max": seed % 2 == 1}, seed)
        rng = Rng(seed)
        while not m.is_terminal():
            s = m.state
            if s.current_player() == CHANCE:
                assert sum(p for _, p in s.chance_outcomes()) == 1
                m.step_chance()
                continue
            legal = s.legal_actions()
            keys = [json.dumps(a.to_json()) for a in legal]
            assert legal and len(set(keys)) == len(keys)
            assert json.loads(json.dumps(s.observation(s.current_player())))
            m.apply(legal[rng.below(len(legal))])
        assert m.current_player() == TERMINAL and all(v >= 0 for v in m.state.scores())


# --- table data ------------------------------------------------------------------------------------


def test_table_is_data_with_provenance():
    assert RAW_TABLE["provenance"] == "reconstruction" and "lost" in RAW_TABLE["note"]
    assert [r.id for r in spiel1.ROWS] == [r["id"] for r in RAW_TABLE["rows"]]
    for r in RAW_TABLE["rows"]:
        assert set(r["name"]) >= {"de", "en"}


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d.pop("rows"), "missing field 'rows'"),
    (lambda d: d["rows"][0].__setitem__("points", [7, 14, 28]), "'points' must be 4"),
    (lambda d: d["rows"][1].__setitem__("id", "kleine_bruecke"), "appears twice"),
    (lambda d: d["rows"][0].__setitem__("slides", [0, 6]), "'slides'"),
    (lambda d: d["rows"][0].__setitem__("exact", "yes"), "'exact'"),
    (lambda d: d["rows"][0]["name"].pop("en"), "'name'"),
])
def test_malformed_table_gives_a_clear_error(mutate, words):
    data = json.loads(json.dumps(RAW_TABLE))
    mutate(data)
    with pytest.raises(TableError) as e:
        load_table(json.dumps(data))
    assert words in str(e.value)
    with pytest.raises(TableError, match="not valid JSON"):
        load_table("{")


# --- solver ----------------------------------------------------------------------------------------


def test_solver_small_positions_by_hand():
    sol = solve({})
    # example 4 position: stop 28; throw: a 1 among 3 dice -> 56; no 1 but a 6 -> stop with 28 on one die
    s = at_kleine_bruecke_two_jokers()
    p1 = 1 - Fraction(5, 6) ** 3
    p6 = Fraction(5, 6) ** 3 - Fraction(4, 6) ** 3
    assert dict(sol.decision_values(s)) == {STOP: 28, THROW_AGAIN: p1 * 56 + p6 * 28}
    assert sol.best_action(s) == THROW_AGAIN  # 31.5 > 28
    # one die, two jokers down: a 1 gives 56, a 6 gives 28 (stopping beats throwing again at 14)
    one = play(s.clone(), THROW_AGAIN, (6, 2, 3))
    assert dict(sol.decision_values(one)) == {STOP: 28, THROW_AGAIN: Fraction(56 + 28, 6)}
    # slides 1-5 up (großer Schritt), one die in play: stop; or jokers; or throw for the 6
    g = POINTS["grosser_schritt"]
    s = new_state()
    play(s, (1, 2, 3), Assign((1, 2, 3), 3), THROW_AGAIN, (4, 5, 2), Assign((4, 5), 2), THROW_AGAIN, (6, 6))
    # (6, 6) with slide 6 free: push 6 and keep 2, or keep both unpushed
    assert set(s.legal_actions()) == {Assign((6,), 2), Assign((), 2)}
    s = new_state()
    play(s, (1, 2, 3), Assign((1, 2, 3), 3), THROW_AGAIN, (4, 5, 3), Assign((4, 5), 2), THROW_AGAIN, (6, 3))
    play(s, Assign((), 1))
    assert s.pushed == mask_of([1, 2, 3, 4, 5]) and s.dice == 1
    # jokers on one die: 1 -> stop at 2×, 6 -> stop at base (throwing again is worse at every step)
    jokers = Fraction(g[1] + g[0], 6)
    # throw for the 6 (the only use): with the 6 pushed (or kept) the best is stopping at g[0]
    throw = Fraction(g[0], 6)
    assert dict(sol.decision_values(s)) == {STOP: g[0], JOKERS: jokers, THROW_AGAIN: throw}
    advice = s.game.advise(s.observation(s.current_player()))
    assert advice.exact and advice.best == [STOP] and not advice.options[1].best
    assert [(o.action, o.value) for o in advice.options] == sol.decision_values(s)


def test_solver_start_value_cross_checked_by_policy_evaluation():
    for mam in (False, True):
        sol = Solution(mam)
        def optimal_choose(phase, mask, dice, row, jokers, legal, sol=sol):
            return max(sol._values(phase, mask, dice, row, jokers, legal), key=lambda av: av[1])[0]
        assert policy_value(optimal_choose, mam) == sol.start_value()
        assert policy_value(threshold_choose, mam) < sol.start_value()
    assert solve({"must_assign_max": True}).start_value() <= solve({}).start_value()


def test_decision_values_cover_legal_actions_best_first():
    sol = solve({})
    s = play(new_state(), (1, 2, 4))
    vals = sol.decision_values(s)
    assert [a for a, _ in vals] and set(a for a, _ in vals) == set(s.legal_actions())
    assert all(vals[i][1] >= vals[i + 1][1] for i in range(len(vals) - 1))
    assert sol.value(new_state()) == sol.start_value()


def _simulate(bot_factory, turns_per_game, games, seed):
    values = []
    for i in range(games):
        m = Match(GAME_ID, 1, {"rounds": turns_per_game}, seed + i)
        m.play([bot_factory(m.game)], Rng(seed + i))
        values.append(m.state.scores()[0] / turns_per_game)
    return mean_ci(values)


def test_optimal_bot_mean_matches_exact_value_and_beats_threshold():
    exact = solve({}).start_value()
    opt = _simulate(OptimalBot, 100, 150, 1000)
    assert opt.contains(exact), (opt, float(exact))
    thr = _simulate(ThresholdBot, 100, 150, 1000)
    assert thr.contains(policy_value(threshold_choose)), thr
    assert opt.mean >= thr.mean


def test_analyze_is_json_and_exact():
    out = Spiel1Game(1).analyze()
    json.dumps(out)
    sv = solve({}).start_value()
    assert out["optimal_expected_score"]["fraction"] == f"{sv.numerator}/{sv.denominator}"
    assert out["table_provenance"] == "reconstruction"
    assert {r["id"] for r in out["rows"]} == set(POINTS)


# --- records and bots ------------------------------------------------------------------------------


def test_record_round_trip_full_game():
    m = Match(GAME_ID, 3, {"rounds": 4}, 42)
    m.play([OptimalBot(m.game), ThresholdBot(m.game), RandomBot()], Rng(7))
    assert m.is_terminal()
    again = Match.from_json(m.to_json())
    assert again.state.snapshot() == m.state.snapshot()
    assert again.state.scores() == m.state.scores()
    assert again.to_json() == m.to_json()


def test_registered_bots():
    assert set(Spiel1Game.bots) == {"threshold", "optimal"}
    from spieltisch.core.registry import make_bot
    g = Spiel1Game(2)
    assert make_bot(g, "optimal").name == "optimal" and make_bot(g, "threshold").name == "threshold"


def test_bad_record_action_is_rejected_with_the_rule():
    from spieltisch.core.errors import RecordError
    m = Match(GAME_ID, 1, {"rounds": 1}, 3)
    m.apply(DICE[(1, 2, 4)])
    rec = m.to_record()
    for bad, words in ((["assign", [6, 1], 3], "write"), (["assign", [1, 6], 2], "eliminated"),
                       ("jokers", "assign after a throw"), (["start", 1, 2, 4], "start throws are over")):
        with pytest.raises(RecordError, match=words):
            Match.from_record(dict(rec, actions=rec["actions"] + [bad]))
