"""The generic conformance checks every registered game must pass.

Seeded random playthroughs that check, at every state: a non-terminal state has legal actions,
every legal action applies and has a German and an English label, chance outcomes are a probability
distribution, random illegal and look-alike actions are refused with a German and an English rule
and detail and the state unchanged, every viewer's observation (the spectator's too) is JSON data,
a chance node's ``chance_player()`` is nobody or a seat; at sampled states, that every viewer's
rendering is a text in both languages and that no observation depends on what its viewer may not
see (``resample_hidden``); and at
the end: record -> JSON -> replay reproduces every state, observations are identical for any seed
(so they leak nothing of the future), undo restores the previous state, scores and winners are well
formed.
"""

from __future__ import annotations

import json
from fractions import Fraction

from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import CHANCE, SPECTATOR, TERMINAL
from spieltisch.core.match import Match
from spieltisch.core.registry import get_game_class
from spieltisch.core.rng import Rng

JUNK = [None, 0, -1, "stop", "", ("x",), 3.5, object()]
LANGS = ("de", "en")
# resamples per viewer at a checked state: a leak shows up in almost every resample of a state
# with something hidden, and the playthroughs check thousands of states
RESAMPLES = 2


def configs(game_id: str) -> list[tuple[int, dict]]:
    cls = get_game_class(game_id)
    if cls.test_configs:
        out = list(cls.test_configs)
    else:
        out = [(n, {}) for n in sorted({cls.min_players, cls.default_players, cls.max_players})]
    short = {"rounds": 2} if any(o.name == "rounds" for o in cls.option_specs) else {}
    return [(n, {**short, **opts}) for n, opts in out]


def viewers(players: int) -> list:
    return [*range(players), SPECTATOR]


def _who(viewer) -> str:
    return "SPECTATOR" if viewer is SPECTATOR else f"player {viewer}"


# --- single checks (each usable on its own, e.g. on a hand-built state) -------------------------
def check_labels(actions) -> None:
    """Every action (or chance outcome) has ``label(lang)``: a non-empty string in German and English."""
    for a in actions:
        label = getattr(a, "label", None)
        assert callable(label), f"{a!r} has no label(lang)"
        for lang in LANGS:
            text = label(lang)
            assert isinstance(text, str) and text.strip(), f"{a!r}.label({lang!r}) is {text!r}, not a text"


def check_refusal(error, action) -> None:
    """A refusal names its rule and says what is wrong, in English and in German."""
    assert isinstance(error, IllegalActionError) and isinstance(error, ValueError)
    missing = [f for f in ("rule", "detail", "rule_de", "detail_de")
               if not (isinstance(getattr(error, f), str) and getattr(error, f).strip())]
    assert not missing, (f"the refusal of {action!r} lacks {', '.join(missing)}: "
                         f"{error.message('en')!r} / {error.message('de')!r}")


def check_views(state, players: int, *, render: bool = True) -> None:
    """Every viewer's observation is JSON data (unchanged by a JSON round trip: no tuples, no
    non-string keys) and (``render``) renders as text in both languages; at a chance node,
    ``chance_player()`` is None or a seat."""
    for v in viewers(players):
        obs = state.observation(v)
        assert isinstance(obs, dict), f"observation({_who(v)}) is {type(obs).__name__}, not a dict"
        assert json.loads(json.dumps(obs)) == obs, f"observation({_who(v)}) is not JSON data: {obs!r}"
        for lang in LANGS if render else ():
            text = state.render(v, lang)
            assert isinstance(text, str) and text.strip(), f"render({_who(v)}, {lang!r}) gave {text!r}"
    if state.current_player() == CHANCE:
        cp = state.chance_player()
        assert cp is None or (type(cp) is int and 0 <= cp < players), f"chance_player() is {cp!r}"


def look_alikes(action) -> list:
    """Copies of an action (dataclass, NamedTuple) that compare equal to it but hold a float or a
    bool where it holds an int, also inside a tuple: the rules count whole numbers, so each must be
    refused. (tests/harness/properties.py throws many more kinds of look-alike at sampled states.)"""
    from harness.properties import variants  # it builds on this module

    out = []
    for _, twin in variants(action):
        # a constructor that turns the value back into an int made the same action, no look-alike
        try:
            if twin == action and _json_text(twin) != _json_text(action):
                out.append(twin)
        except (TypeError, ValueError):
            pass
    return out


def _json_text(action) -> str:
    return json.dumps(action.to_json(), sort_keys=True)


def _difference(a: dict, b: dict) -> str:
    keys = [k for k in sorted(set(a) | set(b), key=str) if a.get(k, "<absent>") != b.get(k, "<absent>")]
    return "; ".join(f"{k!r}: {a.get(k, '<absent>')!r} -> {b.get(k, '<absent>')!r}" for k in keys[:4])


