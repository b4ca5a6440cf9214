"""Exact chances from one player's view, the game's exact facts, and the advisor.

Everything here reads an observation (what one player may see), never a state:

- ``unseen_cards(obs)``: the cards the viewer cannot see (other hands, the draw pile, face-down stock
  cards). Drawing from a well-shuffled pile makes the next ``k`` draws a uniformly random
  ``k``-subset of these (the viewer cannot tell them apart), so
- ``chance_within(obs, value, k)`` is hypergeometric: the chance that a card of ``value`` or a wild
  card is among the next ``k`` draws;
- ``chance_stock_playable(obs, opponent)`` is the chance that ``opponent`` can play their stock top
  on their next turn: their refilled hand of 5 is a random 5-subset of the unseen cards (the viewer
  does not know the cards they hold either), every hand is enumerated by kinds with its exact
  multivariate hypergeometric weight and tried against the building piles as they are now, with
  the opponent's open discard piles; coins are left out (no buying or replacing, tolls paid).
- ``advise``: every option of the decision, valued by determinized play-outs: the hidden cards are
  drawn from the observation (``engine.determinize``), the option is played, then every player
  plays on with the greedy policy until the end of the adviser's next turn.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

from ...core.advice import make_advice
from ...core.dist import exact_json
from ...core.errors import SpieltischError, short
from ...core.game import CHANCE
from ...core.rng import Rng, check_seed
from ...core.stats import Estimate, mean_ci, paired_tie
from ...core.view import num
from .engine import (COINS, DRAWS, FULL_DECK, HAND, PILES, PROVENANCE, REVEALS, TOLL, TOP, DeclineToll, PayToll,
                     SkipBoMasters, determinize, is_wild, unseen_cards)
from .engine import Buy, Play, Replace
from .planner import View, greedy_move, plan

__all__ = ["advise", "analyze", "cards_by_symbols", "chance_pile_need_within", "chance_stock_playable", "hand_needs",
           "chance_within", "expected_symbols", "hypergeometric_at_least_one", "needed_among_unseen", "simulated_stock_playable",
           "simulated_symbols", "simulated_within", "stock_playable_with", "symbols_distribution", "unseen_cards"]


# --- hypergeometric --------------------------------------------------------------------------------

def hypergeometric_at_least_one(total: int, good: int, k: int) -> Fraction:
    """Chance that ``k`` cards drawn without replacement from ``total``, ``good`` of them good,
    hold at least one good card: 1 - C(total-good, k) / C(total, k)."""
    if not 0 <= k <= total or not 0 <= good <= total:
        raise SpieltischError(f"cannot draw {k} of {total} cards with {good} good ones")
    return 1 - Fraction(comb(total - good, k), comb(total, k))


def _value_arg(value):
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= TOP:
        raise SpieltischError(f"a needed card is a number 1-{TOP}, not {short(value)}")
    return value


def _fits(card: int, value: int, wild: bool) -> bool:
    """Whether ``card`` serves as a ``value`` (itself, or with ``wild`` a Skip-Bo card)."""
    return card % 100 == value or (wild and is_wild(card))


def chance_within(obs: dict, value: int, k: int, wild: bool = True) -> Fraction:
    """Exact chance, from the viewer's observation, that a card of ``value`` (or, with ``wild``, a
    Skip-Bo card) is among the next ``k`` cards drawn, 1 <= k <= the draw pile's size."""
    _value_arg(value)
    size = obs["draw_size"]
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= size:
        raise SpieltischError(f"the draw pile holds {size} cards: k must be 1 to {size}, not {short(k)}")
    good, total = needed_among_unseen(obs, value, wild)
    return hypergeometric_at_least_one(total, good, k)


def chance_pile_need_within(obs: dict, pile: int, k: int, wild: bool = True) -> Fraction:
    """``chance_within`` for the card building pile ``pile`` (0-3) needs next (a 1 for a free
    place); a pile that needs nothing (at 12) has chance 0."""
    if isinstance(pile, bool) or not isinstance(pile, int) or not 0 <= pile < PILES:
        raise SpieltischError(f"a building pile is 0 to {PILES - 1}, not {short(pile)}")
    b = obs["building"][pile]
    need = 1 if b is None else b["value"] + 1
    if need > TOP:
        return Fraction(0)
    return chance_within(obs, need, k, wild)


