"""Skip-Bo Masters: invariants over whole bot games (all 168 cards and all coins always accounted for),
hidden information for real (what each viewer sees, resampling, determinization), and bots and the
advisor that never peek. Planted bugs show that the checks catch what they are for."""

from __future__ import annotations

import pytest

from harness.conformance import check_hidden_information
from spieltisch.core.game import CHANCE, SPECTATOR
from spieltisch.core.registry import make_bot
from spieltisch.core.rng import Rng
from spieltisch.games.skip_bo_masters import analysis
from spieltisch.games.skip_bo_masters.engine import (
    COINS, FULL_DECK, SkipBoMasters, SkipBoState, deck_of, determinize,
)


def all_cards(s):
    """Every card of the state, one entry per card, wherever it lies."""
    cards = list(s.pool.cards()) + list(s.draw.cards()) + list(s.completed)
    cards += [c for h in s.hands for c in h] + [c for c in s.stock_top if c is not None]
    cards += [c for ds in s.discards for d in ds for c in d]
    cards += [c for b in s.building if b is not None for c in b.cards]
    return cards


def check_invariants(s):
    n = s.num_players
    assert deck_of(all_cards(s)) == FULL_DECK, "the 168 cards are not all accounted for"
    assert s.card_count() == 168
    assert sum(s.coins) + sum(b.coins for b in s.building if b is not None) == COINS * n, "coins lost or made"
    assert all(c >= 0 for c in s.coins)
    assert s.pool.total == s.orig_left + sum(s.stock_down)
    assert all(len(h) <= 5 for h in s.hands)


def play(players, options, names, seed, check=check_invariants, every=1, on_state=None):
    game = SkipBoMasters(players, options)
    s = game.new_initial_state()
    rng, bot_rng = Rng(seed), Rng(seed + 1)
    seats = [make_bot(game, names[i % len(names)]) for i in range(players)]
    steps = 0
    while not s.is_terminal():
        if steps % every == 0:
            check(s)
            if on_state:
                on_state(s, steps)
        p = s.current_player()
        if p == CHANCE:
            s.apply_action(s.sample_chance(rng))
        else:
            s.apply_action(seats[p].act(s.observation(p), s._legal_actions(), bot_rng))
        steps += 1
    check(s)
    return s


CASES = [(2, {}, ["strong", "greedy"]), (4, {"short_game": True}, ["greedy", "random", "strong", "greedy"]),
         (6, {"short_game": True, "replace_cost": "one"}, ["strong"]),
         (3, {"short_game": True, "multi_round": True, "target_score": 60}, ["strong", "greedy", "greedy"])]


@pytest.mark.parametrize("players,options,names", CASES)
def test_cards_and_coins_always_accounted_for(players, options, names):
    for seed in range(3):
        s = play(players, options, names, seed)
        assert s.winner is not None or s.drawn


def test_games_reach_a_reshuffle_and_a_win():
    """The checks above also ran through the rare parts: a reshuffled draw pile, and a win."""
    seen = {"reshuffle": 0, "win": 0}
    for seed in range(6):
        s = play(4, {}, ["greedy"], seed, every=10**9)
        seen["win"] += s.winner is not None
        seen["reshuffle"] += s.reshuffles > 0
    assert seen["win"] >= 5 and seen["reshuffle"] >= 1


class CoinLeak(SkipBoState):
    """Planted bug: a completed pile's last coin vanishes."""

    def _complete(self, slot):
        self.building[slot].coins = max(0, self.building[slot].coins - 1)
        super()._complete(slot)


class CardLeak(SkipBoState):
    """Planted bug: a reshuffle forgets the completed pile's first card."""

    def _settle(self):
        if self.pending and self.pending[0][0] == "draw" and not self.orig_left and not self.draw and self.completed:
            self.completed = self.completed[1:]
        super()._settle()


@pytest.mark.parametrize("planted,message", [(CoinLeak, "coins lost"), (CardLeak, "168 cards")])
def test_the_invariant_check_catches_planted_leaks(planted, message, monkeypatch):
    monkeypatch.setattr(SkipBoMasters, "state_class", planted)
    with pytest.raises(AssertionError, match=message):
        for seed in range(6):
            play(4, {}, ["greedy"], seed)


# --- hidden information ------------------------------------------------------------------------

def first_turn(players=4, seed=1):
    game = SkipBoMasters(players, {"short_game": True})
    s = game.new_initial_state()
    rng = Rng(seed)
    bot = make_bot(game, "greedy")
    turns = 0
    while turns < 3 * players:  # a few turns in: several hands filled
        if s.current_player() == CHANCE:
            s.apply_action(s.sample_chance(rng))
        else:
            p = s.turn
            s.apply_action(bot.act(s.observation(p), s._legal_actions(), rng))
            turns += s.turn != p
    while s.current_player() == CHANCE:
        s.apply_action(s.sample_chance(rng))
    return s


def test_a_player_sees_only_their_own_hand_and_the_spectator_none():
    s = first_turn()
    for v in range(4):
        obs = s.observation(v)
        assert obs["hand"] == s.hands[v]
        # other hands appear only as counts; face-down cards not at all
        assert obs["hand_sizes"] == [len(h) for h in s.hands]
        assert not {"hands", "pool", "stock_down", "draw"} & set(obs)
        assert "Your hand" in s.render(v, "en") and "Deine Hand" in s.render(v, "de")
    spectator = s.observation(SPECTATOR)
    assert "hand" not in spectator
    assert "Your hand" not in s.render(SPECTATOR, "en") and "Deine Hand" not in s.render(SPECTATOR, "de")


