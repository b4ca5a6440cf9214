"""Würfel Joker, Spiel 1: assembled from engine, bots and exact analysis, and registered."""

from ....core.registry import register
from . import analysis, bots
from .engine import Spiel1Game


def _analyze(game, progress=None) -> dict:
    return analysis.analyze(game.options, progress, threshold_choose=bots.threshold_choose)


register(
    Spiel1Game,
    bots={"threshold": bots.ThresholdBot, "optimal": bots.OptimalBot},
    advisor=analysis.advise,
    analyzer=_analyze,
    view="spieltisch.games.wuerfel_joker.view:WuerfelJokerView",
)

__all__ = ["Spiel1Game"]
