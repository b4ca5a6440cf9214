"""Scratch Island bots. Both see the observation only (chances are counts of what is still
hidden, never the true map).

- ``greedy``: the die and placement with the most expected points right now plus progress towards
  the nearest target only; cells in the order offered; the roller adds the two dice's values as if
  the first could meet no snake.
- ``strong``: the shared evaluation (``analysis.Evaluator``): progress towards the best open chest or
  cross (weight × (4/5)^distance; a sum over all targets played clearly worse, it dithers between
  them), expected gains counted in the scratching order (a snake ends the turn), cells that
  cannot hide a snake scratched first, the roller's second die valued on the map after the first and
  only if the first meets no snake, and the pickaxe combined with a motif where that is worth more.

Both know the end from the observation (``rounds_left``, D9): in their last use of dice only points
count (``analysis.Evaluator``'s ``final``).
"""

from __future__ import annotations

from ...core.bots import Bot
from . import analysis


class _ValueBot(Bot):
    nearest_only = False
    lookahead = True

    def __init__(self, game=None):
        self.game = game

    def act(self, observation, legal_actions, rng):
        if len(legal_actions) == 1:
            return legal_actions[0]
        valued = analysis.decision_values(observation, legal_actions, exact=False,
                                          nearest_only=self.nearest_only, lookahead=self.lookahead)
        best = max(v for _, v, _ in valued)
        top = [a for a, v, _ in valued if v >= best - 1e-9]
        return top[rng.below(len(top))]


class GreedyBot(_ValueBot):
    name = "greedy"
    nearest_only = True
    lookahead = False

    def act(self, observation, legal_actions, rng):
        if observation["phase"] == "scratch":
            return legal_actions[0]  # no thought about the order
        return super().act(observation, legal_actions, rng)


class StrongBot(_ValueBot):
    name = "strong"
    nearest_only = analysis.STRONG["nearest_only"]
    lookahead = analysis.STRONG["lookahead"]


BOTS = {"greedy": GreedyBot, "strong": StrongBot}
