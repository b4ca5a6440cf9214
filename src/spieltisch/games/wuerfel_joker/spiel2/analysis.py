"""Exact solvers for one turn of Würfel Joker, Spiel 2 (all values are ``Fraction``).

A turn is a Markov decision process on the slide mask (512 states). Let ``T(m)`` be the value of
"the dice are about to be thrown, slides ``m`` up" and ``V(m)`` the value after a push
(``max(stop(m), T(m))``). For every throw, ``w`` is the best push (45 / 1 if it completes the
nine, else ``V`` of the new mask) or, if nothing can be pushed, the bust value. A Pasch may be
declined, which leads back to ``T(m)`` itself, so ``T`` is a fixed point::

    T = sum_{non-doubles} p*w + sum_{doubles} p*max(w, T)

The optimal policy declines exactly the doubles with ``w < T``, i.e. the k lowest for some k, so
``T = max_k (sum of accepted p*w) / (1 - k/36)``; the chosen k is then checked against the Bellman
equation (no single switch improves). Masks are solved from the full board downwards (a push only
adds bits). Objectives: ``"expected"`` (turn points) and ``"all_up"`` (probability of pushing all
nine; stopping and busting are worth 0).
"""

from __future__ import annotations

from fractions import Fraction

from ....core.advice import Advice, make_advice
from ....core.dist import exact_json
from ....core.errors import SpieltischError
from .engine import (ACCEPT, CHOOSE, DECLINE, DOUBLES_BUST, FIVE, FULL, MAKE, PUSH, ROLL, STOP,
                     STOP_OR_THROW, SUM_DOWN, UP, Spiel2Game, formations)

OBJECTIVES = ("expected", "all_up")
_PAIRS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))  # unordered; non-doubles count twice


def _options(options) -> dict:
    if isinstance(options, Spiel2Game):
        return options.options
    if options is not None and hasattr(options, "options") and hasattr(options, "game"):  # a State
        return options.options
    return Spiel2Game(1, options).options  # validates and fills defaults


class Solution:
    """Optimal values of one objective under one option setting."""

    def __init__(self, five_ops: str, x5_on_stop: bool, objective: str):
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        self.five_ops = five_ops
        self.x5_on_stop = x5_on_stop
        self.objective = objective
        self.expected = objective == "expected"
        self._T: list = [None] * 512
        self._V: list = [None] * 512
        self._declined: list = [()] * 512  # per mask: the doubles (die value) the policy declines
        self._best: dict = {}
        self._solve()

    # --- values at the leaves ---------------------------------------------------------------
    def stop_value(self, mask: int):
        if not self.expected:
            return Fraction(0)
        return Fraction(-SUM_DOWN[mask] * (5 if self.x5_on_stop and mask & FIVE else 1))

    def bust_value(self, mask: int, a: int, b: int):
        if not self.expected:
            return Fraction(0)
        return Fraction(-(SUM_DOWN[mask] + a + b) * (5 if mask & FIVE else 1))

    def push_value(self, mask: int, value: int):
        """Value of pushing ``value`` from ``mask`` (the turn goes on optimally)."""
        m = mask | 1 << (value - 1)
        if m == FULL:
            return Fraction(45) if self.expected else Fraction(1)
        return self._V[m]

    # --- the solve -----------------------------------------------------------------------------
    def _solve(self):
        make = MAKE[self.five_ops]
        V, T = self._V, self._T
        for mask in range(FULL - 1, -1, -1):
            row = make[mask >> 4 & 1]
            best_by_free: dict = {}
            acc = Fraction(0)
            doubles = []
            for a, b in _PAIRS:
                free = row[a][b] & ~mask
                if free:
                    w = best_by_free.get(free)
                    if w is None:
                        w = max(self.push_value(mask, v) for v in range(1, 10) if free >> (v - 1) & 1)
                        best_by_free[free] = w
                else:
                    w = self.bust_value(mask, a, b)
                if a == b:
                    doubles.append((w, a))
                else:
                    acc += 2 * w
            doubles.sort()
            rest = sum((w for w, _ in doubles), Fraction(0))
            best_t, best_k = None, 0
            for k in range(7):  # decline the k lowest doubles
                if k:
                    rest -= doubles[k - 1][0]
                t = (acc + rest) / (36 - k)
                if best_t is None or t > best_t:
                    best_t, best_k = t, k
            # Bellman check: declined doubles are worth no more than throwing again, kept ones no less.
            assert all(w <= best_t for w, _ in doubles[:best_k]) and all(w >= best_t for w, _ in doubles[best_k:])
            T[mask] = best_t
            self._declined[mask] = tuple(sorted(d for _, d in doubles[:best_k]))
            V[mask] = max(self.stop_value(mask), best_t) if mask else best_t

    # --- queries -------------------------------------------------------------------------------
    def start_value(self) -> Fraction:
        """Value of a turn before its first throw."""
        return self._T[0]

    def throw_value(self, mask: int) -> Fraction:
        """Value of throwing (again) with slides ``mask`` up."""
        return self._T[mask]

    def after_push_value(self, mask: int) -> Fraction:
        """Value after a push to ``mask``: the better of stopping and throwing again."""
        return self._V[mask]

    def goes_on(self, mask: int) -> bool:
        """True if the optimal policy throws again (rather than stops) with ``mask`` up."""
        return self._T[mask] > self.stop_value(mask)

    def declined_doubles(self, mask: int) -> tuple:
        """Die values of the doubles the optimal policy throws again on (even when usable)."""
        return self._declined[mask]

    def values_at(self, mask: int, dice, phase: str) -> list:
        """``[(action, value), ...]`` for every legal action at a decision node, best first."""
        if phase == STOP_OR_THROW:
            out = [(STOP, self.stop_value(mask)), (ROLL, self._T[mask])]
        elif phase in (CHOOSE, DOUBLES_BUST):
            a, b = dice
            free = MAKE[self.five_ops][mask >> 4 & 1][a][b] & ~mask
            out = [(PUSH[v], self.push_value(mask, v)) for v in range(1, 10) if free >> (v - 1) & 1]
            if a == b:
                out.append((DECLINE, self._T[mask]))
                if not free:
                    out.append((ACCEPT, self.bust_value(mask, a, b)))
        else:
            return []
        out.sort(key=lambda av: av[1], reverse=True)  # stable: ties keep the legal order
        return out

    def decision_values(self, state) -> list:
        return self.values_at(state.mask, state.dice, state.phase)

    def best_at(self, mask: int, dice, phase: str):
        key = (mask, dice, phase)
        act = self._best.get(key)
        if act is None:
            act = self._best[key] = self.values_at(mask, dice, phase)[0][0]
        return act

    def best_action(self, state):
        return self.best_at(state.mask, state.dice, state.phase)


