"""Tüfteln: scoring from the rulebook's pictures and worked examples, placement rules, analysis."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.conformance import check_game
from spieltisch.core import registry
from spieltisch.core.errors import IllegalActionError, OptionError
from spieltisch.core.rng import Rng
from spieltisch.core.stats import proportion_ci
from spieltisch.games.tuefteln import Place, Throw, Tuefteln, analysis, bots, scoring
from spieltisch.games.tuefteln.engine import Layout, field_name, load_layout


@pytest.fixture
def registered():
    added = Tuefteln.id not in registry.game_ids()
    registry.register(Tuefteln)
    yield Tuefteln
    if added:
        registry.unregister(Tuefteln.id)


def sq(text: str, descending=False) -> str:
    """Category of a square written as on the rulebook's pictures: 'top row / bottom row'."""
    top, bottom = text.split("/")
    tl, tr = map(int, top.split())
    bl, br = map(int, bottom.split())
    return scoring.category(tl, tr, br, bl, descending)


# --- scoring -------------------------------------------------------------------------------------

@pytest.mark.parametrize("square,cat", [
    ("4 1 / 6 2", "mix"), ("6 6 / 4 3", "pair"), ("2 5 / 2 5", "two_pairs"),
    ("6 3 / 3 6", "cross"), ("2 2 / 2 2", "four"), ("4 5 / 3 2", "straight"),
])
def test_pictured_squares(square, cat):
    assert sq(square) == cat
    assert sq(square, descending=True) == cat


def test_points_of_the_categories():
    assert [scoring.POINTS[c] for c in scoring.CATEGORIES] == [1, 2, 3, 4, 5, 6]
    assert scoring.POINTS["none"] == 0 and scoring.BONUS == 7


@pytest.mark.parametrize("square", ["3 3 / 3 5", "5 3 / 3 3", "1 4 / 4 4", "6 6 / 2 6"])
def test_three_of_a_kind_scores_nothing(square):
    assert sq(square) == "none"


@pytest.mark.parametrize("square", ["6 1 / 2 6", "1 6 / 6 2", "3 4 / 5 3"])
def test_lone_diagonal_pair_scores_nothing(square):
    assert sq(square) == "none"


def test_straights_run_clockwise():
    # clockwise 1-2-3-4 from every corner
    assert sq("1 2 / 4 3") == sq("4 1 / 3 2") == sq("3 4 / 2 1") == sq("2 3 / 1 4") == "straight"
    assert sq("3 4 / 6 5") == "straight"
    # consecutive but not around the square: a mix
    assert sq("1 2 / 3 4") == "mix"
    # descending clockwise (D1): only with the option
    assert sq("5 4 / 2 3") == "mix"
    assert sq("5 4 / 2 3", descending=True) == "straight"
    assert sq("1 2 / 3 5", descending=True) == "mix"


def test_two_pairs_orthogonal_both_ways():
    assert sq("2 2 / 5 5") == sq("2 5 / 2 5") == "two_pairs"


def sheet_from_squares(squares: list[str]) -> list[int]:
    values = [0] * 36
    for s, text in enumerate(squares):
        top, bottom = text.split("/")
        tl, tr = map(int, top.split())
        bl, br = map(int, bottom.split())
        for f, v in zip(scoring.SQUARES[s], (tl, tr, br, bl)):
            values[f] = v
    return values


def test_a_category_counts_again_for_each_square():
    sheet = sheet_from_squares(["2 2 / 2 2"] * 9)
    assert scoring.score_sheet(sheet) == 45
    sheet = sheet_from_squares(["4 5 / 3 2"] * 3 + ["2 2 / 2 2"] * 6)
    assert scoring.score_sheet(sheet) == 18 + 30


def test_bonus_needs_all_six_categories():
    six = ["4 1 / 6 2", "6 6 / 4 3", "2 5 / 2 5", "6 3 / 3 6", "2 2 / 2 2", "4 5 / 3 2"]
    full = sheet_from_squares(six + ["3 3 / 3 5"] * 3)
    assert scoring.total(scoring.square_categories(full)) == (21 + 7, True)
    short = sheet_from_squares(six[:5] + ["3 3 / 3 5"] * 4)  # no straight
    assert scoring.total(scoring.square_categories(short)) == (15, False)


