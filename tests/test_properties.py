"""Bad input cannot hurt, chosen chance outcomes and round trips: property tests (hypothesis) of the
generic harness (tests/harness/properties.py) for every registered game and the toy games, so a
new game gets them by registering. Toys with planted bugs (tests/harness/sloppytoy.py) show that
the properties catch what they are for.

The hypothesis profile is derandomized (the same examples on every run and machine) and small: a
position is reached by a seeded random policy, hypothesis picks the game's seed, how far it is
played, how often chance outcomes are chosen instead of drawn, and what is thrown at the position.
"""

import json
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from harness.conformance import configs
from harness.hiddentoy import HiddenToy
from harness.properties import (
    HOSTILE,
    MAX_MESSAGE,
    action_classes,
    built_by_its_class,
    check_candidate,
    check_chosen_outcome,
    check_look_alikes,
    check_refused,
    check_round_trip,
    check_same_as,
    check_tampered,
    check_undo,
    class_examples,
    exact_form,
    game_length,
    look_alikes,
    reach,
    same_legal,
    tampered,
)
from harness.sloppytoy import ChattyToy, ForgetfulToy, LoosePlay, PointsPlay, RecordFormToy, SloppyToy
from harness.toygame import Pig
from spieltisch import game_ids
from spieltisch.core import registry
from spieltisch.core.game import CHANCE, TERMINAL
from spieltisch.core.match import Match
from spieltisch.core.rng import Rng

TOYS = (Pig, HiddenToy)
PLANTED = (SloppyToy, ForgetfulToy, ChattyToy, RecordFormToy)
CASES = [(gid, n, opts) for gid in game_ids() for n, opts in configs(gid)] + [
    (Pig.id, 2, {"rounds": 2}), (HiddenToy.id, 2, {}), (HiddenToy.id, 3, {})]
IDS = [f"{g}-{n}p-{o}" for g, n, o in CASES]
EXAMPLES = 25


def profile(examples: int = EXAMPLES):
    # no shrinking: a failure's message already names the game, seed, position and value, and
    # shrinking a real game's failure costs a minute per case
    return settings(derandomize=True, database=None, max_examples=examples, deadline=None, print_blob=False,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module", autouse=True)
def toys():
    for cls in TOYS + PLANTED:
        registry.register(cls)
    yield
    for cls in TOYS + PLANTED:
        registry.unregister(cls.id)


def position(data, case):
    """A match somewhere in a game of ``case``: from the start to a little past the usual end."""
    game_id, players, options = case
    length = game_length(game_id, players, json.dumps(options, sort_keys=True))
    seed = data.draw(st.integers(0, 2**32), label="seed")
    steps = data.draw(st.integers(0, length + length // 8 + 1), label="steps")
    choose = data.draw(st.sampled_from([0, 1, 3]), label="choose 1 in (0: never)")
    return reach(game_id, players, options, seed, steps, choose) + (seed,)


@lru_cache(maxsize=None)
def action_pool(game_id, players, options_json):
    """Distinct chance outcomes and player actions met in two seeded games of this setting."""
    outcomes, moves, seen = [], [], set()
    for seed in (1, 2):
        match, _ = reach(game_id, players, json.loads(options_json), seed, 100_000, 3)
        replay = Match(game_id, players, json.loads(options_json), seed)
        for a in match.actions:
            p = replay.current_player()
            for b in replay.legal_actions()[:20]:
                form = exact_form(b)
                if form not in seen:
                    seen.add(form)
                    (outcomes if p == CHANCE else moves).append(b)
            replay.apply(a)
    return outcomes[:80], moves[:80]


def pool_of(case):
    game_id, players, options = case
    return action_pool(game_id, players, json.dumps(options, sort_keys=True))


# --- look-alikes --------------------------------------------------------------------------------
def look_alike_property(case):
    @profile()
    @given(data=st.data())
    def run(data):
        match, _, _ = position(data, case)
        if match.is_terminal():  # after the end every look-alike of a past move is refused as well
            outcomes, moves = pool_of(case)
            for a in (outcomes + moves)[:6]:
                check_look_alikes(match, a)
            return
        legal = match.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="legal action")]
        assert check_look_alikes(match, action) > 0
    return run


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_look_alikes_are_refused_or_the_same_action(case):
    look_alike_property(case)()


# --- every action class, built without its constructor and tampered with -------------------------
def tampered_property(game_id, configs_of_game):
    """Every action class met legal in seeded games of the game's settings: tampered copies of one
    (``check_tampered``) at a position where it is legal. Returns the classes checked."""
    checked = set()
    for players, options in configs_of_game:
        for cls, (text, index) in class_examples(game_id, players, options).items():
            if cls in checked:
                continue
            match = Match.from_json(text)
            action = match.legal_actions()[index]
            assert type(action) is cls
            assert check_tampered(match, action) > 0
            checked.add(cls)
    return checked


@pytest.mark.parametrize("game_id", game_ids())
def test_tampered_copies_of_every_action_class_are_refused(game_id):
    checked = tampered_property(game_id, configs(game_id))
    # every class the engine defines: met legal above, or one without fields (EndTurn, Accept) that
    # no seeded game reached: its copies are tried where it is not legal (all refused)
    for cls in sorted(action_classes(game_id) - checked, key=lambda c: c.__name__):
        match, _ = reach(game_id, *configs(game_id)[0], 0, 5, 0)
        assert check_tampered(match, cls()) > 0, f"{cls.__name__} was never legal in the seeded games"


@pytest.mark.parametrize("toy", TOYS)
def test_tampered_copies_of_the_toys_actions_are_refused(toy):
    assert tampered_property(toy.id, [(2, {})])


def test_tampered_property_fails_on_the_record_form_toy():
    # legality by class and record form: a play whose derived points were changed gets in
    with pytest.raises(AssertionError, match=r"tampered copy \(points .*\) of PointsPlay\(card=\d, points=\d\):"
                                             r" .* was accepted by State\.apply_action"):
        tampered_property(RecordFormToy.id, [(2, {})])


def test_tampered_copies_cover_every_field():
    from spieltisch.games.scratch_island.engine import Place
    from spieltisch.games.wuerfel_joker.spiel1.engine import Assign

    real = Assign((1, 6), 3, "2+4→6")
    whats = [w for w, _ in tampered(real)]
    for f in ("pushed", "keep", "how", "mask"):
        assert f"{f} missing" in whats and f"{f} None" in whats
    assert {"mask float", "mask text", "mask -1", "mask 2**64", "keep bool", "keep int subclass", "pushed list",
            "pushed tuple subclass", "pushed one item short", "pushed one item more", "pushed [0] float"} <= set(whats)
    # a changed mask is never what the class builds; the same action: the untouched copy, and one
    # with another display text (``how`` is no part of the action)
    assert not any(built_by_its_class(v) for w, v in tampered(real) if w.startswith("mask "))
    assert [w for w, v in tampered(real) if same_legal(v, [real]) is real] == ["built without __init__",
                                                                               "how other text"]
    cells = Place((93, 94, 95, 96))
    whats = [w for w, _ in tampered(cells)]
    assert {"one item short", "one item more", "cells list", "cells tuple subclass"} <= set(whats)
    assert [w for w, v in tampered(cells) if same_legal(v, [cells]) is cells] == ["built without __init__"]


# --- junk -----------------------------------------------------------------------------------------
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8)
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(2**80), 2**80), st.floats(),
    st.fractions(max_denominator=12), st.complex_numbers(max_magnitude=10), st.text(max_size=24),
    st.binary(max_size=12), st.tuples(st.integers(-2, 40), st.integers(-2, 40)),
    st.lists(st.integers(-2, 40), max_size=5), st.frozensets(st.integers(0, 6), max_size=3), JSONISH)


