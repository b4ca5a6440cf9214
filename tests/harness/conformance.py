"""The generic conformance checks every registered game must pass.

Seeded random playthroughs that check, at every state: a non-terminal state has legal actions,
every legal action applies, chance outcomes are a probability distribution, random illegal actions
are rejected with the state unchanged, observations are JSON data identical for any seed (so they
leak nothing of the future), and at the end: record -> JSON -> replay reproduces every state,
undo restores the previous state, scores and winners are well formed.
"""

from __future__ import annotations

import json
from fractions import Fraction

from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import CHANCE, TERMINAL
from spieltisch.core.match import Match
from spieltisch.core.registry import get_game_class
from spieltisch.core.rng import Rng

JUNK = [None, 0, -1, "stop", "", ("x",), 3.5, object()]


def configs(game_id: str) -> list[tuple[int, dict]]:
    cls = get_game_class(game_id)
    if cls.test_configs:
        out = list(cls.test_configs)
    else:
        out = [(n, {}) for n in sorted({cls.min_players, cls.default_players, cls.max_players})]
    short = {"rounds": 2} if any(o.name == "rounds" for o in cls.option_specs) else {}
    return [(n, {**short, **opts}) for n, opts in out]


def playthrough(game_id, players, options, seed, *, check_all_actions: bool):
    """One random game, checking every state. Returns the finished match and the trajectory."""
    match = Match(game_id, players, options, seed)
    rng = Rng(seed + 1)
    snapshots = [match.state.snapshot()]
    observations = [[match.state.observation(p) for p in range(players)]]
    pool: list = []
    for step in range(200_000):
        state = match.state
        p = state.current_player()
        assert p == TERMINAL or p == CHANCE or 0 <= p < players, f"bad current player {p}"
        if p == TERMINAL:
            assert state.legal_actions() == []
            break
        legal = state.legal_actions()
        assert legal, f"non-terminal state without legal actions:\n{state}"
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            assert all(isinstance(q, Fraction) and q > 0 for _, q in outcomes)
            assert sum(q for _, q in outcomes) == 1, "chance probabilities must sum to exactly 1"
        for a in legal:
            json.dumps(a.to_json())
            assert str(a)
        # every legal action applies (all of them early on, one random one later)
        original = state.snapshot()
        for a in (legal if check_all_actions else [legal[rng.below(len(legal))]]):
            c = state.clone()
            c.apply_action(a)
            assert state.snapshot() == original, f"playing {a} on a clone changed the original"
        # illegal actions: junk and actions seen elsewhere that are not legal here
        before = state.snapshot()
        candidates = JUNK + [pool[rng.below(len(pool))] for _ in range(3)] if pool else JUNK
        for bad in candidates:
            if bad in legal:
                continue
            try:
                state.apply_action(bad)
            except IllegalActionError as e:
                assert isinstance(e, ValueError) and e.rule, "error must name a rule"
            else:
                raise AssertionError(f"illegal action {bad!r} was accepted")
            assert state.snapshot() == before, f"rejected {bad!r} changed the state"
        if p == CHANCE:
            match.step_chance()
        else:
            a = legal[rng.below(len(legal))]
            match.apply(a)
        pool.extend(legal[:5])
        if len(pool) > 200:
            del pool[:100]
        snapshots.append(match.state.snapshot())
        observations.append([match.state.observation(q) for q in range(players)])
    else:
        raise AssertionError("game did not end")
    return match, snapshots, observations


def check_game(game_id, players, options, seed, *, check_all_actions=False):
    match, snapshots, observations = playthrough(game_id, players, options, seed,
                                                 check_all_actions=check_all_actions)
    state = match.state
    scores = state.scores()
    assert len(scores) == players
    winners = state.winners()
    assert winners and all(0 <= w < players for w in winners)
    assert all(scores[w] == max(scores) for w in winners)

    # record -> JSON -> replay reproduces every state, bit for bit
    text = match.to_json()
    replayed = Match.from_json(text)
    assert replayed.state.snapshot() == snapshots[-1]
    assert replayed.to_json() == text
    step = Match(game_id, players, options, seed)
    for i, a in enumerate(json.loads(text)["actions"]):
        step._replay_one(i, a)
        assert step.state.snapshot() == snapshots[i + 1]

    # observations are JSON data and do not depend on the seed (no hidden future in them)
    record = json.loads(text)
    other = Match.from_record(dict(record, seed=seed + 7919))
    json.dumps(observations[-1])
    assert [other.state.observation(q) for q in range(players)] == observations[-1]
    for obs in observations:
        json.dumps(obs)

    # undo the last player action: the state is the one before it
    movers = match.movers
    last = max(i for i, m in enumerate(movers) if m != CHANCE)
    match.undo()
    assert match.state.snapshot() == snapshots[last]
    return match