def test_ratings():
    words = [scoring.rating(t)["de"] for t in (0, 25, 26, 30, 31, 34, 35, 37, 38, 40, 41, 42, 43, 44, 45, 46, 47, 50, 51, 80)]
    assert words == ["angeklopft", "angeklopft", "willkommen im Club", "willkommen im Club", "okay", "okay",
                     "gut", "gut", "stark", "stark", "großartig", "großartig", "professionell", "professionell",
                     "weltklasse", "weltklasse", "sagenhaft", "sagenhaft", "überirdisch", "überirdisch"]
    assert scoring.rating(38)["en"] == "strong"


# --- worked examples played on the engine (side A) ------------------------------------------------

EXAMPLE = {  # a square of each kind, as a predicate on its four clockwise numbers
    "four": lambda v: len(set(v)) == 1,
    "straight": lambda v: scoring.category(*v) == "straight",
    "cross": lambda v: scoring.category(*v) == "cross",
    "pair": lambda v: scoring.category(*v) == "pair",
    "two_pairs": lambda v: scoring.category(*v) == "two_pairs",
    "mix": lambda v: scoring.category(*v) == "mix",
    "triple": lambda v: sorted(Counter(v).values()) == [1, 3],
    "diagonal": lambda v: scoring.category(*v) == "none" and sorted(Counter(v).values()) == [1, 1, 2],
}


def fill_sheet(layout: Layout, wanted: list[str]) -> list[int]:
    """A full sheet that keeps the pre-printed numbers and gives square s the kind wanted[s]."""
    values = list(layout.printed)
    for s, kind in enumerate(wanted):
        fields = scoring.SQUARES[s]
        empty = [i for i, f in enumerate(fields) if not values[f]]
        for fill in product(range(1, 7), repeat=len(empty)):
            v = [values[f] for f in fields]
            for i, x in zip(empty, fill):
                v[i] = x
            if EXAMPLE[kind](v):
                for f, x in zip(fields, v):
                    values[f] = x
                break
        else:
            raise AssertionError(f"square {s} cannot be a {kind}")
    return values


def play_sheet(side: str, target: list[int]):
    """Play a solo game whose throws and placements write exactly ``target``."""
    game = Tuefteln(1, {"side": side})
    state = game.new_initial_state()
    for _, fields in game.layout.groups:
        for f1, f2 in zip(fields[::2], fields[1::2]):
            throw = Throw(target[f1], target[f2])
            state.apply_action(throw)
            state.apply_action(Place(f1, target[f1], f2, target[f2]))
    assert state.is_terminal()
    assert state.sheets[0] == target
    return state


def test_tim_scores_32():
    layout = load_layout("A")
    sheet = fill_sheet(layout, ["four", "four", "four", "four", "straight", "cross", "pair", "triple", "diagonal"])
    cats = Counter(scoring.square_categories(sheet))
    assert cats == {"four": 4, "straight": 1, "cross": 1, "pair": 1, "none": 2}
    assert scoring.score_sheet(sheet) == 32
    assert play_sheet("A", sheet).scores() == [32]


def test_sarah_scores_35():
    layout = load_layout("A")
    sheet = fill_sheet(layout, ["four", "four", "pair", "pair", "mix", "two_pairs", "cross", "straight", "triple"])
    assert scoring.total(scoring.square_categories(sheet)) == (35, True)
    assert play_sheet("A", sheet).scores() == [35]


def test_side_b_sheet_plays_and_scores():
    layout = load_layout("B")
    sheet = fill_sheet(layout, ["four"] * 9)
    assert play_sheet("B", sheet).scores() == [45]


# --- placement rules ------------------------------------------------------------------------------

def started(side="A", players=1, throw=(3, 5)):
    state = Tuefteln(players, {"side": side}).new_initial_state()
    state.apply_action(Throw(*throw))
    return state


def rejects(state, action, rule):
    """``action`` is refused for ``rule``, in English and German, and the state stays as it was."""
    before = state.snapshot()
    with pytest.raises(IllegalActionError) as e:
        state.apply_action(action)
    assert e.value.rule == rule, str(e.value)
    assert_bilingual(e.value)
    assert state.snapshot() == before
    return e.value