@pytest.mark.parametrize("case", CASES, ids=IDS)
@profile()
@given(data=st.data())
def test_junk_is_refused(case, data):
    match, _, _ = position(data, case)
    legal = match.legal_actions() or [a for pool in pool_of(case) for a in pool]
    like = legal[data.draw(st.integers(0, len(legal) - 1), label="mimicked action")]
    kind = data.draw(st.sampled_from(sorted(HOSTILE)), label="hostile value")
    check_candidate(match, HOSTILE[kind](like), f"hostile value ({kind}):")
    for value in data.draw(st.lists(JUNK, min_size=1, max_size=3), label="junk"):
        check_candidate(match, value, "junk:")


# --- right action, wrong place ------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
@profile()
@given(data=st.data())
def test_actions_of_other_positions_and_games(case, data):
    match, _, _ = position(data, case)
    outcomes, moves = pool_of(case)
    p = match.current_player()
    # the wrong kind of node first: a player's move while the dice roll, a throw while a player decides
    wrong = moves if p == CHANCE else outcomes if p != TERMINAL else outcomes + moves
    others = [a for c in CASES if c[0] != case[0] for a in sum(pool_of(c), [])]
    for what, pool in (("wrong node", wrong), ("other position", outcomes + moves), ("other game", others)):
        if pool:
            for a in data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2), label=what):
                check_candidate(match, a, f"{what}:")


# --- chance outcomes chosen instead of drawn ----------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
@profile()
@given(data=st.data())
def test_chosen_outcome_is_like_a_drawn_one(case, data):
    match, chosen, seed = position(data, case)
    rng = Rng(seed)
    while match.current_player() not in (CHANCE, TERMINAL):  # on to the next chance node
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))])
        chosen.append(False)
    if match.is_terminal():
        return
    index = data.draw(st.integers(0, len(match.legal_actions()) - 1), label="outcome")
    check_chosen_outcome(match, index, seed)
    # the live match, its replay and an undone-and-redone copy go on alike
    check_undo(match, chosen + [True], seed)
    check_round_trip(match, seed)


# --- record and undo ------------------------------------------------------------------------------
def round_trip_property(case):
    @profile()
    @given(data=st.data())
    def run(data):
        match, chosen, seed = position(data, case)
        check_round_trip(match, seed)
        check_undo(match, chosen, seed)
    return run


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_replay_and_undo_reproduce_the_match(case):
    round_trip_property(case)()


