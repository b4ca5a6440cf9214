"""Würfel Joker, Spiel 2: assembled from engine, bots and exact analysis, and registered."""

from ....core.registry import register
from . import analysis, bots
from .engine import Spiel2Game


def _analyze(game, progress=None) -> dict:
    return analysis.analyze(game.options, progress=progress)


register(
    Spiel2Game,
    bots={"threshold": bots.ThresholdBot, "optimal": bots.OptimalBot,
          "optimal_all_up": lambda game: bots.OptimalBot(game, "all_up")},
    advisor=analysis.advise,
    analyzer=_analyze,
    view="spieltisch.games.wuerfel_joker.view:WuerfelJokerView",
)

__all__ = ["Spiel2Game"]