def needed_among_unseen(obs: dict, value: int, wild: bool = True) -> tuple:
    """``(good, total)``: how many of the cards the viewer cannot see are a ``value`` (or, with
    ``wild``, a wild card), and how many cards the viewer cannot see. ``chance_within`` is the
    hypergeometric chance over these two counts."""
    _value_arg(value)
    unseen = unseen_cards(obs)
    return sum(n for c, n in unseen.counts().items() if _fits(c, value, wild)), unseen.total


def simulated_within(obs: dict, value: int, k: int, trials: int, seed: int = 0, wild: bool = True) -> list:
    """``trials`` simulated draws of ``k`` cards from the cards the viewer cannot see (a fresh
    shuffle each time): True where a ``value`` (or, with ``wild``, a wild card) is among them.
    The simulation of ``chance_within``."""
    _value_arg(value)
    check_seed(seed)
    unseen = unseen_cards(obs)
    rng = Rng(seed)
    out = []
    for _ in range(trials):
        cards, _ = unseen.deal(k, rng)
        out.append(any(_fits(c, value, wild) for c in cards))
    return out


# --- can an opponent play their stock top? ---------------------------------------------------------

# A set of hand cards is packed into one int: 4 bits per value 0 (wild) to 12, the top bit of each
# field a guard, so "u holds at most what w holds" is one subtraction: ((w | GUARD) - u) & GUARD == GUARD.
_FIELD = 4
GUARD = sum(8 << (_FIELD * v) for v in range(TOP + 1))


def _within(u: int, w: int) -> bool:
    """Every count of ``u`` is at most the count of ``w`` (counts 0-7)."""
    return ((w | GUARD) - u) & GUARD == GUARD


def _unpack(u: int) -> tuple:
    return tuple(u >> (_FIELD * v) & 7 for v in range(TOP + 1))


def hand_needs(stock: int, vals, discards) -> list:
    """The smallest sets of hand cards with which a player can play ``stock`` (its value, 0 = wild)
    onto building piles ``vals`` (pile values, -1 = free place) using also their discard piles
    ``discards`` (values, top last): a list of count tuples over the values 0 (wild) to 12, none
    containing another, each of at most 5 cards. Coins are left out; emptying the hand draws no
    fresh one. ``[(0,) * 13]`` means no hand card is needed; ``[]`` that no hand of 5 will do.

    One search over the table alone (pile values and how much of each discard pile is left), not
    one per hand: a position's answer is the set of hand cards it still needs, so it is shared by
    every hand that gets there."""
    if stock == 0:
        return [(0,) * (TOP + 1)]  # a wild card fits every pile (there is always a pile or a free place)
    stacks = tuple(tuple(d) for d in discards)
    memo: dict = {}
    nothing = ((0, 0),)  # (size, packed): no hand card needed

    def solve(v, heights, budget) -> tuple:
        """Minimal sets of at most ``budget`` hand cards that reach the goal from here."""
        key = (v, heights, budget)
        got = memo.get(key)
        if got is not None:
            return got
        needs = {x + 1 for x in v if x >= 0}
        if -1 in v:
            needs.add(1)
        if stock in needs:
            memo[key] = nothing
            return nothing
        found: list = []
        for need in sorted(needs):
            if need > TOP:
                continue
            # the piles are alike: any one that needs ``need`` takes the card (a 1 starts a new one)
            i = v.index(-1) if need == 1 else v.index(need - 1)
            nv = need if need < TOP else -1
            v2 = tuple(sorted(v[:i] + (nv,) + v[i + 1:]))
            for d, h in enumerate(heights):
                if h and (stacks[d][h - 1] == need or stacks[d][h - 1] == 0):
                    got = solve(v2, heights[:d] + (h - 1,) + heights[d + 1:], budget)
                    if got is nothing:  # reachable without any hand card: nothing beats that
                        memo[key] = nothing
                        return nothing
                    found.extend(got)
            if budget:
                below = solve(v2, heights, budget - 1)
                for c in (need, 0):
                    one = 1 << (_FIELD * c)
                    found.extend((size + 1, u + one) for size, u in below)
        memo[key] = result = _minimal(found)
        return result

    start = (tuple(sorted(vals)), tuple(len(d) for d in stacks))
    return [_unpack(u) for _, u in solve(*start, HAND)]