def assert_bilingual(e: IllegalActionError):
    """A refusal names its rule and says what is wrong in English and in German."""
    assert e.rule and e.detail, str(e)
    assert e.detail_de and e.detail_de != e.detail, e.rule
    assert e.rule_de and e.rule_de != e.rule, e.rule
    assert e.message("de") == f"{e.detail_de} (Regel: {e.rule_de})"
    assert e.message("en") == str(e) == f"{e.detail} (rule: {e.rule})"


F = lambda r, c: r * 6 + c  # noqa: E731


def test_side_a_white_fields_anywhere_and_same_square():
    state = started("A")
    assert Place.make((1, 0), 3, (5, 5), 5) in state.legal_actions()
    assert Place.make((1, 0), 5, (1, 1), 3) in state.legal_actions()  # same square
    state.apply_action(Place.make((5, 5), 5, (1, 0), 3))
    assert state.sheets[0][F(1, 0)] == 3 and state.sheets[0][F(5, 5)] == 5


def test_side_a_bridges():
    state = started("A")
    assert Place.make((0, 1), 5, (0, 2), 3) in state.legal_actions()
    assert Place.make((0, 1), 3, (0, 2), 5) in state.legal_actions()
    e = rejects(state, Place.make((0, 1), 3, (1, 0), 5), "bridge")
    assert str(e) == "blue field B1 may only be filled together with its bridge partner C1 (rule: bridge)"
    assert e.detail_de == "das blaue Feld B1 wird nur zusammen mit seinem Brückenpartner C1 beschrieben"
    rejects(state, Place.make((0, 1), 3, (0, 3), 5), "bridge")  # two blue fields, different bridges
    blue = [f for f in range(36) if state.game.layout.kind[f] == "B"]
    assert len(blue) == 14 and len(state.game.layout.bridges) == 7


def test_filled_and_printed_fields():
    state = started("A")
    rejects(state, Place.make((0, 0), 3, (1, 0), 5), "pre-printed field")
    state.apply_action(Place.make((1, 0), 3, (1, 1), 5))
    state.apply_action(Throw(1, 1))
    rejects(state, Place.make((1, 0), 1, (1, 2), 1), "free fields")
    rejects(state, Place.make((1, 2), 3, (1, 3), 5), "write the throw")
    rejects(state, Throw(2, 2), "one throw per round")
    rejects(state, Place(-1, 1, 7, 1), "fields of the sheet")
    rejects(state, Place(7, 1, 7, 1), "two fields")
    rejects(state, Place(9, 1, 8, 1), "normal form")
    rejects(state, "stop", "placement")


