"""Exact solver for Würfel Joker Spiel 1: the policy that maximises the expected score of one turn.

Positions (after an assignment): pushed-slide mask and dice in play; in the jokers: frozen row, jokers
down and dice in play. Pushed slides only grow, dice in play only shrink, so one pass in that order
solves everything, except two self-loops, solved in closed form:

* a throw of only 6s that pushes nothing returns to the same position (``V = max(C, A + p·max(V, B))``);
* in the jokers, a lone die showing 6 returns to the same joker position (``W = max(P, a + W/6)``).

All values are exact ``Fraction``s. "Optimal" means: best expected points of the turn in isolation
(the solitaire objective); in a race against others a player may want more risk near the end.
"""

from __future__ import annotations

import time
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product

from ....core.advice import Advice, make_advice
from ....core.dist import exact_json
from ....core.errors import IllegalActionError, SpieltischError
from .engine import (
    ALL_SLIDES, ASSIGN, BEST_ROW, DECIDE, JOKER_DECIDE, JOKER_THROW, JOKERS, NUM_DICE, NUM_JOKERS, ROWS,
    STOP, STOP_POINTS, TABLE, THROW, THROW_AGAIN, assignments, mask_of,
)

_SIXTH = Fraction(1, 6)


@lru_cache(maxsize=None)
def sorted_throws(n: int) -> tuple:
    """Sorted throws of ``n`` dice with their exact probabilities."""
    c = Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=n))
    return tuple((t, Fraction(k, 6**n)) for t, k in sorted(c.items()))


def _fixed_point(c, a, p, b):
    """The unique ``v`` with ``v = max(c, a + p·max(v, b))`` (``b`` None: no other option)."""
    if b is not None:
        vb = max(c, a + p * b)
        if vb <= b:
            return vb
    return max(c, a / (1 - p))


