"""Numbers the Skip-Bo Masters lesson (``notebooks/*/skip-bo-masters.ipynb``) needs beyond ``analysis``.

Every chance here is computed from one player's observation (the viewer's), with the assumptions
the lesson states:

- **A hand treated as random.** The viewer cannot see an opponent's hand; the lesson treats it as
  a random selection of the cards the viewer cannot see (``analysis.unseen_cards``). That is an
  assumption, not a fact: a player keeps cards on purpose, and under the default rules (D5: every
  playable own card is played before the discard) a player who just ended their turn holds no card
  that fitted a building pile then. ``chance_within_knowing`` and ``chance_stock_playable_knowing``
  use that knowledge (the kept cards are random among the unseen cards that did not fit), a
  conditional probability.
- **The building piles as they are now.** "Can the opponent play their stock top on their next
  turn?" is asked for the piles as the viewer sees them: the viewer plays nothing on them first.

Coins: ``analysis.chance_stock_playable`` leaves them out (no replacing, no buying; tolls paid).
``stock_line`` asks the engine itself, with its legal moves, whether and how a player gets the
stock top away in the turn to come, with or without coins; ``opponent_turn`` sets that turn up from
the viewer's observation.
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import comb

from ...core.errors import SpieltischError, short
from ...core.game import CHANCE
from ...core.rng import Rng, check_seed
from . import analysis
from .engine import (HAND, TOLL, TOTAL_CARDS, Buy, Play, Replace, PayToll, SkipBoMasters, deck_of, determinize,
                     unseen_cards)

__all__ = ["among_unseen", "branch_chances", "chance_stock_playable_knowing", "chance_within_knowing", "coin_cases",
           "first_step", "hand_lacking", "hands_that_play", "kept_cards_cannot_be", "opponent_turn", "simulated_knowing",
           "simulated_with_coins", "smallest_hands", "stock_line", "table"]

WILD = 0


def among_unseen(obs: dict, values, wild: bool = True) -> tuple:
    """``(good, total)``: how many of the cards the viewer cannot see have a value in ``values``
    (or, with ``wild``, are Skip-Bo cards), and how many cards the viewer cannot see."""
    values = set(values)
    for v in values:
        analysis._value_arg(v)
    unseen = unseen_cards(obs)
    good = sum(n for c, n in unseen.counts().items() if c % 100 in values or (wild and c % 100 == WILD))
    return good, unseen.total


def branch_chances(obs: dict, value: int, k: int) -> list:
    """The tree of ``analysis.chance_within`` drawn card by card: entry j is the chance that card
    j + 1 fits (a ``value`` or a Skip-Bo card) when the j cards before did not (one card fewer left
    each time, every fitting card still there: drawing without replacement)."""
    good, total = analysis.needed_among_unseen(obs, value)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= obs["draw_size"]:
        raise SpieltischError(f"the draw pile holds {obs['draw_size']} cards: k must be 1 to {obs['draw_size']}, not {short(k)}")
    return [Fraction(good, total - j) for j in range(k)]


def first_step(obs: dict, opponent: int) -> int:
    """The number ``opponent`` needs first on the way to their stock top: what the highest building
    pile below it needs next (a 1 on a free place if no pile is below it)."""
    stock, vals, _ = analysis._opponent_stock(obs, opponent)
    top = stock % 100
    if top == WILD:
        raise SpieltischError("a Skip-Bo card on the stock fits any pile: there is no step missing")
    return max([v for v in vals if v < top] + [0]) + 1


def smallest_hands(obs: dict, opponent: int) -> list:
    """``analysis.hand_needs`` for ``opponent``'s stock top as the viewer sees the table: every
    smallest set of hand cards that lets them play it, each a list of values (0 = Skip-Bo card)."""
    stock, vals, discards = analysis._opponent_stock(obs, opponent)
    return [[v for v, n in enumerate(u) for _ in range(n)] for u in analysis.hand_needs(stock % 100, vals, discards)]


def hands_that_play(obs: dict, opponent: int) -> tuple:
    """``(good, total)``: of the C(N, 5) hands of 5 cards from the N cards the viewer cannot see, how
    many let ``opponent`` play their stock top with their own cards (``analysis.chance_stock_playable``
    is good / total: every hand equally likely, a Laplace count)."""
    p = analysis.chance_stock_playable(obs, opponent)
    n = unseen_cards(obs).total
    total = comb(n, min(HAND, n))
    good = p * total
    assert good.denominator == 1
    return int(good), total


# --- what the must-play rule (D5) tells about a kept card -------------------------------------------

def kept_cards_cannot_be(obs: dict) -> frozenset:
    """The values (0 = Skip-Bo card) a card cannot have that the player before the viewer kept in
    hand at the end of their turn, under D5 (every card of one's own that can be played is played
    before the discard): a Skip-Bo card and every number a building pile needs now (a 1 while a
    place is free). This holds when the piles are as that player left them (the viewer has not
    played yet: the viewer is at the start of their turn) and that player's turn did not end with
    a declined toll (a declined toll ends the playing at once, D3): the caller checks both."""
    if obs["chance"] is None and obs["phase"] != "play":
        raise SpieltischError("the piles tell about a kept card only at the start of the viewer's turn")
    needs = {WILD}
    for b in obs["building"]:
        if b is None:
            needs.add(1)
        elif b["value"] < 12:
            needs.add(b["value"] + 1)
    return frozenset(needs)


def _split(unseen, excluded) -> tuple:
    """(counts by value of the unseen cards, the same restricted to values not in ``excluded``)."""
    by_value: dict = {}
    for c, k in unseen.counts().items():
        by_value[c % 100] = by_value.get(c % 100, 0) + k
    allowed = {v: k for v, k in by_value.items() if v not in excluded}
    return by_value, allowed


def _held_by(obs: dict, player: int) -> int:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(obs["coins"]):
        raise SpieltischError(f"no player {short(player)} in a game of {len(obs['coins'])} players")
    if player == obs["viewer"]:
        raise SpieltischError("the viewer knows their own hand; ask about another player")
    return obs["hand_sizes"][player]


def chance_within_knowing(obs: dict, value: int, k: int, opponent: int, excluded) -> Fraction:
    """``analysis.chance_within`` (a ``value`` or a Skip-Bo card among the viewer's next ``k``
    draws) when the viewer knows that none of the cards ``opponent`` holds has a value in
    ``excluded`` (0 = Skip-Bo card): ``opponent``'s cards are random among the unseen cards that are
    not excluded, the draw pile random among the rest. Sums over how many fitting cards the opponent
    holds (hypergeometric twice)."""
    analysis._value_arg(value)
    h = _held_by(obs, opponent)
    unseen = unseen_cards(obs)
    by_value, allowed = _split(unseen, set(excluded))
    fit = lambda v: v == value or v == WILD  # noqa: E731
    pool = sum(allowed.values())
    fit_pool = sum(n for v, n in allowed.items() if fit(v))
    good = sum(n for v, n in by_value.items() if fit(v))
    rest = unseen.total - h
    if h > pool or not 1 <= k <= obs["draw_size"] or k > rest:
        raise SpieltischError(f"cannot hold {h} cards of {pool} and draw {short(k)} of {rest}")
    out = Fraction(0)
    for j in range(0, min(h, fit_pool) + 1):  # j fitting cards among the opponent's
        p_j = Fraction(comb(fit_pool, j) * comb(pool - fit_pool, h - j), comb(pool, h))
        out += p_j * analysis.hypergeometric_at_least_one(rest, good - j, k)
    return out


def _hands(kinds: list, k: int):
    """Every way to pick ``k`` cards from ``kinds`` [(value, count)]: ({value: count}, weight)."""
    for comp, w in analysis._compositions(kinds, k):
        yield {kinds[i][0]: t for i, t in comp}, w


def chance_stock_playable_knowing(obs: dict, opponent: int, excluded) -> Fraction:
    """``analysis.chance_stock_playable`` (``opponent`` can play their stock top next turn with their
    own cards: a hand of 5, their discard piles, the building piles as now; coins left out) when the
    viewer knows that none of the cards ``opponent`` holds now has a value in ``excluded``: the kept
    cards are random among the unseen cards that are not excluded, the cards they draw to fill the
    hand random among the rest."""
    h = _held_by(obs, opponent)
    stock, vals, discards = analysis._opponent_stock(obs, opponent)
    needed = analysis.hand_needs(stock % 100, vals, discards)
    unseen = unseen_cards(obs)
    by_value, allowed = _split(unseen, set(excluded))
    pool = sum(allowed.values())
    draw = min(HAND, unseen.total) - h
    if h > pool or draw < 0:
        raise SpieltischError(f"player {opponent + 1} holds {h} cards: that does not fit the unseen cards")
    good = total = 0
    for kept, w1 in _hands(sorted(allowed.items()), h):
        rest = dict(by_value)
        for v, t in kept.items():
            rest[v] -= t
        for new, w2 in _hands(sorted((v, n) for v, n in rest.items() if n), draw):
            hand = [kept.get(v, 0) + new.get(v, 0) for v in range(13)]
            w = w1 * w2
            total += w
            if analysis._holds_a_need(needed, hand):
                good += w
    assert total == comb(pool, h) * comb(unseen.total - h, draw)  # every (kept, drawn) pair once
    return Fraction(good, total)


def simulated_knowing(obs: dict, need: int, k: int, opponent: int, excluded, trials: int, seed: int = 0) -> list:
    """The simulation of both ``*_knowing`` chances by rejection: the unseen cards are shuffled
    ``trials`` times and dealt as the table has them (``opponent``'s kept cards, then the draw pile:
    the viewer's ``k`` cards first, then the opponent's new ones); a deal in which a kept card has a
    value in ``excluded`` is thrown away. One entry per deal kept: (a ``need`` or a Skip-Bo card
    among the viewer's k cards, ``opponent`` can play their stock top with the kept and new cards)."""
    check_seed(seed)
    h = _held_by(obs, opponent)
    excluded = set(excluded)
    stock, vals, discards = analysis._opponent_stock(obs, opponent)
    needed = analysis.hand_needs(stock % 100, vals, discards)
    unseen = unseen_cards(obs)
    rng = Rng(seed)
    out = []
    for _ in range(trials):
        cards, _ = unseen.deal(h + k + HAND - h, rng)  # in dealing order: kept, viewer's k, opponent's new
        kept, mine, new = cards[:h], cards[h:h + k], cards[h + k:]
        if any(c % 100 in excluded for c in kept):
            continue
        hand = [0] * 13
        for c in kept + new:
            hand[c % 100] += 1
        out.append((any(c % 100 in (need, WILD) for c in mine), analysis._holds_a_need(needed, hand)))
    return out


# --- the opponent's next turn, played by the engine ----------------------------------------------

def hand_lacking(obs: dict, values, size: int = HAND) -> list:
    """``size`` cards the viewer cannot see, none of them a Skip-Bo card or of a value in ``values``:
    the highest numbers first (cards that fit no low pile), for a hand that holds none of them."""
    values = set(values) | {WILD}
    pool = sorted((c for c in unseen_cards(obs).cards() if c % 100 not in values), key=lambda c: (-(c % 100), c))
    if len(pool) < size:
        raise SpieltischError(f"fewer than {size} unseen cards avoid the values {sorted(values)}")
    return sorted(pool[:size])


def opponent_turn(game: SkipBoMasters, obs: dict, opponent: int, hand, seed: int = 0):
    """The state at the start of ``opponent``'s next turn as the viewer of ``obs`` imagines it: the
    table as ``obs`` shows it (building piles, stock tops, discard piles, coins: the viewer plays
    nothing on the piles first), ``opponent`` to move with ``hand`` (cards the viewer cannot see),
    every other card the viewer cannot see face down (other hands dealt from them with ``seed``)."""
    _held_by(obs, opponent)
    if obs["reshuffles"]:
        raise SpieltischError("a table whose draw pile was made from completed piles is not set up here")
    hand = sorted(hand)
    unseen = unseen_cards(obs)
    try:
        rest = unseen.remove_all(hand)
    except Exception:
        raise SpieltischError(f"the hand {hand} is not among the cards the viewer cannot see") from None
    if len(hand) > HAND:
        raise SpieltischError(f"a hand holds at most {HAND} cards, not {len(hand)}")
    s = determinize(game, obs, Rng(seed))
    rng = Rng(seed)
    for q in range(game.num_players):
        if q == opponent:
            s.hands[q] = list(hand)
        elif q != obs["viewer"]:
            cards, rest = rest.deal(obs["hand_sizes"][q], rng)
            s.hands[q] = sorted(cards)
    s.pool = rest
    s.orig_left = rest.total - sum(s.stock_down)
    s.draw = deck_of(())
    s.turn, s.phase, s.pending = opponent, "play", []
    s.toll_due, s.toll_pile, s.follow_pile = 0, -1, -1
    s.stock_moved, s.filled = False, len(hand)
    if s.orig_left < 0 or s.card_count() != TOTAL_CARDS:
        raise SpieltischError("the table does not add up to the deck")
    return s


def _order(a) -> int:
    """Try the stock card first, then buying a card (1 coin), then coins for a missing card, then own
    cards: the cheap lines are found first."""
    t = type(a)
    if t is Play and a.src == "stock":
        return 0
    return {Buy: 1, Replace: 2, PayToll: 3}.get(t, 4)


def stock_line(state, replace: bool = True, buy: bool = True, seed: int = 0):
    """The moves (engine actions) with which the player to move gets their stock top onto a
    building pile in this turn, or None if no sequence of legal moves does: own cards always (tolls
    are paid), ``replace``: paying coins for a missing card, ``buy``: a card bought from another
    player. The engine's own legal moves are searched (depth first, every position once); a chance
    step on the way (a card turned up, a hand emptied and filled again) is drawn with ``seed``."""
    check_seed(seed)
    p = state.current_player()
    if p < 0:
        raise SpieltischError("no player is to move here")
    rng = Rng(seed)
    allowed = (Play, PayToll) + ((Replace,) if replace else ()) + ((Buy,) if buy else ())
    seen: set = set()

    def search(s, path):
        while s.current_player() == CHANCE:
            s.apply_action(s.sample_chance(rng))
        if s.current_player() != p:
            return None
        key = s.snapshot()
        if key in seen:
            return None
        seen.add(key)
        moves = sorted((a for a in s.legal_actions() if type(a) in allowed), key=_order)
        for a in moves:
            if type(a) is Play and a.src == "stock":
                return path + [a]
        for a in moves:
            nxt = s.clone()
            nxt.apply_action(a)
            got = search(nxt, path + [a])
            if got is not None:
                return got
        return None

    return search(state.clone(), [])


def simulated_with_coins(game: SkipBoMasters, obs: dict, opponent: int, values, trials: int, seed: int = 0) -> list:
    """``trials`` random hands of 5 for ``opponent`` from the cards the viewer cannot see (their
    next turn, the piles as now): per hand (a card of ``values`` or a Skip-Bo card in it, the engine
    finds a line with coins and buying, ``stock_line``)."""
    check_seed(seed)
    values = set(values)
    unseen = unseen_cards(obs)
    rng = Rng(seed)
    out = []
    for _ in range(trials):
        hand, _ = unseen.deal(HAND, rng)
        turn = opponent_turn(game, obs, opponent, hand, seed=seed)
        out.append((any(c % 100 in values or c % 100 == WILD for c in hand), stock_line(turn, seed=seed) is not None))
    return out


def _sound_for_case(state, line, card, lacks) -> bool:
    """Whether ``line`` (found for one hand of a case) works for every hand of that case: it plays
    from the hand at most the case's ``card``, and it replaces only values every hand of the case
    lacks (``lacks``, with the Skip-Bo card: D6 lets a player replace only a card they do not hold)."""
    s, rng = state.clone(), Rng(0)
    for a in line:
        while s.current_player() == CHANCE:  # a card turned up on the way: which one does not matter here
            s.apply_action(s.sample_chance(rng))
        if type(a) is Play and a.src == "hand" and a.card != card:
            return False
        if type(a) is Replace:
            pile = s.building[a.pile]
            if (1 if pile is None else pile.value + 1) not in lacks:
                return False
        s.apply_action(a)
    return True


def coin_cases(game: SkipBoMasters, obs: dict, opponent: int, seed: int = 0) -> tuple:
    """Whether ``opponent`` gets their stock top away in their next turn with coins (replacing and
    buying as the rules allow), the building piles as now, in two cases of their hand of 5: (A) it
    holds no card for the first missing step (the number the nearest pile below the stock top needs
    next) and no Skip-Bo card; (B) it holds one. For each case the engine searches a line
    (``stock_line``) with a hand of the case whose other cards fit no pile below the stock top
    (``hand_lacking``); in (B) once for every kind of card for that step the viewer cannot see (a
    number with 0, 1 or 2 coin symbols, a Skip-Bo card). A line counts for its whole case only if it
    plays no other hand card and replaces only a card no hand of the case holds (``_sound_for_case``).

    Returns ``(chance, cases)``: ``cases`` = [(case "A"/"B", probability, [(hand, line), ...])],
    ``chance`` the sum of the probabilities of the cases with such a line for every hand shown: the
    exact chance when both cases have one (then 1); raises otherwise (that needs every hand)."""
    stock, _, _ = analysis._opponent_stock(obs, opponent)
    top = stock % 100
    first = first_step(obs, opponent)
    good, total = analysis.needed_among_unseen(obs, first)
    p_none = Fraction(comb(total - good, HAND), comb(total, HAND))
    low = range(1, top + 1)
    kinds = sorted({c for c in unseen_cards(obs).cards() if c % 100 in (first, WILD)})
    cases = (("A", p_none, [(None, hand_lacking(obs, low))], {first}),
             ("B", 1 - p_none, [(c, [c] + hand_lacking(obs, low, HAND - 1)) for c in kinds], set()))
    out, chance = [], Fraction(0)
    for case, p, hands, lacks in cases:
        lines = []
        for card, hand in hands:
            turn = opponent_turn(game, obs, opponent, hand, seed=seed)
            line = stock_line(turn, seed=seed)
            if line is None or not _sound_for_case(turn, line, card, lacks):
                raise SpieltischError(f"case {case}: no line for every hand with {hand}; count every hand instead")
            lines.append((hand, line))
        chance += p
        out.append((case, p, lines))
    return chance, out


def table(game: SkipBoMasters, obs: dict, lang: str = "de") -> str:
    """The engine's table of ``obs`` as the lesson prints it. In the first deal of a game without
    points the head says "Der Tisch" instead of "Runde 1", as the game's own view leaves the deal out
    then: students read "Runde" as a round of turns, while player 1 is already in a later turn. A
    pending toll is asked as a question ("Spieler 1: 2 Münzen Gebühr zahlen?"), not as the engine's
    short "Spieler 1 Gebühr 2?". The coins beside a building pile are written out ("+3 Münzen"), not
    with the engine's "¢" (a cent sign: a class reads it as money)."""
    de = lang == "de"
    lines = game.render_observation(obs, lang).split("\n")
    words = ("Münze", "Münzen") if de else ("coin", "coins")
    lines = [re.sub(r"\+(\d+)¢", lambda m: f"+{m[1]} {words[m[1] != '1']}", line) for line in lines]
    head = f"Runde {obs['deal']}" if de else f"Round {obs['deal']}"
    if obs["deal"] == 1 and not any(obs["totals"]) and lines[0].startswith(head):
        lines[0] = ("Der Tisch " if de else "The table ") + lines[0][len(head):].lstrip()
    if not obs["terminal"] and obs["chance"] is None and obs["phase"] == TOLL:
        who, due = obs["turn"] + 1, obs["toll_due"]
        lines[-1] = (f"Spieler {who}: {due} Münze{'n' if due != 1 else ''} Gebühr zahlen?" if de else
                     f"Player {who}: pay a toll of {due} coin{'s' if due != 1 else ''}?")
    return "\n".join(lines)
