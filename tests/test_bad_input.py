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