def test_doubles_are_one_action_per_field_pair():
    state = started("A", throw=(4, 4))
    legal = state.legal_actions()
    assert len(legal) == len(set(legal)) == 16 * 15 // 2 + 7
    state = started("A", throw=(4, 2))
    assert len(state.legal_actions()) == 2 * (16 * 15 // 2 + 7)


def test_side_b_same_colour():
    state = started("B")
    layout = state.game.layout
    yellow = [f for f in range(36) if layout.kind[f] == "Y"]
    red = [f for f in range(36) if layout.kind[f] == "R"]
    assert len(yellow) == 6
    state.clone().apply_action(Place.make(yellow[0], 3, yellow[5], 5))
    rejects(state, Place.make(yellow[0], 3, red[0], 5), "same colour")
    assert len(state.legal_actions()) == 5 * 15 * 2


def test_field_names_are_column_letter_and_row_number():
    assert [field_name(f) for f in (0, 5, 30, 35)] == ["A1", "F1", "A6", "F6"]  # the corners
    assert field_name(F(1, 0)) == "A2" and field_name(F(0, 1)) == "B1" and field_name(F(2, 3)) == "D3"
    names = [field_name(f) for f in range(36)]
    assert len(set(names)) == 36 and names == sorted(names, key=lambda n: (n[1], n[0]))  # reading order
    state = started("A")
    text = state.game.render_sheet(state.observation(0), 0)
    assert "  A  B   C  D   E  F" in text and "\n 1 |" in text and "\n 6 |" in text and " 0 |" not in text


def test_every_refusal_has_a_german_detail_and_rule_name():
    """Every rule ``why_illegal`` names comes with the detail in English (``str(e)``) and German,
    and with its German name."""
    state = started("A")
    refusals = [rejects(state, Place.make((0, 0), 3, (1, 0), 5), "pre-printed field")]
    state.apply_action(Place.make((1, 0), 3, (1, 1), 5))
    state.apply_action(Throw(1, 1))
    refusals += [rejects(state, Place.make((1, 0), 1, (1, 2), 1), "free fields"),
                 rejects(state, Place.make((1, 2), 3, (1, 3), 5), "write the throw"),
                 rejects(state, Throw(2, 2), "one throw per round"),
                 rejects(state, Place(-1, 1, 7, 1), "fields of the sheet"),
                 rejects(state, Place(7, 1, 7, 1), "two fields"),
                 rejects(state, Place(9, 1, 8, 1), "normal form"),
                 rejects(state, "stop", "placement"),
                 rejects(state, Place.make((0, 1), 1, (1, 2), 1), "bridge")]
    side_b = started("B")
    layout = side_b.game.layout
    yellow, red = (next(f for f in range(36) if layout.kind[f] == k) for k in "YR")
    refusals.append(rejects(side_b, Place.make(yellow, 3, red, 5), "same colour"))
    fresh = Tuefteln(1).new_initial_state()
    refusals += [rejects(fresh, Place(1, 1, 2, 1), "throw first"), rejects(fresh, Throw(0, 7), "two dice")]
    over = fresh.clone()
    over.rounds_done = over.game.layout.rounds  # no throws left: the game is over
    refusals += [over.why_illegal(Place(1, 1, 2, 1)), rejects(over, Place(1, 1, 2, 1), "end of game")]
    assert [e.rule for e in refusals][-2:] == ["end of game", "end of game"]
    for e in refusals:
        assert_bilingual(e)
        assert e.detail_in("de") == e.detail_de and e.detail_in("en") == e.detail
        assert e.rule_in("de") == e.rule_de and e.rule_in("en") == e.rule
    by_rule = {e.rule: e for e in refusals}
    assert {r: e.rule_de for r, e in by_rule.items()} == {
        "pre-printed field": "vorgedruckte Felder", "free fields": "freie Felder",
        "write the throw": "den Wurf eintragen", "one throw per round": "ein Wurf pro Runde",
        "fields of the sheet": "Felder des Zettels", "two fields": "zwei Felder", "normal form": "Normalform",
        "placement": "Eintrag", "bridge": "Brücke", "same colour": "gleiche Farbe", "throw first": "erst würfeln",
        "two dice": "zwei Würfel", "end of game": "Spielende"}
    assert by_rule["pre-printed field"].message("de") == ("in Feld A1 steht die vorgedruckte 5 "
                                                          "(Regel: vorgedruckte Felder)")
    assert by_rule["pre-printed field"].detail == "field A1 has the pre-printed 5"
    assert by_rule["pre-printed field"].detail_de == "in Feld A1 steht die vorgedruckte 5"
    assert by_rule["free fields"].detail_de == "in Feld A2 steht schon eine 3"
    assert by_rule["normal form"].detail == "write it as 1→C2, 1→D2 (fields in reading order; use Place.make)"
    assert by_rule["same colour"].detail_de == (f"die Felder {field_name(yellow)} (gelb) und {field_name(red)} (rot) "
                                                "haben nicht dieselbe Farbe")
    # a refusal without German (any other game, older code) falls back to English
    plain = IllegalActionError("some rule", "some detail")
    assert plain.detail_de is None and plain.detail_in("de") == "some detail" == plain.detail


def test_throw_first_and_end_of_game():
    state = Tuefteln(1).new_initial_state()
    rejects(state, Place(1, 1, 2, 1), "throw first")
    rejects(state, Throw(0, 7), "two dice")
    assert len(state.chance_outcomes()) == 36
    assert sum(p for _, p in state.chance_outcomes()) == 1


def test_players_take_turns_on_the_same_throw():
    state = started("A", players=3, throw=(2, 6))
    for p in range(3):
        assert state.current_player() == p
        assert state.observation(2)["throw"] == [2, 6]
        state.apply_action(state.legal_actions()[p])
    assert state.is_chance_node()


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), side=st.sampled_from("AB"),
       f1=st.integers(-3, 40), f2=st.integers(-3, 40), v1=st.integers(0, 7), v2=st.integers(0, 7))