class Solution:
    """Solved values for one option setting. Keys: (mask, dice) for the base game; per row
    (jokers, dice) for the jokers."""

    def __init__(self, must_assign_max: bool = False):
        t0 = time.perf_counter()
        self.must_assign_max = bool(must_assign_max)
        self._solve_jokers()
        self._solve_base()
        self.seconds = time.perf_counter() - t0

    # W[r][(j, n)]: value at a joker decision (may stop); JT[r][(j, n)]: value of a joker throw.
    def _solve_jokers(self):
        self.W, self.JT = [], []
        for row in ROWS:
            P = row.points
            W, JT = {}, {}
            for j in range(NUM_JOKERS - 1, -1, -1):
                nxt = P[NUM_JOKERS] if j + 1 == NUM_JOKERS else W[(j + 1, 1)]
                a = _SIXTH * nxt  # one die: 1 -> one more joker; 6 -> stop or throw it again
                w = max(Fraction(P[j]), a / (1 - _SIXTH))
                W[(j, 1)], JT[(j, 1)] = w, a + _SIXTH * w
                for n in range(2, NUM_DICE + 1):
                    total = Fraction(0)
                    for t, p in sorted_throws(n):
                        k = t.count(1)
                        if k:
                            jj = min(NUM_JOKERS, j + k)
                            total += p * (P[NUM_JOKERS] if jj == NUM_JOKERS else W[(jj, n)])
                        elif 6 in t:
                            total += p * W[(j, 1)]
                    JT[(j, n)], W[(j, n)] = total, max(Fraction(P[j]), total)
            self.W.append(W)
            self.JT.append(JT)

    # V[(mask, n)]: value after assigning (may stop); T: value of throwing; J: value of going into the jokers.
    def _solve_base(self):
        V, T, J = {}, {}, {}
        mm = self.must_assign_max
        for mask in sorted(range(64), key=lambda m: -bin(m).count("1")):
            free = ALL_SLIDES ^ mask
            r = BEST_ROW[mask]
            for n in range(1, NUM_DICE + 1):
                c = Fraction(STOP_POINTS[mask])
                if r >= 0:
                    J[(mask, n)] = self.JT[r][(0, n)]
                    c = max(c, J[(mask, n)])
                a_sum, loop_p, loop_b = Fraction(0), Fraction(0), None
                for t, p in sorted_throws(n):
                    best, loops = None, False
                    for act in assignments(t, free, mm):
                        if act.mask == 0 and act.keep == n:
                            loops = True
                            continue
                        v = V[(mask | act.mask, act.keep)]
                        if best is None or v > best:
                            best = v
                    if loops:
                        loop_p, loop_b = loop_p + p, best
                    elif best is not None:
                        a_sum += p * best
                if loop_p:
                    v = _fixed_point(c, a_sum, loop_p, loop_b)
                    T[(mask, n)] = a_sum + loop_p * (v if loop_b is None else max(v, loop_b))
                else:
                    T[(mask, n)] = a_sum
                    v = max(c, a_sum)
                V[(mask, n)] = v
        self.V, self.T, self.J = V, T, J

    # --- queries ----------------------------------------------------------------------------------
    def start_value(self) -> Fraction:
        """Expected score of a turn under optimal play, before its first throw."""
        return self.T[(0, NUM_DICE)]

    def jokers_value(self, row: int, dice: int) -> Fraction:
        """Expected score of going into the jokers from ``row`` with ``dice`` dice in play."""
        return self.JT[row][(0, dice)]

    def _values(self, phase, mask, dice, row, jokers, legal):
        if phase == ASSIGN:
            return [(a, self.V[(mask | a.mask, a.keep)]) for a in legal]
        if phase == DECIDE:
            out = []
            for a in legal:
                if a == STOP:
                    out.append((a, Fraction(STOP_POINTS[mask])))
                elif a == THROW_AGAIN:
                    out.append((a, self.T[(mask, dice)]))
                else:
                    out.append((a, self.J[(mask, dice)]))
            return out
        if phase == JOKER_DECIDE:
            return [(a, Fraction(ROWS[row].points[jokers]) if a == STOP else self.JT[row][(jokers, dice)])
                    for a in legal]
        raise IllegalActionError("turn order", "no player decision is pending here",
                                 "gerade hat kein Spieler zu entscheiden", "Reihenfolge")

    def _sorted(self, pairs):
        return sorted(pairs, key=lambda av: -av[1])

    def decision_values(self, state) -> list:
        """``(action, expected turn score)`` for every legal action of ``state``, best first."""
        self._check(state)
        return self._sorted(self._values(state.phase, state.pushed, state.dice, state.row, state.jokers,
                                         state.legal_actions()))

    def values_from_observation(self, obs: dict, legal: list) -> list:
        """Like ``decision_values`` but from a public observation (what bots see)."""
        row = -1
        if obs["in_jokers"]:
            row = next(i for i, r in enumerate(ROWS) if r.id == obs["row"])
        return self._sorted(self._values(obs["phase"], mask_of(obs["pushed"]), obs["dice_in_play"], row,
                                         obs["jokers"], legal))

    def best_action(self, state):
        return self.decision_values(state)[0][0]

    def value_from_observation(self, obs: dict) -> Fraction:
        """Expected score of the rest of the current turn under optimal play, from a public
        observation: at a throw (``throw``, ``joker_throw``) or a decision. None where no turn is
        under way (the start throws, the end of the game)."""
        phase = obs["phase"]
        mask = mask_of(obs["pushed"])
        if phase == THROW:
            return self.T[(mask, obs["dice_in_play"])]
        if phase == JOKER_THROW:
            row = next(i for i, r in enumerate(ROWS) if r.id == obs["row"])
            return self.JT[row][(obs["jokers"], obs["dice_in_play"])]
        legal = _legal(obs, self.must_assign_max)
        if legal:
            return self.values_from_observation(obs, list(legal))[0][1]
        return None

    def value(self, state) -> Fraction:
        """Expected score of the rest of the current turn under optimal play, at any node."""
        self._check(state)
        ph = state.phase
        if ph == THROW:
            return self.T[(state.pushed, state.dice)]
        if ph == JOKER_THROW:
            return self.JT[state.row][(state.jokers, state.dice)]
        if ph in (ASSIGN, DECIDE, JOKER_DECIDE):
            return self.decision_values(state)[0][1]
        return Fraction(0)

    def _check(self, state):
        if bool(state.options["must_assign_max"]) != self.must_assign_max:
            raise ValueError("this solution was computed for another must_assign_max setting")


