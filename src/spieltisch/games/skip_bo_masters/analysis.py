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

from fractions import Fraction
from math import comb

from ...core.advice import make_advice
from ...core.dist import exact_json
from ...core.errors import SpieltischError, short
from ...core.game import CHANCE
from ...core.rng import Rng, check_seed
from ...core.stats import mean_ci
from ...core.view import num
from .engine import (COINS, FULL_DECK, HAND, PILES, PROVENANCE, TOLL, TOP, DeclineToll, PayToll,
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
                 "note": "coin symbols: Rekonstruktion / reconstruction (coin_symbols.json)"},
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

METHOD = {
    "de": "{n} Ausspielungen je Möglichkeit: verdeckte Karten aus der Sicht des Spielers neu gezogen "
          "(nie die echten), dann spielen alle gierig weiter bis zum Ende deines nächsten Zuges",
    "en": "{n} play-outs per option: hidden cards redrawn from the player's view (never the true ones), "
          "then everyone plays on greedily until the end of your next turn",
}
OBJECTIVE = {
    "de": "Karten, die du bis zum Ende deines nächsten Zuges vom Spielerstapel los wirst, minus die meisten "
          "eines Gegners; ein Rundensieg zählt 20",
    "en": "cards you get rid of from your stock until the end of your next turn, minus the most any "
          "opponent gets rid of; winning the round counts 20",
}
METHOD_TO_END = {
    "de": "{n} Ausspielungen je Möglichkeit: verdeckte Karten aus der Sicht des Spielers neu gezogen "
          "(nie die echten), dann spielen alle gierig bis zum Ende der Runde",
    "en": "{n} play-outs per option: hidden cards redrawn from the player's view (never the true ones), "
          "then everyone plays on greedily to the end of the round",
}
OBJECTIVE_TO_END = {"de": "Chance, die Runde zu gewinnen", "en": "chance to win the round"}
WIN_VALUE = 20
MAX_PLAYOUT_ACTIONS = 4000


def _policy(state, legal, face):
    """The greedy move of the player to move in a play-out, from the observation it sees there."""
    return greedy_move(state.observation(state.turn), legal)


def _play_out(state, action, me, rng, face, to_end=False) -> float:
    """Play ``action`` for the adviser ``me``, then on to the end of ``me``'s next turn or of the
    round; the objective's value for ``me``. ``to_end``: on to the end of the round, 1 for a win."""
    start = [state.stock_down[q] + (state.stock_top[q] is not None) for q in range(state.num_players)]
    rounds = len(state.rounds_log)
    state._apply(action)
    stage = 0  # 0: my turn goes on, 1: the others' turns, 2: my next turn
    for _ in range(MAX_PLAYOUT_ACTIONS * (50 if to_end else 1)):
        if len(state.rounds_log) > rounds or state.over:
            w = state.rounds_log[-1][0]
            if to_end:
                return 1.0 if w == me else 0.0
            return 0.0 if w is None else WIN_VALUE if w == me else -WIN_VALUE
        if state.current_player() == CHANCE:
            state._apply(state.sample_chance(rng))
            continue
        t = state.turn
        if stage == 0 and t != me:
            stage = 1
        elif stage == 1 and t == me:
            stage = 2
        elif stage == 2 and t != me and not to_end:
            break
        state._apply(_policy(state, state._legal_actions(), face))
    if to_end:
        return 0.0  # (a round longer than any real one: counted as not won)
    sizes = [state.stock_down[q] + (state.stock_top[q] is not None) for q in range(state.num_players)]
    gone = [a - b for a, b in zip(start, sizes)]
    return float(gone[me] - max(g for q, g in enumerate(gone) if q != me))


def planned_line(game, observation: dict, action, rng, limit: int = 12) -> list:
    """The plays the planner would make after ``action`` in this turn, up to the first card nobody
    knows yet (a turned-up stock card, a fresh hand): the same on every determinization, because
    it only uses what the player sees."""
    state = determinize(game, observation, rng)
    me = observation["viewer"]
    face = game.options["replace_cost"] == "face"
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
                    "rounds", "round", "start_seat", "stall", "stock_moved", "toll_due", "toll_pile",
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


def advise(game: SkipBoMasters, observation: dict, n_rollouts: int = 8, seed: int = 0, to_end: bool = False,
           progress=None):
    """Every option of the decision ``observation`` shows (its viewer must be the player to move),
    valued by ``n_rollouts`` determinized play-outs each (the same draws of the hidden cards for
    every option, so differences between options are not noise of the draws). ``to_end``: play
    out to the end of the round and value the chance to win it (slower: for review, not live)."""
    from ...core.advice import MAX_ROLLOUTS

    if type(n_rollouts) is not int or not 2 <= n_rollouts <= MAX_ROLLOUTS:
        raise SpieltischError(f"the advisor plays each option out 2 to {MAX_ROLLOUTS} times, not {short(n_rollouts)}")
    check_seed(seed)
    if type(to_end) is not bool:
        raise SpieltischError(f"to_end is true or false, not {short(to_end)}")
    me = _checked(game, observation)
    base = determinize(game, observation, Rng(seed))
    legal = base._legal_actions()
    face = game.options["replace_cost"] == "face"
    master = Rng(seed)
    seeds = [master.spawn() for _ in range(n_rollouts)]
    valued = []
    notes = {}
    for j, action in enumerate(legal):
        values = []
        for s in seeds:
            rng = Rng(s)
            state = determinize(game, observation, rng)
            values.append(_play_out(state, action, me, rng, face, to_end))
        est = mean_ci(values)
        valued.append((action, est))
        if type(action) in (Play, Buy, Replace):
            line = planned_line(game, observation, action, Rng(seed))
            if line:
                notes[action] = {"de": "danach: " + "; ".join(a.label("de") for a in line),
                                 "en": "then: " + "; ".join(a.label("en") for a in line)}
        if progress:
            progress(j + 1, len(legal))
    if observation["phase"] == TOLL and len(valued) == 2:
        pay = next(v for a, v in valued if type(a) is PayToll)
        dec = next(v for a, v in valued if type(a) is DeclineToll)
        diff = pay.mean - dec.mean
        plus = "+" if diff >= 0 else ""  # German text: a decimal comma (num), English: a point
        worth = {"de": f"Die Gebühr lohnt sich{' nicht' if diff < 0 else ''}: {plus}{num(diff, 'de')} gegenüber Ablehnen",
                 "en": f"The toll is {'not ' if diff < 0 else ''}worth paying: {plus}{num(diff, 'en')} against declining"}
        for a, _ in valued:
            notes[a] = worth
    method = {k: v.format(n=n_rollouts) for k, v in (METHOD_TO_END if to_end else METHOD).items()}
    return make_advice(valued, method=method, objective=OBJECTIVE_TO_END if to_end else OBJECTIVE, notes=notes)

