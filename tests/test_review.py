"""Game review: every decision of a finished game valued by the game's advisor, from the mover's
observation; exact for Würfel Joker (checked against the solvers), estimated for Tüfteln."""

import copy
import json
from fractions import Fraction

import pytest

from spieltisch.core.advice import Estimate, review
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import CHANCE
from spieltisch.core.match import Match
from spieltisch.core.registry import make_bot
from spieltisch.core.rng import Rng
from spieltisch.games.wuerfel_joker.spiel1 import analysis as wj1
from spieltisch.games.wuerfel_joker.spiel2 import analysis as wj2


def played(game_id, players, options, bots, seed=7):
    match = Match(game_id, players, options, seed)
    match.play([make_bot(match.game, b) for b in bots], Rng(seed + 1))
    assert match.is_terminal()
    return match


def states_before(match):
    """The position before each action, replayed here independently of the review."""
    state = match.game.new_initial_state()
    out = []
    for action in match.actions:
        out.append(state.clone())
        state.apply_action(action)
    return out


def decision_indices(match):
    return [i for i, s in enumerate(states_before(match))
            if s.current_player() != CHANCE and len(s.legal_actions()) > 1]


def check_exact_review(match, values_of, optimal_seat, random_seat):
    """Every decision's values are the solver's own, losses exact, the summary their exact sum."""
    rev = review(match)
    before = states_before(match)
    assert [d.index for d in rev] == decision_indices(match)  # one-option moves are skipped
    assert rev.exact and not rev.partial and rev.terminal
    for d in rev:
        state = before[d.index]
        values = dict(values_of(state))
        assert d.player == state.current_player() and d.options == len(values)
        assert d.round == state.observation(d.player)["round"]
        assert type(d.chosen.value) is Fraction and type(d.best.value) is Fraction and type(d.loss) is Fraction
        assert d.chosen.action == match.actions[d.index]
        assert d.chosen.value == values[d.chosen.action]
        assert d.best.value == max(values.values())
        assert d.ties == sum(v == d.best.value for v in values.values())
        assert d.chosen.best == (d.chosen.value == d.best.value)
        assert d.loss == (0 if d.chosen.best else d.best.value - d.chosen.value)
        assert d.chosen.label["de"] and d.chosen.label["en"]
    mine = [d for d in rev if d.player == optimal_seat]
    theirs = [d for d in rev if d.player == random_seat]
    assert mine and all(d.loss == 0 and d.chosen.best for d in mine)
    assert any(d.loss > 0 for d in theirs)
    summary = rev.summary()
    assert [s.player for s in summary] == [0, 1]
    for s in summary:
        ds = [d for d in rev if d.player == s.player]
        assert s.exact and type(s.loss) is Fraction and s.loss == sum(d.loss for d in ds)
        assert s.decisions == len(ds) and s.clearly_worse == sum(d.loss > 0 for d in ds)
        assert s.among_best + s.clearly_worse == s.decisions
    assert summary[optimal_seat].loss == 0 and summary[random_seat].loss > 0
    return rev


def test_wuerfel_joker_2_review_is_exact_and_matches_the_solver():
    options = {"rounds": 2}
    match = played("wuerfel-joker-2", 2, options, ["optimal", "random"])
    sol = wj2.solve(match.game.options, "expected")
    check_exact_review(match, lambda s: sol.values_at(s.mask, s.dice, s.phase), 0, 1)


def test_wuerfel_joker_1_review_is_exact_and_matches_the_solver():
    match = played("wuerfel-joker-1", 2, {"rounds": 2}, ["random", "optimal"], seed=3)
    sol = wj1.solve(match.game.options)
    check_exact_review(match, sol.decision_values, 1, 0)


def test_review_json_keeps_the_fractions():
    match = played("wuerfel-joker-2", 2, {"rounds": 2}, ["optimal", "random"])
    rev = review(match)
    data = json.loads(json.dumps(rev.to_json(), ensure_ascii=False))
    assert data["ruleset"] == "wuerfel-joker-2" and data["seed"] == 7 and data["actions"] == len(match.actions)
    assert data["review"]["exact"] and data["scores"] == match.state.scores()
    assert len(data["decisions"]) == len(rev)
    for d, j in zip(rev, data["decisions"]):
        assert Fraction(j["loss"]["fraction"]) == d.loss and j["loss"]["float"] == float(d.loss)
        assert Fraction(j["chosen"]["value"]["fraction"]) == d.chosen.value
        assert j["chosen"]["action"] == match.actions[d.index].to_json() and j["player"] == d.player
    for s, j in zip(rev.summary(), data["summary"]):
        assert Fraction(j["loss"]["fraction"]) == s.loss
    with_options = rev.to_json(options=True)["decisions"][0]["advice"]["options"]
    assert len(with_options) == rev[0].options


def test_the_advisor_gets_the_movers_observation_never_the_state():
    match = played("wuerfel-joker-2", 2, {"rounds": 2}, ["threshold", "random"])
    game = match.game
    seen = []
    real = type(game).advisor

    def spy(game_, observation, **settings):
        seen.append(copy.deepcopy(observation))  # the observation may share lists with the state
        return real(game_, observation, **settings)

    game.advisor = spy  # this game object only; Game.advise calls self.advisor(self, observation)
    snapshot = match.state.snapshot()
    rev = review(match)
    before = states_before(match)
    assert len(seen) == len(rev) > 0
    for d, obs in zip(rev, seen):
        assert isinstance(obs, dict) and obs == before[d.index].observation(d.player)
        assert obs["viewer"] == d.player
    assert match.state.snapshot() == snapshot  # the review replays on its own state


