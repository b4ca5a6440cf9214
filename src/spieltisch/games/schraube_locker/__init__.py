"""Schraube Locker (Stöhr / Lächner, Amigo): dice on a circle of cards, a pawn race, screws and nuts.

Assembled here: ``engine`` (rules, the reconstructed deck from ``deck.json``), ``analysis`` (exact
full-circle facts and the advisor), ``bots``; registered with the core (no view yet).
"""

from ...core.registry import register
from . import analysis, bots
from .engine import SchraubeLocker

register(SchraubeLocker, bots=bots.BOTS, advisor=analysis.advise, analyzer=analysis.analyze)

__all__ = ["SchraubeLocker"]
