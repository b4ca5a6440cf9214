"""Skip-Bo Masters analyses: exact chances from one player's view, each checked against an
independent computation (brute force, a product formula) and against the engine itself (seeded
simulation through ``resample_hidden`` and the engine's own draws and legal moves, tolerance 4
standard errors); negative controls show that the simulation tells a wrong model apart."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import combinations

import pytest

from sbm_positions import WILD, position, toll
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import CHANCE
from spieltisch.core.registry import make_game
from spieltisch.core.rng import Rng
from spieltisch.games.skip_bo_masters import analysis
from spieltisch.games.skip_bo_masters.engine import PLAY, TOLL, PayToll, Play, SkipBoMasters, unseen_cards

Z = 4  # tolerance: 4 standard errors of the simulated share


def within_tolerance(exact, hits, n):
    p = float(exact)
    se = math.sqrt(max(p * (1 - p), 1e-4) / n)
    return abs(hits / n - p) <= Z * se


# --- hypergeometric ------------------------------------------------------------------------------

@pytest.mark.parametrize("total,good,k", [(7, 2, 3), (8, 0, 4), (6, 6, 1), (9, 3, 9), (10, 4, 0)])
def test_hypergeometric_against_every_subset(total, good, k):
    cards = [1] * good + [0] * (total - good)
    subsets = list(combinations(range(total), k))
    hits = sum(any(cards[i] for i in sub) for sub in subsets)
    assert analysis.hypergeometric_at_least_one(total, good, k) == Fraction(hits, len(subsets))


def table():
    """Player 1 (seat 0) to move; eight 5s and three wild cards lie open, so the unseen cards hold
    four 5s and 21 wild cards."""
    return position(3, hands=[[5, 5, 5, WILD, 9], [], []], stock_tops=[5, 5, 11], piles=[4],
                    discards=[[[5, 5], [5], [], []], [[9], [WILD, WILD], [], []], [[], [], [], []]])


def test_unseen_cards_from_the_observation():
    s = table()
    obs = s.observation(0)
    unseen = unseen_cards(obs)
    assert unseen.total == 168 - 5 - 3 - 6 - 4
    assert sum(n for c, n in unseen.counts().items() if c % 100 == 5) == 4
    assert sum(n for c, n in unseen.counts().items() if c % 100 == 0) == 21
    # it is also what the state says the viewer cannot see
    assert unseen == s.hidden_from(0)


@pytest.mark.parametrize("wild,k", [(False, 5), (True, 2), (False, 12)])
def test_chance_within_is_the_product_formula(wild, k):
    obs = table().observation(0)
    total, good = 150, 4 + (21 if wild else 0)
    none = Fraction(1)
    for i in range(k):
        none *= Fraction(total - good - i, total - i)
    assert analysis.chance_within(obs, 5, k, wild=wild) == 1 - none


def draws_hit(state, viewer, value, k, wild, trials, seed):
    """Simulation with the engine: hidden cards redrawn for ``viewer``, then ``k`` real draws."""
    rng = Rng(seed)
    hits = 0
    for _ in range(trials):
        r = state.resample_hidden(viewer, rng)
        before = len(r.hands[viewer])
        r.pending = [("draw", viewer)] * k
        while r.current_player() == CHANCE:
            r._apply(r.sample_chance(rng))
        new = r.hands[viewer]
        drawn = _drawn(state.hands[viewer], new)
        assert len(drawn) == k and len(new) == before + k
        hits += any(c % 100 == value or (wild and c % 100 == 0) for c in drawn)
    return hits


def _drawn(old, new):
    rest = list(new)
    for c in old:
        rest.remove(c)
    return rest


@pytest.mark.parametrize("wild,k", [(False, 5), (True, 2)])
def test_chance_within_agrees_with_the_engines_draws(wild, k):
    s = table()
    obs = s.observation(0)
    exact = analysis.chance_within(obs, 5, k, wild=wild)
    n = 3000
    hits = draws_hit(s, 0, 5, k, wild, n, seed=17)
    assert within_tolerance(exact, hits, n), (float(exact), hits / n)
    # negative controls: the same simulation rejects a model that forgets the open cards (a fresh
    # deck) and one that forgets the wild cards
    full_deck = analysis.hypergeometric_at_least_one(168, 12 + (24 if wild else 0), k)
    assert not within_tolerance(full_deck, hits, n)
    if wild:
        assert not within_tolerance(analysis.chance_within(obs, 5, k, wild=False), hits, n)


def test_chance_for_the_card_a_pile_needs():
    obs = table().observation(0)  # pile 1 stands at 4: it needs a 5; pile 2 is a free place: a 1
    assert analysis.chance_pile_need_within(obs, 0, 3) == analysis.chance_within(obs, 5, 3)
    assert analysis.chance_pile_need_within(obs, 1, 3) == analysis.chance_within(obs, 1, 3)
    assert analysis.chance_pile_need_within(obs, 1, 3) > analysis.chance_pile_need_within(obs, 0, 3)
    with pytest.raises(SpieltischError):
        analysis.chance_pile_need_within(obs, 4, 3)


def test_chance_within_refuses_bad_questions():
    obs = table().observation(0)
    for value, k in ((0, 1), (13, 1), (5, 0), (5, obs["draw_size"] + 1), (5, 1.0), (True, 1)):
        with pytest.raises(SpieltischError):
            analysis.chance_within(obs, value, k)


# --- can the opponent play their stock top next turn? ---------------------------------------------

def opponent_table(discards=True):
    """Player 2 (seat 1) shows a 6 on their stock; a pile stands at 3. With ``discards`` they also
    show a 4 on a discard pile, so a 5 or a wild card from their next hand would do."""
    d1 = [[4], [9], [], []] if discards else [[], [], [], []]
    return position(3, hands=[[2, 7, 8, 10, 11], [], []], stock_tops=[12, 6, 11], piles=[3, 8],
                    discards=[[[], [], [], []], d1, [[], [], [], []]])


def engine_can_play_stock(state, player) -> bool:
    """Brute force with the engine's own legal moves: from ``player``'s turn, every sequence of
    plays from hand, discard piles and stock (tolls paid; no buying or replacing; no fresh hand)."""
    seen = set()

    def search(s):
        key = s.snapshot()
        if key in seen:
            return False
        seen.add(key)
        if s.current_player() == CHANCE:
            # the emptied hand would draw afresh; the analysis does without those cards
            s = s.clone()
            s.pending = []
        if s.phase == TOLL:
            s = s.clone()
            s.apply_action(PayToll(s.toll_due))
            return search(s)
        for a in s.legal_actions():
            if type(a) is Play:
                if a.src == "stock":
                    return True
                t = s.clone()
                t.apply_action(a)
                if search(t):
                    return True
        return False

    return search(state)


def stock_sim(state, viewer, player, trials, seed):
    rng = Rng(seed)
    hits = 0
    for _ in range(trials):
        r = state.resample_hidden(viewer, rng)
        r.turn, r.phase = player, PLAY
        r.coins[player] = 99  # tolls are paid in the analysis
        r.pending = [("draw", player)] * (5 - len(r.hands[player]))
        while r.current_player() == CHANCE:
            r._apply(r.sample_chance(rng))
        hits += engine_can_play_stock(r, player)
    return hits


@pytest.mark.parametrize("discards", [True, False])
def test_chance_stock_playable_agrees_with_the_engine(discards):
    s = opponent_table(discards)
    obs = s.observation(0)
    exact = analysis.chance_stock_playable(obs, 1)
    n = 500
    hits = stock_sim(s, 0, 1, n, seed=23 + discards)
    assert within_tolerance(exact, hits, n), (float(exact), hits / n)
    # negative control: without wild cards in the hand the chance is clearly lower, and the
    # simulation tells it apart
    unseen = unseen_cards(obs)
    fives = sum(k for c, k in unseen.counts().items() if c % 100 == 5)
    if discards:
        no_wild = analysis.hypergeometric_at_least_one(unseen.total, fives, 5)
        assert exact > no_wild and not within_tolerance(no_wild, hits, n)


def test_chance_stock_playable_certain_and_impossible_cases():
    s = opponent_table()
    obs = s.observation(0)
    # player 3 shows an 11 with piles at 3 and 8: needs 9 and 10 from five cards, or a long chain
    p3 = analysis.chance_stock_playable(obs, 2)
    assert 0 < p3 < 1
    s.stock_top[1] = 4  # fits the pile at 3 directly
    assert analysis.chance_stock_playable(s.observation(0), 1) == 1
    s.stock_top[1] = WILD
    assert analysis.chance_stock_playable(s.observation(0), 1) == 1
    for bad in (0, 3, -1, 1.0):
        with pytest.raises(SpieltischError):
            analysis.chance_stock_playable(obs, bad)


def test_stock_playable_search_by_hand():
    # pile at 3, stock 6: a 4 from discard, then 5 from hand
    assert analysis.stock_playable_with({5: 1}, 6, (3, -1, -1, -1), [[4], [], [], []])
    assert not analysis.stock_playable_with({5: 1}, 6, (3, -1, -1, -1), [[], [], [], []])
    assert analysis.stock_playable_with({0: 2}, 6, (3, -1, -1, -1), [[], [], [], []])
    # a new pile from 1: 1,2,3,4,5 in hand, stock 6, all four places taken but one
    assert analysis.stock_playable_with({1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, 6, (9, 9, 9, -1), [])
    assert not analysis.stock_playable_with({1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, 6, (9, 9, 9, 9), [])
    # uncovering: the 4 lies under a 10 that fits the pile at 9
    assert analysis.stock_playable_with({5: 1}, 6, (3, 9, -1, -1), [[4, 10], [], [], []])


# --- the game's exact facts --------------------------------------------------------------------------

def test_analyze_facts():
    facts = SkipBoMasters(4).analyze()
    assert facts["deck"]["cards"] == 168 and facts["deck"]["provenance"] == "reconstruction"
    assert facts["chance_wild_card"]["fraction"] == "1/7"
    # the start player opens a pile unless none of their 6 cards is a 1 or a wild card
    none = Fraction(1)
    for i in range(6):
        none *= Fraction(132 - i, 168 - i)
    assert facts["chance_start_player_opens_a_pile"]["fraction"] == f"{(1 - none).numerator}/{(1 - none).denominator}"
    assert facts["mean_coin_symbols_per_card"]["fraction"] == "3/14"  # 36 symbols on 168 cards
    assert facts["draw_pile_at_start"] == 168 - 60
    assert make_game("skip-bo-masters", 2, {"short_game": True}).analyze()["draw_pile_at_start"] == 148


# --- the advisor ------------------------------------------------------------------------------------

def test_advisor_values_every_option_and_the_toll():
    s = position(2, hands=[[toll(4, 2), 5, 9, 9, 9], []], stock_tops=[11, 6], piles=[3])
    s.apply_action(Play("hand", 0, toll(4, 2), 0))
    advice = analysis.advise(s.game, s.observation(0), n_rollouts=4, seed=1)
    assert {type(o.action).__name__ for o in advice.options} == {"PayToll", "DeclineToll"}
    assert "worth paying" in advice.options[0].note["en"] and "Gebühr" in advice.options[0].note["de"]
    # German numbers with a decimal comma, English with a point; the unit of the objective
    assert re.search(r": [+−]\d+,\d\d Karten gegenüber Ablehnen$", advice.options[0].note["de"])
    assert re.search(r": [+−]\d+\.\d\d cards against declining$", advice.options[0].note["en"])
    assert not advice.exact


def test_advisor_refuses_another_players_view_and_bad_settings():
    s = position(2, hands=[[5, 9, 9, 9, 9], []], stock_tops=[11, 6], piles=[3])
    with pytest.raises(SpieltischError):
        analysis.advise(s.game, s.observation(1))
    for bad in ({"n_rollouts": 1}, {"screen": 0}, {"finalists": 0}, {"budget": 0}, {"budget": 1.5},
                {"to_end": 1}, {"seed": -1}):
        with pytest.raises(SpieltischError):
            analysis.advise(s.game, s.observation(0), **bad)


# Positions where the right move is obvious: the stock top fits, and the only other options pay coins
# for a card that the stock top then follows (or a card of the hand does), which changes nothing the
# stock top does not do better. (players, hand, stock tops, building piles)
OBVIOUS = [
    (2, [3, 5, 6, 8, 9], [12, 7], [11, 10]),  # the 12 on the 11, or 11 coins for the 11 on the 10
    (3, [3, 5, 6, 8, 9], [12, 7, 9], [11, 10]),
    (4, [3, 5, 6, 8, 9], [12, 7, 9, 6], [11, 10]),
    (2, [7, 8, 9, 10, 12], [5, 7], [4, 3]),  # the 5 on the 4, or 4 coins for the 4 on the 3
    (3, [7, 8, 9, 10, 12], [5, 7, 9], [4, 3]),
    (4, [7, 8, 9, 10, 12], [5, 7, 9, 6], [4, 3]),
]


@pytest.mark.parametrize("players,hand,tops,piles", OBVIOUS)
def test_GOLDEN_playing_the_stock_top_beats_paying_coins(players, hand, tops, piles):
    """ "Zur Erinnerung: Der Spielerstapel muss abgebaut sein, um die Partie zu gewinnen – deshalb
    sollten die Karten dieses Stapels immer bevorzugt gelegt werden, falls das möglich ist." The live
    advisor (the view's settings) stars the stock top alone, above every way of paying coins."""
    s = position(players, hands=[hand] + [[]] * (players - 1), stock_tops=tops, piles=piles)
    coins = [a for a in s.legal_actions() if type(a).__name__ == "Replace"]
    assert coins  # the position offers paying coins
    from spieltisch.games.skip_bo_masters.view import SkipBoMastersView
    settings = SkipBoMastersView().advice_columns(s.game)[0]["settings"]
    advice = analysis.advise(s.game, s.observation(0), **settings)
    stock = Play("stock", 0, tops[0], 0)
    assert advice.best == [stock], [(o.label["en"], o.value, o.best) for o in advice.options]
    assert advice.options[0].action == stock
    assert all(o.value.mean < advice.options[0].value.mean for o in advice.options[1:])


def test_the_paired_comparison_separates_what_overlapping_intervals_would_tie():
    """Negative control for the pairing: in the first obvious position the two options' own 95 %
    intervals overlap (the old rule, "every option whose interval reaches the best one's is best",
    would star both), yet the paired differences on the same hidden cards separate them."""
    s = position(2, hands=[[3, 5, 6, 8, 9], []], stock_tops=[12, 7], piles=[11, 10])
    advice = analysis.advise(s.game, s.observation(0))
    first, second = advice.options
    assert first.best and not second.best
    assert second.value.hi >= first.value.lo  # unpaired, they could not be told apart
    assert first.value.n > 12  # the leaders were played on beyond the screening


def test_options_that_play_out_alike_are_a_tie():
    """Two options that differ only in the place of a pile (a 5 on either of two piles at 4) play
    out alike: they cannot be told apart, so both are starred (else the advisor would invent a
    difference)."""
    s = position(2, {"must_play": False}, hands=[[5, 5, 9, 9, 11], []], stock_tops=[12, 12], piles=[4, 4])
    advice = analysis.advise(s.game, s.observation(0))
    plays = [o for o in advice.options if o.action in (Play("hand", 0, 5, 0), Play("hand", 0, 5, 1))]
    assert len(plays) == 2 and all(o.best for o in plays)


def test_advisor_prefers_playing_the_stock_top_to_ending_the_turn():
    """D5 off: a 4 on the stock and a pile at 3: playing it is worth a stock card, so it stands alone
    above ending the turn with a discard."""
    s = position(2, {"must_play": False}, hands=[[9, 9, 10, 10, 11], []], stock_tops=[4, 12], piles=[3])
    advice = analysis.advise(s.game, s.observation(0))
    stock = advice.option_for(Play("stock", 0, 4, 0))
    assert advice.best == [stock.action]
    assert stock.note is None  # a new stock card is unknown: the planned line stops at once
    discards = [o for o in advice.options if type(o.action).__name__ == "Discard"]
    assert discards and stock.value.mean > max(o.value.mean for o in discards)


def test_advisor_notes_the_planned_line_of_each_play():
    """The best sequence of plays: after playing the 5, the planner plays the 6, the 7 from the
    discard pile and the 8 from the stock — and stops there, the next stock card being unknown."""
    s = position(2, hands=[[5, 6, WILD, 10, 11], []], stock_tops=[8, 12], piles=[4],
                 discards=[[[9, 7], [], [], []], [[], [], [], []]])
    advice = analysis.advise(s.game, s.observation(0), n_rollouts=2, seed=1)
    note = advice.option_for(Play("hand", 0, 5, 0)).note
    assert note["en"] == ("then: play 6 from hand on building pile 1; play 7 from discard pile 1 on building pile 1; "
                          "play 8 from stock pile on building pile 1")
    assert note["de"].startswith("danach: 6 von der Hand auf Ablagestapel 1; 7 vom Hilfsstapel 1")


def test_advisor_to_the_end_of_the_round_values_the_win_chance():
    s = position(2, {"short_game": True}, hands=[[9, 9, 10, 10, 11], []], stock_tops=[4, 12],
                 stock_down=[1, 9], piles=[3])
    advice = analysis.advise(s.game, s.observation(0), n_rollouts=4, seed=2, to_end=True)
    assert advice.objective["en"] == "chance to win the round"
    assert "to the end of the round" in advice.method["en"]
    assert all(0 <= o.value.mean <= 1 for o in advice.options)
    # two stock cards left and the 4 fits now: playing it wins often
    assert advice.option_for(Play("stock", 0, 4, 0)).value.mean > 0


def test_the_objective_is_said_in_both_languages_in_one_unit():
    s = position(2, hands=[[5, 9, 9, 9, 9], []], stock_tops=[11, 6], piles=[3])
    advice = analysis.advise(s.game, s.observation(0), n_rollouts=4)
    assert advice.objective["de"].startswith("Vorsprung an Spielerstapel-Karten")
    assert advice.objective["en"].startswith("stock-card lead")
    assert "0,1 Karten" in advice.objective["de"] and "0.1 cards" in advice.objective["en"]
    from spieltisch.games.skip_bo_masters.view import SkipBoMastersView
    col = SkipBoMastersView().advice_columns(s.game)[0]
    assert col["unit"] == {"de": "Karten Vorsprung", "en": "cards of lead"}
    assert "Spielerstapel-Karten" in col["title"]["de"] and "stock-card lead" in col["title"]["en"]


@pytest.mark.parametrize("bad", [None, {}, {"game": "tuefteln"}, "obs"])
def test_advisor_refuses_what_is_not_an_observation(bad):
    s = position(2, hands=[[5, 9, 9, 9, 9], []], stock_tops=[11, 6], piles=[3])
    with pytest.raises(SpieltischError):
        analysis.advise(s.game, bad)
    obs = s.observation(0)
    del obs["discards"]
    with pytest.raises(SpieltischError, match="lacks discards"):
        analysis.advise(s.game, obs)
    with pytest.raises(SpieltischError):
        analysis.advise(SkipBoMasters(3), s.observation(0))


def test_review_of_a_bot_game_uses_the_advisor_in_its_unit_and_counts_turn_rounds():
    from spieltisch.core.advice import review
    from spieltisch.core.match import Match
    from spieltisch.games.skip_bo_masters.view import SkipBoMastersView

    game = SkipBoMasters(3, {"short_game": True})
    m = Match(game, seed=4)
    m.play([make_game_bot(game, n) for n in ("strong", "greedy", "random")], Rng(8))
    settings = SkipBoMastersView().review_settings(game)
    r = review(m, limit=12, **settings)
    assert len(r) == 12 and not r.exact
    assert all(d.options >= 2 for d in r)
    assert all(d.loss >= 0 for d in r)  # the shown values rank as the paired comparisons do
    assert r.to_json()["review"]["objective"]["en"].startswith("stock-card lead")
    # the decisions are counted by rounds of turns (every player's first turn is round 1), not by
    # the round of a game of several, which is 1 throughout here
    rounds = [d.round for d in r]
    assert rounds == sorted(rounds) and rounds[0] == 1 and rounds[-1] > 1


def make_game_bot(game, name):
    from spieltisch.core.registry import make_bot
    return make_bot(game, name)


def naive_playable(hand, stock, vals, discards) -> bool:
    """Reference: depth-first search over every play with this very hand (no sharing between hands)."""
    if stock == 0:
        return True
    seen = set()

    def search(v, h, ds):
        key = (v, h, ds)
        if key in seen:
            return False
        seen.add(key)
        needs = [x + 1 for x in v if x >= 0] + ([1] if -1 in v else [])
        if stock in needs:
            return True
        for slot, x in enumerate(v):
            need = x + 1 if x >= 0 else 1
            if x < 0 and slot != v.index(-1) or need > 12:
                continue
            v2 = v[:slot] + (need if need < 12 else -1,) + v[slot + 1:]
            for d, dp in enumerate(ds):
                if dp and dp[-1] in (need, 0) and search(v2, h, ds[:d] + (dp[:-1],) + ds[d + 1:]):
                    return True
            for c in (need, 0):
                if h[c] and search(v2, h[:c] + (h[c] - 1,) + h[c + 1:], ds):
                    return True
        return False

    return search(tuple(vals), tuple(hand.get(v, 0) for v in range(13)), tuple(tuple(d) for d in discards))


def test_hand_needs_agrees_with_a_search_per_hand():
    rng = Rng(31)
    checked = 0
    for _ in range(40):
        vals = tuple(sorted([rng.below(12) + 1 if rng.below(4) else -1 for _ in range(4)]))
        discards = [[rng.below(13) for _ in range(rng.below(3))] for _ in range(4)]
        stock = rng.below(12) + 1
        for _ in range(6):
            hand = {}
            for _ in range(5):
                c = rng.below(13)
                hand[c] = hand.get(c, 0) + 1
            assert analysis.stock_playable_with(hand, stock, vals, discards) == \
                naive_playable(hand, stock, vals, discards), (hand, stock, vals, discards)
            checked += 1
    assert checked == 240
