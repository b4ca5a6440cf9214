"""The numbers the Skip-Bo Masters lessons state (notebooks/*/skip-bo-masters.ipynb), computed by the
engine's analysis: each exact value checked against an independent count (brute force over the
cards, the product of a tree's path, a hand computation from the rulebook's deck), each simulation
against the exact value with a fixed seed (tolerance 4 standard errors), and the lesson's positions
against what the questions say about them."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import combinations

import pytest

from sbm_positions import position
from spieltisch.core.chance import Deck
from spieltisch.core.errors import SpieltischError
from spieltisch.core.rng import Rng
from spieltisch.games.skip_bo_masters import analysis, lesson_numbers, positions
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


# the seeds "Neu simulieren" draws are six digits (lesson.widgets.new_seed); the stored output uses seed 0
RUN_AGAIN_SEEDS = [0, 1, 2, 3, 4, 5, 6, 7, 100000, 123456, 271828, 314159, 500000, 654321, 777777, 999999]


def test_run_again_moves_the_means_but_not_the_advice_of_extension_c():
    # teacher note of extension C: "mit „Neu simulieren“ zeigen, dass die Mittelwerte schwanken, die Empfehlung
    # aber dieselbe bleibt" -- with the advisor's default settings, as the notebook calls it
    state = positions.toll_decision()
    obs = state.observation(0)
    means = set()
    for seed in RUN_AGAIN_SEEDS:
        advice = state.game.advise(obs, seed=seed)
        assert [type(o.action) for o in advice.options if o.best] == [PayToll], seed
        assert len(advice.options) == 2  # pay or decline: the star is on paying alone
        means.add(advice.options[0].value.mean)
    assert len(means) > len(RUN_AGAIN_SEEDS) // 2  # the means do move from seed to seed


def test_the_lessons_table_says_no_round_and_asks_the_toll():
    for state in (positions.waiting_for_a_card(), positions.toll_decision()):
        obs = state.observation(0)
        for lang, head, word in (("de", "Der Tisch (Münzsymbole", "Runde"), ("en", "The table (coin symbols", "Round")):
            engine = state.game.render_observation(obs, lang).split("\n")
            lesson = lesson_numbers.table(state.game, obs, lang).split("\n")
            assert engine[0].startswith(f"{word} 1 ") and lesson[0].startswith(head)
            assert not any(word in line for line in lesson)
            # the table itself as the engine draws it, the coins beside a pile written out (no "¢")
            words = {"de": ("Münze", "Münzen"), "en": ("coin", "coins")}[lang]
            written = [re.sub(r"\+(\d+)¢", lambda m: f"+{m[1]} {words[m[1] != '1']}", line) for line in engine[1:-1]]
            assert lesson[1:-1] == written and not any("¢" in line for line in lesson)
            if obs["phase"] == TOLL:
                assert obs["toll_due"] == 2
                assert lesson[-1] == {"de": "Spieler 1: 2 Münzen Gebühr zahlen?",
                                      "en": "Player 1: pay a toll of 2 coins?"}[lang]
            else:
                assert lesson[-1] == engine[-1]
            # a later deal keeps its number: there "Runde 2" is what the game's view shows as well
            later = dict(obs, deal=2)
            assert lesson_numbers.table(state.game, later, lang).startswith(f"{word} 2 ")


# --- question 2 without coins: every hand counted by hand --------------------------------------------

def _unseen_by_value(obs) -> dict:
    from spieltisch.games.skip_bo_masters.engine import unseen_cards
    out: dict = {}
    for c, k in unseen_cards(obs).counts().items():
        out[c % 100] = out.get(c % 100, 0) + k
    return out


def _smallest_hand_in(h: dict) -> bool:
    """The lesson's four smallest hands for a 7 on piles at 4 (read off the rules, not the search):
    Skip-Bo + Skip-Bo, Skip-Bo + 5, Skip-Bo + 6, 5 + 6."""
    sb, five, six = h.get(0, 0), h.get(5, 0), h.get(6, 0)
    return sb >= 2 or (sb >= 1 and five + six >= 1) or (five >= 1 and six >= 1)


def _multisets(counts: dict, k: int):
    """Every hand of ``k`` cards by value with its number of ways (a product of binomials)."""
    values = sorted(counts)

    def rec(i, left):
        if left == 0:
            yield {}, 1
            return
        if i == len(values):
            return
        v = values[i]
        for t in range(min(left, counts[v]), -1, -1):
            for rest, w in rec(i + 1, left - t):
                yield ({v: t, **rest} if t else rest), w * math.comb(counts[v], t)
    yield from rec(0, k)


def test_question_2_is_the_share_of_hands_holding_a_smallest_hand():
    obs = positions.waiting_for_a_card().observation(0)
    assert obs["stock_tops"][1] % 100 == 7 and sorted(b["value"] for b in obs["building"] if b) == [4, 4]
    counts = _unseen_by_value(obs)
    good = sum(w for h, w in _multisets(counts, 5) if _smallest_hand_in(h))
    total = math.comb(sum(counts.values()), 5)
    assert analysis.chance_stock_playable(obs, 1) == Fraction(good, total)
    assert lesson_numbers.hands_that_play(obs, 1) == (good, total)
    assert total == math.comb(154, 5)
    # the upper bound of the lesson: a 5 or a Skip-Bo card among the 5 (the complement along the path)
    path = Fraction(1)
    for i in range(5):
        path *= Fraction(120 - i, 154 - i)
    assert analysis.hypergeometric_at_least_one(154, 34, 5) == 1 - path
    assert analysis.chance_stock_playable(obs, 1) < 1 - path
    assert analysis.chance_within(obs, 5, 5) == 1 - path  # question 1's table at k = 5 is the same number


def test_the_smallest_hands_are_the_four_of_the_lesson():
    obs = positions.waiting_for_a_card().observation(0)
    vals = tuple(-1 if b is None else b["value"] for b in obs["building"])
    needs = analysis.hand_needs(7, vals, [[c % 100 for c in d] for d in obs["discards"][1]])
    as_dicts = sorted(sorted((v, n) for v, n in enumerate(u) if n) for u in needs)
    assert as_dicts == sorted([[(0, 2)], [(0, 1), (5, 1)], [(0, 1), (6, 1)], [(5, 1), (6, 1)]])


# --- question 3: the coins, played by the engine ---------------------------------------------------

def test_one_card_of_five_six_or_skip_bo_is_the_lower_bound_of_question_3():
    obs = positions.waiting_for_a_card().observation(0)
    assert lesson_numbers.among_unseen(obs, {5, 6}) == (12 + 11 + 22, 154)
    path = Fraction(1)
    for i in range(5):
        path *= Fraction(109 - i, 154 - i)
    assert analysis.hypergeometric_at_least_one(154, 45, 5) == 1 - path
    assert round(float(1 - path) * 1000) == 827  # 82,7 %


HAND_KINDS = [5, 105, 205, 0, 6, 206, 12]  # every kind that matters for a 7 on piles at 4, and one that never fits


def _hands_of_kinds(obs):
    """Every hand of 5 made of ``HAND_KINDS`` that the unseen cards hold (one 105, one 205, one 206)."""
    from itertools import combinations_with_replacement

    from spieltisch.games.skip_bo_masters.engine import unseen_cards
    have = unseen_cards(obs).counts()
    return [list(h) for h in combinations_with_replacement(HAND_KINDS, 5)
            if all(h.count(c) <= have.get(c, 0) for c in set(h))]


def test_the_engine_plays_the_seven_by_every_reading_of_question_2_and_3():
    """Independent of the lesson's counting: the engine searches its own legal moves for every hand
    made of the kinds that matter. Without coins it finds a line exactly for the hands
    holding a smallest hand (question 2); with coins but no buying exactly for those holding a 5, a
    6 or a Skip-Bo card (question 3's lower bound); with buying for every hand (question 3)."""
    state = positions.waiting_for_a_card()
    obs, game = state.observation(0), state.game
    own = coins = bought = 0
    hands = _hands_of_kinds(obs)
    assert len(hands) > 100
    for hand in hands:
        turn = lesson_numbers.opponent_turn(game, obs, 1, hand)
        h = {}
        for c in hand:
            h[c % 100] = h.get(c % 100, 0) + 1
        plain = lesson_numbers.stock_line(turn, replace=False, buy=False) is not None
        assert plain == _smallest_hand_in(h), hand
        assert plain == analysis.stock_playable_with(h, 7, (4, 4, -1, -1), [[10]])
        with_coins = lesson_numbers.stock_line(turn, buy=False) is not None
        assert with_coins == any(c % 100 in (0, 5, 6) for c in hand), hand
        assert lesson_numbers.stock_line(turn) is not None, hand
        own, coins, bought = own + plain, coins + with_coins, bought + 1
    assert 0 < own < coins < bought == len(hands)  # the three readings really differ


def test_a_line_of_the_engine_is_legal_and_gets_the_stock_card_away():
    state = positions.waiting_for_a_card()
    obs, game = state.observation(0), state.game
    hand = lesson_numbers.hand_lacking(obs, range(1, 8))
    assert hand == [12] * 5
    turn = lesson_numbers.opponent_turn(game, obs, 1, hand)
    assert turn.current_player() == 1 and turn.hands[1] == hand and turn.coins == obs["coins"]
    assert turn.card_count() == 168 and turn.stock_top == obs["stock_tops"]
    line = lesson_numbers.stock_line(turn)
    assert [type(a).__name__ for a in line] == ["Replace", "Buy", "Play"]
    assert (line[0].cost, line[1].owner, line[1].card % 100, line[2].src, line[2].card % 100) == (5, 0, 6, "stock", 7)
    s = turn.clone()
    for a in line:
        while s.current_player() < 0:
            s.apply_action(s.sample_chance(Rng(1)))
        s.apply_action(a)  # raises if the engine does not allow it
    assert s.stock_top[1] is None and s.coins[1] == 9 - 5 - 1
    # negative control: the same hand without coins has no line
    assert lesson_numbers.stock_line(turn, replace=False, buy=False) is None
    with pytest.raises(SpieltischError, match="not among the cards"):
        lesson_numbers.opponent_turn(game, obs, 1, [206, 206, 12])  # one 6 with 2 coin symbols in the deck
    with pytest.raises(SpieltischError, match="own hand"):
        lesson_numbers.opponent_turn(game, obs, 0, hand)


def test_coin_cases_make_question_3_certain():
    state = positions.waiting_for_a_card()
    obs, game = state.observation(0), state.game
    chance, cases = lesson_numbers.coin_cases(game, obs, 1)
    assert chance == 1
    (a, p_a, lines_a), (b, p_b, lines_b) = cases
    assert (a, b) == ("A", "B") and p_a + p_b == 1
    assert p_a == 1 - analysis.hypergeometric_at_least_one(154, 34, 5)
    assert [h[0] for h, _ in lines_b] == [0, 5, 105, 205]  # a Skip-Bo card and the three kinds of 5
    assert all(type(line[-1]).__name__ == "Play" and line[-1].src == "stock" for _, line in lines_a + lines_b)


def test_simulated_with_coins_agrees_with_the_lower_bound_and_the_engine():
    state = positions.waiting_for_a_card()
    obs, game = state.observation(0), state.game
    sims = lesson_numbers.simulated_with_coins(game, obs, 1, {5, 6}, 1000, seed=6)
    assert within(analysis.hypergeometric_at_least_one(154, 45, 5), sum(a for a, _ in sims), 1000)
    assert all(b for _, b in sims)


# --- extension A: what the must-play rule (D5) tells -------------------------------------------------

def test_player_2_kept_a_card_that_fitted_no_pile():
    state = positions.waiting_for_a_card()
    obs = state.observation(0)
    assert lesson_numbers.kept_cards_cannot_be(obs) == {0, 1, 5}
    assert obs["hand_sizes"][1] == 1 and state.hands[1][0] % 100 not in (0, 1, 5)  # true in the game too


def test_knowing_the_kept_card_by_hand():
    obs = positions.waiting_for_a_card().observation(0)
    cannot = lesson_numbers.kept_cards_cannot_be(obs)
    # question 1: the 34 fitting cards are all among the 153 other unseen cards, 2 of them drawn
    assert lesson_numbers.chance_within_knowing(obs, 5, 2, 1, cannot) == 1 - Fraction(119 * 118, 153 * 152)
    assert lesson_numbers.chance_within_knowing(obs, 5, 2, 1, set()) == analysis.chance_within(obs, 5, 2)
    # question 2: the kept card is one of the 109 unseen cards that are no 1, 5 or Skip-Bo card, the 4 new
    # ones any 4 of the other 153
    counts = _unseen_by_value(obs)
    good = total = 0
    for v, n in counts.items():
        if v in cannot:
            continue
        rest = dict(counts)
        rest[v] -= 1
        for h, w in _multisets(rest, 4):
            h = {**h, v: h.get(v, 0) + 1}
            total += n * w
            good += n * w if _smallest_hand_in(h) else 0
    assert total == 109 * math.comb(153, 4)
    knowing = lesson_numbers.chance_stock_playable_knowing(obs, 1, cannot)
    assert knowing == Fraction(good, total) < analysis.chance_stock_playable(obs, 1)
    assert lesson_numbers.chance_stock_playable_knowing(obs, 1, set()) == analysis.chance_stock_playable(obs, 1)


def test_simulated_knowing_by_rejection_agrees():
    obs = positions.waiting_for_a_card().observation(0)
    cannot = lesson_numbers.kept_cards_cannot_be(obs)
    sims = lesson_numbers.simulated_knowing(obs, 5, 2, 1, cannot, 4000, seed=8)
    n = len(sims)
    assert 4000 * 0.6 < n < 4000 * 0.8  # 109 of 154 kept cards are allowed: about 71 % of the deals stay
    assert within(lesson_numbers.chance_within_knowing(obs, 5, 2, 1, cannot), sum(a for a, _ in sims), n)
    assert within(lesson_numbers.chance_stock_playable_knowing(obs, 1, cannot), sum(b for _, b in sims), n)
    # negative control: without the rejection the second share is the plain chance, clearly higher
    plain = lesson_numbers.simulated_knowing(obs, 5, 2, 1, set(), 4000, seed=8)
    assert not within(lesson_numbers.chance_stock_playable_knowing(obs, 1, cannot), sum(b for _, b in plain), 4000)


# --- what the lesson's text says about its tables ---------------------------------------------------

def _lesson(lang):
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parents[3] / "notebooks" / lang / "skip-bo-masters.ipynb"
    return json.loads(path.read_text(encoding="utf-8"))


def test_player_2s_last_turn_is_what_extension_a_says():
    # "Spieler 2 hat seinen letzten Zug mit 2 Handkarten beendet: eine auf den Hilfsstapel (die 10), eine
    # behalten ... eine Gebühr hat er nicht abgelehnt"
    from spieltisch.games.skip_bo_masters.engine import DeclineToll, Discard
    log: list = []
    state = positions.waiting_for_a_card(log=log)
    last = []
    for seat, action in reversed(log):
        if seat != 1:
            break
        last.append(action)
    assert last and type(last[0]) is Discard and last[0].card % 100 == 10
    assert not any(type(a) is DeclineToll for a in last)
    assert state.observation(0)["hand_sizes"][1] == 1  # 2 cards before the discard
    assert state.observation(0)["discards"][1] == [[last[0].card], [], [], []]


def test_the_worksheet_states_the_table_of_the_lesson():
    obs = positions.waiting_for_a_card().observation(0)
    name = lambda c: "Skip-Bo" if c % 100 == 0 else str(c % 100)  # noqa: E731
    for lang in ("de", "en"):
        q1, q2, q3 = _lesson(lang)["metadata"]["spieltisch"]["lesson"]["worksheet"]
        assert ", ".join(name(c) for c in obs["hand"]) + ";" in q1["task"]
        for b in obs["building"]:
            if b is not None:
                assert ", ".join(name(c) for c in b["cards"]) in q1["task"]
        tops = [name(c) for c in obs["stock_tops"]]
        assert f"{tops[0]} ({'deiner' if lang == 'de' else 'yours'}) " in q1["task"] and f" {tops[1]};" in q1["task"]
        assert [[name(c) for c in d] for d in obs["discards"][0] if d] == [["11"]]
        assert [[name(c) for c in d] for d in obs["discards"][1] if d] == [["10"]]
        assert f" {obs['draw_size']}" in q1["task"]
        assert all(f" {n}" in q1["task"] for n in obs["stock_sizes"])
        assert f" {tops[1]} " in q2["task"] or f" {tops[1]}," in q2["task"]
        assert f" {obs['coins'][1]} " in q3["question"]
        # the review: naming player 1's 6 beside the prediction line points straight at "buy it"
        assert not any(w in q3["task"] for w in ("deiner", "yours", f" {tops[0]})"))
