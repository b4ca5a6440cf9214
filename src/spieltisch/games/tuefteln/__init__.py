"""Tüfteln (Walter / Staupe): write two shared dice per round into 2×2 squares; sides A and B.

Assembled here from the template's files: ``engine`` (rules), ``bots``, ``analysis`` (exact facts
and the rollout advisor); registered with the core.
"""

from ...core.registry import register
from . import analysis, bots
from .engine import Place, Throw, Tuefteln

register(
    Tuefteln,
    bots=bots.BOTS,
    advisor=analysis.advise,
    analyzer=analysis.analyze,
    view="spieltisch.games.tuefteln.view:TueftelnView",
)

__all__ = ["Place", "Throw", "Tuefteln"]

from ...core.registry import register_questions  # noqa: E402

register_questions("tuefteln", "spieltisch.games.tuefteln.questions:QUESTIONS")