OBJECTIVE_TEXT = {"de": "erwartete Punkte dieses Zuges", "en": "expected points of this turn"}
METHOD_TEXT = {"de": "exakt: Rückwärtsrechnung über alle Stellungen eines Zuges (Brüche)",
               "en": "exact: backward induction over every position of a turn (fractions)"}


def legal_from_observation(game, obs: dict) -> tuple:
    """The legal actions of the decision ``obs`` shows (the same as the state's)."""
    return _legal(obs, bool(game.options["must_assign_max"]))


def _legal(obs: dict, must_assign_max: bool) -> tuple:
    phase, mask = obs["phase"], mask_of(obs["pushed"])
    if phase == ASSIGN:
        return assignments(tuple(obs["throw"]), ALL_SLIDES ^ mask, must_assign_max)
    if phase == DECIDE:
        return (STOP, THROW_AGAIN, JOKERS) if BEST_ROW[mask] >= 0 else (STOP, THROW_AGAIN)
    if phase == JOKER_DECIDE:
        return (STOP, THROW_AGAIN)
    return ()


def advise(game, observation: dict) -> Advice:
    """Every option of the decision ``observation`` shows, with its exact expected turn score."""
    legal = legal_from_observation(game, observation)
    if not legal:
        raise SpieltischError("there is no player decision to advise on here")
    valued = solve(game.options).values_from_observation(observation, list(legal))
    return make_advice(valued, method=METHOD_TEXT, objective=OBJECTIVE_TEXT)


@lru_cache(maxsize=None)
def _solve(must_assign_max: bool) -> Solution:
    return Solution(must_assign_max)


def solve(options: dict | None = None) -> Solution:
    """The exact solution for an option setting (cached; only ``must_assign_max`` matters)."""
    return _solve(bool((options or {}).get("must_assign_max", False)))


def policy_value(choose, must_assign_max: bool = False) -> Fraction:
    """Exact expected turn score of a fixed policy ``choose(phase, mask, dice, row, jokers, legal)``
    that must not depend on the number of throws made (true of the threshold bot)."""
    V, T = {}, {}
    W, JT = {}, {}

    def joker_throw(r, j, n):  # value of a joker throw, following the policy afterwards
        key = (r, j, n)
        if key not in JT:
            JT[key] = None  # marks "being computed": only the lone-6 loop re-enters
            total, loop_p = Fraction(0), Fraction(0)
            P = ROWS[r].points
            for t, p in sorted_throws(n):
                k = t.count(1)
                if k:
                    jj = min(NUM_JOKERS, j + k)
                    total += p * (P[NUM_JOKERS] if jj == NUM_JOKERS else joker_decide(r, jj, n))
                elif 6 in t:
                    if n == 1 and choose(JOKER_DECIDE, 0, 1, r, j, [STOP, THROW_AGAIN]) == THROW_AGAIN:
                        loop_p += p  # throws the lone die again: same position
                    else:
                        total += p * joker_decide(r, j, 1)
            JT[key] = total / (1 - loop_p)
        return JT[key]

    def joker_decide(r, j, n):
        a = choose(JOKER_DECIDE, 0, n, r, j, [STOP, THROW_AGAIN])
        return Fraction(ROWS[r].points[j]) if a == STOP else joker_throw(r, j, n)

    def throw(mask, n):
        key = (mask, n)
        if key not in T:
            total, loop_p = Fraction(0), Fraction(0)
            for t, p in sorted_throws(n):
                legal = list(assignments(t, ALL_SLIDES ^ mask, must_assign_max))
                if not legal:
                    continue
                a = choose(ASSIGN, mask, n, -1, 0, legal)
                if a.mask == 0 and a.keep == n:
                    d = choose(DECIDE, mask, n, -1, 0, decide_legal(mask))
                    if d == THROW_AGAIN:
                        loop_p += p
                        continue
                total += p * decide(mask | a.mask, a.keep)
            T[key] = total / (1 - loop_p)
        return T[key]

    def decide_legal(mask):
        return [STOP, THROW_AGAIN, JOKERS] if BEST_ROW[mask] >= 0 else [STOP, THROW_AGAIN]

    def decide(mask, n):
        a = choose(DECIDE, mask, n, -1, 0, decide_legal(mask))
        if a == STOP:
            return Fraction(STOP_POINTS[mask])
        if a == THROW_AGAIN:
            return throw(mask, n)
        return joker_throw(BEST_ROW[mask], 0, n)

    return throw(0, NUM_DICE)