_CACHE: dict = {}


def solve(options=None, objective: str = "expected") -> Solution:
    """The (cached) exact solution for ``options`` (dict, Game or State) and ``objective``."""
    opts = _options(options)
    x5 = bool(opts["x5_on_stop"]) if objective == "expected" else False  # stopping is worth 0 anyway
    key = (opts["five_ops"], x5, objective)
    sol = _CACHE.get(key)
    if sol is None:
        sol = _CACHE[key] = Solution(opts["five_ops"], x5, objective)
    return sol


def evaluate(policy: Solution, objective: str) -> Fraction:
    """Value under ``objective`` of a turn played by ``policy``'s optimal decisions (exact)."""
    target = Solution.__new__(Solution)
    target.five_ops, target.x5_on_stop, target.objective = policy.five_ops, policy.x5_on_stop, objective
    target.expected = objective == "expected"
    make = MAKE[policy.five_ops]
    V, T = [None] * 512, [None] * 512
    target._V = V
    for mask in range(FULL - 1, -1, -1):
        row = make[mask >> 4 & 1]
        acc, declined_p = Fraction(0), 0
        for a, b in _PAIRS:
            free = row[a][b] & ~mask
            if a == b and a in policy.declined_doubles(mask):
                declined_p += 1
                continue
            if free:
                act = policy.values_at(mask, (a, b), CHOOSE)[0][0]
                w = target.push_value(mask, act.value)
            else:
                w = target.bust_value(mask, a, b)
            acc += w if a == b else 2 * w
        T[mask] = acc / (36 - declined_p)
        V[mask] = (T[mask] if policy.goes_on(mask) else target.stop_value(mask)) if mask else T[mask]
    return T[0]


OBJECTIVE_TEXT = {
    "expected": {"de": "erwartete Punkte dieses Zuges (Minuspunkte negativ)",
                 "en": "expected points of this turn (minus points negative)"},
    "all_up": {"de": "Wahrscheinlichkeit, in diesem Zug alle neun Schieber hochzubringen",
               "en": "probability of getting all nine slides up this turn"},
}
METHOD_TEXT = {"de": "exakt: Rückwärtsrechnung über alle Stellungen eines Zuges (Brüche)",
               "en": "exact: backward induction over every position of a turn (fractions)"}