def test_resample_keeps_every_view_and_redraws_the_hidden_cards():
    s = first_turn()
    changed = check_hidden_information(s, 4, Rng(7), resamples=4)
    assert changed > 0
    r = s.resample_hidden(0, Rng(3))
    assert r.hands[0] == s.hands[0] and r.stock_top == s.stock_top and r.discards == s.discards
    assert any(r.hands[q] != s.hands[q] for q in (1, 2, 3))
    check_invariants(r)


def test_hidden_information_over_whole_games_including_reshuffles():
    rng = Rng(11)

    def check(s, step):
        if step % 25 == 0:
            check_hidden_information(s, 4, rng, resamples=1)

    s = play(4, {}, ["greedy", "strong"], 2, on_state=check)
    assert s.winner is not None or s.drawn


class Peeking(SkipBoState):
    """Planted leak: a player's observation shows the next player's hand."""

    def observation(self, player):
        obs = super().observation(player)
        if player is not None:
            obs["next_hand"] = list(self.hands[(player + 1) % self.num_players])
        return obs


def test_the_hidden_information_check_catches_a_planted_leak(monkeypatch):
    s = first_turn()
    s.__class__ = Peeking
    with pytest.raises(AssertionError, match="leak"):
        check_hidden_information(s, 4, Rng(1))


def test_determinize_shows_the_viewer_exactly_their_observation():
    s = first_turn()
    for v in (0, 1, 2, 3, None):
        obs = s.observation(v)
        for seed in range(3):
            d = determinize(s.game, obs, Rng(seed))
            assert d.observation(v) == obs
            check_invariants(d)
        if v == s.turn:
            assert d._legal_actions() == s._legal_actions()


def hidden_twins(s, viewer, count=6):
    """Copies of ``s`` that differ only in what ``viewer`` cannot see (and do differ)."""
    out = []
    for seed in range(40):
        r = s.resample_hidden(viewer, Rng(seed))
        if any(r.hands[q] != s.hands[q] for q in range(s.num_players) if q != viewer):
            out.append(r)
        if len(out) == count:
            break
    assert len(out) == count
    return out


@pytest.mark.parametrize("name", ["greedy", "strong"])
def test_a_bots_choice_does_not_change_when_only_hidden_cards_change(name):
    game = SkipBoMasters(4, {"short_game": True})
    bot = make_bot(game, name)
    checked = 0
    for seed in range(4):
        s = first_turn(seed=seed)
        me = s.turn
        choice = bot.act(s.observation(me), s._legal_actions(), Rng(99))
        for r in hidden_twins(s, me):
            assert bot.act(r.observation(me), r._legal_actions(), Rng(99)) == choice
            checked += 1
    assert checked == 24


def test_the_advisor_does_not_change_when_only_hidden_cards_change():
    s = first_turn(seed=2)
    me = s.turn
    advice = analysis.advise(s.game, s.observation(me), n_rollouts=3, seed=5).to_json()
    for r in hidden_twins(s, me, 2):
        assert analysis.advise(r.game, r.observation(me), n_rollouts=3, seed=5).to_json() == advice


def test_a_peeking_policy_would_change_so_the_twins_test_can_fail():
    """Negative control: a policy that reads the next player's true hand chooses differently on some
    hidden twin, so the tests above would catch a bot or advisor that peeks."""
    def peeking(state):
        legal = state._legal_actions()
        return legal[sum(state.hands[(state.turn + 1) % state.num_players]) % len(legal)]

    s = first_turn()
    assert len({peeking(r) for r in hidden_twins(s, s.turn)} | {peeking(s)}) > 1


def test_snapshot_covers_every_attribute():
    """The state's own ``snapshot`` (faster than the core's) must see every attribute, or the
    generic tests could miss a change."""
    s = first_turn()
    names = set(vars(s)) - {"game", "num_players", "options"}
    base = s.snapshot()
    for name in sorted(names):
        t = s.clone()
        value = getattr(t, name)
        if value is None:
            setattr(t, name, 0)
        elif isinstance(value, bool):
            setattr(t, name, not value)
        elif isinstance(value, int):
            setattr(t, name, value + 1)
        elif isinstance(value, str):
            setattr(t, name, value + "x")
        elif isinstance(value, list):
            setattr(t, name, value + [value[0] if value else 0])
        else:  # a Deck
            setattr(t, name, value.plus(FULL_DECK.kinds()[0]))
        assert t.snapshot() != base, f"snapshot misses {name}"


def test_fast_chance_sampler_draws_what_the_exact_law_draws():
    """``sample_chance`` must give the very outcome ``sample_exact(chance_outcomes())`` gives with the
    same generator (records replay either way)."""
    from spieltisch.core.dist import sample_exact
    from spieltisch.core.game import State

    s = first_turn()
    s.pending = [("draw", s.turn)] * 3 + [("reveal", 1)]
    for seed in range(40):
        a, b = Rng(seed), Rng(seed)
        fast = s.sample_chance(a)
        assert fast == sample_exact(s.chance_outcomes(), b) == State.sample_chance(s, Rng(seed))
        assert a.below(1000) == b.below(1000)  # the generators are in the same place afterwards
    assert type(s).sample_chance is not State.sample_chance


@pytest.mark.parametrize("config", range(len(SkipBoMasters.test_configs)))
def test_invariants_along_the_conformance_playthroughs(config):
    """The generic conformance games (random play with every check of the harness), replayed with
    the card and coin invariants checked after every action."""
    from harness.conformance import check_game
    from spieltisch.core.match import Match

    players, options = SkipBoMasters.test_configs[config]
    for seed in range(3):
        match = check_game("skip-bo-masters", players, options, seed)
        replay = Match("skip-bo-masters", players, options, seed)
        check_invariants(replay.state)
        for i, a in enumerate(match.to_record()["actions"]):
            replay._replay_one(i, a)
            check_invariants(replay.state)
