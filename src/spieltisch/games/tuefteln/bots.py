"""Bots for Tüfteln. They decide from the observation (the sheet, the throw, the round) only.

Both rate a placement by how it changes the value of the one or two squares it writes into. The
value of a partial square comes from a small exact model (``square_values``): its empty fields are
filled one at a time, and each time the player may pick the best of ``n`` fresh dice. ``n = 1`` is a
random fill (the greedy bot's short view); the strong bot (``BonusBot``) lets ``n`` grow with the
rounds still to come, because early on a player can wait for the number a square needs, but less for
fields that must be filled together with a fixed partner (a bridge on side A, the last two fields of
a group); it looks one throw ahead, values the bonus as an option (on side B at least by the
chance that the squares played for points turn up all six categories), plays the last two rounds
exactly and, three rounds before the end, picks among its best few candidates by exact expectimax
over both remaining throws (``exact3``); four rounds before the end it does the same over three
throws, answering each first throw with only its few most promising placements (``exact4``). Its
settings per side are in ``strong_params.json``.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources

from ...core.bots import Bot
from . import scoring
from .engine import FIELDS, SIZE

W = (343, 49, 7, 1)  # weight of the four clockwise positions in a square code
SQ_OF = [0] * FIELDS
POS_OF = [0] * FIELDS
for _sq, _fs in enumerate(scoring.SQUARES):
    for _pos, _f in enumerate(_fs):
        SQ_OF[_f], POS_OF[_f] = _sq, _pos
CAT_INDEX = {c: i for i, c in enumerate(scoring.ALL_NAMES)}


def _codes_by_empties():
    out = [[] for _ in range(5)]
    for code in range(7 ** 4):
        digits = (code // 343, code // 49 % 7, code // 7 % 7, code % 7)
        out[digits.count(0)].append((code, [W[i] for i in range(4) if digits[i] == 0]))
    return out


_CODES = _codes_by_empties()


def _best_of_shares(n: float) -> list[float]:
    """Chance that the best of ``n`` dice is the i-th best face (i = 0..5).

    Rounded to 12 decimals: ``**`` with a fractional exponent comes from the platform's libm, which
    may differ in the last bit between CPython on Linux and Pyodide; the bots must choose the same
    moves in both (the Pyodide test compares whole games)."""
    return [round(((6 - i) / 6) ** n - ((5 - i) / 6) ** n, 12) for i in range(6)]


@lru_cache(maxsize=64)
def square_values(n: float, descending: bool = False, weights: tuple | None = None) -> tuple:
    """Expected value of every square code when each empty field in turn gets the best of ``n`` dice.

    ``weights`` maps category index (``scoring.ALL_NAMES`` order) to the value of a complete square;
    default: its points.
    """
    table = scoring.category_table(descending)
    pts = weights or tuple(scoring.POINTS[c] for c in scoring.ALL_NAMES)
    value = [0.0] * 7 ** 4
    for code, _ in _CODES[0]:
        value[code] = float(pts[CAT_INDEX[table[code]]])
    # chance that the best of n dice is the i-th best face
    share = _best_of_shares(n)
    for k in range(1, 5):
        for code, ws in _CODES[k]:
            best = sorted((max(value[code + v * w] for w in ws) for v in range(1, 7)), reverse=True)
            # math.fsum, not sum: sum() of floats is compensated since Python 3.12 (Pyodide has 3.14)
            value[code] = math.fsum(b * s for b, s in zip(best, share))
    return tuple(value)


@lru_cache(maxsize=2048)
def typed_square_values(nsig: tuple, descending: bool, weights: tuple) -> tuple:
    """Like ``square_values``, but the field at position ``i`` of the square gets the best of
    ``nsig[i]`` dice; the player chooses which kind (``n``) of field is filled next, then throws."""
    if len(set(nsig)) == 1:
        return square_values(nsig[0], descending, weights)
    table = scoring.category_table(descending)
    value = [0.0] * 7 ** 4
    for code, _ in _CODES[0]:
        value[code] = float(weights[CAT_INDEX[table[code]]])
    shares = {n: _best_of_shares(n) for n in set(nsig)}
    for k in range(1, 5):
        for code, ws in _CODES[k]:
            bytype = {}
            for w in ws:
                bytype.setdefault(nsig[W.index(w)], []).append(w)
            best_v = -1e9
            for n, tw in bytype.items():
                best = sorted((max(value[code + v * w] for w in tw) for v in range(1, 7)), reverse=True)
                x = 0.0
                for b, sh in zip(best, shares[n]):
                    x += b * sh
                if x > best_v:
                    best_v = x
            value[code] = best_v
    return tuple(value)


def square_codes(fields) -> list:
    return [((fields[a] * 7 + fields[b]) * 7 + fields[c]) * 7 + fields[d] for a, b, c, d in scoring.SQUARES]


def _flat(obs) -> list:
    return [v for row in obs["sheets"][obs["player"]]["fields"] for v in row]


class SquareValueBot(Bot):
    """Pick the placement that most raises the summed value of the squares it touches.

    ``schedule(rounds_left)`` gives the ``n`` of the square model; ``bonus`` > 0 adds, while the
    bonus is still reachable, ``bonus * 7 / (categories still missing)`` to the value of every
    missing category, so squares drift toward what the bonus needs.
    """

    name = "greedy"

    def __init__(self, game, schedule=lambda rounds_left: 1.0, bonus: float = 0.0, weights=None,
                 lookahead: int = 0):
        self.layout = game.layout
        self.lookahead = lookahead
        self.descending = game.options["descending_straights"]
        self.rounds = game.layout.rounds
        self.schedule = schedule
        self.bonus = bonus
        self.base = tuple(weights or (scoring.POINTS[c] for c in scoring.ALL_NAMES))
        self.cat_of = scoring.category_table(self.descending)
        self._tables: dict = {}

    def table(self, left: int, missing: tuple) -> tuple:
        key = (left, missing)
        t = self._tables.get(key)
        if t is None:
            w = list(self.base)
            if missing:
                for c in missing:
                    w[CAT_INDEX[c]] += self.bonus * scoring.BONUS / len(missing)
            t = self._tables[key] = square_values(self.schedule(left), self.descending, tuple(w))
        return t

    def act(self, observation, legal_actions, rng):
        fields = _flat(observation)
        codes = square_codes(fields)
        left = self.rounds - observation["round"]  # rounds still to come after this one
        missing = self._missing(codes)
        value = self.table(left, missing)
        scored = self.rank(codes, value, legal_actions)
        if self.lookahead and left > 0 and len(scored) > 1:
            scored.sort(key=lambda ga: -ga[0])
            free = sum(1 << f for f in range(FIELDS) if not fields[f])
            nxt = self.table(left - 1, missing)
            scored = [(self._expect(codes, free, a, [nxt] * 9), a) for _, a in scored[: self.lookahead]]
        best_score = max(g for g, _ in scored)
        best = [a for g, a in scored if g > best_score - 1e-9]
        return best[rng.below(len(best))] if len(best) > 1 else best[0]

    def _missing(self, codes) -> tuple:
        if not self.bonus:
            return ()
        done = {self.cat_of[c] for c in codes}
        missing = tuple(c for c in scoring.CATEGORIES if c not in done)
        if len(missing) > sum(1 for c in codes if self.cat_of[c] is None):
            return ()  # out of reach: play for points only
        return missing

    @staticmethod
    def rank(codes, value, actions) -> list:
        """(gain in summed square value, action) for every action: ``rank_typed`` with the same
        table for every square."""
        return rank_typed(codes, (value,) * len(codes), actions)

    def _expect(self, codes, free, a, vals) -> float:
        """Value of the squares after ``a`` and the best answer to each next throw (one ply ahead),
        with one value table per square (``vals``; the same table nine times for one model)."""
        codes = list(codes)
        touched = sorted({SQ_OF[a.f1], SQ_OF[a.f2]})
        before = 0.0
        for s in touched:
            before += vals[s][codes[s]]
        codes[SQ_OF[a.f1]] += a.v1 * W[POS_OF[a.f1]]
        codes[SQ_OF[a.f2]] += a.v2 * W[POS_OF[a.f2]]
        after = 0.0
        for s in touched:
            after += vals[s][codes[s]]
        free &= ~((1 << a.f1) | (1 << a.f2))
        pairs = self.layout.free_pairs(free)
        fs = [f for f in range(FIELDS) if free >> f & 1]
        gain_of = {}
        for v in range(1, 7):
            g = [0.0] * FIELDS
            for f in fs:
                s = SQ_OF[f]
                c = codes[s]
                g[f] = vals[s][c + v * W[POS_OF[f]]] - vals[s][c]
            gain_of[v] = g
        total = 0.0
        for (x, y), weight in THROW_WEIGHTS:
            gx, gy = gain_of[x], gain_of[y]
            best = -1e9
            for f1, f2, _ in pairs:
                s1 = SQ_OF[f1]
                if s1 == SQ_OF[f2]:
                    c = codes[s1]
                    value = vals[s1]
                    w1, w2 = W[POS_OF[f1]], W[POS_OF[f2]]
                    g = max(value[c + x * w1 + y * w2], value[c + y * w1 + x * w2]) - value[c]
                else:
                    g = max(gx[f1] + gy[f2], gy[f1] + gx[f2])
                if g > best:
                    best = g
            total += weight * best
        return after - before + total


def rank_typed(codes, vals, actions) -> list:
    """``SquareValueBot.rank`` with one value table per square."""
    out = []
    for a in actions:
        s1, s2 = SQ_OF[a.f1], SQ_OF[a.f2]
        if s1 == s2:
            old = codes[s1]
            v = vals[s1]
            gain = v[old + a.v1 * W[POS_OF[a.f1]] + a.v2 * W[POS_OF[a.f2]]] - v[old]
        else:
            o1, o2 = codes[s1], codes[s2]
            v1, v2 = vals[s1], vals[s2]
            gain = v1[o1 + a.v1 * W[POS_OF[a.f1]]] - v1[o1] + v2[o2 + a.v2 * W[POS_OF[a.f2]]] - v2[o2]
        out.append((gain, a))
    return out


THROW_WEIGHTS = tuple(((x, y), (1 if x == y else 2) / 36) for x in range(1, 7) for y in range(x, 7))
THROW_COUNTS = tuple((x, y, 1 if x == y else 2) for x in range(1, 7) for y in range(x, 7))  # in 36ths


def greedy(game) -> Bot:
    bot = SquareValueBot(game)
    bot.name = "greedy"
    return bot


@lru_cache(maxsize=64)
def pursuit_tables(n: float, descending: bool, weights: tuple, mu: float) -> tuple:
    """Per category c (``scoring.CATEGORIES`` order): ``(prob, pts)`` arrays over square codes.

    The square is played as in ``square_values`` but toward ``weights + mu * [category == c]``:
    ``prob[code]`` is the chance that it ends as ``c`` and ``pts[code]`` its expected weighted points
    under that play. ``values - pts`` is what steering the square toward ``c`` costs in points.
    """
    table = scoring.category_table(descending)
    share = _best_of_shares(n)
    out = []
    for ci, cat in enumerate(scoring.CATEGORIES):
        obj = [0.0] * 7 ** 4
        prob = [0.0] * 7 ** 4
        pts = [0.0] * 7 ** 4
        for code, _ in _CODES[0]:
            k = table[code]
            w = float(weights[CAT_INDEX[k]])
            pts[code] = w
            if k == cat:
                prob[code] = 1.0
                obj[code] = w + mu
            else:
                obj[code] = w
        for k in range(1, 5):
            for code, ws in _CODES[k]:
                opts = []
                for v in range(1, 7):
                    bo, bc = -1.0, 0
                    for w in ws:
                        c = code + v * w
                        if obj[c] > bo:
                            bo, bc = obj[c], c
                    opts.append((bo, prob[bc], pts[bc]))
                opts.sort(reverse=True)
                o = p = q = 0.0
                for (a, b, c), s in zip(opts, share):
                    o += a * s
                    p += b * s
                    q += c * s
                obj[code], prob[code], pts[code] = o, p, q
        out.append((tuple(prob), tuple(pts)))
    return tuple(out)


CAT_BIT = {c: 1 << i for i, c in enumerate(scoring.CATEGORIES)}
ALL_CATS = (1 << len(scoring.CATEGORIES)) - 1


class BonusBot(SquareValueBot):
    """The square model plus the option of the bonus, and the last two rounds played exactly.

    The bonus option of a sheet: the squares still open are assigned to the categories the complete
    squares lack (a small dynamic program over squares × missing categories); an assignment is worth
    ``bonus_weight * 7 * (product of the chances that each assigned square ends in its category)``
    minus the points that steering those squares costs (``pursuit_tables``). The option is worth
    the best assignment or nothing. With ``cover`` > 0 (side B) the bonus is worth at least
    ``cover * 7 * cover_chance``: the chance that the squares, each played for points alone, turn
    up every missing category anyway. The steered option needs every square of its plan to hit and
    is worth nothing for most of a B game, so without it the bot would ignore the bonus until the
    end; ``cover`` > 1 because the real chance is higher (the end game is played for the bonus).
    Every placement is ranked by its square-value gain plus a linearised change of the steered
    option; the best few get one throw of lookahead plus the full bonus value.
    Three rounds before the end the best ``exact3`` of those are rescored exactly (``_exact3``),
    four rounds before the end the best ``exact4`` nearly exactly (``_exact4``): the end game is
    where the square model errs most (it ignores that both dice of a throw must be placed
    together) and where the bonus is won or lost, and exact play there is cheap enough.
    """

    def __init__(self, game, k=0.25, weights=(1, 2, 3, 4, 8, 6, 0), lookahead=16, mu=6.0,
                 bonus_weight=1.0, shadow=1.0, k_bridge=None, k_mid=None, dynamic=True, exact3=0,
                 exact4=0, exact4_replies=3, cover=0.0, cover_k=None):
        super().__init__(game, schedule=lambda r: 1.0 + k * r, weights=weights, lookahead=lookahead)
        self.cover = cover
        self.cover_k = k if cover_k is None else cover_k
        self.exact3 = exact3
        self.exact4 = exact4
        self.exact4_replies = exact4_replies
        table = scoring.category_table(self.descending)
        self._pts = [0 if c is None else scoring.POINTS[c] for c in table]
        self._cbit = [CAT_BIT.get(c, 0) for c in table]
        self.k = k
        self.k_bridge = k if k_bridge is None else k_bridge
        self.k_mid = k if k_mid is None else k_mid
        self.dynamic = dynamic
        lay = game.layout
        self.sig = [tuple(0 if lay.bridge_of[f] is None else 1 for f in fs) for fs in scoring.SQUARES]
        self._typed: dict = {}
        self._last_cache: dict = {}
        self.mu = mu
        self.bonus_weight = bonus_weight
        self.shadow = shadow
        self.points = tuple(scoring.POINTS[c] for c in scoring.ALL_NAMES)

    def typed(self, left: int, free: int) -> list:
        """One value table per square: a free field whose group (white, a bridge, a colour) has at
        most two free fields left gets the best of ``1 + k_bridge * left`` dice, at most four
        ``1 + k_mid * left``, others ``1 + k * left`` (``dynamic=False``: bridges only)."""
        lay = self.layout
        if self.dynamic:
            m = [0] * len(lay.groups)
            for gi, (_, fs) in enumerate(lay.groups):
                for f in fs:
                    if free >> f & 1:
                        m[gi] += 1
            kind = [-1] * FIELDS  # -1: written
            for f in range(FIELDS):
                if free >> f & 1:
                    n = m[lay.group_of[f]]
                    kind[f] = 1 if n <= 2 else 2 if n <= 4 else 0
            sigs = tuple(tuple(kind[f] for f in fs) for fs in scoring.SQUARES)
        else:
            sigs = tuple(tuple(k if free >> f & 1 else -1 for k, f in zip(sig, fs))
                         for sig, fs in zip(self.sig, scoring.SQUARES))
        key = (left, sigs)
        t = self._typed.get(key)
        if t is None:
            if len(self._typed) > 4096:
                self._typed.clear()
            ns = (1.0 + self.k * left, 1.0 + self.k_bridge * left, 1.0 + self.k_mid * left)
            t = []
            for sig, fs in zip(sigs, scoring.SQUARES):
                empty = [ns[i] for i, f in zip(sig, fs) if free >> f & 1] or [ns[0]]
                # a written field's kind does not matter: give it one of the square's free kinds
                nsig = tuple(ns[i] if free >> f & 1 else empty[0] for i, f in zip(sig, fs))
                t.append(typed_square_values(nsig, self.descending, self.base))
            self._typed[key] = t
        return t

    def pursuit(self, left: int) -> tuple:
        return pursuit_tables(1.0 + self.k * left, self.descending, self.base, self.mu)

    def cover_chance(self, codes, left: int) -> float:
        """Chance of the bonus if every open square is played for points alone, the squares taken
        as independent: each open square ends in a category with the chances of the square model
        at ``n = 1 + cover_k * left`` (``pursuit_tables`` without steering), and inclusion-exclusion
        over the sets of missing categories that no open square reaches gives the chance that
        every missing category turns up somewhere."""
        free_play = pursuit_tables(1.0 + self.cover_k * left, self.descending, self.base, 0.0)
        done, open_sq = self._done_and_open(codes)
        missing = [i for i in range(6) if not done >> i & 1]
        if not missing:
            return 1.0
        if len(missing) > len(open_sq):
            return 0.0
        open_codes = [codes[s] for s in open_sq]
        size = 1 << len(missing)
        prod = [1.0] * size
        for c in open_codes:
            q = [1.0] * size  # q[sub]: chance that the square ends in none of the categories in sub
            for sub in range(1, size):
                low = sub & -sub
                q[sub] = q[sub ^ low] - free_play[missing[low.bit_length() - 1]][0][c]
            for sub in range(size):
                prod[sub] *= q[sub]
        total = 0.0
        for sub in range(size):
            total += -prod[sub] if bin(sub).count("1") & 1 else prod[sub]
        return total if total > 0.0 else 0.0

    def _done_and_open(self, codes) -> tuple:
        """(bit mask of the categories complete squares have, indices of the squares still open)."""
        cat_of = self.cat_of
        done = 0
        open_sq = []
        for s, c in enumerate(codes):
            k = cat_of[c]
            if k is None:
                open_sq.append(s)
            elif k != "none":
                done |= CAT_BIT[k]
        return done, open_sq

    def option(self, codes, value, pursuit):
        """(bonus option value, assignment {square: category index}, product of chances)."""
        done, open_sq = self._done_and_open(codes)
        if done == ALL_CATS:
            return scoring.BONUS * self.bonus_weight, {}, 1.0
        missing = [i for i in range(6) if not done >> i & 1]
        if len(missing) > len(open_sq):
            return 0.0, {}, 0.0
        bonus = scoring.BONUS * self.bonus_weight
        states = {done: (1.0, 0.0, ())}
        for s in open_sq:
            code = codes[s]
            v = value[code]
            new = dict(states)
            for mask, (pr, cost, plan) in states.items():
                for i in missing:
                    bit = 1 << i
                    if mask & bit:
                        continue
                    prob, pts = pursuit[i]
                    p = prob[code]
                    if p < 1e-4:
                        continue
                    np_ = pr * p
                    nc = cost + v - pts[code]
                    m2 = mask | bit
                    old = new.get(m2)
                    if old is None or bonus * np_ - nc > bonus * old[0] - old[1]:
                        new[m2] = (np_, nc, plan + ((s, i),))
            states = new
        best = states.get(ALL_CATS)
        if best is None:
            return 0.0, {}, 0.0
        val = bonus * best[0] - best[1]
        if val <= 0:
            return 0.0, {}, 0.0
        return val, dict(best[2]), best[0]

    def act(self, observation, legal_actions, rng):
        fields = _flat(observation)
        codes = square_codes(fields)
        left = self.rounds - observation["round"]
        if left <= 1 or len(legal_actions) == 1:
            scored = [(self._exact(codes, fields, a, left), a) for a in legal_actions]
        else:
            value = self.table(left, ())
            pursuit = self.pursuit(left)
            free = sum(1 << f for f in range(FIELDS) if not fields[f])
            scored = rank_typed(codes, self.typed(left, free), legal_actions)
            opt, plan, prod = self.option(codes, value, pursuit)
            if plan and self.shadow:
                bonus = scoring.BONUS * self.bonus_weight
                sh = self.shadow
                adj = []
                for g, a in scored:
                    for s in {SQ_OF[a.f1], SQ_OF[a.f2]}:
                        i = plan.get(s)
                        if i is None:
                            continue
                        c = codes[s]
                        c2 = c
                        if SQ_OF[a.f1] == s:
                            c2 += a.v1 * W[POS_OF[a.f1]]
                        if SQ_OF[a.f2] == s:
                            c2 += a.v2 * W[POS_OF[a.f2]]
                        prob, pts = pursuit[i]
                        p0 = prob[c]
                        rest = prod / p0 if p0 > 0 else 0.0
                        # points the square keeps under pursuit, relative to its free value
                        g += sh * (bonus * rest * (prob[c2] - p0) + (pts[c2] - value[c2]) - (pts[c] - value[c]))
                    adj.append((g, a))
                scored = adj
            scored.sort(key=lambda ga: -ga[0])
            nxt = self.typed(left - 1, free)
            # the exact rescoring three and four rounds out may reach past the lookahead's few
            width = max(self.lookahead, self.exact3 if left == 2 else self.exact4 if left == 3 else 0)
            out = []
            for _, a in scored[:width]:
                c2 = list(codes)
                c2[SQ_OF[a.f1]] += a.v1 * W[POS_OF[a.f1]]
                c2[SQ_OF[a.f2]] += a.v2 * W[POS_OF[a.f2]]
                e = self._expect(codes, free, a, nxt)
                o = self.option(c2, value, pursuit)[0]
                if self.cover:
                    o2 = self.cover * scoring.BONUS * self.cover_chance(c2, left)
                    if o2 > o:
                        o = o2
                out.append((e + o, a))
            scored = out
            if left == 2 and self.exact3:
                scored.sort(key=lambda ga: -ga[0])
                scored = [(self._exact3(codes, free, a), a) for _, a in scored[: self.exact3]]
            elif left == 3 and self.exact4:
                scored.sort(key=lambda ga: -ga[0])
                memo = {}
                scored = [(self._exact4(codes, free, a, memo), a) for _, a in scored[: self.exact4]]
        best_score = max(g for g, _ in scored)
        best = [a for g, a in scored if g > best_score - 1e-9]
        return best[rng.below(len(best))] if len(best) > 1 else best[0]

    def _exact4(self, codes, free, a, memo) -> float:
        """Expected final score after ``a`` with three throws to come: each next throw is answered by
        the best of its ``exact4_replies`` placements with the highest square-value gain, and those
        are scored exactly (``_two_throws``). A lower bound of the exact value, pruned for time;
        ``memo`` shares the scored positions between the candidates of one move."""
        codes = list(codes)
        codes[SQ_OF[a.f1]] += a.v1 * W[POS_OF[a.f1]]
        codes[SQ_OF[a.f2]] += a.v2 * W[POS_OF[a.f2]]
        free &= ~((1 << a.f1) | (1 << a.f2))
        pairs = self.layout.free_pairs(free)
        vals = self.typed(2, free)
        top = self.exact4_replies
        total = 0.0
        for (x, y), weight in THROW_WEIGHTS:
            replies = []
            for g1, g2, m in pairs:
                s1, s2 = SQ_OF[g1], SQ_OF[g2]
                w1, w2 = W[POS_OF[g1]], W[POS_OF[g2]]
                for u, v in ((x, y), (y, x)) if x != y else ((x, y),):
                    if s1 == s2:
                        t = vals[s1]
                        c = codes[s1]
                        g = t[c + u * w1 + v * w2] - t[c]
                    else:
                        t1, t2 = vals[s1], vals[s2]
                        c1, c2 = codes[s1], codes[s2]
                        g = t1[c1 + u * w1] - t1[c1] + t2[c2 + v * w2] - t2[c2]
                    replies.append((-g, len(replies), s1, u * w1, s2, v * w2, m))
            replies.sort()
            best = -1.0
            for _, _, s1, d1, s2, d2, m in replies[:top]:
                c = list(codes)
                c[s1] += d1
                c[s2] += d2
                key = (tuple(c), free & ~m)
                val = memo.get(key)
                if val is None:
                    val = memo[key] = self._two_throws(c, free & ~m)
                if val > best:
                    best = val
            total += weight * best
        return total

    def _exact3(self, codes, free, a) -> float:
        """Expected final score after ``a`` (two throws still to come), both answered at best: exact."""
        codes = list(codes)
        codes[SQ_OF[a.f1]] += a.v1 * W[POS_OF[a.f1]]
        codes[SQ_OF[a.f2]] += a.v2 * W[POS_OF[a.f2]]
        return self._two_throws(codes, free & ~((1 << a.f1) | (1 << a.f2)))

    def _two_throws(self, codes, free) -> float:
        """Expected final score with two throws to come (four free fields), both placed at best."""
        pairs = self.layout.free_pairs(free)
        fs = [f for f in range(FIELDS) if free >> f & 1]
        memo = {}
        total = 0.0
        for (x, y), weight in THROW_WEIGHTS:
            best = -1.0
            for g1, g2, m in pairs:
                h1, h2 = [f for f in fs if f != g1 and f != g2]
                s1, s2 = SQ_OF[g1], SQ_OF[g2]
                w1, w2 = W[POS_OF[g1]], W[POS_OF[g2]]
                for u, v in ((x, y), (y, x)) if x != y else ((x, y),):
                    key = (m, u, v)
                    val = memo.get(key)
                    if val is None:
                        c = list(codes)
                        c[s1] += u * w1
                        c[s2] += v * w2
                        val = memo[key] = self._last(c, h1, h2)
                    if val > best:
                        best = val
            total += weight * best
        return total

    def _last(self, codes, h1, h2) -> float:
        """Expected final score with the fields ``h1``, ``h2`` free and one throw to come.

        The throw's part depends only on the two squares that take it and on the categories the
        other squares already have, so it is cached on those (the same end positions recur many
        times in ``_two_throws`` and ``_exact4``); it is summed in integers (36ths), exactly."""
        pts, cbit = self._pts, self._cbit
        s1, s2 = SQ_OF[h1], SQ_OF[h2]
        base = 0
        done = 0
        for s in range(9):
            if s != s1 and s != s2:
                c = codes[s]
                base += pts[c]
                done |= cbit[c]
        w1, w2 = W[POS_OF[h1]], W[POS_OF[h2]]
        c1, c2 = codes[s1], codes[s2]
        key = (c1, w1, c2 if s1 != s2 else -1, w2, done)
        cache = self._last_cache
        total = cache.get(key)
        if total is None:
            if len(cache) > 400_000:
                cache.clear()
            total = 0
            if s1 == s2:
                for x, y, n in THROW_COUNTS:
                    ca, cb = c1 + x * w1 + y * w2, c1 + y * w1 + x * w2
                    va = pts[ca] + (7 if done | cbit[ca] == ALL_CATS else 0)
                    vb = pts[cb] + (7 if done | cbit[cb] == ALL_CATS else 0)
                    total += n * (va if va > vb else vb)
            else:
                for x, y, n in THROW_COUNTS:
                    a1, a2, b1, b2 = c1 + x * w1, c2 + y * w2, c1 + y * w1, c2 + x * w2
                    va = pts[a1] + pts[a2] + (7 if done | cbit[a1] | cbit[a2] == ALL_CATS else 0)
                    vb = pts[b1] + pts[b2] + (7 if done | cbit[b1] | cbit[b2] == ALL_CATS else 0)
                    total += n * (va if va > vb else vb)
            cache[key] = total
        return base + total / 36

    def _final(self, fields) -> float:
        return float(scoring.total(scoring.square_categories(fields, self.descending))[0])

    def _exact(self, codes, fields, a, left) -> float:
        """Expected final score after ``a`` with the last throw (if any) placed at best: exact."""
        f = list(fields)
        f[a.f1], f[a.f2] = a.v1, a.v2
        if left == 0:
            return self._final(f)
        free = [i for i in range(FIELDS) if not f[i] and not self.layout.printed[i]]
        pairs = self.layout.free_pairs(sum(1 << i for i in free))
        total = 0.0
        for (x, y), weight in THROW_WEIGHTS:
            best = -1.0
            for f1, f2, _ in pairs:
                for u, v in ((x, y), (y, x)):
                    f[f1], f[f2] = u, v
                    s = self._final(f)
                    if s > best:
                        best = s
                f[f1] = f[f2] = 0
            total += weight * best
        return total


def strong_params(side: str) -> dict:
    """The strong bot's settings for a sheet side (``strong_params.json`` next to this module)."""
    global _PARAMS
    if _PARAMS is None:
        text = resources.files(__package__).joinpath("strong_params.json").read_text(encoding="utf-8")
        _PARAMS = json.loads(text)
    params = dict(_PARAMS[side])
    if "weights" in params:
        params["weights"] = tuple(params["weights"])
    return params


_PARAMS = None


def strong(game) -> Bot:
    """Square model (bridges and nearly full groups get fewer choices), one throw of lookahead on the
    best few placements, the bonus as an option (on side B at least its chance under play for
    points), the last two rounds played exactly and the two
    before them by (pruned) expectimax over the remaining throws."""
    bot = BonusBot(game, **strong_params(game.options["side"]))
    bot.name = "strong"
    return bot


BOTS = {"greedy": greedy, "strong": strong}