def _minimal(sets) -> tuple:
    """The (size, packed) sets of ``sets`` that contain no other one (duplicates once)."""
    out: list = []
    for size, u in sorted(set(sets)):
        if not any(_within(w, u) for _, w in out):
            out.append((size, u))
    return tuple(out)


def stock_playable_with(hand: dict, stock: int, vals: tuple, discards) -> bool:
    """Can a player whose hand holds ``hand`` ({value 0-12: count}, 0 = wild) play ``stock`` (its
    value, 0 = wild) onto building piles ``vals`` (-1 = empty slot) with their discard piles
    ``discards`` (lists of values, top last)? Coins left out; a fresh hand mid-turn too."""
    h = tuple(hand.get(v, 0) for v in range(TOP + 1))  # kinds above 12 ("other") never fit
    return _holds_a_need(hand_needs(stock, vals, discards), h)


def _holds_a_need(needed, hand) -> bool:
    """Whether ``hand`` (counts by value 0-12, 0 = wild) holds one of the smallest hands ``needed``."""
    return any(all(a <= b for a, b in zip(u, hand)) for u in needed)


OTHER = TOP + 1  # a kind of card that fits no pile in the search below


def _compositions(kinds: list, k: int):
    """Every way to pick ``k`` cards by kind: lists of (kind index, count), with their weights
    prod C(n_i, k_i) (multivariate hypergeometric numerators)."""
    def rec(i, left):
        if left == 0:
            yield (), 1
            return
        if i == len(kinds):
            return
        _, n = kinds[i]
        for take in range(min(n, left), -1, -1):
            for rest, w in rec(i + 1, left - take):
                yield (((i, take),) + rest if take else rest), w * comb(n, take)
    yield from rec(0, k)


def _opponent_stock(obs: dict, opponent: int) -> tuple:
    """``opponent``'s stock top, the building piles' values (-1 = empty) and ``opponent``'s discard
    piles (values), from the viewer's observation; ``opponent`` must be another player with a stock top."""
    n = len(obs["coins"])
    if isinstance(opponent, bool) or not isinstance(opponent, int) or not 0 <= opponent < n:
        raise SpieltischError(f"no player {short(opponent)} in a game of {n} players")
    if opponent == obs["viewer"]:
        raise SpieltischError("the viewer knows their own hand; ask for another player")
    stock = obs["stock_tops"][opponent]
    if stock is None:
        raise SpieltischError(f"player {opponent + 1} has no stock top")
    vals = tuple(-1 if b is None else b["value"] for b in obs["building"])
    return stock, vals, [[c % 100 for c in d] for d in obs["discards"][opponent]]


def chance_stock_playable(obs: dict, opponent: int) -> Fraction:
    """Exact chance, from the viewer's observation, that ``opponent`` can play their stock top on
    their next turn with the building piles as they are now, their open discard piles and a hand
    of 5 they will hold then (all 5 unknown to the viewer: a random 5-subset of ``unseen_cards``)."""
    stock, vals, discards = _opponent_stock(obs, opponent)
    unseen = unseen_cards(obs)
    # without discard cards to uncover, only wild cards and numbers below the stock top can help:
    # the other numbers are one kind ("other", never fits), which makes far fewer hands to try
    useful = (lambda v: True) if any(discards) else (lambda v: v < stock % 100)
    by_value: dict = {}
    for c, k in unseen.counts().items():
        v = c % 100 if useful(c % 100) else OTHER
        by_value[v] = by_value.get(v, 0) + k
    kinds = sorted(by_value.items())
    size = min(HAND, unseen.total)
    needed = hand_needs(stock % 100, vals, discards)
    good = 0
    for comp, w in _compositions(kinds, size):
        h = [0] * (TOP + 2)
        for i, t in comp:
            h[kinds[i][0]] = t
        if _holds_a_need(needed, h):
            good += w
    return Fraction(good, comb(unseen.total, size))