def test_part_of_a_game_and_progress():
    match = played("wuerfel-joker-2", 2, {"rounds": 2}, ["optimal", "random"])
    full = review(match)
    calls = []
    part = review(match, lambda done, total: calls.append((done, total)), start=full[2].index, limit=3)
    assert [d.index for d in part] == [d.index for d in full[2:5]] and part.partial
    assert [(d.chosen, d.loss) for d in part] == [(d.chosen, d.loss) for d in full[2:5]]
    assert calls == [(0, 3), (1, 3), (2, 3), (3, 3)]
    seat1 = review(match, players=[1])
    assert [d.index for d in seat1] == [d.index for d in full if d.player == 1] and seat1.partial
    assert seat1.summary()[0].decisions == 0 and seat1.summary()[1].loss == full.summary()[1].loss
    assert review(match, limit=0).partial and len(review(match, limit=0)) == 0


@pytest.mark.parametrize("kw, words", [
    ({"n_rollouts": 3}, "takes no setting 'n_rollouts'"),
    ({"start": -1}, "record index"),
    ({"limit": 1.5}, "number of decisions"),
    ({"players": [2]}, "seats 0 to 1"),
    ({"players": [True]}, "seats 0 to 1"),
])
def test_bad_review_settings_are_refused(kw, words):
    match = played("wuerfel-joker-2", 2, {"rounds": 1}, ["random", "random"])
    with pytest.raises(SpieltischError, match=words):
        review(match, **kw)


def test_a_game_without_advisor_cannot_be_reviewed(pig):
    match = Match("test-pig", 2, None, 1)
    match.play([make_bot(match.game, "random")] * 2, Rng(2))
    with pytest.raises(SpieltischError, match="no advisor"):
        review(match)


def test_tuefteln_review_gives_estimates():
    match = played("tuefteln", 1, {"side": "A"}, ["greedy"], seed=11)
    settings = {"n_rollouts": 2, "seed": 5}
    calls = []
    rev = review(match, lambda done, total: calls.append(done), **settings)
    assert [d.index for d in rev] == decision_indices(match) and len(rev) > 10
    assert not rev.exact and calls == list(range(len(rev) + 1))
    before = states_before(match)
    for d in rev:
        assert isinstance(d.chosen.value, Estimate) and isinstance(d.best.value, Estimate)
        for v in (d.chosen.value, d.best.value):
            assert v.lo <= v.mean <= v.hi and v.n == 2
        assert type(d.loss) is float and d.loss >= 0
        # the leader's mean minus the chosen one's, also among ties (a tie is not a loss of 0 for sure)
        assert d.loss == pytest.approx(max(0.0, d.best.value.mean - d.chosen.value.mean))
        lo, hi = d.loss_ci
        assert 0 <= lo <= d.loss <= hi
        assert d.round == before[d.index].observation(0)["round"]
    # each decision's values are the advisor's own at that observation, with the same settings
    d = rev[3]
    again = match.game.advise(before[d.index].observation(0), **settings)
    assert again.option_for(d.chosen.action).value == d.chosen.value and again.options[0].value == d.best.value
    (s,) = rev.summary()
    assert not s.exact and s.loss == pytest.approx(max(0.0, sum(d.loss_raw[0] for d in rev)))
    assert all(d.loss == max(0.0, d.loss_raw[0]) for d in rev)
    assert s.clearly_worse == sum(not d.chosen.best for d in rev)
    data = json.loads(json.dumps(rev.to_json()))
    assert data["review"]["settings"] == settings and not data["review"]["exact"]
    j = data["decisions"][0]
    assert j["chosen"]["value"]["ci95"][0] <= j["chosen"]["value"]["mean"] <= j["chosen"]["value"]["ci95"][1]
    assert "fraction" not in j["loss"] and j["loss"]["float"] == rev[0].loss


@pytest.mark.parametrize("game_id, settings", [
    ("tuefteln", {"seed": 0, "screen": 4, "n_rollouts": 28, "finalists": 2}),
    ("skip-bo-masters", {"seed": 0, "screen": 4, "n_rollouts": 12, "finalists": 1, "budget": 100_000}),
])
def test_an_included_option_is_played_as_long_as_the_finalists(game_id, settings):
    """Review F1: ``include`` makes an option a finalist whatever the screening says, so the review's
    chosen move is compared with the leader on the same play-outs; without it (the negative control)
    the same option stops at the screening."""
    match = played(game_id, 1 if game_id == "tuefteln" else 2, None, ["greedy"] * (1 if game_id == "tuefteln" else 2))
    state = match.game.new_initial_state()
    for action in match.actions:
        if state.current_player() != CHANCE and len(state.legal_actions()) > 2:
            break
        state.apply_action(action)
    obs = state.observation(state.current_player())
    plain = match.game.advise(obs, **settings)
    screened_out = plain.options[-1].action  # the last by value: no finalist of its own
    assert len(plain.samples[screened_out]) == settings["screen"]
    forced = match.game.advise(obs, include=[screened_out], **settings)
    assert len(forced.samples[screened_out]) == settings["n_rollouts"] == max(len(v) for v in forced.samples.values())
    # every option's play-out values are the shown estimate's
    for o in forced.options:
        assert o.value.n == len(forced.samples[o.action])