def advise(game, observation: dict, objective: str = "expected") -> Advice:
    """Every option of the decision ``observation`` shows, with its exact value under optimal play
    afterwards (``objective``: expected points, or the probability of all nine up)."""
    if objective not in OBJECTIVES:
        raise SpieltischError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    o = observation
    dice = tuple(o["dice"]) if o["dice"] else None
    valued = solve(game.options, objective).values_at(o["mask"], dice, o["phase"])
    notes = {}
    if dice and o["phase"] == CHOOSE:
        forms = {}
        for v, text in formations(dice[0], dice[1], bool(o["mask"] & FIVE), game.options["five_ops"]):
            forms.setdefault(v, []).append(text)
        notes = {PUSH[v]: {"de": "; ".join(t), "en": "; ".join(t)} for v, t in forms.items()}
    return make_advice(valued, method=METHOD_TEXT, objective=OBJECTIVE_TEXT[objective], notes=notes)


def _table(sol: Solution) -> list[dict]:
    """Stop-or-go table: for each count of slides up, which masks go on."""
    rows = []
    for n in range(1, 9):
        masks = [m for m in range(1, FULL) if bin(m).count("1") == n]
        go = [m for m in masks if sol.goes_on(m)]
        rows.append({"slides_up": n, "masks": len(masks), "go_on": len(go), "stop": len(masks) - len(go)})
    return rows


def analyze(options=None, progress=None) -> dict:
    """JSON-ready exact analysis of one turn under ``options``, plus the other option settings."""
    import time

    opts = _options(options)
    t0 = time.perf_counter()
    exp = solve(opts, "expected")
    t1 = time.perf_counter()
    up = solve(opts, "all_up")
    t2 = time.perf_counter()
    if progress:
        progress(1, 2)
    stop_masks = sorted((m for m in range(1, FULL) if not exp.goes_on(m)), key=lambda m: (-SUM_DOWN[m], m))
    go_masks = [m for m in range(1, FULL) if exp.goes_on(m)]
    variants = []
    for five_ops in ("plus_minus", "all"):
        for x5 in (False, True):
            o = {"five_ops": five_ops, "x5_on_stop": x5}
            e, u = solve(o, "expected"), solve(o, "all_up")
            variants.append({
                "options": o,
                "optimal_expected_score": exact_json(e.start_value()),
                "max_all_up_probability": exact_json(u.start_value()),
            })
    if progress:
        progress(2, 2)
    rounds = opts["rounds"]
    return {
        "game": Spiel2Game.id,
        "options": dict(opts),
        "optimal_expected_score": exact_json(exp.start_value()),
        "max_all_up_probability": exact_json(up.start_value()),
        "optimal_expected_total": exact_json(exp.start_value() * rounds),
        "all_up_probability_of_expected_policy": exact_json(evaluate(exp, "all_up")),
        "expected_score_of_all_up_policy": exact_json(evaluate(up, "expected")),
        "stop_rule": {
            "explain": "after a push the expected-optimal player stops exactly at these masks (slides up)",
            "by_slides_up": _table(exp),
            "stop_at": [list(UP[m]) for m in stop_masks],
            "go_on_count": len(go_masks),
        },
        "declined_usable_doubles_at_start": list(exp.declined_doubles(0)),
        "variants": variants,
        "solve_seconds": {"expected": round(t1 - t0, 4), "all_up": round(t2 - t1, 4)},
        "notes": "values are per turn from the start of a turn; a game is `rounds` independent turns per player",
    }


# --- numbers for lessons ---------------------------------------------------------------------------
def mask_of(up) -> int:
    """The slide mask with the slides ``up`` (numbers 1–9) up."""
    if any(type(v) is not int or not 1 <= v <= 9 for v in up):
        raise SpieltischError(f"slides are numbered 1–9, got {list(up)}")
    return sum(1 << (v - 1) for v in set(up))


def pushable(up=(), options=None) -> dict:
    """For each of the 36 ordered throws ``(a, b)``: the slides still down it can push when the
    slides ``up`` are up (an empty set: the throw pushes nothing). The 5's extra sums count once
    slide 5 is up (``five_ops`` as in ``options``)."""
    mask = mask_of(up)
    row = MAKE[_options(options)["five_ops"]][mask >> 4 & 1]
    free = {(a, b): row[a][b] & ~mask for a in range(1, 7) for b in range(1, 7)}
    return {t: frozenset(v for v in range(1, 10) if f >> (v - 1) & 1) for t, f in free.items()}