def simulated_stock_playable(obs: dict, opponent: int, trials: int, seed: int = 0) -> list:
    """The simulation of ``chance_stock_playable``: ``trials`` times a random hand of 5 for
    ``opponent`` drawn from the cards the viewer cannot see; True where the stock top can be played
    with it (``stock_playable_with``, the same table as in the exact count)."""
    check_seed(seed)
    stock, vals, discards = _opponent_stock(obs, opponent)
    needed = hand_needs(stock % 100, vals, discards)  # the search over the table, once
    unseen = unseen_cards(obs)
    size = min(HAND, unseen.total)
    rng = Rng(seed)
    out = []
    for _ in range(trials):
        cards, _ = unseen.deal(size, rng)
        h = [0] * (TOP + 1)
        for c in cards:
            h[c % 100] += 1
        out.append(_holds_a_need(needed, h))
    return out


# --- coin symbols: how often a card asks for a toll ------------------------------------------------

def cards_by_symbols(deck=None) -> dict:
    """``{symbols: cards}`` of a deck (the full deck by default: a RECONSTRUCTION, see
    ``coin_symbols.json``), wild cards included (they show none)."""
    deck = FULL_DECK if deck is None else deck
    out: dict = {}
    for c, k in deck.counts().items():
        out[c // 100] = out.get(c // 100, 0) + k
    return dict(sorted(out.items()))


def symbols_distribution(k: int, deck=None) -> dict:
    """Exact law of the number of coin symbols on ``k`` cards drawn without replacement from
    ``deck`` (the full deck by default): ``{symbols: Fraction}``, a multivariate hypergeometric
    sum over how many cards of each symbol count are drawn."""
    groups = sorted(cards_by_symbols(deck).items())
    total = sum(n for _, n in groups)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= total:
        raise SpieltischError(f"cannot draw {short(k)} of {total} cards")
    table = {(0, 0): 1}  # (cards used, symbols) -> ways, over the groups taken so far
    for s, n in groups:
        nxt: dict = {}
        for (used, sym), w in table.items():
            for take in range(min(n, k - used) + 1):
                key = (used + take, sym + s * take)
                nxt[key] = nxt.get(key, 0) + w * comb(n, take)
        table = nxt
    all_ways = comb(total, k)
    ways: dict = {}
    for (used, sym), w in table.items():
        if used == k:
            ways[sym] = ways.get(sym, 0) + w
    return {sym: Fraction(w, all_ways) for sym, w in sorted(ways.items()) if w}


def expected_symbols(k: int, deck=None) -> Fraction:
    """Expected number of coin symbols on ``k`` cards drawn from ``deck`` (the full deck by default),
    from the exact law ``symbols_distribution``."""
    return sum((s * p for s, p in symbols_distribution(k, deck).items()), Fraction(0))


def simulated_symbols(k: int, trials: int, seed: int = 0, deck=None) -> list:
    """``trials`` times ``k`` cards dealt from a freshly shuffled ``deck`` (the full deck by
    default): the number of coin symbols on them, one entry per trial."""
    check_seed(seed)
    deck = FULL_DECK if deck is None else deck
    rng = Rng(seed)
    return [sum(c // 100 for c in deck.deal(k, rng)[0]) for _ in range(trials)]


# --- exact facts of the game ------------------------------------------------------------------------

def analyze(game: SkipBoMasters, progress=None) -> dict:
    """The deck (a reconstruction), and exact chances from a full shuffled deck: a card of one
    number or a wild card within the first k cards, and the start player's chance to open a pile."""
    n = game.num_players
    total = FULL_DECK.total
    wild = sum(k for c, k in FULL_DECK.counts().items() if is_wild(c))
    per_value = (total - wild) // TOP
    tolls = {}
    for c, k in FULL_DECK.counts().items():
        tolls[c // 100] = tolls.get(c // 100, 0) + k
    within = [{"k": k, "chance": exact_json(hypergeometric_at_least_one(total, per_value + wild, k))}
              for k in (1, 2, 3, 5, 6, 10, 15)]
    if progress:
        progress(1, 2)
    # the start player sees 6 cards (stock top and a hand of 5): can a pile be opened (a 1 or a wild)?
    open_first = hypergeometric_at_least_one(total, per_value + wild, 1 + HAND)
    mean_symbols = Fraction(sum(s * k for s, k in tolls.items()), total)
    if progress:
        progress(2, 2)
    return {
        "game": game.id,
        "ruleset": game.ruleset,
        "players": n,
        "options": dict(game.options),
        "deck": {"cards": total, "wild": wild, "per_number": per_value,
                 "by_coin_symbols": {str(s): k for s, k in sorted(tolls.items())},
                 "provenance": PROVENANCE,
                 "note": "144 numbered + 24 wild cards and the coin symbols: Rekonstruktion / reconstruction "
                         "(coin_symbols.json; the rulebook says 168 cards)"},
        "coins": {"per_player": COINS, "total": COINS * n},
        "stock_pile": game.stock_size,
        "draw_pile_at_start": total - n * game.stock_size,
        "chance_wild_card": exact_json(Fraction(wild, total)),
        "mean_coin_symbols_per_card": exact_json(mean_symbols),
        "chance_number_or_wild_within_k": within,
        "chance_start_player_opens_a_pile": exact_json(open_first),
        "building_piles": PILES,
    }


# --- the advisor ------------------------------------------------------------------------------------

# What the advisor measures, in a player's words, and the unit the review counts losses in (the view's
# advice column says the same). Values are kept in tenths of a card (whole numbers) until shown, so that
# the ranking does not depend on how a platform rounds.
OBJECTIVE = {
    "de": "Vorsprung an Spielerstapel-Karten am Ende deines nächsten Zuges: die Karten, die du bis dahin von "
          "deinem Spielerstapel los wirst, minus die meisten, die ein Gegner los wird; jede Münze, die du "
          "dann mehr (weniger) hast, zählt 0,1 Karten mehr (weniger); ein Rundensieg zählt 20 Karten",
    "en": "stock-card lead at the end of your next turn: the cards you get rid of from your stock pile by "
          "then, minus the most any opponent gets rid of; every coin you have more (fewer) then counts 0.1 "
          "cards more (less); winning the round counts 20 cards",
}
METHOD = {
    "de": "geschätzt: jede Möglichkeit {n1}-mal ausgespielt, die besten bis zu {n2}-mal; die verdeckten "
          "Karten aus deiner Sicht neu verteilt (nie die echten) und für alle Möglichkeiten dieselben, dann "
          "spielen alle gierig weiter{until}; ★ = vom Besten nicht zu unterscheiden (gepaarter Vergleich, 95 %)",
    "en": "estimated: each option played out {n1} times, the best up to {n2} times; the hidden cards "
          "dealt afresh from your view (never the true ones), the same for every option, then everyone "
          "plays on greedily{until}; ★ = cannot be told apart from the best (paired comparison, 95%)",
}
UNTIL = {"de": (" bis zum Ende deines nächsten Zuges", " bis zum Ende der Runde"),
         "en": (" to the end of your next turn", " to the end of the round")}
OBJECTIVE_TO_END = {"de": "Chance, die Runde zu gewinnen", "en": "chance to win the round"}
WIN_VALUE = 20  # cards of lead a round won in the play-out counts
COIN_TENTHS = 1  # a coin counts 0.1 cards: a replaced card costs 1 to 11 coins (mean 6) for one card
MAX_PLAYOUT_ACTIONS = 4000
# The live default: every option is played out SCREEN times; the leader and the options not yet told
# apart from it (at most FINALISTS) SCREEN times more, round after round, up to ROLLOUTS play-outs
# each, while the play-outs have made fewer than BUDGET moves. Play-out k of every option meets the
# same hidden cards in the same order (common random numbers), so options are compared by their
# paired differences. Time: benchmarks/skip_bo_masters_advisor.py.
SCREEN = 12
MIN_SCREEN = 4  # the screening goes in passes of this many play-outs (while within half the budget)
ROLLOUTS = 240
FINALISTS = 6
BUDGET = 12_000


class _World:
    """One determinization with its order fixed: the other hands, every face-down stock pile card by
    card from the top, and the draw pile from the top, all drawn from the cards the viewer cannot see
    (``determinize``). Every option played out in this world meets the same cards. (One draw pile
    for all: dealing it as one stream per player, so that one player's extra draw would not shift
    the others' cards, made the paired differences no less spread in a measurement over 432 pairs
    of options.)"""

    __slots__ = ("state", "stocks", "draws", "seed")

    def __init__(self, game, observation: dict, seed: int):
        rng = Rng(seed)
        self.state = state = determinize(game, observation, rng)
        cards = state.pool.cards()
        for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates: the face-down cards in one order
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        self.stocks, at = [], 0
        for q in range(state.num_players):
            self.stocks.append(cards[at:at + state.stock_down[q]])
            at += state.stock_down[q]
        self.draws = cards[at:]  # the rest of the original draw pile, top first
        self.seed = rng.spawn()  # for draws from a reshuffled pile (completed piles)


def _light_obs(state) -> dict:
    """What the greedy policy reads of the mover's observation (public parts only), without copying:
    a play-out asks for it at every move."""
    return {"turn": state.turn, "phase": state.phase, "stock_tops": state.stock_top, "coins": state.coins,
            "discards": state.discards,
            "building": [None if b is None else {"value": b.value} for b in state.building]}


def _play_out(world: _World, action, me: int, to_end: bool = False) -> tuple:
    """Play ``action`` for the adviser ``me`` in ``world``, then everyone greedily to the end of
    ``me``'s next turn (or of the round): ``(value, moves)``, the objective in tenths of a card
    (``to_end``: 1 for a round won, else 0) and how many moves the policy made (the work done)."""
    state = world.state.clone()
    n = state.num_players
    start = [state.stock_down[q] + (state.stock_top[q] is not None) for q in range(n)]
    coins = state.coins[me]
    rounds = len(state.rounds_log)
    stock_at, draw_at, rng = [0] * n, 0, None
    state._apply(action)
    stage = 0  # 0: my turn goes on, 1: the others' turns, 2: my next turn
    moves = 0
    for _ in range(MAX_PLAYOUT_ACTIONS * (50 if to_end else 1)):
        if len(state.rounds_log) > rounds or state.over:
            w = state.rounds_log[-1][0]
            if to_end:
                return int(w == me), moves
            return (0 if w is None else 10 * WIN_VALUE if w == me else -10 * WIN_VALUE), moves
        if state.pending:
            kind, q = state.pending[0]
            if kind == "reveal":
                card = world.stocks[q][stock_at[q]]
                stock_at[q] += 1
                state._apply(REVEALS[card])
            elif state.orig_left:
                state._apply(DRAWS[world.draws[draw_at]])
                draw_at += 1
            else:  # a pile made of completed building piles: the same stream of draws in this world
                rng = rng or Rng(world.seed)
                state._apply(DRAWS[state.draw.sample(rng)])
            continue
        t = state.turn
        if stage == 0 and t != me:
            stage = 1
        elif stage == 1 and t == me:
            stage = 2
        elif stage == 2 and t != me and not to_end:
            break
        state._apply(greedy_move(_light_obs(state), state._legal_actions()))
        moves += 1
    if to_end:
        return 0, moves  # (a round longer than any real one: counted as not won)
    gone = [start[q] - state.stock_down[q] - (state.stock_top[q] is not None) for q in range(n)]
    lead = gone[me] - max(g for q, g in enumerate(gone) if q != me)
    return 10 * lead + COIN_TENTHS * (state.coins[me] - coins), moves


def planned_line(game, observation: dict, action, rng, limit: int = 12) -> list:
    """The plays the planner would make after ``action`` in this turn, up to the first card nobody
    knows yet (a turned-up stock card, a fresh hand): the same on every determinization, because
    it only uses what the player sees."""
    state = determinize(game, observation, rng)
    me = observation["viewer"]
    state._apply(action)
    line = []
    while len(line) < limit and state.current_player() == me:
        obs = state.observation(me)
        if obs["phase"] == TOLL:
            break
        follow = obs["follow_pile"] if obs["phase"] == "follow" else None
        _, move = plan(View.of(game, obs), follow)
        if move is None or type(move) not in (Play, Buy, Replace):
            break
        legal = state._legal_actions()
        form = move.to_json()
        move = next((a for a in legal if type(a) is type(move) and a.to_json() == form), None)
        if move is None:
            break
        line.append(move)
        state._apply(move)
    return line


OBSERVATION_KEYS = ("game", "viewer", "to_move", "turn", "phase", "coins", "hand", "hand_sizes", "hand_filled",
                    "stock_tops",
                    "stock_sizes", "discards", "building", "set_aside", "draw_size", "reshuffles", "totals",
                    "deals", "deal", "round", "turn_no", "start_seat", "stall", "stock_moved", "toll_due", "toll_pile",
                    "follow_pile", "winner", "drawn_round", "terminal", "chance")


def _checked(game, observation) -> int:
    """The adviser's seat, after checking that ``observation`` is one of this game's player views
    of a decision of that player (a clear error otherwise, before any work)."""
    if not isinstance(observation, dict) or observation.get("game") != game.id:
        raise SpieltischError(f"advice needs an observation of {game.id}, not {short(observation)}")
    missing = [k for k in OBSERVATION_KEYS if k not in observation]
    if missing:
        raise SpieltischError(f"the observation lacks {', '.join(missing[:4])}")
    me = observation["viewer"]
    if me is None or observation["to_move"] != me:
        raise SpieltischError("advice is for the player to move, from their own observation")
    if len(observation["coins"]) != game.num_players:
        raise SpieltischError(f"the observation is of a game of {len(observation['coins'])} players, "
                              f"not {game.num_players}")
    return me


def advise(game: SkipBoMasters, observation: dict, n_rollouts: int = ROLLOUTS, seed: int = 0, to_end: bool = False,
           progress=None, screen: int = SCREEN, finalists: int = FINALISTS, budget: int = BUDGET, include=()):
    """Every option of the decision ``observation`` shows (its viewer must be the player to move),
    valued by determinized play-outs (``_World``, ``_play_out``).

    Every option is played out ``screen`` times (in passes of ``MIN_SCREEN``; the screening stops
    after a pass once it has made half the ``budget`` of moves). Then, in rounds of ``screen``
    play-outs more, the
    leader and the options not yet told apart from it (at most ``finalists``) are played on, until the
    leader stands alone, a finalist has ``n_rollouts`` play-outs, or the play-outs have made ``budget``
    moves in all (a count of work, not of time: the same advice on every machine). Play-out k of every
    option meets the same hidden cards, so an option is starred when its paired difference to the
    leader's (95 % interval) reaches 0: a tie only where the play-outs cannot separate the options.
    ``to_end``: play out to the end of the round and value the chance to win it (slow: for
    comparisons, not live). ``progress(done, total)`` counts the moves of the play-outs against the
    budget (``total`` grows only when the screening alone needs more; the last call says done).
    ``include``: options that stay among the finalists whatever the play-outs say (a review's chosen
    option, so its difference to the leader is measured on the same hidden cards); the advice keeps
    every option's play-out values (``Advice.samples``, in the objective's unit) for such comparisons.

    Shown values: the leader's mean over all its play-outs; any other option's is that plus its mean
    paired difference to the leader over the play-outs they share, so that the values shown, made of
    different numbers of play-outs, are ranked as the paired comparisons rank them (an option not
    starred is below the leader, and the review's losses are never negative)."""
    from ...core.advice import MAX_ROLLOUTS

    if type(n_rollouts) is not int or not 2 <= n_rollouts <= MAX_ROLLOUTS:
        raise SpieltischError(f"the advisor plays each option out 2 to {MAX_ROLLOUTS} times, not {short(n_rollouts)}")
    for name, k, top in (("screen", screen, MAX_ROLLOUTS), ("finalists", finalists, MAX_ROLLOUTS),
                         ("budget", budget, 10**9)):
        if type(k) is not int or not 1 <= k <= top:
            raise SpieltischError(f"the advisor's {name} is a whole number from 1 to {top}, not {short(k)}")
    check_seed(seed)
    if type(to_end) is not bool:
        raise SpieltischError(f"to_end is true or false, not {short(to_end)}")
    me = _checked(game, observation)
    legal = determinize(game, observation, Rng(seed))._legal_actions()
    try:
        forced = [a for a in legal if any(type(a) is type(b) and a == b for b in include)]
    except TypeError:
        raise SpieltischError(f"include is a list of options, not {short(include)}") from None
    master = Rng(seed)
    seeds = [master.spawn() for _ in range(n_rollouts)]
    worlds: dict = {}
    scores: dict = {a: [] for a in legal}
    work = [0, 0]  # moves made, play-outs done
    screen = max(2, min(screen, n_rollouts))
    finalists = min(finalists, len(legal))

    def play(action, upto):
        for k in range(len(scores[action]), upto):
            w = worlds.get(k)
            if w is None:
                w = worlds[k] = _World(game, observation, seeds[k])
            value, moves = _play_out(w, action, me, to_end)
            scores[action].append(value)
            work[0] += moves
            work[1] += 1
        if progress:
            progress(work[0], max(budget, work[0] + 1))

    def mean(a):
        return Fraction(sum(scores[a]), len(scores[a]))

    # the screening in passes, so that a decision with many options does not spend the whole budget
    # on it: at least MIN_SCREEN play-outs each, more while the screening has used less than half
    done = 0
    while done < screen:
        done = min(screen, done + MIN_SCREEN)
        for action in legal:
            play(action, done)
        if work[0] >= budget // 2:
            break
    screen_done = done
    leader = max(legal, key=mean)  # the first of equal means: the engine's order
    top = [a for a in legal if a is leader or paired_tie(scores[leader], scores[a])]
    top = sorted(top, key=mean, reverse=True)[:finalists]
    top += [a for a in forced if a not in top]
    while len(top) > 1 and work[0] < budget and len(scores[top[0]]) < n_rollouts:
        upto = min(n_rollouts, len(scores[top[0]]) + screen)
        for action in top:
            play(action, upto)
        leader = max(top, key=mean)
        top = [a for a in top if a is leader or a in forced or paired_tie(scores[leader], scores[a])]
    if progress:
        progress(max(budget, work[0]), max(budget, work[0]))
    # every option against the final leader on the play-outs they share: an option screened out
    # against an earlier leader that this one cannot be told apart from is starred as well
    best = [a for a in legal if a is leader or paired_tie(scores[leader], scores[a])]
    scale = 1 if to_end else 10
    lead = scores[leader]
    base = Fraction(sum(lead), len(lead))
    valued = []
    for a in legal:
        own = mean_ci([x / scale for x in scores[a]])
        k = len(scores[a])
        shift = float((base - Fraction(sum(lead[:k]), k)) / scale)  # the leader's later play-outs
        valued.append((a, Estimate(own.mean + shift, own.lo + shift, own.hi + shift, own.n)))
    notes = {}
    for action in legal:
        if type(action) in (Play, Buy, Replace):
            line = planned_line(game, observation, action, Rng(seed))
            if line:
                notes[action] = {"de": "danach: " + "; ".join(a.label("de") for a in line),
                                 "en": "then: " + "; ".join(a.label("en") for a in line)}
    if observation["phase"] == TOLL and len(valued) == 2:
        pay = next(a for a, _ in valued if type(a) is PayToll)
        dec = next(a for a, _ in valued if type(a) is DeclineToll)
        k = min(len(scores[pay]), len(scores[dec]))
        diff = math.fsum(x - y for x, y in zip(scores[pay][:k], scores[dec][:k])) / k / scale
        plus = "+" if diff >= 0 else ""  # German text: a decimal comma (num), English: a point
        unit = {"de": "", "en": ""} if to_end else {"de": " Karten", "en": " cards"}
        worth = {"de": f"Die Gebühr lohnt sich{' nicht' if diff < 0 else ''}: {plus}{num(diff, 'de')}{unit['de']} "
                       f"gegenüber Ablehnen",
                 "en": f"The toll is {'not ' if diff < 0 else ''}worth paying: {plus}{num(diff, 'en')}{unit['en']} "
                       f"against declining"}
        for a, _ in valued:
            notes[a] = worth
    most = max(len(v) for v in scores.values())
    method = {lang: t.format(n1=screen_done, n2=most, until=UNTIL[lang][to_end]) for lang, t in METHOD.items()}
    return make_advice(valued, method=method, objective=OBJECTIVE_TO_END if to_end else OBJECTIVE, notes=notes,
                       best=best, samples={a: tuple(x / scale for x in v) for a, v in scores.items()})
