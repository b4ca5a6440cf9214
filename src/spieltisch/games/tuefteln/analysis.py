"""Exact and simulated facts about Tüfteln.

Exact: the category of one square whose four numbers are independent fair dice (6^4 cases), with
Fractions. Simulated: ``advise`` rates every placement of the current throw by rollouts.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

from ...core.dist import exact_json
from ...core.rng import Rng
from ...core.stats import mean_ci
from . import scoring
from .engine import TueftelnState


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


def solo_position(state: TueftelnState, player: int) -> TueftelnState:
    """A one-player copy of ``player``'s position (the other sheets never change this player's score)."""
    from .engine import Tuefteln

    game = Tuefteln(1, dict(state.options))
    solo = game.new_initial_state()
    solo.sheets = [list(state.sheets[player])]
    solo.free = [state.free[player]]
    solo.rounds_done = state.rounds_done
    solo.throw = state.throw if state.throw is not None and state.turn <= player else None
    solo.turn = 0
    return solo


def advise(state: TueftelnState, player: int, n_rollouts: int = 10, policy: str = "greedy",
           seed: int = 0, progress=None) -> list[dict]:
    """Every legal placement of the current throw for ``player`` with its estimated final score.

    Each placement is followed by ``n_rollouts`` random continuations played by ``policy``
    ("greedy" or "strong"); all placements see the same throws (common random numbers), so their
    differences are sharper than their intervals suggest. Best first.
    """
    from . import bots

    if n_rollouts < 1:
        raise ValueError("advise needs at least one rollout")
    solo = solo_position(state, player)
    if solo.throw is None:
        raise ValueError(f"player {player + 1} has no throw to write now")
    bot = bots.BOTS[policy](solo.game)
    legal = solo.legal_actions()
    seeds = [(Rng(seed).spawn() + i * 7919) % (2 ** 63) for i in range(n_rollouts)]
    out = []
    for j, action in enumerate(legal):
        scores = []
        for s in seeds:
            sim = solo.clone()
            sim._apply(action)
            rng, bot_rng = Rng(s), Rng(s + 1)
            while not sim.is_terminal():
                if sim.throw is None:
                    sim._apply(sim.sample_chance(rng))
                else:
                    sim._apply(bot.act(sim.observation(0), sim._legal_actions(), bot_rng))
            scores.append(float(sim.scores()[0]))
        est = mean_ci(scores)
        out.append({"action": action, "text": str(action), "json": action.to_json(),
                    "mean": est.mean, "ci95": [est.lo, est.hi], "n": est.n})
        if progress:
            progress(j + 1, len(legal))
    out.sort(key=lambda d: -d["mean"])
    return out