def test_illegal_placements_change_nothing(seed, steps, side, f1, f2, v1, v2):
    state = Tuefteln(2, {"side": side}).new_initial_state()
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
    action = Place(f1, v1, f2, v2)
    before = state.snapshot()
    if action in state.legal_actions():
        state.apply_action(action)
        assert state.snapshot() != before
    else:
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(action)
        assert_bilingual(e.value)  # the reason in English and German
        assert state.snapshot() == before


# --- options, layouts, records ---------------------------------------------------------------------

def test_options():
    assert Tuefteln().options == {"side": "A", "descending_straights": False}
    assert Tuefteln().num_players == 1
    assert Tuefteln(15, {"side": "B", "descending_straights": "true"}).options["descending_straights"] is True
    for bad in ({"side": "C"}, {"side": "a"}, {"descending_straights": "vielleicht"}, {"colour": "A"}):
        with pytest.raises(OptionError):
            Tuefteln(1, bad)
    for n in (0, 16):
        with pytest.raises(OptionError):
            Tuefteln(n)
    assert registry.get_game_class("tuefteln") is Tuefteln and set(Tuefteln.name) == {"de", "en"}


def test_layout_files_are_data_with_provenance():
    for side in "AB":
        layout = load_layout(side)
        assert layout.provenance == "reconstruction"
        assert layout.rounds == 15
        assert sorted(v for v in layout.printed if v) == [1, 2, 3, 4, 5, 6]
    from importlib import resources
    data = json.loads(resources.files("spieltisch.games.tuefteln").joinpath("sheet_a.json").read_text("utf-8"))
    assert data["why"]
    broken = dict(data, bridges=data["bridges"][:-1])  # a blue field without a partner
    with pytest.raises(ValueError, match="blue"):
        Layout(broken)
    odd = dict(data, rows=["5 B B B B W", "W W W W 6 B", "W 1 3 W W B", "B W W B B 4", "B B B B B W", "W W W 2 W 1"])
    with pytest.raises(ValueError, match="odd"):
        Layout(odd)


def test_action_text_and_json():
    a = Place.make((4, 4), 5, (2, 0), 3)
    assert str(a) == "3→A3, 5→E5"
    assert a.label("de") == a.label("en") == "3→A3, 5→E5"  # fields named as on the sheet
    assert Throw(4, 5).label("de") == "Wurf 4 und 5" and Throw(4, 5).label("en") == "throw 4 and 5"
    assert str(Place(-1, 1, 1.5, 2)) == "1→-1, 2→1.5"  # a refused action can always be named
    assert a.to_json() == [[2, 0, 3], [4, 4, 5]]  # records keep row and column numbers
    assert Throw(3, 5).to_json() == [3, 5]


def test_observation_and_render():
    state = started("A", players=2)
    obs = state.observation(1)
    json.dumps(obs)
    assert obs["throw"] == [3, 5] and obs["to_move"] == 0 and obs["round"] == 1
    assert obs["sheets"][0]["fields"][0][0] == 5 and len(obs["sheets"]) == 2
    text = state.render()
    assert "[5]" in text and "+-------+-------+-------+" in text and "side A" in text
    assert "Seite A" in state.render(lang="de")
    assert text.endswith("Round 1/15, throw 3 and 5 (thrown by player 1): player 1 writes")
    assert "Player 2 (you)" in state.render(1) and "(you)" not in text
    b = started("B")
    assert " y " in b.render() and str(b) == b.render()


def test_render_reads_only_the_observation():
    """The text is drawn from the observation and the layout alone: it follows a changed
    observation, and a change to the state that the observation does not carry is not in it."""
    state = started("A", players=2)
    obs = state.observation(None)
    assert state.game.render_observation(obs, "de") == state.render(lang="de")
    obs["sheets"][1]["score"] = 99
    assert "Summe: 99" in state.game.render_observation(obs, "de")
    state.sheets[0][6] = 4  # not in obs: the rendering of obs does not show it
    assert state.game.render_observation(state.observation(None), "en") != state.game.render_observation(obs, "en")