def push_chance(up=(), options=None) -> Fraction:
    """The probability that one throw can push at least one slide still down (``up`` are up)."""
    return Fraction(sum(1 for v in pushable(up, options).values() if v), 36)


def policy_value(bot, options=None) -> Fraction:
    """The exact expected points of one turn when ``bot`` makes every decision (it is asked with the
    observation fields ``phase``, ``mask`` and ``dice``). Positions are valued from the full board
    down, as in the solver; declined doubles are thrown again, so a position's throw value is the
    average over the throws the bot does not decline."""
    opts = _options(options)
    make, x5 = MAKE[opts["five_ops"]], bool(opts["x5_on_stop"])
    T: list = [None] * 512

    def after_push(m):
        if m == FULL:
            return Fraction(45)
        choice = bot.act({"phase": STOP_OR_THROW, "mask": m, "dice": None}, [STOP, ROLL], None)
        return Fraction(-SUM_DOWN[m] * (5 if x5 and m & FIVE else 1)) if choice == STOP else T[m]

    for m in range(FULL - 1, -1, -1):
        total, declined = Fraction(0), 0
        for a in range(1, 7):
            for b in range(1, 7):
                free = make[m >> 4 & 1][a][b] & ~m
                legal = [PUSH[v] for v in range(1, 10) if free >> (v - 1) & 1]
                if a == b:
                    legal += [DECLINE] if free else [DECLINE, ACCEPT]
                bust = Fraction(-(SUM_DOWN[m] + a + b) * (5 if m & FIVE else 1))
                if not legal:
                    total += bust
                    continue
                phase = CHOOSE if free else DOUBLES_BUST
                choice = bot.act({"phase": phase, "mask": m, "dice": (a, b)}, legal, None)
                if choice not in legal:
                    raise SpieltischError(f"policy_value: the bot chose {choice!r}, not a legal action")
                if choice == DECLINE:
                    declined += 1
                elif choice == ACCEPT:
                    total += bust
                else:
                    total += after_push(m | 1 << (choice.value - 1))
        if declined == 36:
            raise SpieltischError("policy_value: the bot declines every throw, the turn never ends")
        T[m] = total / (36 - declined)
    return T[0]


def throw_table(up=(), options=None) -> dict:
    """What each of the 36 ordered throws does under optimal play (expected points) when the slides
    ``up`` are up and the dice are about to be thrown: ``(kind, slide, value)`` with kind ``"push"``
    (the best slide to push and the value after it, the turn going on optimally), ``"bust"`` (the
    throw pushes nothing: its minus points) or ``"again"`` (doubles the optimal player declines:
    thrown again, so the throw does not count). The throw value ``solve(options).throw_value`` is the
    mean of the values over the throws that count."""
    sol = solve(options)
    mask = mask_of(up)
    if mask == FULL:
        raise SpieltischError("with all nine slides up the turn is already over")
    out = {}
    for (a, b), free in pushable(up, options).items():
        if a == b and a in sol.declined_doubles(mask):
            out[(a, b)] = ("again", None, None)
        elif free:
            v = max(sorted(free), key=lambda x: sol.push_value(mask, x))
            out[(a, b)] = ("push", v, sol.push_value(mask, v))
        else:
            out[(a, b)] = ("bust", None, sol.bust_value(mask, a, b))
    return out


def throw_counts(up=(), options=None) -> dict:
    """How many of the 36 ordered throws are of each kind of ``throw_table`` (the same throws, so a
    lesson's grid and its counts agree): ``{"push": n, "bust": n, "again": n}``."""
    counts = {"push": 0, "bust": 0, "again": 0}
    for kind, _, _ in throw_table(up, options).values():
        counts[kind] += 1
    return counts


def counted_push_chance(up=(), options=None) -> Fraction:
    """The probability that the throws from here (the slides ``up`` up, the dice about to be thrown)
    end in a push rather than a bust: the doubles thrown again (``throw_table``'s "again") are thrown
    again, so they do not count, pushes / (pushes + busts). With one slide left down these are exactly
    the doubles that cannot push it (pushing it wins +45), so this is the chance the last slide goes
    up; ``push_chance`` instead counts such doubles as throws that push nothing."""
    c = throw_counts(up, options)
    return Fraction(c["push"], c["push"] + c["bust"])
