"""The hostile inputs found against the Python API, each refused before any change.

Generic property tests for every game live in tests/test_properties.py; these are the concrete cases
that once got through (look-alike actions, a float die poisoning a process-wide cache)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from spieltisch import Match
from spieltisch.core.errors import IllegalActionError
from spieltisch.games.wuerfel_joker.spiel1.engine import Assign, Dice
from spieltisch.games.wuerfel_joker.spiel2.engine import Push, Throw


def at_first_decision(game_id, seed=0):
    m = Match(game_id, 1, {"rounds": 2}, seed)
    m.resolve_chance()
    return m


def refused_unchanged(m, action):
    before, record = m.state.snapshot(), m.to_json()
    with pytest.raises(IllegalActionError) as err:
        m.apply(action)
    assert m.state.snapshot() == before and m.to_json() == record
    assert err.value.detail_de and err.value.rule_de
    return err.value


def test_a_float_die_is_refused_and_poisons_nothing():
    m = Match("wuerfel-joker-1", 1, {"rounds": 2}, 0)
    err = refused_unchanged(m, Dice((1.0, 2.0, 3.0)))
    assert err.rule == "exact values"
    refused_unchanged(m, Dice((True, 2, 3)))
    # an honest match in the same process still pushes, and its record replays in a fresh process
    m.apply(Dice((1, 2, 3)))
    assert all(type(v) is int for a in m.legal_actions() for v in a.pushed)
    m.apply(m.legal_actions()[0])
    assert m.state.pushed
    code = ("import sys, json; from spieltisch import Match; m = Match.from_json(sys.stdin.read()); "
            "print(json.dumps(m.to_json()))")
    out = subprocess.run([sys.executable, "-c", code], input=m.to_json(), capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert json.loads(out) == m.to_json()


@pytest.mark.parametrize("make", [
    lambda m: Push(True), lambda m: Push(2.0), lambda m: Push(-1), lambda m: Push("2"), lambda m: Push(10**100),
    lambda m: Throw(True, 1), lambda m: Throw(1.0, 1), lambda m: Throw(7, 1), lambda m: Assign((5.0,), 1),
    lambda m: None, lambda m: "push 3", lambda m: ["push", 3],
])
def test_look_alikes_in_wuerfel_joker_2_are_refused_before_any_change(make):
    m = at_first_decision("wuerfel-joker-2", seed=4)
    refused_unchanged(m, make(m))
    # and the match goes on: a legal move still works, the record replays
    m.apply(m.legal_actions()[0])
    assert Match.from_json(m.to_json()).to_json() == m.to_json()


def test_a_look_alike_of_a_legal_push_names_the_type_problem():
    m = at_first_decision("wuerfel-joker-2", seed=4)
    legal = m.legal_actions()[0]
    err = refused_unchanged(m, Push(float(legal.value)))
    assert err.rule == "exact values" and "type" in str(err)


def test_the_assignment_cache_takes_only_exact_values():
    from spieltisch.core.errors import SpieltischError
    from spieltisch.games.wuerfel_joker.spiel1 import engine

    for throw, free in [((1.0, 2.0, 3.0), 63), ((True, 2, 3), 63), ((1, 2, 3), 63.0), ((1, 2, 7), 63),
                        ((1, 2, 3, 4), 63), ([1, 2, 3], 63), ((1, 2, 3), 64)]:
        engine._BY_THROW.pop((throw, free), None) if isinstance(throw, tuple) else None
        engine._BY_THROW.pop(((1, 2, 3), 63), None)  # make sure the look-alike would have been a miss
        with pytest.raises(SpieltischError):
            engine.assignments(throw, free)
    honest = engine.assignments((1, 2, 3), 63)
    assert honest and all(type(v) is int for a in honest for v in a.pushed)


# --- look-alikes field by field: the cases of the hidden-information issue ------------------------
def unchanged_refusal(m, action, *words):
    """``action`` is refused by ``Match.apply`` with the rule "exact values" and a message naming
    ``words``; the position, the record and the generator are as before."""
    from harness.properties import rng_future

    before, record, future = m.state.snapshot(), m.to_json(), rng_future(m.rng)
    err = refused_unchanged(m, action)
    assert rng_future(m.rng) == future and m.to_json() == record and m.state.snapshot() == before
    assert err.rule == "exact values", str(err)
    for w in words:
        assert w in str(err), str(err)
    return err


class Dice3(tuple):
    """A tuple subclass: prints, compares and is recorded like the tuple."""


def test_a_throw_of_a_list_or_a_tuple_subclass_is_refused_before_the_dice_roll():
    m = Match("wuerfel-joker-1", 1, {"rounds": 2}, 0)
    unchanged_refusal(m, Dice([1, 2, 3]), "values is a list where the game has a tuple")
    unchanged_refusal(m, Dice(Dice3((1, 2, 3))), "values is Dice3 (a subclass of tuple)")
    m.apply(Dice((1, 2, 3)))  # the game goes on, with the throw it was given
    assert m.state.throw == (1, 2, 3) and type(m.state.throw) is tuple
    assert Match.from_json(m.to_json()).state.snapshot() == m.state.snapshot()


def test_a_start_throw_of_a_list_is_refused_and_the_record_replays_alike():
    from spieltisch.games.wuerfel_joker.spiel1.engine import StartDice

    m = Match("wuerfel-joker-1", 2, {"rounds": 2}, 0)
    unchanged_refusal(m, StartDice([6, 6, 6]), "values is a list")
    m.apply(StartDice((6, 6, 6)))
    m.apply(StartDice((1, 1, 1)))
    assert m.state.first == 0 and all(type(d) is tuple for _, _, d in m.state.start)
    assert Match.from_json(m.to_json()).state.snapshot() == m.state.snapshot()


def _at_an_assignment():
    m = Match("wuerfel-joker-1", 1, {"rounds": 2}, 0)
    m.apply(Dice((1, 2, 4)))
    real = next(a for a in m.legal_actions() if a.pushed == (1, 2, 4))
    return m, real


def _bare_assign(real, **changes):
    fields = {"pushed": real.pushed, "keep": real.keep, "how": real.how, "mask": real.mask, **changes}
    a = object.__new__(Assign)
    for name, value in fields.items():
        object.__setattr__(a, name, value)
    return a


@pytest.mark.parametrize("mask, words", [
    (11.0, "mask is a float where the game has an int"), ("11", "mask is a text"), (None, "mask is None"),
    (-1, "mask is -1 where the game has 11"), (2**64, "mask is 18446744073709551616 where the game has 11"),
])
def test_an_assignment_built_without_its_constructor_with_another_mask_is_refused(mask, words):
    m, real = _at_an_assignment()
    assert real.mask == 11  # slides 1, 2 and 4
    unchanged_refusal(m, _bare_assign(real, mask=mask), words)


def test_an_assignment_built_without_its_constructor_is_the_action_if_it_is_what_the_class_builds():
    m, real = _at_an_assignment()
    short = next(a for a in m.legal_actions() if a.pushed == (1, 2))  # 1 and 2 pushed, the 4 kept
    unchanged_refusal(m, _bare_assign(real, pushed=(1, 2), keep=short.keep), "mask is 11 where the game has 3")
    unchanged_refusal(m, _bare_assign(real, pushed=[1, 2, 4]), "pushed is a list")
    m.apply(_bare_assign(real))  # every field as the constructor makes it: the action itself
    assert m.state.pushed == 11 and m.actions[-1] is real  # the game's own object is recorded


def _first_legal(game_id, players, options, kind, seed=0):
    from spieltisch.core.game import CHANCE
    from spieltisch.core.rng import Rng

    m = Match(game_id, players, options, seed)
    rng = Rng(seed)
    while not m.is_terminal():
        legal = m.legal_actions()
        found = [a for a in legal if type(a).__name__ == kind]
        if found:
            return m, found[0]
        if m.current_player() == CHANCE:
            m.step_chance()
        else:
            m.apply(legal[rng.below(len(legal))])
    raise AssertionError(f"no {kind} in a seeded game of {game_id}")


@pytest.mark.parametrize("game_id, players, options, kind, field", [
    ("scratch-island", 2, {"rounds": 1}, "Place", "cells"),
    ("schraube-locker", 2, {"stack_size": 3}, "Secure", "cards"),
])
def test_a_list_where_the_action_holds_a_tuple_is_refused(game_id, players, options, kind, field):
    import dataclasses

    m, real = _first_legal(game_id, players, options, kind)
    value = list(getattr(real, field))
    bad = real._replace(**{field: value}) if hasattr(real, "_replace") else dataclasses.replace(real, **{field: value})
    unchanged_refusal(m, bad, f"{field} is a list where the game has a tuple")
    m.apply(real)
    assert type(getattr(m.actions[-1], field)) is tuple
    assert Match.from_json(m.to_json()).state.snapshot() == m.state.snapshot()


def test_state_is_legal_compares_field_by_field():
    m, real = _at_an_assignment()
    state = m.state
    assert state.is_legal(real) and state.is_legal(Assign(real.pushed, real.keep))
    for bad in (_bare_assign(real, mask=-1), _bare_assign(real, pushed=[1, 2, 4]), _bare_assign(real, keep=True),
                _bare_assign(real, keep=3.0), _bare_assign(real, pushed=Dice3((1, 2, 4)))):
        assert not state.is_legal(bad)
    assert state.is_legal(Assign(Dice3((1, 2, 4)), 3))  # the constructor makes it a tuple
    missing = object.__new__(Assign)  # no field set at all
    assert not state.is_legal(missing)
    with pytest.raises(IllegalActionError):
        state.apply_action(missing)


# --- events of the Play page: bounded before they are parsed ---------------------------------------
@pytest.mark.parametrize("event, words", [
    ("[" * 100_000, "too large"), ("[" * 5_000, "nested too deeply"), ('{"type": ' * 20 + "1" + "}" * 20, "nested too deeply"),
    ('{"type": "act"', "not valid JSON"),
])
def test_a_hostile_event_is_refused_in_the_message_line(event, words):
    from spieltisch.ui.table import Table

    table = Table("wuerfel-joker-1", players=2, seed=3)
    before, record = table.session.state.snapshot(), table.session.match.to_json()
    table.handle(event)
    assert table.message["kind"] == "refused" and words in table.message["text"]["en"]
    assert "Ereignis abgelehnt" in table.message["text"]["de"]
    assert table.session.state.snapshot() == before and table.session.match.to_json() == record
    table.handle('{"type": "lang", "lang": "de"}')  # and the table goes on
    assert table.lang == "de"


# --- the advisor's input ---------------------------------------------------------------------------
ADVICE_SETTINGS = {"tuefteln": {"n_rollouts": 2, "screen": 1, "finalists": 1}, "skip-bo-masters": {"n_rollouts": 2}}


def _decisions(game_id, seeds=(0, 1), every=5):
    """Observations of the player to move at some decisions of seeded random games (default options)."""
    from spieltisch.core.game import CHANCE
    from spieltisch.core.rng import Rng

    out = []
    for seed in seeds:
        m = Match(game_id, None, None, seed)
        rng = Rng(seed)
        while not m.is_terminal():
            p = m.current_player()
            if p == CHANCE:
                m.step_chance()
                continue
            legal = m.legal_actions()
            if len(legal) > 1 and rng.below(every) == 0:
                out.append(m.state.observation(p))
            m.apply(legal[rng.below(len(legal))])
    return out[:8]


def _mutations(obs, rng, n):
    """``n`` copies of ``obs`` each with one change somewhere: a key removed, a value of another kind,
    a list one item short."""
    import copy

    def places(v, path=()):
        yield path
        items = v.items() if isinstance(v, dict) else enumerate(v[:3]) if isinstance(v, list) else ()
        for k, x in items:
            yield from places(x, path + (k,))

    spots = [p for p in places(obs) if p]
    swaps = [None, "x", 1.5, [], {}, True, -1, 10**6, [[1]]]
    for _ in range(n):
        o = copy.deepcopy(obs)
        path = spots[rng.below(len(spots))]
        parent = o
        for k in path[:-1]:
            parent = parent[k]
        k, kind = path[-1], rng.below(3)
        if kind == 0 and isinstance(parent, dict):
            del parent[k]
        elif kind == 2 and isinstance(parent[k], list) and parent[k]:
            parent[k] = parent[k][:-1]
        else:
            parent[k] = swaps[rng.below(len(swaps))]
        yield path, o


@pytest.mark.parametrize("game_id", ["schraube-locker", "scratch-island", "skip-bo-masters", "tuefteln",
                                     "wuerfel-joker-1", "wuerfel-joker-2"])
def test_malformed_observations_get_a_clear_error(game_id):
    from spieltisch.core.errors import SpieltischError
    from spieltisch.core.registry import get_game_class
    from spieltisch.core.rng import Rng

    game = get_game_class(game_id)()
    rng = Rng(2024)
    settings = ADVICE_SETTINGS.get(game_id, {})
    observations = _decisions(game_id)
    assert observations
    refused = 0
    for obs in observations:
        assert game.advise(obs, **settings).options  # the real one is advised
        for path, bad in _mutations(obs, rng, 12):
            try:
                game.advise(bad, **settings)
            except SpieltischError as e:
                refused += 1
                assert 0 < len(str(e)) < 500, (path, e)
            except Exception as e:  # noqa: BLE001 - the failure looked for
                raise AssertionError(f"{game_id}: changing {path} gave {type(e).__name__}: {e}") from e
    assert refused > 0


def test_a_malformed_observation_is_refused_before_the_advisor_starts(monkeypatch):
    from harness.properties import nested
    from spieltisch.core.errors import SpieltischError
    from spieltisch.core.registry import get_game_class

    game = get_game_class("tuefteln")()
    obs = _decisions("tuefteln")[0]
    calls = []
    monkeypatch.setattr(type(game), "advisor", staticmethod(lambda *a, **k: calls.append(a)))
    for bad, words in (({k: v for k, v in obs.items() if k != "sheets"}, "it lacks 'sheets'"),
                       (dict(obs, round="many"), "round is a text where the game's observations have a whole number"),
                       (dict(obs, throw=5), "throw is a whole number where the game's observations have a list"),
                       (dict(obs, sheets=[[1]] + obs["sheets"][1:]), r"sheets\[0\] is a list where .* a mapping"),
                       (dict(obs, extra=object()), "extra is <object object at .*>, not JSON data"),
                       (dict(obs, extra=nested(40)), "nested deeper than 32"),
                       (dict(obs, round=10**30), "round is a number too large"),
                       ([obs], r"\[\{.*\.\.\. is not a mapping")):
        with pytest.raises(SpieltischError, match=f"not an observation of tuefteln: {words}"):
            game.advise(bad)
    with pytest.raises(SpieltischError, match="takes no setting 'rollouts'"):
        game.advise(obs, rollouts=3)
    assert calls == []
    game.advise(obs)  # a real observation reaches the advisor
    assert len(calls) == 1


# --- review: the advisor's bounds come before any progress ------------------------------------------
def _skip_bo_record(tmp_path):
    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng

    m = Match("skip-bo-masters", 2, {"short_game": True, "stall_rounds": 6}, 1)
    m.play([make_bot(m.game, "greedy")] * 2, Rng(1))
    path = tmp_path / "skip-bo.json"
    path.write_text(m.to_json(), encoding="utf-8")
    return m, path


def test_review_refuses_a_playout_count_below_the_advisors_minimum_before_any_progress(tmp_path, capsys):
    from spieltisch.cli import main
    from spieltisch.core.advice import review
    from spieltisch.core.errors import SpieltischError

    m, path = _skip_bo_record(tmp_path)
    calls = []
    with pytest.raises(SpieltischError, match="plays each option out 2 to 10000 times, not 1"):
        review(m, lambda done, total: calls.append((done, total)), n_rollouts=1)
    assert calls == []
    part = review(m, lambda done, total: calls.append((done, total)), n_rollouts=2, limit=1)
    assert len(part) == 1 and calls == [(0, 1), (1, 1)]  # progress, once the advisor has taken its settings
    capsys.readouterr()
    assert main(["review", str(path), "--rollouts", "1"]) == 2
    err = capsys.readouterr().err
    assert err == "spieltisch: error: the advisor plays each option out 2 to 10000 times, not 1\n"


def test_the_limits_document_names_each_advisors_playout_range():
    from pathlib import Path

    from spieltisch import game_ids
    from spieltisch.core.advice import MAX_ROLLOUTS, advisor_settings
    from spieltisch.core.errors import SpieltischError
    from spieltisch.core.registry import get_game_class

    def accepts(game, obs, n):
        try:
            game.advise(obs, **{**ADVICE_SETTINGS.get(game.id, {}), "n_rollouts": n})
        except SpieltischError as e:
            assert "each option out" in str(e)
            return False
        return True

    text = (Path(__file__).parents[1] / "docs" / "limits.md").read_text(encoding="utf-8")
    for game_id in game_ids():
        game = get_game_class(game_id)()
        if "n_rollouts" not in (advisor_settings(game) or set()):
            assert f"| `{game_id}` | exact values: no playouts |" in text
            continue
        obs = _decisions(game_id)[0]
        low = next(n for n in (1, 2, 3) if accepts(game, obs, n))
        assert not accepts(game, obs, MAX_ROLLOUTS + 1)
        assert f"| `{game_id}` | {low} to {MAX_ROLLOUTS:,} |" in text