def test_spectator_sees_all_sheets_and_the_throw():
    """Everything in Tüfteln is public except the throws to come: the spectator's view is every
    player's view with ``player`` None."""
    state = started("A", players=3, throw=(2, 6))
    state.apply_action(state.legal_actions()[0])
    spectator = state.observation(None)
    assert spectator["player"] is None and spectator["throw"] == [2, 6]
    for p in range(3):
        assert {**state.observation(p), "player": None} == spectator
    assert "(you)" not in state.render() and "player 2 writes" in state.render()
    with pytest.raises(ValueError):
        state.observation(3)


def test_the_thrower_rotates_clockwise():
    """Round r (0-based) is thrown by player r mod n: the chance node belongs to that player, and
    the observation names the thrower of the throw being written."""
    state = Tuefteln(3).new_initial_state()
    throwers, seen = [], []
    rng = Rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            throwers.append(state.chance_player())
            assert state.observation(None)["thrower"] == throwers[-1]
            state.apply_action(state.sample_chance(rng))
        else:
            assert state.chance_player() is None
            seen.append(state.observation(state.current_player())["thrower"])
            state.apply_action(state.legal_actions()[0])
    assert throwers == [r % 3 for r in range(15)]
    assert seen == [r % 3 for r in range(15) for _ in range(3)]
    assert state.chance_player() is None and state.observation(0)["thrower"] is None
    assert Tuefteln(1).new_initial_state().chance_player() == 0
    assert "Runde 1/15: Spieler 1 würfelt" in Tuefteln(2).new_initial_state().render(lang="de")


def test_records_replay(registered):
    for side in "AB":
        for n in (1, 2, 5):
            check_game("tuefteln", n, {"side": side}, seed=n, check_all_actions=n == 1)


def test_conformance_with_descending_straights(registered):
    check_game("tuefteln", 2, {"side": "B", "descending_straights": True}, seed=3)


# --- bots ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["greedy", "strong"])
def test_bots_play_legal_and_beat_random(registered, name):
    from spieltisch.core.simulate import simulate

    res = simulate("tuefteln", 1, [name], games=20, seed=1, options={"side": "B"})
    ran = simulate("tuefteln", 1, ["random"], games=20, seed=1, options={"side": "B"})
    assert res.mean_score[0].mean > ran.mean_score[0].mean + 10
    assert set(Tuefteln.bots) >= {"greedy", "strong"}


def test_bots_see_only_the_observation():
    game = Tuefteln(2)
    state = game.new_initial_state()
    state.apply_action(Throw(6, 6))
    bot = bots.strong(game)
    a = bot.act(state.observation(0), state.legal_actions(), Rng(0))
    assert a in state.legal_actions()


# --- analysis --------------------------------------------------------------------------------------

def brute_force(descending: bool) -> dict:
    """Independent classification of all 6^4 squares from the rulebook's wording."""
    counts = Counter()
    ortho = [(0, 1), (1, 2), (2, 3), (3, 0)]
    diag = [(0, 2), (1, 3)]
    for v in product(range(1, 7), repeat=4):
        shape = sorted(Counter(v).values())
        if shape == [4]:
            c = "four"
        elif shape == [1, 3]:
            c = "none"
        elif shape == [2, 2]:
            c = "cross" if all(v[i] == v[j] for i, j in diag) else "two_pairs"
        elif shape == [1, 1, 2]:
            c = "pair" if any(v[i] == v[j] for i, j in ortho) else "none"
        else:
            steps = [(v[(k + 1) % 4] - v[k]) for k in range(4)]
            up = sorted(steps) == [-3, 1, 1, 1]
            down = sorted(steps) == [-1, -1, -1, 3]
            c = "straight" if up or (descending and down) else "mix"
        counts[c] += 1
    return {c: Fraction(counts[c], 1296) for c in scoring.ALL_NAMES}


