"""The numbers the Skip-Bo Masters lessons state (notebooks/*/skip-bo-masters.ipynb), computed by the
engine's analysis: each exact value checked against an independent count (brute force over the
cards, the product of a tree's path, a hand computation from the rulebook's deck), each simulation
against the exact value with a fixed seed (tolerance 4 standard errors), and the lesson's positions
against what the questions say about them."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import pytest

from sbm_positions import position
from spieltisch.core.chance import Deck
from spieltisch.core.errors import SpieltischError
from spieltisch.games.skip_bo_masters import analysis, positions
from spieltisch.games.skip_bo_masters.engine import FULL_DECK, HAND, TOLL, PayToll, is_wild


def within(p, hits, n, k=4.0):
    """``hits`` of ``n`` is within ``k`` standard errors of the exact share ``p``."""
    p = float(p)
    return abs(hits / n - p) <= k * math.sqrt(p * (1 - p) / n)


# --- coin symbols (the reconstructed deck) --------------------------------------------------------

def test_cards_by_symbols_is_the_reconstruction_of_the_rules_page():
    # docs/rules/skip-bo-masters.md: per number one card with 1 symbol and one with 2; 144 + 24 wild = 168
    assert analysis.cards_by_symbols() == {0: 10 * 12 + 24, 1: 12, 2: 12}
    assert sum(analysis.cards_by_symbols().values()) == 168


def test_symbols_on_one_and_two_cards_by_brute_force():
    cards = FULL_DECK.cards()
    assert len(cards) == 168
    one = analysis.symbols_distribution(1)
    assert one == {0: Fraction(144, 168), 1: Fraction(12, 168), 2: Fraction(12, 168)}
    pairs: dict = {}
    for a, b in combinations(range(len(cards)), 2):  # every pair of the 168 cards, C(168, 2) = 14028
        s = cards[a] // 100 + cards[b] // 100
        pairs[s] = pairs.get(s, 0) + 1
    assert analysis.symbols_distribution(2) == {s: Fraction(n, math.comb(168, 2)) for s, n in pairs.items()}


def test_no_toll_card_among_five_is_the_product_along_the_path():
    # the lesson's complement: 144/168 · 143/167 · 142/166 · 141/165 · 140/164
    path = Fraction(1)
    for i in range(5):
        path *= Fraction(144 - i, 168 - i)
    dist = analysis.symbols_distribution(HAND)
    assert dist[0] == path == 1 - analysis.hypergeometric_at_least_one(168, 24, 5)
    assert sum(dist.values()) == 1
    assert max(dist) == 10  # five cards with 2 symbols each
    assert dist[10] == Fraction(math.comb(12, 5), math.comb(168, 5))


def test_expected_symbols_is_k_times_the_mean_of_one_card():
    assert analysis.expected_symbols(1) == Fraction(36, 168)
    for k in (2, 5, 9):
        assert analysis.expected_symbols(k) == k * Fraction(36, 168)  # linearity of expectation
    assert analysis.expected_symbols(HAND) == Fraction(15, 14)
    with pytest.raises(SpieltischError, match="cannot draw"):
        analysis.symbols_distribution(169)


def test_simulated_symbols_agree_with_the_exact_law():
    n = 4000
    sims = analysis.simulated_symbols(HAND, n, seed=11)
    assert len(sims) == n and analysis.simulated_symbols(HAND, n, seed=11) == sims  # seeded
    dist = analysis.symbols_distribution(HAND)
    for s in (0, 1, 2):
        assert within(dist[s], sum(x == s for x in sims), n)
    mean = sum(sims) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in sims) / (n - 1))
    assert abs(mean - float(analysis.expected_symbols(HAND))) <= 4 * sd / math.sqrt(n)


def test_simulated_symbols_tell_a_wrong_deck_apart():
    # negative control: twice the toll cards make "no symbol in 5" clearly rarer than the exact value
    wrong_deck = Deck({0: 120, 101: 24, 202: 24})
    sims = analysis.simulated_symbols(HAND, 4000, seed=11, deck=wrong_deck)
    assert not within(analysis.symbols_distribution(HAND)[0], sum(x == 0 for x in sims), 4000)


# --- the lesson's first position: waiting for one number ------------------------------------------

def test_the_waiting_position_is_what_question_1_says():
    state = positions.waiting_for_a_card()
    obs = state.observation(0)
    assert obs["chance"] == {"kind": "draw", "player": 0} and obs["turn"] == 0
    need = positions.needed_value(obs)
    top = obs["stock_tops"][0] % 100
    assert need == top - 1 and need - 1 in [b["value"] for b in obs["building"] if b is not None]
    k = HAND - len(obs["hand"])
    assert k == 2  # the tree of the lesson has two levels
    assert all(c % 100 not in (0, need) for c in obs["hand"])
    assert all(d[-1] % 100 not in (0, need) for d in obs["discards"][0] if d)
    assert positions.waiting_for_a_card().snapshot() == state.snapshot()  # the same game every time


def test_needed_among_unseen_counts_what_the_viewer_cannot_see():
    state = positions.waiting_for_a_card()
    obs = state.observation(0)
    need = positions.needed_value(obs)
    # independent count from the true state: the deck minus the cards player 1 sees; player 2's hand
    # is among the unseen ones (player 1 cannot see it)
    seen = list(state.hands[0]) + [c for c in state.stock_top if c is not None]
    seen += [c for ds in state.discards for d in ds for c in d]
    seen += [c for b in state.building if b is not None for c in b.cards]
    unseen = FULL_DECK.remove_all(seen).cards()
    good = sum(1 for c in unseen if c % 100 == need or is_wild(c))
    assert analysis.needed_among_unseen(obs, need) == (good, len(unseen))
    assert analysis.needed_among_unseen(obs, need, wild=False) == (sum(1 for c in unseen if c % 100 == need),
                                                                   len(unseen))


def test_chance_within_two_draws_is_the_tree_of_the_lesson():
    obs = positions.waiting_for_a_card().observation(0)
    need = positions.needed_value(obs)
    g, n = analysis.needed_among_unseen(obs, need)
    none = Fraction(n - g, n) * Fraction(n - g - 1, n - 1)  # multiply along the path "no, no"
    assert analysis.chance_within(obs, need, 2) == 1 - none
    g0, _ = analysis.needed_among_unseen(obs, need, wild=False)
    for k in range(1, HAND + 1):
        assert analysis.chance_within(obs, need, k, wild=False) < analysis.chance_within(obs, need, k)
        assert analysis.chance_within(obs, need, k) == 1 - Fraction(math.comb(n - g, k), math.comb(n, k))
        assert analysis.chance_within(obs, need, k, wild=False) == 1 - Fraction(math.comb(n - g0, k), math.comb(n, k))


def test_simulated_within_agrees_with_chance_within():
    obs = positions.waiting_for_a_card().observation(0)
    need = positions.needed_value(obs)
    hits = analysis.simulated_within(obs, need, 2, 4000, seed=3)
    assert within(analysis.chance_within(obs, need, 2), sum(hits), 4000)
    # negative control: without the wild cards the same simulation is far from the exact value with them
    no_wild = analysis.simulated_within(obs, need, 2, 4000, seed=3, wild=False)
    assert within(analysis.chance_within(obs, need, 2, wild=False), sum(no_wild), 4000)
    assert not within(analysis.chance_within(obs, need, 2), sum(no_wild), 4000)


def test_opponent_needs_two_cards_and_the_hand_bound_is_an_upper_bound():
    obs = positions.waiting_for_a_card().observation(0)
    top = obs["stock_tops"][1] % 100
    vals = tuple(-1 if b is None else b["value"] for b in obs["building"])
    needs = analysis.hand_needs(top, vals, [[c % 100 for c in d] for d in obs["discards"][1]])
    assert needs and all(sum(u) == 2 for u in needs)  # every smallest hand holds two cards
    first = max(v for v in vals if v < top) + 1
    assert all(u[0] + u[first] >= 1 for u in needs)  # each holds the first missing step or a wild card
    g, n = analysis.needed_among_unseen(obs, first)
    bound = analysis.hypergeometric_at_least_one(n, g, HAND)
    assert 0 < analysis.chance_stock_playable(obs, 1) < bound


def test_simulated_stock_playable_agrees_with_the_exact_count():
    obs = positions.waiting_for_a_card().observation(0)
    hits = analysis.simulated_stock_playable(obs, 1, 4000, seed=4)
    assert within(analysis.chance_stock_playable(obs, 1), sum(hits), 4000)
    with pytest.raises(SpieltischError):
        analysis.simulated_stock_playable(obs, 0, 10)  # the viewer's own stock top


def test_simulated_stock_playable_on_a_hand_built_table():
    # stock top 3, a pile at 1, no discards: a 2 or a wild card among 5 of the unseen cards
    s = position(2, turn=0, hands=[[7, 8, 9, 10, 11], []], stock_tops=[12, 3], piles=[1])
    obs = s.observation(0)
    g, n = analysis.needed_among_unseen(obs, 2)
    exact = analysis.hypergeometric_at_least_one(n, g, HAND)
    assert analysis.chance_stock_playable(obs, 1) == exact
    assert within(exact, sum(analysis.simulated_stock_playable(obs, 1, 3000, seed=5)), 3000)


# --- the lesson's toll decision -----------------------------------------------------------------------

def test_the_toll_position_and_the_advisor_prefers_paying():
    state = positions.toll_decision()
    obs = state.observation(0)
    assert state.current_player() == 0 and obs["phase"] == TOLL and obs["coins"][0] >= obs["toll_due"]
    advice = state.game.advise(obs, n_rollouts=400)
    assert [type(a) for a in advice.best] == [PayToll]