def check_hidden_information(state, players: int, rng: Rng, resamples: int = RESAMPLES) -> int:
    """For every viewer (each seat and the spectator): redrawing what the viewer may not see
    (``resample_hidden``) leaves the viewer's observation, the public (spectator's) observation,
    whose move it is and, for the player to move, the legal actions as they were: none of them
    may depend on hidden parts. Returns how many resamples changed the full state (0 for a game of
    perfect information; a game with hidden parts must redraw them somewhere)."""
    before = state.snapshot()
    seen = {v: state.observation(v) for v in viewers(players)}
    mover = state.current_player()
    legal = state.legal_actions()
    changed = 0
    for v in viewers(players):
        for _ in range(resamples):
            other = state.resample_hidden(v, Rng(rng.spawn()))
            assert other is not state, "resample_hidden must return a new state"
            assert state.snapshot() == before, f"resample_hidden({_who(v)}) changed the state itself"
            got = other.observation(v)
            assert got == seen[v], (
                f"leak: observation({_who(v)}) depends on what {_who(v)} may not see; after "
                f"resample_hidden({_who(v)}) it changed: {_difference(seen[v], got)}")
            if v is not SPECTATOR:
                public = other.observation(SPECTATOR)
                assert public == seen[SPECTATOR], (
                    f"resample_hidden({_who(v)}) changed public information (observation(SPECTATOR)): "
                    f"{_difference(seen[SPECTATOR], public)}")
            assert other.current_player() == mover, f"resample_hidden({_who(v)}) changed whose move it is"
            if v is not SPECTATOR and v == mover:
                assert other.legal_actions() == legal, (
                    f"leak: the legal actions of {_who(v)}, who is to move, depend on what they may not see")
            if other.snapshot() != before:
                changed += 1
    return changed


# --- playthroughs --------------------------------------------------------------------------------
def playthrough(game_id, players, options, seed, *, check_all_actions: bool):
    """One random game, checking every state. Returns the finished match, the trajectory's
    snapshots and observations (every viewer's), and how many resamples of hidden parts changed
    the state."""
    match = Match(game_id, players, options, seed)
    rng = Rng(seed + 1)
    # a separate stream for the checks, so that adding a check does not change the game played
    check_rng = Rng(seed + 2**40)
    snapshots = [match.state.snapshot()]
    observations = [[match.state.observation(v) for v in viewers(players)]]
    pool: list = []
    resampled = 0
    for step in range(200_000):
        state = match.state
        p = state.current_player()
        assert p == TERMINAL or p == CHANCE or 0 <= p < players, f"bad current player {p}"
        # rendering and resampling at one state in four (every state in the thorough games): they
        # cost more than the rest of the checks together
        sampled = check_rng.below(4) == 0
        check_views(state, players, render=sampled)
        if sampled or check_all_actions:
            resampled += check_hidden_information(state, players, check_rng)
        if p == TERMINAL:
            assert state.legal_actions() == []
            for bad in pool[-2:]:
                try:
                    state.apply_action(bad)
                except IllegalActionError as e:
                    check_refusal(e, bad)
                else:
                    raise AssertionError(f"{bad!r} was accepted after the end of the game")
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
        check_labels(legal)
        # every legal action applies (all of them early on, one random one later)
        original = state.snapshot()
        for a in (legal if check_all_actions else [legal[rng.below(len(legal))]]):
            c = state.clone()
            c.apply_action(a)
            assert state.snapshot() == original, f"playing {a} on a clone changed the original"
        # illegal actions: junk, actions seen elsewhere that are not legal here, and look-alikes
        # (the JSON form of a legal action is not the action)
        before = state.snapshot()
        candidates = JUNK + [pool[rng.below(len(pool))] for _ in range(3)] if pool else list(JUNK)
        candidates += [legal[rng.below(len(legal))].to_json()]
        # and type look-alikes, which compare equal to a legal action
        twins = look_alikes(legal[rng.below(len(legal))])
        for bad in candidates + twins:
            if bad in legal and not any(bad is t for t in twins):
                continue
            try:
                state.apply_action(bad)
            except IllegalActionError as e:
                check_refusal(e, bad)
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
        observations.append([match.state.observation(v) for v in viewers(players)])
    else:
        raise AssertionError("game did not end")
    return match, snapshots, observations, resampled


def check_game(game_id, players, options, seed, *, check_all_actions=False, hidden=False):
    """One seeded random playthrough with every check. ``hidden=True`` also demands that some
    ``resample_hidden`` changed the state: the hidden-information check was not vacuous."""
    match, snapshots, observations, resampled = playthrough(game_id, players, options, seed,
                                                            check_all_actions=check_all_actions)
    if hidden:
        assert resampled > 0, "resample_hidden never changed a state: the hidden-information check proved nothing"
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
    assert [other.state.observation(v) for v in viewers(players)] == observations[-1]
    for obs in observations:
        json.dumps(obs)

    # undo the last player action: the state is the one before it
    movers = match.movers
    last = max(i for i, m in enumerate(movers) if m != CHANCE)
    match.undo()
    assert match.state.snapshot() == snapshots[last]
    return match
