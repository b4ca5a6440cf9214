"""Both Würfel Joker games: a start that ties again and again (a record may hold any number of tied
start throws) is kept correctly, apart in clones, and replays to the same position; the tie-break
reads only the last start round. Its speed (linear in the throws) is measured in
benchmarks/replay.py, not asserted here."""

from __future__ import annotations

import json

import pytest

from spieltisch import Match
from spieltisch.core.game import SPECTATOR
from spieltisch.games.wuerfel_joker import start as start_rules

GAMES = {"wuerfel-joker-1": ["start", 1, 1, 1], "wuerfel-joker-2": ["start", 1, 1]}


def tied(game_id, n, players=2):
    record = Match(game_id, players, {"rounds": 1}, 7).to_record()
    record["actions"] = [GAMES[game_id]] * n
    return Match.from_json(json.dumps(record))


@pytest.mark.parametrize("game_id", GAMES)
def test_thousands_of_tied_start_throws_replay_and_the_start_goes_on(game_id):
    m = tied(game_id, 3000)
    obs = m.state.observation(SPECTATOR)
    assert obs["starter"] is None and obs["start_throwers"] == [0, 1]
    assert len(obs["start_throws"]) == 3000 and obs["start_throws"][-1]["round"] == 1500
    assert [t["player"] for t in obs["start_throws"][:4]] == [0, 1, 0, 1]
    # a clone in the start phase is a copy: what it throws next is its own
    twin = m.state.clone()
    twin.apply_action(twin.legal_actions()[-1])  # player 1's (the first thrower's) six
    assert len(m.state.observation(SPECTATOR)["start_throws"]) == 3000
    # the tie is broken: the higher sum of the last round begins, and the record replays alike
    high, low = m.legal_actions()[-1], m.legal_actions()[0]
    m.apply(low)
    m.apply(high)
    assert m.state.first == 1 and m.state.observation(SPECTATOR)["starter"] == 1
    assert type(m.state.start) is tuple  # settled: clones share it
    again = Match.from_json(m.to_json())
    assert again.state.snapshot() == m.state.snapshot() and again.to_json() == m.to_json()


def test_the_tie_break_reads_only_the_last_round():
    # round 1: 0 and 1 tie on 18, 2 has 3; round 2: 0 has 4, 1 has 4 (tie again); round 3: 1 wins
    throws = [(1, 0, (6, 6, 6)), (1, 1, (6, 6, 6)), (1, 2, (1, 1, 1))]
    assert start_rules.after_throw(throws, 1, (2,)) == ((0, 1), 2, None)
    throws += [(2, 0, (1, 1, 2)), (2, 1, (2, 1, 1))]
    assert start_rules.after_throw(throws, 2, (1,)) == ((0, 1), 3, None)
    throws += [(3, 0, (1, 1, 1)), (3, 1, (1, 1, 2))]
    assert start_rules.after_throw(throws, 3, (1,)) == ((), 3, 1)
    assert start_rules.after_throw(tuple(throws), 3, (1,)) == ((), 3, 1)  # a tuple as well
    assert start_rules.after_throw(throws, 3, (0, 1)) == ((1,), 3, None)  # someone still to throw
