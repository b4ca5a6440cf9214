"""Exact and simulated facts about Tüfteln.

Exact: the category of one square whose four numbers are independent fair dice (6^4 cases), with
Fractions. Simulated: ``advise`` rates every placement of the current throw by rollouts, from the
advised player's observation.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

from ...core.advice import MAX_ROLLOUTS, Advice, Estimate, make_advice
from ...core.dist import exact_json
from ...core.errors import SpieltischError, short
from ...core.rng import Rng
from ...core.stats import mean_ci
from . import bots, scoring
from .engine import Throw, Tuefteln, TueftelnState


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


METHOD_TEXT = {"de": "geschätzt: jede Möglichkeit {n}-mal zu Ende gespielt ({policy}-Bot), alle mit denselben Würfen",
               "en": "estimated: each option played out {n} times ({policy} bot), all with the same throws"}
OBJECTIVE_TEXT = {"de": "erwartete Punkte am Spielende (eigener Zettel)",
                  "en": "expected final points (own sheet)"}


def advise(game, observation: dict, n_rollouts: int = 10, policy: str = "greedy", seed: int = 0,
           progress=None) -> Advice:
    """Every legal placement of the current throw for the observation's viewer, with its estimated
    final score.

    Each placement is followed by ``n_rollouts`` random continuations played by ``policy``
    ("greedy" or "strong"); all placements see the same throws (common random numbers), so their
    differences are sharper than their intervals suggest."""
    if type(n_rollouts) is not int or not 1 <= n_rollouts <= MAX_ROLLOUTS:
        raise SpieltischError(f"the advisor plays each option out 1 to {MAX_ROLLOUTS} times, not {short(n_rollouts)}")
    if policy not in bots.BOTS:
        raise SpieltischError(f"the advisor's rollout policy is one of {', '.join(bots.BOTS)}, not {policy!r}")
    solo = solo_from_observation(game, observation)
    if solo.throw is None:
        raise SpieltischError(f"player {observation['player'] + 1} has no throw to write now")
    bot = bots.BOTS[policy](solo.game)
    legal = solo.legal_actions()
    seeds = [(Rng(seed).spawn() + i * 7919) % (2 ** 63) for i in range(n_rollouts)]
    valued = []
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
        valued.append((action, Estimate(est.mean, est.lo, est.hi, est.n)))
        if progress:
            progress(j + 1, len(legal))
    method = {k: v.format(n=n_rollouts, policy=policy) for k, v in METHOD_TEXT.items()}
    return make_advice(valued, method=method, objective=OBJECTIVE_TEXT)
