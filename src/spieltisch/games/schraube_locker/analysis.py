"""Exact facts of Schraube Locker and the advisor.

Two exact computations, written independently of each other (tests compare them):

* ``full_circle_table``: the best chance of "einmal komplett rum" in one turn (three rolls, no card
  functions, no Profi variant) for every multiset of six face-up die numbers. Placing every die that
  matches a free card is optimal for this goal (a die kept back can only be re-rolled, and the card
  still needs its number), so the chance depends only on which numbers are still needed: a small
  dynamic programme over sub-multisets of the needed numbers.
* ``TurnSolver``: the whole turn under the rules (MUST chain, every CAN choice, roll again or stop,
  the Profi variants), for any values of the cards the pawn can end at. It gives the exact
  distribution of how far the pawn gets (0-6 cards) under the play that maximises the expected
  value of the card taken. The advisor and the strong bot use it.

All numbers are exact: probabilities with ``r`` rolls to go are kept as integers scaled by
6^(6·r) (every path's probability is a whole number of such units), so the solver needs no
Fractions in its inner loops; results come out as ``Fraction``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from math import comb

from ...core.advice import make_advice
from ...core.dist import exact_json
from ...core.errors import SpieltischError, short
from .engine import (DICE, MAX_ROLLS, STACKS, EndTurn, Gift, PawnAt, Place, PlacePair, Proceed, Roll, Secure, Stop, Swap, TakeCard, UseReroll, UseTurn)

SCALE = 6 ** DICE  # one roll's worth of scaling (all six dice)


@lru_cache(maxsize=None)
def roll_table(k: int) -> tuple:
    """Every sorted roll of ``k`` dice with the number of ordered rolls giving it (sum 6^k)."""
    c = Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=k))
    return tuple(sorted(c.items()))


@lru_cache(maxsize=None)
def projected_rolls(k: int, faces: frozenset) -> tuple:
    """The rolls of ``k`` dice seen through ``faces``: every die showing another face is dropped.
    ``((sorted values among faces, ordered rolls giving it), ...)``, the counts summing to 6^k."""
    fs = sorted(faces)
    other = 6 - len(fs)
    out = []

    def rec(i, left, vals, weight):
        if i == len(fs):
            if left and not other:
                return
            out.append((tuple(vals), weight * other ** left))
            return
        for c in range(left + 1):
            rec(i + 1, left - c, vals + [fs[i]] * c, weight * comb(left, c))

    rec(0, k, [], 1)
    return tuple(out)




# --- the full-circle table -----------------------------------------------------------------------

def _counts(values) -> tuple:
    c = [0] * 6
    for v in values:
        c[v - 1] += 1
    return tuple(c)


@lru_cache(maxsize=None)
def _circle_moves(need: tuple) -> tuple:
    """``need`` (counts of the needed numbers 1-6) -> ((need left after one roll, ordered rolls), ...):
    every die matching a needed number is placed (at most one per needed card)."""
    n = sum(need)
    out: dict = {}
    for roll, c in roll_table(n):
        have = _counts(roll)
        left = tuple(a - b if a > b else 0 for a, b in zip(need, have))
        out[left] = out.get(left, 0) + c
    return tuple(out.items())


@lru_cache(maxsize=None)
def _circle_scaled(need: tuple, rolls: int) -> int:
    """P(every needed number served within ``rolls`` rolls) × 6^(6·rolls); ``need`` as counts."""
    n = sum(need)
    if not n:
        return SCALE ** rolls
    if rolls == 0:
        return 0
    up = 6 ** (DICE - n)
    return sum(c * _circle_scaled(left, rolls - 1) for left, c in _circle_moves(need)) * up


def place_all_probability(numbers, rolls: int = MAX_ROLLS) -> Fraction:
    """Chance of "einmal komplett rum" in one turn when every die matching a free card is placed
    (the order of the cards does not matter then). Not always the best play: with repeated numbers,
    keeping a matching die back to re-roll it with the others is sometimes a little better (the
    rules' solver, ``full_circle_probability``, finds that)."""
    need = tuple(numbers)
    if len(need) != STACKS or any(type(v) is not int or not 1 <= v <= 6 for v in need):
        raise SpieltischError(f"six die numbers 1-6 are needed, got {short(numbers)}")
    return Fraction(_circle_scaled(_counts(need), rolls), SCALE ** rolls)


def full_circle_probability(numbers, rolls: int = MAX_ROLLS) -> Fraction:
    """The best chance of "einmal komplett rum" in one turn under the rules (MUST chain, free CAN
    choices, stop or roll again; no card functions, no Profi variant) with the six face-up cards
    showing ``numbers`` clockwise from the pawn."""
    need = tuple(numbers)
    if len(need) != STACKS or any(type(v) is not int or not 1 <= v <= 6 for v in need):
        raise SpieltischError(f"six die numbers 1-6 are needed, got {short(numbers)}")
    if type(rolls) is not int or not 1 <= rolls <= MAX_ROLLS:
        raise SpieltischError(f"a turn has 1-3 rolls, got {short(rolls)}")
    solver = TurnSolver(need, (0,) * STACKS + (1,))
    return exact(solver.roll_value(0, DICE, DICE, rolls - 1), rolls)[0]


def full_circle_table(progress=None) -> dict:
    """``{"112233": Fraction, ...}`` for all 462 multisets of six die numbers, the cards lying in
    ascending order clockwise from the pawn (with repeated numbers the order can matter a little,
    through the MUST chain; with six different numbers it cannot: the faces are symmetric)."""
    keys = list(combinations_with_replacement(range(1, 7), STACKS))
    out = {}
    for i, m in enumerate(keys):
        out["".join(map(str, m))] = full_circle_probability(m)
        if progress and i % 50 == 0:
            progress(i, len(keys))
    return out


# --- the turn solver -------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _card_choices(cards: tuple, dice: int) -> tuple:
    """``((mask, k), ...)``: every way to lay ``k`` ≤ ``dice`` dice of one face on the free cards
    ``cards`` showing it (at most one die per card)."""
    return tuple((sum(1 << j for j in chosen), k) for k in range(min(dice, len(cards)) + 1)
                 for chosen in combinations(cards, k))


class TurnSolver:
    """Best play of the rest of one turn for given card values.

    ``nums[i]``: die number of the (i+1)-th card from the pawn (None: no card there);
    ``vals[d]``: value (a whole number) of ending with the pawn ``d`` cards on (``vals[0]`` usually
    0: no card); ``combine``: Profi variant *Würfel zusammenziehen*; ``not_all``: *Nicht alle Würfel*.
    A position is ``(F, n)``: ``F`` the bit mask of positions with dice, ``n`` the free dice.
    Values with ``r`` rolls to go are scaled by 6^(6·r); distributions of the reach likewise.
    """

    def __init__(self, nums, vals, combine=False, not_all=False):
        self.nums = tuple(nums)
        self.vals = tuple(vals)
        self.combine = combine
        self.not_all = not_all
        self._v: dict = {}
        self._ends: dict = {}
        self._groups: dict = {}
        self._after: dict = {}
        self._settled: dict = {}
        self._free: dict = {}  # F -> {face: the free cards showing it}
        self.reach = [self._reach(F) for F in range(1 << STACKS)]
        # the die values that can still matter once the cards in F have dice: a free card's number
        # or (combine) a part of one; other dice can never be placed in this turn
        self.relevant = []
        for F in range(1 << STACKS):
            free = {v for i, v in enumerate(self.nums) if v is not None and not F >> i & 1}
            if combine and free:
                free |= set(range(1, max(free)))
            self.relevant.append(frozenset(free))

    @staticmethod
    def _reach(F: int) -> int:
        d = 0
        while d < STACKS and F >> d & 1:
            d += 1
        return d

    # placements --------------------------------------------------------------------------------
    def must(self, F: int, roll: tuple) -> tuple:
        """The MUST chain: from the pawn, skip cards with dice; a free card a single die matches
        gets it; the first free card no die matches stops the chain."""
        nums = self.nums
        for i in range(STACKS):
            if F >> i & 1:
                continue
            v = nums[i]
            if v is None or v not in roll:
                break
            F |= 1 << i
            r = list(roll)
            r.remove(v)
            roll = tuple(r)
        return F, roll

    def moves(self, F: int, roll: tuple) -> list:
        """CAN placements from (F, roll) (MUST applied): ``[(kind, value(s), position, F', roll')]``
        with the MUST chain applied again after each."""
        out = []
        nums = self.nums
        cnt = None
        for j in range(STACKS):
            if F >> j & 1 or nums[j] is None:
                continue
            v = nums[j]
            if v in roll:
                r = list(roll)
                r.remove(v)
                F2, r2 = self.must(F | 1 << j, tuple(r))
                out.append(("place", (v,), j, F2, r2))
            if self.combine:
                if cnt is None:
                    cnt = Counter(roll)
                for a in range(1, v // 2 + 1):
                    b = v - a
                    if (a != b and cnt[a] and cnt[b]) or (a == b and cnt[a] >= 2):
                        r = list(roll)
                        r.remove(a)
                        r.remove(b)
                        F2, r2 = self.must(F | 1 << j, tuple(r))
                        out.append(("pair", (a, b), j, F2, r2))
        return out

    def ends(self, F: int, roll: tuple) -> tuple:
        """Every (F', dice used) the placing of ``roll`` can end in, from (F, roll) with MUST applied."""
        key = (F, roll)
        got = self._ends.get(key)
        if got is not None:
            return got
        if not self.combine:
            got = self._ends[key] = self._single_ends(F, roll)
            return got
        n0 = len(roll)
        seen, out, todo = set(), set(), [(F, roll)]
        while todo:
            node = todo.pop()
            if node in seen:
                continue
            seen.add(node)
            f, r = node
            out.add((f, n0 - len(r)))
            for *_, F2, r2 in self.moves(f, r):
                todo.append((F2, r2))
        got = self._ends[key] = tuple(sorted(out))
        return got

    def _single_ends(self, F: int, roll: tuple) -> tuple:
        """``ends`` when every die lies alone (no *Würfel zusammenziehen*): the MUST chain stopped
        at a free card no die of the roll matches, and single dice never give it one, so the chain
        cannot go on; the ends are F plus any choice of free cards per face, at most as many cards
        of a face as the roll has dice of it (the same set ``ends`` finds by trying move after move)."""
        free = self._free.get(F)
        if free is None:
            free = self._free[F] = {v: tuple(j for j in range(STACKS) if not F >> j & 1 and self.nums[j] == v)
                                    for v in range(1, 7)}
        per_face = [_card_choices(free[v], roll.count(v)) for v in set(roll) if free[v]]
        out = set()
        for choice in product(*per_face):
            mask, used = F, 0
            for m, k in choice:
                mask |= m
                used += k
            out.add((mask, used))
        return tuple(sorted(out))

    # values --------------------------------------------------------------------------------------
    def stop(self, F: int, r: int) -> tuple:
        d = self.reach[F]
        s = SCALE ** r
        dist = [0] * (STACKS + 1)
        dist[d] = s
        return self.vals[d] * s, tuple(dist)

    def settle(self, F: int, n: int, roll: tuple) -> tuple:
        """(F', n', roll') after the MUST chain; roll' keeps only the dice that can still matter."""
        key = (F, n, roll)
        got = self._settled.get(key)
        if got is None:
            F2, r2 = self.must(F, roll)
            rel = self.relevant[F2]
            got = self._settled[key] = (F2, n - (len(roll) - len(r2)), tuple(v for v in r2 if v in rel))
        return got

    def after_placing(self, F: int, n: int, roll: tuple, r: int) -> tuple:
        """Best (value, dist) once ``roll`` is placed from a node where MUST is applied; ``n`` free
        dice (the roll's unplaced ones included), ``r`` rolls to go."""
        key = (F, n, roll, r)
        best = self._after.get(key)
        if best is not None:
            return best
        for F2, used in self.ends(F, roll):
            got = self.value(F2, n - used, r)
            if best is None or got[0] > best[0]:
                best = got
        self._after[key] = best
        return best

    def roll_value(self, F: int, n: int, k: int, r: int) -> tuple:
        """Rolling ``k`` of the ``n`` free dice now, ``r`` rolls to go after it (scaled by 6^(6(r+1)))."""
        up = 6 ** (DICE - k)
        total = 0
        dist = [0] * (STACKS + 1)
        gkey = (F, n, k)
        groups = self._groups.get(gkey)
        if groups is None:
            acc: dict = {}
            for roll, c in projected_rolls(k, self.relevant[F]):
                key = self.settle(F, n, roll)
                acc[key] = acc.get(key, 0) + c
            groups = self._groups[gkey] = tuple(acc.items())
        for (F2, n2, r2), c in groups:
            v, d = self.after_placing(F2, n2, r2, r)
            w = c * up
            total += w * v
            for i in range(STACKS + 1):
                if d[i]:
                    dist[i] += w * d[i]
        return total, tuple(dist)

    def reroll_value(self, F: int, n: int, kept: tuple, k: int, r: int) -> tuple:
        """*Wurf wiederholen* before anything of the roll is placed: ``k`` dice rolled again, the
        dice ``kept`` stay; best play after it, ``r`` rolls to go (scaled by 6^k · 6^(6r)). The new
        dice are seen through the faces that can still matter, the rolls grouped by the position
        the MUST chain leaves (as in ``roll_value``)."""
        rel = self.relevant[F]
        kept = tuple(v for v in kept if v in rel)  # a kept die of another face is never placed
        acc: dict = {}
        for new, c in projected_rolls(k, rel):
            node = self.settle(F, n, tuple(sorted(kept + new)))
            acc[node] = acc.get(node, 0) + c
        total = 0
        dist = [0] * (STACKS + 1)
        for node, c in acc.items():
            v, d = self.after_placing(*node, r)
            total += c * v
            for i in range(STACKS + 1):
                if d[i]:
                    dist[i] += c * d[i]
        return total, tuple(dist)

    def value(self, F: int, n: int, r: int) -> tuple:
        """Best (value, dist) after placing, free to stop, ``r`` rolls left."""
        key = (F, n, r)
        got = self._v.get(key)
        if got is not None:
            return got
        best = self.stop(F, r)
        if r > 0 and n > 0:
            for k in (range(1, n + 1) if self.not_all else (n,)):
                got = self.roll_value(F, n, k, r - 1)
                if got[0] > best[0]:
                    best = got
        self._v[key] = best
        return best


def exact(pair, r: int) -> tuple:
    """(value, [P(reach d)]) as Fractions from a scaled pair with ``r`` rolls to go."""
    s = SCALE ** r
    return Fraction(pair[0], s), [Fraction(x, s) for x in pair[1]]


# --- reading a position from an observation ------------------------------------------------------

def card_points(card: dict) -> int:
    return card["points"]


def turn_setup(game, obs: dict, value_of=card_points, extra=None):
    """(nums, vals, F) of the player to move in ``obs``; ``value_of(card_json)`` values a card
    (default: its points). A full circle is worth the bonus card plus (rule D2, ``continue``) the
    card of the start stack. ``extra(stack)`` (optional, whole numbers) adds what ending at a stack
    is worth beyond its card (a bot's estimate of swapping or gifting there)."""
    me = obs["to_move"]
    pawn = obs["pawns"][me]
    stacks = obs["stacks"]
    nums, vals, F = [], [0], 0
    on = obs["turn"]["on_card"]
    for i in range(1, STACKS + 1):
        s = (pawn + i) % STACKS
        top = stacks[s]["top"]
        nums.append(None if top is None else top["die"])
        if on[s]:
            F |= 1 << (i - 1)
        vals.append(0 if top is None else value_of(top))
    bonus = game.deck.bonus_points if obs["bonus_left"] > 0 else 0
    cont = obs["options"]["full_circle"] == "continue"
    vals[STACKS] = bonus + (vals[STACKS] if cont else 0)
    if extra is not None:
        for d in range(1, STACKS + 1):
            if d < STACKS or cont:
                vals[d] += extra((pawn + d) % STACKS)
    return nums, vals, F


_SOLVERS: dict = {}


def solver_for(nums, vals, options) -> TurnSolver:
    key = (tuple(nums), tuple(vals), options["combine_two"], options["not_all_dice"])
    s = _SOLVERS.get(key)
    if s is None:
        if len(_SOLVERS) > 64:
            _SOLVERS.clear()
        s = _SOLVERS[key] = TurnSolver(nums, vals, options["combine_two"], options["not_all_dice"])
    return s


def turn_options(game, obs: dict, legal, value_of=card_points, extra=None) -> list:
    """For a dice decision (start, card or placing phase): ``[(action, value, dist)]`` — the exact
    expected value of the card taken (minus the value of a card function used) and the exact
    distribution of how far the pawn gets, under best play of the rest of the turn with no further
    card function used. ``value_of`` must return whole numbers."""
    opts = obs["options"]
    nums, vals, F = turn_setup(game, obs, value_of, extra)
    solver = solver_for(nums, vals, opts)
    t = obs["turn"]
    n, r_left = t["dice_left"], MAX_ROLLS - t["rolls"]
    roll = tuple(t["roll"])
    me = obs["to_move"]
    pawn = obs["pawns"][me]
    pos = {(pawn + i) % STACKS: i - 1 for i in range(1, STACKS + 1)}
    own = {c["id"]: c for c in obs["players"][me]["display"]}
    out = []
    phase = obs["phase"]
    rerolled: dict = {}  # the same dice re-rolled with another card: the same chances
    for a in legal:
        ta = type(a)
        if ta is Roll:
            pair = solver.roll_value(F, n, a.count, r_left - 1)
            v, dist = exact(pair, r_left)
        elif ta is Stop:
            v, dist = exact(solver.stop(F, 0), 0)
        elif ta in (Place, PlacePair):
            vals_used = (a.value,) if ta is Place else (a.a, a.b)
            rr = list(roll)
            for x in vals_used:
                rr.remove(x)
            node = solver.settle(F | 1 << pos[a.stack], n - len(vals_used), tuple(rr))
            v, dist = exact(solver.after_placing(*node, r_left), r_left)
        elif ta is Proceed:
            v, dist = exact(solver.after_placing(*solver.settle(F, n, roll), r_left), r_left)
        elif ta is UseTurn:
            rr = list(roll)
            rr.remove(a.frm)
            rr.append(a.to)
            node = solver.settle(F, n, tuple(sorted(rr)))
            v, dist = exact(solver.after_placing(*node, r_left), r_left)
            v -= value_of(own[a.card])
        elif ta is UseReroll:
            got = rerolled.get(a.values)
            if got is None:
                kept = list(roll)
                for x in a.values:
                    kept.remove(x)
                pair = solver.reroll_value(F, n, tuple(kept), len(a.values), r_left)
                s = 6 ** len(a.values) * SCALE ** r_left
                got = rerolled[a.values] = (Fraction(pair[0], s), [Fraction(x, s) for x in pair[1]])
            v, dist = got
            v -= value_of(own[a.card])
        else:
            raise SpieltischError(f"{short(a)} is not a dice decision (phase {phase})")
        out.append((a, v, dist))
    return out


# --- other decisions -------------------------------------------------------------------------------

def other_options(game, obs: dict, legal) -> list:
    """Exchange, securing and set-up decisions valued by the points they change at once."""
    deck = game.deck
    out = []
    for a in legal:
        ta = type(a)
        if ta is Swap:
            v = Fraction(deck.points[a.take] - deck.points[a.give])
        elif ta is Gift:
            v = Fraction(-deck.points[a.give])
        elif ta is Secure:
            v = Fraction(deck.combination_points)
        elif ta in (TakeCard, EndTurn, PawnAt):
            v = Fraction(0)
        else:
            raise SpieltischError(f"{short(a)} is not a decision the advisor knows")
        out.append((a, v, None))
    return out


def legal_from_observation(game, obs: dict) -> list:
    """The legal actions of the player to move, rebuilt from the observation alone (the advisor
    must not read the state): a fresh state is set to what the observation shows."""
    from .engine import SchraubeLockerState  # same module family; the engine is our dependency
    s = SchraubeLockerState(game)
    s.pending = None
    s.phase = obs["phase"]
    s.pawns = list(obs["pawns"])
    s.top = [None if st["top"] is None else st["top"]["id"] for st in obs["stacks"]]
    s.left = [st["left"] for st in obs["stacks"]]
    s.bonus_left = obs["bonus_left"]
    s.display = [[c["id"] for c in p["display"]] for p in obs["players"]]
    s.secured = [[tuple(c["id"] for c in t) for t in p.get("secured", [])] for p in obs["players"]]
    t = obs["turn"]
    s.turn = obs["to_move"]
    s.rolls, s.dice_left, s.roll = t["rolls"], t["dice_left"], tuple(t["roll"])
    s.on_card = [tuple(v) for v in t["on_card"]]
    s.used = tuple(t["used"])
    s.partners_done = tuple(t["partners_done"])
    s.exchange_cards = tuple(t["exchange_cards"])
    s._cache = None
    return list(s._legal_actions())


DICE_PHASES = ("start", "cards", "place")


OBS_KEYS = ("game", "phase", "to_move", "pawns", "stacks", "players", "turn", "options", "bonus_left")


def options_for(game, obs: dict, value_of=card_points) -> list:
    if not isinstance(obs, dict) or any(k not in obs for k in OBS_KEYS) or obs["game"] != game.id:
        raise SpieltischError(f"not an observation of {game.id}: {short(obs)}")
    if type(obs["to_move"]) is not int or not 0 <= obs["to_move"] < game.num_players:
        raise SpieltischError("no player is to move in this observation: nothing to advise")
    legal = legal_from_observation(game, obs)
    if obs["phase"] in DICE_PHASES:
        return turn_options(game, obs, legal, value_of)
    return other_options(game, obs, legal)


def _reach_note(dist) -> dict:
    """How far the pawn gets, as people read percentages: 12,3 % in German, 12.3% in English."""
    en = [f"{d}: {float(p) * 100:.1f}%" for d, p in enumerate(dist) if p]
    de = [f"{d}: {float(p) * 100:.1f} %".replace(".", ",") for d, p in enumerate(dist) if p]
    return {"de": "Figur zieht (Karten) " + ", ".join(de) + " — Rekonstruktion der Karten",
            "en": "pawn moves (cards) " + ", ".join(en) + " — reconstructed deck"}


def advise(game, observation: dict):
    """Every option of the decision ``observation`` shows, valued exactly.

    Dice decisions: expected points of the card this turn takes (a full circle: the bonus card and,
    under D2 ``continue``, the start stack's card), minus the points of a card function used now,
    under best play of the rest of the turn with no further card used; each option's note gives
    the exact distribution of how far the pawn gets. Swapping, gifting and securing: the points
    they change at once."""
    rows = options_for(game, observation)
    dice = observation["phase"] in DICE_PHASES
    notes = {a: _reach_note(d) for a, _, d in rows if d is not None}
    if dice:
        objective = {"de": "erwartete Punkte der Karte dieses Zuges (minus eingesetzte Karten)",
                     "en": "expected points of this turn's card (minus cards used)"}
        method = {"de": "exakt: alle Würfe, Pflicht- und Kann-Züge dieses Zuges durchgerechnet",
                  "en": "exact: every roll, MUST and CAN placement of this turn enumerated"}
    else:
        objective = {"de": "Punkte, die sich sofort ändern", "en": "points changed at once"}
        method = {"de": "exakt: Punktwerte der Karten", "en": "exact: card points"}
    return make_advice([(a, v) for a, v, _ in rows], method=method, objective=objective, notes=notes)


# --- analyzer -----------------------------------------------------------------------------------------

_TABLE: dict = {}


def analyze(game, progress=None) -> dict:
    if not _TABLE:
        _TABLE.update(full_circle_table(progress))
    table = _TABLE
    by = {k: exact_json(v) for k, v in table.items()}
    return {
        "game": game.id,
        "ruleset": game.ruleset,
        "deck": {"provenance": game.deck.provenance, "note": game.deck.note,
                 "label": "Rekonstruktion / reconstruction"},
        "full_circle_probability": exact_json(table["123456"]),
        "full_circle_probability_by_numbers": by,
        "full_circle_note": "best chance of 'einmal komplett rum' in one turn under the rules (MUST chain, "
                            "free CAN choices): up to three rolls, no card functions, no Profi variant; keys "
                            "are the six face-up die numbers sorted ascending, the cards lying in that order "
                            "clockwise from the pawn",
        "place_all_matching_dice": exact_json(place_all_probability((1, 2, 3, 4, 5, 6))),
    }
