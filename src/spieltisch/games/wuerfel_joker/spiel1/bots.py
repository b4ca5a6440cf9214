"""Bots for Würfel Joker Spiel 1. They decide from the observation (and the public table) only."""

from __future__ import annotations

from ....core.bots import Bot
from .analysis import solve
from .engine import ASSIGN, DECIDE, STOP, STOP_POINTS, THROW_AGAIN, mask_of


def threshold_choose(phase, mask, dice, row, jokers, legal):
    """A simple human rule: take the assignment that reaches the best table row now, else the one that
    keeps the most dice, else the one that pushes the most slides; stop as soon as the slides up score
    anything; never go into the jokers (so it never has to decide inside them; it would stop)."""
    if phase == ASSIGN:
        return max(legal, key=lambda a: (STOP_POINTS[mask | a.mask], a.keep, len(a.pushed)))
    if phase == DECIDE:
        return STOP if STOP_POINTS[mask] > 0 else THROW_AGAIN
    return STOP


class ThresholdBot(Bot):
    name = "threshold"

    def __init__(self, game=None):
        self.game = game

    def act(self, observation, legal_actions, rng):
        o = observation
        return threshold_choose(o["phase"], mask_of(o["pushed"]), o["dice_in_play"], -1, o["jokers"],
                                legal_actions)


class OptimalBot(Bot):
    """Maximises the expected score of each turn (exact solver)."""

    name = "optimal"

    def __init__(self, game=None):
        self.solution = solve(game.options if game is not None else None)

        self._memo = {}

    def act(self, observation, legal_actions, rng):
        o = observation
        # the legal actions follow from the public position, so the best one can be remembered
        key = (o["phase"], tuple(o["pushed"]), o["dice_in_play"], o["row"] if o["in_jokers"] else None,
               o["jokers"], tuple(sorted(o["throw"])) if o["phase"] == ASSIGN else None)
        best = self._memo.get(key)
        if best is None or best not in legal_actions:
            best = self._memo[key] = self.solution.values_from_observation(o, legal_actions)[0][0]
        return best
