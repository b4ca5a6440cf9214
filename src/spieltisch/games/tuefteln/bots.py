"""Bots for Tüfteln. They decide from the observation (the sheet, the throw, the round) only.

Both rate a placement by how it changes the value of the one or two squares it writes into. The
value of a partial square comes from a small exact model (``square_values``): its empty fields are
filled one at a time, and each time the player may pick the best of ``n`` fresh dice. ``n = 1`` is a
random fill (the greedy bot's short view); the strong bot lets ``n`` grow with the rounds still to
come, because early on a player can wait for the number a square needs, and adds the chance of the
bonus.
"""

from __future__ import annotations

from functools import lru_cache

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
    share = [((6 - i) / 6) ** n - ((5 - i) / 6) ** n for i in range(6)]
    for k in range(1, 5):
        for code, ws in _CODES[k]:
            best = sorted((max(value[code + v * w] for w in ws) for v in range(1, 7)), reverse=True)
            value[code] = sum(b * s for b, s in zip(best, share))
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
            scored = [(self._expect(codes, free, a, nxt), a) for _, a in scored[: self.lookahead]]
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
        """(gain in summed square value, action) for every action."""
        out = []
        for a in actions:
            s1, s2 = SQ_OF[a.f1], SQ_OF[a.f2]
            if s1 == s2:
                old = codes[s1]
                gain = value[old + a.v1 * W[POS_OF[a.f1]] + a.v2 * W[POS_OF[a.f2]]] - value[old]
            else:
                o1, o2 = codes[s1], codes[s2]
                gain = value[o1 + a.v1 * W[POS_OF[a.f1]]] - value[o1] + value[o2 + a.v2 * W[POS_OF[a.f2]]] - value[o2]
            out.append((gain, a))
        return out

    def _expect(self, codes, free, a, value) -> float:
        """Value of the squares after ``a`` and the best answer to each next throw (one ply ahead)."""
        codes = list(codes)
        touched = {SQ_OF[a.f1], SQ_OF[a.f2]}
        before = sum(value[codes[s]] for s in touched)
        codes[SQ_OF[a.f1]] += a.v1 * W[POS_OF[a.f1]]
        codes[SQ_OF[a.f2]] += a.v2 * W[POS_OF[a.f2]]
        after = sum(value[codes[s]] for s in touched)
        free &= ~((1 << a.f1) | (1 << a.f2))
        pairs = self.layout.free_pairs(free)
        fs = [f for f in range(FIELDS) if free >> f & 1]
        gain_of = {}
        for v in range(1, 7):
            g = [0.0] * FIELDS
            for f in fs:
                c = codes[SQ_OF[f]]
                g[f] = value[c + v * W[POS_OF[f]]] - value[c]
            gain_of[v] = g
        total = 0.0
        for (x, y), weight in THROW_WEIGHTS:
            gx, gy = gain_of[x], gain_of[y]
            best = -1e9
            for f1, f2, _ in pairs:
                s1 = SQ_OF[f1]
                if s1 == SQ_OF[f2]:
                    c = codes[s1]
                    w1, w2 = W[POS_OF[f1]], W[POS_OF[f2]]
                    g = max(value[c + x * w1 + y * w2], value[c + y * w1 + x * w2]) - value[c]
                else:
                    g = max(gx[f1] + gy[f2], gy[f1] + gx[f2])
                if g > best:
                    best = g
            total += weight * best
        return after - before + total


THROW_WEIGHTS = tuple(((x, y), (1 if x == y else 2) / 36) for x in range(1, 7) for y in range(x, 7))


def greedy(game) -> Bot:
    bot = SquareValueBot(game)
    bot.name = "greedy"
    return bot


# Tuned on seeded solo games (side A and B): a four is valued above its 5 points inside the square
# model, because a four planned early is rarely spoiled, while the model's many "almost straights"
# often end as pairs; the bonus steering did not pay and is off.
STRONG = {"k": 0.25, "bonus": 0.0, "weights": (1, 2, 3, 4, 8, 6, 0), "lookahead": 16}


def strong(game) -> Bot:
    """Square model with n = 1 + k * rounds_left, plus one throw of expectimax on the best few placements."""
    k = STRONG["k"]
    bot = SquareValueBot(game, schedule=lambda r: 1.0 + k * r, bonus=STRONG["bonus"], weights=STRONG["weights"],
                         lookahead=STRONG["lookahead"])
    bot.name = "strong"
    return bot


BOTS = {"greedy": greedy, "strong": strong}