def analyze(options: dict, progress=None, threshold_choose=None) -> dict:
    """Exact analysis of one turn for the CLI / notebooks (JSON-ready); with ``threshold_choose``
    (the threshold bot's rule) also that bot's exact expected score."""
    sol = solve(options)
    start = sol.start_value()
    rows = []
    for i, row in enumerate(ROWS):
        jv = {str(n): exact_json(sol.jokers_value(i, n)) for n in range(1, NUM_DICE + 1)}
        rows.append({
            "id": row.id, "name": row.name, "slides": list(row.slides), "exact": row.exact,
            "points": list(row.points), "stop": row.points[0],
            "jokers_value_by_dice_in_play": jv,
            "jokers_better_than_stopping_with_dice": [n for n in range(1, NUM_DICE + 1)
                                                      if sol.jokers_value(i, n) > row.points[0]],
            "optimal_value_after_reaching_by_dice_in_play": {
                str(n): exact_json(sol.V[(row.mask, n)]) for n in range(1, NUM_DICE + 1)},
        })
    thr = None if threshold_choose is None else policy_value(threshold_choose, sol.must_assign_max)
    rounds = options.get("rounds", 10)
    return {
        "game": "wuerfel-joker-1",
        "options": dict(options),
        "objective": "expected points of one turn (solitaire); the game total is rounds × this",
        "optimal_expected_score": exact_json(start),
        "optimal_expected_total": exact_json(start * rounds),
        "threshold_bot_expected_score": None if thr is None else exact_json(thr),
        "rows": rows,
        "table_provenance": TABLE.provenance,
        "table_note": TABLE.note,
        "note": "The scoring table is a RECONSTRUCTION (the pad's picture is lost); every value here "
                "except the rulebook's own facts (kleine Brücke 7, doubling per joker) depends on it.",
        "solve_seconds": round(sol.seconds, 4),
    }


def joker_throw_chances(n: int) -> dict:
    """What a joker throw of ``n`` dice (1–3) can bring, exactly: ``at_least_one_1`` (a joker is
    pushed), ``no_1_but_a_6`` (the 6 keeps the bet alive), ``lost`` (neither: the turn is lost) and
    ``no_1`` (the complement of the first). Counted over the 6**n throws."""
    if type(n) is not int or not 1 <= n <= NUM_DICE:
        raise SpieltischError(f"a joker throw has 1 to {NUM_DICE} dice, got {n!r}")
    out = {"at_least_one_1": Fraction(0), "no_1": Fraction(0), "no_1_but_a_6": Fraction(0), "lost": Fraction(0)}
    for t, p in sorted_throws(n):
        if 1 in t:
            out["at_least_one_1"] += p
        else:
            out["no_1"] += p
            out["no_1_but_a_6" if 6 in t else "lost"] += p
    return out
