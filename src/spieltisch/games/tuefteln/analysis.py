"""Exact and simulated facts about Tüfteln.

Exact: the category of one square whose four numbers are independent fair dice (6^4 cases), with
Fractions. Simulated: ``advise`` rates every placement of the current throw by rollouts, from the
advised player's observation.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from fractions import Fraction
from itertools import combinations, permutations, product

from ...core.advice import MAX_ROLLOUTS, Advice, Estimate, make_advice
from ...core.dist import exact_json
from ...core.errors import SpieltischError, short
from ...core.rng import Rng
from ...core.stats import mean_ci, paired_tie
from . import bots, scoring
from .engine import FIELDS, Throw, Tuefteln, TueftelnState, layout_for


def square_category_probabilities(descending_straights: bool = False) -> dict:
    """P(category) for a square of four independent fair dice, exactly; keys in ``ALL_NAMES`` order."""
    counts = dict.fromkeys(scoring.ALL_NAMES, 0)
    for v in product(range(1, 7), repeat=4):
        counts[scoring.category(*v, descending_straights)] += 1
    return {c: Fraction(n, 6 ** 4) for c, n in counts.items()}


def expected_square_points(descending_straights: bool = False) -> Fraction:
    p = square_category_probabilities(descending_straights)
    return sum((q * scoring.POINTS[c] for c, q in p.items()), Fraction(0))


def all_categories_probability(squares: int = 9, descending_straights: bool = False) -> Fraction:
    """P(all six scoring categories occur among ``squares`` independent random squares)
    (inclusion-exclusion over the categories that are missing)."""
    p = square_category_probabilities(descending_straights)
    total = Fraction(0)
    cats = scoring.CATEGORIES
    for k in range(len(cats) + 1):
        for missing in combinations(cats, k):
            total += (-1) ** k * (1 - sum((p[c] for c in missing), Fraction(0))) ** squares
    return total


# --- facts a lesson states (each number comes from here, so a lesson cannot disagree with the game) ---

POSITIONS = ("TL", "TR", "BR", "BL")  # clockwise from the top-left, as ``scoring.category`` takes them


def place_pairs() -> dict:
    """The 6 pairs of places in a square, split into the 4 orthogonal neighbours and the 2 diagonals
    (from the square's geometry: clockwise neighbours are orthogonal)."""
    out = {"orthogonal": [], "diagonal": []}
    for i, j in combinations(range(4), 2):
        kind = "orthogonal" if (j - i) % 4 in (1, 3) else "diagonal"
        out[kind].append((POSITIONS[i], POSITIONS[j]))
    return out


def two_numbers_twice(descending_straights: bool = False) -> dict:
    """Squares made of two different numbers, each twice, counted by category (of the 1296):
    ``{"number_pairs": 15, "two_pairs": 60, "cross": 30, ...}``: every pair of numbers {x, y}
    fits the 4 orthogonal and the 2 diagonal ways of placing x, so 2er + 2er is twice as common as
    Cross because there are twice as many ways to place it, not because of the numbers."""
    counts = dict.fromkeys(scoring.ALL_NAMES, 0)
    pairs = set()
    for v in product(range(1, 7), repeat=4):
        if len(set(v)) == 2 and v.count(v[0]) == 2:
            counts[scoring.category(*v, descending_straights)] += 1
            pairs.add(frozenset(v))
    return {"number_pairs": len(pairs), **{c: n for c, n in counts.items() if n}}


def random_squares(n: int, seed: int = 0, descending_straights: bool = False) -> list:
    """The categories of ``n`` squares filled with four seeded random dice each (TL, TR, BR, BL)."""
    rng = Rng(seed)
    return [scoring.category(rng.die(), rng.die(), rng.die(), rng.die(), descending_straights) for _ in range(n)]


def arrangements(numbers, descending_straights: bool = False) -> dict:
    """The same four numbers in every order a square can hold them (distinct orders only), counted
    by category: ``arrangements((2, 5, 2, 5)) == {"two_pairs": 4, "cross": 2}`` — where a number is
    written decides what the square is worth."""
    numbers = tuple(numbers)
    if len(numbers) != 4 or any(type(v) is not int or not 1 <= v <= 6 for v in numbers):
        raise SpieltischError(f"a square holds four die numbers 1-6, not {short(numbers)}")
    counts = {}
    for order in sorted(set(permutations(numbers))):
        c = scoring.category(*order, descending_straights)
        counts[c] = counts.get(c, 0) + 1
    return {c: counts[c] for c in scoring.ALL_NAMES if c in counts}


def square_completions(values, descending_straights: bool = False) -> dict:
    """Every way to fill the empty places (0) of one square with dice, counted by category:
    ``{"total": 6**empty, "categories": {category: count}, "points": {points: count}}``.
    ``values`` are the four numbers clockwise from the top-left (TL, TR, BR, BL)."""
    values = tuple(values)
    if len(values) != 4 or any(type(v) is not int or not 0 <= v <= 6 for v in values):
        raise SpieltischError(f"a square is four numbers 0-6 clockwise from the top-left (0 = empty), not {short(values)}")
    empty = [i for i, v in enumerate(values) if v == 0]
    cats = dict.fromkeys(scoring.ALL_NAMES, 0)
    for fill in product(range(1, 7), repeat=len(empty)):
        v = list(values)
        for i, x in zip(empty, fill):
            v[i] = x
        cats[scoring.category(*v, descending_straights)] += 1
    points = {}
    for c, n in cats.items():
        if n:
            points[scoring.POINTS[c]] = points.get(scoring.POINTS[c], 0) + n
    return {"total": 6 ** len(empty), "categories": {c: n for c, n in cats.items() if n},
            "points": dict(sorted(points.items()))}


def sheet_square(fields, square: int) -> tuple:
    """The four numbers of square ``square`` (0-8, left to right, top to bottom) of a sheet of 36
    numbers (0 = empty), clockwise from the top-left."""
    return tuple(fields[f] for f in scoring.SQUARES[square])


def binomial(n: int, p: Fraction) -> dict:
    """P(k successes in ``n`` independent trials with chance ``p``), exactly, for k = 0..n."""
    p = Fraction(p)
    return {k: Fraction(math.comb(n, k)) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


def sixes_distribution(throws: int = 15) -> dict:
    """The number of 6s among the ``2 * throws`` dice of ``throws`` throws of two dice (a game has
    15): binomial with n = 2 * throws, p = 1/6, exactly."""
    return binomial(2 * throws, Fraction(1, 6))


def distribution_summary(dist: dict) -> dict:
    """Mode (the most likely value, the smallest if several), expected value and variance of a
    distribution ``{value: probability}``, exactly; e.g. of ``sixes_distribution()``."""
    mean = sum((k * p for k, p in dist.items()), Fraction(0))
    var = sum(((k - mean) ** 2 * p for k, p in dist.items()), Fraction(0))
    top = max(dist.values())
    return {"mode": min(k for k, p in dist.items() if p == top), "mean": mean, "variance": var}


def simulated_sixes(games: int, seed: int = 0) -> list:
    """The number of 6s in each of ``games`` seeded games' 15 throws, game by game; the throws are
    the engine's (``sample_chance`` of a fresh game)."""
    rng = Rng(seed)
    state = Tuefteln(1).new_initial_state()
    out = []
    for _ in range(games):
        k = 0
        for _ in range(state.game.layout.rounds):
            t = state.sample_chance(rng)
            k += (t.first == 6) + (t.second == 6)
        out.append(k)
    return out


def first_round_pairs(side: str) -> int:
    """How many pairs of fields the first throw may go into on ``side`` (orders not counted)."""
    layout = layout_for(side)
    return len(layout.free_pairs(layout.full_free))


def side_groups(side: str) -> list:
    """The groups a throw's two fields must share on ``side``: ``[(name, number of fields)]``."""
    return [(name, len(fs)) for name, fs in layout_for(side).groups]


def bot_scores(bot: str, side: str, games: int, seed: int) -> list:
    """Final scores of ``games`` seeded solo games of ``bot`` on ``side`` (``core.simulate``)."""
    from ...core.simulate import simulate
    return list(simulate("tuefteln", 1, [bot], games, seed=seed, options={"side": side}).all_scores[0])


_STORED = None


def stored_bot_scores(bot: str, side: str) -> dict:
    """The scores of the strong bot's games kept in ``bot_scores.json`` (made by ``bot_scores``
    with the stored seed; a test replays the first games): ``{"games", "seed", "scores"}``. The
    strong bot takes about a second a game in the browser, too slow for a lesson to play 100."""
    global _STORED
    if _STORED is None:
        text = resources.files(__package__).joinpath("bot_scores.json").read_text(encoding="utf-8")
        _STORED = json.loads(text)
    try:
        return dict(_STORED[bot][side])
    except KeyError:
        raise SpieltischError(f"no stored games of the {bot!r} bot on side {side!r}") from None


def analyze(game, progress=None) -> dict:
    desc = game.options["descending_straights"]
    probs = square_category_probabilities(desc)
    other = square_category_probabilities(not desc)
    layout = game.layout
    return {
        "game": game.ruleset,
        "options": dict(game.options),
        "square_category_probabilities": {c: exact_json(q) for c, q in probs.items()},
        ("square_category_probabilities_ascending_only" if desc else
         "square_category_probabilities_with_descending_straights"): {c: exact_json(q) for c, q in other.items()},
        "random_square_expected_points": exact_json(expected_square_points(desc)),
        "random_nine_squares_bonus_probability": exact_json(all_categories_probability(9, desc)),
        "category_points": dict(scoring.POINTS),
        "bonus": scoring.BONUS,
        "rounds": layout.rounds,
        "sheet_provenance": layout.provenance,
        "solo_ratings": [{"points": scoring.tier_label(i), "de": de, "en": en}
                         for i, (_, de, en) in enumerate(scoring.RATINGS)],
        "note": "probabilities are for four independent fair dice in one square; the random-nine-squares "
                "bonus chance ignores pre-printed numbers and any choice by the player",
    }


def solo_from_observation(game, obs: dict) -> TueftelnState:
    """A one-player position built from what ``obs``'s viewer sees of their own sheet (the other
    sheets never change this player's score): their numbers, the round, and the throw if it is
    still theirs to write."""
    viewer = obs["player"]
    if viewer is None:
        raise SpieltischError("the spectator's view has no sheet of its own to advise on")
    solo = Tuefteln(1, dict(game.options)).new_initial_state()
    fields = [v for row in obs["sheets"][viewer]["fields"] for v in row]
    solo.sheets = [fields]
    solo.free = [sum(1 << f for f, v in enumerate(fields) if not v)]
    solo.rounds_done = obs["round"]
    solo.throw = Throw(*obs["throw"]) if obs["throw"] is not None and obs["to_move"] == viewer else None
    return solo


METHOD_TEXT = {
    "de": "geschätzt: jede Möglichkeit {n1}-mal zu Ende gespielt ({policy}), die besten {k} noch bis zu "
          "{n2}-mal (wer klar zurückliegt, früher nicht mehr), alle mit denselben Würfen; ★ = vom "
          "Besten nicht zu unterscheiden (gepaarter Vergleich, 95 %)",
    "en": "estimated: each option played out {n1} times ({policy}), the best {k} up to {n2} times (one "
          "clearly behind stops early), all with the same throws; ★ = cannot be told apart from the "
          "best (paired comparison, 95%)"}
POLICY_TEXT = {"greedy": {"de": "gierige Regel", "en": "greedy rule"},
               "strong": {"de": "starker Bot", "en": "strong bot"}}
OBJECTIVE_TEXT = {"de": "erwartete Punkte am Spielende (eigener Zettel)",
                  "en": "expected final points (own sheet)"}

# The advisor's default: every option is screened with SCREEN play-outs, the FINALISTS best of them
# get ROLLOUTS play-outs in all (the screening ones included). Every option's play-out i sees the same
# throws (common random numbers), so the finalists are compared pairwise: an option is starred when
# its mean difference to the leader's, over the same throws, is not clearly below 0.
ROLLOUTS = 240
SCREEN = 8  # at least; more when the game is short: SCREEN_BUDGET play-out steps for the screening
SCREEN_BUDGET = 24_000
FINALISTS = 8
BLOCK = 24  # the finalists are played on in blocks of this many play-outs; after each block a
Z_BEHIND = 3.29  # finalist whose paired difference to the leader is this many standard errors
# below 0 (99.9 %, two-sided) plays no further: it would not be starred, and the time goes to the rest


def _clearly_below(lead: list, other: list) -> bool:
    """Whether ``other`` is behind ``lead`` beyond doubt: the mean paired difference (same throws)
    lies more than ``Z_BEHIND`` standard errors above 0 (a stricter test than the star's)."""
    return len(lead) >= 2 and mean_ci([x - y for x, y in zip(lead, other)], Z_BEHIND).lo > 0


_SQ_OF = bots.SQ_OF
_POS_W = [bots.W[p] for p in bots.POS_OF]
_FIELD = [(f, _SQ_OF[f], _POS_W[f], 1 << f) for f in range(FIELDS)]  # a field: square, weight, bit
_PAIR_INFO: dict = {}  # layout -> _pair_info(layout)
_FREE_LISTS: dict = {}  # (layout, free mask) -> _free_lists(layout, free)


def rollout_throws(seed: int, n: int, rounds: int) -> list:
    """The throws of the ``n`` play-outs of one advice (the same for every option): per play-out, the
    ``rounds`` throws still to come and a seed for the rollout rule's tie-breaks."""
    master = Rng(seed)
    out = []
    for _ in range(n):
        s = master.spawn()
        rng = Rng(s)
        out.append(([(rng.die(), rng.die()) for _ in range(rounds)], (s + 1) % (2 ** 64)))
    return out


def _pair_info(layout) -> tuple:
    """Per pair of ``layout.pairs``, in its order: ``(f1, f2, mask, square or -1, w1, w2)`` — the
    square both fields lie in (-1 when they lie in two) and the fields' weights in its code."""
    got = _PAIR_INFO.get(layout)
    if got is None:
        got = _PAIR_INFO[layout] = tuple(
            (f1, f2, m, _SQ_OF[f1] if _SQ_OF[f1] == _SQ_OF[f2] else -1, _POS_W[f1], _POS_W[f2])
            for f1, f2, m in layout.pairs)
    return got


def _free_lists(layout, free: int) -> tuple:
    """The free fields ``(f, square, weight, bit)`` and the free pairs (``_pair_info``) of a mask
    (the lists are shared: not to be changed). An advice starts every play-out of an option from one
    mask, so the last few thousand are kept."""
    key = (layout, free)
    got = _FREE_LISTS.get(key)
    if got is None:
        if len(_FREE_LISTS) >= 4096:
            _FREE_LISTS.clear()
        got = _FREE_LISTS[key] = ([_FIELD[f] for f in range(FIELDS) if free >> f & 1],
                                  [p for p in _pair_info(layout) if p[2] & free == p[2]])
    return got


def _candidates(codes, fields, pairs, x: int, y: int, value) -> list:
    """``greedy_candidates`` on the free fields and pairs as lists (``_free_lists``): every
    placement whose gain is within 1e-9 of the best so far, in the order of the pairs, for each pair
    the throw as it comes (x first) before the throw turned round. Plain loops, one pass: in CPython
    3.11 they beat comprehensions and a two-pass search over the groups here (measured)."""
    gx, gy = [0.0] * FIELDS, [0.0] * FIELDS
    for f, s, w, _ in fields:
        c = codes[s]
        v0 = value[c]
        gx[f] = value[c + x * w] - v0
        gy[f] = value[c + y * w] - v0
    best, cands = -1e18, []
    if x == y:
        for f1, f2, _, s, w1, w2 in pairs:
            if s >= 0:
                c = codes[s]
                ga = value[c + x * w1 + y * w2] - value[c]
            else:
                ga = gx[f1] + gy[f2]
            if ga > best + 1e-9:
                best, cands = ga, [(f1, x, f2, y)]
            elif ga > best - 1e-9:
                cands.append((f1, x, f2, y))
        return cands
    for f1, f2, _, s, w1, w2 in pairs:
        if s >= 0:
            c = codes[s]
            base = value[c]
            ga = value[c + x * w1 + y * w2] - base
            gb = value[c + y * w1 + x * w2] - base
        else:
            ga = gx[f1] + gy[f2]
            gb = gy[f1] + gx[f2]
        if ga > best + 1e-9:
            best, cands = ga, [(f1, x, f2, y)]
        elif ga > best - 1e-9:
            cands.append((f1, x, f2, y))
        if gb > best + 1e-9:
            best, cands = gb, [(f1, y, f2, x)]
        elif gb > best - 1e-9:
            cands.append((f1, y, f2, x))
    return cands


def greedy_candidates(layout, codes, free: int, x: int, y: int, value) -> list:
    """The placements ``(f1, v1, f2, v2)`` of the throw ``x``, ``y`` the greedy rule may choose on a
    sheet (square ``codes``, free-field mask ``free``): those that most raise the summed value
    (``value``, the greedy bot's table) of the squares they touch, within 1e-9 — the greedy bot's
    rule, on square codes instead of observations (an advice plays thousands of games)."""
    return _candidates(codes, *_free_lists(layout, free), x, y, value)


def greedy_playout(layout, codes, free: int, throws, value, cat_points, cat_bits, tie_seed: int) -> int:
    """The final score of one sheet (square ``codes``, free-field mask ``free``) when ``throws`` are
    written by the greedy rule (``greedy_candidates``), ties broken at random (``Rng(tie_seed)``).
    The free fields and pairs are lists that shrink with each placement: an advice plays thousands
    of these, and a free mask seldom comes twice."""
    codes = list(codes)
    rng = None
    fields, pairs = _free_lists(layout, free)
    for x, y in throws:
        cands = _candidates(codes, fields, pairs, x, y, value)
        if len(cands) > 1:
            if rng is None:
                rng = Rng(tie_seed)
            f1, u, f2, v = cands[rng.below(len(cands))]
        else:
            f1, u, f2, v = cands[0]
        a, b = _FIELD[f1], _FIELD[f2]
        codes[a[1]] += u * a[2]
        codes[b[1]] += v * b[2]
        used = a[3] | b[3]
        pairs = [p for p in pairs if not p[2] & used]
        fields = [t for t in fields if not t[3] & used]
    total, done = 0, 0
    for c in codes:
        total += cat_points[c]
        done |= cat_bits[c]
    return total + (scoring.BONUS if done == bots.ALL_CATS else 0)


def advise(game, observation: dict, n_rollouts: int = ROLLOUTS, policy: str = "greedy", seed: int = 0,
           progress=None, screen: int | None = None, finalists: int = FINALISTS, include=()) -> Advice:
    """Every legal placement of the current throw for the observation's viewer, with its estimated
    final score.

    Each placement is played out ``screen`` times to the end by the greedy rule
    (``greedy_playout``), the ``finalists`` best (by mean) up to ``n_rollouts`` times in all; play-out
    i of every placement sees the same throws (common random numbers). The finalists are played on
    in blocks of ``BLOCK``; after a block, one clearly behind the leader (``_clearly_below``) stops.
    Starred (best): the leader and every finalist played to the end whose paired difference to the
    leader (same throws) has a 95 % interval reaching 0 — a tie is shown as a tie. ``policy``
    "strong" plays out with the strong bot instead (slow: for comparisons, not for live use).
    ``include``: placements that are finalists whatever the screening says and are played to the
    end (a review's chosen move, so its difference to the leader is measured on the same throws).
    ``progress(done, total)`` counts options screened, then finalists' blocks played. The advice
    keeps every option's play-out values (``Advice.samples``) for paired comparisons."""
    if type(n_rollouts) is not int or not 1 <= n_rollouts <= MAX_ROLLOUTS:
        raise SpieltischError(f"the advisor plays each option out 1 to {MAX_ROLLOUTS} times, not {short(n_rollouts)}")
    for name, n in (("screen", screen), ("finalists", finalists)):
        if (n is not None or name != "screen") and (type(n) is not int or not 1 <= n <= MAX_ROLLOUTS):
            raise SpieltischError(f"the advisor's {name} is a number of options or play-outs from 1 to "
                                  f"{MAX_ROLLOUTS}, not {short(n)}")
    if policy not in bots.BOTS:
        raise SpieltischError(f"the advisor's rollout policy is one of {', '.join(bots.BOTS)}, not {policy!r}")
    solo = solo_from_observation(game, observation)
    if solo.throw is None:
        raise SpieltischError(f"player {observation['player'] + 1} has no throw to write now")
    legal = solo.legal_actions()
    try:
        forced = [a for a in legal if any(type(a) is type(b) and a == b for b in include)]
    except TypeError:
        raise SpieltischError(f"include is a list of placements, not {short(include)}") from None
    layout = solo.game.layout
    rounds_left = layout.rounds - solo.rounds_done
    plays = rollout_throws(seed, n_rollouts, rounds_left)
    if policy == "greedy":
        desc = solo.game.descending
        value = bots.square_values(1.0, desc, tuple(scoring.POINTS[c] for c in scoring.ALL_NAMES))
        table = scoring.category_table(desc)
        cat_points = [0 if c is None else scoring.POINTS[c] for c in table]
        cat_bits = [bots.CAT_BIT.get(c, 0) for c in table]

        def play(action, k):
            f = list(solo.sheets[0])
            f[action.f1], f[action.f2] = action.v1, action.v2
            codes = bots.square_codes(f)
            free = solo.free[0] & ~((1 << action.f1) | (1 << action.f2))
            return greedy_playout(layout, codes, free, plays[k][0], value, cat_points, cat_bits, plays[k][1])
    else:
        bot = bots.BOTS[policy](solo.game)

        def play(action, k):
            sim = solo.clone()
            sim._apply(action)
            throws, tie_seed = plays[k]
            rng = Rng(tie_seed)
            for x, y in throws:
                sim._apply(Throw(x, y))
                sim._apply(bot.act(sim.observation(0), sim._legal_actions(), rng))
            return sim.scores()[0]

    scores = {}
    if screen is None:  # as many as the budget allows, at least SCREEN
        screen = max(SCREEN, SCREEN_BUDGET // (len(legal) * rounds_left or 1))
    screen = min(screen, n_rollouts)
    blocks = [(n, min(n + BLOCK, n_rollouts)) for n in range(screen, n_rollouts, BLOCK)]
    total = len(legal) + min(finalists + len(forced), len(legal)) * len(blocks)
    for j, action in enumerate(legal):
        scores[action] = [play(action, k) for k in range(screen)]
        if progress:
            progress(j + 1, total)
    ranked = sorted(legal, key=lambda a: -math.fsum(scores[a]))  # stable: ties keep the legal order
    # finalists: the screening's leader and the options it cannot tell apart from it (at most ``finalists``)
    top = [a for a in ranked if paired_tie(scores[ranked[0]], scores[a])]
    if blocks:
        top = top[:finalists]
    top += [a for a in forced if a not in top]
    done = len(legal)
    alive = list(top)
    for lo, hi in blocks:
        for action in alive:
            scores[action] += [play(action, k) for k in range(lo, hi)]
            done += 1
            if progress:
                progress(done, total)
        if hi < n_rollouts:  # a finalist clearly behind the leader so far plays no further
            lead = max(alive, key=lambda a: math.fsum(scores[a]))
            alive = [a for a in alive if a is lead or a in forced or not _clearly_below(scores[lead], scores[a])]
    if progress and done < total:
        progress(total, total)
    leader = max(alive, key=lambda a: math.fsum(scores[a]))
    best = {a for a in alive if paired_tie(scores[leader], scores[a])}
    valued = []
    for action in legal:
        est = mean_ci([float(x) for x in scores[action]])
        valued.append((action, Estimate(est.mean, est.lo, est.hi, est.n)))
    n1, k = screen, len(top) if blocks else 0
    method = {lang: t.format(n1=n1, k=k, n2=n_rollouts, policy=POLICY_TEXT[policy][lang])
              for lang, t in METHOD_TEXT.items()}
    return make_advice(valued, method=method, objective=OBJECTIVE_TEXT, best=best,
                       samples={a: tuple(v) for a, v in scores.items()})
