"""Schraube Locker (Stöhr / Lächner, Amigo): dice on a circle of cards, a pawn race, screws and nuts.

Assembled here: ``engine`` (rules, the reconstructed deck from ``deck.json``), ``analysis`` (exact
full-circle facts and the advisor), ``bots``, ``view`` (the shared front-end's drawing); registered with the core.
"""

from ...core.registry import register
from . import analysis, bots
from .engine import SchraubeLocker

register(SchraubeLocker, bots=bots.BOTS, advisor=analysis.advise, analyzer=analysis.analyze,
         view="spieltisch.games.schraube_locker.view:SchraubeLockerView")

__all__ = ["SchraubeLocker"]

from ...core.registry import register_questions  # noqa: E402

register_questions("schraube-locker", "spieltisch.games.schraube_locker.questions:QUESTIONS")