# --- the harness itself: what it generates, and planted bugs it must catch ----------------------
def test_look_alikes_cover_every_int_and_are_not_the_action():
    from spieltisch.games.tuefteln.engine import Place

    real = Place(0, 3, 1, 5)
    pairs = look_alikes(real)
    whats = [w for w, _ in pairs]
    for field in ("f1", "v1", "f2", "v2"):
        for kind in ("float", "bool True", "str", "huge", "negative"):
            assert f"field [{('f1', 'v1', 'f2', 'v2').index(field)}] {kind}" in whats
    assert {"subclass copy", "plain tuple", "list", "record form", "text"} <= set(whats)
    # a look-alike compares equal or prints the same, yet only f1 = -0 would be the action itself
    assert sum(same_legal(v, [real]) is not None for _, v in pairs) == 0
    assert same_legal(Place(0, 3, 1, 5), [real]) is real
    assert same_legal(Place(0, 3.0, 1, 5), [real]) is None and Place(0, 3.0, 1, 5) == real
    assert same_legal(tuple(real), [real]) is None and tuple(real) == real


def test_a_copy_that_is_the_action_must_apply_like_it():
    import dataclasses

    from spieltisch.games.wuerfel_joker.spiel1.engine import Assign

    m = Match("wuerfel-joker-1", 2, {"rounds": 2}, 3)
    while not any(isinstance(a, Assign) for a in m.legal_actions()):
        m.step_chance() if m.current_player() == CHANCE else m.apply(m.legal_actions()[0])
    real, before, history = m.legal_actions()[-1], m.state.snapshot(), len(m.actions)
    # ``mask`` is derived from ``pushed`` (the constructor sets it), ``how`` is no part of the action
    for twin in (Assign(real.pushed, real.keep), dataclasses.replace(real, mask=real.mask + 1.5),
                 Assign(tuple(reversed(real.pushed)), real.keep, how="another grouping")):
        assert same_legal(twin, m.legal_actions()) is real
        check_candidate(m, twin, "copy:")
    assert m.state.snapshot() == before and len(m.actions) == history  # tried on clones only
    honest = Match(HiddenToy.id, 2, {}, 0)
    honest.resolve_chance()
    real = honest.legal_actions()[0]
    other = type(real)(next(c for c in range(1, 6) if c not in honest.state.hands[0]))
    with pytest.raises(AssertionError, match=r"is type-exactly the legal .* but was refused: IllegalActionError"):
        check_same_as(honest, other, real, "copy:")


def sloppy_decision(seed=0):
    m = Match(SloppyToy.id, 2, {}, seed)
    m.resolve_chance()
    return m


def test_sloppy_toy_lets_a_float_look_alike_in():
    m = sloppy_decision()
    play = next(a for a in m.legal_actions() if isinstance(a, LoosePlay))
    with pytest.raises(AssertionError, match=r"look-alike \(field card float\) of LoosePlay\(card=\d\).* "
                                             r"was accepted by State\.apply_action"):
        check_look_alikes(m, play)
    honest = Match(HiddenToy.id, 2, {}, 0)
    honest.resolve_chance()
    assert check_look_alikes(honest, honest.legal_actions()[0]) >= 8


def test_look_alike_property_fails_on_the_sloppy_toy():
    with pytest.raises(AssertionError, match=r"look-alike \(field card \w+\) of (Draw|LoosePlay|LooseDiscard)"
                                             r"\(card=\d\): \w+\(card=.*\) was accepted by State\.apply_action"):
        look_alike_property((SloppyToy.id, 2, {}))()


def test_round_trip_property_fails_on_the_forgetful_toy():
    # the record of a play and of a discard of the same card are one; replay takes the first
    # (whichever check meets the shared record form first says so)
    bug = (r"two legal actions share a record form: \['\[\"card\", \d\]'|replay of the record: the positions differ"
           r"|2 legal actions have the record form \[\"card\", \d\]")
    with pytest.raises(AssertionError, match=bug):
        round_trip_property((ForgetfulToy.id, 2, {}))()


def test_refusal_that_echoes_the_input_fails():
    m = Match(ChattyToy.id, 2, {}, 0)
    m.resolve_chance()
    check_refused(m, "short", "junk:")
    with pytest.raises(AssertionError, match=rf"junk: 'xxx.*has \d+ characters \(at most {MAX_MESSAGE}"):
        check_refused(m, "x" * 1000, "junk:")


def test_refusal_checks_catch_an_accepted_or_crashing_value():
    m = sloppy_decision()
    play = next(a for a in m.legal_actions() if isinstance(a, LoosePlay))
    with pytest.raises(AssertionError, match=r"raised ValueError.* instead of IllegalActionError"):
        check_refused(m, LoosePlay(str(play.card)), "look-alike:")  # accepted by ``in``, then list.remove fails
    m = sloppy_decision()
    with pytest.raises(AssertionError, match=r"was accepted by State\.apply_action"):
        check_candidate(m, LoosePlay(float(play.card)), "look-alike:")