@pytest.mark.parametrize("descending", [False, True])
def test_exact_square_probabilities(descending):
    exact = analysis.square_category_probabilities(descending)
    assert exact == brute_force(descending)
    assert sum(exact.values()) == 1
    assert exact["four"] == Fraction(1, 216) and exact["cross"] == Fraction(5, 216)
    assert exact["straight"] == (Fraction(1, 54) if descending else Fraction(1, 108))
    # a seeded simulation lands inside its 95% interval for every category
    rng, n = Rng(2024), 20000
    hits = Counter(scoring.category(*(rng.die() for _ in range(4)), descending) for _ in range(n))
    for c, p in exact.items():
        ci = proportion_ci(hits[c], n)
        assert ci.lo - 0.002 <= float(p) <= ci.hi + 0.002, (c, p, ci)


def test_analyze_json():
    result = Tuefteln(1, {"descending_straights": True}).analyze()
    json.dumps(result)
    probs = result["square_category_probabilities"]
    assert set(probs) == set(scoring.ALL_NAMES)
    assert probs["straight"]["fraction"] == "1/54"
    assert math.isclose(sum(p["float"] for p in probs.values()), 1.0)


def test_advise_rates_every_placement():
    state = started("A", players=2, throw=(2, 2))
    state.apply_action(state.legal_actions()[0])  # player 1 writes; player 2 is advised
    advice = state.game.advise(state.observation(1), n_rollouts=2)
    assert sorted(o.action for o in advice.options) == sorted(state.legal_actions())
    starred = [o.value.mean for o in advice.options if o.best]
    others = [o.value.mean for o in advice.options if not o.best]
    assert starred == sorted(starred, reverse=True) and others == sorted(others, reverse=True)
    assert not advice.exact
    assert all(o.value.lo <= o.value.mean <= o.value.hi for o in advice.options)
    # ties within the uncertainty are shown as ties (paired differences over the same throws), the
    # starred options first
    stars = [o.best for o in advice.options]
    assert stars[0] and not all(stars) and stars == sorted(stars, reverse=True)


def test_advise_reports_progress_and_the_same_results():
    """``progress(done, total)`` after every placement screened and every finalist played on,
    counting up to their number; passing it changes nothing in the advice (same numbers, same order)."""
    state = started("B", throw=(2, 5))
    calls = []
    obs = state.observation(0)
    with_progress = state.game.advise(obs, n_rollouts=6, screen=2, finalists=3, seed=7,
                                      progress=lambda d, t: calls.append((d, t)))
    without = state.game.advise(obs, n_rollouts=6, screen=2, finalists=3, seed=7)
    total = len(state.legal_actions()) + 3
    assert calls[-1] == (total, total) and all(t == total for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and len(calls) >= total - 2
    assert with_progress == without


# --- the view ---------------------------------------------------------------------------------------

def test_view_draws_a_sheet_from_the_observation():
    """The game's view needs the observation only: the written numbers and the observation's square
    categories (which follow the descending-straights option) are on the picture."""
    import xml.dom.minidom

    from spieltisch.games.tuefteln import view

    assert Tuefteln.view == "spieltisch.games.tuefteln.view:TueftelnView"
    game = Tuefteln(2, {"side": "A", "descending_straights": True})
    state = game.new_initial_state()
    # square 1 becomes 5 4 / 2 3: clockwise 5-4-3-2, a straight only with descending straights
    state.apply_action(Throw(4, 6))
    for p in range(2):
        state.apply_action(Place.make((0, 1), 4, (0, 2), 6))  # the bridge B1–C1
    state.apply_action(Throw(2, 3))
    state.apply_action(Place.make((1, 0), 2, (1, 1), 3))  # A2, B2
    spectator = state.observation(None)
    text = view.observation_svg(spectator, 0, lang="en")
    xml.dom.minidom.parseString(text)
    assert view.observation_fields(spectator, 0)[:8] == [5, 4, 6, 0, 0, 0, 2, 3]
    cats = [sq["category"] for sq in spectator["sheets"][0]["squares"]]
    assert text == view.sheet_svg("A", view.observation_fields(spectator, 0), cats, lang="en")
    assert view.observation_svg(state.observation(1), lang="en") == view.observation_svg(spectator, 1, lang="en")
    assert cats[0] == "straight" and ">straight 6<" in text and ">Mix 1<" not in text
    # the same numbers without the option's categories would be drawn as a mix
    assert ">Mix 1<" in view.sheet_svg("A", view.observation_fields(spectator, 0), lang="en")
