"""Bots for Würfel Joker, Spiel 2. They read the position from the observation only."""

from __future__ import annotations

from ....core.bots import Bot
from .analysis import solve
from .engine import ACCEPT, DECLINE, FIVE, PUSH, ROLL, STOP, STOP_OR_THROW, SUM_DOWN


class ThresholdBot(Bot):
    """How a person might play: push the 5 when possible (it opens the ±5 sums), else the largest
    value; stop as soon as the slides still down add up to ``stop_at`` or less (``stop_at_five``
    once slide 5 is up, since a failed throw then costs five times); throw again on unusable doubles,
    never decline usable ones."""

    name = "threshold"

    def __init__(self, game=None, stop_at: int = 10, stop_at_five: int = 15):
        self.stop_at = stop_at
        self.stop_at_five = stop_at_five

    def act(self, observation, legal_actions, rng):
        if observation["phase"] == STOP_OR_THROW:
            mask = observation["mask"]
            limit = self.stop_at_five if mask & FIVE else self.stop_at
            return STOP if SUM_DOWN[mask] <= limit else ROLL
        if DECLINE in legal_actions and ACCEPT in legal_actions:
            return DECLINE
        if PUSH[5] in legal_actions:
            return PUSH[5]
        pushes = [a for a in legal_actions if a is not DECLINE]
        return max(pushes, key=lambda a: a.value)


class OptimalBot(Bot):
    """Plays the exact optimal policy of one objective: ``expected`` points or ``all_up`` chance."""

    def __init__(self, game, objective: str = "expected"):
        self.solution = solve(game.options, objective)
        self.name = "optimal" if objective == "expected" else "optimal_all_up"

    def act(self, observation, legal_actions, rng):
        dice = observation["dice"]
        return self.solution.best_at(observation["mask"], tuple(dice) if dice else None, observation["phase"])
